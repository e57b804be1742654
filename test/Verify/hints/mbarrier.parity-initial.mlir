// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (mbarrier.parity-initial), lib/Verify/PathSimulation.cpp:796:
//   "wait with parity (use / stages) % 2, starting at 0, on a barrier that publishes data; parity 1
//    first is for a barrier that frees a slot"
// The consumers wait on the full barriers with the producer's inverted parity ((kt / 2) % 2) xor 1.
// Applied literally: parity (kt / 2) % 2 (use kt, stages 2). Honest.

cake.kernel @consumer_parity_inverted(
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
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %buf = cake.alloc_smem : !cake.smem<2x32x32xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<4>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c2], count 128 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c3], count 128 : !cake.mbarriers<4>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %kt = %c0 to %ktiles step %c1 {
          %slot = arith.remui %kt, %c2 : index
          %round = arith.divui %kt, %c2 : index
          %phase = arith.remui %round, %c2 : index
          %free = arith.xori %phase, %c1 : index
          %empty = arith.addi %slot, %c2 : index
          cake.mbarrier.wait %bars[%empty], %free : !cake.mbarriers<4>
          cake.mbarrier.arrive_expect_tx %bars[%slot], bytes 4096 : !cake.mbarriers<4>
          %k0 = arith.muli %kt, %c32 : index
          cake.tma.load %tx[%m0, %k0], %buf[%slot], %bars[%slot]
              : !cake.tma<[M, K], f32, box [32, 32]>, !cake.smem<2x32x32xf32>, !cake.mbarriers<4>
        }
      }
    }
    cake.role "consumer" warps [1, 5) {
      %ctid = arith.subi %tid, %c32 : index
      %row = arith.divui %ctid, %c4 : index
      %quad = arith.remui %ctid, %c4 : index
      %col0 = arith.muli %quad, %c8 : index
      %col1 = arith.addi %col0, %c4 : index
      %lane = cake.lane_id
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
        %slot = arith.remui %kt, %c2 : index
        %round = arith.divui %kt, %c2 : index
        %phase = arith.remui %round, %c2 : index
        %free = arith.xori %phase, %c1 : index
        %empty = arith.addi %slot, %c2 : index
        // expected-error @+2 {{[mbarrier.parity-initial] expected the first wait on barrier 0 to wait for its first phase (parity 0), got parity 1 in thread 32 with M=200,K=200: it passes at once, before the data its phase publishes}}
        // expected-note @+1 {{fix: wait with parity (use / stages) % 2, starting at 0, on a barrier that publishes data; parity 1 first is for a barrier that frees a slot}}
        cake.mbarrier.wait %bars[%slot], %free : !cake.mbarriers<4>
        %v0 = cake.load %buf[%slot, %row, %col0] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v1 = cake.load %buf[%slot, %row, %col1] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v = arith.addf %v0, %v1 : vector<4xf32>
        %part = vector.reduction <add>, %v : vector<4xf32> into f32
        %rsum = cake.warp_reduce sum %part {lanes = 4 : i64} : f32
        cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<4>
        %acc2 = arith.addf %acc, %rsum : f32
        scf.yield %acc2 : f32
      }
      %mrow = arith.addi %m0, %row : index
      %lead = arith.cmpi eq, %quad, %c0 : index
      scf.if %lead {
        cake.store %sum, %out[%mrow] masked : f32, !cake.tensor<[M], f32>
      }
    }
  }
  cake.return
}

// -----

cake.kernel @consumer_parity_inverted_fixed(
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
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %buf = cake.alloc_smem : !cake.smem<2x32x32xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<4>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c2], count 128 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c3], count 128 : !cake.mbarriers<4>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %kt = %c0 to %ktiles step %c1 {
          %slot = arith.remui %kt, %c2 : index
          %round = arith.divui %kt, %c2 : index
          %phase = arith.remui %round, %c2 : index
          %free = arith.xori %phase, %c1 : index
          %empty = arith.addi %slot, %c2 : index
          cake.mbarrier.wait %bars[%empty], %free : !cake.mbarriers<4>
          cake.mbarrier.arrive_expect_tx %bars[%slot], bytes 4096 : !cake.mbarriers<4>
          %k0 = arith.muli %kt, %c32 : index
          cake.tma.load %tx[%m0, %k0], %buf[%slot], %bars[%slot]
              : !cake.tma<[M, K], f32, box [32, 32]>, !cake.smem<2x32x32xf32>, !cake.mbarriers<4>
        }
      }
    }
    cake.role "consumer" warps [1, 5) {
      %ctid = arith.subi %tid, %c32 : index
      %row = arith.divui %ctid, %c4 : index
      %quad = arith.remui %ctid, %c4 : index
      %col0 = arith.muli %quad, %c8 : index
      %col1 = arith.addi %col0, %c4 : index
      %lane = cake.lane_id
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
        %slot = arith.remui %kt, %c2 : index
        %round = arith.divui %kt, %c2 : index
        %phase = arith.remui %round, %c2 : index
        %free = arith.xori %phase, %c1 : index
        %empty = arith.addi %slot, %c2 : index
        cake.mbarrier.wait %bars[%slot], %phase : !cake.mbarriers<4>
        %v0 = cake.load %buf[%slot, %row, %col0] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v1 = cake.load %buf[%slot, %row, %col1] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v = arith.addf %v0, %v1 : vector<4xf32>
        %part = vector.reduction <add>, %v : vector<4xf32> into f32
        %rsum = cake.warp_reduce sum %part {lanes = 4 : i64} : f32
        cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<4>
        %acc2 = arith.addf %acc, %rsum : f32
        scf.yield %acc2 : f32
      }
      %mrow = arith.addi %m0, %row : index
      %lead = arith.cmpi eq, %quad, %c0 : index
      scf.if %lead {
        cake.store %sum, %out[%mrow] masked : f32, !cake.tensor<[M], f32>
      }
    }
  }
  cake.return
}
