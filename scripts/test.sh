#!/usr/bin/env bash
# Runs every test: rustfmt and clippy, the Rust unit/integration/property tests, then builds the
# wasm and runs the node tests of the built core, the type check of module/ against the Foundry v13
# types, and the headless-Chromium tests. Does all set-up itself (scripts/setup.sh, via build.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"
step() { printf '\n=== %s\n' "$*"; }

step "build (set-up, wasm, dist)"
bash scripts/build.sh

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy -D warnings"
cargo clippy --quiet --all-targets -- -D warnings

step "cargo test"
cargo test --quiet 2>&1 | grep -v '^$'

step "npm run typecheck"
npm run --silent typecheck

step "npm run test:node"
npm run --silent test:node

step "npm run test:browser"
npm run --silent test:browser

printf '\nall checks passed\n'
