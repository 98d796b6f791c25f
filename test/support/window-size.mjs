/**
 * Windows as wide as Foundry makes them (imported by page code of the browser tests): v13's
 * `setPosition` gives each application its `position.width`, or, for "auto", the width of its
 * content, on a window floating over the board. The harness lays windows out in the page's flow,
 * where they would otherwise take the page's whole width; this sets each one's width at its first
 * render. Heights are left to the content, so a test sees (and drags to) the whole window. The
 * hotbar, which v13 lays out itself, is left alone.
 */
export function sizeWindows() {
  Hooks.on("renderApplicationV2", (app, element, context, options) => {
    if (!options.isFirstRender || app.id === "hotbar") return;
    const { width } = app.position ?? {};
    element.style.width = typeof width === "number" ? `${width}px` : "max-content";
  });
}
