// Two kernels, two targets: one module lowers to one chip.
cake.kernel @a() attributes {target = "sm_90a", block = array<i64: 32>, grid = affine_map<() -> (1)>} {
  cake.return
}
cake.kernel @b() attributes {target = "sm_80", block = array<i64: 32>, grid = affine_map<() -> (1)>} {
  cake.return
}
