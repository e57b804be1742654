// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hints under test (shape.uncovered-output), two texts:
// lib/Verify/VerifyShapes.cpp:606:
//   "round the grid up (ceildiv) and mask the ragged tile's accesses"
// lib/Verify/VerifyShapes.cpp:672:
//   "cover the ragged tail: round the grid (or a persistent block's tile count) up with ceildiv
//    and mask the last tile's accesses"
// The kernels (@grid_floor and @persistent_floor of cake-verify-shapes.mlir) round the grid, or
// a persistent block's tile count, down. Applied literally: floordiv -> ceildiv in the grid map,
// arith.divui -> arith.ceildivui for the tile count (the accesses are masked already). Honest.

// expected-note @+1 {{the grid is affine_map<()[s0] -> (s0 floordiv 1024)>}}
cake.kernel @grid_floor(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                        %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n floordiv 1024)>} {
  %c4 = arith.constant 4 : index
  %c1024 = arith.constant 1024 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c1024 : index
  %off = arith.muli %tid, %c4 : index
  %i = arith.addi %base, %off : index
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  // expected-error @+2 {{[shape.uncovered-output] expected every element of 'y' to be written for every shape the manifest allows, but with N = 3 the grid has no block}}
  // expected-note @+1 {{fix: round the grid up (ceildiv) and mask the ragged tile's accesses}}
  cake.store %v, %y[%i] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}

// -----

cake.kernel @grid_floor(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                        %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 1024)>} {
  %c4 = arith.constant 4 : index
  %c1024 = arith.constant 1024 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c1024 : index
  %off = arith.muli %tid, %c4 : index
  %i = arith.addi %base, %off : index
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  cake.store %v, %y[%i] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}

// -----

cake.kernel @persistent_floor(%x: !cake.tensor<[M], f32> {cake.name = "x"},
                              %y: !cake.tensor<[M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M"],
                grid = affine_map<()[m] -> (8)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %m = cake.problem_size "M"
  %tiles = arith.ceildivui %m, %c32 : index
  %bid = cake.block_id x
  %nblocks = cake.grid_dim x
  %lane = cake.lane_id
  %has = arith.cmpi ult, %bid, %tiles : index
  %left = arith.subi %tiles, %bid : index
  %floor = arith.divui %left, %nblocks : index
  %count = arith.select %has, %floor, %c0 : index
  scf.for %i = %c0 to %count step %c1 {
    %step = arith.muli %i, %nblocks : index
    %t = arith.addi %bid, %step : index
    %m0 = arith.muli %t, %c32 : index
    %row = arith.addi %m0, %lane : index
    %v = cake.load %x[%row] masked : !cake.tensor<[M], f32> -> f32
    // expected-error @+2 {{[shape.uncovered-output] expected every element of 'y' to be written for every shape the manifest allows, but with M = 3 no block writes index 0 of dimension 0 (extent 3)}}
    // expected-note @+1 {{fix: cover the ragged tail: round the grid (or a persistent block's tile count) up with ceildiv and mask the last tile's accesses}}
    cake.store %v, %y[%row] masked : f32, !cake.tensor<[M], f32>
  }
  cake.return
}

// -----

cake.kernel @persistent_floor(%x: !cake.tensor<[M], f32> {cake.name = "x"},
                              %y: !cake.tensor<[M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M"],
                grid = affine_map<()[m] -> (8)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %m = cake.problem_size "M"
  %tiles = arith.ceildivui %m, %c32 : index
  %bid = cake.block_id x
  %nblocks = cake.grid_dim x
  %lane = cake.lane_id
  %has = arith.cmpi ult, %bid, %tiles : index
  %left = arith.subi %tiles, %bid : index
  %floor = arith.ceildivui %left, %nblocks : index
  %count = arith.select %has, %floor, %c0 : index
  scf.for %i = %c0 to %count step %c1 {
    %step = arith.muli %i, %nblocks : index
    %t = arith.addi %bid, %step : index
    %m0 = arith.muli %t, %c32 : index
    %row = arith.addi %m0, %lane : index
    %v = cake.load %x[%row] masked : !cake.tensor<[M], f32> -> f32
    cake.store %v, %y[%row] masked : f32, !cake.tensor<[M], f32>
  }
  cake.return
}
