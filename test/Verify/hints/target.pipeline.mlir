// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (target.pipeline), lib/Verify/VerifyTarget.cpp (the report lambda):
//   "set target = \"sm_90\" on @<kernel>, or use an op that sm_80 has"
// The kernel: a two-stage TMA pipeline on sm_80 (every Hopper op of it is a finding; one hint
// fixes all). Applied literally (first option): target = "sm_90". The ops mean the same there; the
// kernel computes the same. Honest. (The second option names no op: on sm_80 there is none with
// this meaning.)

// expected-error @+3 {{'cake.kernel' op [target.tma] expected a target with TMA (sm_90, sm_90a, sm_100a), got sm_80}}
// expected-note @+2 {{the kernel's target is set here}}
// expected-note @+1 {{fix: set target = "sm_90" on @pipelined_rows, or use an op that sm_80 has}}
cake.kernel @pipelined_rows(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_80", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
  // expected-error @+2 {{'cake.pipeline.create' op [target.pipeline] expected a target with TMA pipelines (mbarrier transaction counts) (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @pipelined_rows, or use an op that sm_80 has}}
  %pipe = cake.pipeline.create consumers 128 : !cake.pipeline<2>
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        // expected-error @+2 {{'cake.elect_one' op [target.elect] expected a target with elect.sync (sm_90, sm_90a, sm_100a), got sm_80}}
        // expected-note @+1 {{fix: set target = "sm_90" on @pipelined_rows, or use an op that sm_80 has}}
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            // expected-error @+2 {{'cake.pipeline.producer_acquire' op [target.pipeline] expected a target with TMA pipelines (mbarrier transaction counts) (sm_90, sm_90a, sm_100a), got sm_80}}
            // expected-note @+1 {{fix: set target = "sm_90" on @pipelined_rows, or use an op that sm_80 has}}
            cake.pipeline.producer_acquire %pipe[%i] : !cake.pipeline<2>
            // expected-error @+2 {{'cake.pipeline.producer_commit' op [target.pipeline] expected a target with TMA pipelines (mbarrier transaction counts) (sm_90, sm_90a, sm_100a), got sm_80}}
            // expected-note @+1 {{fix: set target = "sm_90" on @pipelined_rows, or use an op that sm_80 has}}
            cake.pipeline.producer_commit %pipe[%i], tx_bytes 8192 : !cake.pipeline<2>
            %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
            %k0 = arith.muli %i, %c64 : index
            // expected-error @+2 {{'cake.tma.load' op [target.tma] expected a target with TMA (sm_90, sm_90a, sm_100a), got sm_80}}
            // expected-note @+1 {{fix: set target = "sm_90" on @pipelined_rows, or use an op that sm_80 has}}
            cake.tma.load %ta[%c0, %k0], %buf[%s], %pipe[%i]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.pipeline<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+2 {{'cake.pipeline.consumer_wait' op [target.pipeline] expected a target with TMA pipelines (mbarrier transaction counts) (sm_90, sm_90a, sm_100a), got sm_80}}
        // expected-note @+1 {{fix: set target = "sm_90" on @pipelined_rows, or use an op that sm_80 has}}
        cake.pipeline.consumer_wait %pipe[%i] : !cake.pipeline<2>
        %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
        %v = cake.load %buf[%s, %c0, %lane] : !cake.smem<2x64x64xbf16, swizzle = 128> -> bf16
        // expected-error @+2 {{'cake.pipeline.consumer_release' op [target.pipeline] expected a target with TMA pipelines (mbarrier transaction counts) (sm_90, sm_90a, sm_100a), got sm_80}}
        // expected-note @+1 {{fix: set target = "sm_90" on @pipelined_rows, or use an op that sm_80 has}}
        cake.pipeline.consumer_release %pipe[%i] : !cake.pipeline<2>
      }
    }
  }
  cake.return
}

// -----

cake.kernel @pipelined_rows(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
  %pipe = cake.pipeline.create consumers 128 : !cake.pipeline<2>
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            cake.pipeline.producer_acquire %pipe[%i] : !cake.pipeline<2>
            cake.pipeline.producer_commit %pipe[%i], tx_bytes 8192 : !cake.pipeline<2>
            %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
            %k0 = arith.muli %i, %c64 : index
            cake.tma.load %ta[%c0, %k0], %buf[%s], %pipe[%i]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.pipeline<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        cake.pipeline.consumer_wait %pipe[%i] : !cake.pipeline<2>
        %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
        %v = cake.load %buf[%s, %c0, %lane] : !cake.smem<2x64x64xbf16, swizzle = 128> -> bf16
        cake.pipeline.consumer_release %pipe[%i] : !cake.pipeline<2>
      }
    }
  }
  cake.return
}
