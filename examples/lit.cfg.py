# The examples are lit tests too (each lowers to PTX and assembles with ptxas); they share the
# configuration of test/.
import os
lit_config.load_config(config, os.path.join(os.path.dirname(__file__), "..", "test", "lit.cfg.py"))
config.excludes += ["ref", "bench"]
