#!/usr/bin/env bash
# Refreshes the README's screenshots and the guide's images: runs the browser tests that take them
# (into test-results/), then composes docs/screenshots/ and assets/guide/ from those
# (scripts/screenshots.mjs). Needs the build (scripts/build.sh: the wasm, and the guide's pack for
# its test); build again afterwards, so the guide's pack carries the new images. Commit the
# changed images with the change that altered the look.
#   bash scripts/screenshots.sh            (npm run screenshots)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node --test test/browser/sheets.test.mjs test/browser/attack.test.mjs test/browser/combat-tracker.test.mjs \
  test/browser/narrative.test.mjs test/browser/odds-card.test.mjs test/browser/pack-import-dialog.test.mjs \
  test/browser/rulesets.test.mjs test/browser/guide.test.mjs test/browser/look.test.mjs test/browser/abilities.test.mjs \
  test/browser/abilities-walkthrough.test.mjs
node scripts/screenshots.mjs
