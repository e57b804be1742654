//===- Registration.h - what a CAKE host registers --------------*- C++ -*-===//
//
// One place that says what a tool, library or plugin hosting CAKE registers, so cake-opt,
// cake-translate, cake-lsp-server, the C API and the mlir-opt plugin agree.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_PIPELINES_REGISTRATION_H
#define CAKE_PIPELINES_REGISTRATION_H

namespace mlir {
class DialectRegistry;

namespace cake {

/// Inserts the cake dialect, the Transform dialect and the extension with the tactic ops
/// (transform.cake.*), and no other dialect (for hosts that register the upstream dialects
/// themselves, such as mlir-opt loading the CAKE plugin).
void registerCakeDialect(DialectRegistry &registry);

/// Inserts every upstream dialect and extension, the LLVM IR translations, the NVVM target
/// models (needed to serialize to PTX) and the cake dialect.
void registerAllDialects(DialectRegistry &registry);

/// Registers the cake passes (conversion, cake-verify-*, cake-tactic-*), the cake-lower-to-nvvm
/// and cake-verify pipelines, and the transform interpreter passes that run tactic scripts
/// (transform-interpreter, transform-preload-library); later calls do nothing.
void registerCakePasses();

/// Registers every upstream pass plus the cake passes and pipelines; later calls do nothing.
void registerAllPasses();

} // namespace cake
} // namespace mlir

#endif // CAKE_PIPELINES_REGISTRATION_H
