//===- LspProxy.h - cake-lsp-server's relay around MLIR's server -*- C++ -*-===//
//
// MLIR's language server (MlirLspServerMain) gives parse/verifier diagnostics, hover,
// definitions, references and completion, but offers no hook after verification. cake-lsp-server
// therefore runs it as a child process and relays JSON-RPC between the editor and it, adding what
// CAKE knows: cake-verify findings to each publishDiagnostics, a fix-hint quick fix to each
// codeAction reply, and its own name and version to the initialize reply.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_TOOLS_CAKE_LSP_SERVER_LSPPROXY_H
#define CAKE_TOOLS_CAKE_LSP_SERVER_LSPPROXY_H

namespace mlir::cake::lsp {

/// The argument that makes cake-lsp-server run MLIR's server itself (the relay's child).
inline constexpr const char *kChildFlag = "--cake-mlir-server";

/// Runs the relay: starts `argv[0] kChildFlag argv[1..]` and serves the editor on stdin/stdout.
/// `-lit-test` (MLIR's option) makes both sides use its '// -----' delimited input and pretty
/// output. Returns the process's exit code.
int runProxy(int argc, char **argv);

} // namespace mlir::cake::lsp

#endif // CAKE_TOOLS_CAKE_LSP_SERVER_LSPPROXY_H
