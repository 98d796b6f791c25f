#!/usr/bin/env bash
# Idempotent set-up for building and testing ICON Engine. Sourced by scripts/build.sh (and so by
# scripts/test.sh); `bash scripts/setup.sh` runs it alone. Every step checks first and is skipped
# when its result is already there, so a second run takes about a second.
#
# It provides, on Debian 12 as root, or on a normal rustup machine:
#   1. the wasm32-unknown-unknown std, in this order of preference:
#      - rustup's (or the default rustc's) wasm32 target, when it is installed;
#      - Debian's Rust (rustc-web, 1.9x) with std built once for wasm32 (-Z build-std) and
#        installed into Debian's sysroot, when that was done before (a version marker says so);
#      - `rustup target add wasm32-unknown-unknown` (with a time limit);
#      - otherwise the Debian std build above (machines whose rustup cannot download targets).
#      ICON_WASM_TOOLCHAIN=debian or =rustup forces one of the two.
#   2. wasm-bindgen-cli at exactly the version of the wasm-bindgen crate in Cargo.lock; wasm-pack
#   3. the npm packages of package-lock.json (`npm ci`, when node_modules is missing or older)
#   4. Debian's chromium for the browser tests
# It exports, for the build: WASM_TOOLCHAIN (rustup|debian), WASM_CARGO_PATH (PATH prefix for the
# wasm build), WASM_TARGET_DIR (cargo target dir of the wasm build). Debian's compiler gets its
# own target dir, so the two compilers never evict each other's caches.

set -euo pipefail

ICON_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
setup_log() { printf '[setup] %s\n' "$*" >&2; }
setup_die() { printf '[setup] ERROR: %s\n' "$*" >&2; exit 1; }
SETUP_START=$SECONDS

export PATH="$HOME/.cargo/bin:$PATH"
export DEBIAN_FRONTEND=noninteractive

# One build or set-up at a time in this checkout (npm ci, apt and the wasm/ and dist/ folders do
# not take two writers). The lock is inherited by child processes, which then skip taking it.
if [ -z "${ICON_BUILD_LOCK:-}" ] && command -v flock >/dev/null 2>&1; then
  mkdir -p "$ICON_ROOT/target"
  exec 9>"$ICON_ROOT/target/.icon-build.lock"
  if ! flock -n 9; then
    setup_log "another build is running in this checkout; waiting for it"
    flock 9
  fi
  export ICON_BUILD_LOCK=1
fi

# --- Debian packages --------------------------------------------------------------------------
APT_UPDATED=0
apt_install() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || setup_die "please install these Debian packages: ${missing[*]}"
    local SUDO=sudo
  fi
  if [ "$APT_UPDATED" -eq 0 ]; then
    setup_log "apt-get update"
    ${SUDO:-} apt-get update -qq
    APT_UPDATED=1
  fi
  setup_log "apt-get install ${missing[*]}"
  ${SUDO:-} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
}

# --- 1. the wasm32 standard library -----------------------------------------------------------
WASM_TRIPLE=wasm32-unknown-unknown

# Has this rustc (a path or a name on PATH) a std for wasm32?
has_wasm_std() {
  local libdir
  libdir="$("$1" --print target-libdir --target "$WASM_TRIPLE" 2>/dev/null)" || return 1
  compgen -G "$libdir/libstd-*.rlib" >/dev/null
}

debian_std_marker() {
  echo "$(/usr/bin/rustc --print sysroot)/lib/rustlib/$WASM_TRIPLE/lib/.icon-engine-std"
}

# Was std already built for wasm32 with the installed Debian rustc?
debian_std_current() {
  [ -x /usr/bin/rustc ] || return 1
  local marker
  marker="$(debian_std_marker)"
  [ -f "$marker" ] && [ "$(cat "$marker")" = "$(/usr/bin/rustc --version)" ] && has_wasm_std /usr/bin/rustc
}

try_rustup_target_add() {
  command -v rustup >/dev/null 2>&1 || return 1
  setup_log "rustup target add $WASM_TRIPLE"
  local out rc=0
  # Where the download is refused, rustup says so at once (measured: ~0.2 s); the time limit is
  # only for a network that drops packets instead.
  out="$(timeout 120 rustup target add "$WASM_TRIPLE" 2>&1)" || rc=$?
  if [ "$rc" -eq 0 ] && has_wasm_std rustc; then
    return 0
  fi
  setup_log "rustup could not add $WASM_TRIPLE (exit $rc: $(printf '%s\n' "$out" | grep -m1 -iE 'error|timed out' || echo "${out##*$'\n'}"))"
  return 1
}

# Debian's Rust + std source; std for wasm32 built once with -Z build-std and installed into
# Debian's sysroot.
debian_wasm_std() {
  apt_install rustc-web cargo-web rust-web-src lld-22
  debian_std_current && return 0
  local version sysroot src libdir scratch
  version="$(/usr/bin/rustc --version)"
  sysroot="$(/usr/bin/rustc --print sysroot)"
  src="$sysroot/lib/rustlib/src/rust/library"
  [ -f "$src/Cargo.lock" ] || setup_die "no std source at $src (package rust-web-src)"
  libdir="$sysroot/lib/rustlib/$WASM_TRIPLE/lib"
  setup_log "building std for $WASM_TRIPLE with Debian's $version (once, about a minute)"
  scratch="$(mktemp -d)"
  (
    cd "$scratch"
    unset CARGO_TARGET_DIR CARGO_BUILD_TARGET RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
    export PATH="/usr/bin:$PATH" RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
    /usr/bin/cargo new -q --lib --vcs none wasmstd
    cd wasmstd
    /usr/bin/cargo build -q --release --target "$WASM_TRIPLE" --target-dir "$scratch/target" \
      -Z build-std=std,panic_abort
  )
  local deps="$scratch/target/$WASM_TRIPLE/release/deps"
  compgen -G "$deps/libstd-*.rlib" >/dev/null || setup_die "the std build made no libstd rlib"
  mkdir -p "$libdir"
  rm -f "$libdir"/lib*.rlib "$libdir/.icon-engine-std"
  find "$deps" -name 'lib*.rlib' ! -name 'libwasmstd-*' -exec cp {} "$libdir/" \;
  rm -rf "$scratch"
  echo "$version" >"$libdir/.icon-engine-std"
  has_wasm_std /usr/bin/rustc || setup_die "Debian's rustc still finds no wasm32 std in $libdir"
}

case "${ICON_WASM_TOOLCHAIN:-auto}" in
  debian)
    debian_wasm_std
    WASM_TOOLCHAIN=debian ;;
  rustup)
    has_wasm_std rustc || try_rustup_target_add || setup_die "rustup has no $WASM_TRIPLE target"
    WASM_TOOLCHAIN=rustup ;;
  auto)
    if command -v rustc >/dev/null 2>&1 && has_wasm_std rustc; then
      WASM_TOOLCHAIN=rustup
    elif debian_std_current; then
      WASM_TOOLCHAIN=debian
    elif try_rustup_target_add; then
      WASM_TOOLCHAIN=rustup
    else
      setup_log "falling back to Debian's Rust for the wasm build"
      debian_wasm_std
      WASM_TOOLCHAIN=debian
    fi ;;
  *) setup_die "ICON_WASM_TOOLCHAIN must be debian, rustup or unset" ;;
esac
if [ "$WASM_TOOLCHAIN" = debian ]; then
  WASM_CARGO_PATH=/usr/bin
  WASM_TARGET_DIR="$ICON_ROOT/target/wasm"
else
  WASM_CARGO_PATH="$(dirname "$(command -v cargo)")"
  WASM_TARGET_DIR="$ICON_ROOT/target"
fi
export WASM_TOOLCHAIN WASM_CARGO_PATH WASM_TARGET_DIR

# --- 2. wasm-bindgen-cli (the exact version in Cargo.lock) and wasm-pack ----------------------
[ -f "$ICON_ROOT/Cargo.lock" ] || (cd "$ICON_ROOT" && cargo generate-lockfile -q)
WBG_VERSION="$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/[^0-9.]/, ""); print; exit }' \
  "$ICON_ROOT/Cargo.lock")"
[ -n "$WBG_VERSION" ] || setup_die "cannot find the wasm-bindgen version in Cargo.lock"
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WBG_VERSION" ]; then
  setup_log "cargo install wasm-bindgen-cli $WBG_VERSION (a few minutes, once)"
  # Its own lock file is tried first; 0.2.130's pins a webpki-roots that crates.io no longer
  # serves, so without --locked next (cargo then picks the newest compatible versions).
  if ! cargo install -q --locked wasm-bindgen-cli --version "$WBG_VERSION" --force 2>/dev/null; then
    setup_log "its Cargo.lock does not resolve; installing with current compatible dependencies"
    cargo install -q wasm-bindgen-cli --version "$WBG_VERSION" --force
  fi
fi
if ! wasm-pack --version >/dev/null 2>&1; then
  setup_log "cargo install wasm-pack (a few minutes, once)"
  cargo install -q --locked wasm-pack
fi

# --- 3. npm packages --------------------------------------------------------------------------
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  apt_install nodejs npm
fi
if [ ! -f "$ICON_ROOT/node_modules/.package-lock.json" ] \
  || [ "$ICON_ROOT/package-lock.json" -nt "$ICON_ROOT/node_modules/.package-lock.json" ]; then
  setup_log "npm ci"
  (cd "$ICON_ROOT" && npm ci --no-audit --no-fund --loglevel=error >&2)
fi

# --- 4. chromium for the browser tests; python3 zips the release ------------------------------
[ -x /usr/bin/chromium ] || apt_install chromium
command -v python3 >/dev/null 2>&1 || apt_install python3

setup_log "ready in $((SECONDS - SETUP_START))s (wasm toolchain: $WASM_TOOLCHAIN, wasm-bindgen $WBG_VERSION)"
