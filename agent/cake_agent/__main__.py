"""Entry point for ``python3 -m cake_agent``."""
import sys

from .cli import main

sys.exit(main())
