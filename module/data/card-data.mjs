/**
 * An ability's card: what using an ability (or a basic attack) stores on its chat message
 * (`flags.icon-engine.card`), and how it is read back. The message is its author's, so the record
 * is a claim: {@link checkedCard} cuts whatever the flag holds to this shape (known enums, bounded
 * lists and text, whole numbers in range) before anything renders or applies it, and the card and
 * its controls are built from the checked record and the message's rolls, never from its HTML.
 * Pure: no Foundry API, so node tests run this exact code.
 */
import { ABILITY_ACTIONS, ABILITY_TAGS } from "./rules.mjs";
import { AREA_SHAPES, EFFECT_DURATIONS, EFFECT_TRIGGERS, LIMITS, MOVE_KINDS, RANGE_KINDS, TARGET_KINDS, USER_MOVES } from "./ability-rules.mjs";

/** The flag (under the system's scope) of an ability's card. */
export const CARD_FLAG = "card";

/** The shape this module writes; a card of another version is not read. */
export const CARD_VERSION = 1;

/** Bounds of what a card holds (an ability has at most 12 effects; Foundry targets far fewer than 64 tokens). */
export const CARD_LIMITS = Object.freeze({ parts: 12, targets: 64, name: 100, text: 500, html: 20_000, uuid: 300, trigger: 200, tags: 16 });

/** How a card was made: an ability's attack, its call for saves, or its effects alone. */
export const CARD_KINDS = /** @type {const} */ (["attack", "save", "card"]);

/** The basic attacks every character has ("Light attack (1 action) ... Heavy Attack (2 actions)"). */
export const BASIC_ATTACKS = /** @type {const} */ (["", "light", "heavy"]);

/**
 * @typedef {object} CardMove  Forced movement a part makes ("Shove: Move a character involuntarily
 *   X spaces in a straight line away from you").
 * @property {"" | "shove" | "pull" | "move" | "teleport" | "rush"} kind  Away from the user, towards it, or any way
 *   (dragged); the user's own teleport (a space picked on the map) or rush (dragged).
 * @property {number} spaces
 */

/**
 * @typedef {object} CardPart  One of the ability's effects, as the card keeps it.
 * @property {typeof EFFECT_TRIGGERS[number]} trigger
 * @property {number} gamble   Gamble N+: the lowest d6 face that fires it (1–6; read only for "gamble").
 * @property {"target" | "self"} to
 * @property {string} status   A status id, or "".
 * @property {typeof EFFECT_DURATIONS[number]} duration
 * @property {string} mark     The mark it places (its unique name), or "".
 * @property {CardMove} move
 * @property {string} text     Anything else, as text: that part of the ability's words.
 */

/**
 * @typedef {object} CardSummary  What the card's header says of the ability (abilitySummary reads it).
 * @property {string} actions
 * @property {number} interrupt
 * @property {string} trigger
 * @property {string[]} tags
 * @property {{kind: string, value: number}} range
 * @property {{shape: string, size: number}} area
 * @property {{per: string}} limit
 * @property {{value: number, max: number}} charges
 * @property {number} resolveCost
 */

/**
 * @typedef {object} CardTarget  A target the use named: its actor (an unlinked token's synthetic
 *   actor's uuid) and, when it stood on a scene, its token. Names are read from these documents
 *   when the card renders, never stored.
 * @property {string} actor
 * @property {string} token
 */

/**
 * @typedef {object} CardRecord  `flags.icon-engine.card`.
 * @property {number} v
 * @property {string} actor   The user (an actor uuid).
 * @property {string} item    The ability's uuid, or "" (a basic attack).
 * @property {string} name    The ability's name when used ("" for a basic attack).
 * @property {string} img
 * @property {string} type    The item's type ("ability", "relic", "trait"), or "".
 * @property {typeof BASIC_ATTACKS[number]} basic
 * @property {typeof CARD_KINDS[number]} kind
 * @property {"" | "baseVersion" | "comboVersion"} combo
 * @property {CardSummary} summary
 * @property {string} html    The ability's text as used (enriched and cleaned when posted; cleaned again when shown).
 * @property {CardPart[]} parts
 * @property {{boons: number, curses: number, forHalf: boolean} | null} save
 * @property {CardTarget[]} targets
 * @property {{bloodied: boolean, slowTurn: boolean}} user  The user when it used the ability (Comeback, Charge).
 * @property {string} template  The area it placed (a MeasuredTemplate uuid), or "".
 * @property {string} cause     The stance or aura the use began on its user (an ActiveEffect uuid), or "": its
 *   ongoing parts last while it does.
 */

/**
 * A string of at most `max` characters (longer ones cut), else "".
 * @param {unknown} value
 * @param {number} max
 */
function text(value, max) {
  return typeof value === "string" ? value.slice(0, max) : "";
}

/**
 * One of `choices`, else `fallback`.
 * @template {string} T
 * @param {unknown} value
 * @param {readonly T[]} choices
 * @param {T} fallback
 * @returns {T}
 */
function oneOf(value, choices, fallback) {
  return choices.includes(/** @type {T} */ (value)) ? /** @type {T} */ (value) : fallback;
}

/**
 * A whole number in [min, max], else `fallback`.
 * @param {unknown} value
 * @param {number} min
 * @param {number} max
 * @param {number} fallback
 */
function whole(value, min, max, fallback) {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max ? value : fallback;
}

/** @param {unknown} value @returns {Record<string, unknown>} */
const record = value => (value && typeof value === "object" && !Array.isArray(value) ? /** @type {Record<string, unknown>} */ (value) : {});

/** @param {unknown} value @returns {unknown[]} */
const list = value => (Array.isArray(value) ? value : []);

/**
 * A part cut to its shape. `known` are the status ids the system knows; any other status is "".
 * @param {unknown} raw
 * @param {Set<string>} known
 * @returns {CardPart}
 */
export function checkedPart(raw, known) {
  const p = record(raw);
  const move = record(p.move);
  const status = typeof p.status === "string" && known.has(p.status) ? p.status : "";
  const kind = oneOf(move.kind, MOVE_KINDS, "");
  return {
    trigger: oneOf(p.trigger, EFFECT_TRIGGERS, "use"),
    gamble: whole(p.gamble, 1, 6, 4),
    // A teleport or a rush is its user's own movement: it lands on the user, whatever `to` says.
    to: USER_MOVES.some(k => k === kind) ? "self" : oneOf(p.to, TARGET_KINDS, "target"),
    status,
    duration: oneOf(p.duration, EFFECT_DURATIONS, "save"),
    mark: text(p.mark, CARD_LIMITS.name).trim(),
    move: { kind, spaces: whole(move.spaces, 0, 10, 0) },
    text: text(p.text, CARD_LIMITS.text)
  };
}

/**
 * The card a message's flag claims, cut to the shape this module writes; null when the flag is
 * no card (or of another version). Whatever else the flag holds is dropped.
 * @param {unknown} raw
 * @param {Set<string>} known  The status ids the system knows.
 * @returns {CardRecord | null}
 */
export function checkedCard(raw, known) {
  const c = record(raw);
  if (c.v !== CARD_VERSION || typeof c.actor !== "string" || !c.actor) return null;
  const s = record(c.summary);
  const save = c.save && typeof c.save === "object" ? record(c.save) : null;
  const user = record(c.user);
  const tags = list(s.tags).filter(tag => ABILITY_TAGS.includes(/** @type {never} */ (tag))).slice(0, CARD_LIMITS.tags);
  return {
    v: CARD_VERSION,
    actor: text(c.actor, CARD_LIMITS.uuid),
    item: text(c.item, CARD_LIMITS.uuid),
    name: text(c.name, CARD_LIMITS.name),
    img: text(c.img, CARD_LIMITS.uuid),
    type: oneOf(c.type, ["ability", "relic", "trait"], ""),
    basic: oneOf(c.basic, BASIC_ATTACKS, ""),
    kind: oneOf(c.kind, CARD_KINDS, "card"),
    combo: oneOf(c.combo, ["baseVersion", "comboVersion"], ""),
    summary: {
      actions: oneOf(s.actions, ABILITY_ACTIONS, "1"),
      interrupt: whole(record(s).interrupt, 1, 10, 1),
      trigger: text(s.trigger, CARD_LIMITS.trigger),
      tags: /** @type {string[]} */ ([...new Set(tags)]),
      range: { kind: oneOf(record(s.range).kind, RANGE_KINDS, ""), value: whole(record(s.range).value, 0, 100, 0) },
      area: { shape: oneOf(record(s.area).shape, ["", ...AREA_SHAPES], ""), size: whole(record(s.area).size, 1, 10, 1) },
      limit: { per: oneOf(record(s.limit).per, LIMITS, "") },
      charges: { value: whole(record(s.charges).value, 0, 20, 0), max: whole(record(s.charges).max, 0, 20, 0) },
      resolveCost: whole(s.resolveCost, 0, 10, 0)
    },
    html: text(c.html, CARD_LIMITS.html),
    parts: list(c.parts).slice(0, CARD_LIMITS.parts).map(part => checkedPart(part, known)),
    save: save ? { boons: whole(save.boons, 0, 6, 0), curses: whole(save.curses, 0, 6, 0), forHalf: save.forHalf === true } : null,
    targets: list(c.targets).slice(0, CARD_LIMITS.targets).map(t => ({ actor: text(record(t).actor, CARD_LIMITS.uuid),
      token: text(record(t).token, CARD_LIMITS.uuid) })).filter(t => !!t.actor),
    user: { bloodied: user.bloodied === true, slowTurn: user.slowTurn === true },
    template: text(c.template, CARD_LIMITS.uuid),
    cause: text(c.cause, CARD_LIMITS.uuid)
  };
}

/**
 * @typedef {object} AbilitySystem  What a card reads of an ability's (relic's, trait's) `system`.
 * @property {string} [actions]
 * @property {number} [interrupt]
 * @property {string} [trigger]
 * @property {string[]} [tags]
 * @property {{kind?: string, value?: number}} [range]
 * @property {{shape?: string, size?: number}} [area]
 * @property {{per?: string}} [limit]
 * @property {{value?: number, max?: number}} [charges]
 * @property {number} [resolveCost]
 * @property {{enabled?: boolean, boons?: number, curses?: number}} [save]
 * @property {{saveForHalf?: boolean}} [roll]
 * @property {{mark?: string, trueStrike?: boolean}} [attack]
 * @property {Partial<CardPart> & {movement?: string}[]} [effects]
 */

/**
 * The parts of an ability: its effects, and the mark its attack places on every target it
 * attacks ("Each ability grants its mark a unique effect"), as a part of its own.
 * @param {AbilitySystem} system
 * @param {Set<string>} known
 * @returns {CardPart[]}
 */
export function abilityParts(system, known) {
  const attacks = !!system.tags?.includes("attack");
  const parts = (system.effects ?? []).map(effect => {
    const part = checkedPart(effect, known);
    // An ability that makes no attack roll has nothing to hit: an effect stored "on a hit" (the old
    // default of every new effect) happens on use, as its card applied it before triggers were read.
    if (!attacks && part.trigger === "hit") part.trigger = "use";
    // An effect's movement written as text stays its text: forced movement by the rules is `move`.
    const movement = text(/** @type {{movement?: unknown}} */ (effect).movement, CARD_LIMITS.trigger);
    if (movement) part.text = part.text ? `${movement}; ${part.text}` : movement;
    return part;
  });
  const mark = text(system.attack?.mark, CARD_LIMITS.name).trim();
  if (mark && !parts.some(p => p.mark === mark)) {
    parts.push(checkedPart({ trigger: "use", to: "target", mark }, known));
  }
  return parts.slice(0, CARD_LIMITS.parts);
}

/**
 * The card a use posts.
 * @param {object} use
 * @param {string} use.actor   The user's uuid.
 * @param {{uuid: string, name: string, img: string, type: string, system: AbilitySystem} | null} use.item  Null: a basic attack.
 * @param {typeof BASIC_ATTACKS[number]} [use.basic]
 * @param {typeof CARD_KINDS[number]} use.kind
 * @param {"" | "baseVersion" | "comboVersion"} [use.combo]
 * @param {string} [use.html]
 * @param {CardTarget[]} use.targets
 * @param {{bloodied: boolean, slowTurn: boolean}} [use.user]
 * @param {string} [use.template]
 * @param {string} [use.cause]
 * @param {Set<string>} known
 * @returns {CardRecord}
 */
export function cardRecord({ actor, item, basic = "", kind, combo = "", html = "", targets, user = { bloodied: false, slowTurn: false },
  template = "", cause = "" }, known) {
  const system = item?.system ?? {};
  const save = system.save?.enabled || system.roll?.saveForHalf
    ? { boons: system.save?.boons ?? 0, curses: system.save?.curses ?? 0, forHalf: !!system.roll?.saveForHalf } : null;
  // Through checkedCard: what is posted has the shape every reader cuts a claim to.
  return /** @type {CardRecord} */ (checkedCard({
    v: CARD_VERSION, actor, item: item?.uuid ?? "", name: item?.name ?? "", img: item?.img ?? "", type: item?.type ?? "", basic, kind, combo,
    summary: { actions: system.actions, interrupt: system.interrupt, trigger: system.trigger, tags: system.tags, range: system.range,
      area: system.area, limit: system.limit, charges: system.charges, resolveCost: system.resolveCost },
    html, parts: item ? abilityParts(system, known) : [], save, targets, user, template, cause
  }, known));
}
