//===- LspProxy.cpp - cake-lsp-server's relay around MLIR's server --------===//
#include "LspProxy.h"
#include "ScheduleDiagnostics.h"

#include "Cake/IR/ParseGuard.h"
#include "Cake/Pipelines/Registration.h"
#include "Cake/Verify/Rules.h"
#include "Cake/Version.h"

#include "mlir/IR/DialectRegistry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace mlir::cake::lsp;
using mlir::cake::findUnparseableInput;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

/// A document's recent versions as the editor sent them: the server's diagnostics name the
/// version they are for, which the editor may already have changed again.
struct Document {
  std::map<int64_t, std::string> versions;

  std::string &latest() { return versions.rbegin()->second; }
  void add(int64_t version, std::string text) {
    versions[version] = std::move(text);
    while (versions.size() > 8)
      versions.erase(versions.begin());
  }
};

/// A request from the editor whose reply the relay completes.
struct Pending {
  std::string method;
  Value params = nullptr;
};

class Relay {
public:
  Relay(FILE *toChild, FILE *fromChild, bool litTest)
      : toChild(toChild), fromChild(fromChild), litTest(litTest) {}

  /// Editor -> server: remembers documents and requests, forwards everything.
  void relayEditor();
  /// Server -> editor: adds CAKE's part to diagnostics and replies.
  void relayServer();

private:
  void noteEditorMessage(Object &message);
  void completeServerMessage(Object &message);
  void sendToEditor(const Value &message);
  void sendToServer(const Value &message);
  /// The text of `uri` at `version` (the latest without one); empty when unknown.
  std::string documentText(llvm::StringRef uri, std::optional<int64_t> version = std::nullopt);

  FILE *toChild, *fromChild;
  bool litTest;
  std::mutex mutex; // Guards documents and pending (both relays use them).
  std::map<std::string, Document> documents;
  std::map<std::string, Pending> pending;
};

std::string idKey(const Value &id) { return llvm::formatv("{0}", id).str(); }

/// A message with LSP's framing: the Content-Length header, then the JSON.
void writeFramed(FILE *out, const Value &message, bool pretty) {
  std::string json =
      pretty ? llvm::formatv("{0:2}", message).str() : llvm::formatv("{0}", message).str();
  std::fprintf(out, "Content-Length: %zu\r\n\r\n%s", json.size(), json.c_str());
  std::fflush(out);
}

void Relay::sendToEditor(const Value &message) { writeFramed(stdout, message, litTest); }

void Relay::sendToServer(const Value &message) {
  if (litTest) { // The child reads what the editor's side reads: '// -----' delimited.
    std::string json = llvm::formatv("{0}", message).str();
    std::fprintf(toChild, "%s\n// -----\n", json.c_str());
    std::fflush(toChild);
    return;
  }
  writeFramed(toChild, message, /*pretty=*/false);
}

std::string Relay::documentText(llvm::StringRef uri, std::optional<int64_t> version) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = documents.find(uri.str());
  if (it == documents.end())
    return std::string();
  if (!version)
    return it->second.latest();
  auto text = it->second.versions.find(*version);
  return text == it->second.versions.end() ? std::string() : text->second;
}

void Relay::noteEditorMessage(Object &message) {
  std::optional<llvm::StringRef> method = message.getString("method");
  Object *params = message.getObject("params");
  if (!method || !params)
    return;
  const Object *doc = params->getObject("textDocument");
  std::string uri = doc ? doc->getString("uri").value_or("").str() : "";
  std::lock_guard<std::mutex> lock(mutex);
  int64_t version = doc ? doc->getInteger("version").value_or(0) : 0;
  if (*method == "textDocument/didOpen" && doc) {
    std::string text = doc->getString("text").value_or("").str();
    if (findUnparseableInput(text)) // MLIR's server would crash on it: it gets an empty document
      (*params->getObject("textDocument"))["text"] = "";
    documents[uri].add(version, std::move(text));
  } else if (*method == "textDocument/didChange" && doc) {
    llvm::lsp::DidChangeTextDocumentParams change;
    llvm::json::Path::Root root;
    auto known = documents.find(uri);
    std::string text = known == documents.end() ? std::string() : known->second.latest();
    if (known == documents.end() || !llvm::lsp::fromJSON(Value(Object(*params)), change, root) ||
        failed(llvm::lsp::TextDocumentContentChangeEvent::applyTo(change.contentChanges, text)))
      documents.erase(uri); // Out of step with the editor: no findings until it reopens.
    else {
      // The server gets the whole new text: it then parses exactly what the findings were
      // computed on (MLIR 22's server misplaces some ranged edits: a one-character edit inside
      // a type left it with "expected operation name in quotes" at 1:1).
      // A construct MLIR's server would crash on: it gets an empty document (the relay's
      // finding names the construct).
      (*params)["contentChanges"] =
          Array{Object{{"text", findUnparseableInput(text) ? std::string() : text}}};
      known->second.add(version, std::move(text));
    }
  } else if (*method == "textDocument/didClose") {
    documents.erase(uri);
  } else if (const Value *id = message.get("id");
             id && (*method == "initialize" || *method == "textDocument/codeAction")) {
    pending[idKey(*id)] = {method->str(), Value(Object(*params))};
  }
}

void Relay::completeServerMessage(Object &message) {
  std::optional<llvm::StringRef> method = message.getString("method");
  if (method && *method == "textDocument/publishDiagnostics") {
    Object *params = message.getObject("params");
    Array *diagnostics = params ? params->getArray("diagnostics") : nullptr;
    std::optional<llvm::StringRef> uri = params ? params->getString("uri") : std::nullopt;
    std::optional<int64_t> version = params ? params->getInteger("version") : std::nullopt;
    if (diagnostics && uri)
      for (Value &finding : scheduleDiagnostics(*uri, documentText(*uri, version)))
        diagnostics->push_back(std::move(finding));
    return;
  }
  const Value *id = message.get("id");
  if (method || !id)
    return;
  Pending request;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = pending.find(idKey(*id));
    if (it == pending.end())
      return;
    request = std::move(it->second);
    pending.erase(it);
  }
  if (request.method == "initialize") {
    if (Object *result = message.getObject("result")) {
      (*result)["serverInfo"] = Object{{"name", "cake-lsp-server"}, {"version", CAKE_VERSION}};
      if (Object *capabilities = result->getObject("capabilities"))
        (*capabilities)["codeActionProvider"] = true;
    }
    return;
  }
  // textDocument/codeAction: the server's actions, then a fix-hint quick fix per finding.
  const Object *params = request.params.getAsObject();
  const Object *doc = params ? params->getObject("textDocument") : nullptr;
  const Object *context = params ? params->getObject("context") : nullptr;
  const Array *diagnostics = context ? context->getArray("diagnostics") : nullptr;
  if (!doc || !diagnostics)
    return;
  llvm::StringRef uri = doc->getString("uri").value_or("");
  Array actions = fixHintActions(uri, documentText(uri), *diagnostics);
  if (actions.empty())
    return;
  Value *result = message.get("result");
  if (!result || !result->getAsArray())
    message["result"] = Array();
  Array &all = *message.getArray("result");
  for (Value &action : actions)
    all.push_back(std::move(action));
}

void Relay::relayEditor() {
  llvm::lsp::JSONTransportInputOverFile input(stdin, litTest
                                                         ? llvm::lsp::JSONStreamStyle::Delimited
                                                         : llvm::lsp::JSONStreamStyle::Standard);
  std::string json;
  while (!input.isEndOfInput() && !input.hasError()) {
    if (failed(input.readMessage(json)))
      continue; // A blank or malformed frame; readMessage skips to the next one.
    llvm::Expected<Value> message = llvm::json::parse(json);
    if (!message) {
      // JSON-RPC's answer to a body that is not JSON (the id is unknown, hence null); a client
      // waiting on that request would otherwise wait forever.
      std::string why = llvm::toString(message.takeError());
      llvm::errs() << "cake-lsp-server: a message that is not JSON: " << why << "\n";
      sendToEditor(Object{{"jsonrpc", "2.0"},
                          {"id", nullptr},
                          {"error", Object{{"code", -32700}, {"message", "Parse error: " + why}}}});
      continue;
    }
    bool exit = false;
    if (Object *object = message->getAsObject()) {
      noteEditorMessage(*object);
      exit = object->getString("method") == "exit";
    }
    sendToServer(*message);
    if (std::ferror(toChild)) { // MLIR's server is gone (it crashed or could not start)
      llvm::errs() << "cake-lsp-server: MLIR's language server stopped; the relay stops too\n";
      break;
    }
    if (exit)
      break;
  }
  std::fclose(toChild); // The server sees the end of its input and stops.
}

void Relay::relayServer() {
  llvm::lsp::JSONTransportInputOverFile input(fromChild, llvm::lsp::JSONStreamStyle::Standard);
  std::string json;
  while (!input.isEndOfInput() && !input.hasError()) {
    if (failed(input.readMessage(json)))
      continue;
    llvm::Expected<Value> message = llvm::json::parse(json);
    if (!message) {
      llvm::consumeError(message.takeError());
      continue;
    }
    if (Object *object = message->getAsObject())
      completeServerMessage(*object);
    sendToEditor(*message);
  }
}

/// The rules cake-opt --cake-verify loads by default, so the editor's findings are the same; a
/// rule file that does not load is reported in the log (stderr) and left out.
void loadShippedRules(const char *argv0) {
  mlir::DialectRegistry registry;
  mlir::cake::registerAllDialects(registry);
  std::string exe = llvm::sys::fs::getMainExecutable(argv0, (void *)&loadShippedRules);
  for (const std::string &file : mlir::cake::getShippedRuleFiles(exe))
    if (mlir::failed(mlir::cake::loadRuleFile(file, registry)))
      llvm::errs() << "cake-lsp-server: rule file " << file << " left out\n";
}

} // namespace

int mlir::cake::lsp::runProxy(int argc, char **argv) {
  bool litTest = false;
  std::vector<char *> childArgs = {argv[0], const_cast<char *>(kChildFlag)};
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    litTest |= arg == "-lit-test" || arg == "--lit-test";
    childArgs.push_back(argv[i]);
  }
  childArgs.push_back(nullptr);

  int toChild[2], fromChild[2];
  if (pipe(toChild) != 0 || pipe(fromChild) != 0) {
    std::perror("cake-lsp-server: pipe");
    return 1;
  }
  // A write to a server that is gone fails (and is reported) instead of killing the relay.
  std::signal(SIGPIPE, SIG_IGN);
  pid_t pid = fork();
  if (pid < 0) {
    std::perror("cake-lsp-server: fork");
    return 1;
  }
  if (pid == 0) {
    dup2(toChild[0], STDIN_FILENO);
    dup2(fromChild[1], STDOUT_FILENO);
    for (int fd : {toChild[0], toChild[1], fromChild[0], fromChild[1]})
      close(fd);
    execv("/proc/self/exe", childArgs.data());
    std::perror("cake-lsp-server: cannot start MLIR's server (/proc/self/exe)");
    _exit(127);
  }
  close(toChild[0]);
  close(fromChild[1]);
  loadShippedRules(argv[0]);
  Relay relay(fdopen(toChild[1], "w"), fdopen(fromChild[0], "r"), litTest);
  std::thread server([&] { relay.relayServer(); });
  relay.relayEditor();
  server.join();
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
