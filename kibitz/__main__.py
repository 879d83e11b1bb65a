"""`python -m kibitz` is the `kibitz` command."""

import sys

from kibitz.cli import main

sys.exit(main())
