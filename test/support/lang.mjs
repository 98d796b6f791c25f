/**
 * lang/en.json as the tests read it: a key's string, and Foundry's `format` over it.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

export const en = JSON.parse(readFileSync(new URL("../../lang/en.json", import.meta.url), "utf8"));

/** A dotted key's entry (a string, an object of keys, or undefined). */
export const lookup = key => key.split(".").reduce((node, part) => node?.[part], en);

/** Foundry's format over lang/en.json; a missing key fails the test that asks for it. */
export function format(key, data = {}) {
  const text = lookup(key);
  assert.equal(typeof text, "string", `${key} is in lang/en.json`);
  return text.replace(/{(\w+)}/g, (m, name) => (name in data ? String(data[name]) : m));
}
