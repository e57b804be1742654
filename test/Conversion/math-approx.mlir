// RUN: cake-opt %s --cake-convert-to-nvvm | FileCheck %s
// RUN: cake-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX

// math.exp2 on f32 with fastmath<afn> becomes ex2.approx.ftz.f32 (one MUFU; denormal results
// flush to zero); without afn, or on f64, it is left to the upstream lowering (ex2.approx.f32
// with denormal handling, or libdevice).
// CHECK-LABEL: gpu.func @exp2_forms
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%{{.*}}) : (f32) -> f32
// CHECK: %[[L0:.*]] = vector.extract %{{.*}}[0] : f32 from vector<2xf32>
// CHECK: %[[E0:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[L0]]) : (f32) -> f32
// CHECK: %[[L1:.*]] = vector.extract %{{.*}}[1] : f32 from vector<2xf32>
// CHECK: %[[E1:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[L1]]) : (f32) -> f32
// CHECK: vector.from_elements %[[E0]], %[[E1]] : vector<2xf32>
// CHECK: math.exp2 %{{.*}} : f32
// CHECK-NOT: llvm.call_intrinsic
// CHECK: math.exp2 %{{.*}} fastmath<afn> : f64
// PTX-LABEL: .entry exp2_forms
// PTX-COUNT-3: ex2.approx.ftz.f32
// PTX: ex2.approx.f32
// PTX-NOT: ex2.approx.ftz.f32
cake.kernel @exp2_forms(%x: !cake.tensor<[4], f32>, %d: !cake.tensor<[1], f64>)
    attributes {target = "sm_90a", block = array<i64: 32>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = cake.load %x[%c0] : !cake.tensor<[4], f32> -> f32
  %ea = math.exp2 %a fastmath<afn> : f32
  cake.store %ea, %x[%c0] : f32, !cake.tensor<[4], f32>
  %v = cake.load %x[%c1] : !cake.tensor<[4], f32> -> vector<2xf32>
  %ev = math.exp2 %v fastmath<afn> : vector<2xf32>
  cake.store %ev, %x[%c1] : vector<2xf32>, !cake.tensor<[4], f32>
  %b = cake.load %x[%c2] : !cake.tensor<[4], f32> -> f32
  %eb = math.exp2 %b : f32
  cake.store %eb, %x[%c2] : f32, !cake.tensor<[4], f32>
  %e = cake.load %d[%c0] : !cake.tensor<[1], f64> -> f64
  %ee = math.exp2 %e fastmath<afn> : f64
  cake.store %ee, %d[%c0] : f64, !cake.tensor<[1], f64>
  cake.return
}
