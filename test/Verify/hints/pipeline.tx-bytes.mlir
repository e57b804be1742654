// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (pipeline.tx-bytes), lib/Verify/VerifyPipeline.cpp:265:
//   "set tx_bytes 8192"
// Applied literally: tx_bytes 4096 becomes 8192 (one 64x64 bf16 box). Honest.

cake.kernel @tx_bytes(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
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
            // expected-error @+2 {{'cake.pipeline.producer_commit' op [pipeline.tx-bytes] expected tx_bytes to equal the 8192 bytes of the TMA copies into this iteration's stage, got 4096}}
            // expected-note @+1 {{fix: set tx_bytes 8192}}
            cake.pipeline.producer_commit %pipe[%i], tx_bytes 4096 : !cake.pipeline<2>
            %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
            %k0 = arith.muli %i, %c64 : index
            // expected-note @+1 {{copies 8192 bytes}}
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

cake.kernel @tx_bytes_fixed(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
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
