pdl.pattern @unknown : benefit(1) {
  %root = pdl.operation "cake.no_such_op"
  pdl.rewrite %root {
    %a = pdl.attribute = "rule.unknown"
    pdl.apply_native_rewrite "cakeReport"(%root, %a, %a, %a : !pdl.operation, !pdl.attribute, !pdl.attribute, !pdl.attribute)
  }
}
