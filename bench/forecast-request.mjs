// The encounter forecast's bench fight (issue 39): player characters against foes, each with Light
// and Heavy Attack and abilities of the kinds a sheet holds (a 2-action attack with a status on a
// hit, an area attack with a save for half and a charge, a Gamble), made by the module's own
// fighterOf from actor-like data, as a GM's forecast of a planned fight makes them.
import { fighterOf } from "../module/forecast/fighters.mjs";

const ability = (name, system) => ({ type: "ability", name, system: { actions: "1", tags: ["attack"], roll: { hitDice: 1, frayOnMiss: true },
  attack: {}, save: { enabled: false }, area: { shape: "" }, effects: [], charges: { value: 0, max: 0, recharge: "" },
  limit: { per: "", used: 0 }, resolveCost: 0, ...system } });

const HERO_ITEMS = [
  ability("Cleave", { actions: "2", roll: { hitDice: 2 }, effects: [{ trigger: "hit", to: "target", status: "vulnerable", duration: "save" }] }),
  ability("Ember Wave", { area: { shape: "line" }, roll: { hitDice: 1, saveForHalf: true }, save: { enabled: true },
    charges: { value: 1, max: 1, recharge: "round" } }),
  ability("Lucky Shot", { effects: [{ trigger: "gamble", gamble: 5, to: "target", status: "dazed", duration: "turn" }] })
];
const FOE_ITEMS = [ability("Claws", { effects: [{ trigger: "hit", to: "target", status: "weakened", duration: "save" }] })];

/**
 * A planned fight of `party` characters against `foes` foes (every third an elite), `fights` fights.
 * @param {number} party @param {number} foes @param {number} fights @param {number} [seed]
 */
export function forecastRequest(party, foes, fights, seed = 1) {
  const fighters = [];
  for (let i = 0; i < party; i++) {
    fighters.push(fighterOf({ id: `pc${i}`, entry: { side: "party", isPlayerCharacter: true, template: null, canSlow: true },
      system: { hp: { value: 40, max: 40 }, vigor: { value: 4 }, armor: i % 2, wounds: 0, resolve: 1, defense: 9, damageDie: [6, 8, 10, 12][i % 4], fray: 3 },
      statuses: [], items: HERO_ITEMS }));
  }
  for (let i = 0; i < foes; i++) {
    fighters.push(fighterOf({ id: `foe${i}`, entry: { side: "foes", isPlayerCharacter: false, template: i % 3 === 0 ? "elite" : null, canSlow: false },
      system: { hp: { value: i % 3 === 0 ? 50 : 24, max: i % 3 === 0 ? 50 : 24 }, vigor: { value: 0 }, armor: 0, wounds: 0, defense: 8, damageDie: 6, fray: 2 },
      statuses: [], items: FOE_ITEMS }));
  }
  return { fighters, options: { fights, seed } };
}
