/**
 * The sanitiser the pack import runs on every field the core reported: Foundry's
 * `foundry.utils.cleanHTML` (its allowlist of elements and attributes drops scripts, handlers,
 * `meta`, `base`, `link` and `style` elements), then what that allowlist keeps but the core
 * reports: `style` attributes that pin an element over the window (`position: fixed`, read
 * through CSSOM, so every spelling counts), and, should the allowlist ever keep them, the
 * elements that navigate or load from elsewhere.
 */

/** Elements the import never keeps, whatever `cleanHTML` allows. */
const DROPPED = "script, meta, base, link, style, object, embed, frame, frameset";

/**
 * @param {string} html
 * @param {(html: string) => string} [cleanHTML]  Foundry's, by default.
 * @returns {string}
 */
export function cleanImported(html, cleanHTML = foundry.utils.cleanHTML) {
  const template = document.createElement("template");
  template.innerHTML = cleanHTML(html);
  for (const el of template.content.querySelectorAll(DROPPED)) el.remove();
  for (const el of template.content.querySelectorAll("[style]")) {
    const style = /** @type {HTMLElement} */ (el).style;
    const position = style.getPropertyValue("position");
    if (position === "fixed" || position.includes("(")) style.removeProperty("position");
    if (!style.length) el.removeAttribute("style");
  }
  return template.innerHTML;
}
