// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-tma -o /dev/null

// tma.coordinate-alignment: a 1-D TMA copy must start 16-byte aligned. On the H200 one at an f32
// offset that is not a multiple of 4 faults with CUDA_ERROR_ILLEGAL_INSTRUCTION
// (bench/results/2026-12-01-library-kmeans). Provably misaligned: an error; unknown: a warning.

cake.kernel @misaligned(%v: !cake.tensor<[L], f32> {cake.name = "v"},
    %tv: !cake.tma<[L], f32, box [256]> {cake.describes = "v"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["L"],
                grid = affine_map<()[l] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c256 = arith.constant 256 : index
  %ldim = cake.problem_size "L"
  %buf = cake.alloc_smem : !cake.smem<256xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t = cake.thread_id x
  %first = arith.cmpi eq, %t, %c0 : index
  scf.if %first {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.for %i = %c0 to %ldim step %c1 {
    %base = arith.muli %i, %c256 : index
    %start = arith.addi %base, %c6 : index
    // expected-error @+2 {{[tma.coordinate-alignment] expected a 1-D copy to start 16-byte aligned (a multiple of 4 elements), got a coordinate that is 2 modulo 4: a misaligned start faults}}
    // expected-note @+1 {{fix: make the coordinate a multiple of 4 (round it down and skip the extra elements, or pad the rows)}}
    cake.tma.load %tv[%start], %buf[], %bar[%c0]
        : !cake.tma<[L], f32, box [256]>, !cake.smem<256xf32>, !cake.mbarriers<1>
  }
  cake.return
}

// -----

// The row pitch is a problem size: only the host knows it is a multiple of 4.
cake.kernel @unknown(%v: !cake.tensor<[L], f32> {cake.name = "v"},
    %tv: !cake.tma<[L], f32, box [256]> {cake.describes = "v"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["L", "P"],
                grid = affine_map<()[l, p] -> (8)>} {
  %c0 = arith.constant 0 : index
  %pitch = cake.problem_size "P"
  %row = cake.block_id x
  %start = arith.muli %row, %pitch : index
  %buf = cake.alloc_smem : !cake.smem<256xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t = cake.thread_id x
  %first = arith.cmpi eq, %t, %c0 : index
  scf.if %first {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  // expected-warning @+2 {{[tma.coordinate-alignment] a 1-D copy must start 16-byte aligned (a multiple of 4 elements) or it faults; nothing shows this coordinate is (the host must guarantee it)}}
  // expected-note @+1 {{fix: make the coordinate a multiple of 4}}
  cake.tma.load %tv[%start], %buf[], %bar[%c0]
      : !cake.tma<[L], f32, box [256]>, !cake.smem<256xf32>, !cake.mbarriers<1>
  cake.return
}

// -----

// Aligned through the loop: lower bound 8, step 4 x 64; fp16 needs multiples of 8.
cake.kernel @aligned(%v: !cake.tensor<[L], f16> {cake.name = "v"},
    %tv: !cake.tma<[L], f16, box [256]> {cake.describes = "v"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["L"],
                grid = affine_map<()[l] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %ldim = cake.problem_size "L"
  %step = arith.muli %c4, %c64 : index
  %buf = cake.alloc_smem : !cake.smem<256xf16>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t = cake.thread_id x
  %first = arith.cmpi eq, %t, %c0 : index
  scf.if %first {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.for %i = %c8 to %ldim step %step {
    cake.tma.load %tv[%i], %buf[], %bar[%c0]
        : !cake.tma<[L], f16, box [256]>, !cake.smem<256xf16>, !cake.mbarriers<1>
  }
  cake.return
}
