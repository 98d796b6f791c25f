/**
 * Keyboard access for the controls Foundry draws as links or images (tab links, the portrait's
 * editImage, SVG clocks): Enter and Space press them, the arrow keys move between tabs, and a
 * clock drawn as a slider steps with the arrow keys, Home and End. Buttons need none of this.
 */

/** Keys that press a control. */
const PRESS = new Set(["Enter", " "]);

/**
 * The value a slider moves to for a key, or null for a key it ignores.
 * @param {string} key
 * @param {number} value  Its value now.
 * @param {number} max
 * @returns {number | null}
 */
export function sliderStep(key, value, max) {
  switch (key) {
    case "ArrowUp": case "ArrowRight": return Math.min(max, value + 1);
    case "ArrowDown": case "ArrowLeft": return Math.max(0, value - 1);
    case "Home": return 0;
    case "End": return max;
    default: return null;
  }
}

/**
 * Listen on an application's element (once: it outlives its re-rendered parts) for the keys of
 * its link-like controls and sliders.
 * @param {HTMLElement} root
 * @param {(slider: HTMLElement, value: number) => unknown} [onSlide]  Moves a `[role=slider]` to a value.
 */
export function activateKeyboard(root, onSlide) {
  root.addEventListener("keydown", event => {
    const target = /** @type {HTMLElement | null} */ (event.target instanceof Element ? event.target : null);
    if (!target || event.altKey || event.ctrlKey || event.metaKey) return;
    const role = target.getAttribute("role");
    if (role === "slider" && onSlide) {
      const next = sliderStep(event.key, Number(target.getAttribute("aria-valuenow")), Number(target.getAttribute("aria-valuemax")));
      if (next === null) return;
      event.preventDefault();
      if (next !== Number(target.getAttribute("aria-valuenow"))) onSlide(target, next);
      return;
    }
    if (role === "tab" && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      const tabs = /** @type {HTMLElement[]} */ ([...(target.closest("[role=tablist]")?.querySelectorAll("[role=tab]") ?? [])]);
      const next = tabs[(tabs.indexOf(target) + (event.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
      event.preventDefault();
      next?.focus();
      next?.click();
      return;
    }
    if ((role === "tab" || role === "button") && !(target instanceof HTMLButtonElement) && PRESS.has(event.key)) {
      event.preventDefault();
      target.click();
    }
  });
}

/**
 * After a tab change, mark the selected tab for assistive technology and keep only it in the tab
 * order (the arrow keys reach the others).
 * @param {HTMLElement | null} root
 * @param {string} group
 * @param {string} tab
 */
export function markSelectedTab(root, group, tab) {
  for (const link of root?.querySelectorAll(`[role=tab][data-group="${group}"]`) ?? []) {
    const selected = link.getAttribute("data-tab") === tab;
    link.setAttribute("aria-selected", String(selected));
    link.setAttribute("tabindex", selected ? "0" : "-1");
  }
}
