# `cmake --install` layout: bin/ (tools), lib/ (libraries, CakePlugin.so), include/ (Cake,
# Cake-c, generated .inc), python_packages/cake, lib/cmake/cake/CakeConfig.cmake.
include(CMakePackageConfigHelpers)

set(CAKE_INSTALL_CMAKE_DIR lib${LLVM_LIBDIR_SUFFIX}/cmake/cake)

install(TARGETS CakeABI CakeIR CakeAnalysis CakeVerify CakeTransforms CakeConversion CakePipelines CakeCAPI
  EXPORT CakeTargets
  LIBRARY DESTINATION lib${LLVM_LIBDIR_SUFFIX}
  ARCHIVE DESTINATION lib${LLVM_LIBDIR_SUFFIX}
  INCLUDES DESTINATION include)
install(EXPORT CakeTargets NAMESPACE Cake:: DESTINATION ${CAKE_INSTALL_CMAKE_DIR})

set(cake_tools cake-opt cake-translate cake-lsp-server)
if(TARGET cake-run)
  list(APPEND cake_tools cake-run)
endif()
install(TARGETS ${cake_tools} RUNTIME DESTINATION bin)

install(DIRECTORY ${CAKE_SOURCE_DIR}/include/Cake ${CAKE_SOURCE_DIR}/include/Cake-c
  DESTINATION include
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${CAKE_BINARY_DIR}/include/Cake
  DESTINATION include
  FILES_MATCHING PATTERN "*.inc" PATTERN "*.h"
  PATTERN "CMakeFiles" EXCLUDE)

configure_package_config_file(${CAKE_SOURCE_DIR}/cmake/CakeConfig.cmake.in
  ${CAKE_BINARY_DIR}/cmake/CakeConfig.cmake
  INSTALL_DESTINATION ${CAKE_INSTALL_CMAKE_DIR}
  PATH_VARS CAKE_INSTALL_CMAKE_DIR)
write_basic_package_version_file(${CAKE_BINARY_DIR}/cmake/CakeConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CAKE_BINARY_DIR}/cmake/CakeConfig.cmake
              ${CAKE_BINARY_DIR}/cmake/CakeConfigVersion.cmake
  DESTINATION ${CAKE_INSTALL_CMAKE_DIR})
