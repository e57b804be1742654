// Every way cake-translate refuses: a one-line reason or a located diagnostic, exit 1, and no
// output file left behind.
// RUN: rm -f %t.out
// RUN: not cake-translate %S/Inputs/row_scale.mlir --emit=cubin --ptxas=%t.missing-ptxas -o %t.out 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// RUN: not test -e %t.out
// NOPTXAS: error: ptxas not found or not executable: {{.*}}missing-ptxas

// Without CUDA_HOME and without ptxas on PATH, the message says how to fix it.
// RUN: not env -u CUDA_HOME -u CUDA_PATH -u CUDA_ROOT PATH=%t.empty-path cake-translate %S/Inputs/row_scale.mlir --emit=cubin -o %t.out 2>&1 | FileCheck %s --check-prefix=NOCUDA
// RUN: not test -e %t.out
// NOCUDA: error: ptxas not found (needed for a cubin): set CUDA_HOME to the CUDA toolkit or give its path (--ptxas=PATH, ptxas_path=)

// RUN: not cake-translate %S/Inputs/row_scale.mlir --emit=ptx --chip=sm_75 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: row_scale.mlir:3:1: error: unknown chip 'sm_75', expected one of sm_80, sm_90, sm_90a, sm_100a

// PTX features LLVM would abort on (too old for the chip) or warn about on stderr are refused.
// RUN: not cake-translate %S/Inputs/row_scale.mlir --emit=ptx --chip=sm_90 --features=+ptx70 2>&1 | FileCheck %s --check-prefix=FEATURES
// FEATURES: row_scale.mlir:3:1: error: unsupported features '+ptx70' for sm_90: expected +ptxNN with NN >= 80
// RUN: not cake-translate %S/Inputs/row_scale.mlir --emit=ptx --chip=sm_100a --features=+ptx80 2>&1 | FileCheck %s --check-prefix=FEATURES100
// FEATURES100: error: unsupported features '+ptx80' for sm_100a: expected +ptxNN with NN >= 86
// RUN: not cake-translate %S/Inputs/row_scale.mlir --emit=ptx --features=garbage 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: error: unsupported features 'garbage' for sm_90a
// A version LLVM's NVPTX backend does not know (it would ignore it with a warning and write its
// default version): refused too.
// RUN: not cake-translate %S/Inputs/row_scale.mlir --emit=ptx --features=+ptx999 2>&1 | FileCheck %s --check-prefix=UNKNOWNPTX
// UNKNOWNPTX: row_scale.mlir:3:1: error: unsupported features '+ptx999' for sm_90a: this LLVM's NVPTX backend knows no PTX ISA 99.9

// A ptxas that exits 0 without writing a cubin (or writes something else): an error, no output.
// RUN: printf '#!/bin/sh\nexit 0\n' > %t.silent-ptxas && chmod +x %t.silent-ptxas
// RUN: not cake-translate %S/Inputs/row_scale.mlir --emit=cubin --ptxas=%t.silent-ptxas -o %t.out 2>&1 | FileCheck %s --check-prefix=EMPTYCUBIN
// RUN: not test -e %t.out
// EMPTYCUBIN: ptxas exited 0 but wrote an empty cubin ({{.*}}silent-ptxas)
// RUN: printf '#!/bin/sh\nwhile [ "$1" != -o ]; do shift; done; echo GARBAGE > "$2"\n' > %t.garbage-ptxas && chmod +x %t.garbage-ptxas
// RUN: not cake-translate %S/Inputs/row_scale.mlir --emit=cubin --ptxas=%t.garbage-ptxas -o %t.out 2>&1 | FileCheck %s --check-prefix=NOTELF
// RUN: not test -e %t.out
// NOTELF: ptxas exited 0 but its output is not an ELF cubin

// A write that fails (a full disk) is an error naming the path, not LLVM's abort; a device is
// left as it was.
// RUN: not cake-translate %S/Inputs/row_scale.mlir --emit=ptx -o /dev/full 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: test -c /dev/full
// FULL: error: cannot write /dev/full: No space left on device
// FULL-NOT: LLVM ERROR

// RUN: not cake-translate %s --emit=manifest 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// NOKERNEL: error: no cake.kernel in the module: a manifest needs cake-level IR
// RUN: not cake-translate %s --emit=ptx 2>&1 | FileCheck %s --check-prefix=NOTHING
// NOTHING: error: no cake.kernel and no gpu.module in

// RUN: not cake-translate %S/Inputs/malformed.mlir --emit=ptx 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: malformed.mlir:3:{{[0-9]+}}: error:

// RUN: not cake-translate %S/Inputs/two-targets.mlir --emit=ptx 2>&1 | FileCheck %s --check-prefix=TARGETS
// TARGETS: two-targets.mlir:5:1: error: kernels of one module must share a target: expected 'sm_90a', got 'sm_80'
// TARGETS: two-targets.mlir:2:1: note: the first kernel's target is set here

// RUN: not cake-translate %S/Inputs/row_scale.mlir --emit=bogus 2>&1 | FileCheck %s --check-prefix=EMIT
// EMIT: Cannot find option named 'bogus'

// An op no conversion takes is named at its location, once, without the op or the lowered module
// printed with it (the translation would otherwise fail on "dialect registration").
// RUN: not cake-translate %S/Inputs/unlowered-vector.mlir --emit=ptx -o %t.out 2>&1 | FileCheck %s --check-prefix=UNLOWERED --implicit-check-not=llvm.func --implicit-check-not="see current operation"
// RUN: not test -e %t.out
// UNLOWERED: unlowered-vector.mlir:9:8: error: 'vector.multi_reduction' has no lowering to NVVM: express it with the ops the CAKE lowering supports (docs/reference; for a 1-D vector, vector.shuffle, vector.extract and vector.from_elements)
// UNLOWERED-NEXT: %m = vector.multi_reduction
// UNLOWERED-NEXT: ^
// With MLIR's option, the op is printed as well.
// RUN: not cake-translate %S/Inputs/unlowered-vector.mlir --emit=ptx --mlir-print-op-on-diagnostic 2>&1 | FileCheck %s --check-prefix=PRINTOP
// PRINTOP: note: see current operation

// RUN: not cake-translate %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: {{.*}}does-not-exist.mlir

func.func @not_a_kernel() {
  return
}
