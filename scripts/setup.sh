#!/usr/bin/env bash
# Idempotent set-up for building and testing ICON Engine. Sourced by build.sh and test.sh; every
# step checks first and is skipped when its result is already there, so a second run is quick.
#
# It provides, on Debian (as root) or a normal rustup machine:
#   - the wasm32-unknown-unknown std: rustup's target where rustup can add it; otherwise Debian's
#     Rust (rustc-web) with std built once for wasm32 and installed into Debian's sysroot
#   - wasm-bindgen-cli at exactly the version of the wasm-bindgen crate in Cargo.lock, and wasm-pack
#   - npm packages from package-lock.json (npm ci), including binaryen's wasm-opt and playwright-core
#   - Debian's chromium for the browser tests
# Exported for the callers: WASM_CARGO_PATH (PATH prefix for the wasm build), WASM_TARGET_DIR.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { printf '[setup] %s\n' "$*" >&2; }
export PATH="$HOME/.cargo/bin:$PATH"
export DEBIAN_FRONTEND=noninteractive

APT_UPDATED=0
apt_install() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    log "please install these Debian packages: ${missing[*]}"
    return 1
  fi
  if [ "$APT_UPDATED" -eq 0 ]; then
    log "apt-get update"
    apt-get update -qq
    APT_UPDATED=1
  fi
  log "apt-get install ${missing[*]}"
  apt-get install -y -qq "${missing[@]}" >/dev/null
}

# --- the wasm32 standard library -------------------------------------------------------------
rustup_has_wasm() {
  command -v rustup >/dev/null 2>&1 && rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown
}

debian_wasm_std() {
  # Debian's Rust 1.96 + std source; std for wasm32 built once with -Z build-std and installed
  # into Debian's sysroot (rustup cannot add targets on some machines).
  apt_install rustc-web cargo-web rust-web-src lld-22
  local sysroot libdir marker version
  sysroot="$(/usr/bin/rustc --print sysroot)"
  libdir="$sysroot/lib/rustlib/wasm32-unknown-unknown/lib"
  marker="$libdir/.icon-engine-std"
  version="$(/usr/bin/rustc --version)"
  if [ -f "$marker" ] && [ "$(cat "$marker")" = "$version" ]; then
    return 0
  fi
  log "building std for wasm32 with $version (once)"
  local scratch
  scratch="$(mktemp -d)"
  (
    cd "$scratch"
    PATH=/usr/bin:$PATH cargo new -q --lib wasmstd
    cd wasmstd
    PATH=/usr/bin:$PATH RUSTC_BOOTSTRAP=1 cargo build -q --release \
      --target wasm32-unknown-unknown -Z build-std=std,panic_abort
    mkdir -p "$libdir"
    find target/wasm32-unknown-unknown/release/deps -name 'lib*.rlib' ! -name 'libwasmstd-*' \
      -exec cp {} "$libdir/" \;
  )
  rm -rf "$scratch"
  echo "$version" > "$marker"
}

if [ "${ICON_WASM_TOOLCHAIN:-}" != "debian" ] && rustup_has_wasm; then
  WASM_TOOLCHAIN=rustup
elif [ "${ICON_WASM_TOOLCHAIN:-}" != "debian" ] && command -v rustup >/dev/null 2>&1 \
  && timeout 180 rustup target add wasm32-unknown-unknown >/dev/null 2>&1; then
  WASM_TOOLCHAIN=rustup
else
  debian_wasm_std
  WASM_TOOLCHAIN=debian
fi
if [ "$WASM_TOOLCHAIN" = debian ]; then
  # Debian's cargo/rustc first; a separate target dir so the two compilers never share a cache.
  export WASM_CARGO_PATH="/usr/bin"
  export WASM_TARGET_DIR="$ROOT/target/debian-wasm"
else
  export WASM_CARGO_PATH="$HOME/.cargo/bin"
  export WASM_TARGET_DIR="$ROOT/target"
fi
export WASM_TOOLCHAIN
log "wasm toolchain: $WASM_TOOLCHAIN"

# --- wasm-bindgen-cli (exact version) and wasm-pack -------------------------------------------
WBG_VERSION="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' "$ROOT/Cargo.lock")"
if [ -z "$WBG_VERSION" ]; then
  log "cannot find the wasm-bindgen version in Cargo.lock"
  exit 1
fi
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WBG_VERSION" ]; then
  log "installing wasm-bindgen-cli $WBG_VERSION"
  # not --locked: its lock pins a crate version the registry has since yanked
  cargo install -q wasm-bindgen-cli --version "$WBG_VERSION" --force
fi
if ! command -v wasm-pack >/dev/null 2>&1; then
  log "installing wasm-pack"
  cargo install -q wasm-pack
fi

# --- npm packages -----------------------------------------------------------------------------
if ! command -v node >/dev/null 2>&1; then
  apt_install nodejs npm
fi
if [ ! -f "$ROOT/node_modules/.package-lock.json" ] \
  || [ "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]; then
  log "npm ci"
  (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
fi

# --- chromium for the browser tests -----------------------------------------------------------
if [ ! -x /usr/bin/chromium ]; then
  apt_install chromium
fi
