// CORPUS: verdict=correct class=control-flow
// GPU: none (correct)
// WHY: an scf.while over tiles carries the parity and flips it every iteration; a block barrier keeps
//      the refill behind every thread's read.
// SIZES: M=4096,N=3000
// H200: ok (ran; every output element written)

cake.kernel @while_tma_loop_carried_parity(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, N], f32, box [8, 32]> {cake.name = "tx", cake.describes = "x"},
    %y: !cake.tensor<[M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 8)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %ndim = cake.problem_size "N"
  %ntiles = arith.ceildivui %ndim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c8 : index
  %buf = cake.alloc_smem : !cake.smem<8x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %r = arith.divui %tid, %c16 : index
  %q = arith.remui %tid, %c16 : index
  %col = arith.muli %q, %c2 : index
  %res:3 = scf.while (%j = %c0, %ph = %c0, %acc = %zero) : (index, index, f32) -> (index, index, f32) {
    %go = arith.cmpi ult, %j, %ntiles : index
    scf.condition(%go) %j, %ph, %acc : index, index, f32
  } do {
  ^bb0(%jj: index, %p: index, %s: f32):
    %n0 = arith.muli %jj, %c32 : index
    scf.if %t0 {
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 1024 : !cake.mbarriers<1>
      cake.tma.load %tx[%m0, %n0], %buf[], %bar[%c0]
          : !cake.tma<[M, N], f32, box [8, 32]>, !cake.smem<8x32xf32>, !cake.mbarriers<1>
    }
    cake.mbarrier.wait %bar[%c0], %p : !cake.mbarriers<1>
    %v = cake.load %buf[%r, %col] : !cake.smem<8x32xf32> -> vector<2xf32>
    %vs = vector.reduction <add>, %v : vector<2xf32> into f32
    %s2 = arith.addf %s, %vs : f32
    cake.barrier
    %pn = arith.xori %p, %c1 : index
    %jn = arith.addi %jj, %c1 : index
    scf.yield %jn, %pn, %s2 : index, index, f32
  }
  %tot = cake.warp_reduce sum %res#2 {lanes = 16 : i64} : f32
  %lead = arith.cmpi eq, %q, %c0 : index
  scf.if %lead {
    %grow = arith.addi %m0, %r : index
    cake.store %tot, %y[%grow] masked : f32, !cake.tensor<[M], f32>
  }
  cake.return
}
