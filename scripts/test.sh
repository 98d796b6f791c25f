#!/usr/bin/env bash
# Runs every test, stopping at the first failure:
#   cargo fmt --check, cargo clippy -D warnings, cargo test (the Rust core, native),
#   scripts/build.sh (set-up, the wasm build, dist/; incremental),
#   npm run test:node (the built wasm through its JS contract), npm run typecheck (tsc checkJs of
#   module/ against the Foundry v13 types), npm run test:browser (headless Debian Chromium).
# Does all set-up itself (scripts/setup.sh, through build.sh). Each step's output is also kept in
# target/test-logs/. Ends with a summary and a line "tests: N passed, N failed".
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"
LOGS="$ROOT/target/test-logs"
rm -rf "$LOGS"
mkdir -p "$LOGS"

START=$SECONDS
STEP_NAMES=()
STEP_TIMES=()
CURRENT=""

# Adds up the closing lines of cargo's and node's test runners in the step logs.
count() {
  cat "$LOGS"/*.log 2>/dev/null | awk '
    /^test result: / { for (i = 1; i <= NF; i++) { if ($(i) ~ /^passed/) p += $(i-1); if ($(i) ~ /^failed/) f += $(i-1) } }
    /^(# |ℹ )pass [0-9]+$/ { p += $NF }
    /^(# |ℹ )fail [0-9]+$/ { f += $NF }
    END { printf "%d passed, %d failed\n", p, f }'
}

summary() {
  local rc=$?
  printf '\n=== summary\n'
  local i
  for i in "${!STEP_NAMES[@]}"; do
    printf '  ok    %4ss  %s\n' "${STEP_TIMES[$i]}" "${STEP_NAMES[$i]}"
  done
  if [ "$rc" -ne 0 ]; then
    printf '  FAIL        %s (exit %s; log: %s)\n' "${CURRENT:-set-up}" "$rc" "$LOGS"
    printf 'test.sh: FAILED at "%s" after %ss\n' "${CURRENT:-set-up}" "$((SECONDS - START))"
  else
    printf 'test.sh: all %s steps passed in %ss\n' "${#STEP_NAMES[@]}" "$((SECONDS - START))"
  fi
  printf 'tests: %s\n' "$(count)"
  exit "$rc"
}
trap summary EXIT

# step NAME COMMAND...: runs the command, its output shown and kept in target/test-logs/.
step() {
  local name="$1"
  shift
  CURRENT="$name"
  local t0=$SECONDS log
  log="$LOGS/$(printf '%02d' $((${#STEP_NAMES[@]} + 1)))-${name//[^a-z0-9]/-}.log"
  printf '\n=== %s\n' "$name"
  "$@" 2>&1 | tee "$log" # a failure ends the script here (errexit, pipefail), through summary()
  STEP_NAMES+=("$name")
  STEP_TIMES+=("$((SECONDS - t0))")
  CURRENT=""
}

# rustfmt and clippy are in rustup's default profile; added here if a toolchain lacks them
for component in rustfmt:cargo-fmt clippy:cargo-clippy; do
  if ! "${component#*:}" --version >/dev/null 2>&1 && command -v rustup >/dev/null 2>&1; then
    timeout 120 rustup component add "${component%%:*}" || true
  fi
done

step "cargo fmt --check" cargo fmt --all -- --check
step "cargo clippy" cargo clippy --quiet --all-targets -- -D warnings
step "cargo test" cargo test --quiet
step "build" bash scripts/build.sh
step "npm run test:node" npm run --silent test:node
step "npm run typecheck" npm run --silent typecheck
step "npm run test:browser" npm run --silent test:browser
