/**
 * A tiny static file server over the repo root on 127.0.0.1, for the browser tests.
 */
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".hbs": "text/plain; charset=utf-8",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
  ".woff": "font/woff"
};

/**
 * Serve the repo root on a random loopback port. As Foundry does, `…/systems/icon-engine/<file>`
 * is the system's file (relative URLs in the module and templates resolve there), whatever comes
 * before it (a page's directory, a `routePrefix`).
 * @param {{wasmType?: string}} [options]  `wasmType`: the Content-Type for .wasm (servers that
 *   do not know the type send application/octet-stream).
 * @returns {Promise<{url: string, close: () => Promise<void>}>}
 */
export async function startServer({ wasmType = MIME[".wasm"] } = {}) {
  const server = createServer(async (request, response) => {
    const requested = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    // The last one: a relative `systems/icon-engine/…` path (as the module writes image paths, for
    // Foundry's page at /game) resolves under the harness page's own systems/icon-engine/ directory.
    const system = requested.lastIndexOf("/systems/icon-engine/");
    const pathname = system >= 0 ? requested.slice(system + "/systems/icon-engine".length) : requested;
    const path = normalize(join(root, pathname));
    if (!path.startsWith(root) || path.split(sep).includes("..")) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(path);
      response.writeHead(200, {
        "Content-Type": extname(path) === ".wasm" ? wasmType : MIME[extname(path)] ?? "application/octet-stream",
        "Cache-Control": "no-store"
      });
      response.end(body);
    } catch {
      response.writeHead(404, { "Content-Type": "text/plain" }).end(`Not found: ${pathname}`);
    }
  });
  await new Promise(resolve => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise(resolve => {
      server.closeAllConnections();
      server.close(() => resolve());
    })
  };
}
