/**
 * A module worker that reads journal packs with the core, so a large log (10 MB and more) is
 * parsed off the main thread and the page never freezes. It loads its own copy of the wasm.
 * Message out first: `{ready: true}` (the script loaded; module/packs/read-pack.mjs falls back
 * to the main thread if a worker fails before this). Then per message in `{id, text, options}`:
 * `{id, result}` or `{id, error}`.
 */
import init, { importPack } from "../../wasm/icon_engine.js";

const ready = init();

self.addEventListener("message", async event => {
  const { id, text, options } = event.data ?? {};
  try {
    await ready;
    self.postMessage({ id, result: importPack(text, options) });
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});

self.postMessage({ ready: true });
