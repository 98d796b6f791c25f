/**
 * ICON's statuses as Foundry sees them: which core special statuses stay mapped, and what the
 * Token HUD stores as an effect's description.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { configureSpecialStatuses, localizeStatusDescriptions, statusEffects } from "../../module/data/status-effects.mjs";

const lang = JSON.parse(readFileSync(new URL("../../lang/en.json", import.meta.url), "utf8"));
/** Foundry's localize: the string at the dotted key, else the key itself. */
const localize = key => {
  const value = key.split(".").reduce((node, part) => node?.[part], lang);
  return typeof value === "string" ? value : key;
};

/** v13's defaults (foundry-vtt-types config.d.mts, `specialStatusEffects` @defaultValue). */
const coreSpecial = () => ({ DEFEATED: "dead", INVISIBLE: "invisible", BLIND: "blind", BURROW: "burrow", HOVER: "hover", FLY: "fly" });

test("no core special status fires on an ICON status except Defeated", () => {
  const special = coreSpecial();
  const statuses = statusEffects();
  configureSpecialStatuses(special, statuses);
  assert.equal(special.DEFEATED, "defeated");
  const ids = new Set(statuses.map(s => s.id));
  assert.ok(ids.has("blind"), "ICON has a status called blind");
  assert.equal(special.BLIND, null, "core's BLIND (no vision at all) is not ICON's Blind (range 2)");
  for (const [key, id] of Object.entries(special)) {
    if (key !== "DEFEATED") assert.ok(!id || !ids.has(id), `${key} → ${id} collides with an ICON status`);
  }
  // Unrelated core mechanics stay as they were.
  assert.deepEqual([special.INVISIBLE, special.FLY, special.HOVER, special.BURROW], ["invisible", "fly", "hover", "burrow"]);
});

test("an effect made from a status by the Token HUD stores text, not i18n keys", () => {
  const statuses = statusEffects();
  localizeStatusDescriptions(statuses, localize);
  // What v13's ActiveEffect.fromStatusEffect does with the entry: clone, localize only `name`.
  const fromStatusEffect = id => {
    const { id: statusId, ...data } = structuredClone(statuses.find(s => s.id === id));
    return { ...data, name: localize(data.name), statuses: [statusId] };
  };
  const blind = fromStatusEffect("blind");
  assert.equal(blind.name, "Blind");
  assert.equal(blind.description, "Reduces the maximum range of all your abilities to 2.");
  for (const status of statuses) {
    const effect = fromStatusEffect(status.id);
    assert.doesNotMatch(effect.description, /^ICONENGINE\./, `${status.id} has a description in lang/en.json`);
    assert.doesNotMatch(effect.name, /^ICONENGINE\./, `${status.id} has a name in lang/en.json`);
  }
});
