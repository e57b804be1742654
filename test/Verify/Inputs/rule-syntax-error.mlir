pdl.pattern @broken : benefit(1) {
  %root = pdl.operation "cake.named_barrier"
  pdl.rewrite %root {
    pdl.apply_native_rewrite "cakeReport"(%root : !pdl.operation
  }
}
