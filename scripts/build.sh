#!/usr/bin/env bash
# Builds the installable system: dist/icon-engine/ and dist/icon-engine.zip (top folder
# icon-engine/), ready to drop into Foundry's Data/systems/. Also leaves the two wasm modules (the
# client core and the pack importer) in wasm/ and the compiled compendium packs in packs/, so the
# checkout itself works as a development system folder and the tests can load them, and builds
# the native CLI (target/release/icon-engine). Ends by printing both modules' sizes.
# Does all set-up itself (scripts/setup.sh). A second run with nothing changed takes seconds and
# writes byte-identical output.
#   --dist-only  only steps 5 and 6: dist/ again from the wasm/ and packs already built, with no
#                set-up and no compiling (the release test uses it; see scripts/release.mjs).
# The manifest in dist/ carries url/manifest/download for the repository base
# (ICON_ENGINE_REPOSITORY, else package.json's repository) and says so when there is none.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DIST_ONLY=0
[ "${1:-}" = "--dist-only" ] && DIST_ONLY=1
BUILD_START=$SECONDS
log() { printf '[build] %s\n' "$*" >&2; }
PACKS_OUT="target/packs"
if [ "$DIST_ONLY" = 0 ]; then # steps 1-4
# shellcheck source=scripts/setup.sh
source "$ROOT/scripts/setup.sh"

# Copies $1 to $2 only when the bytes differ (atomically), so an unchanged build leaves wasm/ and
# packs/ alone for whoever is serving or testing them.
install_if_changed() {
  if ! cmp -s "$1" "$2"; then
    cp "$1" "$2.tmp.$$" && mv -f "$2.tmp.$$" "$2"
  fi
}

# --- 1 and 2. the wasm modules -------------------------------------------------------------
# One crate, three Cargo features: `client`, the client core every client loads (wasm/icon_engine*,
# dice, odds, rulesets, combat), `importer`, the pack importer only an import loads
# (wasm/icon_importer*), and `forecast`, the encounter forecast only a GM's forecast loads
# (wasm/icon_forecast*), compiled for speed (its fights are the time a GM waits; measured: 2.5 times
# faster than for size, at 294 KB gzip -9 instead of 249 KB, which only a forecast downloads).
# Each is compiled by wasm-pack, then optimised with binaryen's wasm-opt from npm: wasm-pack's own
# wasm-opt is off (Cargo.toml, and --no-opt), since Debian's wasm-opt 108 breaks the externref table. The optimised module is cached by the hash of its input (the
# wasm-bindgen output is the same for the same source), and kept only if it loads and answers a
# few calls exactly as the unoptimised one does (scripts/wasm-smoke.mjs). Features: the ones
# rustc enables for wasm32 (read from the module's target_features section; listed too in case a
# tool strips it).
# --low-memory-unused lets wasm-opt fold a pointer's added constant (under 1 KiB) into the
# load's or store's offset, which differs from the add only when the add wraps past 2^32 to an
# address below 1024 (any address of 1024 or more comes out the same either way). Rust on wasm32
# lays its memory out stack first: the 1 MiB stack runs from address 1 MiB down to 0 and static
# data and the heap lie above it (the modules' __stack_pointer starts at 1048576, their data at
# 1048576 and up), so the low 1 KiB is only ever the last KiB of the stack. Nothing reaches it
# short of a stack 1023 KiB deep, which no request can make (JSON is refused past 64 levels, a
# formula past 64 levels of nesting), and even then a folded access traps (out of bounds) instead of
# reading the wrong memory. It takes ~2.6 KB off the client core's gzip -9 size.
mkdir -p wasm
build_wasm() {
  # $3 = speed: compiled for speed (opt-level 3, wasm-opt -O3) in a target directory of its own,
  # for a module only a GM loads on demand, where time matters more than bytes
  local name=$1 feature=$2 speed=${3:-} pkg="$WASM_TARGET_DIR/wasm-pkg-$2"
  local level=-Oz
  [ "$speed" = speed ] && level=-O3
  log "wasm-pack build --release --features $feature${speed:+ (for speed)} ($WASM_TOOLCHAIN toolchain: $("$WASM_CARGO_PATH/rustc" --version))"
  rm -rf "$pkg"
  (
    export PATH="$WASM_CARGO_PATH:$HOME/.cargo/bin:$PATH" CARGO_TARGET_DIR="$WASM_TARGET_DIR${speed:+/speed}"
    [ "$speed" = speed ] && export CARGO_PROFILE_RELEASE_OPT_LEVEL=3
    [ "$WASM_TOOLCHAIN" = debian ] && export RUSTC=/usr/bin/rustc
    wasm-pack --log-level warn build --target web --release --no-opt --no-pack \
      --out-dir "$pkg" --out-name "$name" -- --features "$feature" >&2
  )
  local f
  for f in "$name.js" "${name}_bg.wasm" "$name.d.ts" "${name}_bg.wasm.d.ts"; do
    [ -f "$pkg/$f" ] || { log "ERROR: wasm-pack made no $f"; exit 1; }
  done
  local raw="$pkg/${name}_bg.wasm" sum cache_dir="$WASM_TARGET_DIR/wasm-opt"
  sum="$(sha256sum "$raw" | cut -d' ' -f1)"
  local cache="$cache_dir/$sum$level.wasm"
  if [ ! -f "$cache" ]; then
    mkdir -p "$cache_dir"
    local wasm_opt="$ROOT/node_modules/.bin/wasm-opt" optimised=0 expect got
    if [ -x "$wasm_opt" ]; then
      log "wasm-opt $level $name ($("$wasm_opt" --version))"
      if "$wasm_opt" "$raw" "$level" --low-memory-unused -o "$cache.tmp" \
          --enable-bulk-memory --enable-bulk-memory-opt --enable-call-indirect-overlong \
          --enable-multivalue --enable-mutable-globals --enable-nontrapping-float-to-int \
          --enable-reference-types --enable-sign-ext --enable-simd; then
        expect="$(node scripts/wasm-smoke.mjs "$pkg/$name.js" "$raw")"
        if got="$(node scripts/wasm-smoke.mjs "$pkg/$name.js" "$cache.tmp")" && [ "$got" = "$expect" ]; then
          optimised=1
        else
          log "WARNING: the optimised $name does not behave like the unoptimised one; shipping the unoptimised one"
        fi
      else
        log "WARNING: wasm-opt failed; shipping the unoptimised $name"
      fi
    else
      log "WARNING: no node_modules/.bin/wasm-opt (npm package binaryen); shipping the unoptimised $name"
    fi
    [ "$optimised" = 1 ] || cp "$raw" "$cache.tmp"
    mv -f "$cache.tmp" "$cache"
    # keep the cache small: the newest few modules
    ls -1t "$cache_dir"/*.wasm | tail -n +9 | xargs -r rm -f
  fi
  install_if_changed "$cache" "wasm/${name}_bg.wasm"
  for f in "$name.js" "$name.d.ts" "${name}_bg.wasm.d.ts"; do
    install_if_changed "$pkg/$f" "wasm/$f"
  done
}
build_wasm icon_engine client
build_wasm icon_importer importer
build_wasm icon_forecast forecast speed

# --- 3. the native CLI (the pack importer; the browser tests run it too) ----------------------
log "cargo build --release --bin icon-engine"
cargo build --quiet --release --bin icon-engine

# --- 4. compendium packs ----------------------------------------------------------------------
# The vendored seed (tests/fixtures/seeds/) becomes foundryvtt-cli source JSON through the core's
# own importer, then the official foundryvtt-cli compiles the LevelDB packs that system.json
# declares. They are compiled again only when their sources (or the compiler) changed.
SEED="$ROOT/tests/fixtures/seeds/icon-rules-reference.db"
if [ -f "$SEED" ]; then
  log "packs/_source/rules-reference from the seed"
  rm -rf target/seed-import
  target/release/icon-engine import "$SEED" --out target/seed-import >/dev/null
  if ! diff -rq target/seed-import packs/_source/rules-reference >/dev/null 2>&1; then
    rm -rf packs/_source/rules-reference
    mv target/seed-import packs/_source/rules-reference
  fi
  rm -rf target/seed-import
fi
# The glossary tooltips' terms, read from the rules reference by the importer (scripts/glossary.mjs)
node scripts/glossary.mjs
# The in-game guide: docs/guide.md through the same importer (scripts/guide-pack.mjs)
node scripts/guide-pack.mjs
# The example content pack (assets/content-packs/example.json) through the content-pack planner
node scripts/content-pack.mjs
if [ -d packs/_source ]; then
  STAMP="$( (cd packs/_source && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum)
            sha256sum scripts/compile-packs.mjs node_modules/@foundryvtt/foundryvtt-cli/package.json)"
  STAMP="$(printf '%s' "$STAMP" | sha256sum | cut -d' ' -f1)"
  if [ "$(cat "$PACKS_OUT/.stamp" 2>/dev/null)" != "$STAMP" ]; then
    log "compiling packs"
    rm -rf "$PACKS_OUT"
    node scripts/compile-packs.mjs "$PACKS_OUT"
    # LevelDB's LOCK and LOG files are made again whenever a pack is opened; LOG holds dates
    find "$PACKS_OUT" -mindepth 2 -maxdepth 2 \( -name LOCK -o -name 'LOG' -o -name 'LOG.old' \) -delete
    echo "$STAMP" >"$PACKS_OUT/.stamp"
  fi
  # the same packs in packs/, for the checkout as a development system folder
  for pack in "$PACKS_OUT"/*/; do
    name="$(basename "$pack")"
    if [ "$(cat "target/packs.$name.installed" 2>/dev/null)" != "$STAMP" ] || [ ! -f "packs/$name/CURRENT" ]; then
      rm -rf "packs/$name"
      cp -r "$pack" "packs/$name"
      echo "$STAMP" >"target/packs.$name.installed"
    fi
  done
fi

fi # steps 1-4

# --- 5. the installable folder ----------------------------------------------------------------
log "dist/icon-engine"
OUT=dist/icon-engine
rm -rf "$OUT" dist/icon-engine.zip dist/system.json dist/release-notes.md
mkdir -p "$OUT/wasm"
node scripts/release.mjs --manifest "$OUT/system.json"
for f in README.md LICENSE LICENSE.md LICENSE.txt CHANGELOG.md; do
  [ -f "$f" ] && cp "$f" "$OUT/"
done
for d in module templates styles lang assets fonts icons; do
  [ -d "$d" ] && cp -r "$d" "$OUT/"
done
if [ -d "$PACKS_OUT" ] && compgen -G "$PACKS_OUT/*/" >/dev/null; then
  mkdir -p "$OUT/packs"
  cp -r "$PACKS_OUT"/*/ "$OUT/packs/"
fi
if [ -f packs/glossary.json ]; then
  mkdir -p "$OUT/packs"
  cp packs/glossary.json "$OUT/packs/"
fi
for name in icon_engine icon_importer icon_forecast; do
  cp "wasm/$name.js" "wasm/${name}_bg.wasm" "wasm/$name.d.ts" "wasm/${name}_bg.wasm.d.ts" "$OUT/wasm/"
done

# Everything system.json names must be in the folder.
python3 - "$OUT" <<'PY'
import json, os, sys
out = sys.argv[1]
manifest = json.load(open(os.path.join(out, "system.json")))
paths = list(manifest.get("esmodules", [])) + list(manifest.get("scripts", [])) + list(manifest.get("styles", []))
paths += [lang["path"] for lang in manifest.get("languages", [])]
paths += [pack["path"] for pack in manifest.get("packs", [])]
missing = [p for p in paths if not os.path.exists(os.path.join(out, p))]
if manifest.get("id") != "icon-engine":
    sys.exit("[build] ERROR: system.json's id is not icon-engine")
if missing:
    sys.exit("[build] ERROR: system.json names files that are not in %s: %s" % (out, ", ".join(missing)))
PY

# --- 6. the zip: sorted entries, fixed dates and modes, so the same tree gives the same bytes ---
python3 - "$OUT" dist/icon-engine.zip <<'PY'
import os, sys, zipfile
src, dest = sys.argv[1], sys.argv[2]
base = os.path.dirname(src)
date = (1980, 1, 1, 0, 0, 0)
def entry(name, mode):
    info = zipfile.ZipInfo(name, date)
    info.create_system = 3  # unix, so the modes below apply
    info.external_attr = mode << 16
    return info
with zipfile.ZipFile(dest + ".tmp", "w") as z:
    for folder, dirs, files in os.walk(src):
        dirs.sort()
        rel = os.path.relpath(folder, base)
        z.writestr(entry(rel + "/", 0o40755), b"")
        for name in sorted(files):
            info = entry(os.path.join(rel, name), 0o100644)
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(os.path.join(folder, name), "rb") as f:
                z.writestr(info, f.read(), compresslevel=9)
os.replace(dest + ".tmp", dest)
PY
# the manifest again beside the zip: a release attaches both
cp "$OUT/system.json" dist/system.json

# the modules' sizes: what every client downloads, and what only an import or a forecast does
sizes() { printf '%s B raw, %s B gzip -9' "$(wc -c <"$1" | tr -d ' ')" "$(gzip -9 -c "$1" | wc -c | tr -d ' ')"; }
log "client core wasm/icon_engine_bg.wasm: $(sizes wasm/icon_engine_bg.wasm)"
log "pack importer wasm/icon_importer_bg.wasm: $(sizes wasm/icon_importer_bg.wasm)"
log "encounter forecast wasm/icon_forecast_bg.wasm: $(sizes wasm/icon_forecast_bg.wasm)"
log "done in $((SECONDS - BUILD_START))s: dist/icon-engine/, dist/icon-engine.zip and dist/system.json" \
  "($(du -h dist/icon-engine.zip | cut -f1), sha256 $(sha256sum dist/icon-engine.zip | cut -c1-16)…)"
