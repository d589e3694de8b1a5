#!/usr/bin/env bash
# Browser test of `ajedrecista serve` (called by .ci/run): installs Debian's
# chromium, and playwright-core and axe-core from npm, if missing; builds the
# binary; runs play.mjs (one check per finding of issues 14 and 27, games to
# mate by click, keyboard and the clickable MK-61, the tablebase set up by
# dragging, axe-core in every view; 70 s to 2 min once built on 2 loaded
# cores, docs/web.md). Screenshots go to target/web-e2e*.png, axe's findings to
# target/web-e2e-axe.json. Then crowd.mjs: 50 browser contexts open the page
# at once, every one must get it ready (issue 56, item 9; about a minute).
set -euo pipefail
cd "$(dirname "$0")/../../.."

if [ ! -x /usr/bin/chromium ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
(cd crates/web/e2e && npm ci --no-audit --no-fund --loglevel=error)
# The binary `cargo test --workspace` builds (a no-op after it; a build of
# the CLI package alone would unify other features and build again).
cargo test --workspace --locked --no-run
node crates/web/e2e/play.mjs target/debug/ajedrecista target
node crates/web/e2e/crowd.mjs target/debug/ajedrecista 50
