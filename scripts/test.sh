#!/usr/bin/env bash
# The test command: install what is missing, build, run every test (lit + GoogleTest).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
ninja -C "${CAKE_BUILD_DIR:-$root/build}" check-cake
