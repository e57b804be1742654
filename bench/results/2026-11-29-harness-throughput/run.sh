#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
flock /tmp/cake-build.lock agent/cake throughput --n 64 --jobs 2          # task agent/tasks/gemm.json
flock /tmp/cake-build.lock agent/cake throughput --task agent/tasks/vector_add.json --n 60 --jobs 2 --examples ""
# After the verify step runs the whole schedule verifier (later the same day):
agent/cake throughput --n 32 --no-profile --repeat 3
# Cross-checks, as the README gives them (no paths):
# here: cake-translate --version
# here: cake-opt examples/hopper_gemm.mlir --cake-lower-to-nvvm --mlir-timing
# here: cake-translate --emit=ptx --time-passes
