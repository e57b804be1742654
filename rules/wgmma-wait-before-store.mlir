// Rule wgmma-wait-before-store: cake.wgmma.store reads the accumulator registers that the
// asynchronous wgmma writes; without a cake.wgmma.wait before it (in program order) it stores
// whatever the registers held before the MMA finished.
// Runs as `cake-opt --cake-load-rules=rules/wgmma-wait-before-store.mlir
//          --cake-rule-wgmma-wait-before-store` (or in --cake-verify).
pdl.pattern @"wgmma-wait-before-store" : benefit(1) {
  %wait = pdl.attribute = "cake.wgmma.wait"
  %operands = pdl.operands  // any operands (without it, PDL matches only ops with none)
  %root = pdl.operation "cake.wgmma.store"(%operands : !pdl.range<value>)
  pdl.apply_native_constraint "cakeNoneBefore"(%root, %wait : !pdl.operation, !pdl.attribute)
  pdl.rewrite %root {
    %rule = pdl.attribute = "rule.wgmma-wait-before-store"
    %message = pdl.attribute = "expected a cake.wgmma.wait before this store: the accumulator may still be written by a running wgmma"
    %hint = pdl.attribute = "add cake.wgmma.wait 0 after the last cake.wgmma.commit, before the store"
    pdl.apply_native_rewrite "cakeReport"(%root, %rule, %message, %hint
        : !pdl.operation, !pdl.attribute, !pdl.attribute, !pdl.attribute)
  }
}
