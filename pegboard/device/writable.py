"""Refusing a store that cannot keep games: a read-only or RAM-only file system.

Raspberry Pi OS's *overlay file system* (raspi-config → Performance) makes the root read-only
underneath and sends every write to RAM: files seem to be written, and are gone after the next
power cut. A read-only mount fails every write. Either way Pegboard would look as if it works
and lose every game, so ``pegboard run`` checks the store's file system before it opens it.

The check reads the kernel's mount table (``/proc/self/mountinfo``) and ``statvfs``; both are
parameters so a test can show it any system.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from pegboard.rules.value import Value

MOUNTINFO = Path("/proc/self/mountinfo")

#: File systems that live in memory: a store there is lost at power off.
RAM_FILE_SYSTEMS = frozenset({"tmpfs", "ramfs"})

FIX = ("turn the overlay file system off (sudo raspi-config → Performance → Overlay File "
       "System) or set [store] path to a directory on a writable disk")


class Mount(Value):
    """One line of the mount table: where it is mounted, its type and its super options."""

    __slots__ = ("fstype", "options", "point")
    __match_args__ = ("point", "fstype", "options")

    point: str
    fstype: str
    options: str

    def __init__(self, point: str, fstype: str, options: str) -> None:
        setter = object.__setattr__
        setter(self, "point", point)
        setter(self, "fstype", fstype)
        setter(self, "options", options)


def parse_mountinfo(text: str) -> list[Mount]:
    """The mounts of ``/proc/self/mountinfo`` text (proc(5): fields, ``-``, type, source,
    super options; spaces in paths are written ``\\040``)."""
    mounts = []
    for line in text.splitlines():
        fields = line.split()
        if "-" not in fields:
            continue
        dash = fields.index("-")
        if dash < 5 or len(fields) < dash + 3:
            continue
        point = fields[4].replace("\\040", " ").replace("\\011", "\t").replace("\\134", "\\")
        options = fields[dash + 3] if len(fields) > dash + 3 else ""
        mounts.append(Mount(point, fields[dash + 1], options))
    return mounts


def mount_of(path: str, mounts: list[Mount]) -> Mount | None:
    """The mount ``path`` is on: the longest mount point that contains it (the last mounted
    wins when one point has several)."""
    best: Mount | None = None
    deepest = 0
    target = _parts(path)
    for mount in mounts:
        point = _parts(mount.point)
        # Compared as lists of names, not as path objects: the device's start reads every
        # line of the table, and a path object for each costs more than the rest.
        if target[:len(point)] == point and len(point) >= deepest:
            best, deepest = mount, len(point)
    return best


def _parts(path: str) -> list[str]:
    """The names along an absolute path, the root first (as PurePosixPath's parts)."""
    return ["/", *(name for name in path.split("/") if name and name != ".")]


def _read_mountinfo() -> str:
    try:
        return MOUNTINFO.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""  # not Linux: only statvfs can tell


def existing_ancestor(path: Path, exists: Callable[[Path], bool] = Path.exists) -> Path:
    """``path`` or its nearest folder that exists (the store makes the rest)."""
    path = Path(os.path.abspath(path))
    while not exists(path) and path != path.parent:
        path = path.parent
    return path


def store_problem(
    path: Path,
    *,
    statvfs: Callable[[Path], os.statvfs_result] = os.statvfs,
    mountinfo: Callable[[], str] = _read_mountinfo,
    writable: Callable[[Path], bool] = lambda p: os.access(p, os.W_OK),
    exists: Callable[[Path], bool] = Path.exists,
) -> str | None:
    """Why the store at ``path`` could not keep games, or None when it can.

    Refused: a read-only file system (``ST_RDONLY``), a directory this user may not write, and
    an overlay file system whose writable layer is in RAM (Raspberry Pi OS's overlay file
    system). A path that cannot be examined is left for the store itself to report.
    """
    where = existing_ancestor(path, exists)
    shown = str(path) if where == Path(os.path.abspath(path)) else f"{path} (in {where})"
    try:
        flags = statvfs(where).f_flag
    except OSError:
        return None
    if flags & os.ST_RDONLY:
        return (f"the store directory {shown} is on a read-only file system, so no game could "
                f"be saved; {FIX}")
    mounts = parse_mountinfo(mountinfo())
    mount = mount_of(str(where), mounts)
    if mount is not None and mount.fstype == "overlay":
        upper = next((option.split("=", 1)[1] for option in mount.options.split(",")
                      if option.startswith("upperdir=")), None)
        layer = None if upper is None else mount_of(upper, mounts)
        if layer is not None and layer.fstype in RAM_FILE_SYSTEMS:
            return (f"the store directory {shown} is read-only underneath: it is on an overlay "
                    f"file system whose writes go to RAM ({upper}, {layer.fstype}) and are lost "
                    f"at power off, with every game; {FIX}")
    if not writable(where):
        return (f"the store directory {shown} is read-only for this user (uid {os.getuid()}), "
                "so no game could be saved; give the user write access (the service's user "
                "is pegboard) or set [store] path to a directory it can write")
    return None
