// Rule named-barrier-id-collision: a named barrier id is one hardware barrier for the whole
// block. Two cake.named_barrier ops with the same id in different roles (or with different thread
// counts) count each other's arrivals: they release early or hang.
pdl.pattern @"named-barrier-id-collision" : benefit(1) {
  %id = pdl.attribute = "id"
  %root = pdl.operation "cake.named_barrier"
  pdl.apply_native_constraint "cakeCollides"(%root, %id : !pdl.operation, !pdl.attribute)
  pdl.rewrite %root {
    %rule = pdl.attribute = "rule.named-barrier-id-collision"
    %message = pdl.attribute = "expected a barrier id of its own: another cake.named_barrier uses this id in another role or with another thread count"
    %hint = pdl.attribute = "give each role (and each thread count) its own barrier id (1 to 15)"
    pdl.apply_native_rewrite "cakeReport"(%root, %rule, %message, %hint
        : !pdl.operation, !pdl.attribute, !pdl.attribute, !pdl.attribute)
  }
}
