#!/usr/bin/env bash
# Refreshes the README's screenshots: runs the browser tests that take them (into test-results/),
# then composes docs/screenshots/ from those (scripts/screenshots.mjs). Needs the built wasm
# (scripts/build.sh). Commit the changed PNGs with the change that altered the look.
#   bash scripts/screenshots.sh            (npm run screenshots)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node --test test/browser/sheets.test.mjs test/browser/attack.test.mjs test/browser/combat-tracker.test.mjs
node scripts/screenshots.mjs
