"""`python -m pygraph500` is the `graph500` command."""
import sys

from .cli import main

sys.exit(main())
