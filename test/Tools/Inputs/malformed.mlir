// Malformed: a parse error on line 3.
cake.kernel @bad() attributes {target = "sm_90a", block = array<i64: 32>, grid = affine_map<() -> (1)>} {
  %0 = cake.thread_id w
  cake.return
}
