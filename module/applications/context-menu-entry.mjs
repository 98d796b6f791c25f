/**
 * Context menu entries across Foundry generations. v13 reads `{name, icon, condition, callback}`
 * with `callback(target)`; v14 renamed them `{label, icon, visible, onClick}` with
 * `onClick(event, target)` and logs a deprecation for the old names until v16 (v14 API,
 * `foundry.ContextMenuEntry`). Core's own entries come in the running generation's shape, so a
 * filter on their label must read either. Branch on `game.release.generation`, as
 * message-mode.mjs does.
 */

/**
 * @typedef {object} EntrySpec  What an entry is, in neither generation's names.
 * @property {string} label                       An i18n key.
 * @property {string} icon                        The icon's HTML.
 * @property {(target: HTMLElement) => boolean} visible
 * @property {(target: HTMLElement) => void} onClick
 */

/**
 * v14's entry, which foundry-vtt-types 13 does not declare.
 * @typedef {{label: string, icon: string, visible: (target: HTMLElement) => boolean,
 *   onClick: (event: Event, target: HTMLElement) => void}} V14Entry
 */

/**
 * Does Foundry read context menu entries by `label`/`visible`/`onClick` (v14 and later)?
 * @returns {boolean}
 */
export function usesEntryLabels() {
  return (game.release?.generation ?? 13) >= 14;
}

/**
 * An entry's label (its i18n key), in either generation's shape.
 * @param {{name?: string, label?: string}} entry
 * @returns {string}
 */
export function entryLabel(entry) {
  return String(entry.label ?? entry.name ?? "");
}

/**
 * An entry in the running generation's shape.
 * @param {EntrySpec} spec
 * @returns {ContextMenu.Entry<HTMLElement>}
 */
export function contextEntry({ label, icon, visible, onClick }) {
  if (!usesEntryLabels()) return { name: label, icon, condition: visible, callback: onClick };
  /** @type {V14Entry} */
  const entry = { label, icon, visible, onClick: (_event, target) => onClick(target) };
  // the declared return type is v13's; Foundry v14 reads this shape
  return /** @type {ContextMenu.Entry<HTMLElement>} */ (/** @type {unknown} */ (entry));
}
