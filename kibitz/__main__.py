"""`python -m kibitz` is the `kibitz` command."""

import sys

from kibitz.clients.cli import main

sys.exit(main())
