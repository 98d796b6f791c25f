/**
 * A module worker that reads journal packs with the importer, so a large log (10 MB and more) is
 * parsed off the main thread and the page never freezes. It loads the importer's wasm
 * (module/packs/importer.mjs), which no other part of a client loads.
 * Message out first: `{ready: true}` (the script loaded; module/packs/read-pack.mjs falls back
 * to the main thread if a worker fails before this). Then per message in `{id, text, options}`:
 * `{id, result}` or `{id, error}`.
 */
import { loadImporter } from "./importer.mjs";

const ready = loadImporter();

self.addEventListener("message", async event => {
  const { id, text, options } = event.data ?? {};
  try {
    const importer = await ready;
    self.postMessage({ id, result: importer.importPack(text, options) });
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});

self.postMessage({ ready: true });
