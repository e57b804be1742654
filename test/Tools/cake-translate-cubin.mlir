// REQUIRES: ptxas
// RUN: rm -f %t.cubin %t.json %t.log
// RUN: cake-translate %S/Inputs/row_scale.mlir --emit=cubin -o %t.cubin --manifest %t.json --ptxas-log %t.log
// RUN: FileCheck %s --check-prefix=LOG < %t.log
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// RUN: od -A n -t x1 -N 4 %t.cubin | FileCheck %s --check-prefix=ELF
// LOG: Compiling entry function 'row_scale' for 'sm_90a'
// LOG: Used {{[0-9]+}} registers
// MANIFEST: "entry": "row_scale"
// ELF: 7f 45 4c 46
