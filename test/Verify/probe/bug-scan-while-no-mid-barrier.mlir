// Written for session 36 (in no other file): a Hillis-Steele inclusive scan whose stride doubles
// in an scf.while (s = 1, 2, .., 128). Level s: thread t >= s adds buf[t - s] to buf[t] in place,
// with no barrier between the level's loads and its stores.
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK: :{{[0-9]+}}:7: error: 'cake.store' op [race.missing-barrier] expected a block barrier between this write of shared memory and the read by other threads: thread 31 (warp 0) writes element [31], which thread 32 (warp 1) reads before it, with no barrier in between
// BUG: thread t reads buf[t - s] in the same level as thread t - s (itself >= s) overwrites it.
cake.kernel @scan_while(%x: !cake.tensor<[M, T], f32> {cake.name = "x"},
                        %out: !cake.tensor<[M, T], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "T"],
                grid = affine_map<()[m, t] -> (m)>} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %row = cake.block_id x
  %tid = cake.thread_id x
  %buf = cake.alloc_smem : !cake.smem<256xf32>
  %v0 = cake.load %x[%row, %tid] masked : !cake.tensor<[M, T], f32> -> f32
  cake.store %v0, %buf[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  %last = scf.while (%s = %c1) : (index) -> index {
    %go = arith.cmpi ult, %s, %c256 : index
    scf.condition(%go) %s : index
  } do {
  ^bb0(%s: index):
    %act = arith.cmpi uge, %tid, %s : index
    scf.if %act {
      %src = arith.subi %tid, %s : index
      %a = cake.load %buf[%src] : !cake.smem<256xf32> -> f32
      %b = cake.load %buf[%tid] : !cake.smem<256xf32> -> f32
      %ab = arith.addf %a, %b : f32
      cake.store %ab, %buf[%tid] : f32, !cake.smem<256xf32>
    }
    cake.barrier
    %s2 = arith.muli %s, %c2 : index
    scf.yield %s2 : index
  }
  %r = cake.load %buf[%tid] : !cake.smem<256xf32> -> f32
  cake.store %r, %out[%row, %tid] masked : f32, !cake.tensor<[M, T], f32>
  cake.return
}
