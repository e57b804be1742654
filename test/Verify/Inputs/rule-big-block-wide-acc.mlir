// A rule in the form `cake learn rules` writes for an op and a block size together: a
// vector<64xf32> wgmma accumulator in a kernel of at least 1024 threads per block (ptxas then has
// 64 registers per thread, all of them taken by the accumulator).
pdl.pattern @"big-block-wide-acc" : benefit(1) {
  %operands = pdl.operands
  %t = pdl.type : vector<64xf32>
  %op = pdl.operation "cake.wgmma.regs"(%operands : !pdl.range<value>) -> (%t : !pdl.type)
  %threads = pdl.attribute = 1024 : i64
  pdl.apply_native_constraint "cakeBlockThreadsAtLeast"(%op, %threads : !pdl.operation, !pdl.attribute)
  pdl.rewrite %op {
    %id = pdl.attribute = "rule.big-block-wide-acc"
    %msg = pdl.attribute = "a 64-element accumulator in blocks of 1024 or more threads"
    %hint = pdl.attribute = "use smaller blocks or a narrower tile"
    pdl.apply_native_rewrite "cakeReport"(%op, %id, %msg, %hint : !pdl.operation, !pdl.attribute, !pdl.attribute, !pdl.attribute)
  }
}
