// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (pipeline.stage-count), lib/Verify/VerifyPipeline.cpp:291 and :310:
//   "give the buffer a leading dimension of 3 or the pipeline 2 stages" (310)
//   "give the buffer a leading dimension of 2 and index it with cake.pipeline.slot" (291)
// Kernel 1: a 3-stage pipeline over a 2-stage buffer; fixed with a 3x64x64 buffer. Kernel 3: a
// single-stage buffer under a 2-stage pipeline; fixed with a 2x64x64 buffer indexed by
// cake.pipeline.slot in the copy and the read. Both honest.

cake.kernel @stage_count(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
  // expected-note @+1 {{the pipeline (3 stages, 128 consumer arrivals) is created here}}
  %pipe = cake.pipeline.create consumers 128 : !cake.pipeline<3>
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            cake.pipeline.producer_acquire %pipe[%i] : !cake.pipeline<3>
            cake.pipeline.producer_commit %pipe[%i], tx_bytes 8192 : !cake.pipeline<3>
            %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<3>
            %k0 = arith.muli %i, %c64 : index
            // expected-error @+2 {{'cake.tma.load' op [pipeline.stage-count] expected the destination's stage dimension to hold 3 stages, got 2}}
            // expected-note @+1 {{fix: give the buffer a leading dimension of 3 or the pipeline 2 stages}}
            cake.tma.load %ta[%c0, %k0], %buf[%s], %pipe[%i]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.pipeline<3>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        cake.pipeline.consumer_wait %pipe[%i] : !cake.pipeline<3>
        %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<3>
        %v = cake.load %buf[%s, %c0, %lane] : !cake.smem<2x64x64xbf16, swizzle = 128> -> bf16
        cake.pipeline.consumer_release %pipe[%i] : !cake.pipeline<3>
      }
    }
  }
  cake.return
}

// -----

cake.kernel @stage_count_fixed(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<3x64x64xbf16, swizzle = 128>
  %pipe = cake.pipeline.create consumers 128 : !cake.pipeline<3>
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            cake.pipeline.producer_acquire %pipe[%i] : !cake.pipeline<3>
            cake.pipeline.producer_commit %pipe[%i], tx_bytes 8192 : !cake.pipeline<3>
            %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<3>
            %k0 = arith.muli %i, %c64 : index
            cake.tma.load %ta[%c0, %k0], %buf[%s], %pipe[%i]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<3x64x64xbf16, swizzle = 128>, !cake.pipeline<3>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        cake.pipeline.consumer_wait %pipe[%i] : !cake.pipeline<3>
        %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<3>
        %v = cake.load %buf[%s, %c0, %lane] : !cake.smem<3x64x64xbf16, swizzle = 128> -> bf16
        cake.pipeline.consumer_release %pipe[%i] : !cake.pipeline<3>
      }
    }
  }
  cake.return
}

// -----

cake.kernel @single_stage(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  // expected-note @+1 {{the pipeline (2 stages, 128 consumer arrivals) is created here}}
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
            // expected-error @+2 {{'cake.tma.load' op [pipeline.stage-count] expected the destination to have a stage dimension of 2 (the pipeline's stages), got a single-stage buffer}}
            // expected-note @+1 {{fix: give the buffer a leading dimension of 2 and index it with cake.pipeline.slot}}
            cake.tma.load %ta[%c0, %k0], %buf[], %pipe[%i]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.pipeline<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        cake.pipeline.consumer_wait %pipe[%i] : !cake.pipeline<2>
        %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
        // expected-error @+2 {{'cake.load' op [pipeline.slot-mismatch] expected the stage read to be the slot of the iteration waited for, got the constant stage 0}}
        // expected-note @+1 {{fix: index the stage with cake.pipeline.slot %pipe[<the waited iteration>]}}
        %v = cake.load %buf[%c0, %lane] : !cake.smem<64x64xbf16, swizzle = 128> -> bf16
        cake.pipeline.consumer_release %pipe[%i] : !cake.pipeline<2>
      }
    }
  }
  cake.return
}

// -----

cake.kernel @single_stage_fixed(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
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
