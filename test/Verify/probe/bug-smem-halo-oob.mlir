// Written for session 36's second probe of the verifier (caught before the change).
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK: :35:5: error: 'cake.store' op [smem.out-of-bounds]
// BUG: 2-D halo staging, block 512 = 8 rows x 64 columns, tile declared 8x65 but a row needs 66 columns (left halo, 64 interior, right halo): the thread with t%64 == 0 stores the right halo at tile[r][65] and thread t%64 == 63 reads tile[r][65] -- out of bounds of the row (thread 448 writes tile[7][65], flat element 520 of a 520-element buffer; thread 0's tile[0][65] aliases tile[1][0] written by thread 64).
cake.kernel @halo_diff(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                       %y: !cake.tensor<[M, N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 512>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (n ceildiv 64, m ceildiv 8)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c65 = arith.constant 65 : index
  %tid = cake.thread_id x
  %bx = cake.block_id x
  %by = cake.block_id y
  %r = arith.divui %tid, %c64 : index
  %c = arith.remui %tid, %c64 : index
  %row0 = arith.muli %by, %c8 : index
  %col0 = arith.muli %bx, %c64 : index
  %gr = arith.addi %row0, %r : index
  %gc = arith.addi %col0, %c : index
  %tile = cake.alloc_smem : !cake.smem<8x65xf32>
  %v = cake.load %x[%gr, %gc] masked : !cake.tensor<[M, N], f32> -> f32
  %c1i = arith.addi %c, %c1 : index
  cake.store %v, %tile[%r, %c1i] : f32, !cake.smem<8x65xf32>
  %first = arith.cmpi eq, %c, %c0 : index
  scf.if %first {
    %lc = arith.subi %col0, %c1 : index
    %hc = arith.addi %col0, %c64 : index
    %lv = cake.load %x[%gr, %lc] masked : !cake.tensor<[M, N], f32> -> f32
    %hv = cake.load %x[%gr, %hc] masked : !cake.tensor<[M, N], f32> -> f32
    cake.store %lv, %tile[%r, %c0] : f32, !cake.smem<8x65xf32>
    %hi = arith.addi %c, %c65 : index
    cake.store %hv, %tile[%r, %hi] : f32, !cake.smem<8x65xf32>
  }
  cake.barrier
  %c2i = arith.addi %c, %c1 : index
  %c2i2 = arith.addi %c2i, %c1 : index
  %a = cake.load %tile[%r, %c] : !cake.smem<8x65xf32> -> f32
  %b = cake.load %tile[%r, %c2i2] : !cake.smem<8x65xf32> -> f32
  %d = arith.subf %b, %a : f32
  cake.store %d, %y[%gr, %gc] masked : f32, !cake.tensor<[M, N], f32>
  cake.return
}
