// cake-print-ir-json: the module as a structured view for tools that do not parse MLIR; the IR
// itself is unchanged.
// RUN: cake-opt %s --cake-print-ir-json -o %t.mlir > %t.json
// RUN: python3 %S/Inputs/check_ir_json.py %t.json | FileCheck %s
// RUN: cake-opt %s -o - | diff - %t.mlir
// RUN: python3 -c "import json,sys; k=json.load(open(sys.argv[1]))['ops'][0]; print(k['attributes']['target'], k['regions'][0][0]['arguments'][0])" %t.json | FileCheck %s --check-prefix=ATTR
// ATTR: "sm_90a" {'id': '%0', 'type': '!cake.tensor<[N], f32>'}
// Attributes that are plain data also come as JSON values; an affine map or an infinite float
// is printed only (JSON has no infinity).
// RUN: python3 -c "import json,sys; ops=json.load(open(sys.argv[1]))['ops']; k=ops[0]; print(sorted(k['values'].items())); print('grid' in k['values'], 'grid' in k['attributes']); f=ops[1]; print(f['attributes']['value'], 'value' in f['values'])" %t.json | FileCheck %s --check-prefix=VALUES
// VALUES: [('block', [128]), ('dynamic_smem', 0), ('sym_name', 'scale'), ('symbols', ['N']), ('target', 'sm_90a')]
// VALUES-NEXT: False True
// VALUES-NEXT: 0xFF800000 : f32 False

// CHECK: cake.kernel @[[@LINE+1]] () ->
cake.kernel @scale(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                   %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 128)>} {
  // CHECK-NEXT: cake.thread_id @[[@LINE+1]] () -> %2:index
  %tid = cake.thread_id x
  // CHECK-NEXT: cake.load @[[@LINE+1]] (%0 %2) -> %3:f32
  %v = cake.load %x[%tid] masked : !cake.tensor<[N], f32> -> f32
  // CHECK-NEXT: arith.addf @[[@LINE+1]] (%3 %3) -> %4:f32
  %w = arith.addf %v, %v : f32
  // CHECK-NEXT: cake.store @[[@LINE+1]] (%4 %1 %2) ->
  cake.store %w, %y[%tid] masked : f32, !cake.tensor<[N], f32>
  // CHECK-NEXT: cake.return @[[@LINE+1]] () ->
  cake.return
}

// CHECK: arith.constant @[[@LINE+1]] () -> %{{[0-9]+}}:f32
%ninf = arith.constant 0xFF800000 : f32
