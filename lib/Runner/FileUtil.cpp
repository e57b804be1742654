//===- FileUtil.cpp - Small file helpers ----------------------------------===//

#include "Cake/Runner/FileUtil.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

bool cake::runner::readFile(const std::string &path, std::string &contents,
                            std::string &error) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  contents.clear();
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
    contents.append(buffer, n);
  bool failed = std::ferror(file);
  int savedErrno = errno;
  std::fclose(file);
  if (failed) {
    error = "cannot read '" + path + "': " + std::strerror(savedErrno);
    return false;
  }
  return true;
}
