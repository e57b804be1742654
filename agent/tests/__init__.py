"""Unit tests of the CAKE harness: ``python3 -m unittest discover -s agent/tests -t agent`` (as
test/Agent runs them) or, from the repository root, ``... -t .``; the modules import ``tests.util``
and ``cake_agent``, so agent/ goes on the path here for the second form."""
import os
import sys

_AGENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _AGENT not in sys.path:
    sys.path.insert(0, _AGENT)
