// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (race.cross-role), lib/Verify/VerifyRaces.cpp:984:
//   "after the write, arrive on an mbarrier (a TMA copy: complete on it) and wait on it in role
//    'reader' before this read; or pass the buffer through a cake.pipeline"
// The kernel (@roles_unsynchronized of cake-verify-races.mlir): role 'writer' stores, role
// 'reader' loads, nothing between. Applied (first option, = @roles_mbarrier): an mbarrier
// initialised to the writer's 128 threads (init, fence, block barrier before the roles), arrive
// after the stores, wait (parity 0) before the load. Honest; the hint leaves the barrier's
// allocation and init count implicit (the mbarrier.* rules then ask for them).

cake.kernel @roles_unsynchronized(%out: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %one = arith.constant 1.0 : f32
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "writer" warps [0, 4) {
      // expected-note @+1 {{the write in role 'writer' (warps [0, 4)) is here}}
      cake.store %one, %buf[%tid] : f32, !cake.smem<128xf32>
    }
    cake.role "reader" warps [4, 8) {
      %c128 = arith.constant 128 : index
      %i = arith.subi %tid, %c128 : index
      // expected-error @+2 {{'cake.load' op [race.cross-role] expected synchronization between role 'writer' (warps [0, 4)) and role 'reader' (warps [4, 8)) on this shared memory: thread 128 reads element [0] here and thread 0 writes it, with no mbarrier arrival (or named barrier) after one access that the other role waits for before the other}}
      // expected-note @+1 {{fix: after the write, arrive on an mbarrier (a TMA copy: complete on it) and wait on it in role 'reader' before this read; or pass the buffer through a cake.pipeline}}
      %v = cake.load %buf[%i] : !cake.smem<128xf32> -> f32
      cake.store %v, %out[%i] masked : f32, !cake.tensor<[N], f32>
    }
  }
  cake.return
}

// -----

cake.kernel @roles_mbarrier(%out: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 128 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "writer" warps [0, 4) {
      cake.store %one, %buf[%tid] : f32, !cake.smem<128xf32>
      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
    }
    cake.role "reader" warps [4, 8) {
      %c128 = arith.constant 128 : index
      %i = arith.subi %tid, %c128 : index
      cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
      %v = cake.load %buf[%i] : !cake.smem<128xf32> -> f32
      cake.store %v, %out[%i] masked : f32, !cake.tensor<[N], f32>
    }
  }
  cake.return
}
