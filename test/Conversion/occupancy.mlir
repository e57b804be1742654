// RUN: cake-opt %s --cake-convert-to-nvvm | FileCheck %s
// RUN: cake-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX

// min_blocks_per_sm becomes nvvm.minctasm, which the NVPTX backend writes as .minnctapersm next
// to the block size (.maxntid): ptxas then caps each thread's registers so that 8 blocks of 128
// threads fit in an SM (at most 64).
// CHECK-LABEL: gpu.func @occupancy
// CHECK-SAME: nvvm.minctasm = 8 : i32
// PTX-LABEL: .entry occupancy
// PTX: .maxntid 128, 1, 1
// PTX: .minnctapersm 8
cake.kernel @occupancy(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 128)>, min_blocks_per_sm = 8 : i64} {
  %tid = cake.thread_id x
  %v = cake.load %x[%tid] masked : !cake.tensor<[N], f32> -> f32
  %w = arith.addf %v, %v : f32
  cake.store %w, %x[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// Without it, nothing is set.
// CHECK-LABEL: gpu.func @default_occupancy
// CHECK-NOT: nvvm.minctasm
// CHECK: gpu.return
// PTX-LABEL: .entry default_occupancy
// PTX-NOT: .minnctapersm
cake.kernel @default_occupancy(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 128)>} {
  cake.return
}
