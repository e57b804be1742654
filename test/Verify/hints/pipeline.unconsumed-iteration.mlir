// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (pipeline.unconsumed-iteration), lib/Verify/PathSimulation.cpp:
//   "run the producer's and the consumers' loops over the same iterations (the same bound in
//    both, e.g. a ceildiv, with the ragged last tile masked or zero-filled)"
// Kernel: column sums of 64-row panels; the producer streams ceil(N / 64) tiles, the consumers
// stop at floor(N / 64). Applied: the consumers loop to the producer's ceildiv bound (TMA
// zero-fills the ragged last tile, so its sums stay right). Honest.

cake.kernel @panel_colsum(
    %x: !cake.tensor<[R, N], f32> {cake.name = "x"},
    %tx: !cake.tma<[R, N], f32, box [64, 64]> {cake.name = "tx", cake.describes = "x"},
    %y: !cake.tensor<[R], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 96>, symbols = ["R", "N"],
                grid = affine_map<()[r, n] -> (r ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %n = cake.problem_size "N"
  %tiles = arith.ceildivui %n, %c64 : index
  %whole = arith.divui %n, %c64 : index
  %bid = cake.block_id x
  %r0 = arith.muli %bid, %c64 : index
  %buf = cake.alloc_smem : !cake.smem<3x64x64xf32>
  %pipe = cake.pipeline.create consumers 64 : !cake.pipeline<3>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "loader" warps [0, 1) {
      %one = cake.elect_one
      scf.if %one {
        scf.for %t = %c0 to %tiles step %c1 {
          cake.pipeline.producer_acquire %pipe[%t] : !cake.pipeline<3>
          // expected-error @+2 {{'cake.pipeline.producer_commit' op [pipeline.unconsumed-iteration] expected every committed iteration to be waited for by a consumer, but with R=200,N=200 the producer commits 4 iterations and the consumers wait for only the first 3: iteration 3's stage is filled and never read, and its copy may still be in flight when the block exits (iteration 3)}}
          // expected-note @+1 {{fix: run the producer's and the consumers' loops over the same iterations (the same bound in both, e.g. a ceildiv, with the ragged last tile masked or zero-filled)}}
          cake.pipeline.producer_commit %pipe[%t], tx_bytes 16384 : !cake.pipeline<3>
          %s = cake.pipeline.slot %pipe[%t] : !cake.pipeline<3>
          %k0 = arith.muli %t, %c64 : index
          cake.tma.load %tx[%r0, %k0], %buf[%s], %pipe[%t]
              : !cake.tma<[R, N], f32, box [64, 64]>, !cake.smem<3x64x64xf32>, !cake.pipeline<3>
        }
      }
    }
    cake.role "summer" warps [1, 3) {
      %row = arith.subi %tid, %c32 : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %t = %c0 to %whole step %c1 iter_args(%acc = %zero) -> (f32) {
        // expected-note @+1 {{the consumers' wait (thread 64 passes it 3 times)}}
        cake.pipeline.consumer_wait %pipe[%t] : !cake.pipeline<3>
        %s = cake.pipeline.slot %pipe[%t] : !cake.pipeline<3>
        %inner = scf.for %k = %c0 to %c64 step %c1 iter_args(%a = %acc) -> (f32) {
          %v = cake.load %buf[%s, %row, %k] : !cake.smem<3x64x64xf32> -> f32
          %a2 = arith.addf %a, %v : f32
          scf.yield %a2 : f32
        }
        cake.pipeline.consumer_release %pipe[%t] : !cake.pipeline<3>
        scf.yield %inner : f32
      }
      %out = arith.addi %r0, %row : index
      cake.store %sum, %y[%out] masked : f32, !cake.tensor<[R], f32>
    }
  }
  cake.return
}

// -----

cake.kernel @panel_colsum(
    %x: !cake.tensor<[R, N], f32> {cake.name = "x"},
    %tx: !cake.tma<[R, N], f32, box [64, 64]> {cake.name = "tx", cake.describes = "x"},
    %y: !cake.tensor<[R], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 96>, symbols = ["R", "N"],
                grid = affine_map<()[r, n] -> (r ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %n = cake.problem_size "N"
  %tiles = arith.ceildivui %n, %c64 : index
  %bid = cake.block_id x
  %r0 = arith.muli %bid, %c64 : index
  %buf = cake.alloc_smem : !cake.smem<3x64x64xf32>
  %pipe = cake.pipeline.create consumers 64 : !cake.pipeline<3>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "loader" warps [0, 1) {
      %one = cake.elect_one
      scf.if %one {
        scf.for %t = %c0 to %tiles step %c1 {
          cake.pipeline.producer_acquire %pipe[%t] : !cake.pipeline<3>
          cake.pipeline.producer_commit %pipe[%t], tx_bytes 16384 : !cake.pipeline<3>
          %s = cake.pipeline.slot %pipe[%t] : !cake.pipeline<3>
          %k0 = arith.muli %t, %c64 : index
          cake.tma.load %tx[%r0, %k0], %buf[%s], %pipe[%t]
              : !cake.tma<[R, N], f32, box [64, 64]>, !cake.smem<3x64x64xf32>, !cake.pipeline<3>
        }
      }
    }
    cake.role "summer" warps [1, 3) {
      %row = arith.subi %tid, %c32 : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %t = %c0 to %tiles step %c1 iter_args(%acc = %zero) -> (f32) {
        cake.pipeline.consumer_wait %pipe[%t] : !cake.pipeline<3>
        %s = cake.pipeline.slot %pipe[%t] : !cake.pipeline<3>
        %inner = scf.for %k = %c0 to %c64 step %c1 iter_args(%a = %acc) -> (f32) {
          %v = cake.load %buf[%s, %row, %k] : !cake.smem<3x64x64xf32> -> f32
          %a2 = arith.addf %a, %v : f32
          scf.yield %a2 : f32
        }
        cake.pipeline.consumer_release %pipe[%t] : !cake.pipeline<3>
        scf.yield %inner : f32
      }
      %out = arith.addi %r0, %row : index
      cake.store %sum, %y[%out] masked : f32, !cake.tensor<[R], f32>
    }
  }
  cake.return
}
