// CORPUS: verdict=correct class=race
// GPU: none (correct)
// WHY: Hillis-Steele scan: each step reads, barrier, writes, barrier.
// SIZES: N=1000000
// H200: ok (ran; every output element written)

cake.kernel @block_scan_two_barriers_per_step(
    %x: !cake.tensor<[N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %s = cake.alloc_smem : !cake.smem<256xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %g = arith.addi %base, %tid : index
  %v = cake.load %x[%g] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %s[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  %d1 = arith.constant 1 : index
  %has1 = arith.cmpi uge, %tid, %d1 : index
  %own1 = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
  %add1 = scf.if %has1 -> (f32) {
    %src1 = arith.subi %tid, %d1 : index
    %o1 = cake.load %s[%src1] : !cake.smem<256xf32> -> f32
    %t1 = arith.addf %own1, %o1 : f32
    scf.yield %t1 : f32
  } else {
    scf.yield %own1 : f32
  }
  cake.barrier
  cake.store %add1, %s[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  %d2 = arith.constant 2 : index
  %has2 = arith.cmpi uge, %tid, %d2 : index
  %own2 = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
  %add2 = scf.if %has2 -> (f32) {
    %src2 = arith.subi %tid, %d2 : index
    %o2 = cake.load %s[%src2] : !cake.smem<256xf32> -> f32
    %t2 = arith.addf %own2, %o2 : f32
    scf.yield %t2 : f32
  } else {
    scf.yield %own2 : f32
  }
  cake.barrier
  cake.store %add2, %s[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  %d4 = arith.constant 4 : index
  %has4 = arith.cmpi uge, %tid, %d4 : index
  %own4 = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
  %add4 = scf.if %has4 -> (f32) {
    %src4 = arith.subi %tid, %d4 : index
    %o4 = cake.load %s[%src4] : !cake.smem<256xf32> -> f32
    %t4 = arith.addf %own4, %o4 : f32
    scf.yield %t4 : f32
  } else {
    scf.yield %own4 : f32
  }
  cake.barrier
  cake.store %add4, %s[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  %d8 = arith.constant 8 : index
  %has8 = arith.cmpi uge, %tid, %d8 : index
  %own8 = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
  %add8 = scf.if %has8 -> (f32) {
    %src8 = arith.subi %tid, %d8 : index
    %o8 = cake.load %s[%src8] : !cake.smem<256xf32> -> f32
    %t8 = arith.addf %own8, %o8 : f32
    scf.yield %t8 : f32
  } else {
    scf.yield %own8 : f32
  }
  cake.barrier
  cake.store %add8, %s[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  %d16 = arith.constant 16 : index
  %has16 = arith.cmpi uge, %tid, %d16 : index
  %own16 = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
  %add16 = scf.if %has16 -> (f32) {
    %src16 = arith.subi %tid, %d16 : index
    %o16 = cake.load %s[%src16] : !cake.smem<256xf32> -> f32
    %t16 = arith.addf %own16, %o16 : f32
    scf.yield %t16 : f32
  } else {
    scf.yield %own16 : f32
  }
  cake.barrier
  cake.store %add16, %s[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  %d32 = arith.constant 32 : index
  %has32 = arith.cmpi uge, %tid, %d32 : index
  %own32 = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
  %add32 = scf.if %has32 -> (f32) {
    %src32 = arith.subi %tid, %d32 : index
    %o32 = cake.load %s[%src32] : !cake.smem<256xf32> -> f32
    %t32 = arith.addf %own32, %o32 : f32
    scf.yield %t32 : f32
  } else {
    scf.yield %own32 : f32
  }
  cake.barrier
  cake.store %add32, %s[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  %d64 = arith.constant 64 : index
  %has64 = arith.cmpi uge, %tid, %d64 : index
  %own64 = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
  %add64 = scf.if %has64 -> (f32) {
    %src64 = arith.subi %tid, %d64 : index
    %o64 = cake.load %s[%src64] : !cake.smem<256xf32> -> f32
    %t64 = arith.addf %own64, %o64 : f32
    scf.yield %t64 : f32
  } else {
    scf.yield %own64 : f32
  }
  cake.barrier
  cake.store %add64, %s[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  %d128 = arith.constant 128 : index
  %has128 = arith.cmpi uge, %tid, %d128 : index
  %own128 = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
  %add128 = scf.if %has128 -> (f32) {
    %src128 = arith.subi %tid, %d128 : index
    %o128 = cake.load %s[%src128] : !cake.smem<256xf32> -> f32
    %t128 = arith.addf %own128, %o128 : f32
    scf.yield %t128 : f32
  } else {
    scf.yield %own128 : f32
  }
  cake.barrier
  cake.store %add128, %s[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  %r = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
  cake.store %r, %y[%g] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
