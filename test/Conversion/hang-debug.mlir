// RUN: cake-opt %s --cake-convert-to-nvvm="hang-timeout-ms=250" | FileCheck %s
// RUN: cake-opt %s --cake-convert-to-nvvm | FileCheck %s --check-prefix=OFF
// RUN: cake-translate %s --emit=manifest --hang-timeout-ms=250 | FileCheck %s --check-prefix=MANIFEST
// RUN: cake-translate %s --emit=manifest | FileCheck %s --check-prefix=MANIFEST-OFF
// RUN: cake-translate %s --emit=ptx --hang-timeout-ms=250 | FileCheck %s --check-prefix=PTX

// The debug lowering against hangs: each mbarrier wait becomes a try_wait loop bounded by
// %globaltimer; on expiry one thread claims the report, writes {site, block, thread, parity,
// timeout} and the magic 0xCA4E4A6E (last) to the host-mapped buffer, and traps. Around a block
// barrier (no bounded form), lane 0 of each warp marks {site + 1, block} in its warp's slot of
// the table 4096 bytes into the buffer, and clears it once through.

// CHECK: llvm.mlir.global external @__cake_hang_report(0 : i64) {addr_space = 1 : i32
// CHECK: llvm.mlir.global external @__cake_hang_claim(0 : i32) {addr_space = 1 : i32
// CHECK-LABEL: gpu.func @waits
// The barrier is site 0: marked (site + 1 = 1) before, cleared after.
// CHECK: %[[BUF:.*]] = llvm.load volatile {{.*}} : !llvm.ptr<1> -> i64
// CHECK: nvvm.read.ptx.sreg.laneid
// CHECK: scf.if
// CHECK: %[[SM:.*]] = nvvm.read.ptx.sreg.smid : i32
// CHECK: arith.muli %[[SM]], %c64_i32
// CHECK: nvvm.read.ptx.sreg.warpid : i32
// CHECK: %[[C4096:.*]] = arith.constant 4096 : i64
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: llvm.store volatile %[[ONE]]
// CHECK-NEXT: "fence.sc.sys;"
// CHECK: gpu.barrier
// CHECK: nvvm.read.ptx.sreg.smid
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: llvm.store volatile %[[ZERO]]
// CHECK: %[[START:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: scf.while
// CHECK: llvm.inline_asm has_side_effects "{{.*}}mbarrier.try_wait.parity.shared::cta.b64 p, [$1], $2;
// CHECK: %[[NOW:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: arith.subi %[[NOW]], %[[START]] : i64
// CHECK: llvm.cmpxchg {{.*}} acq_rel monotonic : !llvm.ptr<1>, i32
// CHECK: llvm.load volatile {{.*}} : !llvm.ptr<1> -> i64
// Site 1, the first mbarrier wait in pre-order.
// CHECK: %[[SITE:.*]] = arith.constant 1 : i32
// CHECK: llvm.store volatile %[[SITE]]
// CHECK: %[[TIMEOUT:.*]] = arith.constant 250 : i32
// CHECK: llvm.store volatile %[[TIMEOUT]]
// CHECK: "fence.sc.sys;"
// CHECK: %[[MAGIC:.*]] = arith.constant -900838802 : i32
// CHECK: llvm.store volatile %[[MAGIC]]
// CHECK: "trap;"
// CHECK: "nanosleep.u32 1000000;"
// The pipeline waits are sites 2 (producer_acquire) and 3 (consumer_wait).
// CHECK: arith.constant 2 : i32
// CHECK: "trap;"
// CHECK: arith.constant 3 : i32
// CHECK: "trap;"

// OFF-NOT: __cake_hang
// OFF-NOT: globaltimer
// OFF: nvvm.mbarrier.try_wait.parity

// MANIFEST: "hang_debug": {
// MANIFEST-NEXT: "sites": [
// MANIFEST: "id": 0,
// MANIFEST-NEXT: "loc": "{{.*}}hang-debug.mlir:[[@LINE+33]]:3",
// MANIFEST-NEXT: "op": "cake.barrier",
// MANIFEST-NEXT: "role": null
// MANIFEST: "id": 1,
// MANIFEST-NEXT: "loc": "{{.*}}hang-debug.mlir:[[@LINE+31]]:3",
// MANIFEST-NEXT: "op": "cake.mbarrier.wait",
// MANIFEST-NEXT: "role": null
// MANIFEST: "id": 2,
// MANIFEST-NEXT: "loc": "{{.*}}hang-debug.mlir:[[@LINE+31]]:7",
// MANIFEST-NEXT: "op": "cake.pipeline.producer_acquire",
// MANIFEST-NEXT: "role": "producer"
// MANIFEST: "id": 3,
// MANIFEST-NEXT: "loc": "{{.*}}hang-debug.mlir:[[@LINE+31]]:7",
// MANIFEST-NEXT: "op": "cake.pipeline.consumer_wait",
// MANIFEST-NEXT: "role": "consumer"
// MANIFEST: "timeout_ms": 250

// MANIFEST-OFF-NOT: hang_debug

// PTX: .visible .global .align 8 .u64 __cake_hang_report;
// PTX: .visible .global .align 4 .u32 __cake_hang_claim;
// PTX: mov.u64 {{.*}}, %globaltimer;
// PTX: trap;

cake.kernel @waits() attributes {target = "sm_90a", block = array<i64: 256>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %first = arith.cmpi eq, %tid, %c0 : index
  scf.if %first {
    cake.mbarrier.init %bars[%c0], count 256 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  %pipe = cake.pipeline.create consumers 128 : !cake.pipeline<2>
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      cake.pipeline.producer_acquire %pipe[%c0] : !cake.pipeline<2>
      cake.pipeline.producer_commit %pipe[%c0], tx_bytes 16 : !cake.pipeline<2>
    }
    cake.role "consumer" warps [4, 8) {
      cake.pipeline.consumer_wait %pipe[%c0] : !cake.pipeline<2>
      cake.pipeline.consumer_release %pipe[%c0] : !cake.pipeline<2>
    }
  }
  cake.return
}
