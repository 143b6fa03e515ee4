#!/usr/bin/env bash
# The whole test suite: installs what is missing, runs every XCTest on the simulated hardware, and
# compiles the C drivers against libgpiod 2.x as well as the system's 1.6.
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/install-deps.sh
swift build --build-tests
swift test
Scripts/build-libgpiod2.sh
