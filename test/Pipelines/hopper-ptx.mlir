// A small warp-specialized Hopper kernel through the whole pipeline to PTX and, with ptxas, to a
// sm_90a cubin: a producer warpgroup loads a 2-D bf16 box (128-byte swizzle) and a 3-D f16 box
// (64-byte swizzle) per stage with TMA, two consumer warpgroups run a bf16 and an f16 wgmma.
//
// REQUIRES: ptxas
// RUN: cake-translate %s --emit=ptx | FileCheck %s
// RUN: rm -f %t.cubin %t.log
// RUN: cake-translate %s --emit=cubin -o %t.cubin --ptxas-log %t.log
// RUN: FileCheck %s --check-prefix=PTXAS < %t.log
// RUN: od -A n -t x1 -N 4 %t.cubin | FileCheck %s --check-prefix=ELF

// CHECK: .target sm_90a
// CHECK: .extern .shared .align 1024 .b8 __cake_smem[]
// CHECK: .entry hopper_ptx(
// pipeline.create: 2 full + 2 empty barriers after the 16 KiB + 8 KiB of buffers.
// CHECK: mov.b32 [[ONE:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.init.shared.b64 [__cake_smem+24576], [[ONE]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__cake_smem+24584], [[ONE]];
// CHECK-NEXT: mov.b32 [[TWO:%r[0-9]+]], 2;
// CHECK-NEXT: mbarrier.init.shared.b64 [__cake_smem+24592], [[TWO]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__cake_smem+24600], [[TWO]];
// CHECK: fence.mbarrier_init.release.cluster;
// CHECK: bar.sync 0;
// The producer gives registers away, elects one lane, acquires a stage (a try_wait loop),
// announces the stage's bytes and issues the 2-D and the 3-D copy on the stage's full barrier.
// CHECK: setmaxnreg.dec.sync.aligned.u32 40;
// CHECK: elect.sync
// CHECK: LAB_WAIT:
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 P1, [{{%r[0-9]+}}], {{%r[0-9]+}}, 1000000;
// CHECK-NEXT: @P1 bra.uni DONE;
// CHECK-NEXT: bra.uni LAB_WAIT;
// CHECK: mov.b32 [[TX:%r[0-9]+]], 12288;
// CHECK-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{%rd[0-9]+}}, [[[FULL:%rd[0-9]+\+?[0-9]*]]], [[TX]];
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {[[K0:%r[0-9]+]], [[M0:%r[0-9]+]]}], [[[FULL]]];
// CHECK: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {[[K0]], [[M0]], {{%r[0-9]+}}}], [[[FULL]]];
// The bf16 consumer: 128-byte swizzle (descriptor mode 1, 64 x 16 bytes between 8-row groups).
// The buffer's descriptor is built once, before the loop; each wgmma adds its tile's offset
// (the stage) in 16-byte units.
// CHECK: setmaxnreg.inc.sync.aligned.u32 232;
// CHECK: or.b64 [[BA:%rd[0-9]+]], {{%rd[0-9]+}}, 4611686293305360384;
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK: wgmma.fence.sync.aligned;
// CHECK: add.s64 [[DA:%rd[0-9]+]], {{%rd[0-9]+}}, [[BA]];
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{(%r[0-9]+, ){31}%r[0-9]+}}}, [[DA]], [[DA]], p, 1, 1, 0, 0;
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: mbarrier.arrive.shared.b64
// The f16 consumer: 64-byte swizzle (mode 2, 32 x 16 bytes), after a proxy fence.
// CHECK: setmaxnreg.inc.sync.aligned.u32 232;
// CHECK: or.b64 [[BH:%rd[0-9]+]], {{%rd[0-9]+}}, -9223371899415756800;
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK: fence.proxy.async.shared::cta;
// CHECK: wgmma.fence.sync.aligned;
// CHECK: add.s64 [[DH:%rd[0-9]+]], {{%rd[0-9]+}}, [[BH]];
// CHECK: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {{{(%r[0-9]+, ){15}%r[0-9]+}}}, [[DH]], [[DH]], p, 1, 1, 0, 0;
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: mbarrier.arrive.shared.b64
// CHECK: ret;
// PTXAS: Compiling entry function 'hopper_ptx' for 'sm_90a'
// One block per SM (nvvm.minctasm = 1) with 384 threads: the entry budget the lowering assumes for
// setmaxnreg, 65536 / 384 rounded down to a multiple of 8.
// PTXAS: Used 168 registers
// ELF: 7f 45 4c 46

cake.kernel @hopper_ptx(
    %a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
    %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"},
    %h: !cake.tensor<[B, M, K], f16> {cake.name = "h"},
    %th: !cake.tma<[B, M, K], f16, box [1, 64, 32], swizzle = 64> {cake.name = "th", cake.describes = "h"},
    %c: !cake.tensor<[M, N], f32> {cake.name = "c"},
    %d: !cake.tensor<[M, N], f16> {cake.name = "d"})
    attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["B", "M", "N", "K"],
                grid = affine_map<()[b, m, n, k] -> (m ceildiv 64, b)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c64 : index
  %bm = cake.block_id x
  %b0 = cake.block_id y
  %m0 = arith.muli %bm, %c64 : index

  %abuf = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
  %hbuf = cake.alloc_smem : !cake.smem<2x1x64x32xf16, swizzle = 64>
  %pipe = cake.pipeline.create consumers 2 : !cake.pipeline<2>

  cake.warp_roles {
    cake.role "producer" warps [0, 4) regs 40 {
      %warp = cake.warp_id
      %first = arith.cmpi eq, %warp, %c0 : index
      scf.if %first {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %kt = %c0 to %ktiles step %c1 {
            cake.pipeline.producer_acquire %pipe[%kt] : !cake.pipeline<2>
            cake.pipeline.producer_commit %pipe[%kt], tx_bytes 12288 : !cake.pipeline<2>
            %slot = cake.pipeline.slot %pipe[%kt] : !cake.pipeline<2>
            %k0 = arith.muli %kt, %c64 : index
            cake.tma.load %ta[%m0, %k0], %abuf[%slot], %pipe[%kt]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>,
                  !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.pipeline<2>
            cake.tma.load %th[%b0, %m0, %k0], %hbuf[%slot], %pipe[%kt]
                : !cake.tma<[B, M, K], f16, box [1, 64, 32], swizzle = 64>,
                  !cake.smem<2x1x64x32xf16, swizzle = 64>, !cake.pipeline<2>
          }
        }
      }
    }
    cake.role "bf16" warps [4, 8) regs 232 {
      %tid = cake.thread_id x
      %lane128 = arith.remui %tid, %c128 : index
      %arrives = arith.cmpi eq, %lane128, %c0 : index
      %zero = arith.constant dense<0.0> : vector<32xf32>
      %acc = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
        cake.pipeline.consumer_wait %pipe[%kt] : !cake.pipeline<2>
        %slot = cake.pipeline.slot %pipe[%kt] : !cake.pipeline<2>
        cake.wgmma.fence
        %acc1 = cake.wgmma %abuf[%slot, %c0, %c0], %abuf[%slot, %c0, %c0], %acc0
            : !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.smem<2x64x64xbf16, swizzle = 128>, vector<32xf32>
        cake.wgmma.commit
        cake.wgmma.wait 0
        scf.if %arrives {
          cake.pipeline.consumer_release %pipe[%kt] : !cake.pipeline<2>
        }
        scf.yield %acc1 : vector<32xf32>
      }
      cake.wgmma.store %acc, %c[%m0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
    }
    cake.role "f16" warps [8, 12) regs 232 {
      %tid = cake.thread_id x
      %lane128 = arith.remui %tid, %c128 : index
      %arrives = arith.cmpi eq, %lane128, %c0 : index
      %zero = arith.constant dense<0.0> : vector<16xf32>
      %acc = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc0 = %zero) -> (vector<16xf32>) {
        cake.pipeline.consumer_wait %pipe[%kt] : !cake.pipeline<2>
        %slot = cake.pipeline.slot %pipe[%kt] : !cake.pipeline<2>
        cake.fence.proxy_async
        cake.wgmma.fence
        %acc1 = cake.wgmma %hbuf[%slot, %c0, %c0, %c0], %hbuf[%slot, %c0, %c0, %c0], %acc0
            : !cake.smem<2x1x64x32xf16, swizzle = 64>, !cake.smem<2x1x64x32xf16, swizzle = 64>, vector<16xf32>
        cake.wgmma.commit
        cake.wgmma.wait 0
        scf.if %arrives {
          cake.pipeline.consumer_release %pipe[%kt] : !cake.pipeline<2>
        }
        scf.yield %acc1 : vector<16xf32>
      }
      cake.wgmma.store %acc, %d[%m0, %c0] masked : vector<16xf32>, !cake.tensor<[M, N], f16>
    }
  }
  cake.return
}
