//===- FileUtil.h - Small file helpers --------------------------*- C++ -*-===//

#ifndef CAKE_RUNNER_FILEUTIL_H
#define CAKE_RUNNER_FILEUTIL_H

#include <string>

namespace cake::runner {

/// Reads a whole file (binary). On failure sets `error` to
/// "cannot read 'PATH': <strerror>".
bool readFile(const std::string &path, std::string &contents,
              std::string &error);

} // namespace cake::runner

#endif // CAKE_RUNNER_FILEUTIL_H
