"""Safe shutdown from the device menu: ask systemd-logind to power off, without sudo.

The ``pegboard`` user may power off or reboot because of the polkit rule installed from
``systemd/50-pegboard-power.rules``. ``systemctl poweroff`` run by an unprivileged user asks
logind over D-Bus (``org.freedesktop.login1.power-off``), which consults polkit; systemd then
stops the service cleanly (the game is already on disk) and halts.
"""

from __future__ import annotations

import logging
import subprocess
from collections.abc import Callable, Sequence

from pegboard.errors import PegboardError

log = logging.getLogger(__name__)

POWEROFF_COMMAND = ("systemctl", "--no-ask-password", "poweroff")
REBOOT_COMMAND = ("systemctl", "--no-ask-password", "reboot")

Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]


def _run(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(command), capture_output=True, text=True, timeout=30, check=False
    )


def _request(command: Sequence[str], run: Runner) -> None:
    log.warning("requesting: %s", " ".join(command))
    try:
        done = run(command)
    except (OSError, subprocess.SubprocessError) as error:
        raise PegboardError(f"cannot run {' '.join(command)}: {error}") from None
    if done.returncode != 0:
        reason = (done.stderr or done.stdout or "").strip() or f"exit status {done.returncode}"
        raise PegboardError(f"{' '.join(command)} was refused: {reason}")


def request_poweroff(*, run: Runner = _run) -> None:
    """Ask the system to power off; raises PegboardError with the reason if refused."""
    _request(POWEROFF_COMMAND, run)


def request_reboot(*, run: Runner = _run) -> None:
    """Ask the system to restart; raises PegboardError with the reason if refused."""
    _request(REBOOT_COMMAND, run)
