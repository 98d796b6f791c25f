/**
 * Sheet actions that change or act as the document do nothing for a user who may only view it
 * (module/applications/sheets/editable-action.mjs wraps them in every ICON sheet).
 */
import { test } from "node:test";
import assert from "node:assert/strict";

const warnings = [];
globalThis.ui = { notifications: { warn: (message, options) => warnings.push([message, options]) } };
const { default: editableAction } = await import("../../module/applications/sheets/editable-action.mjs");

test("the handler runs for an editor and not for an observer, who is told why", async () => {
  const calls = [];
  const action = editableAction(async function (event, target) {
    calls.push([this.name, target.dataset.value]);
    return "done";
  });
  const target = { dataset: { value: "3" } };
  assert.equal(await action.call({ name: "owner", isEditable: true }, {}, target), "done");
  assert.equal(await action.call({ name: "observer", isEditable: false }, {}, target), undefined);
  assert.deepEqual(calls, [["owner", "3"]]);
  assert.deepEqual(warnings, [["ICONENGINE.Sheet.ReadOnly", { localize: true }]]);
});
