/**
 * An ability's card, from checked data only: the card record (module/data/card-data.mjs, cut to
 * its shape), the message's rolls resolved again from their faces, the saves rolled for it, the
 * records of what was applied, and the core's `icon.ability` answer of which parts fired for each
 * target. What a control does is named by the same data (a target's key, a part's index), so what
 * the card shows and what a click does cannot differ. Pure: the facts come in as plain data with a
 * `format` function, so node tests build exactly the card a browser shows.
 */
import { SYSTEM_PATH } from "../../config.mjs";
import { abilitySummary } from "../../data/ability-rules.mjs";
import { pluralKey } from "../../applications/i18n.mjs";
import { appliedContext, attackContext, damageContext } from "./icon-tactical.mjs";

/**
 * @import { CardPart, CardRecord } from "../../data/card-data.mjs"
 * @import { AppliedDamage } from "./icon-tactical.mjs"
 * @import { CoreRequest, Done } from "../../types/core.js"
 */

export const ABILITY_CARD_TEMPLATE = `${SYSTEM_PATH}/templates/chat/ability-card.hbs`;

/**
 * @typedef {object} CheckedRoll  One of the message's IconRolls, resolved again from its faces.
 * @property {CoreRequest} request
 * @property {Done} outcome
 * @property {Record<string, unknown>} options  The roll's options (its `tactical` among them).
 */

/**
 * @typedef {object} SaveFact  The save a target rolled against the card: the first valid one.
 * @property {boolean} success
 * @property {string} by         Who rolled it (a user's name).
 * @property {string} messageId  The save's own message.
 */

/**
 * @typedef {object} TargetFacts  One target of the card as its reader's client knows it now.
 * @property {number} key
 * @property {string} uuid       The target actor's uuid.
 * @property {string} name       Read from its token (or actor) document now, never from the message.
 * @property {string} img
 * @property {boolean} exists
 * @property {CheckedRoll | null} attack
 * @property {CheckedRoll | null} damage
 * @property {SaveFact | null} save
 * @property {string[]} statuses
 * @property {boolean} mob
 * @property {boolean} summon
 * @property {boolean} fromFoe
 * @property {boolean} bloodied  Before this card's damage.
 * @property {boolean} slain     This card's damage took it to 0 HP.
 */

/**
 * @typedef {object} AppliedEffect  What applying one part to one target did (the undo's record).
 * @property {string} userId
 * @property {boolean} landed
 * @property {string | null} blockedBy
 * @property {{actor: string, id: string}[]} created   Effects it created.
 * @property {{actor: string, source: Record<string, unknown>}[]} restored  Effects it deleted (marks it ended), to recreate on undo.
 * @property {{token: string, from: {x: number, y: number}, to: {x: number, y: number}, spaces: number, collided: boolean, action?: string} | null} moved
 *   `action` "blink": a teleport's (its undo teleports back).
 * @property {AppliedDamage | null} collision  The collision's damage ("taking damage equal to shove amount").
 */

/**
 * @typedef {object} CardRecords  What was applied from the card, by the GM's records and the message's flags.
 * @property {Record<string, AppliedDamage>} damage    By target key.
 * @property {Record<string, AppliedEffect>} effects   By `${key}.${part}` (key -1: the user).
 * @property {Record<string, boolean>} counter         Counter dealt back, by target key (stays dealt after an undo).
 */

/**
 * @typedef {object} Viewer  What the reader may press, per target key (and "self").
 * @property {(key: number) => boolean} mayApply   Damage and effects on that target.
 * @property {(key: number) => boolean} maySave    Roll that target's save.
 * @property {boolean} mayApplySelf
 * @property {(userId: string) => string} userName
 */

/** @typedef {(key: string, data?: Record<string, string>) => string} Format */

/**
 * The `icon.ability` request of a card: its parts, its user, the Gamble d6, and per target what the
 * attack, the save and the damage came to (see docs/js-contract.md).
 * @param {CardRecord} card
 * @param {TargetFacts[]} targets
 * @param {{statuses: string[]}} user  The user's statuses now.
 * @param {number | null} gamble  The use's Gamble d6.
 * @returns {CoreRequest}
 */
export function abilityRequest(card, targets, user, gamble) {
  return {
    kind: "icon.ability",
    parts: card.parts.map(p => ({ trigger: p.trigger, ...(p.trigger === "gamble" ? { gamble: p.gamble } : {}), to: p.to, status: p.status,
      mark: !!p.mark })),
    user: { statuses: user.statuses, bloodied: card.user.bloodied, slowTurn: card.user.slowTurn, heroic: true },
    gamble,
    targets: targets.map(t => ({
      attack: t.attack ? attackResultOf(t.attack.outcome) : null,
      exceed: !!t.attack?.outcome.exceed,
      save: t.save ? (t.save.success ? "saved" : "failed") : null,
      bloodied: t.bloodied,
      slain: t.slain,
      statuses: t.statuses,
      mob: t.mob,
      summon: t.summon,
      fromFoe: t.fromFoe
    }))
  };
}

/**
 * How an attack roll landed: an evaded attack misses ("On a 4+, the attack automatically misses").
 * @param {Done} outcome
 * @returns {"hit" | "crit" | "miss"}
 */
export function attackResultOf(outcome) {
  if (outcome.evaded) return "miss";
  if (outcome.crit) return "crit";
  if (outcome.autoHit) return "hit";
  return outcome.hit === false ? "miss" : "hit";
}

/**
 * @typedef {object} FiredPart  A part the core says fires, for one target (or the user).
 * @property {number} index
 * @property {{lands: boolean, blockedBy: string | null} | null} status
 * @property {{lands: boolean, blockedBy: string | null} | null} mark
 * @property {{spaces: number, blockedBy: string | null} | null} [move]  Forced movement: the spaces the rules allow.
 */

/**
 * @typedef {object} AbilityAnswer  The core's `icon.ability` answer.
 * @property {{parts: FiredPart[]}[]} targets
 * @property {FiredPart[]} self
 */

/**
 * A part as its line on the card says it: the status (and how long), the mark, the movement, the text.
 * @param {CardPart} part
 * @param {Format} format
 */
export function partLine(part, format) {
  const out = [];
  if (part.status) {
    const status = format(`ICONENGINE.Status.${part.status}.name`);
    out.push(format(`ICONENGINE.Use.Duration.${part.duration}`, { status }));
  }
  if (part.mark) out.push(format("ICONENGINE.Use.Mark", { mark: part.mark }));
  if (part.move.kind) out.push(format(`ICONENGINE.Card.Move.${part.move.kind}`, { spaces: String(part.move.spaces) }));
  if (part.text) out.push(part.text);
  return out.join("; ");
}

/**
 * Whether a part changes documents when applied (a status, a mark, forced movement); a part of
 * text only is for the table to read.
 * @param {CardPart} part
 */
export function partApplies(part) {
  return !!(part.status || part.mark || part.move.kind);
}

/**
 * One fired part's line and control on a target's row (key -1: the user's row).
 * @param {CardPart} part
 * @param {FiredPart} fired
 * @param {number} key
 * @param {AppliedEffect | undefined} applied
 * @param {boolean} mayPress
 * @param {Viewer} viewer
 * @param {Format} format
 */
function partContext(part, fired, key, applied, mayPress, viewer, format) {
  const blocked = [fired.status, fired.mark].find(b => b && !b.lands && b.blockedBy) ?? null;
  const allBlocked = (!part.status || fired.status?.lands === false) && (!part.mark || fired.mark?.lands === false)
    && (!part.move.kind || fired.move?.spaces === 0);
  return {
    key,
    index: fired.index,
    when: format(`ICONENGINE.Card.When.${part.trigger}`, { n: String(part.gamble) }),
    line: partLine(part, format),
    applies: partApplies(part),
    blocked: blocked?.blockedBy ? format(`ICONENGINE.Card.Blocked.${blocked.blockedBy}`) : "",
    applied: applied ? {
      by: viewer.userName(applied.userId),
      landed: applied.landed,
      text: format(applied.landed ? "ICONENGINE.Card.AppliedBy" : "ICONENGINE.Card.NothingLanded", { user: viewer.userName(applied.userId) }),
      moved: !applied.moved ? "" : applied.moved.collided
        ? format(pluralKey("ICONENGINE.Card.MovedCollided", applied.moved.spaces), { count: String(applied.moved.spaces) })
        : format(pluralKey("ICONENGINE.Card.Moved", applied.moved.spaces), { count: String(applied.moved.spaces) })
    } : null,
    canApply: !applied && mayPress && partApplies(part) && !allBlocked,
    // A move in any direction and a rush are dragged by hand (the control arms the distance check), a
    // teleport's landing is picked on the map, the rest apply at once.
    drag: (part.move.kind === "move" && !part.status && !part.mark) || part.move.kind === "rush",
    teleport: part.move.kind === "teleport",
    canUndo: !!applied && mayPress,
    label: format("ICONENGINE.Card.ApplyPart", { effect: partLine({ ...part, text: "" }, format) })
  };
}

/**
 * What a card's save says: "Each target saves (10+)", with its boons and curses when it has some.
 * @param {{boons: number, curses: number}} save
 * @param {Format} format
 */
export function saveCalled({ boons, curses }, format) {
  const modifiers = [boons ? format(pluralKey("ICONENGINE.Use.Boons", boons), { count: String(boons) }) : "",
    curses ? format(pluralKey("ICONENGINE.Use.Curses", curses), { count: String(curses) }) : ""].filter(Boolean);
  if (!modifiers.length) return format("ICONENGINE.Use.SaveCalled");
  const joined = modifiers.length === 2 ? format("ICONENGINE.Use.And", { first: modifiers[0], second: modifiers[1] }) : modifiers[0];
  return format("ICONENGINE.Use.SaveCalledWith", { modifiers: joined });
}

/**
 * The card's context.
 * @param {object} options
 * @param {CardRecord} options.card
 * @param {string} options.html        The ability's text, cleaned.
 * @param {string} options.userName    The user (its token's or actor's name now).
 * @param {TargetFacts[]} options.targets
 * @param {AbilityAnswer | null} options.answer  Null: the core refused (its reason is `options.error`).
 * @param {string} [options.error]
 * @param {number | null} options.gamble
 * @param {CardRecords} options.records
 * @param {Viewer} options.viewer
 * @param {Format} options.format
 */
export function abilityCardContext({ card, html, userName, targets, answer, error = "", gamble, records, viewer, format }) {
  const summary = abilitySummary(card.summary);
  const say = (/** @type {{key: string, data: Record<string, string>} | null} */ entry) => (entry ? format(entry.key, entry.data) : "");
  const chips = [say(summary.cost), say(summary.range), say(summary.area), say(summary.limit)].filter(Boolean);
  if (summary.charges) chips.push(format("ICONENGINE.Use.Charges", { value: String(summary.charges.value), max: String(summary.charges.max) }));
  if (card.summary.resolveCost) chips.push(format("ICONENGINE.Use.ResolveCost", { cost: String(card.summary.resolveCost) }));
  const name = card.name || format(card.basic === "heavy" ? "ICONENGINE.Tactical.HeavyAttack" : "ICONENGINE.Tactical.LightAttack");
  const rows = targets.map((t, i) => {
    const fired = answer?.targets[i]?.parts ?? [];
    const damage = t.damage ? damageContext(t.damage.outcome, t.damage.request, t.damage.options) : null;
    const applied = records.damage[String(t.key)] ?? null;
    const forHalf = !!card.save?.forHalf;
    const mayApply = viewer.mayApply(t.key);
    return {
      key: t.key,
      uuid: t.uuid,
      name: t.name,
      img: t.img,
      missing: !t.exists,
      attack: t.attack ? { ...attackContext(t.attack.outcome, t.attack.request, t.attack.options), total: t.attack.outcome.total } : null,
      damage: damage ? {
        ...damage,
        total: t.damage?.outcome.total ?? 0,
        applied: applied ? { ...appliedContext(applied, t.key), by: format("ICONENGINE.Card.AppliedBy", { user: viewer.userName(applied.userId) }),
          counter: applied.counter && !records.counter[String(t.key)] ? applied.counter : 0 } : null,
        // Save for half: the save's result decides, once rolled; until then the presser chooses.
        canApply: !applied && mayApply && t.exists,
        canApplyFull: !applied && mayApply && t.exists && forHalf && !t.save,
        halved: forHalf && !!t.save?.success,
        canUndo: !!applied && mayApply
      } : null,
      save: card.save ? {
        rolled: t.save ? { success: t.save.success, text: format(t.save.success ? "ICONENGINE.Card.Saved" : "ICONENGINE.Card.Failed",
          { name: t.name, user: t.save.by }) } : null,
        canRoll: !t.save && viewer.maySave(t.key) && t.exists,
        label: format("ICONENGINE.Card.RollSave", { name: t.name })
      } : null,
      parts: fired.map(f => {
        const part = card.parts[f.index];
        return part ? partContext(part, f, t.key, records.effects[`${t.key}.${f.index}`], mayApply && t.exists, viewer, format) : null;
      }).filter(p => !!p)
    };
  });
  const self = (answer?.self ?? []).map(f => {
    const part = card.parts[f.index];
    return part ? partContext(part, f, -1, records.effects[`-1.${f.index}`], viewer.mayApplySelf, viewer, format) : null;
  }).filter(p => !!p);
  return {
    name,
    img: card.img,
    typeLabel: card.type ? format(`TYPES.Item.${card.type}`) : format("ICONENGINE.Card.BasicAttack"),
    combo: card.combo ? format(`ICONENGINE.Rules.Tokens.${card.combo}`) : "",
    chips,
    trigger: summary.trigger,
    tags: summary.tags.map(tag => format(`ICONENGINE.Tag.${tag}`)),
    html,
    user: userName,
    gamble: gamble === null ? null : { face: gamble },
    saveLabel: card.save ? saveCalled(card.save, format) : "",
    forHalf: !!card.save?.forHalf,
    error,
    targets: rows,
    self,
    selfName: userName
  };
}
