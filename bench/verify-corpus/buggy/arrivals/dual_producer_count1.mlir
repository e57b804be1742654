// CORPUS: verdict=buggy class=arrivals
// GPU: race (wrong result): the phase completes on the first producer's bytes, before the other tile lands
// WHY: two producer warps arrive on a full barrier that counts one arrival.
// SIZES: M=3000,N=2048
// H200: fault (CUDA_ERROR_LAUNCH_FAILED)

cake.kernel @dual_producer_count1(
    %a: !cake.tensor<[M, N], f32> {cake.name = "a"},
    %ta: !cake.tma<[M, N], f32, box [32, 32]> {cake.name = "ta", cake.describes = "a"},
    %b: !cake.tensor<[M, N], f32> {cake.name = "b"},
    %tb: !cake.tma<[M, N], f32, box [32, 32]> {cake.name = "tb", cake.describes = "b"},
    %out: !cake.tensor<[M, N], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 192>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (n ceildiv 32, m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c32 : index
  %n0 = arith.muli %bn, %c32 : index
  %abuf = cake.alloc_smem : !cake.smem<32x32xf32>
  %bbuf = cake.alloc_smem : !cake.smem<32x32xf32>
  %full = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %full[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "load_a" warps [0, 1) {
      %e = cake.elect_one
      scf.if %e {
        cake.mbarrier.arrive_expect_tx %full[%c0], bytes 4096 : !cake.mbarriers<1>
        cake.tma.load %ta[%m0, %n0], %abuf[], %full[%c0]
            : !cake.tma<[M, N], f32, box [32, 32]>, !cake.smem<32x32xf32>, !cake.mbarriers<1>
      }
    }
    cake.role "load_b" warps [1, 2) {
      %e = cake.elect_one
      scf.if %e {
        cake.mbarrier.arrive_expect_tx %full[%c0], bytes 4096 : !cake.mbarriers<1>
        cake.tma.load %tb[%m0, %n0], %bbuf[], %full[%c0]
            : !cake.tma<[M, N], f32, box [32, 32]>, !cake.smem<32x32xf32>, !cake.mbarriers<1>
      }
    }
    cake.role "math" warps [2, 6) {
      %u = arith.subi %tid, %c64 : index
      %r = arith.divui %u, %c4 : index
      %q = arith.remui %u, %c4 : index
      %col = arith.muli %q, %c8 : index
      %col2 = arith.addi %col, %c4 : index
      cake.mbarrier.wait %full[%c0], %c0 : !cake.mbarriers<1>
      %x0 = cake.load %abuf[%r, %col] : !cake.smem<32x32xf32> -> vector<4xf32>
      %y0 = cake.load %bbuf[%r, %col] : !cake.smem<32x32xf32> -> vector<4xf32>
      %x1 = cake.load %abuf[%r, %col2] : !cake.smem<32x32xf32> -> vector<4xf32>
      %y1 = cake.load %bbuf[%r, %col2] : !cake.smem<32x32xf32> -> vector<4xf32>
      %p0 = arith.mulf %x0, %y0 : vector<4xf32>
      %p1 = arith.mulf %x1, %y1 : vector<4xf32>
      %gr = arith.addi %m0, %r : index
      %gc = arith.addi %n0, %col : index
      %gc2 = arith.addi %n0, %col2 : index
      cake.store %p0, %out[%gr, %gc] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
      cake.store %p1, %out[%gr, %gc2] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
    }
  }
  cake.return
}
