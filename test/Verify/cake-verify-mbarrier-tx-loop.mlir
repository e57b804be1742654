// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-mbarrier -o /dev/null

// mbarrier.tx-bytes: a copy in a loop of constant trip count inside the expect's block lands
// once per trip (a helper's false alarm: the four copies of a 4-trip loop were counted once).

cake.kernel @four_copies(
    %r: !cake.tensor<[M, 256], f32> {cake.name = "r"},
    %tr: !cake.tma<[M, 256], f32, box [64, 64]> {cake.name = "tr", cake.describes = "r"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M"],
                grid = affine_map<()[m] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %buf = cake.alloc_smem : !cake.smem<4x64x64xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.if %one {
    cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 65536 : !cake.mbarriers<1>
    scf.for %h = %c0 to %c4 step %c1 {
      %col = arith.muli %h, %c64 : index
      cake.tma.load %tr[%c0, %col], %buf[%h], %bars[%c0]
          : !cake.tma<[M, 256], f32, box [64, 64]>, !cake.smem<4x64x64xf32>, !cake.mbarriers<1>
    }
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.return
}

// -----

cake.kernel @four_copies_half_announced(
    %r: !cake.tensor<[M, 256], f32> {cake.name = "r"},
    %tr: !cake.tma<[M, 256], f32, box [64, 64]> {cake.name = "tr", cake.describes = "r"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M"],
                grid = affine_map<()[m] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %buf = cake.alloc_smem : !cake.smem<4x64x64xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.if %one {
    // expected-error @+2 {{[mbarrier.tx-bytes] expected the transaction bytes to equal the 65536 bytes of the TMA copies completing on mbarrier 0, got 32768}}
    // expected-note @+1 {{fix: set bytes 65536}}
    cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 32768 : !cake.mbarriers<1>
    scf.for %h = %c0 to %c4 step %c1 {
      %col = arith.muli %h, %c64 : index
      // expected-note @+1 {{copies 65536 bytes}}
      cake.tma.load %tr[%c0, %col], %buf[%h], %bars[%c0]
          : !cake.tma<[M, 256], f32, box [64, 64]>, !cake.smem<4x64x64xf32>, !cake.mbarriers<1>
    }
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.return
}
