"""cake_agent: the CAKE evolution harness (``python3 -m cake_agent`` / ``agent/cake``).

It talks to cake-opt, cake-translate and cake-run only through their command lines, files and JSON,
with timeouts (docs/Design.md, "Contracts"; docs/Harness.md). Standard library only.
"""
__version__ = "0.1"
