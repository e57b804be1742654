"""Unit tests of the CAKE harness (python3 -m unittest discover -s agent/tests -t agent)."""
