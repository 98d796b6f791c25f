#!/usr/bin/env bash
# Builds the installable system: dist/icon-engine/ and dist/icon-engine.zip (wasm inside), ready to
# drop into Foundry's Data/systems/. Also leaves the wasm in wasm/, so the checkout itself works as
# a development system folder and the tests can load it. Does all set-up itself (scripts/setup.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/setup.sh
source "$ROOT/scripts/setup.sh"
log() { printf '[build] %s\n' "$*" >&2; }

# 1. The core, compiled to wasm by wasm-pack (its own wasm-opt is off in Cargo.toml: Debian's
#    wasm-opt 108 breaks the externref table, so binaryen comes from npm below).
log "wasm-pack build ($WASM_TOOLCHAIN toolchain)"
PATH="$WASM_CARGO_PATH:$HOME/.cargo/bin:$PATH" CARGO_TARGET_DIR="$WASM_TARGET_DIR" \
  wasm-pack --quiet build --target web --release --no-opt --no-pack --out-dir wasm --out-name icon_engine >&2

# 2. Optimise with binaryen from npm. wasm-pack rewrites the module on every build, so the
#    optimised module is cached by the hash of its input; it is kept only if it still loads.
WASM="wasm/icon_engine_bg.wasm"
SUM="$(sha256sum "$WASM" | cut -d' ' -f1)"
CACHE="$WASM_TARGET_DIR/wasm-opt/$SUM.wasm"
if [ ! -f "$CACHE" ]; then
  log "wasm-opt -Oz"
  mkdir -p "$(dirname "$CACHE")"
  node_modules/.bin/wasm-opt "$WASM" -Oz -o "$CACHE.tmp" \
    --enable-reference-types --enable-multivalue --enable-bulk-memory --enable-sign-ext \
    --enable-mutable-globals --enable-nontrapping-float-to-int
  if node -e '
      const fs = require("fs");
      WebAssembly.compile(fs.readFileSync(process.argv[1])).then(() => process.exit(0), e => { console.error(e); process.exit(1); });' "$CACHE.tmp"; then
    mv "$CACHE.tmp" "$CACHE"
  else
    log "the optimised module does not load; keeping the unoptimised one"
    mv "$WASM" "$CACHE.tmp" && cp "$CACHE.tmp" "$CACHE" && mv "$CACHE.tmp" "$WASM"
  fi
fi
cp "$CACHE" "$WASM"

# 3. Compendium packs: the seed becomes foundryvtt-cli source JSON through the core's own importer
#    (when the seed is beside the repository; otherwise the committed packs/_source is used), then
#    the official foundryvtt-cli compiles the LevelDB packs that system.json declares.
SEED="$ROOT/../shared/seeds/icon-rules-reference.db"
cargo build --quiet --release --bin icon-engine
if [ -f "$SEED" ]; then
  log "packs/_source from the seed"
  rm -rf packs/_source/rules-reference
  target/release/icon-engine import "$SEED" --out packs/_source/rules-reference >/dev/null
fi
node scripts/compile-packs.mjs

# 4. The installable folder and zip.
log "dist/icon-engine"
rm -rf dist/icon-engine dist/icon-engine.zip
mkdir -p dist/icon-engine/wasm
cp system.json README.md dist/icon-engine/
[ -f LICENSE ] && cp LICENSE dist/icon-engine/
cp -r module templates styles lang dist/icon-engine/
if compgen -G "packs/*" >/dev/null; then
  mkdir -p dist/icon-engine/packs
  find packs -mindepth 1 -maxdepth 1 ! -name '_source' ! -name '.gitkeep' -exec cp -r {} dist/icon-engine/packs/ \;
fi
cp wasm/icon_engine.js wasm/icon_engine_bg.wasm wasm/icon_engine.d.ts dist/icon-engine/wasm/
python3 - <<'PY'
import os, zipfile
root = "dist"
with zipfile.ZipFile("dist/icon-engine.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for folder, dirs, files in os.walk("dist/icon-engine"):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            z.write(path, os.path.relpath(path, root))
PY
log "done: dist/icon-engine.zip ($(du -h dist/icon-engine.zip | cut -f1)), wasm $(du -h "$WASM" | cut -f1)"
