// Persistent Blackwell GEMM with cluster launch control (sm_100a), bf16 in, f32 out, with a
// per-column bias: C[M, N] = bias[N] + A[M, K] * B[N, K]^T, both operands K-major. The host
// passes a (M x K, bf16) with its TMA descriptor ta (box 128 x 64), b (N x K, bf16) with tb
// (box 128 x 64), bias (N, f32), c (M x N, f32, written), then M, N, K (i64); the grid is
// (N / 128, M / 128) rounded up, one block of 128 threads per 128x128 tile of C, as for a
// non-persistent kernel: blocks that start take over the tiles of blocks not yet launched.
// A block starts with its own tile (its block id) and loops. Per tile: every thread writes the
// tile's 128 bias values into sixteen 128x8 f32 buffers (each row the same 8 columns: thread t
// fills row t), fences them for the async proxy, and after a block barrier thread 0 copies them
// into the accumulator's 16 groups of 8 columns (tcgen05.cp 128x256b), then per 64-wide k tile
// copies (TMA) a 128x64 A and a 128x64 B tile and issues four m128n128k16 MMAs that all accumulate
// onto the bias, committed to an mbarrier (the first commit also covers the copies). The epilogue
// reads each thread's row of the accumulator (tcgen05.ld, 4 columns at a time) and stores it
// masked; a block barrier then keeps the next tile's copies and MMAs from overwriting columns
// still being read. Thread 0 then asks for another tile (clusterlaunchcontrol.try_cancel, its
// 16-byte answer completing on an mbarrier announced with expect-tx 16); every thread waits on
// that barrier and decodes the answer (query_cancel): the loop goes on with the block id it took
// over, or ends when no launch was left to cancel. The loop carries the mbarriers' phases (k tiles
// done so far for the copy and MMA barriers, tiles done for the answer's barrier). One stage, one
// tile at a time: the protocol in its simplest form, not a tuned kernel.
// Compile-only here (no B200 on this machine).
//
// REQUIRES: ptxas
// RUN: cake-opt %s --cake-verify | FileCheck %s --check-prefix=VERIFY
// RUN: cake-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: cake-translate %s --emit=cubin -o %t.cubin --manifest %t.json --ptxas-log %t.log
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// RUN: FileCheck %s --check-prefix=PTXAS < %t.log
// RUN: %if cuobjdump %{ %cuobjdump -sass %t.cubin | FileCheck %s --check-prefix=SASS %}
// VERIFY: cake.kernel @blackwell_gemm_persistent
// PTX: .target sm_100a
// PTX: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32
// The loop's blocks are laid out rotated (the answer's decoding first), hence DAG:
// PTX-DAG: clusterlaunchcontrol.query_cancel.is_canceled.pred.b128
// PTX-DAG: clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128
// PTX-DAG: fence.proxy.async.shared::cta
// PTX-DAG: tcgen05.cp.cta_group::1.128x256b
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: tcgen05.mma.cta_group::1.kind::f16
// PTX-DAG: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// PTX-DAG: tcgen05.ld.sync.aligned.32x32b.x4.b32
// PTX-DAG: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128
// PTX: tcgen05.dealloc.cta_group::1.sync.aligned.b32
// MANIFEST: "target": "sm_100a"
// PTXAS: Compiling entry function 'blackwell_gemm_persistent' for 'sm_100a'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// The bias copy into tensor memory, the UTC MMAs, the commit, the cancellation request:
// SASS: UTCCP
// SASS: UTCHMMA gdesc[{{.*}}], gdesc[{{.*}}], tmem[{{.*}}]
// SASS: UTCBAR
// SASS: UGETNEXTWORKID

cake.kernel @blackwell_gemm_persistent(
    %a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
    %ta: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"},
    %b: !cake.tensor<[N, K], bf16> {cake.name = "b"},
    %tb: !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128> {cake.name = "tb", cake.describes = "b"},
    %bias: !cake.tensor<[N], f32> {cake.name = "bias"},
    %c: !cake.tensor<[M, N], f32> {cake.name = "c"})
    attributes {target = "sm_100a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (n ceildiv 128, m ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %true = arith.constant true
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c64 : index
  %bx0 = cake.block_id x
  %by0 = cake.block_id y
  %tid = cake.thread_id x
  %leader = arith.cmpi eq, %tid, %c0 : index

  %abuf = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  // Group q of 8 bias columns, repeated in all 128 rows (tcgen05.cp writes row r to lane r).
  %sbias = cake.alloc_smem : !cake.smem<16x128x8xf32, swizzle = 32>
  // The cluster launch control answer.
  %resp = cake.alloc_smem : !cake.smem<4xi32>
  // 0: the tiles have landed; 1: the copies and MMAs that read them have completed; 2: the
  // answer to the cancellation request has landed.
  %bars = cake.mbarrier.alloc : !cake.mbarriers<3>
  scf.if %leader {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<3>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<3>
    cake.mbarrier.init %bars[%c2], count 1 : !cake.mbarriers<3>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>

  // (go on, tile x, tile y, k tiles done so far, tiles done so far)
  %fin:4 = scf.while (%go = %true, %bx = %bx0, %by = %by0, %it = %c0, %t = %c0)
      : (i1, index, index, index, index) -> (index, index, index, index) {
    scf.condition(%go) %bx, %by, %it, %t : index, index, index, index
  } do {
  ^bb0(%bx: index, %by: index, %it: index, %t: index):
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c128 : index

    // The bias tile: thread t writes row t of every group (zero past N). The last tile's copies
    // from these buffers have completed (its commits were waited on).
    scf.for %q = %c0 to %c16 step %c1 {
      %q8 = arith.muli %q, %c8 : index
      %col = arith.addi %n0, %q8 : index
      %col4 = arith.addi %col, %c4 : index
      %lo = cake.load %bias[%col] masked : !cake.tensor<[N], f32> -> vector<4xf32>
      %hi = cake.load %bias[%col4] masked : !cake.tensor<[N], f32> -> vector<4xf32>
      cake.store %lo, %sbias[%q, %tid, %c0] : vector<4xf32>, !cake.smem<16x128x8xf32, swizzle = 32>
      cake.store %hi, %sbias[%q, %tid, %c4] : vector<4xf32>, !cake.smem<16x128x8xf32, swizzle = 32>
    }
    // tcgen05.cp reads shared memory through the async proxy. (The fence also orders this
    // thread's read of the last answer before the next request writes it, asynchronously.)
    cake.fence.proxy_async
    cake.barrier
    scf.if %leader {
      // D = bias: 16 copies of 8 columns; the MMAs thread 0 issues next accumulate onto them.
      scf.for %q = %c0 to %c16 step %c1 {
        %q8 = arith.muli %q, %c8 : index
        cake.tcgen05.cp %sbias[%q, %c0, %c0], %acc[%q8]
            : !cake.smem<16x128x8xf32, swizzle = 32>, !cake.tmem<128x128xf32>
      }
    }

    scf.for %kt = %c0 to %ktiles step %c1 {
      %k0 = arith.muli %kt, %c64 : index
      %phase = arith.addi %it, %kt : index
      scf.if %leader {
        cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 32768 : !cake.mbarriers<3>
        cake.tma.load %ta[%m0, %k0], %abuf[], %bars[%c0]
            : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>,
              !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<3>
        cake.tma.load %tb[%n0, %k0], %bbuf[], %bars[%c0]
            : !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128>,
              !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<3>
      }
      cake.mbarrier.wait %bars[%c0], %phase : !cake.mbarriers<3>
      scf.if %leader {
        cake.tcgen05.mma %abuf[%c0, %c0], %bbuf[%c0, %c0], %acc, accumulate %true
            : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>,
              !cake.tmem<128x128xf32>
        cake.tcgen05.mma %abuf[%c0, %c16], %bbuf[%c0, %c16], %acc, accumulate %true
            : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>,
              !cake.tmem<128x128xf32>
        cake.tcgen05.mma %abuf[%c0, %c32], %bbuf[%c0, %c32], %acc, accumulate %true
            : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>,
              !cake.tmem<128x128xf32>
        cake.tcgen05.mma %abuf[%c0, %c48], %bbuf[%c0, %c48], %acc, accumulate %true
            : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>,
              !cake.tmem<128x128xf32>
        cake.tcgen05.commit %bars[%c1] : !cake.mbarriers<3>
      }
      // The MMAs (and, the first time, the bias copies) have read their buffers and, after the
      // last k tile, written the accumulator.
      cake.mbarrier.wait %bars[%c1], %phase : !cake.mbarriers<3>
      // Keeps thread 0 from completing two phases before a slow warp checks its parity.
      cake.barrier
    }

    // Thread t holds row t of the tile.
    %row = arith.addi %m0, %tid : index
    scf.for %j = %c0 to %c128 step %c4 {
      %v = cake.tmem.load %acc[%j] : !cake.tmem<128x128xf32> -> vector<4xf32>
      %col = arith.addi %n0, %j : index
      cake.store %v, %c[%row, %col] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
    }
    // Every row is read before the next tile's copies and MMAs overwrite the columns (and every
    // thread has decoded the last answer before the next request overwrites it).
    cake.barrier

    // Ask for the tile of a block that has not started.
    scf.if %leader {
      cake.mbarrier.arrive_expect_tx %bars[%c2], bytes 16 : !cake.mbarriers<3>
      cake.clc.try_cancel %resp[], %bars[%c2] : !cake.smem<4xi32>, !cake.mbarriers<3>
    }
    cake.mbarrier.wait %bars[%c2], %t : !cake.mbarriers<3>
    %taken, %nbx, %nby, %nbz = cake.clc.query %resp[] : !cake.smem<4xi32>
    %it2 = arith.addi %it, %ktiles : index
    %t2 = arith.addi %t, %c1 : index
    scf.yield %taken, %nbx, %nby, %it2, %t2 : i1, index, index, index, index
  }
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}
