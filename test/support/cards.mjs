/**
 * Ability card records as a use posts them (module/data/card-data.mjs `cardRecord`), for the tests
 * that play a card's controls against a hostile player.
 */
import { CARD_VERSION } from "../../module/data/card-data.mjs";

/**
 * One part of an ability (an effect, or its attack's mark).
 * @param {Record<string, unknown>} [part]  Fields over an unconditional effect on each target.
 */
export const cardPart = (part = {}) => ({ trigger: "use", gamble: 4, to: "target", status: "", duration: "save", mark: "",
  move: { kind: "", spaces: 0 }, text: "", ...part });

/**
 * A card record: `user` used the ability "Lance" on `targets`.
 * @param {{uuid: string}} user
 * @param {{uuid: string}[]} targets
 * @param {{parts?: object[], save?: object | null, kind?: string, name?: string}} [options]
 */
export function cardFlag(user, targets, { parts = [], save = null, kind = "attack", name = "Lance" } = {}) {
  return { v: CARD_VERSION, actor: user.uuid, item: "", name, img: "", type: "ability", basic: "", kind, combo: "",
    summary: { actions: "1", interrupt: 1, trigger: "", tags: ["attack"], range: { kind: "", value: 0 }, area: { shape: "", size: 1 },
      limit: { per: "" }, charges: { value: 0, max: 0 }, resolveCost: 0 },
    html: "", parts, save, targets: targets.map(t => ({ actor: t.uuid, token: "" })), user: { bloodied: false, slowTurn: false }, template: "" };
}
