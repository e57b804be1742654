// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (pipeline.slot-mismatch), lib/Verify/VerifyPipeline.cpp:302, 326, 336:
//   "index the destination with cake.pipeline.slot %pipe[<the copy's iteration>]" (302)
//   "index the stage with cake.pipeline.slot %pipe[<the waited iteration>]" (336)
//   "index the stage with cake.pipeline.slot of the pipeline that fills the buffer, at the iteration waited for" (326)"
// Kernel 1: a constant destination stage, fixed with %s. Kernel 3: a constant stage read, fixed with
// %s. Kernel 5: the stage of a 3-stage buffer read with the slot of the 2-stage pipeline, fixed
// with cake.pipeline.slot %cpipe[%i]. All honest.

cake.kernel @slot_dest(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
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
            // expected-error @+2 {{'cake.tma.load' op [pipeline.slot-mismatch] expected the destination stage to be the slot of the iteration the copy completes on}}
            // expected-note @+1 {{fix: index the destination with cake.pipeline.slot %pipe[<the copy's iteration>]}}
            cake.tma.load %ta[%c0, %k0], %buf[%c1], %pipe[%i]
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

// -----

cake.kernel @slot_dest_fixed(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
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

// -----

cake.kernel @slot_read(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
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
        // expected-error @+2 {{'cake.load' op [pipeline.slot-mismatch] expected the stage read to be the slot of the iteration waited for, got the constant stage 0}}
        // expected-note @+1 {{fix: index the stage with cake.pipeline.slot %pipe[<the waited iteration>]}}
        %v = cake.load %buf[%c0, %c0, %lane] : !cake.smem<2x64x64xbf16, swizzle = 128> -> bf16
        cake.pipeline.consumer_release %pipe[%i] : !cake.pipeline<2>
      }
    }
  }
  cake.return
}

// -----

cake.kernel @slot_read_fixed(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
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

// -----

cake.kernel @slot_other(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = cake.problem_size "K"
  %xbuf = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
  %cbuf = cake.alloc_smem : !cake.smem<3x64x64xbf16, swizzle = 128>
  %xpipe = cake.pipeline.create consumers 128 : !cake.pipeline<2>
  // expected-note @+1 {{the pipeline (3 stages, 128 consumer arrivals) is created here}}
  %cpipe = cake.pipeline.create consumers 128 : !cake.pipeline<3>
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            cake.pipeline.producer_acquire %xpipe[%i] : !cake.pipeline<2>
            cake.pipeline.producer_commit %xpipe[%i], tx_bytes 8192 : !cake.pipeline<2>
            %xs = cake.pipeline.slot %xpipe[%i] : !cake.pipeline<2>
            %k0 = arith.muli %i, %c64 : index
            cake.tma.load %ta[%c0, %k0], %xbuf[%xs], %xpipe[%i]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.pipeline<2>
            cake.pipeline.producer_acquire %cpipe[%i] : !cake.pipeline<3>
            cake.pipeline.producer_commit %cpipe[%i], tx_bytes 8192 : !cake.pipeline<3>
            %cs = cake.pipeline.slot %cpipe[%i] : !cake.pipeline<3>
            %k1 = arith.muli %i, %c64 : index
            cake.tma.load %ta[%k1, %c0], %cbuf[%cs], %cpipe[%i]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<3x64x64xbf16, swizzle = 128>, !cake.pipeline<3>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        cake.pipeline.consumer_wait %xpipe[%i] : !cake.pipeline<2>
        cake.pipeline.consumer_wait %cpipe[%i] : !cake.pipeline<3>
        // expected-note @+1 {{the slot read is of this pipeline}}
        %xs = cake.pipeline.slot %xpipe[%i] : !cake.pipeline<2>
        %u = cake.load %xbuf[%xs, %c0, %lane] : !cake.smem<2x64x64xbf16, swizzle = 128> -> bf16
        // expected-error @+2 {{'cake.load' op [pipeline.slot-mismatch] expected the stage read to be a slot of the pipeline whose copies fill the buffer, got a slot of another pipeline}}
        // expected-note @+1 {{fix: index the stage with cake.pipeline.slot of the pipeline that fills the buffer, at the iteration waited for}}
        %v = cake.load %cbuf[%xs, %c0, %lane] : !cake.smem<3x64x64xbf16, swizzle = 128> -> bf16
        cake.pipeline.consumer_release %xpipe[%i] : !cake.pipeline<2>
        cake.pipeline.consumer_release %cpipe[%i] : !cake.pipeline<3>
      }
    }
  }
  cake.return
}

// -----

cake.kernel @slot_other_fixed(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = cake.problem_size "K"
  %xbuf = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
  %cbuf = cake.alloc_smem : !cake.smem<3x64x64xbf16, swizzle = 128>
  %xpipe = cake.pipeline.create consumers 128 : !cake.pipeline<2>
  %cpipe = cake.pipeline.create consumers 128 : !cake.pipeline<3>
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            cake.pipeline.producer_acquire %xpipe[%i] : !cake.pipeline<2>
            cake.pipeline.producer_commit %xpipe[%i], tx_bytes 8192 : !cake.pipeline<2>
            %xs = cake.pipeline.slot %xpipe[%i] : !cake.pipeline<2>
            %k0 = arith.muli %i, %c64 : index
            cake.tma.load %ta[%c0, %k0], %xbuf[%xs], %xpipe[%i]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.pipeline<2>
            cake.pipeline.producer_acquire %cpipe[%i] : !cake.pipeline<3>
            cake.pipeline.producer_commit %cpipe[%i], tx_bytes 8192 : !cake.pipeline<3>
            %cs = cake.pipeline.slot %cpipe[%i] : !cake.pipeline<3>
            %k1 = arith.muli %i, %c64 : index
            cake.tma.load %ta[%k1, %c0], %cbuf[%cs], %cpipe[%i]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<3x64x64xbf16, swizzle = 128>, !cake.pipeline<3>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        cake.pipeline.consumer_wait %xpipe[%i] : !cake.pipeline<2>
        cake.pipeline.consumer_wait %cpipe[%i] : !cake.pipeline<3>
        %xs = cake.pipeline.slot %xpipe[%i] : !cake.pipeline<2>
        %u = cake.load %xbuf[%xs, %c0, %lane] : !cake.smem<2x64x64xbf16, swizzle = 128> -> bf16
        %cs = cake.pipeline.slot %cpipe[%i] : !cake.pipeline<3>
        %v = cake.load %cbuf[%cs, %c0, %lane] : !cake.smem<3x64x64xbf16, swizzle = 128> -> bf16
        cake.pipeline.consumer_release %xpipe[%i] : !cake.pipeline<2>
        cake.pipeline.consumer_release %cpipe[%i] : !cake.pipeline<3>
      }
    }
  }
  cake.return
}
