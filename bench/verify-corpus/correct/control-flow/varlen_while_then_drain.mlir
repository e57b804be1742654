// CORPUS: verdict=correct class=control-flow
// GPU: none (correct)
// WHY: the producer streams every tile; the consumers stop summing at the valid count and then drain
//      (wait + release) the remaining tiles so the producer never stalls.
// SIZES: M=8192,K=4096,G=256
// H200: ok, output identical to varlen_while_matching_bounds (seed 7)

cake.kernel @varlen_while_then_drain(
    %x: !cake.tensor<[M, K], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, K], f32, box [32, 32]> {cake.name = "tx", cake.describes = "x"},
    %lens: !cake.tensor<[G], i32> {cake.name = "lens"},
    %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 160>, symbols = ["M", "K", "G"],
                grid = affine_map<()[m, k, g] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %kfloor = arith.divui %kdim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  // The number of valid 32-column tiles of this block's rows (a ragged batch).
  %len32 = cake.load %lens[%bid] masked : !cake.tensor<[G], i32> -> i32
  %len = arith.index_cast %len32 : i32 to index
  %mytiles = arith.minui %len, %ktiles : index
  %buf = cake.alloc_smem : !cake.smem<2x32x32xf32>
  %pipe = cake.pipeline.create consumers 128 : !cake.pipeline<2>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %kt = %c0 to %ktiles step %c1 {
          cake.pipeline.producer_acquire %pipe[%kt] : !cake.pipeline<2>
          cake.pipeline.producer_commit %pipe[%kt], tx_bytes 4096 : !cake.pipeline<2>
          %slot = cake.pipeline.slot %pipe[%kt] : !cake.pipeline<2>
          %k0 = arith.muli %kt, %c32 : index
          cake.tma.load %tx[%m0, %k0], %buf[%slot], %pipe[%kt]
              : !cake.tma<[M, K], f32, box [32, 32]>, !cake.smem<2x32x32xf32>, !cake.pipeline<2>
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
      %res:2 = scf.while (%kt = %c0, %acc = %zero) : (index, f32) -> (index, f32) {
        %go = arith.cmpi ult, %kt, %mytiles : index
        scf.condition(%go) %kt, %acc : index, f32
      } do {
      ^bb0(%it: index, %s: f32):
        cake.pipeline.consumer_wait %pipe[%it] : !cake.pipeline<2>
        %slot = cake.pipeline.slot %pipe[%it] : !cake.pipeline<2>
        %v0 = cake.load %buf[%slot, %row, %col0] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v1 = cake.load %buf[%slot, %row, %col1] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v = arith.addf %v0, %v1 : vector<4xf32>
        %part = vector.reduction <add>, %v : vector<4xf32> into f32
        cake.pipeline.consumer_release %pipe[%it] : !cake.pipeline<2>
        %s2 = arith.addf %s, %part : f32
        %nk = arith.addi %it, %c1 : index
        scf.yield %nk, %s2 : index, f32
      }
      scf.for %d = %res#0 to %ktiles step %c1 {
        cake.pipeline.consumer_wait %pipe[%d] : !cake.pipeline<2>
        cake.pipeline.consumer_release %pipe[%d] : !cake.pipeline<2>
      }
      %total = cake.warp_reduce sum %res#1 {lanes = 4 : i64} : f32
      %mrow = arith.addi %m0, %row : index
      %lead = arith.cmpi eq, %quad, %c0 : index
      scf.if %lead {
        cake.store %total, %out[%mrow] masked : f32, !cake.tensor<[M], f32>
      }
    }
  }
  cake.return
}
