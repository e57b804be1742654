// cake-print-cost on the examples, against a frozen copy of the H200 profile (Inputs/h200-test.json):
// remarks (prediction, bound, occupancy, work, pipelines, access findings) and the JSON report.
//
// RUN: cake-opt %cake_examples/hopper_gemm.mlir -o /dev/null \
// RUN:   --cake-print-cost="sizes=M=8192,N=8192,K=8192 profile=%S/Inputs/h200-test.json json=%t.hgemm.json" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HGEMM
// RUN: FileCheck %s --check-prefix=HGEMM-JSON < %t.hgemm.json
// HGEMM: hopper_gemm.mlir:{{[0-9]+}}:1: remark: cost: predicted {{[0-9.]+}} ms on h200-test v1: {{latency|compute}}-bound ({{latency|tensor_bf16}}: {{.*}}; next: {{tensor_bf16|latency}}
// HGEMM: remark: cost occupancy: 1 block(s)/SM limited by registers (384 threads, 168 registers from setmaxnreg, 196672 B shared); 2048 blocks = 15.52 waves, 16 on the busiest SM
// HGEMM: remark: cost work: FLOP tensor_bf16 1.1e+12; bytes dram {{.*}}, l2 {{.*}}, shared {{.*}}
// HGEMM: remark: cost pipeline: 4 stages, ceildiv(K, 64) iterations of {{[0-9.]+}} us; copy latency / stages 0.175 us: latency hidden (tma ring); per iteration of a block: FLOP tensor_bf16 4.194e+06; bytes l2 4.915e+04, shared 1.311e+05
// HGEMM-NOT: uncoalesced
// HGEMM-NOT: bank conflicts
// HGEMM-JSON: "bound": "{{latency|compute}}"
// HGEMM-JSON: "flops": {
// HGEMM-JSON-NEXT: "tensor_bf16": 1099511627776
// HGEMM-JSON: "blocks": 2048,
// HGEMM-JSON-NEXT: "blocks_on_busiest_sm": 16,
// HGEMM-JSON: "kernel": "hopper_gemm",
// The consumer's TMA ring, one stage per iteration of a block: 128x256x64 MMA FLOPs, the A and B
// boxes the producer loop (line 81) fills (L2 bytes) and the shared bytes (fills + wgmma reads).
// HGEMM-JSON: "loops": [
// HGEMM-JSON: "bytes": {
// HGEMM-JSON-NEXT: "dram": {{[0-9.]+}},
// HGEMM-JSON-NEXT: "global_useful": 49152,
// HGEMM-JSON-NEXT: "l2": 49152,
// HGEMM-JSON-NEXT: "shared": 131072
// HGEMM-JSON-NEXT: },
// HGEMM-JSON-NEXT: "copy_latency_param": "tma_latency_ns",
// HGEMM-JSON-NEXT: "copy_latency_per_stage_us": 0.175{{[0-9]*}},
// HGEMM-JSON-NEXT: "flops": {
// HGEMM-JSON-NEXT: "tensor_bf16": 4194304
// HGEMM-JSON-NEXT: },
// HGEMM-JSON-NEXT: "iteration_time_us": {{[0-9.]+}},
// HGEMM-JSON-NEXT: "iteration_us": {{[0-9.]+}},
// HGEMM-JSON-NEXT: "latency_hidden": true,
// HGEMM-JSON-NEXT: "line": 104,
// HGEMM-JSON-NEXT: "mma_overlaps_epilogue": true,
// HGEMM-JSON-NEXT: "producer_line": 81,
// HGEMM-JSON-NEXT: "ring": "tma",
// HGEMM-JSON-NEXT: "stages": 4,
// HGEMM-JSON-NEXT: "trips": "ceildiv(K, 64)",
// HGEMM-JSON-NEXT: "trips_value": 128
// HGEMM-JSON: "model": [
// HGEMM-JSON: "registers_source": "setmaxnreg",
// HGEMM-JSON: "tensor_TFLOPS.bf16": 721,
// HGEMM-JSON: "predicted_time_ms": {{[0-9.]+}},
// HGEMM-JSON: "name": "h200-test",
// HGEMM-JSON: "status": "ok",
// HGEMM-JSON: "schema": "cake-cost-report"

// The Ampere-path GEMM (cp.async ring, ldmatrix, mma.sync) with the registers ptxas reports for it
// (128: 2 blocks/SM): every op has a cost model; the mma.sync FLOPs go to their own rate
// (mma_sync_TFLOPS.bf16); the cp.async ring (`wait 2`: 3 stages in flight) hides the global
// latency; per stage: 128x128x32 FLOPs, the A and B tiles (16 KiB through L2), 64 KiB of shared
// traffic (cp.async writes + ldmatrix reads), conflict-free with the 64-byte swizzle.
// RUN: cake-opt %cake_examples/ampere_gemm.mlir -o /dev/null \
// RUN:   --cake-print-cost="sizes=M=4096,N=4096,K=4096 profile=%S/Inputs/h200-test.json ptxas-report=%S/Inputs/ampere_gemm.ptxas.txt json=%t.agemm.json" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=AGEMM
// RUN: FileCheck %s --check-prefix=AGEMM-JSON < %t.agemm.json
// AGEMM: ampere_gemm.mlir:{{[0-9]+}}:1: remark: cost: predicted {{[0-9.]+}} ms on h200-test v1
// AGEMM: remark: cost occupancy: 2 block(s)/SM limited by registers (256 threads, 128 registers from ptxas, 65536 B shared); 1024 blocks = 3.879 waves, 8 on the busiest SM
// AGEMM: remark: cost work: FLOP mma_sync_bf16 1.374e+11; bytes dram {{.*}}, l2 2.265e+09, shared 8.64e+09
// AGEMM: remark: cost pipeline: 3 stages, ceildiv(K, 32) iterations of {{[0-9.]+}} us; copy latency / stages 0.1667 us: latency hidden (cp_async ring); per iteration of a block: FLOP mma_sync_bf16 1.049e+06; bytes l2 1.638e+04, shared 6.554e+04
// AGEMM-NOT: no cost model
// AGEMM-NOT: bank conflicts
// AGEMM-NOT: uncoalesced
// AGEMM-NOT: cost assumption
// AGEMM-JSON: "assumptions": [],
// AGEMM-JSON: "flops": {
// AGEMM-JSON-NEXT: "mma_sync_bf16": 137438953472
// AGEMM-JSON-NEXT: },
// AGEMM-JSON: "loops": [
// AGEMM-JSON: "bytes": {
// AGEMM-JSON-NEXT: "dram": {{[0-9.]+}},
// AGEMM-JSON-NEXT: "global_useful": 16384,
// AGEMM-JSON-NEXT: "l2": 16384,
// AGEMM-JSON-NEXT: "shared": 65536
// AGEMM-JSON-NEXT: },
// AGEMM-JSON-NEXT: "copy_latency_param": "global_latency_ns",
// AGEMM-JSON-NEXT: "copy_latency_per_stage_us": 0.1666{{[0-9]*}},
// AGEMM-JSON-NEXT: "flops": {
// AGEMM-JSON-NEXT: "mma_sync_bf16": 1048576
// AGEMM-JSON-NEXT: },
// AGEMM-JSON-NEXT: "iteration_time_us": {{[0-9.]+}},
// AGEMM-JSON-NEXT: "iteration_us": {{[0-9.]+}},
// AGEMM-JSON-NEXT: "latency_hidden": true,
// AGEMM-JSON-NEXT: "line": {{[0-9]+}},
// AGEMM-JSON-NEXT: "mma_overlaps_epilogue": true,
// AGEMM-JSON-NEXT: "ring": "cp_async",
// AGEMM-JSON-NEXT: "stages": 3,
// AGEMM-JSON-NEXT: "trips": "ceildiv(K, 32)",
// AGEMM-JSON-NEXT: "trips_value": 128
// AGEMM-JSON: "mma_sync_TFLOPS.bf16": 330,
// AGEMM-JSON: "predicted_time_ms": {{[0-9.]+}},
// AGEMM-JSON: "status": "ok",
// AGEMM-JSON: "terms_ms": {
// AGEMM-JSON: "mma_sync_bf16": 0.4294{{[0-9]*}}

// The fp32 GEMM, with registers from a ptxas report; the transposed staging of A goes to a padded
// buffer (pad = 4), so its column stores are free of bank conflicts (without the pad: 16-way); the
// epilogue's scalar stores touch 4x the sectors they use.
// RUN: cake-opt %cake_examples/gemm.mlir -o /dev/null \
// RUN:   --cake-print-cost="sizes=M=2048,N=2048,K=2048 profile=%S/Inputs/h200-test.json ptxas-report=%S/Inputs/gemm.ptxas.txt" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GEMM
// GEMM: remark: cost: predicted {{[0-9.]+}} ms on h200-test v1
// GEMM: remark: cost occupancy: 3 block(s)/SM limited by registers (256 threads, 79 registers from ptxas, 8448 B shared); 1024 blocks = 2.586 waves, 8 on the busiest SM
// GEMM: remark: cost work: FLOP fp32 1.718e+10
// GEMM-NOT: bank conflicts
// GEMM: gemm.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: cost: uncoalesced store: a warp access touches 16 sectors (512 B) for 128 B it uses

// The naive KMeans: one centroid row per lane, so a warp's load touches 32 sectors for 128 bytes;
// the load/store pipe bounds it (its wavefronts and the FMAs share the dispatch ports).
// RUN: cake-opt %cake_examples/kmeans_assign.mlir -o /dev/null \
// RUN:   --cake-print-cost="sizes=N=65536,K=1024,D=128 profile=%S/Inputs/h200-test.json" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KMEANS
// KMEANS: remark: cost: predicted {{[0-9.]+}} ms on h200-test v1: memory-bound (issue: {{.*}} (fma {{.*}} ms + lsu {{.*}} ms: FMAs and loads/stores share the dispatch ports)
// KMEANS: kmeans_assign.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: cost: uncoalesced load: a warp access touches 32 sectors (1024 B) for 128 B it uses

// The vector add reads and writes each byte once: DRAM-bound at the profile's bandwidth.
// RUN: cake-opt %cake_examples/vector_add.mlir -o /dev/null \
// RUN:   --cake-print-cost="sizes=N=16777216 profile=%S/Inputs/h200-test.json json=-" 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=VADD
// VADD: "bound": "memory",
// VADD: "bound_term": "dram",
// VADD: "dram": 201326592,
// VADD: "terms_ms": {
// VADD-NEXT: "dram": 0.0474{{[0-9]+}},

// The persistent KMeans on Hopper: trip counts over the grid (one block per SM) and both pipelines.
// RUN: cake-opt %cake_examples/kmeans_hopper.mlir -o /dev/null \
// RUN:   --cake-print-cost="sizes=B=32,N=16384,K=1024 profile=%S/Inputs/h200-test.json" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KHOPPER
// KHOPPER: remark: cost: predicted {{[0-9.]+}} ms on h200-test v1
// KHOPPER: remark: cost work: FLOP fp32 {{.*}}, tensor_f16 1.4{{[0-9]*}}e+11
// KHOPPER-DAG: remark: cost pipeline: 2 stages, ceildiv(K, 256) iterations of {{.*}}
// KHOPPER-DAG: remark: cost pipeline: 2 stages, ceildiv(B * ceildiv(N, 128), 132) iterations of {{.*}}

// Without sizes: which are needed, and per-size formulas; no time.
// RUN: cake-opt %cake_examples/hopper_gemm.mlir -o /dev/null \
// RUN:   --cake-print-cost="sizes=M=4096 profile=%S/Inputs/h200-test.json json=-" 2>%t.err | FileCheck %s --check-prefix=NEEDS-JSON
// RUN: FileCheck %s --check-prefix=NEEDS < %t.err
// NEEDS: warning: cost: kernel 'hopper_gemm' needs sizes N, K for a predicted time
// NEEDS: remark: cost formulas: blocks = ceildiv(N, 256) * ceildiv(M, 128); {{.*}}; tensor_bf16 = 134217728 * ceildiv(N, 256) * ceildiv(K, 64);
// NEEDS-JSON: "formulas": {
// NEEDS-JSON: "needs_sizes": [
// NEEDS-JSON-NEXT: "N",
// NEEDS-JSON-NEXT: "K"
// NEEDS-JSON: "predicted_time_ms": null,
// NEEDS-JSON: "status": "needs_sizes"

// The default profile of sm_90a is the H200 one, found in the build tree.
// RUN: cake-opt %cake_examples/vector_add.mlir -o /dev/null --cake-print-cost="sizes=N=4096" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: remark: cost: predicted {{[0-9.]+}} ms on h200 v{{[0-9]+}}
