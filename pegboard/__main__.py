"""``python -m pegboard`` runs the ``pegboard`` command."""

from __future__ import annotations

import sys

from pegboard.cli import main

sys.exit(main())
