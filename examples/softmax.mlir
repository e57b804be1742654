// Row softmax, fp32: y[r, :] = exp(x[r, :] - max) / sum(exp(x[r, :] - max)).
// One warp per row, 8 rows per block; each lane walks its row in 16-byte vectors (so the row
// length N must be a multiple of 4: the manifest says so). Ragged rows (M not a multiple of 8)
// and ragged columns (N not a multiple of 128) go through masked accesses; warp reductions give
// the row max and sum.
//
// REQUIRES: ptxas
// RUN: cake-opt %s --cake-lower-to-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: cake-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: cake-translate %s --emit=cubin -o %t.cubin --manifest %t.json
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// NVVM: llvm.func @softmax
// NVVM: nvvm.shfl.sync bfly
// PTX: .entry softmax
// PTX: ld.global.v4.b32
// PTX: shfl.sync.bfly.b32
// PTX: ex2.approx
// PTX: st.global.v4.b32
// MANIFEST: "constraints": [
// MANIFEST-NEXT: "M >= 1",
// MANIFEST-NEXT: "N >= 1",
// MANIFEST-NEXT: "mod(N, 4) == 0"

cake.kernel @softmax(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                     %y: !cake.tensor<[M, N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 8)>} {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %n = cake.problem_size "N"
  %b = cake.block_id x
  %w = cake.warp_id
  %lane = cake.lane_id
  %r0 = arith.muli %b, %c8 : index
  %row = arith.addi %r0, %w : index
  %start = arith.muli %lane, %c4 : index

  // Pass 1: the row max.
  %lmax = scf.for %j = %start to %n step %c128 iter_args(%m = %ninf) -> (f32) {
    %v = cake.load %x[%row, %j] masked pad(%ninf : f32) : !cake.tensor<[M, N], f32> -> vector<4xf32>
    %vm = vector.reduction <maximumf>, %v : vector<4xf32> into f32
    %m2 = arith.maximumf %m, %vm : f32
    scf.yield %m2 : f32
  }
  %max = cake.warp_reduce max %lmax : f32

  // Pass 2: the sum of exponentials.
  %maxv = vector.broadcast %max : f32 to vector<4xf32>
  %lsum = scf.for %j = %start to %n step %c128 iter_args(%s = %zero) -> (f32) {
    %v = cake.load %x[%row, %j] masked pad(%ninf : f32) : !cake.tensor<[M, N], f32> -> vector<4xf32>
    %d = arith.subf %v, %maxv : vector<4xf32>
    %e = math.exp %d : vector<4xf32>
    %es = vector.reduction <add>, %e : vector<4xf32> into f32
    %s2 = arith.addf %s, %es : f32
    scf.yield %s2 : f32
  }
  %sum = cake.warp_reduce sum %lsum : f32

  // Pass 3: normalize and store.
  %one = arith.constant 1.0 : f32
  %rcp = arith.divf %one, %sum : f32
  %rcpv = vector.broadcast %rcp : f32 to vector<4xf32>
  scf.for %j = %start to %n step %c128 {
    %v = cake.load %x[%row, %j] masked pad(%ninf : f32) : !cake.tensor<[M, N], f32> -> vector<4xf32>
    %d = arith.subf %v, %maxv : vector<4xf32>
    %e = math.exp %d : vector<4xf32>
    %p = arith.mulf %e, %rcpv : vector<4xf32>
    cake.store %p, %y[%row, %j] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  }
  cake.return
}
