// RUN: cake-opt %s | cake-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: cake-opt %s --cake-lower-to-nvvm | FileCheck %s --check-prefix=LLVM
// RUN: cake-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: cake-opt %s --cake-verify -o /dev/null
// RUN: cake-opt %s --cake-print-cost -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST

// cake.atomic_fetch_add and cake.fence: the last of a grid's blocks finds out that it is last
// and reads what every other block wrote (a split-K merge finished by the last block, a state
// handed from block to block). Every thread writes its value, makes it visible to the device
// (fence gpu) and the block meets at a barrier; then one thread counts the block in with an acq_rel
// fetch-add; the block that read P - 1 sums all the parts and puts the counter back to 0 for the
// next launch. A shared-memory fetch-add hands out slots within the block.
// ROUNDTRIP: cake.fence gpu
// ROUNDTRIP: %{{.*}} = cake.atomic_fetch_add %{{.*}}, %{{.*}}[%{{.*}}] acq_rel : !cake.tensor<[1], i32>
// ROUNDTRIP: %{{.*}} = cake.atomic_fetch_add %{{.*}}, %{{.*}}[%{{.*}}] : !cake.smem<1xi32>
// ROUNDTRIP: cake.fence cta
// The ordering is built from fences around a relaxed atomic (the NVPTX backend drops an
// atomicrmw's own ordering): device scope for global memory, block scope for shared memory.
// LLVM: llvm.fence syncscope("device") acq_rel
// LLVM: llvm.fence syncscope("device") acq_rel
// LLVM-NEXT: %{{.*}} = llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, i32
// LLVM-NEXT: llvm.fence syncscope("device") acq_rel
// LLVM: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr<3>, i32
// LLVM: llvm.fence syncscope("block") acq_rel
// PTX: fence.acq_rel.gpu
// PTX: atom.global.add.u32
// PTX: fence.acq_rel.gpu
// PTX: atom.shared.add.u32
// PTX: fence.acq_rel.cta
// COST: last_block_sum

cake.kernel @last_block_sum(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                            %parts: !cake.tensor<[N], f32> {cake.name = "parts"},
                            %count: !cake.tensor<[1], i32> {cake.name = "count"},
                            %total: !cake.tensor<[1], f32> {cake.name = "total"},
                            %order: !cake.tensor<[N], i32> {cake.name = "order"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %fzero = arith.constant 0.0 : f32
  %tid = cake.thread_id x
  %bx = cake.block_id x
  %base = arith.muli %bx, %c32 : index
  %i = arith.addi %base, %tid : index
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %parts[%i] masked : f32, !cake.tensor<[N], f32>
  cake.fence gpu
  cake.barrier
  %flag = cake.alloc_smem : !cake.smem<1xi32>
  %first = arith.cmpi eq, %tid, %c0 : index
  scf.if %first {
    %old = cake.atomic_fetch_add %one, %count[%c0] acq_rel : !cake.tensor<[1], i32>
    cake.store %old, %flag[%c0] : i32, !cake.smem<1xi32>
  }
  cake.barrier
  %arrived = cake.load %flag[%c0] : !cake.smem<1xi32> -> i32
  %n = cake.problem_size "N"
  %blocks = arith.ceildivui %n, %c32 : index
  %lastIndex = arith.subi %blocks, %c1 : index
  %last = arith.index_cast %lastIndex : index to i32
  %isLast = arith.cmpi eq, %arrived, %last : i32
  %lastFirst = arith.andi %isLast, %first : i1
  scf.if %lastFirst {
    cake.fence gpu
    %sum = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %fzero) -> (f32) {
      %p = cake.load %parts[%j] : !cake.tensor<[N], f32> -> f32
      %next = arith.addf %acc, %p : f32
      scf.yield %next : f32
    }
    cake.store %sum, %total[%c0] : f32, !cake.tensor<[1], f32>
    cake.store %zero, %count[%c0] : i32, !cake.tensor<[1], i32>
  }
  // Slots handed out in the block: each thread learns its arrival order.
  %slots = cake.alloc_smem : !cake.smem<1xi32>
  scf.if %first {
    cake.store %zero, %slots[%c0] : i32, !cake.smem<1xi32>
  }
  cake.barrier
  %slot = cake.atomic_fetch_add %one, %slots[%c0] : !cake.smem<1xi32>
  cake.fence cta
  cake.store %slot, %order[%i] masked : i32, !cake.tensor<[N], i32>
  cake.return
}
