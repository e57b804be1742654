// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (shape.uninitialized-smem), lib/Verify/VerifyShapes.cpp:484:
//   "write every element the readers read (threads without data store the operation's identity,
//    e.g. 0 for a sum), or read only what was written"
// The kernel (@partials_written_in_bounds_only of cake-verify-shapes.mlir) stores its slot only
// in the threads inside N, then every thread reads a mirrored slot. Applied literally: every
// thread stores its slot (the masked load already gives 0, the identity, past N). Honest.

cake.kernel @partials_written_in_bounds_only(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                                             %y: !cake.tensor<[M, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %c127 = arith.constant 127 : index
  %n = cake.problem_size "N"
  // expected-note @+1 {{the buffer is allocated here}}
  %part = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %row = cake.block_id x
  %v = cake.load %x[%row, %tid] masked : !cake.tensor<[M, N], f32> -> f32
  %has = arith.cmpi ult, %tid, %n : index
  scf.if %has {
    cake.store %v, %part[%tid] : f32, !cake.smem<128xf32>
  }
  cake.barrier
  %mirror = arith.subi %c127, %tid : index
  // expected-error @+2 {{[shape.uninitialized-smem] expected every shared-memory element a thread reads to be written first, but with M = 3, N = 3 (block (0, 0, 0)) thread 0 reads index 127 of dimension 0, which no store to the buffer writes}}
  // expected-note @+1 {{fix: write every element the readers read (threads without data store the operation's identity, e.g. 0 for a sum), or read only what was written}}
  %w = cake.load %part[%mirror] : !cake.smem<128xf32> -> f32
  cake.store %w, %y[%row, %tid] masked : f32, !cake.tensor<[M, 128], f32>
  cake.return
}

// -----

cake.kernel @partials_written_in_bounds_only(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                                             %y: !cake.tensor<[M, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %c127 = arith.constant 127 : index
  %part = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %row = cake.block_id x
  %v = cake.load %x[%row, %tid] masked : !cake.tensor<[M, N], f32> -> f32
  cake.store %v, %part[%tid] : f32, !cake.smem<128xf32>
  cake.barrier
  %mirror = arith.subi %c127, %tid : index
  %w = cake.load %part[%mirror] : !cake.smem<128xf32> -> f32
  cake.store %w, %y[%row, %tid] masked : f32, !cake.tensor<[M, 128], f32>
  cake.return
}
