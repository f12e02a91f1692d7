"""``python -m trickrules``: the command line."""

import sys

from trickrules.faces.cli import main

sys.exit(main())
