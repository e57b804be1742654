// cake-print-cost's errors: each names what is wrong.
//
// RUN: not cake-opt %s -o /dev/null --cake-print-cost="sizes=N=4096 profile=z100" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN-PROFILE
// UNKNOWN-PROFILE: error: cake-print-cost: unknown profile 'z100': no such file, and no z100.json in '{{.*}}'
//
// RUN: not cake-opt %s -o /dev/null --cake-print-cost="sizes=N=4096 profile-dir=%S/Inputs/a100-only" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN-TARGET
// UNKNOWN-TARGET: error: cake-print-cost: no hardware profile for target 'sm_90a' in '{{.*}}a100-only' (its profiles cover sm_80)
//
// RUN: not cake-opt %s -o /dev/null --cake-print-cost="sizes=N=4096 profile=%S/Inputs/a100-only/a100.json" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WRONG-TARGET
// WRONG-TARGET: error: cake-print-cost: profile 'a100' ({{.*}}a100.json) does not cover target 'sm_90a' (it covers sm_80)
//
// RUN: not cake-opt %s -o /dev/null --cake-print-cost="sizes=N=4096 profile=%S/Inputs/missing-field.json" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING-FIELD
// MISSING-FIELD: error: cake-print-cost: profile '{{.*}}missing-field.json': missing field 'params.dram_bandwidth_GBps'
//
// RUN: not cake-opt %s -o /dev/null --cake-print-cost="sizes=N=4096 profile=%S/Inputs/unknown-target.json" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOT-IN-TABLE
// NOT-IN-TABLE: error: cake-print-cost: profile '{{.*}}unknown-target.json': unknown target 'sm_89' in 'targets', expected one of sm_80, sm_90, sm_90a, sm_100a
//
// RUN: not cake-opt %s -o /dev/null --cake-print-cost="sizes=N" 2>&1 | FileCheck %s --check-prefix=BAD-SIZES
// BAD-SIZES: error: cake-print-cost: invalid sizes entry 'N': expected NAME=VALUE with VALUE a non-negative integer
//
// RUN: not cake-opt %s -o /dev/null --cake-print-cost="sizes=N=1 ptxas-report=%t.missing" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-PTXAS
// BAD-PTXAS: error: cake-print-cost: cannot read ptxas report '{{.*}}missing'
//
// Missing sizes are not an error: a warning names them, a remark gives the formulas.
// RUN: cake-opt %s -o /dev/null --cake-print-cost --verify-diagnostics

// expected-warning @below {{cost: kernel 'vector_add' needs sizes N for a predicted time (pass sizes=NAME=VALUE,...)}}
// expected-remark @below {{cost formulas: blocks = ceildiv(N, 1024); blocks_on_busiest_sm = ceildiv(ceildiv(N, 1024), 132); fp32 = 1024 * ceildiv(N, 1024); bytes_l2 = 12288 * ceildiv(N, 1024); bytes_useful = 12288 * ceildiv(N, 1024)}}
cake.kernel @vector_add(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                        %y: !cake.tensor<[N], f32> {cake.name = "y"},
                        %z: !cake.tensor<[N], f32> {cake.name = "z"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 1024)>} {
  %c4 = arith.constant 4 : index
  %c1024 = arith.constant 1024 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c1024 : index
  %off = arith.muli %tid, %c4 : index
  %i = arith.addi %base, %off : index
  %a = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  %b = cake.load %y[%i] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  %s = arith.addf %a, %b : vector<4xf32>
  cake.store %s, %z[%i] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}
