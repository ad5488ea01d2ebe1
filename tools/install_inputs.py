"""What install-check proves and the test suite cannot: the install's inputs, as one digest.

`sudo make install-check` runs systemd/install.sh for real, with the real apt and pip, in a
clean Debian root on this machine's architecture and on arm64 under qemu-user: minutes, root and
the network, so it is no part of `make test`. Its inputs are the files below and the part of
pyproject.toml pip installs from (the Python it needs, the dependencies, the `flash` extra
install.sh adds, the commands, the packages and their data, the build system). When a root
passes, install-check writes this digest of them beside the root's name in
systemd/install-check.passed; `tests/test_install_check_record.py` recomputes it, so a change to
any of them fails the suite until install-check has passed on it again, on both architectures.

The units and the example config are installed too, but the suite checks them itself
(`systemd-analyze verify`, the config's own tests), so they are not inputs here.

    python3 tools/install_inputs.py [CHECKOUT]     prints the digest

Standard library only: install-check runs it with the host's python3 before any venv exists.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

#: The files install-check runs, copies with, or installs through.
FILES = ("systemd/install.sh", "systemd/install-check.sh", "tools/checkout_copy.py",
         "tools/install_inputs.py")


def pip_inputs(pyproject: dict[str, Any]) -> dict[str, Any]:
    """The part of pyproject.toml that decides what pip installs (not the dev tools)."""
    project = pyproject["project"]
    return {
        "build-system": pyproject.get("build-system"),
        "requires-python": project.get("requires-python"),
        "dependencies": project.get("dependencies"),
        "flash": project.get("optional-dependencies", {}).get("flash"),
        "scripts": project.get("scripts"),
        "setuptools": pyproject.get("tool", {}).get("setuptools"),
    }


def digest(checkout: Path) -> str:
    """The install's inputs in ``checkout``, as 16 hex digits of their SHA-256."""
    sha = hashlib.sha256()
    for name in FILES:
        sha.update(name.encode() + b"\0" + (checkout / name).read_bytes() + b"\0")
    pyproject = tomllib.loads((checkout / "pyproject.toml").read_text(encoding="utf-8"))
    sha.update(json.dumps(pip_inputs(pyproject), sort_keys=True).encode())
    return sha.hexdigest()[:16]


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        print("usage: python3 tools/install_inputs.py [CHECKOUT]", file=sys.stderr)
        return 2
    checkout = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent
    print(digest(checkout))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
