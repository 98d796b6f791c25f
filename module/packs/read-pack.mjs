/**
 * Reads an exported journal pack with the importer in a worker (module/packs/import-worker.mjs),
 * so the page stays responsive however large the file; one worker serves every import.
 *
 * When there can be no worker, the read happens on the main thread instead: `new Worker` throws
 * (the system is served from another origin, a CSP forbids workers, or there is no `Worker`), or
 * the worker fails before it has loaded (an `error` event: its script or the wasm did not load).
 * A worker that fails after it has loaded (an `error` while reading, or an answer that cannot be
 * read, `messageerror`) rejects what it was reading with a clear error, since reading the same
 * file on the main thread could fail the page the same way; the next read starts a new worker.
 * Nothing waits forever.
 * @import { ImportReport } from "../types/core.js"
 */

/**
 * @typedef {{format?: "auto" | "nedb" | "json", force?: boolean}} ReadOptions
 * @typedef {{documents: object[], report: ImportReport}} ReadResult
 * @typedef {{resolve: (value: ReadResult) => void, reject: (error: Error) => void, text: string, options: ReadOptions}} Pending
 */

/** @type {Worker|null} */
let worker = null;
/** Whether the current worker has loaded (its script ran and said so). */
let loaded = false;
/** Once a worker could not be made or loaded, every read is on the main thread. */
let mainThreadOnly = false;
let next = 0;
/** @type {Map<number, Pending>} */
const pending = new Map();

/**
 * The importer's `importPack` on the main thread (its module is loaded only now).
 * @param {string} text
 * @param {ReadOptions} options
 * @returns {Promise<ReadResult>}
 */
async function readHere(text, options) {
  const { loadImporter } = await import("./importer.mjs");
  const importer = await loadImporter();
  return importer.importPack(text, options);
}

/**
 * Drops the worker and settles every pending read: on the main thread when the worker never
 * loaded, else rejected with `reason`.
 * @param {string} reason
 */
function dropWorker(reason) {
  const retry = !loaded;
  if (retry) mainThreadOnly = true;
  worker?.terminate();
  worker = null;
  loaded = false;
  const waiting = [...pending.values()];
  pending.clear();
  for (const read of waiting) {
    if (retry) readHere(read.text, read.options).then(read.resolve, read.reject);
    else read.reject(new Error(reason));
  }
}

/** @returns {Worker|null} */
function getWorker() {
  if (worker || mainThreadOnly) return worker;
  try {
    worker = new Worker(new URL("./import-worker.mjs", import.meta.url), { type: "module" });
  } catch {
    // a SecurityError (cross-origin script URL), a CSP without worker-src, or no Worker at all
    mainThreadOnly = true;
    return null;
  }
  worker.addEventListener("message", event => {
    const { id, result, error, ready } = event.data ?? {};
    if (ready) {
      loaded = true;
      return;
    }
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    if (error) waiting.reject(new Error(error));
    else waiting.resolve(result);
  });
  worker.addEventListener("error", event => {
    event.preventDefault();
    dropWorker(`the pack import worker failed: ${event.message || "its script did not load"}`);
  });
  worker.addEventListener("messageerror", () => dropWorker("the pack import worker's answer could not be read"));
  return worker;
}

/**
 * @param {string} text
 * @param {ReadOptions} [options]
 * @returns {Promise<ReadResult>}
 */
export default function readPack(text, options = {}) {
  const w = getWorker();
  if (!w) return readHere(text, options);
  const id = ++next;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject, text, options });
    w.postMessage({ id, text, options });
  });
}
