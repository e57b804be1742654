// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (race.lost-update), lib/Verify/VerifyRaces.cpp:1049:
//   "replace the load and the store with cake.atomic_add of the increment on the shared element"
// The kernel (@histogram_plain_increment of cake-verify-races.mlir) increments a shared bin with
// a plain load, add and store. Applied literally: cake.atomic_add %one, %bins[%bin]. Honest.

cake.kernel @histogram_plain_increment(%keys: !cake.tensor<[N], i32> {cake.name = "keys"},
                                       %hist: !cake.tensor<[64], i32> {cake.name = "hist"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c64 = arith.constant 64 : index
  %one = arith.constant 1 : i32
  %bins = cake.alloc_smem : !cake.smem<64xi32>
  %tid = cake.thread_id x
  %k = cake.load %keys[%tid] masked : !cake.tensor<[N], i32> -> i32
  %ki = arith.index_cast %k : i32 to index
  %bin = arith.remui %ki, %c64 : index
  // expected-note @+1 {{the load is here}}
  %old = cake.load %bins[%bin] : !cake.smem<64xi32> -> i32
  %new = arith.addi %old, %one : i32
  // expected-error @+2 {{[race.lost-update] expected an atomic update: this store writes back a value computed from the load of the same shared element, at an index the data decides, in threads of 4 warps; for inputs where two of them compute the same index, one update is lost}}
  // expected-note @+1 {{fix: replace the load and the store with cake.atomic_add of the increment on the shared element}}
  cake.store %new, %bins[%bin] : i32, !cake.smem<64xi32>
  cake.barrier
  %few = arith.cmpi ult, %tid, %c64 : index
  scf.if %few {
    %h = cake.load %bins[%tid] : !cake.smem<64xi32> -> i32
    cake.store %h, %hist[%tid] masked : i32, !cake.tensor<[64], i32>
  }
  cake.return
}

// -----

cake.kernel @histogram_plain_increment(%keys: !cake.tensor<[N], i32> {cake.name = "keys"},
                                       %hist: !cake.tensor<[64], i32> {cake.name = "hist"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c64 = arith.constant 64 : index
  %one = arith.constant 1 : i32
  %bins = cake.alloc_smem : !cake.smem<64xi32>
  %tid = cake.thread_id x
  %k = cake.load %keys[%tid] masked : !cake.tensor<[N], i32> -> i32
  %ki = arith.index_cast %k : i32 to index
  %bin = arith.remui %ki, %c64 : index
  cake.atomic_add %one, %bins[%bin] : i32, !cake.smem<64xi32>
  cake.barrier
  %few = arith.cmpi ult, %tid, %c64 : index
  scf.if %few {
    %h = cake.load %bins[%tid] : !cake.smem<64xi32> -> i32
    cake.store %h, %hist[%tid] masked : i32, !cake.tensor<[64], i32>
  }
  cake.return
}
