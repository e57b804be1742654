// CORPUS: verdict=correct class=smem-bounds
// GPU: none (correct)
// WHY: the staged row has one halo element on each side (258 floats); threads 0 and 255 load them.
// SIZES: N=1000000
// H200: ok (ran; every output element written)

cake.kernel @stencil_halo_buffer(
    %x: !cake.tensor<[N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c255 = arith.constant 255 : index
  %c256 = arith.constant 256 : index
  %c257 = arith.constant 257 : index
  %third = arith.constant 0.333333343 : f32
  %zero = arith.constant 0.0 : f32
  %s = cake.alloc_smem : !cake.smem<258xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %g = arith.addi %base, %tid : index
  %v = cake.load %x[%g] masked : !cake.tensor<[N], f32> -> f32
  %t1 = arith.addi %tid, %c1 : index
  cake.store %v, %s[%t1] : f32, !cake.smem<258xf32>
  %first = arith.cmpi eq, %tid, %c0 : index
  scf.if %first {
    %inner = arith.cmpi ugt, %bid, %c0 : index
    %lv = scf.if %inner -> (f32) {
      %gl = arith.subi %g, %c1 : index
      %xl = cake.load %x[%gl] masked : !cake.tensor<[N], f32> -> f32
      scf.yield %xl : f32
    } else {
      scf.yield %zero : f32
    }
    cake.store %lv, %s[%c0] : f32, !cake.smem<258xf32>
  }
  %last = arith.cmpi eq, %tid, %c255 : index
  scf.if %last {
    %gr = arith.addi %g, %c1 : index
    %xr = cake.load %x[%gr] masked : !cake.tensor<[N], f32> -> f32
    cake.store %xr, %s[%c257] : f32, !cake.smem<258xf32>
  }
  cake.barrier
  %t2 = arith.addi %tid, %c2 : index
  %l = cake.load %s[%tid] : !cake.smem<258xf32> -> f32
  %m = cake.load %s[%t1] : !cake.smem<258xf32> -> f32
  %r = cake.load %s[%t2] : !cake.smem<258xf32> -> f32
  %lc = arith.addf %l, %m : f32
  %lcr = arith.addf %lc, %r : f32
  %avg = arith.mulf %lcr, %third : f32
  cake.store %avg, %y[%g] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
