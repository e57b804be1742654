// Written for session 36's second probe of the verifier (a correct, unusual kernel): no finding (a false
// alarm here is a regression).
// RUN: cake-opt %s --cake-verify -o /dev/null
// CORRECT: single-slot producer/consumer hand-off over plain (non-TMA) mbarriers, block 96: full counts the 64 producer threads, empty the 32 consumer threads; the consumer waits full with parity kt%2, the producer skips the empty wait for kt = 0 and otherwise waits parity (kt-1)%2, i.e. for the consumer's release of tile kt-1 before overwriting the single slot.
cake.kernel @handoff(%x: !cake.tensor<[T, 64], f32> {cake.name = "x"},
                     %out: !cake.tensor<[32], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 96>, symbols = ["T"],
                grid = affine_map<()[t] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %tiles = cake.problem_size "T"
  %tid = cake.thread_id x
  %buf = cake.alloc_smem : !cake.smem<64xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 64 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 32 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 2) {
      scf.for %kt = %c0 to %tiles step %c1 {
        %refill = arith.cmpi uge, %kt, %c1 : index
        scf.if %refill {
          %prev = arith.subi %kt, %c1 : index
          %ep = arith.remui %prev, %c2 : index
          cake.mbarrier.wait %bars[%c1], %ep : !cake.mbarriers<2>
        }
        %v = cake.load %x[%kt, %tid] masked : !cake.tensor<[T, 64], f32> -> f32
        cake.store %v, %buf[%tid] : f32, !cake.smem<64xf32>
        cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<2>
      }
    }
    cake.role "consumer" warps [2, 3) {
      %lane = arith.subi %tid, %c64 : index
      %hi = arith.addi %lane, %c32 : index
      %tot = scf.for %kt = %c0 to %tiles step %c1 iter_args(%acc = %zero) -> (f32) {
        %fp = arith.remui %kt, %c2 : index
        cake.mbarrier.wait %bars[%c0], %fp : !cake.mbarriers<2>
        %a = cake.load %buf[%lane] : !cake.smem<64xf32> -> f32
        %b = cake.load %buf[%hi] : !cake.smem<64xf32> -> f32
        %ab = arith.addf %a, %b : f32
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
        %acc2 = arith.addf %acc, %ab : f32
        scf.yield %acc2 : f32
      }
      cake.store %tot, %out[%lane] masked : f32, !cake.tensor<[32], f32>
    }
  }
  cake.return
}
