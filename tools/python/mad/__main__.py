"""`python -m mad ...` runs the command line (mad._cli), as the installed `mad` command does."""

import sys

from ._cli import main

sys.exit(main())
