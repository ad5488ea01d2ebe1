"""Where the game store lives.

In order: ``--store PATH``; the ``PEGBOARD_STORE`` environment variable; ``[store] path`` in
the config file; the service's state directory (``$STATE_DIRECTORY``, which systemd sets from
``StateDirectory=pegboard`` to ``/var/lib/pegboard``); the user's data directory
(``$XDG_DATA_HOME/pegboard``, normally ``~/.local/share/pegboard``).

>>> find_store_path(None, environ={"STATE_DIRECTORY": "/var/lib/pegboard"})
PosixPath('/var/lib/pegboard')
>>> find_store_path(None, environ={"HOME": "/home/ann"})
PosixPath('/home/ann/.local/share/pegboard')
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def find_store_path(
    explicit: str | os.PathLike[str] | None,
    *,
    configured: str = "",
    environ: Mapping[str, str] | None = None,
) -> Path:
    """The store directory to use, from the first of the sources that names one."""
    env = os.environ if environ is None else environ
    if explicit:
        return Path(explicit)
    if env.get("PEGBOARD_STORE"):
        return Path(env["PEGBOARD_STORE"])
    if configured:
        return Path(configured)
    # systemd joins several StateDirectory= entries with ':'; ours is the first.
    state = env.get("STATE_DIRECTORY", "").split(":")[0]
    if state:
        return Path(state)
    data_home = env.get("XDG_DATA_HOME", "")
    if not os.path.isabs(data_home):  # the XDG spec says to ignore a relative value
        data_home = os.path.join(env.get("HOME") or os.path.expanduser("~"), ".local", "share")
    return Path(data_home) / "pegboard"
