#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
# blackwell_gemm.* (kmeans_blackwell.*: the same commands for examples/kmeans_blackwell.mlir):
# here: build/bin/cake-translate examples/blackwell_gemm.mlir --emit=ptx -o blackwell_gemm.ptx
# here: build/bin/cake-translate examples/blackwell_gemm.mlir --emit=cubin -o g.cubin --manifest blackwell_gemm.json --ptxas-log blackwell_gemm.ptxas.log
# here: cuobjdump -sass g.cubin
# Cost model:
# here: cake-opt examples/blackwell_gemm.mlir --cake-print-cost="sizes=M=8192,N=8192,K=8192"
