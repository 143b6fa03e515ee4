#!/usr/bin/env bash
# The main job on the built-in simulated board: installs what is missing, builds hapticboard and
# plays example patterns on the simulated DRV2605L with the live view (no hardware needed).
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

run probe
run play Examples/notation/success-confirmation.hnl
run play Examples/ahap/parameter-curves.ahap
run play Examples/notes/confirmation.notes
run inspect Examples/ahap/dynamic-parameters.ahap
