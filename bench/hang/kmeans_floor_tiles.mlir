// A planted deadlock for the hang-debug lowering (docs/Runner.md, "Hang reports"): the Hopper
// KMeans assignment of test/Verify/Inputs/kmeans_mbarrier.mlir whose producer loads K floordiv 256
// centroid tiles while the consumers wait for K ceildiv 256. Correct when 256 divides K; for any
// other K the consumers wait forever at their last cake.pipeline.consumer_wait. Every static check
// passes (the trip counts differ only by the problem size), so only the run can tell.
//
//   cake-translate bench/hang/kmeans_floor_tiles.mlir --emit=cubin --hang-timeout-ms=200 \
//       --manifest=out.json -o out.cubin
//   cake-run --cubin out.cubin --manifest out.json --sizes B=1,N=1024,K=1000
cake.kernel @kmeans_floor_tiles(
    %x: !cake.tensor<[B, N, 128], f16> {cake.name = "x"},
    %tx: !cake.tma<[B, N, 128], f16, box [1, 128, 64], swizzle = 128> {cake.name = "tx", cake.describes = "x"},
    %c: !cake.tensor<[B, K, 128], f16> {cake.name = "c"},
    %tc: !cake.tma<[B, K, 128], f16, box [1, 256, 64], swizzle = 128> {cake.name = "tc", cake.describes = "c"},
    %csq: !cake.tensor<[B, K], f32> {cake.name = "csq"},
    %tcsq: !cake.tma<[B, K], f32, box [1, 256]> {cake.name = "tcsq", cake.describes = "csq"},
    %idx: !cake.tensor<[B, N], i32> {cake.name = "idx"})
    attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["B", "N", "K"],
                grid = affine_map<()[b, n, k] -> (n ceildiv 128, b)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c256 : index
  // The planted bug: the producer counts whole centroid tiles only.
  %ptiles = arith.divui %kdim, %c256 : index
  %bx = cake.block_id x
  %b = cake.block_id y
  %m0 = arith.muli %bx, %c128 : index

  %xbuf = cake.alloc_smem : !cake.smem<2x1x128x64xf16, swizzle = 128>
  %cbuf = cake.alloc_smem : !cake.smem<2x2x1x256x64xf16, swizzle = 128>
  %csqbuf = cake.alloc_smem : !cake.smem<2x1x256xf32>
  %xbar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %is_first = arith.cmpi eq, %tid, %c0 : index
  scf.if %is_first {
    cake.mbarrier.init %xbar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  // Every consumer thread releases a stage after reading its |c|^2 tile.
  %pipe = cake.pipeline.create consumers 256 : !cake.pipeline<2>

  cake.warp_roles {
    cake.role "producer" warps [0, 4) regs 40 {
      %warp = cake.warp_id
      %first = arith.cmpi eq, %warp, %c0 : index
      scf.if %first {
        %leader = cake.elect_one
        scf.if %leader {
          cake.mbarrier.arrive_expect_tx %xbar[%c0], bytes 32768 : !cake.mbarriers<1>
          cake.tma.load %tx[%b, %m0, %c0], %xbuf[%c0], %xbar[%c0]
              : !cake.tma<[B, N, 128], f16, box [1, 128, 64], swizzle = 128>,
                !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.mbarriers<1>
          cake.tma.load %tx[%b, %m0, %c64], %xbuf[%c1], %xbar[%c0]
              : !cake.tma<[B, N, 128], f16, box [1, 128, 64], swizzle = 128>,
                !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.mbarriers<1>
          scf.for %kt = %c0 to %ptiles step %c1 {
            cake.pipeline.producer_acquire %pipe[%kt] : !cake.pipeline<2>
            cake.pipeline.producer_commit %pipe[%kt], tx_bytes 66560 : !cake.pipeline<2>
            %slot = cake.pipeline.slot %pipe[%kt] : !cake.pipeline<2>
            %k0 = arith.muli %kt, %c256 : index
            cake.tma.load %tc[%b, %k0, %c0], %cbuf[%slot, %c0], %pipe[%kt]
                : !cake.tma<[B, K, 128], f16, box [1, 256, 64], swizzle = 128>,
                  !cake.smem<2x2x1x256x64xf16, swizzle = 128>, !cake.pipeline<2>
            cake.tma.load %tc[%b, %k0, %c64], %cbuf[%slot, %c1], %pipe[%kt]
                : !cake.tma<[B, K, 128], f16, box [1, 256, 64], swizzle = 128>,
                  !cake.smem<2x2x1x256x64xf16, swizzle = 128>, !cake.pipeline<2>
            cake.tma.load %tcsq[%b, %k0], %csqbuf[%slot], %pipe[%kt]
                : !cake.tma<[B, K], f32, box [1, 256]>, !cake.smem<2x1x256xf32>, !cake.pipeline<2>
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
      cake.mbarrier.wait %xbar[%c0], %c0 : !cake.mbarriers<1>
      %best:2 = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%bv = %inf, %bi = %none)
          -> (vector<2xf32>, vector<2xi32>) {
        cake.pipeline.consumer_wait %pipe[%kt] : !cake.pipeline<2>
        %slot = cake.pipeline.slot %pipe[%kt] : !cake.pipeline<2>
        cake.wgmma.fence
        %a0 = cake.wgmma %xbuf[%c0, %c0, %row, %c0], %cbuf[%slot, %c0, %c0, %c0, %c0], %zero
            : !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, vector<128xf32>
        %a1 = cake.wgmma %xbuf[%c0, %c0, %row, %c16], %cbuf[%slot, %c0, %c0, %c0, %c16], %a0
            : !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, vector<128xf32>
        %a2 = cake.wgmma %xbuf[%c0, %c0, %row, %c32], %cbuf[%slot, %c0, %c0, %c0, %c32], %a1
            : !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, vector<128xf32>
        %a3 = cake.wgmma %xbuf[%c0, %c0, %row, %c48], %cbuf[%slot, %c0, %c0, %c0, %c48], %a2
            : !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, vector<128xf32>
        %a4 = cake.wgmma %xbuf[%c1, %c0, %row, %c0], %cbuf[%slot, %c1, %c0, %c0, %c0], %a3
            : !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, vector<128xf32>
        %a5 = cake.wgmma %xbuf[%c1, %c0, %row, %c16], %cbuf[%slot, %c1, %c0, %c0, %c16], %a4
            : !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, vector<128xf32>
        %a6 = cake.wgmma %xbuf[%c1, %c0, %row, %c32], %cbuf[%slot, %c1, %c0, %c0, %c32], %a5
            : !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, vector<128xf32>
        %a7 = cake.wgmma %xbuf[%c1, %c0, %row, %c48], %cbuf[%slot, %c1, %c0, %c0, %c48], %a6
            : !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.smem<2x2x1x256x64xf16, swizzle = 128>, vector<128xf32>
        cake.wgmma.commit
        cake.wgmma.wait 0
        %k0 = arith.muli %kt, %c256 : index
        %valid = arith.subi %kdim, %k0 : index
        %v, %col = cake.wgmma.row_arg_reduce argmin %a7, scale -2.0, valid %valid,
            %csqbuf[%slot, %c0, %c0] : vector<128xf32>, !cake.smem<2x1x256xf32>
        cake.pipeline.consumer_release %pipe[%kt] : !cake.pipeline<2>
        %k0i = arith.index_cast %k0 : index to i32
        %k0v = vector.broadcast %k0i : i32 to vector<2xi32>
        %colk = arith.addi %col, %k0v : vector<2xi32>
        %closer = arith.cmpf olt, %v, %bv : vector<2xf32>
        %nbv = arith.select %closer, %v, %bv : vector<2xi1>, vector<2xf32>
        %nbi = arith.select %closer, %colk, %bi : vector<2xi1>, vector<2xi32>
        scf.yield %nbv, %nbi : vector<2xf32>, vector<2xi32>
      }
      %mrow = arith.addi %m0, %row : index
      cake.wgmma.store_rows %best#1, %idx[%b, %mrow] masked : vector<2xi32>, !cake.tensor<[B, N], i32>
    }
  }
  cake.return
}
