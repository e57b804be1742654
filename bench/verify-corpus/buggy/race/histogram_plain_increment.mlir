// CORPUS: verdict=buggy class=race
// GPU: race (wrong result): increments of one bin by threads of different warps are lost
// WHY: a shared-memory histogram with load/add/store instead of atomics (data-dependent bin).
// SIZES: N=1000000,B=3907
// H200: ran to completion (no correct counterpart to compare with)

cake.kernel @histogram_plain_increment(
    %keys: !cake.tensor<[N], i32> {cake.name = "keys"},
    %hist: !cake.tensor<[B, 64], i32> {cake.name = "hist"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N", "B"],
                grid = affine_map<()[n, b] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %bins = cake.alloc_smem : !cake.smem<64xi32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %few = arith.cmpi ult, %tid, %c64 : index
  scf.if %few {
    cake.store %zero, %bins[%tid] : i32, !cake.smem<64xi32>
  }
  cake.barrier
  %base = arith.muli %bid, %c256 : index
  %g = arith.addi %base, %tid : index
  %k = cake.load %keys[%g] masked : !cake.tensor<[N], i32> -> i32
  %ki = arith.index_cast %k : i32 to index
  %bin = arith.remui %ki, %c64 : index
  %old = cake.load %bins[%bin] : !cake.smem<64xi32> -> i32
  %new = arith.addi %old, %one : i32
  cake.store %new, %bins[%bin] : i32, !cake.smem<64xi32>
  cake.barrier
  scf.if %few {
    %h = cake.load %bins[%tid] : !cake.smem<64xi32> -> i32
    cake.store %h, %hist[%bid, %tid] masked : i32, !cake.tensor<[B, 64], i32>
  }
  cake.return
}
