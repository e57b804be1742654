// A buggy kernel written in session 35 to check mbarrier.stage-read-race beyond the kernel it was
// written for (ok-ring3-read-waited-slot.mlir with one change), and the finding cake-verify gives.
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: {{.*}}[mbarrier.stage-read-race]
// BUG: the consumer waits on full[kt mod 3] and reads stage (kt + 1) mod 3, a prefetch read of a stage whose copy it has not waited for.
cake.kernel @ring3_rowsum(
    %x: !cake.tensor<[M, K], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, K], f32, box [32, 32]> {cake.name = "tx", cake.describes = "x"},
    %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 160>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %buf = cake.alloc_smem : !cake.smem<3x32x32xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<6>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c2], count 1 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c3], count 4 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c4], count 4 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c5], count 4 : !cake.mbarriers<6>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %kt = %c0 to %ktiles step %c1 {
          %slot = arith.remui %kt, %c3 : index
          %round = arith.divui %kt, %c3 : index
          %empty = arith.addi %slot, %c3 : index
          %refill = arith.cmpi uge, %kt, %c3 : index
          scf.if %refill {
            %prev = arith.subi %round, %c1 : index
            %ep = arith.remui %prev, %c2 : index
            cake.mbarrier.wait %bars[%empty], %ep : !cake.mbarriers<6>
          }
          cake.mbarrier.arrive_expect_tx %bars[%slot], bytes 4096 : !cake.mbarriers<6>
          %k0 = arith.muli %kt, %c32 : index
          cake.tma.load %tx[%m0, %k0], %buf[%slot], %bars[%slot]
              : !cake.tma<[M, K], f32, box [32, 32]>, !cake.smem<3x32x32xf32>, !cake.mbarriers<6>
        }
      }
    }
    cake.role "consumer" warps [1, 5) {
      %ct = arith.subi %tid, %c32 : index
      %row = arith.divui %ct, %c4 : index
      %quad = arith.remui %ct, %c4 : index
      %col0 = arith.muli %quad, %c8 : index
      %col1 = arith.addi %col0, %c4 : index
      %zero = arith.constant 0.0 : f32
      %total = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
        %slot = arith.remui %kt, %c3 : index
        %round = arith.divui %kt, %c3 : index
        %fp = arith.remui %round, %c2 : index
        %empty = arith.addi %slot, %c3 : index
        cake.mbarrier.wait %bars[%slot], %fp : !cake.mbarriers<6>
        %kn1 = arith.addi %kt, %c1 : index
        %rslot = arith.remui %kn1, %c3 : index
        %v0 = cake.load %buf[%rslot, %row, %col0] : !cake.smem<3x32x32xf32> -> vector<4xf32>
        %v1 = cake.load %buf[%rslot, %row, %col1] : !cake.smem<3x32x32xf32> -> vector<4xf32>
        %v = arith.addf %v0, %v1 : vector<4xf32>
        %p = vector.reduction <add>, %v : vector<4xf32> into f32
        %rs = cake.warp_reduce sum %p {lanes = 4 : i64} : f32
        %el = cake.elect_one
        scf.if %el {
          cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<6>
        }
        %acc2 = arith.addf %acc, %rs : f32
        scf.yield %acc2 : f32
      }
      %mrow = arith.addi %m0, %row : index
      %lead = arith.cmpi eq, %quad, %c0 : index
      scf.if %lead {
        cake.store %total, %out[%mrow] masked : f32, !cake.tensor<[M], f32>
      }
    }
  }
  cake.return
}
