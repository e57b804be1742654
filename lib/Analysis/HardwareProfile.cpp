//===- HardwareProfile.cpp - per-target hardware profiles -----------------===//
#include "Cake/Analysis/HardwareProfile.h"
#include "Cake/IR/Target.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <algorithm>
#include <dlfcn.h>

using namespace mlir::cake;
using llvm::StringRef;

#ifndef CAKE_SOURCE_PROFILES_DIR
#define CAKE_SOURCE_PROFILES_DIR ""
#endif

llvm::ArrayRef<StringRef> HardwareProfile::requiredParams() {
  static const StringRef names[] = {
      "clock_GHz",         "dram_bandwidth_GBps", "l2_bandwidth_GBps",
      "tensor_TFLOPS.f16", "tensor_TFLOPS.bf16",  "tensor_TFLOPS.tf32",
      "fp32_TFLOPS",       "fp64_TFLOPS",         "sfu_ops_per_clk_per_sm",
      "lsu_wavefronts_per_clk_per_sm",            "global_latency_ns",
      "tma_latency_ns",    "barrier_ns",          "mbarrier_wait_ns",
      "launch_overhead_us", "l2_reread_miss"};
  return names;
}

static llvm::Error fail(StringRef path, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "profile '" + path + "': " + message);
}

llvm::Expected<HardwareProfile> HardwareProfile::load(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return fail(path, "cannot read: " + buffer.getError().message());
  llvm::Expected<llvm::json::Value> doc = llvm::json::parse((*buffer)->getBuffer());
  if (!doc)
    return fail(path, "not valid JSON: " + llvm::toString(doc.takeError()));
  const llvm::json::Object *root = doc->getAsObject();
  if (!root)
    return fail(path, "expected a JSON object");
  if (root->getString("schema") != StringRef("cake-hw-profile"))
    return fail(path, "expected \"schema\": \"cake-hw-profile\"");

  HardwareProfile profile;
  profile.path = path.str();
  std::optional<StringRef> name = root->getString("name");
  if (!name)
    return fail(path, "missing field 'name'");
  profile.name = name->str();
  std::optional<int64_t> version = root->getInteger("version");
  if (!version)
    return fail(path, "missing field 'version'");
  profile.version = *version;
  const llvm::json::Array *targets = root->getArray("targets");
  if (!targets || targets->empty())
    return fail(path, "missing field 'targets'");
  // Profiles are keyed by the target table: a name it does not know would never be looked up.
  for (const llvm::json::Value &t : *targets) {
    std::optional<StringRef> s = t.getAsString();
    if (!s || !lookupTarget(*s))
      return fail(path, "unknown target " + (s ? "'" + s->str() + "'" : std::string("(not a string)")) +
                            " in 'targets', expected one of " + joinTargetsWith(0));
    profile.targets.push_back(s->str());
  }

  const llvm::json::Object *structure = root->getObject("structure");
  if (!structure)
    return fail(path, "missing field 'structure'");
  struct IntField {
    const char *key;
    int64_t *slot;
  } ints[] = {{"sm_count", &profile.smCount},
              {"max_threads_per_sm", &profile.maxThreadsPerSm},
              {"max_blocks_per_sm", &profile.maxBlocksPerSm},
              {"registers_per_sm", &profile.registersPerSm},
              {"register_alloc_unit", &profile.registerAllocUnit},
              {"max_registers_per_thread", &profile.maxRegistersPerThread},
              {"shared_bytes_per_sm", &profile.sharedBytesPerSm},
              {"shared_bytes_per_block", &profile.sharedBytesPerBlock},
              {"shared_reserved_per_block", &profile.sharedReservedPerBlock},
              {"l2_bytes", &profile.l2Bytes}};
  for (IntField &f : ints) {
    std::optional<int64_t> v = structure->getInteger(f.key);
    if (!v)
      return fail(path, llvm::Twine("missing field 'structure.") + f.key + "'");
    if (*v <= 0 && StringRef(f.key) != "shared_reserved_per_block")
      return fail(path, llvm::Twine("field 'structure.") + f.key + "' must be positive");
    *f.slot = *v;
  }

  const llvm::json::Object *params = root->getObject("params");
  if (!params)
    return fail(path, "missing field 'params'");
  for (const auto &[key, value] : *params) {
    if (const llvm::json::Object *nested = value.getAsObject()) {
      for (const auto &[inner, v] : *nested)
        if (std::optional<double> d = v.getAsNumber())
          profile.params[(key.str() + "." + inner.str())] = *d;
      continue;
    }
    if (std::optional<double> d = value.getAsNumber())
      profile.params[key.str()] = *d;
    else if (value.kind() != llvm::json::Value::Null)
      return fail(path, "field 'params." + key.str() + "' must be a number");
  }
  for (StringRef key : requiredParams()) {
    auto it = profile.params.find(key);
    if (it == profile.params.end())
      return fail(path, "missing field 'params." + key + "'");
    if (!(it->second > 0) && key != "l2_reread_miss")
      return fail(path, "field 'params." + key + "' must be positive");
  }
  return profile;
}

bool HardwareProfile::coversTarget(StringRef target) const {
  return llvm::is_contained(targets, target.str());
}

llvm::Expected<HardwareProfile> HardwareProfile::findForTarget(StringRef dir, StringRef target) {
  std::error_code ec;
  std::vector<std::string> files;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
    if (StringRef(it->path()).ends_with(".json"))
      files.push_back(it->path());
  if (ec || files.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no hardware profiles in '" + dir +
                                       "' (set profile=FILE or profile-dir=DIR)");
  std::sort(files.begin(), files.end());
  std::optional<HardwareProfile> chosen;
  std::vector<std::string> covered;
  for (const std::string &file : files) {
    llvm::Expected<HardwareProfile> p = load(file);
    if (!p)
      return p.takeError();
    covered.insert(covered.end(), p->targets.begin(), p->targets.end());
    if (!p->coversTarget(target))
      continue;
    // Several profiles may cover a target (H100 and H200 both run sm_90a): the one whose file
    // says `"default_for"` it wins, else the first by file name.
    auto buffer = llvm::MemoryBuffer::getFile(file);
    bool isDefault = false;
    if (buffer) {
      if (llvm::Expected<llvm::json::Value> doc = llvm::json::parse((*buffer)->getBuffer())) {
        if (const llvm::json::Array *defaults = doc->getAsObject()->getArray("default_for"))
          for (const llvm::json::Value &d : *defaults)
            isDefault |= d.getAsString() == std::optional<StringRef>(target);
      } else {
        llvm::consumeError(doc.takeError());
      }
    }
    if (!chosen || isDefault)
      chosen = std::move(*p);
    if (isDefault)
      break;
  }
  if (!chosen) {
    std::sort(covered.begin(), covered.end());
    covered.erase(std::unique(covered.begin(), covered.end()), covered.end());
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no hardware profile for target '" + target + "' in '" + dir +
                                       "' (its profiles cover " + llvm::join(covered, ", ") +
                                       ")");
  }
  return std::move(*chosen);
}

/// <prefix>/share/cake/profiles for a binary at <prefix>/bin/X or <prefix>/lib/X, if it exists.
static std::optional<std::string> installedProfiles(StringRef binary) {
  if (binary.empty())
    return std::nullopt;
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(llvm::sys::path::parent_path(binary)));
  llvm::sys::path::append(dir, "share", "cake", "profiles");
  if (!llvm::sys::fs::is_directory(dir))
    return std::nullopt;
  return std::string(dir);
}

std::string HardwareProfile::defaultDirectory() {
  if (std::optional<std::string> env = llvm::sys::Process::GetEnv("CAKE_PROFILE_DIR"))
    return *env;
  // The binary holding this code first: the C API library or the plugin another program loaded
  // (its executable is elsewhere, such as Debian's mlir-opt), or a CAKE tool itself.
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&HardwareProfile::defaultDirectory), &info) &&
      info.dli_fname)
    if (std::optional<std::string> dir = installedProfiles(info.dli_fname))
      return *dir;
  if (std::optional<std::string> dir =
          installedProfiles(llvm::sys::fs::getMainExecutable(nullptr, nullptr)))
    return *dir;
  return CAKE_SOURCE_PROFILES_DIR;
}
