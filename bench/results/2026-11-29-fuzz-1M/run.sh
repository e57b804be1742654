#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
# build/bin/cake-fuzz: built with -fsanitize=fuzzer,address (CAKE_ENABLE_FUZZER) from commit 5d3302f.
python3 test/Fuzz/make_corpus.py /tmp/fz2/seeds examples test/IR test/Verify
# /tmp/fz/corpus: the 1280 inputs an earlier 158k-execution run of the same day had kept (not kept).
# here: build/bin/cake-fuzz /tmp/fz2/corpus /tmp/fz2/seeds /tmp/fz/corpus -dict=test/Fuzz/cake.dict \
# here:     -max_len=16384 -timeout=20 -rss_limit_mb=4096 -runs=1000000 -seed=7 -print_final_stats=1
