"""install-check's copy of the checkout (tools/checkout_copy.py) holds every package and every
file pip installs from, and leaves out only the repository's metadata, venvs and tool caches.

install-check itself needs root and debootstrap; the copy it makes is this function's, so what
it leaves out is checked here, on the real repository and on a made-up one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from setuptools import find_packages

from tools.checkout_copy import copy_checkout, left_out

ROOT = Path(__file__).resolve().parent.parent
CHECK = ROOT / "systemd" / "install-check.sh"


def files_under(folder: Path) -> set[str]:
    """Every file below folder but compiled Python, as paths relative to it."""
    return {str(path.relative_to(folder)) for path in folder.rglob("*")
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"}


def test_the_copy_of_this_checkout_holds_every_package_and_file_pip_installs(
        tmp_path: Path) -> None:
    copy = tmp_path / "pegboard-src"
    copy_checkout(ROOT, copy)
    # The packages setuptools finds (pyproject.toml: include = ["pegboard*"]), in both trees.
    found = sorted(find_packages(where=str(ROOT), include=["pegboard*"]))
    assert len(found) > 10
    assert sorted(find_packages(where=str(copy), include=["pegboard*"])) == found
    # Their data files too (package-data: json, toml, fonts, css, js, svg ...), and the rest
    # of what pip and install.sh read.
    assert files_under(copy / "pegboard") == files_under(ROOT / "pegboard")
    for name in ("pyproject.toml", "README.md", "systemd/install.sh",
                 "systemd/pegboard.service", "systemd/config.example.toml"):
        assert (copy / name).read_bytes() == (ROOT / name).read_bytes(), name
    assert files_under(copy / "firmware") == files_under(ROOT / "firmware")
    assert not (copy / ".git").exists() and not (copy / ".venv").exists()


def test_only_metadata_venvs_and_dot_caches_are_left_out(tmp_path: Path) -> None:
    src = tmp_path / "src"
    kept = ["pkg/__init__.py", "pkg/dataclass_cache/__init__.py", "pkg/dataclass_cache/x.json",
            "pkg/page_cache.py", "docs/cache/a.md", "tools/my_cache/b.py", ".github/ci.yml"]
    dropped = [".git/HEAD", ".venv/bin/python", ".mypy_cache/3.11/x.json",
               ".pytest_cache/v/cache", ".ruff_cache/0.1/a", ".hypothesis/examples/a",
               "pkg/__pycache__/m.cpython-311.pyc", "pkg/old.pyc"]
    for name in kept + dropped:
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(name)
    copy = tmp_path / "copy"
    copy_checkout(src, copy)
    assert files_under_all(copy) == set(kept)
    assert sorted(find_packages(where=str(copy))) == ["pkg", "pkg.dataclass_cache"]


def files_under_all(folder: Path) -> set[str]:
    return {str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file()}


def test_a_name_is_judged_alone_never_with_its_path() -> None:
    assert left_out(".mypy_cache") and left_out(".git") and left_out("__pycache__")
    assert not left_out("dataclass_cache") and not left_out("cache") and not left_out(".github")


def test_install_check_copies_with_this_function_and_no_tar_pattern() -> None:
    script = CHECK.read_text()
    assert 'python3 "$SRC/tools/checkout_copy.py" "$SRC" "$TARGET/usr/src/pegboard"' in script
    assert "--exclude" not in script


def test_the_command_refuses_a_used_destination_and_copies_a_fresh_one(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "pkg").mkdir(parents=True)
    (src / "pkg/__init__.py").write_text("")
    script = ROOT / "tools" / "checkout_copy.py"
    refused = subprocess.run([sys.executable, str(script), str(src), str(src)],
                             capture_output=True, text=True, check=False)
    assert refused.returncode == 2 and "needs a fresh folder" in refused.stderr
    done = subprocess.run([sys.executable, str(script), str(src), str(tmp_path / "out")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out/pkg/__init__.py").exists()


def test_install_check_is_shellcheck_clean() -> None:
    shellcheck = Path(sys.executable).parent / "shellcheck"
    done = subprocess.run([str(shellcheck), "--severity=style", str(CHECK)],
                          capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")
