#!/usr/bin/env bash
# Run systemd/install.sh for real in a clean Debian bookworm root, and check what it did.
#
#   sudo systemd/install-check.sh        (or: sudo make install-check)
#
# debootstrap (Debian's own package) makes a minimal bookworm root with systemd once, kept as a
# tarball under $PEGBOARD_CHECK_DIR (default /var/tmp/pegboard-install-check). Every run
# unpacks a fresh copy, copies this checkout into it and runs install.sh inside it with chroot:
# apt-get, useradd, pip and systemctl are the real ones. Then it checks the packages, the user
# and its groups, the config, the enabled units (and systemd-analyze verify on them where
# they are installed), that the installed command runs as the service user, and that a second
# run of install.sh changes nothing. The Debian mirror is the
# one apt is configured with (/etc/apt/sources.list*), or $MIRROR. Needs root, debootstrap and
# a few minutes (the first run longer); not part of `make test`.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${PEGBOARD_CHECK_DIR:-/var/tmp/pegboard-install-check}
SUITE=bookworm
BASE=$WORK/$SUITE-base.tar
TARGET=$WORK/root

say() { printf '==> %s\n' "$*"; }
fail() { printf 'install-check: FAILED: %s\n' "$*" >&2; exit 1; }

if [ "$(id -u)" != 0 ]; then
    printf 'install-check: run it as root (debootstrap and chroot need it): sudo %s\n' "$0" >&2
    exit 1
fi
command -v debootstrap >/dev/null || {
    printf 'install-check: debootstrap is missing: sudo apt-get install debootstrap\n' >&2
    exit 1
}

mirror() {
    # The first Debian archive (not the security one) apt on this machine uses.
    if [ -n "${MIRROR:-}" ]; then printf '%s\n' "$MIRROR"; return; fi
    local found
    found=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
                /etc/apt/sources.list.d/*.list 2>/dev/null |
        awk '/^URIs:/ { for (i = 2; i <= NF; i++) print $i }
             /^deb / { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break } }' |
        grep -v -e security -e '^file:' | head -n 1)
    printf '%s\n' "${found:-http://deb.debian.org/debian}"
}

unmount_all() {
    local point
    for point in dev/pts dev proc sys; do
        if mountpoint -q "$TARGET/$point" 2>/dev/null; then umount -l "$TARGET/$point"; fi
    done
}
trap unmount_all EXIT

mkdir -p "$WORK"
if [ ! -f "$BASE" ]; then
    say "A clean $SUITE root with debootstrap from $(mirror) (once; kept as $BASE)"
    rm -rf "$WORK/base"
    debootstrap --variant=minbase --include=systemd,systemd-sysv,ca-certificates \
        "$SUITE" "$WORK/base" "$(mirror)"
    tar -C "$WORK/base" -cf "$BASE.part" .
    mv "$BASE.part" "$BASE"
    rm -rf "$WORK/base"
fi

say "A fresh copy of the clean root in $TARGET"
unmount_all
rm -rf "$TARGET"
mkdir -p "$TARGET"
tar -C "$TARGET" -xf "$BASE"
# This machine's way out: its name servers, and the certificate authorities it adds for HTTPS
# (a network that inspects TLS has its own), so that pip reaches PyPI from the root as well.
cp /etc/resolv.conf "$TARGET/etc/resolv.conf"
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$TARGET/usr/local/share/ca-certificates/"
    chroot "$TARGET" update-ca-certificates >/dev/null
fi
# What Raspberry Pi OS has and a bare Debian root lacks: the boot config install.sh edits.
mkdir -p "$TARGET/boot/firmware"
printf '# For more options, see config.txt(5)\n#dtparam=i2c_arm=on\n\n[all]\n' \
    >"$TARGET/boot/firmware/config.txt"
mount -t proc proc "$TARGET/proc"
mount -t sysfs sysfs "$TARGET/sys"
mount --bind /dev "$TARGET/dev"
mount --bind /dev/pts "$TARGET/dev/pts"

say "This checkout into /usr/src/pegboard (without .git, .venv and caches)"
mkdir -p "$TARGET/usr/src/pegboard"
tar -C "$SRC" --exclude=.git --exclude=.venv --exclude=__pycache__ --exclude='.*_cache' \
    -cf - . | tar -C "$TARGET/usr/src/pegboard" -xf -

in_root() { chroot "$TARGET" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 "$@"; }

say "install.sh, first run"
in_root bash /usr/src/pegboard/systemd/install.sh | tee "$WORK/first-run.txt"

say "What it left"
for package in python3-venv python3-pip i2c-tools espeak-ng alsa-utils; do
    # shellcheck disable=SC2016  # ${...} here is dpkg-query's format, not the shell's
    in_root dpkg-query -W -f='${db:Status-Status}' "$package" | grep -qx installed ||
        fail "package $package is not installed"
    printf '    ok: package %s\n' "$package"
done
groups=$(in_root id -nG pegboard) || fail "no user pegboard"
for group in gpio i2c spi dialout audio; do
    [[ " $groups " == *" $group "* ]] || fail "pegboard is not in group $group ($groups)"
done
printf '    ok: user pegboard in %s\n' "$groups"
cmp -s "$TARGET/etc/pegboard/config.toml" "$SRC/systemd/config.example.toml" ||
    fail "/etc/pegboard/config.toml is not the example config"
printf '    ok: /etc/pegboard/config.toml\n'
cmp -s "$TARGET/etc/systemd/system/pegboard.service" "$SRC/systemd/pegboard.service" ||
    fail "the unit is not installed"
[ "$(in_root systemctl is-enabled pegboard.service)" = enabled ] ||
    fail "pegboard.service is not enabled"
[ "$(in_root systemctl is-enabled pegboard-web.service || true)" = disabled ] ||
    fail "pegboard-web.service should be installed and disabled"
[ "$(in_root systemctl is-enabled pegboard-club.service || true)" = disabled ] ||
    fail "pegboard-club.service should be installed and disabled"
printf '    ok: pegboard.service enabled, pegboard-web.service and pegboard-club.service installed and off\n'
verify=$(in_root systemd-analyze verify --man=no /etc/systemd/system/pegboard.service 2>&1) ||
    true
[ -z "$verify" ] || fail "systemd-analyze verify on the installed unit: $verify"
printf '    ok: systemd-analyze verify finds nothing in the installed unit\n'
in_root /opt/pegboard/venv/bin/python -c 'import lgpio, gpiozero.pins.lgpio' ||
    fail "lgpio does not import in the service's venv"
printf '    ok: lgpio imports in /opt/pegboard/venv\n'
in_root runuser -u pegboard -- /usr/local/bin/pegboard score 5C 5D 5H JS --starter 5S \
    --wav /tmp/pegboard-check.wav >/dev/null 2>"$WORK/score.err" &&
    [ -s "$TARGET/tmp/pegboard-check.wav" ] ||
    fail "pegboard score --wav as the service user: $(cat "$WORK/score.err")"
printf '    ok: pegboard score --wav speaks through espeak-ng as user pegboard\n'

say "install.sh, second run (must change nothing)"
in_root bash /usr/src/pegboard/systemd/install.sh | tee "$WORK/second-run.txt"
if grep -q '^    run:' "$WORK/second-run.txt"; then
    fail "the second run changed something: $(grep '^    run:' "$WORK/second-run.txt")"
fi
printf '\ninstall-check: passed (%s, %s)\n' "$SUITE" "$(uname -m)"
