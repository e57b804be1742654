// RUN: cake-opt %s --cake-convert-to-nvvm -split-input-file | FileCheck %s

// The hardware-explicit ops: mbarriers, fences, elect, pipelines, TMA, warp roles and wgmma.

// mbarrier arrays are 8-byte aligned offsets in the shared segment (here after a 256-byte buffer);
// barrier i is at byte 8 * i. No register reallocation: no nvvm.minctasm.
// CHECK-LABEL: gpu.func @barriers
// CHECK-NOT: nvvm.minctasm
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: llvm.mlir.addressof @__cake_smem : !llvm.ptr<3>
// CHECK: arith.constant 0 : i64
// CHECK: %[[SEG:.*]] = llvm.mlir.addressof @__cake_smem : !llvm.ptr<3>
// CHECK: %[[OFF:.*]] = arith.constant 256 : i64
// CHECK: %[[BARS:.*]] = llvm.getelementptr %[[SEG]][%[[OFF]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// init: %bars[3], count 128
// CHECK: %[[I0:.*]] = arith.index_cast %[[C3]] : index to i64
// CHECK: %[[E0:.*]] = arith.constant 8 : i64
// CHECK: %[[B0:.*]] = arith.muli %[[I0]], %[[E0]] : i64
// CHECK: %[[A0:.*]] = llvm.getelementptr %[[BARS]][%[[B0]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: %[[COUNT:.*]] = arith.constant 128 : i32
// CHECK: nvvm.mbarrier.init %[[A0]], %[[COUNT]] : !llvm.ptr<3>, i32
// CHECK: nvvm.fence.mbarrier.init
// arrive: %bars[3]
// CHECK: %[[A1:.*]] = llvm.getelementptr %[[BARS]][%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: nvvm.mbarrier.arrive %[[A1]] : !llvm.ptr<3>
// arrive_expect_tx: %bars[%i], bytes 4096
// CHECK: %[[I2:.*]] = arith.index_cast %[[I:.*]] : index to i64
// CHECK: %[[E2:.*]] = arith.constant 8 : i64
// CHECK: %[[B2:.*]] = arith.muli %[[I2]], %[[E2]] : i64
// CHECK: %[[A2:.*]] = llvm.getelementptr %[[BARS]][%[[B2]]]
// CHECK: %[[TX:.*]] = arith.constant 4096 : i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[A2]], %[[TX]] : !llvm.ptr<3>, i32
// wait: %bars[3], parity %p: only the low bit of the parity counts
// CHECK: %[[A3:.*]] = llvm.getelementptr %[[BARS]][%{{.*}}]
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[LOW:.*]] = arith.andi %[[P:.*]], %[[ONE]] : index
// CHECK: %[[PHASE:.*]] = arith.index_cast %[[LOW]] : index to i32
// CHECK: %[[HINT:.*]] = arith.constant 1000000 : i32
// CHECK: nvvm.mbarrier.try_wait.parity %[[A3]], %[[PHASE]], %[[HINT]] : !llvm.ptr<3>, i32, i32
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: nvvm.elect.sync -> i1
// CHECK-NOT: cake.
// CHECK: gpu.return
cake.kernel @barriers() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c3 = arith.constant 3 : index
  %i = cake.thread_id x
  %p = cake.block_id x
  %buf = cake.alloc_smem : !cake.smem<64xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<4>
  cake.mbarrier.init %bars[%c3], count 128 : !cake.mbarriers<4>
  cake.fence.mbarrier_init
  cake.mbarrier.arrive %bars[%c3] : !cake.mbarriers<4>
  cake.mbarrier.arrive_expect_tx %bars[%i], bytes 4096 : !cake.mbarriers<4>
  cake.mbarrier.wait %bars[%c3], %p : !cake.mbarriers<4>
  cake.fence.proxy_async
  %e = cake.elect_one
  cake.return
}

// -----

// The layout: a 3x64x64 bf16 buffer (24576 bytes) at 0, then mbarrier arrays that only need
// 8-byte alignment (3 barriers at 24576, one at 24600), then a swizzled buffer at 1024 alignment.
// CHECK-LABEL: gpu.func @layout
// CHECK: %[[S0:.*]] = llvm.mlir.addressof @__cake_smem
// CHECK: %[[O0:.*]] = arith.constant 0 : i64
// CHECK: llvm.getelementptr %[[S0]][%[[O0]]]
// CHECK: %[[S1:.*]] = llvm.mlir.addressof @__cake_smem
// CHECK: %[[O1:.*]] = arith.constant 24576 : i64
// CHECK: llvm.getelementptr %[[S1]][%[[O1]]]
// CHECK: %[[S2:.*]] = llvm.mlir.addressof @__cake_smem
// CHECK: %[[O2:.*]] = arith.constant 24600 : i64
// CHECK: llvm.getelementptr %[[S2]][%[[O2]]]
// CHECK: %[[S3:.*]] = llvm.mlir.addressof @__cake_smem
// CHECK: %[[O3:.*]] = arith.constant 25600 : i64
// CHECK: llvm.getelementptr %[[S3]][%[[O3]]]
cake.kernel @layout() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %buf = cake.alloc_smem : !cake.smem<3x64x64xbf16, swizzle = 128>
  %b1 = cake.mbarrier.alloc : !cake.mbarriers<3>
  %b2 = cake.mbarrier.alloc : !cake.mbarriers<1>
  // 24608 rounded up to the 1024-byte alignment of a 128-byte swizzle.
  %buf2 = cake.alloc_smem : !cake.smem<8x64xbf16, swizzle = 128>
  cake.return
}

// -----

// pipeline.create: 2 x stages barriers at the pipeline's offset; thread 0 initializes the full
// barriers (0 .. stages-1) with count 1 and the empty ones (stages .. 2*stages-1) with
// `consumers`, fences, and the whole block meets at a barrier.
// CHECK-LABEL: gpu.func @pipeline_create
// CHECK: %[[SEG:.*]] = llvm.mlir.addressof @__cake_smem : !llvm.ptr<3>
// CHECK: %[[OFF:.*]] = arith.constant 0 : i64
// CHECK: %[[PIPE:.*]] = llvm.getelementptr %[[SEG]][%[[OFF]]]
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %[[Z]] : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: %[[K0:.*]] = arith.constant 0 : index
// CHECK: %[[X0:.*]] = arith.index_cast %[[K0]] : index to i64
// CHECK: %[[E0:.*]] = arith.constant 8 : i64
// CHECK: %[[Y0:.*]] = arith.muli %[[X0]], %[[E0]] : i64
// CHECK: %[[F0:.*]] = llvm.getelementptr %[[PIPE]][%[[Y0]]]
// CHECK: %[[N0:.*]] = arith.constant 1 : i32
// CHECK: nvvm.mbarrier.init %[[F0]], %[[N0]]
// CHECK: %[[K1:.*]] = arith.constant 1 : index
// CHECK: arith.index_cast %[[K1]]
// CHECK: %[[N1:.*]] = arith.constant 1 : i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %[[N1]]
// CHECK: %[[K2:.*]] = arith.constant 2 : index
// CHECK: arith.index_cast %[[K2]]
// CHECK: %[[N2:.*]] = arith.constant 3 : i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %[[N2]]
// CHECK: %[[K3:.*]] = arith.constant 3 : index
// CHECK: arith.index_cast %[[K3]]
// CHECK: %[[N3:.*]] = arith.constant 3 : i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %[[N3]]
// CHECK-NOT: nvvm.mbarrier.init
// CHECK: nvvm.fence.mbarrier.init
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: gpu.return
cake.kernel @pipeline_create() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %pipe = cake.pipeline.create consumers 3 : !cake.pipeline<2>
  cake.return
}

// -----

// Over a 2-D block, "thread 0" is the linear id tid.x + 32 * tid.y.
// CHECK-LABEL: gpu.func @pipeline_create_2d
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK: %[[TY:.*]] = gpu.thread_id y
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[S:.*]] = arith.muli %[[TY]], %[[C32]]
// CHECK: %[[L:.*]] = arith.addi %[[TX]], %[[S]]
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK: arith.cmpi eq, %[[L]], %[[Z]] : index
cake.kernel @pipeline_create_2d() attributes {target = "sm_90", block = array<i64: 32, 4>, grid = affine_map<() -> (1)>} {
  %pipe = cake.pipeline.create consumers 1 : !cake.pipeline<1>
  cake.return
}

// -----

// The pipeline steps: slot = it mod stages, round = it div stages; full barrier at slot, empty at
// slot + stages. producer_acquire waits on the empty barrier with parity round xor 1 (a fresh
// barrier passes the first round), consumer_wait on the full barrier with parity round,
// consumer_release arrives on the empty one, producer_commit expects bytes on the full one.
// CHECK-LABEL: gpu.func @pipeline_steps
// CHECK: %[[IT:.*]] = gpu.block_id x
// CHECK: %[[PIPE:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: gpu.barrier
// producer_acquire
// CHECK: %[[ST:.*]] = arith.constant 3 : index
// CHECK: %[[SLOT:.*]] = arith.remui %[[IT]], %[[ST]] : index
// CHECK: %[[ROUND:.*]] = arith.divui %[[IT]], %[[ST]] : index
// CHECK: %[[FI:.*]] = arith.index_cast %[[SLOT]] : index to i64
// CHECK: %[[F8:.*]] = arith.constant 8 : i64
// CHECK: %[[FB:.*]] = arith.muli %[[FI]], %[[F8]] : i64
// CHECK: llvm.getelementptr %[[PIPE]][%[[FB]]]
// CHECK: %[[EIDX:.*]] = arith.addi %[[SLOT]], %[[ST]] : index
// CHECK: %[[EI:.*]] = arith.index_cast %[[EIDX]] : index to i64
// CHECK: %[[E8:.*]] = arith.constant 8 : i64
// CHECK: %[[EB:.*]] = arith.muli %[[EI]], %[[E8]] : i64
// CHECK: %[[EMPTY:.*]] = llvm.getelementptr %[[PIPE]][%[[EB]]]
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[FLIP:.*]] = arith.xori %[[ROUND]], %[[ONE]] : index
// CHECK: %[[ONE2:.*]] = arith.constant 1 : index
// CHECK: %[[LOW:.*]] = arith.andi %[[FLIP]], %[[ONE2]] : index
// CHECK: %[[PAR:.*]] = arith.index_cast %[[LOW]] : index to i32
// CHECK: nvvm.mbarrier.try_wait.parity %[[EMPTY]], %[[PAR]], %{{.*}} : !llvm.ptr<3>, i32, i32
// producer_commit
// CHECK: %[[ST1:.*]] = arith.constant 3 : index
// CHECK: %[[SLOT1:.*]] = arith.remui %[[IT]], %[[ST1]] : index
// CHECK: %[[FI1:.*]] = arith.index_cast %[[SLOT1]] : index to i64
// CHECK: %[[FB1:.*]] = arith.muli %[[FI1]], %{{.*}} : i64
// CHECK: %[[FULL1:.*]] = llvm.getelementptr %[[PIPE]][%[[FB1]]]
// CHECK: %[[TX:.*]] = arith.constant 8192 : i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[FULL1]], %[[TX]] : !llvm.ptr<3>, i32
// pipeline.slot
// CHECK: %[[ST2:.*]] = arith.constant 3 : index
// CHECK: %[[SLOT2:.*]] = arith.remui %[[IT]], %[[ST2]] : index
// CHECK-NEXT: arith.index_cast %[[SLOT2]] : index to i32
// consumer_wait
// CHECK: %[[ST3:.*]] = arith.constant 3 : index
// CHECK: %[[SLOT3:.*]] = arith.remui %[[IT]], %[[ST3]] : index
// CHECK: %[[ROUND3:.*]] = arith.divui %[[IT]], %[[ST3]] : index
// CHECK: %[[FI3:.*]] = arith.index_cast %[[SLOT3]] : index to i64
// CHECK: %[[FB3:.*]] = arith.muli %[[FI3]], %{{.*}} : i64
// CHECK: %[[FULL3:.*]] = llvm.getelementptr %[[PIPE]][%[[FB3]]]
// CHECK: %[[ONE3:.*]] = arith.constant 1 : index
// CHECK-NOT: arith.xori
// CHECK: %[[LOW3:.*]] = arith.andi %[[ROUND3]], %[[ONE3]] : index
// CHECK: %[[PAR3:.*]] = arith.index_cast %[[LOW3]] : index to i32
// CHECK: nvvm.mbarrier.try_wait.parity %[[FULL3]], %[[PAR3]], %{{.*}}
// consumer_release
// CHECK: %[[ST4:.*]] = arith.constant 3 : index
// CHECK: %[[SLOT4:.*]] = arith.remui %[[IT]], %[[ST4]] : index
// CHECK: %[[EIDX4:.*]] = arith.addi %[[SLOT4]], %[[ST4]] : index
// CHECK: %[[EI4:.*]] = arith.index_cast %[[EIDX4]] : index to i64
// CHECK: %[[EB4:.*]] = arith.muli %[[EI4]], %{{.*}} : i64
// CHECK: %[[EMPTY4:.*]] = llvm.getelementptr %[[PIPE]][%[[EB4]]]
// CHECK-NEXT: nvvm.mbarrier.arrive %[[EMPTY4]] : !llvm.ptr<3>
// CHECK-NOT: cake.
// CHECK: gpu.return
cake.kernel @pipeline_steps() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %it = cake.block_id x
  %pipe = cake.pipeline.create consumers 2 : !cake.pipeline<3>
  cake.pipeline.producer_acquire %pipe[%it] : !cake.pipeline<3>
  cake.pipeline.producer_commit %pipe[%it], tx_bytes 8192 : !cake.pipeline<3>
  %slot = cake.pipeline.slot %pipe[%it] : !cake.pipeline<3>
  %s32 = arith.index_cast %slot : index to i32
  cake.pipeline.consumer_wait %pipe[%it] : !cake.pipeline<3>
  cake.pipeline.consumer_release %pipe[%it] : !cake.pipeline<3>
  cake.return
}

// -----

// tma.load: the destination is the stage's sub-buffer (slot * 64 * 64 * 2 bytes) cast to
// shared::cluster (address space 7); the copy completes on the pipeline's full barrier of the
// iteration; coordinates run innermost first as i32. The descriptor is a generic pointer.
// CHECK-LABEL: gpu.func @tma_pipeline
// CHECK-SAME: (%{{.*}}: !llvm.ptr<1>, %[[DESC:.*]]: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64)
// CHECK: %[[IT:.*]] = gpu.block_id x
// CHECK: %[[M0:.*]] = gpu.thread_id x
// CHECK: %[[K0:.*]] = gpu.lane_id
// CHECK: %[[SEG:.*]] = llvm.mlir.addressof @__cake_smem
// CHECK: %[[BOFF:.*]] = arith.constant 0 : i64
// CHECK: %[[BUF:.*]] = llvm.getelementptr %[[SEG]][%[[BOFF]]]
// CHECK: %[[SEG1:.*]] = llvm.mlir.addressof @__cake_smem
// CHECK: %[[POFF:.*]] = arith.constant 24576 : i64
// CHECK: %[[PIPE:.*]] = llvm.getelementptr %[[SEG1]][%[[POFF]]]
// CHECK: gpu.barrier
// CHECK: %[[SLOT:.*]] = arith.remui %[[IT]], %{{.*}} : index
// CHECK: %[[Z:.*]] = arith.constant 0 : i64
// CHECK: %[[SI:.*]] = arith.index_cast %[[SLOT]] : index to i64
// CHECK: %[[STAGE:.*]] = arith.constant 8192 : i64
// CHECK: %[[SB:.*]] = arith.muli %[[SI]], %[[STAGE]] : i64
// CHECK: %[[DOFF:.*]] = arith.addi %[[Z]], %[[SB]] : i64
// CHECK: %[[DST3:.*]] = llvm.getelementptr %[[BUF]][%[[DOFF]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: %[[DST:.*]] = llvm.addrspacecast %[[DST3]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK: %[[ST:.*]] = arith.constant 3 : index
// CHECK: %[[BSLOT:.*]] = arith.remui %[[IT]], %[[ST]] : index
// CHECK: %[[BI:.*]] = arith.index_cast %[[BSLOT]] : index to i64
// CHECK: %[[BB:.*]] = arith.muli %[[BI]], %{{.*}} : i64
// CHECK: %[[FULL:.*]] = llvm.getelementptr %[[PIPE]][%[[BB]]]
// CHECK: %[[X:.*]] = arith.index_cast %[[K0]] : index to i32
// CHECK: %[[Y:.*]] = arith.index_cast %[[M0]] : index to i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %[[DESC]], %[[FULL]], box[%[[X]], %[[Y]]] : !llvm.ptr<7>, !llvm.ptr
cake.kernel @tma_pipeline(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
                          %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (m)>} {
  %it = cake.block_id x
  %m0 = cake.thread_id x
  %k0 = cake.lane_id
  %abuf = cake.alloc_smem : !cake.smem<3x64x64xbf16, swizzle = 128>
  %pipe = cake.pipeline.create consumers 2 : !cake.pipeline<3>
  %slot = cake.pipeline.slot %pipe[%it] : !cake.pipeline<3>
  cake.tma.load %ta[%m0, %k0], %abuf[%slot], %pipe[%it]
      : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<3x64x64xbf16, swizzle = 128>, !cake.pipeline<3>
  cake.return
}

// -----

// A 3-D box on a plain mbarrier array: three coordinates reversed, barrier 1 at byte 8 of the
// array, no leading indices (the buffer is the box).
// CHECK-LABEL: gpu.func @tma_3d
// CHECK-SAME: (%{{.*}}: !llvm.ptr<1>, %[[DESC:.*]]: !llvm.ptr,
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[B:.*]] = gpu.block_id x
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[L:.*]] = gpu.lane_id
// CHECK: %[[BUF:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: %[[BARS:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: %[[Z:.*]] = arith.constant 0 : i64
// CHECK: %[[DST3:.*]] = llvm.getelementptr %[[BUF]][%[[Z]]]
// CHECK: %[[DST:.*]] = llvm.addrspacecast %[[DST3]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK: %[[BI:.*]] = arith.index_cast %[[C1]] : index to i64
// CHECK: %[[E8:.*]] = arith.constant 8 : i64
// CHECK: %[[BB:.*]] = arith.muli %[[BI]], %[[E8]] : i64
// CHECK: %[[BAR:.*]] = llvm.getelementptr %[[BARS]][%[[BB]]]
// CHECK: %[[X:.*]] = arith.index_cast %[[L]] : index to i32
// CHECK: %[[Y:.*]] = arith.index_cast %[[T]] : index to i32
// CHECK: %[[W:.*]] = arith.index_cast %[[B]] : index to i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %[[DESC]], %[[BAR]], box[%[[X]], %[[Y]], %[[W]]] : !llvm.ptr<7>, !llvm.ptr
cake.kernel @tma_3d(%a: !cake.tensor<[B, M, K], f32> {cake.name = "a"},
                    %ta: !cake.tma<[B, M, K], f32, box [2, 16, 32], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_90", block = array<i64: 128>, symbols = ["B", "M", "K"], grid = affine_map<()[b, m, k] -> (m)>} {
  %c1 = arith.constant 1 : index
  %b0 = cake.block_id x
  %m0 = cake.thread_id x
  %k0 = cake.lane_id
  %buf = cake.alloc_smem : !cake.smem<2x16x32xf32, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  cake.tma.load %ta[%b0, %m0, %k0], %buf[], %bars[%c1]
      : !cake.tma<[B, M, K], f32, box [2, 16, 32], swizzle = 128>, !cake.smem<2x16x32xf32, swizzle = 128>, !cake.mbarriers<2>
  cake.return
}

// -----

// warp_roles: warp = linear tid / 32; each role is `if (first <= warp < last)`. With 384 threads
// the entry budget is 65536 / 384 / 8 * 8 = 168 registers: 40 is a decrease, 232 an increase, a
// role without regs sets nothing. The kernel runs one block per SM (nvvm.minctasm = 1).
// CHECK-LABEL: gpu.func @roles
// CHECK-SAME: nvvm.minctasm = 1 : i32
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %[[C32]] : index
// CHECK: %[[F0:.*]] = arith.constant 0 : index
// CHECK: %[[LO0:.*]] = arith.cmpi uge, %[[WARP]], %[[F0]] : index
// CHECK: %[[L0:.*]] = arith.constant 4 : index
// CHECK: %[[HI0:.*]] = arith.cmpi ult, %[[WARP]], %[[L0]] : index
// CHECK: %[[IN0:.*]] = arith.andi %[[LO0]], %[[HI0]] : i1
// CHECK: scf.if %[[IN0]] {
// CHECK-NEXT: nvvm.setmaxregister decrease 40
// CHECK-NEXT: nvvm.elect.sync
// CHECK-NEXT: }
// CHECK: %[[F1:.*]] = arith.constant 4 : index
// CHECK: %[[LO1:.*]] = arith.cmpi uge, %[[WARP]], %[[F1]] : index
// CHECK: %[[L1:.*]] = arith.constant 7 : index
// CHECK: %[[HI1:.*]] = arith.cmpi ult, %[[WARP]], %[[L1]] : index
// CHECK: %[[IN1:.*]] = arith.andi %[[LO1]], %[[HI1]] : i1
// CHECK: scf.if %[[IN1]] {
// CHECK-NEXT: nvvm.fence.proxy {kind
// CHECK-NEXT: {{^ +}}}
// CHECK: %[[F2:.*]] = arith.constant 8 : index
// CHECK: arith.cmpi uge, %[[WARP]], %[[F2]] : index
// CHECK: %[[L2:.*]] = arith.constant 12 : index
// CHECK: arith.cmpi ult, %[[WARP]], %[[L2]] : index
// CHECK: scf.if
// CHECK-NEXT: nvvm.setmaxregister increase 232
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
cake.kernel @roles() attributes {target = "sm_90a", block = array<i64: 384>, grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    cake.role "producer" warps [0, 4) regs 40 {
      %e = cake.elect_one
    }
    cake.role "helper" warps [4, 7) {
      cake.fence.proxy_async
    }
    cake.role "consumer" warps [8, 12) regs 232 {
      cake.wgmma.fence
    }
  }
  cake.return
}

// -----

// With 512 threads the entry budget is 128: a role asking for exactly 128 sets nothing, 136 is an
// increase, 120 a decrease. The linear thread id spans the 2-D block.
// CHECK-LABEL: gpu.func @roles_budget_512
// CHECK-SAME: nvvm.minctasm = 1 : i32
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK: %[[TY:.*]] = gpu.thread_id y
// CHECK: %[[L:.*]] = arith.addi %[[TX]], %{{.*}} : index
// CHECK: arith.divui %[[L]], %{{.*}} : index
// CHECK: scf.if
// CHECK-NOT: nvvm.setmaxregister
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK-NEXT: nvvm.setmaxregister increase 136
// CHECK: scf.if
// CHECK-NEXT: nvvm.setmaxregister decrease 120
cake.kernel @roles_budget_512() attributes {target = "sm_90a", block = array<i64: 256, 2>, grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    cake.role "a" warps [0, 4) regs 128 {
      cake.barrier
    }
    cake.role "b" warps [4, 8) regs 136 {
    }
    cake.role "c" warps [8, 16) regs 120 {
    }
  }
  cake.return
}

// -----

// Up to 256 threads the entry budget is capped at 255: 248 is a decrease, 256 an increase.
// CHECK-LABEL: gpu.func @roles_budget_256
// CHECK: scf.if
// CHECK-NEXT: nvvm.setmaxregister decrease 248
// CHECK: scf.if
// CHECK-NEXT: nvvm.setmaxregister increase 256
cake.kernel @roles_budget_256() attributes {target = "sm_100a", block = array<i64: 256>, grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    cake.role "a" warps [0, 4) regs 248 {
    }
    cake.role "b" warps [4, 8) regs 256 {
    }
  }
  cake.return
}

// -----

// Roles without budgets: no setmaxnreg and no nvvm.minctasm.
// CHECK-LABEL: gpu.func @roles_no_regs
// CHECK-NOT: nvvm.minctasm
// CHECK-NOT: nvvm.setmaxregister
// CHECK: gpu.return
cake.kernel @roles_no_regs() attributes {target = "sm_80", block = array<i64: 64>, grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    cake.role "a" warps [0, 1) {
      cake.barrier
    }
    cake.role "b" warps [1, 2) {
    }
  }
  cake.return
}

// -----

// wgmma: descriptors are the buffer's (start & 0x3FFFF) >> 4 | 1 << 16 | (8 * rowBytes >> 4) << 32 |
// mode << 62, plus the tile's offset in 16-byte units (each index times its stride / 16).
// A: 128-byte rows, 128-byte swizzle (mode 1): 1 << 16 | 64 << 32 | 1 << 62 = 4611686293305360384;
// its tile at [1, 64, 16] starts 1 * 16384 + 64 * 128 + 16 * 2 bytes in: 1 * 1024 + 64 * 8 units
// and (16 * 2 bytes) >> 4.
// B: 64-byte rows, 64-byte swizzle (mode 2): 1 << 16 | 32 << 32 | 2 << 62, as i64
// -9223371899415756800; its buffer is at byte 32768 of the segment.
// CHECK-LABEL: gpu.func @wgmma_bf16
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[ABUF:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: %[[BOFF:.*]] = arith.constant 32768 : i64
// CHECK: %[[BBUF:.*]] = llvm.getelementptr %{{.*}}[%[[BOFF]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: %[[ACC:.*]] = arith.constant dense<1.000000e+00> : vector<8xf32>
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: %[[ASTART:.*]] = llvm.ptrtoint %[[ABUF]] : !llvm.ptr<3> to i64
// CHECK: %[[MASK:.*]] = arith.constant 262143 : i64
// CHECK: %[[AM:.*]] = arith.andi %[[ASTART]], %[[MASK]] : i64
// CHECK: %[[FOUR:.*]] = arith.constant 4 : i64
// CHECK: %[[AS:.*]] = arith.shrui %[[AM]], %[[FOUR]] : i64
// CHECK: %[[AF:.*]] = arith.constant 4611686293305360384 : i64
// CHECK: %[[ABASE:.*]] = arith.ori %[[AS]], %[[AF]] : i64
// CHECK: %[[I0:.*]] = arith.index_cast %[[C1]] : index to i64
// CHECK: %[[S0:.*]] = arith.constant 1024 : i64
// CHECK: %[[O0:.*]] = arith.muli %[[I0]], %[[S0]] : i64
// CHECK: %[[D0:.*]] = arith.addi %[[ABASE]], %[[O0]] : i64
// CHECK: %[[I1:.*]] = arith.index_cast %[[C64]] : index to i64
// CHECK: %[[S1:.*]] = arith.constant 8 : i64
// CHECK: %[[O1:.*]] = arith.muli %[[I1]], %[[S1]] : i64
// CHECK: %[[D1:.*]] = arith.addi %[[D0]], %[[O1]] : i64
// CHECK: %[[I2:.*]] = arith.index_cast %[[C16]] : index to i64
// CHECK: %[[S2:.*]] = arith.constant 2 : i64
// CHECK: %[[O2:.*]] = arith.muli %[[I2]], %[[S2]] : i64
// CHECK: %[[U2:.*]] = arith.shrui %[[O2]], %{{.*}} : i64
// CHECK: %[[DESCA:.*]] = arith.addi %[[D1]], %[[U2]] : i64
// CHECK: %[[BSTART:.*]] = llvm.ptrtoint %[[BBUF]] : !llvm.ptr<3> to i64
// CHECK: %[[BM:.*]] = arith.andi %[[BSTART]], %{{.*}} : i64
// CHECK: %[[BS:.*]] = arith.shrui %[[BM]], %{{.*}} : i64
// CHECK: %[[BF:.*]] = arith.constant -9223371899415756800 : i64
// CHECK: %[[BBASE:.*]] = arith.ori %[[BS]], %[[BF]] : i64
// CHECK: %[[BROW:.*]] = arith.addi %[[BBASE]], %{{.*}} : i64
// CHECK: %[[BCOL:.*]] = arith.shrui %{{.*}}, %{{.*}} : i64
// CHECK: %[[DESCB:.*]] = arith.addi %[[BROW]], %[[BCOL]] : i64
// CHECK: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK: vector.extract %[[ACC]][0] : f32 from vector<8xf32>
// CHECK: %[[PACKED:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[7]
// CHECK: %[[RES:.*]] = nvvm.wgmma.mma_async %[[DESCA]], %[[DESCB]], %[[PACKED]], <m = 64, n = 16, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK: llvm.extractvalue %[[RES]][0]
// CHECK: %[[LAST:.*]] = llvm.extractvalue %[[RES]][7]
// CHECK: vector.insert %[[LAST]], %{{.*}} [7] : f32 into vector<8xf32>
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
cake.kernel @wgmma_bf16() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = cake.alloc_smem : !cake.smem<2x128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<16x32xbf16, swizzle = 64>
  %acc = arith.constant dense<1.0> : vector<8xf32>
  cake.wgmma.fence
  %d = cake.wgmma %a[%c1, %c64, %c16], %b[%c0, %c16], %acc
      : !cake.smem<2x128x64xbf16, swizzle = 128>, !cake.smem<16x32xbf16, swizzle = 64>, vector<8xf32>
  cake.wgmma.commit
  cake.wgmma.wait 1
  cake.return
}

// -----

// f16 with a 32-byte swizzle (mode 3): 1 << 16 | 16 << 32 | 3 << 62 = -4611685949707845632 as i64;
// n = 256 with a 128-element accumulator. It starts from zeros, so scale-d is zero and the
// accumulator input is undef: no register moves between the fence and the wgmma.
// CHECK-LABEL: gpu.func @wgmma_f16
// CHECK: %[[AF:.*]] = arith.constant -4611685949707845632 : i64
// CHECK: arith.ori %{{.*}}, %[[AF]] : i64
// CHECK: arith.addi
// CHECK: %[[DESCA:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: %[[BF:.*]] = arith.constant -4611685949707845632 : i64
// CHECK: arith.ori %{{.*}}, %[[BF]] : i64
// CHECK: arith.addi
// CHECK: %[[DESCB:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f32,
// CHECK-NOT: llvm.insertvalue
// CHECK: nvvm.wgmma.mma_async %[[DESCA]], %[[DESCB]], %[[U]], <m = 64, n = 256, k = 16>, D[<f32>, <zero>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32,
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
cake.kernel @wgmma_f16() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = cake.alloc_smem : !cake.smem<64x16xf16, swizzle = 32>
  %b = cake.alloc_smem : !cake.smem<256x16xf16, swizzle = 32>
  %acc = arith.constant dense<0.0> : vector<128xf32>
  %d = cake.wgmma %a[%c0, %c0], %b[%c0, %c0], %acc
      : !cake.smem<64x16xf16, swizzle = 32>, !cake.smem<256x16xf16, swizzle = 32>, vector<128xf32>
  cake.wgmma.wait 0
  cake.return
}

// -----

// wgmma.store, unmasked, to bf16: t = tid % 128, row = row0 + 16 * (t / 32) + (t % 32) / 4 (+ 8),
// col = col0 + 2 * (t % 4) + 8 * i; each pair is truncated and stored as a vector<2xbf16>.
// CHECK-LABEL: gpu.func @store_bf16
// CHECK-SAME: (%[[C:.*]]: !llvm.ptr<1>, %[[M:.*]]: i64, %[[N:.*]]: i64)
// CHECK: %[[R0:.*]] = gpu.block_id x
// CHECK: %[[Q0:.*]] = gpu.block_id y
// CHECK: %[[ACC:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// The index arithmetic (its order is free):
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK-DAG: arith.constant 128 : index
// CHECK-DAG: arith.constant 32 : index
// CHECK-DAG: arith.constant 16 : index
// CHECK-DAG: arith.constant 4 : index
// CHECK-DAG: arith.constant 2 : index
// CHECK-DAG: %[[T:.*]] = arith.remui %[[TID]], %{{.*}} : index
// CHECK-DAG: %[[W:.*]] = arith.divui %[[T]], %{{.*}} : index
// CHECK-DAG: %[[LANE:.*]] = arith.remui %[[T]], %{{.*}} : index
// CHECK-DAG: %[[W16:.*]] = arith.muli %[[W]], %{{.*}} : index
// CHECK-DAG: %[[LQ:.*]] = arith.divui %[[LANE]], %{{.*}} : index
// CHECK-DAG: %[[RR:.*]] = arith.addi %[[W16]], %[[LQ]] : index
// CHECK-DAG: %[[ROW:.*]] = arith.addi %[[R0]], %[[RR]] : index
// CHECK-DAG: %[[LR:.*]] = arith.remui %[[LANE]], %{{.*}} : index
// CHECK-DAG: %[[LC:.*]] = arith.muli %[[LR]], %{{.*}} : index
// CHECK-DAG: %[[COL:.*]] = arith.addi %[[Q0]], %[[LC]] : index
// block 0, rows 0-7: elements 0 and 1
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK: %[[COL0:.*]] = arith.addi %[[COL]], %[[Z]] : index
// CHECK: %[[V0:.*]] = vector.extract %[[ACC]][0] : f32 from vector<8xf32>
// CHECK: %[[H0:.*]] = arith.truncf %[[V0]] : f32 to bf16
// CHECK: %[[V1:.*]] = vector.extract %[[ACC]][1] : f32 from vector<8xf32>
// CHECK: %[[H1:.*]] = arith.truncf %[[V1]] : f32 to bf16
// CHECK: %[[PAIR0:.*]] = vector.from_elements %[[H0]], %[[H1]] : vector<2xbf16>
// CHECK: %[[NI:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK: %[[RS:.*]] = arith.muli %[[ROW]], %[[NI]] : index
// CHECK: %[[OFF0:.*]] = arith.addi %[[RS]], %[[COL0]] : index
// CHECK: %[[OFF064:.*]] = arith.index_cast %[[OFF0]] : index to i64
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[C]][%[[OFF064]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK: llvm.store %[[PAIR0]], %[[P0]] {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<1>
// block 0, rows 8-15: elements 2 and 3
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[ROW8:.*]] = arith.addi %[[ROW]], %[[C8]] : index
// CHECK: vector.extract %[[ACC]][2]
// CHECK: vector.extract %[[ACC]][3]
// CHECK: arith.muli %[[ROW8]], %{{.*}} : index
// CHECK: arith.addi %{{.*}}, %[[COL0]] : index
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<1>
// block 1: columns + 8, elements 4 .. 7
// CHECK: %[[C8C:.*]] = arith.constant 8 : index
// CHECK: %[[COL1:.*]] = arith.addi %[[COL]], %[[C8C]] : index
// CHECK: vector.extract %[[ACC]][4]
// CHECK: vector.extract %[[ACC]][5]
// CHECK: arith.muli %[[ROW]], %{{.*}} : index
// CHECK: arith.addi %{{.*}}, %[[COL1]] : index
// CHECK: llvm.store
// CHECK: arith.addi %[[ROW]], %{{.*}} : index
// CHECK: vector.extract %[[ACC]][6]
// CHECK: vector.extract %[[ACC]][7]
// CHECK: arith.addi %{{.*}}, %[[COL1]] : index
// CHECK: llvm.store
// CHECK-NOT: llvm.store
// CHECK-NOT: scf.if
// CHECK: gpu.return
cake.kernel @store_bf16(%c: !cake.tensor<[M, N], bf16>) attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"], grid = affine_map<()[m, n] -> (1)>} {
  %r = cake.block_id x
  %q = cake.block_id y
  %acc = arith.constant dense<0.0> : vector<8xf32>
  cake.wgmma.store %acc, %c[%r, %q] : vector<8xf32>, !cake.tensor<[M, N], bf16>
  cake.return
}

// -----

// Masked, to f32 (no truncation): the pair's vector store only when both lanes are in bounds and
// the element offset is even (rows of odd length misalign it), else lane by lane.
// CHECK-LABEL: gpu.func @store_masked_f32
// CHECK-SAME: (%[[C:.*]]: !llvm.ptr<1>, %[[M:.*]]: i64, %[[N:.*]]: i64)
// CHECK-NOT: arith.truncf
// CHECK: %[[PAIR:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xf32>
// CHECK: %[[P:.*]] = llvm.getelementptr %[[C]][%[[OFF:.*]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: %[[MI:.*]] = arith.index_cast %[[M]] : i64 to index
// CHECK: %[[ROWOK:.*]] = arith.cmpi ult, %{{.*}}, %[[MI]] : index
// CHECK: %[[ROWIN:.*]] = arith.andi %{{.*}}, %[[ROWOK]] : i1
// CHECK: %[[NI:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[LASTC:.*]] = arith.addi %{{.*}}, %[[ONE]] : index
// CHECK: %[[COLOK:.*]] = arith.cmpi ult, %[[LASTC]], %[[NI]] : index
// CHECK: %[[IN:.*]] = arith.andi %[[ROWIN]], %[[COLOK]] : i1
// CHECK: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK: %[[REM:.*]] = arith.remui %[[OFF]], %[[TWO]] : i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[AL:.*]] = arith.cmpi eq, %[[REM]], %[[ZERO]] : i64
// CHECK: %[[OK:.*]] = arith.andi %[[IN]], %[[AL]] : i1
// CHECK: scf.if %[[OK]] {
// CHECK-NEXT: llvm.store %[[PAIR]], %[[P]] {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
// CHECK-NEXT: } else {
// CHECK: scf.if
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK: scf.if
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// N = 8: one more pair (rows + 8), with its own alignment check.
// CHECK: arith.remui %{{.*}}, %{{.*}} : i64
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
// CHECK-NOT: arith.remui %{{.*}}, %{{.*}} : i64
// CHECK: gpu.return
cake.kernel @store_masked_f32(%c: !cake.tensor<[M, N], f32>) attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"], grid = affine_map<()[m, n] -> (1)>} {
  %r = cake.block_id x
  %q = cake.block_id y
  %acc = arith.constant dense<0.0> : vector<4xf32>
  cake.wgmma.store %acc, %c[%r, %q] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// f16 destinations are truncated to f16.
// CHECK-LABEL: gpu.func @store_f16
// CHECK-COUNT-16: arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT: arith.truncf
// CHECK: gpu.return
cake.kernel @store_f16(%c: !cake.tensor<[M, N], f16, strides [LD, 1]>) attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "LD"], grid = affine_map<()[m, n, ld] -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : vector<16xf32>
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<16xf32>, !cake.tensor<[M, N], f16, strides [LD, 1]>
  cake.return
}

// -----

// wgmma with A from registers: inline PTX with the A fragment as four b32 registers, B's
// descriptor, and the accumulator tied in and out (scale-d 1); cluster barriers arrive then wait.
// CHECK-LABEL: gpu.func @wgmma_regs
// CHECK: vector.bitcast %{{.*}} : vector<8xbf16> to vector<4xi32>
// CHECK: llvm.inline_asm has_side_effects {{.*}}setp.ne.b32 p, 1, 0;{{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {$0, {{.*}}$31}, {$32, $33, $34, $35}, $36, p, 1, 1, 0;{{.*}}"=f,{{.*}},r,r,r,r,l,0,{{.*}},31"
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK: nvvm.cluster.wait {aligned}
cake.kernel @wgmma_regs() attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2>, grid = affine_map<() -> (2)>} {
  %c0 = arith.constant 0 : index
  %b = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %a = arith.constant dense<1.0> : vector<8xbf16>
  %acc = arith.constant dense<2.0> : vector<32xf32>
  %d = cake.wgmma.regs %a, %b[%c0, %c0], %acc : vector<8xbf16>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
  cake.cluster_barrier
  cake.return
}

// -----

// From a zero accumulator: scale-d 0 (setp.ne.b32 p, 0, 0) and outputs tied to no input.
// CHECK-LABEL: gpu.func @wgmma_regs_from_zero
// CHECK-NOT: vector.extract %{{.*}} : f32 from vector<32xf32>
// CHECK: llvm.inline_asm has_side_effects {{.*}}setp.ne.b32 p, 0, 0;{{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}$31}, {$32, $33, $34, $35}, $36, p, 1, 1, 0;{{.*}}"=f,{{.*}},=f,r,r,r,r,l" {{.*}} : (i32, i32, i32, i32, i64) ->
cake.kernel @wgmma_regs_from_zero() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %b = cake.alloc_smem : !cake.smem<64x64xf16, swizzle = 128>
  %a = arith.constant dense<1.0> : vector<8xf16>
  %acc = arith.constant dense<0.0> : vector<32xf32>
  %d = cake.wgmma.regs %a, %b[%c0, %c0], %acc : vector<8xf16>, !cake.smem<64x64xf16, swizzle = 128>, vector<32xf32>
  cake.wgmma.wait 0
  cake.return
}

// -----

// tf32 (f32 operands, k8): A is four f32 values as b32 registers, and the instruction ends at
// imm-scale-b: tf32 takes no imm-trans-b (ptxas: "Arguments mismatch" with one).
// CHECK-LABEL: gpu.func @wgmma_regs_tf32
// CHECK: vector.bitcast %{{.*}} : vector<4xf32> to vector<4xi32>
// CHECK: llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {$0, {{.*}}$31}, {$32, $33, $34, $35}, $36, p, 1, 1;{{.*}}"=f,{{.*}},r,r,r,r,l,0,{{.*}},31"
cake.kernel @wgmma_regs_tf32() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %b = cake.alloc_smem : !cake.smem<64x32xf32, swizzle = 128>
  %a = arith.constant dense<1.0> : vector<4xf32>
  %acc = arith.constant dense<2.0> : vector<32xf32>
  %d = cake.wgmma.regs %a, %b[%c0, %c0], %acc : vector<4xf32>, !cake.smem<64x32xf32, swizzle = 128>, vector<32xf32>
  cake.wgmma.wait 0
  cake.return
}
