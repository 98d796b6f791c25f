/**
 * Runs Quench batches in the browser harness: the part of Quench's context the batches use
 * (mocha's describe/it/beforeEach/afterEach with `this.skip()`, and chai's `assert` methods
 * module/testing/quench-batches.mjs calls, with chai's semantics), so the batch Foundry runs is
 * the batch tested here. Loaded into the page, not run by node.
 */

class Skip extends Error {}

/** chai's assert, the methods the batches use. */
const assert = {
  equal(actual, expected, message) {
    // chai's equal is ==; the batches only compare primitives
    if (actual != expected) throw new Error(`${message ? `${message}: ` : ""}expected ${JSON.stringify(actual)} to equal ${JSON.stringify(expected)}`);
  },
  deepEqual(actual, expected, message) {
    const a = JSON.stringify(actual);
    const b = JSON.stringify(expected);
    if (a !== b) throw new Error(`${message ? `${message}: ` : ""}expected ${a} to deeply equal ${b}`);
  },
  ok(value, message) {
    if (!value) throw new Error(message ?? `expected ${JSON.stringify(value)} to be truthy`);
  },
  notOk(value, message) {
    if (value) throw new Error(message ?? `expected ${JSON.stringify(value)} to be falsy`);
  },
  include(haystack, needle, message) {
    if (!haystack?.includes?.(needle)) throw new Error(`${message ? `${message}: ` : ""}expected ${JSON.stringify(haystack)} to include ${JSON.stringify(needle)}`);
  },
  match(actual, pattern, message) {
    if (!pattern.test(actual)) throw new Error(`${message ? `${message}: ` : ""}expected ${JSON.stringify(actual)} to match ${pattern}`);
  }
};

/**
 * Run registered batches; returns one result per test, in order.
 * @param {{key: string, fn: (context: object) => void}[]} batches
 * @returns {Promise<{batch: string, title: string, state: "passed"|"failed"|"pending", error?: string}[]>}
 */
export async function runBatches(batches) {
  const results = [];
  for (const { key, fn } of batches) {
    const tests = [];
    const before = [];
    const after = [];
    const beforeAll = [];
    const afterAll = [];
    const path = [];
    fn({
      describe: (title, body) => { path.push(title); body(); path.pop(); },
      it: (title, body) => tests.push({ title: [...path, title].join(" › "), body }),
      before: hook => beforeAll.push(hook),
      after: hook => afterAll.push(hook),
      beforeEach: hook => before.push(hook),
      afterEach: hook => after.push(hook),
      assert
    });
    for (const hook of beforeAll) await hook();
    for (const test of tests) {
      let state = "passed";
      let error;
      try {
        for (const hook of before) await hook();
        await test.body.call({ skip: () => { throw new Skip(); } });
      } catch (e) {
        if (e instanceof Skip) state = "pending";
        else { state = "failed"; error = e instanceof Error ? `${e.message}\n${e.stack}` : String(e); }
      }
      try {
        for (const hook of after) await hook();
      } catch (e) {
        if (state !== "failed") { state = "failed"; error = `afterEach: ${e instanceof Error ? e.message : String(e)}`; }
      }
      results.push({ batch: key, title: test.title, state, error });
    }
    for (const hook of afterAll) await hook();
  }
  return results;
}
