#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
# Compiled here and carried in .device/ (the README gives the form):
# here: cake-translate examples/<name>.mlir --emit=cubin -o <name>.cubin --manifest <name>.json
# here: ninja cake-ref-kernels
# gpu: python3 bench/run_examples.py --cake-run .device/cake-run --kernels .device/out --refs .device/ref \
# gpu:     --seeds 1,2,3 --json $OUT/examples.json
# Re-run of every example, second device session:
# gpu: python3 bench/run_examples.py --cake-run .device/cake-run --kernels .device/out --refs .device/ref \
# gpu:     --json $OUT/examples_all.json
