// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-pipeline -o /dev/null

// cake-verify-pipeline: the producer acquires, commits the bytes of its copies and fills the
// iteration's stage; consumers wait, read the stage and release it after the last read.

// Valid: acquire, commit and copy in the producer; wait, read, release in the consumers.
cake.kernel @valid(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
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

// The commit announces half the bytes of the copy.
cake.kernel @tx_bytes(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
            // expected-error @+2 {{[pipeline.tx-bytes] expected tx_bytes to equal the 8192 bytes of the TMA copies into this iteration's stage, got 4096}}
            // expected-note @+1 {{fix: set tx_bytes 8192}}
            cake.pipeline.producer_commit %pipe[%i], tx_bytes 4096 : !cake.pipeline<2>
            %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
            // expected-note @+1 {{copies 8192 bytes}}
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
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

// A ragged last tile announced apart, under a condition: TMA still delivers the whole box
// (zero-filled past the tensor), so the short announcement is wrong (the copies it announces are
// found around the scf.if).
cake.kernel @tx_bytes_ragged_tail(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
            %last = arith.subi %n, %c1 : index
            %tail = arith.cmpi eq, %i, %last : index
            scf.if %tail {
              // expected-error @+2 {{[pipeline.tx-bytes] expected tx_bytes to equal the 8192 bytes of the TMA copies into this iteration's stage, got 4096}}
              // expected-note @+1 {{fix: set tx_bytes 8192}}
              cake.pipeline.producer_commit %pipe[%i], tx_bytes 4096 : !cake.pipeline<2>
            } else {
              cake.pipeline.producer_commit %pipe[%i], tx_bytes 8192 : !cake.pipeline<2>
            }
            %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
            // expected-note @+1 {{copies 8192 bytes}}
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
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

// Valid: the same branches both announcing the whole box.
cake.kernel @tx_bytes_in_branches_ok(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
            %last = arith.subi %n, %c1 : index
            %tail = arith.cmpi eq, %i, %last : index
            scf.if %tail {
              cake.pipeline.producer_commit %pipe[%i], tx_bytes 8192 : !cake.pipeline<2>
            } else {
              cake.pipeline.producer_commit %pipe[%i], tx_bytes 8192 : !cake.pipeline<2>
            }
            %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
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

// No commit: the copy completes on a full barrier nobody expects bytes on.
cake.kernel @commit_missing(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
            %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
            // expected-error @+2 {{[pipeline.commit-missing] expected a cake.pipeline.producer_commit of this iteration announcing the copy's bytes}}
            // expected-note @+1 {{fix: before the copies: cake.pipeline.producer_commit %pipe[%it], tx_bytes <bytes of this iteration's copies>}}
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
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

// No acquire: the copy overwrites a stage the consumers may still read.
cake.kernel @acquire_missing(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
            cake.pipeline.producer_commit %pipe[%i], tx_bytes 8192 : !cake.pipeline<2>
            %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
            // expected-error @+2 {{[pipeline.acquire-missing] expected a cake.pipeline.producer_acquire of this iteration before writing its stage: the consumers may still be reading it}}
            // expected-note @+1 {{fix: add cake.pipeline.producer_acquire %pipe[%it] before the commit and the copies}}
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
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

// No wait: the consumers read a stage before it is full.
cake.kernel @read_before_wait(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
            // expected-note @+1 {{the stage is filled here}}
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.pipeline<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
        // expected-error @+2 {{[pipeline.read-before-wait] expected a cake.pipeline.consumer_wait of this iteration before reading its stage}}
        // expected-note @+1 {{fix: add cake.pipeline.consumer_wait %pipe[%it] before the first read of the stage}}
        %v = cake.load %buf[%s, %c0, %lane] : !cake.smem<2x64x64xbf16, swizzle = 128> -> bf16
        cake.pipeline.consumer_release %pipe[%i] : !cake.pipeline<2>
      }
    }
  }
  cake.return
}

// -----

// The release comes before the read.
cake.kernel @release_before_use(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
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
        // expected-error @+2 {{[pipeline.release-before-use] expected the release after the last read of the stage, but it is read later}}
        // expected-note @+1 {{fix: move cake.pipeline.consumer_release after this read}}
        cake.pipeline.consumer_release %pipe[%i] : !cake.pipeline<2>
        // expected-note @+1 {{read here, after the release}}
        %v = cake.load %buf[%s, %c0, %lane] : !cake.smem<2x64x64xbf16, swizzle = 128> -> bf16
      }
    }
  }
  cake.return
}

// -----

// No release: the producer stalls after two iterations.
cake.kernel @missing_release(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.pipeline<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+2 {{[pipeline.missing-release] expected a cake.pipeline.consumer_release after the consumers' last read of the stage: without it the producer stalls after 2 iterations}}
        // expected-note @+1 {{fix: after the last read of the stage (and a cake.wgmma.wait that retires the wgmma reading it): cake.pipeline.consumer_release %pipe[%it]}}
        cake.pipeline.consumer_wait %pipe[%i] : !cake.pipeline<2>
        %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
        %v = cake.load %buf[%s, %c0, %lane] : !cake.smem<2x64x64xbf16, swizzle = 128> -> bf16
      }
    }
  }
  cake.return
}

// -----

// 128 threads release each stage, the empty barriers expect 1.
cake.kernel @consumer_count(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
  // expected-note @+1 {{the empty barriers expect 1 arrivals per stage (consumers)}}
  %pipe = cake.pipeline.create consumers 1 : !cake.pipeline<2>
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
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
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
        // expected-error @+2 {{[pipeline.consumer-count] expected 1 threads to release each stage (the pipeline's consumers), got 128}}
        // expected-note @+1 {{fix: set consumers 128 on cake.pipeline.create, or release from exactly that many threads}}
        cake.pipeline.consumer_release %pipe[%i] : !cake.pipeline<2>
      }
    }
  }
  cake.return
}

// -----

// The whole warp commits: 32 arrivals on a barrier that counts one.
cake.kernel @commit_threads(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
  %pipe = cake.pipeline.create consumers 128 : !cake.pipeline<2>
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %w0 {
          scf.for %i = %c0 to %n step %c1 {
            cake.pipeline.producer_acquire %pipe[%i] : !cake.pipeline<2>
            // expected-error @+2 {{[pipeline.commit-threads] expected exactly one thread to commit (the full barrier counts one arrival), got 32}}
            // expected-note @+1 {{fix: guard the producer with cake.elect_one in one warp}}
            cake.pipeline.producer_commit %pipe[%i], tx_bytes 8192 : !cake.pipeline<2>
            %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
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

// Every iteration writes stage 1.
cake.kernel @slot_mismatch(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
            // expected-error @+2 {{[pipeline.slot-mismatch] expected the destination stage to be the slot of the iteration the copy completes on}}
            // expected-note @+1 {{fix: index the destination with cake.pipeline.slot %pipe[<the copy's iteration>]}}
            cake.tma.load %ta[%c0, %i], %buf[%c1], %pipe[%i]
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

// Every iteration reads stage 0.
cake.kernel @read_slot_mismatch(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
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
        // expected-error @+2 {{[pipeline.slot-mismatch] expected the stage read to be the slot of the iteration waited for, got the constant stage 0}}
        // expected-note @+1 {{fix: index the stage with cake.pipeline.slot %pipe[<the waited iteration>]}}
        %v = cake.load %buf[%c0, %c0, %lane] : !cake.smem<2x64x64xbf16, swizzle = 128> -> bf16
        cake.pipeline.consumer_release %pipe[%i] : !cake.pipeline<2>
      }
    }
  }
  cake.return
}

// -----

// Two pipelines, and the consumer reads the buffer of the second at the slot of the first: found
// in a generated KMeans kernel (the centroid tile read at the point tile's stage).
cake.kernel @other_pipeline_slot(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
            cake.tma.load %ta[%c0, %i], %xbuf[%xs], %xpipe[%i]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.pipeline<2>
            cake.pipeline.producer_acquire %cpipe[%i] : !cake.pipeline<3>
            cake.pipeline.producer_commit %cpipe[%i], tx_bytes 8192 : !cake.pipeline<3>
            %cs = cake.pipeline.slot %cpipe[%i] : !cake.pipeline<3>
            cake.tma.load %ta[%i, %c0], %cbuf[%cs], %cpipe[%i]
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
        // expected-error @+2 {{[pipeline.slot-mismatch] expected the stage read to be a slot of the pipeline whose copies fill the buffer, got a slot of another pipeline}}
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

// Three stages over a buffer of two.
cake.kernel @stage_count(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
            // expected-error @+2 {{[pipeline.stage-count] expected the destination's stage dimension to hold 3 stages, got 2}}
            // expected-note @+1 {{fix: give the buffer a leading dimension of 3 or the pipeline 2 stages}}
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
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

// Valid: the release is under a uniform condition (a problem size), still 128 threads.
cake.kernel @release_uniform_cond(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
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
        %more = arith.cmpi ult, %i, %n : index
        scf.if %more {
          cake.pipeline.consumer_release %pipe[%i] : !cake.pipeline<2>
        }
      }
    }
  }
  cake.return
}

// -----

// Valid: a producer that skips the acquire of the first `stages` iterations (the lowering's
// round-0 acquire is a parity wait that passes at once).
cake.kernel @skip_round0(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
            // The ring starts empty: iterations 0 and 1 need no acquire.
            %c2 = arith.constant 2 : index
            %later = arith.cmpi uge, %i, %c2 : index
            scf.if %later {
              cake.pipeline.producer_acquire %pipe[%i] : !cake.pipeline<2>
            }
            cake.pipeline.producer_commit %pipe[%i], tx_bytes 8192 : !cake.pipeline<2>
            %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
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

// Valid: the rotated loop, acquiring iteration 0 before it and iteration i + 1 at the end of i.
cake.kernel @rotated(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
          cake.pipeline.producer_acquire %pipe[%c0] : !cake.pipeline<2>
          scf.for %i = %c0 to %n step %c1 {
            cake.pipeline.producer_commit %pipe[%i], tx_bytes 8192 : !cake.pipeline<2>
            %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.pipeline<2>
            // Rotated: acquire the next iteration's stage at the end of this one.
            %next = arith.addi %i, %c1 : index
            %more = arith.cmpi ult, %next, %n : index
            scf.if %more {
              cake.pipeline.producer_acquire %pipe[%next] : !cake.pipeline<2>
            }
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

cake.kernel @skip_too_many(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
            // Skips iteration 2 too: its stage is iteration 0's, which the consumers may still read.
            %c3 = arith.constant 3 : index
            %later = arith.cmpi uge, %i, %c3 : index
            scf.if %later {
              cake.pipeline.producer_acquire %pipe[%i] : !cake.pipeline<2>
            }
            cake.pipeline.producer_commit %pipe[%i], tx_bytes 8192 : !cake.pipeline<2>
            %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
            // expected-error @+2 {{[pipeline.acquire-missing] expected a cake.pipeline.producer_acquire of this iteration before writing its stage}}
            // expected-note @+1 {{fix: add cake.pipeline.producer_acquire %pipe[%it] before the commit and the copies}}
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
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

// Stages taken in pairs: each iteration of the consumers' loop waits for and releases two
// iterations, %it = 2q and %it + 1, each by the 128 consumers (the wgmma family's `ov`). The
// releases are of different stages, so each stage gets 128 arrivals: no finding.
cake.kernel @release_pairs(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = cake.problem_size "K"
  %n2 = arith.muli %n, %c2 : index
  %buf = cake.alloc_smem : !cake.smem<4x64x64xbf16, swizzle = 128>
  %pipe = cake.pipeline.create consumers 128 : !cake.pipeline<4>
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n2 step %c1 {
            cake.pipeline.producer_acquire %pipe[%i] : !cake.pipeline<4>
            cake.pipeline.producer_commit %pipe[%i], tx_bytes 8192 : !cake.pipeline<4>
            %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<4>
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<4x64x64xbf16, swizzle = 128>, !cake.pipeline<4>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %q = %c0 to %n step %c1 {
        %ita = arith.muli %q, %c2 : index
        %itb = arith.addi %ita, %c1 : index
        cake.pipeline.consumer_wait %pipe[%ita] : !cake.pipeline<4>
        %sa = cake.pipeline.slot %pipe[%ita] : !cake.pipeline<4>
        %va = cake.load %buf[%sa, %c0, %lane] : !cake.smem<4x64x64xbf16, swizzle = 128> -> bf16
        cake.pipeline.consumer_wait %pipe[%itb] : !cake.pipeline<4>
        %sb = cake.pipeline.slot %pipe[%itb] : !cake.pipeline<4>
        %vb = cake.load %buf[%sb, %c0, %lane] : !cake.smem<4x64x64xbf16, swizzle = 128> -> bf16
        cake.pipeline.consumer_release %pipe[%ita] : !cake.pipeline<4>
        cake.pipeline.consumer_release %pipe[%itb] : !cake.pipeline<4>
      }
    }
  }
  cake.return
}

// -----

// The same stage released twice per iteration through two spellings of one iteration (%i and
// %i + 0): 256 arrivals where the barriers count 128. Only provably different iterations split.
cake.kernel @release_same_twice(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
  // expected-note @+1 {{the empty barriers expect 128 arrivals per stage (consumers)}}
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
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
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
        %i0 = arith.addi %i, %c0 : index
        // expected-error @+2 {{[pipeline.consumer-count] expected 128 threads to release each stage (the pipeline's consumers), got 256}}
        // expected-note @+1 {{fix: set consumers 256 on cake.pipeline.create, or release from exactly that many threads}}
        cake.pipeline.consumer_release %pipe[%i] : !cake.pipeline<2>
        cake.pipeline.consumer_release %pipe[%i0] : !cake.pipeline<2>
      }
    }
  }
  cake.return
}
