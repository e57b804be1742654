// RUN: cake-opt %s -o /dev/null \
// RUN:   --cake-print-cost="sizes=N=4096 profile=%S/../../profiles/b200.json" 2>&1 | FileCheck %s

// Tensor memory bounds occupancy: a block waits in tcgen05.alloc until its columns are free, and
// an SM has 512, so 256 columns per block allow two blocks (not the four the shared memory
// would). One tcgen05.mma m128n256k16 per block: 32 blocks x 2 x 128 x 256 x 16 tensor FLOP.
// CHECK: remark: cost occupancy: 2 block(s)/SM limited by tensor memory
// CHECK: remark: cost work: FLOP tensor_bf16 3.355e+07
cake.kernel @tmem_occupancy(%x: !cake.tensor<[N], f32> {cake.name = "x"})
    attributes {target = "sm_100a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<256x64xbf16, swizzle = 128>
  %acc = cake.tmem.alloc : !cake.tmem<128x256xf32>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<256x64xbf16, swizzle = 128>, !cake.tmem<128x256xf32>
  }
  cake.tmem.dealloc %acc : !cake.tmem<128x256xf32>
  cake.return
}
