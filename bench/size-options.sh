#!/usr/bin/env bash
# The size levers of the client core: the core built from this checkout's source in scratch copies,
# each with one lever changed from the shipped settings, and measured against the shipped module
# (wasm/, from scripts/build.sh), raw and gzip -9. Prints a markdown table (bench/run.mjs puts it in
# BENCHMARKS.md). Each variant is a full release build (about a minute); nothing in the checkout
# changes.   bash bench/size-options.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${TMPDIR:-/tmp}/icon-size-options"
OPT="$ROOT/node_modules/.bin/wasm-opt"
FEATURES=(--enable-bulk-memory --enable-bulk-memory-opt --enable-call-indirect-overlong --enable-multivalue
  --enable-mutable-globals --enable-nontrapping-float-to-int --enable-reference-types --enable-sign-ext --enable-simd)
export PATH="$HOME/.cargo/bin:$PATH"
# Builds variant $1 with Cargo features $2 after applying its change to the scratch copy; leaves
# $WORK/$1/pkg/icon_engine_bg.wasm (optimised unless the variant is `nowasmopt`).
build() {
  local name=$1 features=$2 dir="$WORK/$1"
  rm -rf "$dir" && mkdir -p "$dir"
  cp -r "$ROOT/Cargo.toml" "$ROOT/Cargo.lock" "$ROOT/src" "$ROOT/.cargo" "$dir/"
  python3 - "$dir" "$name" <<'PY'
import re, sys
d, name = sys.argv[1], sys.argv[2]
toml = open(f"{d}/Cargo.toml").read()
# the library alone (no benches or binaries to build)
toml = re.sub(r'\[\[bench\]\]\nname = "\w+"\nharness = false\n', '', toml)
profile = {"z": ('opt-level = "s"', 'opt-level = "z"'), "o3": ('opt-level = "s"', 'opt-level = 3'),
           "nolto": ("lto = true", "lto = false"), "cgu16": ("codegen-units = 1", "codegen-units = 16")}
if name in profile:
    old, new = profile[name]
    assert old in toml, f"Cargo.toml changed: update bench/size-options.sh ({old})"
    toml = toml.replace(old, new)
if name == "straight":
    src = open(f"{d}/src/decode.rs").read()
    old = "    from_value(what, &parse(what, text)?)\n}"
    assert old in src, "src/decode.rs changed: update bench/size-options.sh"
    src = src.replace(old, "    match serde_json::from_str::<T>(text) {\n        Ok(v) => Ok(v),\n        Err(_) => from_value(what, &parse(what, text)?),\n    }\n}")
    open(f"{d}/src/decode.rs", "w").write(src)
open(f"{d}/Cargo.toml", "w").write(toml)
PY
  (cd "$dir" && CARGO_TARGET_DIR="$WORK/target" cargo build --quiet --release --lib --target wasm32-unknown-unknown --features "$features" >&2)
  wasm-bindgen --target web --out-dir "$dir/pkg" --out-name icon_engine "$WORK/target/wasm32-unknown-unknown/release/icon_engine.wasm"
  if [ "$name" != nowasmopt ]; then
    # as scripts/build.sh optimises (the `lowmemory` variant without --low-memory-unused)
    local low=(--low-memory-unused)
    [ "$name" = lowmemory ] && low=()
    "$OPT" "$dir/pkg/icon_engine_bg.wasm" -Oz "${low[@]}" -o "$dir/pkg/opt.wasm" "${FEATURES[@]}"
    mv "$dir/pkg/opt.wasm" "$dir/pkg/icon_engine_bg.wasm"
  fi
}
SHIPPED="$ROOT/wasm/icon_engine_bg.wasm"
gz() { gzip -9 -c "$1" | wc -c | tr -d ' '; }
raw() { wc -c <"$1" | tr -d ' '; }
BASE="$(gz "$SHIPPED")"
row() {
  local g; g="$(gz "$2")"
  printf '| %s | %s | %s | %+d |\n' "$1" "$(raw "$2")" "$g" "$((g - BASE))"
}
echo "| client core build | wasm bytes | gzip -9 bytes | gzip -9 against shipped |"
echo "|---|---:|---:|---:|"
row "shipped: opt-level s, LTO, 1 codegen unit, panic abort, wasm-opt -Oz --low-memory-unused; JSON text parsed once into a Value that every type is read from (by the core's own deserializer), tagged enums without serde's Content" "$SHIPPED"
for variant in "nowasmopt client|without wasm-opt -Oz" "lowmemory client|wasm-opt without --low-memory-unused" "z client|opt-level z (smaller, about half as fast a roll)" \
    "o3 client|opt-level 3 (about a quarter faster a roll)" "nolto client|without LTO" "cgu16 client|16 codegen units" \
    "straight client|each type read straight from the JSON text as well (its own parser per type)" \
    "one client,importer|one module with the importer in it (what every client downloaded before the split)"; do
  spec="${variant%%|*}" label="${variant#*|}"
  name="${spec%% *}" features="${spec#* }"
  build "$name" "$features"
  row "$label" "$WORK/$name/pkg/icon_engine_bg.wasm"
done
