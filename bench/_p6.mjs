import { readFileSync } from "node:fs";
const raw = await import(`/work/main/wasm/icon_engine.js`);
raw.initSync({ module: readFileSync(process.argv[2]) });
const req = { kind: "dice", formula: process.argv[3] ?? "1d6" };
for (let i = 0; i < 30; i++) raw.rollMany(req, 1000000, i);
