// CORPUS: verdict=buggy class=arrivals
// GPU: race (wrong result): the phase completes when 8 of the 16 warps have arrived
// WHY: one arrival per warp against a count of 8, in a block of 16 warps: the other 8 warps'
//      stores may not have happened when the neighbours read them.
// SIZES: N=1000000
// H200: hang (no exit within 6 s; killed)

cake.kernel @split_smooth_warp_count8_block512(
    %x: !cake.tensor<[N], f32> {cake.name = "x"},
    %w: !cake.tensor<[N], f32> {cake.name = "w"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 512>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 512)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cb = arith.constant 512 : index
  %clast = arith.constant 511 : index
  %third = arith.constant 0.333333343 : f32
  %s = cake.alloc_smem : !cake.smem<512xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %lane = cake.lane_id
  %bid = cake.block_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 8 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %base = arith.muli %bid, %cb : index
  %g = arith.addi %base, %tid : index
  %v = cake.load %x[%g] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %s[%tid] : f32, !cake.smem<512xf32>
  %el = cake.elect_one
  scf.if %el {
    cake.mbarrier.arrive %bar[%c0] : !cake.mbarriers<1>
  }
  // Independent work while the other threads publish their values.
  %wt = cake.load %w[%g] masked : !cake.tensor<[N], f32> -> f32
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  %lpos = arith.maxui %tid, %c1 : index
  %left = arith.subi %lpos, %c1 : index
  %rpos = arith.addi %tid, %c1 : index
  %right = arith.minui %rpos, %clast : index
  %a = cake.load %s[%left] : !cake.smem<512xf32> -> f32
  %b = cake.load %s[%tid] : !cake.smem<512xf32> -> f32
  %c = cake.load %s[%right] : !cake.smem<512xf32> -> f32
  %ab = arith.addf %a, %b : f32
  %abc = arith.addf %ab, %c : f32
  %avg = arith.mulf %abc, %third : f32
  %r = arith.mulf %avg, %wt : f32
  cake.store %r, %y[%g] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
