// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (wgmma.accumulator-in-flight), lib/Verify/VerifyWgmma.cpp:387:
//   "add cake.wgmma.wait 0 before this read (after the loop, when the loop's wait keeps the last
//    group in flight)"
// Kernel: bench/verify-corpus/buggy/async-proxy/gemm_wait1_no_final_wait.mlir. Applied literally:
// cake.wgmma.wait 0 after the k loop, before cake.wgmma.store. Honest.

cake.kernel @gemm_wait1_no_final_wait(
    %a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
    %ta: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"},
    %b: !cake.tensor<[N, K], bf16> {cake.name = "b"},
    %tb: !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128> {cake.name = "tb", cake.describes = "b"},
    %c: !cake.tensor<[M, N], bf16> {cake.name = "c"})
    attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (n ceildiv 128, m ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c64 : index
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c128 : index
  %n0 = arith.muli %bn, %c128 : index
  %abuf = cake.alloc_smem : !cake.smem<4x128x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<4x128x64xbf16, swizzle = 128>
  %pipe = cake.pipeline.create consumers 2 : !cake.pipeline<4>
  cake.warp_roles {
    cake.role "tma" warps [0, 4) regs 40 {
      %w = cake.warp_id
      %w0 = arith.cmpi eq, %w, %c0 : index
      scf.if %w0 {
        %e = cake.elect_one
        scf.if %e {
          scf.for %kt = %c0 to %ktiles step %c1 {
            cake.pipeline.producer_acquire %pipe[%kt] : !cake.pipeline<4>
            cake.pipeline.producer_commit %pipe[%kt], tx_bytes 32768 : !cake.pipeline<4>
            %slot = cake.pipeline.slot %pipe[%kt] : !cake.pipeline<4>
            %k0 = arith.muli %kt, %c64 : index
            cake.tma.load %ta[%m0, %k0], %abuf[%slot], %pipe[%kt]
                : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>, !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.pipeline<4>
            cake.tma.load %tb[%n0, %k0], %bbuf[%slot], %pipe[%kt]
                : !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128>, !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.pipeline<4>
          }
        }
      }
    }
    cake.role "mma" warps [4, 12) regs 232 {
      %wg = cake.warpgroup_id
      %wgm = arith.subi %wg, %c1 : index
      %r0 = arith.muli %wgm, %c64 : index
      %tid = cake.thread_id x
      %t128 = arith.remui %tid, %c128 : index
      %wg_leader = arith.cmpi eq, %t128, %c0 : index
      %zero = arith.constant dense<0.0> : vector<64xf32>
      // expected-note @+1 {{the accumulator comes from here}}
      %acc = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%a0 = %zero) -> (vector<64xf32>) {
        cake.pipeline.consumer_wait %pipe[%kt] : !cake.pipeline<4>
        %slot = cake.pipeline.slot %pipe[%kt] : !cake.pipeline<4>
        cake.wgmma.fence
        %a1 = cake.wgmma %abuf[%slot, %r0, %c0], %bbuf[%slot, %c0, %c0], %a0
            : !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.smem<4x128x64xbf16, swizzle = 128>, vector<64xf32>
        %a2 = cake.wgmma %abuf[%slot, %r0, %c16], %bbuf[%slot, %c0, %c16], %a1
            : !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.smem<4x128x64xbf16, swizzle = 128>, vector<64xf32>
        %a3 = cake.wgmma %abuf[%slot, %r0, %c32], %bbuf[%slot, %c0, %c32], %a2
            : !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.smem<4x128x64xbf16, swizzle = 128>, vector<64xf32>
        %a4 = cake.wgmma %abuf[%slot, %r0, %c48], %bbuf[%slot, %c0, %c48], %a3
            : !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.smem<4x128x64xbf16, swizzle = 128>, vector<64xf32>
        cake.wgmma.commit
        // expected-note @+1 {{this wait (pending 1) does not retire the accumulator's group on every path to the read}}
        cake.wgmma.wait 1
        %has_prev = arith.cmpi ugt, %kt, %c0 : index
        %rel = arith.andi %has_prev, %wg_leader : i1
        scf.if %rel {
          %prev = arith.subi %kt, %c1 : index
          cake.pipeline.consumer_release %pipe[%prev] : !cake.pipeline<4>
        }
        scf.yield %a4 : vector<64xf32>
      }
      %mrow = arith.addi %m0, %r0 : index
      // expected-error @+2 {{'cake.wgmma.store' op [wgmma.accumulator-in-flight] reads wgmma accumulator registers while the group writing them may be in flight: expected a cake.wgmma.wait that retires it before this read}}
      // expected-note @+1 {{fix: add cake.wgmma.wait 0 before this read (after the loop, when the loop's wait keeps the last group in flight)}}
      cake.wgmma.store %acc, %c[%mrow, %n0] masked : vector<64xf32>, !cake.tensor<[M, N], bf16>
    }
  }
  cake.return
}

// -----

cake.kernel @gemm_wait1_no_final_wait_fixed(
    %a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
    %ta: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"},
    %b: !cake.tensor<[N, K], bf16> {cake.name = "b"},
    %tb: !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128> {cake.name = "tb", cake.describes = "b"},
    %c: !cake.tensor<[M, N], bf16> {cake.name = "c"})
    attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (n ceildiv 128, m ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c64 : index
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c128 : index
  %n0 = arith.muli %bn, %c128 : index
  %abuf = cake.alloc_smem : !cake.smem<4x128x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<4x128x64xbf16, swizzle = 128>
  %pipe = cake.pipeline.create consumers 2 : !cake.pipeline<4>
  cake.warp_roles {
    cake.role "tma" warps [0, 4) regs 40 {
      %w = cake.warp_id
      %w0 = arith.cmpi eq, %w, %c0 : index
      scf.if %w0 {
        %e = cake.elect_one
        scf.if %e {
          scf.for %kt = %c0 to %ktiles step %c1 {
            cake.pipeline.producer_acquire %pipe[%kt] : !cake.pipeline<4>
            cake.pipeline.producer_commit %pipe[%kt], tx_bytes 32768 : !cake.pipeline<4>
            %slot = cake.pipeline.slot %pipe[%kt] : !cake.pipeline<4>
            %k0 = arith.muli %kt, %c64 : index
            cake.tma.load %ta[%m0, %k0], %abuf[%slot], %pipe[%kt]
                : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>, !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.pipeline<4>
            cake.tma.load %tb[%n0, %k0], %bbuf[%slot], %pipe[%kt]
                : !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128>, !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.pipeline<4>
          }
        }
      }
    }
    cake.role "mma" warps [4, 12) regs 232 {
      %wg = cake.warpgroup_id
      %wgm = arith.subi %wg, %c1 : index
      %r0 = arith.muli %wgm, %c64 : index
      %tid = cake.thread_id x
      %t128 = arith.remui %tid, %c128 : index
      %wg_leader = arith.cmpi eq, %t128, %c0 : index
      %zero = arith.constant dense<0.0> : vector<64xf32>
      %acc = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%a0 = %zero) -> (vector<64xf32>) {
        cake.pipeline.consumer_wait %pipe[%kt] : !cake.pipeline<4>
        %slot = cake.pipeline.slot %pipe[%kt] : !cake.pipeline<4>
        cake.wgmma.fence
        %a1 = cake.wgmma %abuf[%slot, %r0, %c0], %bbuf[%slot, %c0, %c0], %a0
            : !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.smem<4x128x64xbf16, swizzle = 128>, vector<64xf32>
        %a2 = cake.wgmma %abuf[%slot, %r0, %c16], %bbuf[%slot, %c0, %c16], %a1
            : !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.smem<4x128x64xbf16, swizzle = 128>, vector<64xf32>
        %a3 = cake.wgmma %abuf[%slot, %r0, %c32], %bbuf[%slot, %c0, %c32], %a2
            : !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.smem<4x128x64xbf16, swizzle = 128>, vector<64xf32>
        %a4 = cake.wgmma %abuf[%slot, %r0, %c48], %bbuf[%slot, %c0, %c48], %a3
            : !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.smem<4x128x64xbf16, swizzle = 128>, vector<64xf32>
        cake.wgmma.commit
        cake.wgmma.wait 1
        %has_prev = arith.cmpi ugt, %kt, %c0 : index
        %rel = arith.andi %has_prev, %wg_leader : i1
        scf.if %rel {
          %prev = arith.subi %kt, %c1 : index
          cake.pipeline.consumer_release %pipe[%prev] : !cake.pipeline<4>
        }
        scf.yield %a4 : vector<64xf32>
      }
      cake.wgmma.wait 0
      %mrow = arith.addi %m0, %r0 : index
      cake.wgmma.store %acc, %c[%mrow, %n0] masked : vector<64xf32>, !cake.tensor<[M, N], bf16>
    }
  }
  cake.return
}
