#!/usr/bin/env bash
# Every crate of the workspace packaged as the registry would take it, in
# dependency order, and built from its package alone (nothing uploaded).
# Extra arguments go to cargo, e.g. --no-verify to package without the
# build.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo publish --workspace --dry-run --locked "$@"
