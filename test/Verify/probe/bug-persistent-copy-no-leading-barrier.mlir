// A buggy kernel found while writing the library's persistent resident-centroid kernel (session
// 35; missed until the race check let a loop with bounds the model cannot evaluate run with an
// unknown counter), and the finding cake-verify gives it.
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: {{.*}}[race.missing-barrier] expected a block barrier between this write of shared memory and the read by other threads in the previous iteration of the loop
// BUG: libraries/kmeans/families/tcd.py's persistent resident-centroid kernel (bf16, kn 1, v 8,
// cs 64, pg 3) without the barrier before each batch's copy: a block that meets a second batch
// overwrites %csm while its other warps may still read the first batch's copy (the trailing
// barrier only orders the copy before the reads). The copy's stores are guarded (`se < total`)
// and the batch loop's bounds come from the block's share of the tiles.
cake.kernel @km_bf16_tcd_r1_n1_v8_cs64_g3(%x: !cake.tensor<[B, N, D], bf16> {cake.name = "x"},
    %c: !cake.tensor<[B, K, D], bf16> {cake.name = "c"},
    %csq: !cake.tensor<[B, K], f32> {cake.name = "csq"},
    %idx: !cake.tensor<[B, N], i32> {cake.name = "idx"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["B", "N", "K", "D"],
                grid = affine_map<()[b, n, k, d] -> (396, 1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %inf = arith.constant 0x7F800000 : f32
  %mtwo = arith.constant -2.0 : f32
  %zacc = arith.constant dense<0.0> : vector<4xf32>
  %zx = arith.constant dense<0.0> : vector<8xbf16>
  %kdim = cake.problem_size "K"
  %ddim = cake.problem_size "D"
  %ndim = cake.problem_size "N"
  %bx = cake.block_id x
  %wp = cake.warp_id
  %lane = cake.lane_id
  %g = arith.divui %lane, %c4 : index
  %q = arith.remui %lane, %c4 : index
  %qs = arith.muli %q, %c8 : index
  %q2 = arith.addi %q, %q : index
  %csm = cake.alloc_smem : !cake.smem<8x64xbf16>
  %stid = cake.thread_id x
  %scs = arith.constant 64 : index
  %sround = arith.constant 1024 : index
  %srounds = arith.constant 1 : index
  %stotal = arith.constant 512 : index
  %szero = arith.constant 0.0 : bf16
  %sklast = arith.subi %kdim, %c1 : index
  %sdlast = arith.subi %ddim, %c1 : index
  %bdim = cake.problem_size "B"
  %pnm = arith.constant 63 : index
  %pgrid = arith.constant 396 : index
  %pgm = arith.constant 395 : index
  %ptn = arith.addi %ndim, %pnm : index
  %ntiles = arith.divui %ptn, %c64 : index
  %ntm = arith.subi %ntiles, %c1 : index
  %items = arith.muli %bdim, %ntiles : index
  %pch = arith.addi %items, %pgm : index
  %chunk = arith.divui %pch, %pgrid : index
  %istart = arith.muli %bx, %chunk : index
  %iend0 = arith.addi %istart, %chunk : index
  %iend = arith.minui %iend0, %items : index
  %bfirst = arith.divui %istart, %ntiles : index
  %bl = arith.addi %iend, %ntm : index
  %bend = arith.divui %bl, %ntiles : index
  scf.for %b = %bfirst to %bend step %c1 {
  %bt0 = arith.muli %b, %ntiles : index
  %bt1 = arith.addi %bt0, %ntiles : index
  %ilo = arith.maxui %istart, %bt0 : index
  %ihi = arith.minui %iend, %bt1 : index
  scf.for %sr = %c0 to %srounds step %c1 {
    %sbase0 = arith.muli %sr, %sround : index
    %sbase = arith.addi %sbase0, %stid : index
    %so0 = arith.constant 0 : index
    %se0 = arith.addi %sbase, %so0 : index
    %sk0 = arith.divui %se0, %scs : index
    %sd0 = arith.remui %se0, %scs : index
    %skc0 = arith.minui %sk0, %sklast : index
    %sdc0 = arith.minui %sd0, %sdlast : index
    %sl0 = cake.load %c[%b, %skc0, %sdc0] : !cake.tensor<[B, K, D], bf16> -> bf16
    %sik0 = arith.cmpi ult, %sk0, %kdim : index
    %sid0 = arith.cmpi ult, %sd0, %ddim : index
    %sin0 = arith.andi %sik0, %sid0 : i1
    %sv0 = arith.select %sin0, %sl0, %szero : bf16
    %so1 = arith.constant 128 : index
    %se1 = arith.addi %sbase, %so1 : index
    %sk1 = arith.divui %se1, %scs : index
    %sd1 = arith.remui %se1, %scs : index
    %skc1 = arith.minui %sk1, %sklast : index
    %sdc1 = arith.minui %sd1, %sdlast : index
    %sl1 = cake.load %c[%b, %skc1, %sdc1] : !cake.tensor<[B, K, D], bf16> -> bf16
    %sik1 = arith.cmpi ult, %sk1, %kdim : index
    %sid1 = arith.cmpi ult, %sd1, %ddim : index
    %sin1 = arith.andi %sik1, %sid1 : i1
    %sv1 = arith.select %sin1, %sl1, %szero : bf16
    %so2 = arith.constant 256 : index
    %se2 = arith.addi %sbase, %so2 : index
    %sk2 = arith.divui %se2, %scs : index
    %sd2 = arith.remui %se2, %scs : index
    %skc2 = arith.minui %sk2, %sklast : index
    %sdc2 = arith.minui %sd2, %sdlast : index
    %sl2 = cake.load %c[%b, %skc2, %sdc2] : !cake.tensor<[B, K, D], bf16> -> bf16
    %sik2 = arith.cmpi ult, %sk2, %kdim : index
    %sid2 = arith.cmpi ult, %sd2, %ddim : index
    %sin2 = arith.andi %sik2, %sid2 : i1
    %sv2 = arith.select %sin2, %sl2, %szero : bf16
    %so3 = arith.constant 384 : index
    %se3 = arith.addi %sbase, %so3 : index
    %sk3 = arith.divui %se3, %scs : index
    %sd3 = arith.remui %se3, %scs : index
    %skc3 = arith.minui %sk3, %sklast : index
    %sdc3 = arith.minui %sd3, %sdlast : index
    %sl3 = cake.load %c[%b, %skc3, %sdc3] : !cake.tensor<[B, K, D], bf16> -> bf16
    %sik3 = arith.cmpi ult, %sk3, %kdim : index
    %sid3 = arith.cmpi ult, %sd3, %ddim : index
    %sin3 = arith.andi %sik3, %sid3 : i1
    %sv3 = arith.select %sin3, %sl3, %szero : bf16
    %so4 = arith.constant 512 : index
    %se4 = arith.addi %sbase, %so4 : index
    %sk4 = arith.divui %se4, %scs : index
    %sd4 = arith.remui %se4, %scs : index
    %skc4 = arith.minui %sk4, %sklast : index
    %sdc4 = arith.minui %sd4, %sdlast : index
    %sl4 = cake.load %c[%b, %skc4, %sdc4] : !cake.tensor<[B, K, D], bf16> -> bf16
    %sik4 = arith.cmpi ult, %sk4, %kdim : index
    %sid4 = arith.cmpi ult, %sd4, %ddim : index
    %sin4 = arith.andi %sik4, %sid4 : i1
    %sv4 = arith.select %sin4, %sl4, %szero : bf16
    %so5 = arith.constant 640 : index
    %se5 = arith.addi %sbase, %so5 : index
    %sk5 = arith.divui %se5, %scs : index
    %sd5 = arith.remui %se5, %scs : index
    %skc5 = arith.minui %sk5, %sklast : index
    %sdc5 = arith.minui %sd5, %sdlast : index
    %sl5 = cake.load %c[%b, %skc5, %sdc5] : !cake.tensor<[B, K, D], bf16> -> bf16
    %sik5 = arith.cmpi ult, %sk5, %kdim : index
    %sid5 = arith.cmpi ult, %sd5, %ddim : index
    %sin5 = arith.andi %sik5, %sid5 : i1
    %sv5 = arith.select %sin5, %sl5, %szero : bf16
    %so6 = arith.constant 768 : index
    %se6 = arith.addi %sbase, %so6 : index
    %sk6 = arith.divui %se6, %scs : index
    %sd6 = arith.remui %se6, %scs : index
    %skc6 = arith.minui %sk6, %sklast : index
    %sdc6 = arith.minui %sd6, %sdlast : index
    %sl6 = cake.load %c[%b, %skc6, %sdc6] : !cake.tensor<[B, K, D], bf16> -> bf16
    %sik6 = arith.cmpi ult, %sk6, %kdim : index
    %sid6 = arith.cmpi ult, %sd6, %ddim : index
    %sin6 = arith.andi %sik6, %sid6 : i1
    %sv6 = arith.select %sin6, %sl6, %szero : bf16
    %so7 = arith.constant 896 : index
    %se7 = arith.addi %sbase, %so7 : index
    %sk7 = arith.divui %se7, %scs : index
    %sd7 = arith.remui %se7, %scs : index
    %skc7 = arith.minui %sk7, %sklast : index
    %sdc7 = arith.minui %sd7, %sdlast : index
    %sl7 = cake.load %c[%b, %skc7, %sdc7] : !cake.tensor<[B, K, D], bf16> -> bf16
    %sik7 = arith.cmpi ult, %sk7, %kdim : index
    %sid7 = arith.cmpi ult, %sd7, %ddim : index
    %sin7 = arith.andi %sik7, %sid7 : i1
    %sv7 = arith.select %sin7, %sl7, %szero : bf16
    %sit0 = arith.cmpi ult, %se0, %stotal : index
    scf.if %sit0 {
      cake.store %sv0, %csm[%sk0, %sd0] : bf16, !cake.smem<8x64xbf16>
    }
    %sit1 = arith.cmpi ult, %se1, %stotal : index
    scf.if %sit1 {
      cake.store %sv1, %csm[%sk1, %sd1] : bf16, !cake.smem<8x64xbf16>
    }
    %sit2 = arith.cmpi ult, %se2, %stotal : index
    scf.if %sit2 {
      cake.store %sv2, %csm[%sk2, %sd2] : bf16, !cake.smem<8x64xbf16>
    }
    %sit3 = arith.cmpi ult, %se3, %stotal : index
    scf.if %sit3 {
      cake.store %sv3, %csm[%sk3, %sd3] : bf16, !cake.smem<8x64xbf16>
    }
    %sit4 = arith.cmpi ult, %se4, %stotal : index
    scf.if %sit4 {
      cake.store %sv4, %csm[%sk4, %sd4] : bf16, !cake.smem<8x64xbf16>
    }
    %sit5 = arith.cmpi ult, %se5, %stotal : index
    scf.if %sit5 {
      cake.store %sv5, %csm[%sk5, %sd5] : bf16, !cake.smem<8x64xbf16>
    }
    %sit6 = arith.cmpi ult, %se6, %stotal : index
    scf.if %sit6 {
      cake.store %sv6, %csm[%sk6, %sd6] : bf16, !cake.smem<8x64xbf16>
    }
    %sit7 = arith.cmpi ult, %se7, %stotal : index
    scf.if %sit7 {
      cake.store %sv7, %csm[%sk7, %sd7] : bf16, !cake.smem<8x64xbf16>
    }
  }
  cake.barrier
  scf.for %item = %ilo to %ihi step %c1 {
  %tile = arith.remui %item, %ntiles : index
  %pb = arith.muli %tile, %c64 : index
  %pw = arith.muli %wp, %c16 : index
  %p0 = arith.addi %pb, %pw : index
  %pg = arith.addi %p0, %g : index
  %nlast = arith.subi %ndim, %c1 : index
  %klast = arith.subi %kdim, %c1 : index
  %dlast = arith.subi %ddim, %c8 : index
  %row0_0 = arith.addi %pg, %c0 : index
  %rowc0_0 = arith.minui %row0_0, %nlast : index
  %row0_1 = arith.addi %pg, %c8 : index
  %rowc0_1 = arith.minui %row0_1, %nlast : index
  %kbig = arith.index_cast %kdim : index to i32
  %best:4 = scf.for %k0 = %c0 to %kdim step %c8 iter_args(%bs0_0 = %inf, %bk0_0 = %kbig, %bs0_1 = %inf, %bk0_1 = %kbig) -> (f32, i32, f32, i32) {
    %kr0 = arith.addi %k0, %c0 : index
    %kg0 = arith.addi %kr0, %g : index
    %kc0 = arith.minui %kg0, %klast : index
    %kk0_0 = arith.addi %kr0, %q2 : index
    %kk0_1 = arith.addi %kk0_0, %c1 : index
    %sq0_0 = cake.load %csq[%b, %kk0_0] masked pad(%inf : f32) : !cake.tensor<[B, K], f32> -> f32
    %ki0_0 = arith.index_cast %kk0_0 : index to i32
    %sq0_1 = cake.load %csq[%b, %kk0_1] masked pad(%inf : f32) : !cake.tensor<[B, K], f32> -> f32
    %ki0_1 = arith.index_cast %kk0_1 : index to i32
    %acc:1 = scf.for %d = %c0 to %ddim step %c32 iter_args(%a0_0 = %zacc) -> (vector<4xf32>) {
      %dq = arith.addi %d, %qs : index
      %cc0 = arith.minui %dq, %dlast : index
      %in0 = arith.cmpi ult, %dq, %ddim : index
      %xr0_0_0 = cake.load %x[%b, %rowc0_0, %cc0] : !cake.tensor<[B, N, D], bf16> -> vector<8xbf16>
      %x0_0_0 = arith.select %in0, %xr0_0_0, %zx : vector<8xbf16>
      %xr0_1_0 = cake.load %x[%b, %rowc0_1, %cc0] : !cake.tensor<[B, N, D], bf16> -> vector<8xbf16>
      %x0_1_0 = arith.select %in0, %xr0_1_0, %zx : vector<8xbf16>
      %y0_0 = cake.load %csm[%kg0, %dq] : !cake.smem<8x64xbf16> -> vector<8xbf16>
      %fb0_0 = vector.shuffle %y0_0, %y0_0 [0, 1, 2, 3] : vector<8xbf16>, vector<8xbf16>
      %lo0_0 = vector.shuffle %x0_0_0, %x0_0_0 [0, 1, 2, 3] : vector<8xbf16>, vector<8xbf16>
      %hi0_0 = vector.shuffle %x0_1_0, %x0_1_0 [0, 1, 2, 3] : vector<8xbf16>, vector<8xbf16>
      %fa0_0 = vector.shuffle %lo0_0, %hi0_0 [0, 1, 4, 5, 2, 3, 6, 7] : vector<4xbf16>, vector<4xbf16>
      %m0_0_0_0 = cake.mma_sync %fa0_0, %fb0_0, %a0_0 : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      %fb1_0 = vector.shuffle %y0_0, %y0_0 [4, 5, 6, 7] : vector<8xbf16>, vector<8xbf16>
      %lo1_0 = vector.shuffle %x0_0_0, %x0_0_0 [4, 5, 6, 7] : vector<8xbf16>, vector<8xbf16>
      %hi1_0 = vector.shuffle %x0_1_0, %x0_1_0 [4, 5, 6, 7] : vector<8xbf16>, vector<8xbf16>
      %fa1_0 = vector.shuffle %lo1_0, %hi1_0 [0, 1, 4, 5, 2, 3, 6, 7] : vector<4xbf16>, vector<4xbf16>
      %m1_0_0_0 = cake.mma_sync %fa1_0, %fb1_0, %m0_0_0_0 : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      scf.yield %m1_0_0_0 : vector<4xf32>
    }
    %dot0_0_0_0 = vector.extract %acc#0[0] : f32 from vector<4xf32>
    %s0_0_0_0 = math.fma %mtwo, %dot0_0_0_0, %sq0_0 : f32
    %lt0_0_0_0 = arith.cmpf olt, %s0_0_0_0, %bs0_0 : f32
    %ms0_0_0_0 = arith.select %lt0_0_0_0, %s0_0_0_0, %bs0_0 : f32
    %mk0_0_0_0 = arith.select %lt0_0_0_0, %ki0_0, %bk0_0 : i32
    %dot0_0_0_1 = vector.extract %acc#0[1] : f32 from vector<4xf32>
    %s0_0_0_1 = math.fma %mtwo, %dot0_0_0_1, %sq0_1 : f32
    %lt0_0_0_1 = arith.cmpf olt, %s0_0_0_1, %ms0_0_0_0 : f32
    %ms0_0_0_1 = arith.select %lt0_0_0_1, %s0_0_0_1, %ms0_0_0_0 : f32
    %mk0_0_0_1 = arith.select %lt0_0_0_1, %ki0_1, %mk0_0_0_0 : i32
    %dot0_1_0_0 = vector.extract %acc#0[2] : f32 from vector<4xf32>
    %s0_1_0_0 = math.fma %mtwo, %dot0_1_0_0, %sq0_0 : f32
    %lt0_1_0_0 = arith.cmpf olt, %s0_1_0_0, %bs0_1 : f32
    %ms0_1_0_0 = arith.select %lt0_1_0_0, %s0_1_0_0, %bs0_1 : f32
    %mk0_1_0_0 = arith.select %lt0_1_0_0, %ki0_0, %bk0_1 : i32
    %dot0_1_0_1 = vector.extract %acc#0[3] : f32 from vector<4xf32>
    %s0_1_0_1 = math.fma %mtwo, %dot0_1_0_1, %sq0_1 : f32
    %lt0_1_0_1 = arith.cmpf olt, %s0_1_0_1, %ms0_1_0_0 : f32
    %ms0_1_0_1 = arith.select %lt0_1_0_1, %s0_1_0_1, %ms0_1_0_0 : f32
    %mk0_1_0_1 = arith.select %lt0_1_0_1, %ki0_1, %mk0_1_0_0 : i32
    scf.yield %ms0_0_0_1, %mk0_0_0_1, %ms0_1_0_1, %mk0_1_0_1 : f32, i32, f32, i32
  }
  %lead = arith.cmpi eq, %q, %c0 : index
  %rv0_0, %ri0_0 = cake.warp_arg_reduce argmin %best#0, %best#1 {lanes = 4 : i64} : f32, i32
  %rv0_1, %ri0_1 = cake.warp_arg_reduce argmin %best#2, %best#3 {lanes = 4 : i64} : f32, i32
  scf.if %lead {
    cake.store %ri0_0, %idx[%b, %row0_0] masked : i32, !cake.tensor<[B, N], i32>
    cake.store %ri0_1, %idx[%b, %row0_1] masked : i32, !cake.tensor<[B, N], i32>
  }
  }
  }
  cake.return
}
