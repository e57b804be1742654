// The outputs of cake-translate: PTX, LLVM IR, the manifest, a cubin.
// RUN: cake-translate %S/Inputs/row_scale.mlir --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: cake-translate %S/Inputs/row_scale.mlir --emit=ptx --chip=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: cake-translate %S/Inputs/row_scale.mlir --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: cake-translate %S/Inputs/row_scale.mlir --emit=manifest | FileCheck %s --check-prefix=MANIFEST
// Already-lowered input is serialized as is.
// RUN: cake-opt %S/Inputs/row_scale.mlir --cake-lower-to-nvvm | cake-translate --emit=ptx | FileCheck %s --check-prefix=PTX

// PTX: .version 8.0
// PTX: .target sm_90a
// PTX: .extern .shared .align 1024 .b8 __cake_smem[]
// PTX: .visible .entry row_scale(
// PTX: ld.global.v4.b32
// PTX: st.shared.v4.b32
// PTX: bar.sync 0
// PTX: ld.shared.v4.b32
// PTX: st.global.v4.b32

// SM80: .target sm_80

// LLVM: @__cake_smem = external addrspace(3) global [0 x i8], align 1024
// LLVM: define ptx_kernel void @row_scale(ptr addrspace(1) {{.*}}, float {{.*}}, ptr addrspace(1) {{.*}}, i64 {{.*}}, i64 {{.*}})

// MANIFEST: "cake_manifest_version": 1,
// MANIFEST: "block": [
// MANIFEST-NEXT: 64,
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: 1
// MANIFEST: "constraints": [
// MANIFEST-NEXT: "M >= 1",
// MANIFEST-NEXT: "D >= 1",
// MANIFEST-NEXT: "mod(D, 8) == 0"
// MANIFEST: "dynamic_shared_bytes": 2304,
// MANIFEST: "entry": "row_scale",
// MANIFEST: "grid": [
// MANIFEST-NEXT: "ceildiv(M, 2)",
// MANIFEST-NEXT: "ceildiv(D, 512)",
// MANIFEST-NEXT: "1"
// MANIFEST: "params": [
// MANIFEST: "access": "read",
// MANIFEST-NEXT: "dtype": "f16",
// MANIFEST-NEXT: "kind": "tensor",
// MANIFEST-NEXT: "name": "x",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: "M",
// MANIFEST-NEXT: "D"
// MANIFEST: "strides": [
// MANIFEST-NEXT: "D",
// MANIFEST-NEXT: "1"
// MANIFEST: "dtype": "f32",
// MANIFEST-NEXT: "kind": "scalar",
// MANIFEST-NEXT: "name": "alpha"
// MANIFEST: "access": "write",
// MANIFEST: "name": "y",
// MANIFEST: "kind": "symbol",
// MANIFEST-NEXT: "name": "M"
// MANIFEST: "kind": "symbol",
// MANIFEST-NEXT: "name": "D"
// MANIFEST: "static_shared_bytes": 0,
// MANIFEST: "target": "sm_90a"
