"""install.sh: shellcheck-clean, a dry run changes nothing, a real run into a temporary root is
complete and idempotent, and --uninstall keeps the games. System commands are stub scripts."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "systemd" / "install.sh"
I2C_LINE = "dtparam=i2c_arm=on,i2c_arm_baudrate=400000"

# Stand-ins for the system commands. Each logs its arguments; those that change the system
# change the temporary root the way the real command would.
STUBS = {
    "apt-get": """
echo "apt-get $*" >> "$STUB_LOG"
for word in "$@"; do
    case "$word" in
        python3-*|i2c-tools|espeak-ng|alsa-utils) echo "$word" >> "$STUB_STATE/installed";;
    esac
    # The system's lgpio module, importable by the venv unless the test built it for
    # another Python ($STUB_STATE/lgpio-other-python).
    if [ "$word" = python3-lgpio ] && [ ! -f "$STUB_STATE/lgpio-other-python" ]; then
        touch "$STUB_STATE/lgpio"
    fi
done
""",
    # The package sources: what $STUB_STATE/available lists has a candidate.
    "apt-cache": """
echo "apt-cache $*" >> "$STUB_LOG"
for last; do :; done
echo "$last:"
if grep -qx "$last" "$STUB_STATE/available" 2>/dev/null; then
    echo "  Candidate: 2.2-1"
else
    echo "  Candidate: (none)"
fi
""",
    "dpkg-query": """
echo "dpkg-query $*" >> "$STUB_LOG"
for last; do :; done
grep -qx "$last" "$STUB_STATE/installed" 2>/dev/null && printf installed
exit 0
""",
    "groupadd": """
echo "groupadd $*" >> "$STUB_LOG"
[ "$1" = --root ] || exit 9
for last; do :; done
echo "$last:x:900:" >> "$2/etc/group"
""",
    "useradd": """
echo "useradd $*" >> "$STUB_LOG"
[ "$1" = --root ] || exit 9
root=$2; groups=""
while [ $# -gt 0 ]; do [ "$1" = --groups ] && groups=$2; shift; done
echo "pegboard:x:901:901::/var/lib/pegboard:/usr/sbin/nologin" >> "$root/etc/passwd"
echo "pegboard:x:901:" >> "$root/etc/group"
for g in $(echo "$groups" | tr , ' '); do
    awk -F: -v OFS=: -v g="$g" '$1 == g { $4 = ($4 == "" ? "pegboard" : $4 ",pegboard") } 1' \
        "$root/etc/group" > "$root/etc/group.new" && mv "$root/etc/group.new" "$root/etc/group"
done
""",
    "usermod": """
echo "usermod $*" >> "$STUB_LOG"
exit 9
""",
    "systemctl": """
echo "systemctl $*" >> "$STUB_LOG"
case "$1" in
    --root=*) root=${1#--root=}
        if [ "$2" = enable ]; then
            mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
            ln -sf /etc/systemd/system/$3 "$root/etc/systemd/system/multi-user.target.wants/$3"
        elif [ "$2" = disable ]; then
            rm -f "$root/etc/systemd/system/multi-user.target.wants/$3"
        fi;;
    *) exit 9;;
esac
""",
    "python3": """
echo "python3 $*" >> "$STUB_LOG"
[ "$1 $2 $3" = "-m venv --system-site-packages" ] || exit 9
mkdir -p "$4/bin"
printf 'home = /usr/bin\\ninclude-system-site-packages = true\\n' > "$4/pyvenv.cfg"
cat > "$4/bin/python" <<'VENV'
#!/bin/sh
echo "venv-python $*" >> "$STUB_LOG"
case "$*" in
    "-c import lgpio; lgpio.gpiochip_open") [ -f "$STUB_STATE/lgpio" ] || exit 1;;
    "-c import sys; print("*) echo 3.13;;
    "-m pip install --quiet --only-binary=lgpio lgpio>=0.2")
        [ -f "$STUB_STATE/no-wheel" ] && exit 1
        touch "$STUB_STATE/lgpio";;
esac
VENV
chmod +x "$4/bin/python"
""",
}

# Commands that only look: allowed in a dry run and on a second run.
QUERIES = ("dpkg-query ", "apt-cache ", "venv-python -c import lgpio",
           "venv-python -c import sys")


@pytest.fixture
def stubs(tmp_path: Path) -> dict[str, str]:
    folder = tmp_path / "stubs"
    folder.mkdir()
    state = tmp_path / "stub-state"
    state.mkdir()
    for name, body in STUBS.items():
        path = folder / name
        path.write_text("#!/bin/sh\n" + body)
        path.chmod(0o755)
    return {
        **os.environ,
        "PATH": f"{folder}:{os.environ['PATH']}",
        "STUB_LOG": str(tmp_path / "stub.log"),
        "STUB_STATE": str(state),
    }


def make_target(tmp_path: Path) -> Path:
    """A minimal Raspberry Pi OS root: users, groups (no spi yet), boot config."""
    root = tmp_path / "target"
    (root / "etc").mkdir(parents=True)
    (root / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (root / "etc/group").write_text("root:x:0:\ndialout:x:20:\ngpio:x:997:pi\ni2c:x:998:pi\n")
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/config.txt").write_text(
        "# For more options, see config.txt(5)\n"
        "#dtparam=i2c_arm=on\n#dtparam=i2s=on\n#dtparam=spi=on\n\n[all]\n"
    )
    return root


def install(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), *args], env=env, capture_output=True, text=True, check=False
    )


def snapshot(root: Path) -> dict[str, tuple[int, str]]:
    """Every path under root with its mode and content (or link target)."""
    seen: dict[str, tuple[int, str]] = {}
    for path in sorted(root.rglob("*")):
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode):
            content = "-> " + os.readlink(path)
        elif path.is_file():
            content = path.read_text(errors="replace")
        else:
            content = "<dir>"
        seen[str(path.relative_to(root))] = (stat.S_IMODE(info.st_mode), content)
    return seen


def logged(env: dict[str, str]) -> list[str]:
    log = Path(env["STUB_LOG"])
    return log.read_text().splitlines() if log.exists() else []


def changes(lines: list[str]) -> list[str]:
    return [line for line in lines if not line.startswith(QUERIES)]


def test_shellcheck_finds_nothing() -> None:
    shellcheck = Path(sys.executable).parent / "shellcheck"
    done = subprocess.run(
        [str(shellcheck), "--severity=style", str(SCRIPT)],
        capture_output=True, text=True, check=False,
    )
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def test_a_dry_run_prints_every_step_and_changes_nothing(
    tmp_path: Path, stubs: dict[str, str]
) -> None:
    root = make_target(tmp_path)
    before = snapshot(root)
    done = install(stubs, "--dry-run", "--root", str(root))
    assert done.returncode == 0, done.stderr
    assert snapshot(root) == before
    assert changes(logged(stubs)) == []
    out = done.stdout
    assert out.startswith("Dry run: nothing will be changed.")
    for expected in [
        "would run: env DEBIAN_FRONTEND=noninteractive apt-get",
        "espeak-ng alsa-utils",
        "python3-lgpio is not in the package sources (a Raspberry Pi OS package): lgpio comes "
        "from PyPI into the venv instead",
        f"would run: groupadd --root {root} --system audio",
        f"would write {root}/boot/firmware/config.txt",
        f"        | {I2C_LINE}",
        f"would run: groupadd --root {root} --system spi",
        f"would run: useradd --root {root} --system --user-group",
        f"would run: python3 -m venv --system-site-packages {root}/opt/pegboard/venv",
        "-m pip install --quiet --upgrade",
        f"{root}/etc/systemd/system/pegboard.service",
        f"{root}/etc/polkit-1/rules.d/50-pegboard-power.rules",
        f"{root}/etc/pegboard/config.toml",
        f"would run: systemctl --root={root} enable pegboard.service",
    ]:
        assert expected in out, expected


def test_a_real_run_installs_everything_and_a_second_run_changes_nothing(
    tmp_path: Path, stubs: dict[str, str]
) -> None:
    root = make_target(tmp_path)
    first = install(stubs, "--root", str(root))
    assert first.returncode == 0, first.stdout + first.stderr
    assert (root / "etc/systemd/system/pegboard.service").read_bytes() == (
        ROOT / "systemd/pegboard.service"
    ).read_bytes()
    assert (root / "etc/pegboard/config.toml").read_bytes() == (
        ROOT / "systemd/config.example.toml"
    ).read_bytes()
    assert (root / "etc/polkit-1/rules.d/50-pegboard-power.rules").exists()
    # The LAN scoreboard's unit is installed, and left off until the owner enables it.
    assert (root / "etc/systemd/system/pegboard-web.service").read_bytes() == (
        ROOT / "systemd/pegboard-web.service").read_bytes()
    assert not (root / "etc/systemd/system/multi-user.target.wants/pegboard-web.service"
                ).exists()
    assert "sudo systemctl enable --now pegboard-web.service" in first.stdout
    # So is the club publisher's, which reads [club] from that same config file.
    assert (root / "etc/systemd/system/pegboard-club.service").read_bytes() == (
        ROOT / "systemd/pegboard-club.service").read_bytes()
    assert not (root / "etc/systemd/system/multi-user.target.wants/pegboard-club.service"
                ).exists()
    assert "sudo systemctl enable --now pegboard-club.service" in first.stdout
    assert (root / "etc/modules-load.d/pegboard.conf").read_text() == "i2c-dev\n"
    boot = (root / "boot/firmware/config.txt").read_text().splitlines()
    assert boot.count(I2C_LINE) == 1
    assert "#dtparam=i2c_arm=on" not in boot and "#dtparam=spi=on" in boot
    assert boot.index(I2C_LINE) == 1  # in place of the commented-out line
    assert "pegboard:" in (root / "etc/passwd").read_text()
    groups = {
        line.split(":")[0]: line.split(":")[3].split(",")
        for line in (root / "etc/group").read_text().splitlines()
    }
    for group in ("gpio", "i2c", "spi", "dialout", "audio"):
        assert "pegboard" in groups[group], group
    installed = Path(stubs["STUB_STATE"], "installed").read_text().split()
    assert {"espeak-ng", "alsa-utils", "python3-venv"} <= set(installed)
    # No python3-lgpio in these sources: lgpio from PyPI, and never a claim of the system's.
    assert "python3-lgpio" not in installed
    assert "venv-python -m pip install --quiet --only-binary=lgpio lgpio>=0.2" in logged(stubs)
    assert "system's python3-lgpio" not in first.stdout
    assert (root / "etc/systemd/system/multi-user.target.wants/pegboard.service").is_symlink()
    assert (root / "opt/pegboard/venv/pyvenv.cfg").read_text().endswith(
        "include-system-site-packages = true\n"
    )
    steps = logged(stubs)
    assert f"venv-python -m pip install --quiet --upgrade {ROOT}[flash]" in steps
    # pip's install is the whole of it: nothing else writes into the installed package
    assert not [step for step in steps if "-m pegboard" in step]
    # pegboard and mpremote (from the flash extra) on PATH, and the firmware to flash.
    for name in ("pegboard", "mpremote"):
        link = root / "usr/local/bin" / name
        assert os.readlink(link) == f"/opt/pegboard/venv/bin/{name}", name
    assert sorted(p.name for p in (root / "opt/pegboard/firmware").iterdir()) == sorted(
        p.name for p in (ROOT / "firmware").glob("*.py"))
    assert "restart the Raspberry Pi" in first.stdout

    after_first = snapshot(root)
    calls = len(logged(stubs))
    second = install(stubs, "--root", str(root))
    assert second.returncode == 0, second.stdout + second.stderr
    assert snapshot(root) == after_first
    assert changes(logged(stubs)[calls:]) == []
    assert "run:" not in second.stdout
    assert "restart the Raspberry Pi" not in second.stdout


def test_where_the_sources_have_python3_lgpio_it_is_installed_and_used(
    tmp_path: Path, stubs: dict[str, str]
) -> None:
    Path(stubs["STUB_STATE"], "available").write_text("python3-lgpio\n")
    root = make_target(tmp_path)
    first = install(stubs, "--root", str(root))
    assert first.returncode == 0, first.stdout + first.stderr
    assert "python3-lgpio" in Path(stubs["STUB_STATE"], "installed").read_text().split()
    # Used only once the venv's own Python has imported it.
    assert "ok: GPIO through the system's python3-lgpio (the venv's Python imports its lgpio)" \
        in first.stdout
    checks = [line for line in logged(stubs) if line.startswith("venv-python -c import lgpio")]
    assert checks and logged(stubs).index(checks[0]) > logged(stubs).index(
        next(line for line in logged(stubs) if "install -y" in line and "python3-lgpio" in line))
    assert not any("pip install" in line and "lgpio" in line for line in logged(stubs))
    calls = len(logged(stubs))
    second = install(stubs, "--root", str(root))
    assert second.returncode == 0 and changes(logged(stubs)[calls:]) == []


def test_a_system_python3_lgpio_the_venv_cannot_import_is_not_trusted(
    tmp_path: Path, stubs: dict[str, str]
) -> None:
    # python3-lgpio installed, but its module built for another Python: PyPI's wheel instead.
    Path(stubs["STUB_STATE"], "available").write_text("python3-lgpio\n")
    Path(stubs["STUB_STATE"], "lgpio-other-python").touch()
    root = make_target(tmp_path)
    first = install(stubs, "--root", str(root))
    assert first.returncode == 0, first.stdout + first.stderr
    assert ("note: python3-lgpio is installed, but the venv's Python cannot import a working "
            "lgpio from it: trying PyPI") in first.stdout
    assert "ok: GPIO through the system's" not in first.stdout
    assert "venv-python -m pip install --quiet --only-binary=lgpio lgpio>=0.2" in logged(stubs)
    # With no wheel either (Python 3.13), it stops and says which of the two failed.
    Path(stubs["STUB_STATE"], "no-wheel").touch()
    Path(stubs["STUB_STATE"], "lgpio").unlink()
    root2 = make_target(tmp_path / "second")
    done = install(stubs, "--root", str(root2))
    assert done.returncode == 1
    assert "the system's python3-lgpio does not import in it" in done.stderr
    assert "the package sources have no python3-lgpio" not in done.stderr
    assert not (root2 / "etc/systemd/system/pegboard.service").exists()


def test_with_neither_python3_lgpio_nor_a_wheel_it_says_what_to_do_and_stops(
    tmp_path: Path, stubs: dict[str, str]
) -> None:
    # Python 3.13 (Debian trixie) on sources without python3-lgpio: PyPI has no wheel for it.
    Path(stubs["STUB_STATE"], "no-wheel").touch()
    root = make_target(tmp_path)
    done = install(stubs, "--root", str(root))
    assert done.returncode == 1
    venv = root / "opt/pegboard/venv"
    for said in ("no lgpio", "for\nPython 3.13 here", "no python3-lgpio",
                 "sudo apt-get install python3-lgpio", "https://abyz.me.uk/lg/download.html",
                 f"sudo {venv}/bin/python -m pip install ./PY_LGPIO",
                 "PYTHON=python3.12 systemd/install.sh"):
        assert said in done.stderr, said
    # It stopped before the service was set up on a program that cannot read a button.
    assert not (root / "etc/systemd/system/pegboard.service").exists()


def test_a_user_config_is_never_overwritten(tmp_path: Path, stubs: dict[str, str]) -> None:
    root = make_target(tmp_path)
    (root / "etc/pegboard").mkdir(parents=True)
    (root / "etc/pegboard/config.toml").write_text('[display]\nmodel = "sh1106"\n')
    assert install(stubs, "--root", str(root)).returncode == 0
    assert (root / "etc/pegboard/config.toml").read_text() == '[display]\nmodel = "sh1106"\n'


def test_uninstall_removes_the_program_and_keeps_games_and_config(
    tmp_path: Path, stubs: dict[str, str]
) -> None:
    root = make_target(tmp_path)
    assert install(stubs, "--root", str(root)).returncode == 0
    (root / "var/lib/pegboard/history").mkdir(parents=True)
    (root / "var/lib/pegboard/history/game.log").write_text("kept\n")
    done = install(stubs, "--uninstall", "--root", str(root))
    assert done.returncode == 0, done.stderr
    for gone in (
        "opt/pegboard",
        "etc/systemd/system/pegboard.service",
        "etc/systemd/system/pegboard-web.service",
        "etc/systemd/system/pegboard-club.service",
        "etc/systemd/system/multi-user.target.wants/pegboard.service",
        "etc/polkit-1/rules.d/50-pegboard-power.rules",
        "usr/local/bin/pegboard",
        "usr/local/bin/mpremote",
    ):
        assert not (root / gone).exists() and not (root / gone).is_symlink(), gone
    assert (root / "var/lib/pegboard/history/game.log").read_text() == "kept\n"
    assert (root / "etc/pegboard/config.toml").exists()
    again = install(stubs, "--uninstall", "--root", str(root))
    assert again.returncode == 0 and "run:" not in again.stdout


def test_a_program_of_the_same_name_is_left_alone(tmp_path: Path, stubs: dict[str, str]) -> None:
    root = make_target(tmp_path)
    (root / "usr/local/bin").mkdir(parents=True)
    (root / "usr/local/bin/mpremote").write_text("#!/bin/sh\n")
    done = install(stubs, "--root", str(root))
    assert done.returncode == 0, done.stderr
    assert (root / "usr/local/bin/mpremote").read_text() == "#!/bin/sh\n"
    assert "is not a link to Pegboard; run /opt/pegboard/venv/bin/mpremote instead" in done.stdout
    assert install(stubs, "--uninstall", "--root", str(root)).returncode == 0
    assert (root / "usr/local/bin/mpremote").exists()


def test_the_flash_extra_installs_on_arm() -> None:
    """The Pi installs the flash extra: only mpremote, never the dev extra's ARM-less wheels."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["optional-dependencies"]["flash"] == ["mpremote>=1.24"]
    assert "[dev]" not in SCRIPT.read_text()


def test_bad_options_are_refused(tmp_path: Path, stubs: dict[str, str]) -> None:
    done = install(stubs, "--frobnicate")
    assert done.returncode == 2
    assert "unknown option --frobnicate" in done.stderr and "--dry-run" in done.stderr
    missing = install(stubs, "--root", str(tmp_path / "nope"))
    assert missing.returncode == 2 and "is not a directory" in missing.stderr


def test_the_unit_runs_what_the_installer_installs() -> None:
    script = SCRIPT.read_text()
    unit = (ROOT / "systemd/pegboard.service").read_text()
    [exec_start] = [line for line in unit.splitlines() if line.startswith("ExecStart=")]
    program, command, option, config = exec_start.removeprefix("ExecStart=").split()
    assert program == "/opt/pegboard/venv/bin/pegboard"  # the console script pip puts there
    assert "venv=$(at /opt/pegboard/venv)" in script
    assert (command, option) == ("run", "--config")
    assert f'config=$(at {config})' in script
    assert "StateDirectory=pegboard" in unit and "--home-dir /var/lib/pegboard" in script
