// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-ops -o /dev/null
// RUN: cake-opt %s -split-input-file --cake-verify-ops="allow=ops.atomic,llvm.mlir.zero,ops.timer,ops.inline-asm,ops.raw-intrinsic,ops.foreign" -o /dev/null
// RUN: not cake-opt %s -split-input-file --cake-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY
// A misspelt rule id (or a word that is no op name) would allow nothing, silently: refused.
// RUN: not cake-opt %s -split-input-file --cake-verify-ops="allow=ops.atomics" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALLOW
// RUN: not cake-opt %s -split-input-file --cake-verify="allow=atomic" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALLOW2
// ALLOW: error: cake-verify-ops: allow entry 'ops.atomics' is neither a rule id (ops.inline-asm, ops.timer, ops.atomic, ops.raw-intrinsic, ops.foreign) nor an op name (dialect.op)
// ALLOW2: error: cake-verify-ops: allow entry 'atomic' is neither a rule id

// cake-verify-ops: a kernel holds only ops CAKE models. Each escape hatch below has its rule id;
// the second RUN line allows them all, by rule id or op name.
// VERIFY: [ops.inline-asm]
// VERIFY: [ops.timer]

// Valid: cake, arith, math, scf and vector ops.
cake.kernel @modelled(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                      %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 512)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c512 = arith.constant 512 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c512 : index
  %off = arith.muli %tid, %c4 : index
  %i = arith.addi %base, %off : index
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  %e = math.exp %v : vector<4xf32>
  %r = scf.for %k = %c0 to %c4 step %c4 iter_args(%acc = %e) -> vector<4xf32> {
    %s = arith.addf %acc, %v : vector<4xf32>
    scf.yield %s : vector<4xf32>
  }
  cake.store %r, %y[%i] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}

// -----

cake.kernel @inline_asm(%y: !cake.tensor<[N], i32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %tid = cake.thread_id x
  // expected-error @+2 {{[ops.inline-asm] expected only cake, arith, math, scf and vector ops in a kernel, got inline assembly}}
  // expected-note @+1 {{fix: express it with cake ops (loads, stores, reductions, barriers) or arith/math/scf/vector; if the task needs it, allow it with cake-verify{allow=ops.inline-asm}}}
  %v = llvm.inline_asm has_side_effects "mov.u32 $0, 7;", "=r" : () -> i32
  cake.store %v, %y[%tid] masked : i32, !cake.tensor<[N], i32>
  cake.return
}

// -----

cake.kernel @timer(%y: !cake.tensor<[N], i64> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %tid = cake.thread_id x
  // expected-error @+2 {{[ops.timer] expected only cake, arith, math, scf and vector ops in a kernel, got a clock read}}
  // expected-note @+1 {{fix: express it with cake ops}}
  %t = nvvm.read.ptx.sreg.globaltimer : i64
  // expected-error @+2 {{[ops.timer] expected only cake, arith, math, scf and vector ops in a kernel, got a clock read}}
  // expected-note @+1 {{fix: express it with cake ops}}
  %c = nvvm.read.ptx.sreg.clock64 : i64
  %s = arith.addi %t, %c : i64
  cake.store %s, %y[%tid] masked : i64, !cake.tensor<[N], i64>
  cake.return
}

// -----

cake.kernel @atomic(%y: !cake.tensor<[N], i32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %one = arith.constant 1 : i32
  // expected-error @+2 {{[ops.raw-intrinsic] expected only cake, arith, math, scf and vector ops in a kernel, got a raw intrinsic}}
  // expected-note @+1 {{fix: express it with cake ops}}
  %p = llvm.mlir.zero : !llvm.ptr<1>
  // expected-error @+2 {{[ops.atomic] expected only cake, arith, math, scf and vector ops in a kernel, got an atomic memory operation}}
  // expected-note @+1 {{fix: express it with cake ops (loads, stores, reductions, barriers) or arith/math/scf/vector; if the task needs it, allow it with cake-verify{allow=ops.atomic}}}
  %old = llvm.atomicrmw add %p, %one monotonic : !llvm.ptr<1>, i32
  cake.return
}

// -----

cake.kernel @raw_intrinsic(%y: !cake.tensor<[N], i32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  // expected-error @+2 {{[ops.raw-intrinsic] expected only cake, arith, math, scf and vector ops in a kernel, got a raw intrinsic}}
  // expected-note @+1 {{fix: express it with cake ops}}
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %i = arith.index_cast %tid : i32 to index
  cake.store %tid, %y[%i] masked : i32, !cake.tensor<[N], i32>
  cake.return
}

// -----

cake.kernel @foreign(%y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  // expected-error @+2 {{[ops.foreign] expected only cake, arith, math, scf and vector ops in a kernel, got an op CAKE does not model}}
  // expected-note @+1 {{fix: express it with cake ops}}
  %m = memref.alloc() : memref<4xf32>
  cake.return
}

// -----

// expected-error @+2 {{[ops.foreign] expected only cake, arith, math, scf and vector ops at module level (only cake.kernel), got an op CAKE does not model}}
// expected-note @+1 {{fix: express it with cake ops}}
func.func @helper() {
  return
}
cake.kernel @calls_nothing(%y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  cake.return
}
