"""``pegboard run`` refuses a store that would lose games: a read-only file system, Raspberry Pi
OS's overlay file system (writes kept in RAM), a directory the user cannot write."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from pegboard.commands.run import run
from pegboard.device.writable import mount_of, parse_mountinfo, store_problem
from pegboard.errors import StoreError

# /proc/self/mountinfo of a Raspberry Pi with the overlay file system on (raspi-config), and of
# a container whose overlay keeps its writes on disk.
PI_OVERLAY = (
    "19 1 0:18 / / rw,noatime - overlay overlayroot rw,lowerdir=/media/root-ro,"
    "upperdir=/media/root-rw/overlay,workdir=/media/root-rw/overlay-workdir\n"
    """\
20 19 179:2 / /media/root-ro ro,relatime - ext4 /dev/mmcblk0p2 ro
21 19 0:19 / /media/root-rw rw,relatime - tmpfs tmpfs-root rw
22 19 179:1 / /boot/firmware ro,relatime - vfat /dev/mmcblk0p1 ro
""")
CONTAINER = (
    "27 1 0:40 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/l/A,"
    "upperdir=/var/lib/docker/overlay2/x/diff,workdir=/var/lib/docker/overlay2/x/work\n"
)
USB_STICK = PI_OVERLAY + "40 19 8:1 / /mnt/games\\040disk rw,relatime - ext4 /dev/sda1 rw\n"


def statvfs_with(flag: int) -> Callable[[Path], os.statvfs_result]:
    """A file system of 1000 blocks with the mount flags ``flag``."""
    return lambda path: os.statvfs_result((4096, 4096, 1000, 900, 900, 100, 90, 90, flag, 255))


def test_a_read_only_file_system_is_refused(tmp_path: Path) -> None:
    problem = store_problem(tmp_path / "games", statvfs=statvfs_with(os.ST_RDONLY),
                            mountinfo=lambda: "")
    assert problem is not None
    assert problem.startswith(f"the store directory {tmp_path / 'games'} (in {tmp_path}) is on "
                              "a read-only file system, so no game could be saved; ")
    assert "Overlay File System" in problem and "[store] path" in problem


def test_the_pi_overlay_file_system_is_refused() -> None:
    problem = store_problem(Path("/var/lib/pegboard"), statvfs=statvfs_with(0),
                            mountinfo=lambda: PI_OVERLAY, writable=lambda p: True,
                            exists=lambda p: True)
    assert problem is not None
    assert "is read-only underneath: it is on an overlay file system whose writes go to RAM " \
           "(/media/root-rw/overlay, tmpfs) and are lost at power off" in problem


def test_an_overlay_kept_on_disk_and_a_writable_disk_are_accepted() -> None:
    assert store_problem(Path("/var/lib/pegboard"), statvfs=statvfs_with(0),
                         mountinfo=lambda: CONTAINER, writable=lambda p: True) is None
    # With the overlay on, a store on a USB disk keeps its games.
    assert store_problem(Path("/mnt/games disk/pegboard"), statvfs=statvfs_with(0),
                         mountinfo=lambda: USB_STICK, writable=lambda p: True,
                         exists=lambda p: True) is None
    mount = mount_of("/mnt/games disk/pegboard", parse_mountinfo(USB_STICK))
    assert mount is not None and mount.fstype == "ext4"


def test_a_directory_the_user_cannot_write_is_refused(tmp_path: Path) -> None:
    problem = store_problem(tmp_path, statvfs=statvfs_with(0), mountinfo=lambda: "",
                            writable=lambda p: False)
    assert problem is not None and f"{tmp_path} is read-only for this user" in problem


def test_this_machines_temporary_folder_is_accepted(tmp_path: Path) -> None:
    assert store_problem(tmp_path / "store") is None


def test_run_stops_before_opening_the_store(tmp_path: Path) -> None:
    args = argparse.Namespace(config=str(tmp_path / "none.toml"), store=str(tmp_path / "s"),
                              display="dummy")
    (tmp_path / "none.toml").write_text("")
    seen: list[Path] = []

    def check(path: Path) -> str:
        seen.append(path)
        return "the store directory is read-only"

    with pytest.raises(StoreError, match="the store directory is read-only"):
        run(args, check=check)
    assert seen == [tmp_path / "s"] and not (tmp_path / "s").exists()


def test_pegboard_run_on_a_real_read_only_directory_exits_2(tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    command = [sys.executable, "-m", "pegboard", "run", "--display", "dummy", "--store",
               str(store)]
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}
    if os.getuid() == 0:
        # Root writes through any mode bits: make it a read-only bind mount in a private
        # mount namespace (nothing outside the process sees it).
        unshare = shutil.which("unshare")
        assert unshare is not None, "util-linux's unshare is needed (Debian: util-linux)"
        command = [unshare, "-m", "sh", "-c",
                   'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" && exec "$@"',
                   str(store), *command]
        expected = f"pegboard run: the store directory {store} is on a read-only file system"
    else:
        store.chmod(0o555)
        expected = f"pegboard run: the store directory {store} is read-only for this user"
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env,
                          timeout=60)
    store.chmod(0o755)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].startswith(expected)
    assert list(store.iterdir()) == []


def test_the_mount_is_the_deepest_containing_point_and_the_last_of_a_point() -> None:
    table = parse_mountinfo(
        "1 0 0:1 / / rw - ext4 /dev/root rw\n"
        "2 1 0:2 / /mnt/games rw - ext4 /dev/sda1 rw\n"
        "3 1 0:3 / /mnt/games rw - tmpfs tmpfs rw\n"  # mounted over the one before
        "4 1 0:4 / /mnt/games/old rw - vfat /dev/sdb1 rw\n")
    found = {path: mount_of(path, table) for path in (
        "/mnt/gamesx/pegboard", "/mnt/games", "/mnt/games/", "/mnt/games/./pegboard",
        "/mnt/games/old/pegboard", "/mnt/games/older", "/")}
    assert {path: mount.fstype if mount else None for path, mount in found.items()} == {
        "/mnt/gamesx/pegboard": "ext4", "/mnt/games": "tmpfs", "/mnt/games/": "tmpfs",
        "/mnt/games/./pegboard": "tmpfs", "/mnt/games/old/pegboard": "vfat",
        "/mnt/games/older": "tmpfs", "/": "ext4"}
    assert found["/mnt/gamesx/pegboard"] is table[0]
