"""install-check has passed on this checkout's install, on amd64 and on the Pi's arm64.

install-check (root, debootstrap, the network, minutes; an hour for arm64 under qemu-user) is no
part of the suite; what it passed on is: systemd/install-check.passed names each root that
passed with the digest of the install's inputs (tools/install_inputs.py). A change to any of
those inputs fails here until install-check has passed on it again."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.waiting import LIVENESS_S
from tools.install_inputs import FILES, digest, main

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "systemd" / "install-check.passed"
REQUIRED = ("bookworm-amd64", "bookworm-arm64")


def passed() -> dict[str, list[str]]:
    """Each root in the record: its digest, day, machine, Python and outcome."""
    lines = [line.split() for line in RECORD.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    return {fields[0]: fields[1:] for fields in lines}


@pytest.mark.parametrize("root", REQUIRED)
def test_install_check_passed_on_these_inputs(root: str) -> None:
    record = passed()
    assert root in record, f"install-check has never passed on {root}: sudo make install-check"
    inputs, day, machine, python, outcome = record[root]
    assert inputs == digest(ROOT), (
        f"the install's inputs ({', '.join(FILES)}, or what pip installs from pyproject.toml) "
        f"changed since install-check passed on {root} on {day}: run `sudo make install-check` "
        "and commit systemd/install-check.passed")
    assert outcome == "installed" and python.startswith("Python-3.11")
    assert machine == {"bookworm-amd64": "x86_64", "bookworm-arm64": "aarch64"}[root]


def copy_inputs(tmp_path: Path) -> Path:
    checkout = tmp_path / "checkout"
    for name in (*FILES, "pyproject.toml"):
        (checkout / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, checkout / name)
    return checkout


@pytest.mark.parametrize("name", FILES)
def test_a_change_to_any_input_file_is_a_new_digest(tmp_path: Path, name: str) -> None:
    checkout = copy_inputs(tmp_path)
    before = digest(checkout)
    with (checkout / name).open("a", encoding="utf-8") as file:
        file.write("\n")
    assert digest(checkout) != before


@pytest.mark.parametrize(("old", "new", "counts"), [
    ('"pyserial>=3.5"', '"pyserial>=3.6"', True),  # a dependency
    ('flash = ["mpremote>=1.24"]', 'flash = ["mpremote>=1.25"]', True),  # the extra install.sh adds
    ('requires-python = ">=3.11"', 'requires-python = ">=3.12"', True),
    ('include = ["pegboard*"]', 'include = ["pegboard"]', True),  # what setuptools packs
    ('testpaths = ["tests", "pegboard"]', 'testpaths = ["tests"]', False),  # the suite's own
])
def test_what_pip_installs_from_pyproject_counts_and_the_rest_does_not(
        tmp_path: Path, old: str, new: str, counts: bool) -> None:
    checkout = copy_inputs(tmp_path)
    before = digest(checkout)
    text = (checkout / "pyproject.toml").read_text(encoding="utf-8")
    assert old in text
    (checkout / "pyproject.toml").write_text(text.replace(old, new), encoding="utf-8")
    assert (digest(checkout) != before) is counts


def test_install_check_records_the_digest_of_the_copy_it_tried() -> None:
    script = (ROOT / "systemd" / "install-check.sh").read_text(encoding="utf-8")
    copy = script.index('python3 "$SRC/tools/checkout_copy.py" "$SRC" "$TARGET/usr/src/pegboard"')
    taken = script.index('INPUTS=$(python3 "$SRC/tools/install_inputs.py" '
                         '"$TARGET/usr/src/pegboard")')
    assert copy < taken  # the inputs the root was given, not the checkout's at the end
    # Written only where a check passes, as the last thing before it ends.
    assert script.count("record_pass ") == 2
    assert script.rstrip().endswith("record_pass installed")
    assert "record_pass stops-and-says-what-to-do\n    exit 0" in script


def test_the_command_prints_the_digest(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    assert capsys.readouterr().out == digest(ROOT) + "\n"
    assert main(["a", "b"]) == 2


def stub(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


def test_where_arm64_cannot_run_install_check_says_so_plainly(tmp_path: Path) -> None:
    """No qemu-user here: the arm64 run stops before it touches anything, with status 77 (which
    `make install-check` lets through) and one line saying it was not run, and why."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stub(bin_dir, "id", "echo 0")  # as root
    stub(bin_dir, "debootstrap", "exit 0")
    stub(bin_dir, "dpkg", "echo amd64")
    dirname = shutil.which("dirname")
    assert dirname is not None
    (bin_dir / "dirname").symlink_to(dirname)
    bash = shutil.which("bash")
    assert bash is not None
    done = subprocess.run(
        [bash, str(ROOT / "systemd" / "install-check.sh"), "--arch", "arm64"],
        env={"PATH": str(bin_dir), "PEGBOARD_CHECK_DIR": str(tmp_path / "work")},
        capture_output=True, text=True, check=False, timeout=LIVENESS_S)
    assert done.returncode == 77, done.stderr
    assert done.stderr == ("install-check: NOT RUN for arm64: qemu-aarch64-static is missing "
                           "(sudo apt-get install qemu-user-static)\n")
    assert not (tmp_path / "work").exists()
    assert "bash systemd/install-check.sh --arch arm64 || [ $$? = 77 ]" in (
        ROOT / "Makefile").read_text(encoding="utf-8")
