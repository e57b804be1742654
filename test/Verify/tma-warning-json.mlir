// A warning finding (tma.coord-stride) keeps its rule id and hint in the JSON form, with severity
// "warning", and does not fail the pass.
// RUN: cake-opt %s --cake-verify-tma --cake-diagnostics=json -o /dev/null 2>&1 | FileCheck %s
// CHECK: {"col":5,"file":"{{.*}}tma-warning-json.mlir","hint":"advance the coordinate by the box extent 64 per iteration (tile size = box), or shrink the box to the tile","line":26,"message":"coordinate 1 advances by 32 per iteration, less than the box's 64: consecutive iterations copy overlapping tiles","notes":[{"col":3,"file":"{{.*}}","line":24,"message":"the loop is here"}],"op":"cake.tma.load","rule":"tma.coord-stride","schema":"cake-diagnostic","severity":"warning","version":1}

cake.kernel @stride_below_box(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
    %ta: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %m0 = cake.block_id x
  %buf = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t = cake.thread_id x
  %first = arith.cmpi eq, %t, %c0 : index
  scf.if %first {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.for %kt = %c0 to %kdim step %c1 {
    %k0 = arith.muli %kt, %c32 : index
    cake.tma.load %ta[%m0, %k0], %buf[], %bar[%c0]
        : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>,
          !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<1>
  }
  cake.return
}
