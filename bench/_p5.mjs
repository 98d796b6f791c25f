import { readFileSync } from "node:fs";
const root = "/work/main/";
const raw = await import(`${root}wasm/icon_engine.js`);
raw.initSync({ module: readFileSync(process.argv[2] ?? `${root}wasm/icon_engine_bg.wasm`) });
const core = await import(`${root}module/core.mjs`);
await core.loadCore();
const req = { kind: "dice", formula: process.argv[3] ?? "4d6kh3" };
for (let i = 0; i < 1000000; i++) core.roll(req, i);
