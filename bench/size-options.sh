#!/usr/bin/env bash
# The wasm-size options of issue 19, each built from this checkout's source in a scratch copy
# and measured against the shipped module (wasm/, from scripts/build.sh): size raw and gzip -9,
# then speed side by side in one node process (bench/size-options.mjs). Prints markdown.
#   bash bench/size-options.sh            # both options
# Options: `swb` decodes arguments with serde-wasm-bindgen from plain JS objects (the project's
# original shape) instead of serde_json from JSON text; `z` builds with opt-level "z" instead of
# "s". Each is a full release build (a few minutes); nothing in the checkout changes.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${TMPDIR:-/tmp}/icon-size-options"
OPT="$ROOT/node_modules/.bin/wasm-opt"
FEATURES=(--enable-bulk-memory --enable-bulk-memory-opt --enable-call-indirect-overlong --enable-multivalue
  --enable-mutable-globals --enable-nontrapping-float-to-int --enable-reference-types --enable-sign-ext --enable-simd)
build() {
  local name=$1 dir="$WORK/$1"
  rm -rf "$dir" && mkdir -p "$dir"
  cp -r "$ROOT/Cargo.toml" "$ROOT/Cargo.lock" "$ROOT/src" "$ROOT/.cargo" "$dir/"
  # the library alone (no benches or binaries to build)
  python3 - "$dir" "$name" <<'PY'
import re, sys
d, name = sys.argv[1], sys.argv[2]
toml = open(f"{d}/Cargo.toml").read()
toml = re.sub(r'\[\[bench\]\]\nname = "\w+"\nharness = false\n', '', toml)
if name == "swb":
    toml = toml.replace('js-sys = "0.3"\n', 'js-sys = "0.3"\nserde-wasm-bindgen = "0.6"\n')
    src = open(f"{d}/src/wasm.rs").read()
    old = '''fn decode<T: DeserializeOwned>(what: &str, text: &JsValue) -> Result<T, JsError> {
    let text = text_arg(what, text)?;
    crate::decode::from_json_text_within(what, &text, crate::decode::MAX_REQUEST_JSON)
        .map_err(js_error)
}'''
    assert old in src, "src/wasm.rs changed: update bench/size-options.sh"
    src = src.replace(old, '''fn decode<T: DeserializeOwned>(what: &str, value: &JsValue) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(value.clone()).map_err(|e| JsError::new(&format!("invalid {what}: {e}")))
}''')
    src = src.replace('Some(decode_large("combat state", &state)?)', 'Some(decode("combat state", &state)?)')
    src = src.replace('decode_large("combat event", &event)?', 'decode("combat event", &event)?')
    open(f"{d}/src/wasm.rs", "w").write(src)
if name == "z":
    toml = toml.replace('opt-level = "s"', 'opt-level = "z"')
open(f"{d}/Cargo.toml", "w").write(toml)
PY
  (cd "$dir" && CARGO_TARGET_DIR="$WORK/target" cargo build --quiet --release --lib --target wasm32-unknown-unknown >&2)
  wasm-bindgen --target web --out-dir "$dir/pkg" --out-name icon_engine "$WORK/target/wasm32-unknown-unknown/release/icon_engine.wasm"
  "$OPT" "$dir/pkg/icon_engine_bg.wasm" -Oz -o "$dir/pkg/opt.wasm" "${FEATURES[@]}"
  mv "$dir/pkg/opt.wasm" "$dir/pkg/icon_engine_bg.wasm"
}
for option in swb z; do build "$option"; done
row() { printf '| %s | %s | %s |\n' "$1" "$(wc -c <"$2" | tr -d ' ')" "$(gzip -9 -c "$2" | wc -c | tr -d ' ')"; }
echo "| build | wasm bytes | gzip -9 bytes |"
echo "|---|---:|---:|"
row "shipped (serde_json from JSON text, opt-level s)" "$ROOT/wasm/icon_engine_bg.wasm"
row "serde-wasm-bindgen from plain objects" "$WORK/swb/pkg/icon_engine_bg.wasm"
row "opt-level z" "$WORK/z/pkg/icon_engine_bg.wasm"
echo
node "$ROOT/bench/size-options.mjs" "$WORK"
