// KMeans assignment on Hopper, fp16 points and centroids in D = 128:
//   idx[b, n] = argmin_k ( |c_bk|^2 - 2 x_bn . c_bk )
// (|x|^2 is the same for every centroid, so the argmin needs only |c|^2 = csq, given as input as
// flash-kmeans takes it). The N x K distance matrix never reaches memory. Persistent: 132 blocks
// (one per SM) loop over the point tiles (128 points of one batch); one producer warp streams point
// tiles through a 2-stage TMA pipeline and the batch's centroids (256 at a time, with their |c|^2)
// through another, so the next tile's copies are in flight while two consumer warpgroups compute the
// 64x256 dot products with wgmma (D split in two 64-wide, 128-byte-swizzled halves) and fold each
// centroid tile into a running per-point argmin with cake.wgmma.row_arg_reduce. TMA zero-fills
// ragged tiles; the reduction ignores columns past K, and the stores skip points past N.
//
// REQUIRES: ptxas
// RUN: cake-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: cake-translate %s --emit=cubin -o %t.cubin --manifest %t.json --ptxas-log %t.log
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// RUN: FileCheck %s --check-prefix=PTXAS < %t.log
// PTX: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// PTX: shfl.sync.bfly.b32
// MANIFEST: "constraints": [
// MANIFEST: "mod(K, 4) == 0"
// MANIFEST: "grid": [
// MANIFEST-NEXT: "132",
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

cake.kernel @kmeans_hopper(
    %x: !cake.tensor<[B, N, 128], f16> {cake.name = "x"},
    %tx: !cake.tma<[B, N, 128], f16, box [1, 128, 64], swizzle = 128> {cake.name = "tx", cake.describes = "x"},
    %c: !cake.tensor<[B, K, 128], f16> {cake.name = "c"},
    %tc: !cake.tma<[B, K, 128], f16, box [1, 256, 64], swizzle = 128> {cake.name = "tc", cake.describes = "c"},
    %csq: !cake.tensor<[B, K], f32> {cake.name = "csq"},
    %tcsq: !cake.tma<[B, K], f32, box [1, 256]> {cake.name = "tcsq", cake.describes = "csq"},
    %idx: !cake.tensor<[B, N], i32> {cake.name = "idx"})
    attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["B", "N", "K"],
                grid = affine_map<()[b, n, k] -> (132)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bdim = cake.problem_size "B"
  %ndim = cake.problem_size "N"
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c256 : index
  %per_batch = arith.ceildivui %ndim, %c128 : index
  %tiles = arith.muli %bdim, %per_batch : index
  // This block's point tiles: bid, bid + nblocks, ... below `tiles`.
  %bid = cake.block_id x
  %nblocks = cake.grid_dim x
  %has = arith.cmpi ult, %bid, %tiles : index
  %left = arith.subi %tiles, %bid : index
  %some = arith.ceildivui %left, %nblocks : index
  %count = arith.select %has, %some, %c0 : index

  %xbuf = cake.alloc_smem : !cake.smem<2x2x1x128x64xf16, swizzle = 128>
  %cbuf = cake.alloc_smem : !cake.smem<2x2x1x256x64xf16, swizzle = 128>
  %csqbuf = cake.alloc_smem : !cake.smem<2x1x256xf32>
  // Every consumer thread releases a stage after its last read of it.
  %xpipe = cake.pipeline.create consumers 256 : !cake.pipeline<2>
  %cpipe = cake.pipeline.create consumers 256 : !cake.pipeline<2>

  cake.warp_roles {
    cake.role "producer" warps [0, 4) regs 40 {
      %warp = cake.warp_id
      %first = arith.cmpi eq, %warp, %c0 : index
      scf.if %first {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %count step %c1 {
            %step = arith.muli %i, %nblocks : index
            %t = arith.addi %bid, %step : index
            %b = arith.divui %t, %per_batch : index
            %tb = arith.remui %t, %per_batch : index
            %m0 = arith.muli %tb, %c128 : index
            cake.pipeline.producer_acquire %xpipe[%i] : !cake.pipeline<2>
            cake.pipeline.producer_commit %xpipe[%i], tx_bytes 32768 : !cake.pipeline<2>
            %xslot = cake.pipeline.slot %xpipe[%i] : !cake.pipeline<2>
            cake.tma.load %tx[%b, %m0, %c0], %xbuf[%xslot, %c0], %xpipe[%i]
                : !cake.tma<[B, N, 128], f16, box [1, 128, 64], swizzle = 128>, !cake.smem<2x2x1x128x64xf16, swizzle = 128>, !cake.pipeline<2>
            cake.tma.load %tx[%b, %m0, %c64], %xbuf[%xslot, %c1], %xpipe[%i]
                : !cake.tma<[B, N, 128], f16, box [1, 128, 64], swizzle = 128>, !cake.smem<2x2x1x128x64xf16, swizzle = 128>, !cake.pipeline<2>
            %it0 = arith.muli %i, %ktiles : index
            scf.for %kt = %c0 to %ktiles step %c1 {
              %it = arith.addi %it0, %kt : index
              cake.pipeline.producer_acquire %cpipe[%it] : !cake.pipeline<2>
              cake.pipeline.producer_commit %cpipe[%it], tx_bytes 66560 : !cake.pipeline<2>
              %cslot = cake.pipeline.slot %cpipe[%it] : !cake.pipeline<2>
              %k0 = arith.muli %kt, %c256 : index
              cake.tma.load %tc[%b, %k0, %c0], %cbuf[%cslot, %c0], %cpipe[%it]
                  : !cake.tma<[B, K, 128], f16, box [1, 256, 64], swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, !cake.pipeline<2>
              cake.tma.load %tc[%b, %k0, %c64], %cbuf[%cslot, %c1], %cpipe[%it]
                  : !cake.tma<[B, K, 128], f16, box [1, 256, 64], swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, !cake.pipeline<2>
              cake.tma.load %tcsq[%b, %k0], %csqbuf[%cslot], %cpipe[%it]
                  : !cake.tma<[B, K], f32, box [1, 256]>, !cake.smem<2x1x256xf32>, !cake.pipeline<2>
            }
          }
        }
      }
    }
    cake.role "consumer" warps [4, 12) regs 232 {
      %wg = cake.warpgroup_id
      %half = arith.subi %wg, %c1 : index
      %row = arith.muli %half, %c64 : index
      %zero = arith.constant dense<0.0> : vector<128xf32>
      %inf = arith.constant dense<0x7F800000> : vector<2xf32>
      %none = arith.constant dense<0> : vector<2xi32>
      scf.for %i = %c0 to %count step %c1 {
        %step = arith.muli %i, %nblocks : index
        %t = arith.addi %bid, %step : index
        %b = arith.divui %t, %per_batch : index
        %tb = arith.remui %t, %per_batch : index
        %m0 = arith.muli %tb, %c128 : index
        cake.pipeline.consumer_wait %xpipe[%i] : !cake.pipeline<2>
        %xslot = cake.pipeline.slot %xpipe[%i] : !cake.pipeline<2>
        %it0 = arith.muli %i, %ktiles : index
        %best:2 = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%bv = %inf, %bi = %none)
            -> (vector<2xf32>, vector<2xi32>) {
          %it = arith.addi %it0, %kt : index
          cake.pipeline.consumer_wait %cpipe[%it] : !cake.pipeline<2>
          %cslot = cake.pipeline.slot %cpipe[%it] : !cake.pipeline<2>
          cake.wgmma.fence
        %a0 = cake.wgmma %xbuf[%xslot, %c0, %c0, %row, %c0], %cbuf[%cslot, %c0, %c0, %c0, %c0], %zero
            : !cake.smem<2x2x1x128x64xf16, swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, vector<128xf32>
        %a1 = cake.wgmma %xbuf[%xslot, %c0, %c0, %row, %c16], %cbuf[%cslot, %c0, %c0, %c0, %c16], %a0
            : !cake.smem<2x2x1x128x64xf16, swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, vector<128xf32>
        %a2 = cake.wgmma %xbuf[%xslot, %c0, %c0, %row, %c32], %cbuf[%cslot, %c0, %c0, %c0, %c32], %a1
            : !cake.smem<2x2x1x128x64xf16, swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, vector<128xf32>
        %a3 = cake.wgmma %xbuf[%xslot, %c0, %c0, %row, %c48], %cbuf[%cslot, %c0, %c0, %c0, %c48], %a2
            : !cake.smem<2x2x1x128x64xf16, swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, vector<128xf32>
        %a4 = cake.wgmma %xbuf[%xslot, %c1, %c0, %row, %c0], %cbuf[%cslot, %c1, %c0, %c0, %c0], %a3
            : !cake.smem<2x2x1x128x64xf16, swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, vector<128xf32>
        %a5 = cake.wgmma %xbuf[%xslot, %c1, %c0, %row, %c16], %cbuf[%cslot, %c1, %c0, %c0, %c16], %a4
            : !cake.smem<2x2x1x128x64xf16, swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, vector<128xf32>
        %a6 = cake.wgmma %xbuf[%xslot, %c1, %c0, %row, %c32], %cbuf[%cslot, %c1, %c0, %c0, %c32], %a5
            : !cake.smem<2x2x1x128x64xf16, swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, vector<128xf32>
        %a7 = cake.wgmma %xbuf[%xslot, %c1, %c0, %row, %c48], %cbuf[%cslot, %c1, %c0, %c0, %c48], %a6
            : !cake.smem<2x2x1x128x64xf16, swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, vector<128xf32>
          cake.wgmma.commit
          cake.wgmma.wait 0
          %k0 = arith.muli %kt, %c256 : index
          %valid = arith.subi %kdim, %k0 : index
          %v, %col = cake.wgmma.row_arg_reduce argmin %a7, scale -2.0, valid %valid,
              %csqbuf[%cslot, %c0, %c0] : vector<128xf32>, !cake.smem<2x1x256xf32>
          cake.pipeline.consumer_release %cpipe[%it] : !cake.pipeline<2>
          %k0i = arith.index_cast %k0 : index to i32
          %k0v = vector.broadcast %k0i : i32 to vector<2xi32>
          %colk = arith.addi %col, %k0v : vector<2xi32>
          %closer = arith.cmpf olt, %v, %bv : vector<2xf32>
          %nbv = arith.select %closer, %v, %bv : vector<2xi1>, vector<2xf32>
          %nbi = arith.select %closer, %colk, %bi : vector<2xi1>, vector<2xi32>
          scf.yield %nbv, %nbi : vector<2xf32>, vector<2xi32>
        }
        cake.pipeline.consumer_release %xpipe[%i] : !cake.pipeline<2>
        %mrow = arith.addi %m0, %row : index
        cake.wgmma.store_rows %best#1, %idx[%b, %mrow] masked : vector<2xi32>, !cake.tensor<[B, N], i32>
      }
    }
  }
  cake.return
}

