/**
 * A GM's button in the header of sidebar directories (v13 passes each `render<Name>Directory`
 * hook the directory's HTMLElement; its `.header-actions` holds core's create buttons).
 * @param {("renderItemDirectory" | "renderActorDirectory" | "renderCompendiumDirectory" | "renderJournalDirectory")[]} hooks
 * @param {object} button
 * @param {string} button.cssClass  Marks the button, so a re-render adds it once.
 * @param {string} button.icon      A Font Awesome icon class.
 * @param {string} button.label     An i18n key.
 * @param {() => unknown} button.open  What a click does.
 */
export default function addDirectoryButton(hooks, { cssClass, icon, label, open }) {
  for (const hook of hooks) {
    Hooks.on(hook, (/** @type {unknown} */ app, /** @type {unknown} */ html) => {
      const element = /** @type {HTMLElement} */ (html);
      if (!game.user?.isGM || element.querySelector(`.${cssClass}`)) return;
      const button = document.createElement("button");
      button.type = "button";
      button.classList.add(cssClass);
      const i = document.createElement("i");
      i.classList.add("fa-solid", icon);
      i.inert = true;
      button.append(i, " ", game.i18n?.localize(label) ?? label);
      button.addEventListener("click", open);
      (element.querySelector(".header-actions") ?? element).append(button);
    });
  }
}
