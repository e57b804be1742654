# -*- Python -*-
# lit configuration running CAKE's GoogleTest unit tests (bin/cake-unit-tests).
import lit.formats

config.name = "CAKE-Unit"
config.suffixes = []
# The unit-test binary lives in bin/; lit finds executables ending in "-tests".
config.test_source_root = config.cake_tools_dir
config.test_exec_root = config.cake_tools_dir
config.test_format = lit.formats.GoogleTest(".", "-tests")
