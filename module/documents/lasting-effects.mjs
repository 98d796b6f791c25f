import { SYSTEM_ID } from "../config.mjs";
import { nearestSpaces, tokenSpaces } from "../canvas/area-shapes.mjs";
import { localize } from "../applications/i18n.mjs";

/**
 * @typedef {object} LastingFlag  `flags.icon-engine.lasting` of a stance's or an aura's effect.
 * @property {"stance" | "aura"} kind
 * @property {string} item   The ability that began it.
 * @property {number} range  An aura's range X ("within range X of an origin point"); 0 for a stance.
 */

/**
 * Effects that last while their cause does. "Stance: A stance is an ongoing effect granted by
 * certain abilities. A character can only have one stance active at a time and can drop a stance
 * by taking a new stance or as a free action at the start of their turn"; "Aura: This ability is a
 * continuous, ongoing (+) effect that affects all characters specified within range X of an origin
 * point, usually a character. Characters are only affected by an aura while inside"; "Ongoing (+):
 * A status or effect that is ongoing can't be ended until the thing causing it (a mark, a stance)
 * is ended". Using a stance or aura ability puts an effect of its own on its user (the cause); the
 * ongoing statuses its card applies carry `flags.icon-engine.cause` (the cause's uuid), and the
 * active GM's client ends them when the cause ends, and an aura's on a character that leaves its range.
 */
export default class LastingEffects {
  /** The flag of a stance's or an aura's own effect. */
  static FLAG = "lasting";

  /**
   * Begin a stance or an aura on an ability's user: its own effect, the actor's other stance
   * ending first ("one stance active at a time"), and an aura of the same ability replacing its
   * older one. Returns the effect's uuid, or "" for an ability that is neither.
   * @param {Item.Implementation} item
   * @returns {Promise<string>}
   */
  static async begin(item) {
    const actor = item.actor;
    const tags = /** @type {{tags?: string[], range?: {value?: number}}} */ (item.system).tags ?? [];
    const kind = tags.includes("stance") ? "stance" : tags.includes("aura") ? "aura" : null;
    if (!actor || !kind) return "";
    const range = kind === "aura" ? Math.max(0, Math.trunc(Number(/** @type {{range?: {value?: number}}} */ (item.system).range?.value)) || 0) : 0;
    const old = actor.effects.filter(e => {
      const flag = LastingEffects.flagOf(e);
      return !!flag && flag.kind === kind && (kind === "stance" || flag.item === item.uuid);
    }).map(e => e.id ?? "");
    if (old.length) await actor.deleteEmbeddedDocuments("ActiveEffect", old);
    /** @type {LastingFlag} */
    const flag = { kind, item: item.uuid, range };
    const [effect] = /** @type {ActiveEffect.Implementation[]} */ (await actor.createEmbeddedDocuments("ActiveEffect", [/** @type {ActiveEffect.CreateData} */ (
      /** @type {unknown} */ ({ name: item.name, img: item.img, origin: item.uuid,
        description: localize(`ICONENGINE.Lasting.${kind}Hint`), flags: { [SYSTEM_ID]: { [LastingEffects.FLAG]: flag } } }))]) ?? []);
    return effect?.uuid ?? "";
  }

  /**
   * A stance's or aura's flag, or null.
   * @param {{flags?: Record<string, unknown> | null}} effect
   * @returns {LastingFlag | null}
   */
  static flagOf(effect) {
    const flag = /** @type {Record<string, unknown> | undefined} */ (effect.flags?.[SYSTEM_ID])?.[LastingEffects.FLAG];
    if (!flag || typeof flag !== "object") return null;
    const f = /** @type {Record<string, unknown>} */ (flag);
    return f.kind === "stance" || f.kind === "aura" ? { kind: f.kind, item: String(f.item ?? ""), range: Math.max(0, Number(f.range) || 0) } : null;
  }

  /**
   * The cause a card names for its ongoing parts, checked: an effect of its user's that is a stance
   * or an aura (its uuid), else "".
   * @param {string} uuid
   * @param {Actor.Implementation | null} user
   */
  static causeOn(uuid, user) {
    if (!uuid || !user) return "";
    const effect = user.effects.find(e => e.uuid === uuid);
    return effect && LastingEffects.flagOf(effect) ? uuid : "";
  }

  /**
   * Every actor that fights or stands on the viewed scene: the combat's combatants, the scene's
   * tokens (unlinked ones' own actors) and the world's actors; each once.
   * @returns {Actor.Implementation[]}
   */
  static fighters() {
    /** @type {Map<string, Actor.Implementation>} */
    const found = new Map();
    const add = (/** @type {Actor.Implementation | null | undefined} */ a) => { if (a) found.set(a.uuid, a); };
    // The configured Combat is IconCombat (foundry-vtt-types 13.345 gives game.combat no members of it).
    const combat = /** @type {Combat.Implementation | null | undefined} */ (/** @type {unknown} */ (game.combat));
    for (const c of combat?.combatants ?? []) add(c.actor);
    for (const t of canvas?.scene?.tokens ?? []) add(/** @type {Actor.Implementation | null} */ (t.actor));
    for (const a of game.actors ?? []) add(/** @type {Actor.Implementation} */ (a));
    return [...found.values()];
  }

  /**
   * End what a cause caused: every effect whose `cause` is its uuid. Run by the active GM when the
   * cause (a stance, an aura) is deleted.
   * @param {string} uuid
   */
  static async endCaused(uuid) {
    for (const actor of LastingEffects.fighters()) {
      const caused = actor.effects.filter(e => /** @type {{cause?: unknown} | undefined} */ (e.flags?.[SYSTEM_ID])?.cause === uuid).map(e => e.id ?? "");
      if (caused.length) await actor.deleteEmbeddedDocuments("ActiveEffect", caused);
    }
  }

  /**
   * "Characters are only affected by an aura while inside": on a scene whose tokens moved, the
   * effects an aura caused on a character now outside its range X of the aura's bearer end.
   * @param {Scene.Implementation} scene
   */
  static async checkAuras(scene) {
    const size = Number(scene.grid?.size) || 0;
    if (!size) return;
    const tokens = scene.tokens.contents;
    const spaces = (/** @type {TokenDocument.Implementation} */ t) => tokenSpaces(t, size);
    for (const holder of tokens) {
      for (const aura of holder.actor?.effects.filter(e => LastingEffects.flagOf(e)?.kind === "aura") ?? []) {
        const range = LastingEffects.flagOf(aura)?.range ?? 0;
        for (const token of tokens) {
          const actor = token.actor;
          if (!actor || token === holder) continue;
          const caused = actor.effects.filter(e => /** @type {{cause?: unknown} | undefined} */ (e.flags?.[SYSTEM_ID])?.cause === aura.uuid);
          if (!caused.length || nearestSpaces(spaces(holder), spaces(token)) <= range) continue;
          await actor.deleteEmbeddedDocuments("ActiveEffect", caused.map(e => e.id ?? ""));
        }
      }
    }
  }

  /** The active GM ends what a cause caused when it ends, and an aura's when its bearer or a character moves. */
  static register() {
    Hooks.on("deleteActiveEffect", (/** @type {ActiveEffect.Implementation} */ effect) => {
      if (!game.users?.activeGM?.isSelf || !LastingEffects.flagOf(effect)) return;
      LastingEffects.endCaused(effect.uuid).catch(error => console.error(`${SYSTEM_ID} | lasting effects`, error));
    });
    Hooks.on("updateToken", (/** @type {TokenDocument.Implementation} */ token, /** @type {Record<string, unknown>} */ change) => {
      if (!game.users?.activeGM?.isSelf || (!("x" in change) && !("y" in change)) || !token.parent) return;
      LastingEffects.checkAuras(/** @type {Scene.Implementation} */ (token.parent)).catch(error => console.error(`${SYSTEM_ID} | auras`, error));
    });
  }
}
