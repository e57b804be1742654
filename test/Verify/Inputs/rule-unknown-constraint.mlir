pdl.pattern @unknown_constraint : benefit(1) {
  %operands = pdl.operands
  %types = pdl.types
  %root = pdl.operation "cake.barrier"(%operands : !pdl.range<value>) -> (%types : !pdl.range<type>)
  %n = pdl.attribute = 4 : i64
  pdl.apply_native_constraint "cakeNoSuchConstraint"(%root, %n : !pdl.operation, !pdl.attribute)
  pdl.rewrite %root {
    %a = pdl.attribute = "rule.unknown-constraint"
    pdl.apply_native_rewrite "cakeReport"(%root, %a, %a, %a : !pdl.operation, !pdl.attribute, !pdl.attribute, !pdl.attribute)
  }
}
