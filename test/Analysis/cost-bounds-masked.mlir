// RUN: cake-opt %s -split-input-file -o /dev/null \
// RUN:   --cake-print-cost="profile=%S/Inputs/h200-test.json" 2>&1 | FileCheck %s

// A bounds-masked access (`masked`: lanes past the tensor's extent access nothing) is priced
// from its accesses (CakeMemoryAccessOpInterface: `boundsMasked`): of the warp's 32 lanes, the 8
// inside x[8] read 32 bytes and the 8 inside y[8] write 32 (one sector each). Unmasked, the
// same indices would be 128 bytes each (4 sectors).
// CHECK-LABEL: remark: cost work: FLOP none; bytes dram 64, l2 64, shared 0
cake.kernel @masked_edge(%x: !cake.tensor<[8], f32> {cake.name = "x"},
                         %y: !cake.tensor<[8], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %tid = cake.thread_id x
  %v = cake.load %x[%tid] masked : !cake.tensor<[8], f32> -> f32
  cake.store %v, %y[%tid] masked : f32, !cake.tensor<[8], f32>
  cake.return
}

// -----

// CHECK-LABEL: remark: cost work: FLOP none; bytes dram 256, l2 256, shared 0
cake.kernel @unmasked(%x: !cake.tensor<[64], f32> {cake.name = "x"},
                      %y: !cake.tensor<[64], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %tid = cake.thread_id x
  %v = cake.load %x[%tid] : !cake.tensor<[64], f32> -> f32
  cake.store %v, %y[%tid] : f32, !cake.tensor<[64], f32>
  cake.return
}

// -----

// cp.async is priced from its accesses too: a masked 4-byte copy per lane moves the 8 elements
// inside x[8] (32 bytes, one sector) and writes the 32 lanes' 128 bytes of shared memory (the
// lanes outside zero-fill theirs).
// CHECK-LABEL: remark: cost work: FLOP none; bytes dram 32, l2 32, shared 128
cake.kernel @masked_copy(%x: !cake.tensor<[8], f32> {cake.name = "x"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %tid = cake.thread_id x
  %buf = cake.alloc_smem : !cake.smem<32xf32>
  cake.cp_async %x[%tid], %buf[%tid], bytes 4 masked : !cake.tensor<[8], f32>, !cake.smem<32xf32>
  cake.cp_async.commit
  cake.cp_async.wait 0
  cake.return
}

// -----

// A masked atomic (a read-modify-write in L2, counted as its write): the 8 lanes inside sums[8].
// CHECK-LABEL: remark: cost work: FLOP none; bytes dram 32, l2 32, shared 0
cake.kernel @masked_atomic(%sums: !cake.tensor<[8], f32> {cake.name = "sums"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %tid = cake.thread_id x
  %one = arith.constant 1.0 : f32
  cake.atomic_add %one, %sums[%tid] masked : f32, !cake.tensor<[8], f32>
  cake.return
}
