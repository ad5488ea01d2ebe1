"""Subcommands of the ``pegboard`` command, one module each (see :mod:`pegboard.cli`)."""
