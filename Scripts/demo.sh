#!/usr/bin/env bash
# The main job on the built-in simulated board: installs what is missing, builds hapticboard and
# runs it against the simulated DRV2605L (no hardware needed).
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/install-deps.sh
swift build --product hapticboard
hapticboard=".build/debug/hapticboard"

run() {
    echo "\$ hapticboard $*"
    "$hapticboard" "$@"
    echo
}

run probe --board sim
run registers --board sim
run boards check Boards/*.yml
