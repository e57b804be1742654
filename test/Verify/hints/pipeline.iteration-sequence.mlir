// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (pipeline.iteration-sequence), lib/Verify/PathSimulation.cpp:1129:
//   "count the pipeline's iterations across every loop (carry the count over outer tiles) and pass
//    that count to every step"
// Kernel: bench/verify-corpus/buggy/pipeline/persistent_rows_consumer_inner_counter.mlir (the
// consumers use the inner k counter). Applied: the consumers' wait, slot and release take the
// block's global iteration %g, as the producer does (= correct/pipeline/persistent_rows_global_iteration.mlir).
// Honest.

cake.kernel @persistent_rows_consumer_inner_counter(
    %x: !cake.tensor<[M, K], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, K], f32, box [32, 32]> {cake.name = "tx", cake.describes = "x"},
    %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 160>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (264)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %mdim = cake.problem_size "M"
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %tiles = arith.ceildivui %mdim, %c32 : index
  %bid = cake.block_id x
  %nblocks = cake.grid_dim x
  %has = arith.cmpi ult, %bid, %tiles : index
  %left = arith.subi %tiles, %bid : index
  %some = arith.ceildivui %left, %nblocks : index
  %count = arith.select %has, %some, %c0 : index
  %buf = cake.alloc_smem : !cake.smem<2x32x32xf32>
  %pipe = cake.pipeline.create consumers 128 : !cake.pipeline<2>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %i = %c0 to %count step %c1 {
          %step = arith.muli %i, %nblocks : index
          %t = arith.addi %bid, %step : index
          %m0 = arith.muli %t, %c32 : index
          %g0 = arith.muli %i, %ktiles : index
          scf.for %kt = %c0 to %ktiles step %c1 {
            %g = arith.addi %g0, %kt : index
            cake.pipeline.producer_acquire %pipe[%g] : !cake.pipeline<2>
            cake.pipeline.producer_commit %pipe[%g], tx_bytes 4096 : !cake.pipeline<2>
            %slot = cake.pipeline.slot %pipe[%g] : !cake.pipeline<2>
            %k0 = arith.muli %kt, %c32 : index
            cake.tma.load %tx[%m0, %k0], %buf[%slot], %pipe[%g]
                : !cake.tma<[M, K], f32, box [32, 32]>, !cake.smem<2x32x32xf32>, !cake.pipeline<2>
          }
        }
      }
    }
    cake.role "consumer" warps [1, 5) {
      %ctid = arith.subi %tid, %c32 : index
      %row = arith.divui %ctid, %c4 : index
      %quad = arith.remui %ctid, %c4 : index
      %col0 = arith.muli %quad, %c8 : index
      %col1 = arith.addi %col0, %c4 : index
      %zero = arith.constant 0.0 : f32
      scf.for %i = %c0 to %count step %c1 {
        %step = arith.muli %i, %nblocks : index
        %t = arith.addi %bid, %step : index
        %m0 = arith.muli %t, %c32 : index
        %g0 = arith.muli %i, %ktiles : index
        %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
          %g = arith.addi %g0, %kt : index
          // expected-error @+2 {{'cake.pipeline.consumer_wait' op [pipeline.iteration-sequence] expected iteration 7 (this thread's 8th step of the pipeline), got 0 in thread 32 with M=200,K=200 (iteration 1, iteration 0)}}
          // expected-note @+1 {{fix: count the pipeline's iterations across every loop (carry the count over outer tiles) and pass that count to every step}}
          cake.pipeline.consumer_wait %pipe[%kt] : !cake.pipeline<2>
          %slot = cake.pipeline.slot %pipe[%kt] : !cake.pipeline<2>
          %v0 = cake.load %buf[%slot, %row, %col0] : !cake.smem<2x32x32xf32> -> vector<4xf32>
          %v1 = cake.load %buf[%slot, %row, %col1] : !cake.smem<2x32x32xf32> -> vector<4xf32>
          %v = arith.addf %v0, %v1 : vector<4xf32>
          %part = vector.reduction <add>, %v : vector<4xf32> into f32
          cake.pipeline.consumer_release %pipe[%kt] : !cake.pipeline<2>
          %acc2 = arith.addf %acc, %part : f32
          scf.yield %acc2 : f32
        }
        %total = cake.warp_reduce sum %sum {lanes = 4 : i64} : f32
        %mrow = arith.addi %m0, %row : index
        %lead = arith.cmpi eq, %quad, %c0 : index
        scf.if %lead {
          cake.store %total, %out[%mrow] masked : f32, !cake.tensor<[M], f32>
        }
      }
    }
  }
  cake.return
}

// -----

cake.kernel @persistent_rows_consumer_inner_counter_fixed(
    %x: !cake.tensor<[M, K], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, K], f32, box [32, 32]> {cake.name = "tx", cake.describes = "x"},
    %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 160>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (264)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %mdim = cake.problem_size "M"
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %tiles = arith.ceildivui %mdim, %c32 : index
  %bid = cake.block_id x
  %nblocks = cake.grid_dim x
  %has = arith.cmpi ult, %bid, %tiles : index
  %left = arith.subi %tiles, %bid : index
  %some = arith.ceildivui %left, %nblocks : index
  %count = arith.select %has, %some, %c0 : index
  %buf = cake.alloc_smem : !cake.smem<2x32x32xf32>
  %pipe = cake.pipeline.create consumers 128 : !cake.pipeline<2>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %i = %c0 to %count step %c1 {
          %step = arith.muli %i, %nblocks : index
          %t = arith.addi %bid, %step : index
          %m0 = arith.muli %t, %c32 : index
          %g0 = arith.muli %i, %ktiles : index
          scf.for %kt = %c0 to %ktiles step %c1 {
            %g = arith.addi %g0, %kt : index
            cake.pipeline.producer_acquire %pipe[%g] : !cake.pipeline<2>
            cake.pipeline.producer_commit %pipe[%g], tx_bytes 4096 : !cake.pipeline<2>
            %slot = cake.pipeline.slot %pipe[%g] : !cake.pipeline<2>
            %k0 = arith.muli %kt, %c32 : index
            cake.tma.load %tx[%m0, %k0], %buf[%slot], %pipe[%g]
                : !cake.tma<[M, K], f32, box [32, 32]>, !cake.smem<2x32x32xf32>, !cake.pipeline<2>
          }
        }
      }
    }
    cake.role "consumer" warps [1, 5) {
      %ctid = arith.subi %tid, %c32 : index
      %row = arith.divui %ctid, %c4 : index
      %quad = arith.remui %ctid, %c4 : index
      %col0 = arith.muli %quad, %c8 : index
      %col1 = arith.addi %col0, %c4 : index
      %zero = arith.constant 0.0 : f32
      scf.for %i = %c0 to %count step %c1 {
        %step = arith.muli %i, %nblocks : index
        %t = arith.addi %bid, %step : index
        %m0 = arith.muli %t, %c32 : index
        %g0 = arith.muli %i, %ktiles : index
        %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
          %g = arith.addi %g0, %kt : index
          cake.pipeline.consumer_wait %pipe[%g] : !cake.pipeline<2>
          %slot = cake.pipeline.slot %pipe[%g] : !cake.pipeline<2>
          %v0 = cake.load %buf[%slot, %row, %col0] : !cake.smem<2x32x32xf32> -> vector<4xf32>
          %v1 = cake.load %buf[%slot, %row, %col1] : !cake.smem<2x32x32xf32> -> vector<4xf32>
          %v = arith.addf %v0, %v1 : vector<4xf32>
          %part = vector.reduction <add>, %v : vector<4xf32> into f32
          cake.pipeline.consumer_release %pipe[%g] : !cake.pipeline<2>
          %acc2 = arith.addf %acc, %part : f32
          scf.yield %acc2 : f32
        }
        %total = cake.warp_reduce sum %sum {lanes = 4 : i64} : f32
        %mrow = arith.addi %m0, %row : index
        %lead = arith.cmpi eq, %quad, %c0 : index
        scf.if %lead {
          cake.store %total, %out[%mrow] masked : f32, !cake.tensor<[M], f32>
        }
      }
    }
  }
  cake.return
}
