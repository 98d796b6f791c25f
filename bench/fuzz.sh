#!/usr/bin/env bash
# Runs every cargo-fuzz target in fuzz/ (or the ones named after the budget) for a time budget
# each (default 600 s), two at a time, and prints a markdown section with a row per target: runs,
# corpus size, and whether it found anything. `ICON_FUZZ_SECONDS=600 npm run bench` puts that
# section in BENCHMARKS.md.
# Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). CI runs the proptest
# equivalents instead (tests/hardening_props.rs).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_EACH="${1:-600}"
cd "$ROOT/fuzz"
cargo +nightly fuzz build -O >&2
LOGS="$ROOT/target/fuzz-logs"
mkdir -p "$LOGS"
run() {
  local t=$1
  mkdir -p "corpus/$t"
  cargo +nightly fuzz run -O "$t" "corpus/$t" -- -max_total_time="$SECONDS_EACH" -timeout=10 \
    -rss_limit_mb=2048 -max_len=4096 >"$LOGS/$t.log" 2>&1 && echo ok >"$LOGS/$t.status" || echo failed >"$LOGS/$t.status"
}
TARGETS=(formula request_json resolve_faces import_pack combat html_scan ability_text)
# `bash bench/fuzz.sh SECONDS TARGET...` runs only those (e.g. again after a change to their code)
if [ $# -gt 1 ]; then TARGETS=("${@:2}"); fi
for ((i = 0; i < ${#TARGETS[@]}; i += 2)); do
  run "${TARGETS[$i]}" &
  [ -n "${TARGETS[$((i + 1))]:-}" ] && run "${TARGETS[$((i + 1))]}" &
  wait
done
{
  echo "## cargo fuzz"
  echo
  echo "\`bash bench/fuzz.sh ${*:-$SECONDS_EACH}\` ($(rustc +nightly --version | cut -d' ' -f2))"
  echo
  echo "| fuzz target | seconds | executions | corpus files | result |"
  echo "|---|---:|---:|---:|---|"
  for t in "${TARGETS[@]}"; do
    execs="$(grep -oE '^#[0-9]+' "$LOGS/$t.log" | tail -1 | tr -d '#')"
    echo "| \`$t\` | $SECONDS_EACH | ${execs:-?} | $(find "corpus/$t" -type f | wc -l) | $(cat "$LOGS/$t.status") |"
  done
}
