/**
 * Reads an exported journal pack with the core in a worker (module/packs/import-worker.mjs), so
 * the page stays responsive however large the file; one worker serves every import.
 * @import { ImportReport } from "../types/core.js"
 */

/** @type {Worker|null} */
let worker = null;
let next = 0;
/** @typedef {{documents: object[], report: ImportReport}} ReadResult  The core's importPack answer. */

/** @type {Map<number, {resolve: (value: ReadResult) => void, reject: (error: Error) => void}>} */
const pending = new Map();

function getWorker() {
  if (worker) return worker;
  worker = new Worker(new URL("./import-worker.mjs", import.meta.url), { type: "module" });
  worker.addEventListener("message", event => {
    const { id, result, error } = event.data;
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    if (error) waiting.reject(new Error(error));
    else waiting.resolve(result);
  });
  return worker;
}

/**
 * @param {string} text
 * @param {{format?: "auto" | "nedb" | "json", force?: boolean}} [options]
 * @returns {Promise<ReadResult>}
 */
export default function readPack(text, options = {}) {
  const id = ++next;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    getWorker().postMessage({ id, text, options });
  });
}
