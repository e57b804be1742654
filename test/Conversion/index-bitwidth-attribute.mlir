// A kernel's own `index_bitwidth` chooses its index width when no tool option does: the same
// lowering and manifest as --index-bitwidth=32; an explicit option overrides it. The kernels of
// a module must agree.
// RUN: cake-translate %S/Inputs/index32-attribute.mlir --emit=manifest | FileCheck %s --check-prefix=OWN
// OWN: "ceildiv(N, 128) * 128 <= 1073741824",
// OWN: "N <= 1073741824"
// OWN: "index_bits": 32
// RUN: cake-translate %S/Inputs/index32-attribute.mlir --emit=ptx > %t.own.ptx
// RUN: cake-translate %S/Inputs/index32-attribute.mlir --emit=ptx --index-bitwidth=32 > %t.flag.ptx
// RUN: diff %t.own.ptx %t.flag.ptx
// RUN: cake-opt %S/Inputs/index32-attribute.mlir --cake-lower-to-nvvm | FileCheck %s --check-prefix=LOWERED
// LOWERED: dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>
// LOWERED: llvm.sext %{{.*}} : i32 to i64
// RUN: cake-translate %S/Inputs/index32-attribute.mlir --emit=manifest --index-bitwidth=64 | FileCheck %s --check-prefix=OVERRIDE --implicit-check-not=index_bits --implicit-check-not=1073741824
// OVERRIDE: "entry": "self_narrow"
// RUN: not cake-translate %S/Inputs/index32-mixed.mlir --emit=ptx 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: index32-mixed.mlir:7:1: error: kernels of one module must share an index_bitwidth: expected 64, got 32
// MIXED: index32-mixed.mlir:2:1: note: the first kernel's index_bitwidth is 64
// RUN: not cake-opt %S/Inputs/index32-mixed.mlir --cake-lower-to-nvvm 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: cake-translate %S/Inputs/index32-mixed.mlir --emit=manifest --index-bitwidth=32 | FileCheck %s --check-prefix=BOTH
// BOTH-COUNT-2: "index_bits": 32
