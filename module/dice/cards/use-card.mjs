/**
 * The use card: what an item says when it is used (its name, cost, range and area, tags, charges,
 * text, the Combo version used), its targets, and a button per effect it applies and per target
 * that must save. Pure: the context is built from plain data with a `format` function, so node
 * tests and the browser test build the card the use flow posts.
 */
import { SYSTEM_PATH } from "../../config.mjs";
import { abilitySummary } from "../../data/ability-rules.mjs";

export const USE_CARD_TEMPLATE = `${SYSTEM_PATH}/templates/chat/use-card.hbs`;

/**
 * @typedef {object} UseEffect  One of an ability's effects, as its card keeps it.
 * @property {"use"|"hit"|"failedSave"} trigger
 * @property {string} status     A status id, or "".
 * @property {"save"|"ongoing"|"turn"} duration
 * @property {string} mark       A mark's name, or "".
 * @property {string} movement   Forced movement, as text.
 * @property {string} text       Anything else, as text.
 */

/**
 * @typedef {object} UseTarget  A target named on the card.
 * @property {string} uuid  Its actor's UUID (an unlinked token's synthetic actor's).
 * @property {string} name
 * @property {string} [img]
 */

/**
 * @typedef {object} UseRecord  What a use card stores in `flags.icon-engine.use`.
 * @property {string} actor     The user's UUID.
 * @property {string} item      The item's UUID.
 * @property {string} name      The item's name when used.
 * @property {"attack"|"save"|"card"} kind
 * @property {UseEffect[]} effects
 * @property {UseTarget[]} targets
 * @property {{boons: number, curses: number} | null} save  The save it calls for.
 * @property {"baseVersion"|"comboVersion"|null} combo
 */

/** @typedef {(key: string, data?: Record<string, string>) => string} Format */

/**
 * An effect as the card's line says it: the status (and how long), the mark, the movement, the text.
 * @param {UseEffect} effect
 * @param {Format} format
 */
export function effectLine(effect, format) {
  const parts = [];
  if (effect.status) {
    const status = format(`ICONENGINE.Status.${effect.status}.name`);
    parts.push(format(`ICONENGINE.Use.Duration.${effect.duration}`, { status }));
  }
  if (effect.mark) parts.push(format("ICONENGINE.Use.Mark", { mark: effect.mark }));
  if (effect.movement) parts.push(effect.movement);
  if (effect.text) parts.push(effect.text);
  return parts.join("; ");
}

/**
 * The card's context.
 * @param {object} options
 * @param {{name: string, img: string, type: string, system: import("../../data/ability-rules.mjs").AbilityLike & {resolveCost?: number, trigger?: string}}} options.item
 * @param {string} options.html       The item's text (enriched, cleaned), or its Combo version's.
 * @param {UseRecord} options.record
 * @param {Format} options.format
 */
export function useCardContext({ item, html, record, format }) {
  const summary = abilitySummary(item.system);
  const say = (/** @type {{key: string, data: Record<string, string>} | null} */ entry) => (entry ? format(entry.key, entry.data) : "");
  const chips = [say(summary.cost), say(summary.range), say(summary.area), say(summary.limit)].filter(Boolean);
  if (summary.charges) chips.push(format("ICONENGINE.Use.Charges", { value: String(summary.charges.value), max: String(summary.charges.max) }));
  if (item.system.resolveCost) chips.push(format("ICONENGINE.Use.ResolveCost", { cost: String(item.system.resolveCost) }));
  return {
    name: item.name,
    img: item.img,
    typeLabel: format(`TYPES.Item.${item.type}`),
    chips,
    trigger: summary.trigger,
    tags: summary.tags.map(tag => format(`ICONENGINE.Tag.${tag}`)),
    combo: record.combo ? format(`ICONENGINE.Rules.Tokens.${record.combo}`) : "",
    html,
    targets: record.targets,
    save: record.save ? {
      label: format("ICONENGINE.Use.SaveCalled", { boons: String(record.save.boons), curses: String(record.save.curses) }),
      targets: record.targets.map(t => ({ ...t, label: format("ICONENGINE.Use.SaveButton", { name: t.name }) }))
    } : null,
    effects: record.effects.map((effect, index) => ({
      index,
      when: format(`ICONENGINE.Use.Trigger.${effect.trigger}`),
      line: effectLine(effect, format),
      // A status or a mark lands on the targets by a button; movement and text are for the table.
      canApply: !!(effect.status || effect.mark) && record.targets.length > 0 && effect.trigger !== "failedSave",
      label: format("ICONENGINE.Use.ApplyEffect", { effect: effectLine({ ...effect, movement: "", text: "" }, format) })
    }))
  };
}
