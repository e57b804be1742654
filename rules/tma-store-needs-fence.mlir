// Rule tma-store-needs-fence: a TMA store reads shared memory through the async proxy; data the
// threads wrote with ordinary stores (generic proxy) is visible to it only after
// cake.fence.proxy_async. Fires on a cake.tma.store with a cake.store before it (in program
// order) and no fence between the last such store and the copy.
pdl.pattern @"tma-store-needs-fence" : benefit(1) {
  %fence = pdl.attribute = "cake.fence.proxy_async"
  %store = pdl.attribute = "cake.store"
  %operands = pdl.operands  // any operands (without it, PDL matches only ops with none)
  %root = pdl.operation "cake.tma.store"(%operands : !pdl.range<value>)
  pdl.apply_native_constraint "cakeNoneSince"(%root, %fence, %store
      : !pdl.operation, !pdl.attribute, !pdl.attribute)
  pdl.rewrite %root {
    %rule = pdl.attribute = "rule.tma-store-needs-fence"
    %message = pdl.attribute = "expected a cake.fence.proxy_async between the shared-memory stores and this TMA store: the async proxy may read stale data"
    %hint = pdl.attribute = "add cake.fence.proxy_async after the last cake.store (in every writing thread), then a barrier, before the TMA store"
    pdl.apply_native_rewrite "cakeReport"(%root, %rule, %message, %hint
        : !pdl.operation, !pdl.attribute, !pdl.attribute, !pdl.attribute)
  }
}
