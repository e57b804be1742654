// Debian's mlir-opt with the dialect plugin runs the tactics' transform ops (the plugin's
// registry brings their Transform-dialect extension) and prints what cake-tactic-pad prints.
// REQUIRES: upstream-mlir-opt
// RUN: %upstream_mlir_opt %S/../Tactics/tactic-pad.mlir --load-dialect-plugin=%cake_plugin \
// RUN:   --transform-preload-library=transform-library-paths=%S/../Tactics/Inputs/tactic-scripts.mlir \
// RUN:   --transform-interpreter=entry-point=pad_4 > %t.plugin
// RUN: cake-opt %S/../Tactics/tactic-pad.mlir --pass-pipeline='builtin.module(cake-tactic-pad{elements=4})' > %t.pass
// RUN: diff %t.pass %t.plugin
