#!/usr/bin/env bash
# Run systemd/install.sh for real in a clean Debian root, and check what it did.
#
#   sudo systemd/install-check.sh                    bookworm, this machine's architecture
#   sudo systemd/install-check.sh --arch arm64       the Pi's architecture, under qemu-user
#   sudo systemd/install-check.sh --suite trixie     Debian trixie (Python 3.13)
#   ... --lgpio-debs DIR                             DIR's python3-lgpio (and liblgpio1) .deb
#                                                    files as the package sources' own
#   (or: sudo make install-check, which runs this machine's architecture, then arm64)
#
# debootstrap (Debian's own package) makes a minimal root with systemd once per suite and
# architecture, kept as a tarball under $PEGBOARD_CHECK_DIR (default
# /var/tmp/pegboard-install-check). A foreign architecture is made with debootstrap --foreign
# and finished inside the root through qemu-user-static, which binfmt_misc must run: the script
# registers it when the kernel lets it, and otherwise stops with exit status 77 and says why.
# Every run unpacks a fresh copy, copies this checkout into it (tools/checkout_copy.py) and
# runs install.sh inside it with chroot: apt-get, useradd, pip and systemctl are the real ones.
# Then it checks the packages, the user and its groups, the config, the enabled units (and
# systemd-analyze verify on them), that the installed command runs as the service user and
# `pegboard run` stops with its message about the missing hardware, and that a second run of
# install.sh changes nothing. A root that passes is written down in
# systemd/install-check.passed with the digest of the install's inputs it passed on
# (tools/install_inputs.py); the test suite requires bookworm's amd64 and arm64 lines to match
# the checkout. The Debian mirror is the one apt is configured with (/etc/apt/sources.list*),
# or $MIRROR. Needs root, debootstrap and a few minutes (the first run longer, arm64 much
# longer); not part of `make test`.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${PEGBOARD_CHECK_DIR:-/var/tmp/pegboard-install-check}
SUITE=bookworm
ARCH=""
LGPIO_DEBS=""  # a folder of .deb files offered to apt as a local archive (--lgpio-debs)
SKIPPED=77  # the exit status when a foreign architecture cannot be run here

say() { printf '==> %s\n' "$*"; }
fail() { printf 'install-check: FAILED: %s\n' "$*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case "$1" in
        --arch) ARCH=${2:?--arch needs a Debian architecture, such as arm64}; shift ;;
        --arch=*) ARCH=${1#--arch=} ;;
        --suite) SUITE=${2:?--suite needs a Debian release, such as trixie}; shift ;;
        --suite=*) SUITE=${1#--suite=} ;;
        --lgpio-debs) LGPIO_DEBS=${2:?--lgpio-debs needs a folder of .deb files}; shift ;;
        --lgpio-debs=*) LGPIO_DEBS=${1#--lgpio-debs=} ;;
        -h | --help) sed -n '2,9s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) printf 'install-check: unknown option %s\n' "$1" >&2; exit 2 ;;
    esac
    shift
done

if [ "$(id -u)" != 0 ]; then
    printf 'install-check: run it as root (debootstrap and chroot need it): sudo %s\n' "$0" >&2
    exit 1
fi
command -v debootstrap >/dev/null || {
    printf 'install-check: debootstrap is missing: sudo apt-get install debootstrap\n' >&2
    exit 1
}
NATIVE=$(dpkg --print-architecture)
ARCH=${ARCH:-$NATIVE}
BASE=$WORK/$SUITE-$ARCH-base.tar
TARGET=$WORK/root-$SUITE-$ARCH
LOG=$WORK/$SUITE-$ARCH  # what the steps printed: $LOG-first-run.txt, $LOG-run.txt ...

# The qemu-user name of a Debian architecture.
qemu_name() {
    case "$1" in
        arm64) printf 'aarch64' ;;
        armhf | armel) printf 'arm' ;;
        *) printf '%s' "$1" ;;
    esac
}

# A foreign architecture runs here only through qemu-user registered with binfmt_misc (with
# the F flag, so that the interpreter need not be inside the root). Register it if it is not;
# say plainly why not when the kernel or the container does not allow it.
cannot_run() {
    printf 'install-check: NOT RUN for %s: %s\n' "$ARCH" "$*" >&2
    exit "$SKIPPED"
}
foreign_ready() {
    local name binfmt=/proc/sys/fs/binfmt_misc conf
    name=$(qemu_name "$ARCH")
    command -v "qemu-$name-static" >/dev/null ||
        cannot_run "qemu-$name-static is missing (sudo apt-get install qemu-user-static)"
    if [ ! -f "$binfmt/status" ]; then
        mount -t binfmt_misc binfmt_misc "$binfmt" 2>/dev/null ||
            cannot_run "binfmt_misc is not mounted and cannot be mounted here (a container without the privilege, or a kernel without binfmt_misc)"
    fi
    if [ ! -f "$binfmt/qemu-$name" ]; then
        conf=/usr/lib/binfmt.d/qemu-$name.conf
        [ -f "$conf" ] || cannot_run "$conf is missing (qemu-user-static registers through it)"
        grep -v '^#' "$conf" >"$binfmt/register" 2>/dev/null ||
            cannot_run "the kernel refused to register qemu-$name with binfmt_misc (a container without the privilege?)"
        say "Registered qemu-$name with binfmt_misc"
    fi
    grep -qx enabled "$binfmt/qemu-$name" || cannot_run "binfmt_misc has qemu-$name switched off"
    grep -q '^flags: .*F' "$binfmt/qemu-$name" ||
        cannot_run "qemu-$name is registered without the F flag, so a chroot cannot find it"
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

if [ "$ARCH" != "$NATIVE" ]; then foreign_ready; fi
mkdir -p "$WORK"
if [ ! -f "$BASE" ]; then
    say "A clean $SUITE $ARCH root with debootstrap from $(mirror) (once; kept as $BASE)"
    rm -rf "$WORK/base"
    if [ "$ARCH" = "$NATIVE" ]; then
        debootstrap --variant=minbase --include=systemd,systemd-sysv,ca-certificates \
            "$SUITE" "$WORK/base" "$(mirror)"
    else
        # The packages are unpacked here; their scripts then run inside the root, on qemu.
        debootstrap --arch="$ARCH" --foreign --variant=minbase \
            --include=systemd,systemd-sysv,ca-certificates "$SUITE" "$WORK/base" "$(mirror)"
        chroot "$WORK/base" /debootstrap/debootstrap --second-stage
    fi
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

# Raspberry Pi OS's archive has python3-lgpio; plain Debian has none. --lgpio-debs offers a
# folder of Debian packages of it as a local archive (a flat repository: its Packages index
# made here from each .deb's control fields), so the installer's path for a system package
# runs for real: apt-get installs it and the venv must take lgpio from it.
if [ -n "$LGPIO_DEBS" ]; then
    compgen -G "$LGPIO_DEBS/*.deb" >/dev/null || fail "no .deb files in $LGPIO_DEBS"
    repo=$TARGET/var/local/pegboard-debs
    mkdir -p "$repo"
    cp "$LGPIO_DEBS"/*.deb "$repo/"
    for deb in "$repo"/*.deb; do
        dpkg-deb -f "$deb"
        printf 'Filename: ./%s\nSize: %s\nSHA256: %s\n\n' "${deb##*/}" "$(stat -c %s "$deb")" \
            "$(sha256sum "$deb" | cut -d' ' -f1)"
    done >"$repo/Packages"
    printf 'deb [trusted=yes] file:/var/local/pegboard-debs ./\n' \
        >"$TARGET/etc/apt/sources.list.d/pegboard-debs.list"
    say "The package sources offer $(cd "$repo" && printf '%s ' ./*.deb | sed 's|\./||g')(from $LGPIO_DEBS)"
fi

say "This checkout into /usr/src/pegboard (without .git, .venv and tool caches)"
rm -rf "$TARGET/usr/src/pegboard"
python3 "$SRC/tools/checkout_copy.py" "$SRC" "$TARGET/usr/src/pegboard"
# The install's inputs this run is tried on, as the copy holds them (tools/install_inputs.py).
INPUTS=$(python3 "$SRC/tools/install_inputs.py" "$TARGET/usr/src/pegboard")

# A root that passed is written down, one line each, with the digest of the inputs it passed
# on: tests/test_install_check_record.py fails the suite when the checkout's inputs no longer
# match those of bookworm on amd64 and on arm64.
RECORD=$SRC/systemd/install-check.passed
record_pass() {
    local name=$SUITE-$ARCH${LGPIO_DEBS:+-lgpio-debs}
    {
        grep '^#' "$RECORD" 2>/dev/null || true
        {
            grep -v -e '^#' -e "^$name " "$RECORD" 2>/dev/null || true
            printf '%s %s %s %s %s %s\n' "$name" "$INPUTS" "$(date -u +%Y-%m-%d)" "$machine" \
                "${python// /-}" "$1"
        } | sort
    } >"$RECORD.part"
    mv "$RECORD.part" "$RECORD"
    printf 'install-check: recorded in %s: %s %s\n' "$RECORD" "$name" "$INPUTS"
}

in_root() { chroot "$TARGET" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 "$@"; }

say "The root's architecture"
machine=$(in_root uname -m)
[ "$(in_root dpkg --print-architecture)" = "$ARCH" ] ||
    fail "the root is $(in_root dpkg --print-architecture), not $ARCH"
printf '    ok: %s, its programs run as %s (%s)\n' "$ARCH" "$machine" \
    "$([ "$ARCH" = "$NATIVE" ] && printf natively || printf 'under qemu-user')"

say "install.sh, first run"
status=0
in_root bash /usr/src/pegboard/systemd/install.sh >"$LOG-first-run.txt" 2>&1 || status=$?
cat "$LOG-first-run.txt"
python=$(in_root /opt/pegboard/venv/bin/python --version)
if [ "$status" != 0 ] && [ -n "$LGPIO_DEBS" ]; then
    fail "install.sh ended with status $status with python3-lgpio in the package sources"
fi
if [ "$status" != 0 ]; then
    # The one stop install.sh is meant to make: a Python with no lgpio wheel on PyPI (3.13 on
    # Debian trixie) and package sources without python3-lgpio (plain Debian). It must stop
    # before the service is set up and say what to do.
    grep -q '^install.sh: no lgpio' "$LOG-first-run.txt" ||
        fail "install.sh ended with status $status"
    in_root apt-cache policy python3-lgpio 2>/dev/null | grep -q '^ *Candidate: [^(]' &&
        fail "install.sh said there is no python3-lgpio, and the sources have one"
    [ ! -e "$TARGET/etc/systemd/system/pegboard.service" ] ||
        fail "install.sh stopped for lgpio after it had installed the service"
    printf '    ok: %s, no python3-lgpio in %s, no lgpio wheel: install.sh stopped (status %s)\n' \
        "$python" "$SUITE" "$status"
    printf '        before the service was set up, and said what to do\n'
    printf '\ninstall-check: passed (%s, %s, %s, %s): the installer stops and says what to do\n' \
        "$SUITE" "$ARCH" "$machine" "$python"
    record_pass stops-and-says-what-to-do
    exit 0
fi

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
in_root /opt/pegboard/venv/bin/python -c 'import lgpio, gpiozero.pins.lgpio; lgpio.gpiochip_open' ||
    fail "lgpio does not import in the service's venv"
printf '    ok: lgpio imports in /opt/pegboard/venv\n'
if [ -n "$LGPIO_DEBS" ]; then
    # The system's package, not a wheel: the venv sees the system's dist-packages.
    where=$(in_root /opt/pegboard/venv/bin/python -c 'import lgpio; print(lgpio.__file__)')
    [[ "$where" == /usr/lib/python3/dist-packages/* ]] ||
        fail "lgpio comes from $where, not from the system's python3-lgpio"
    # shellcheck disable=SC2016  # ${...} here is dpkg-query's format, not the shell's
    in_root dpkg-query -W -f='${db:Status-Status}' python3-lgpio | grep -qx installed ||
        fail "python3-lgpio is not installed"
    grep -q "ok: GPIO through the system's python3-lgpio" "$LOG-first-run.txt" ||
        fail "install.sh did not say it uses the system's python3-lgpio"
    printf '    ok: python3-lgpio installed by apt; the venv imports lgpio from %s\n' "$where"
fi
in_root runuser -u pegboard -- /usr/local/bin/pegboard score 5C 5D 5H JS --starter 5S \
    --wav /tmp/pegboard-check.wav >/dev/null 2>"$LOG-score.err" &&
    [ -s "$TARGET/tmp/pegboard-check.wav" ] ||
    fail "pegboard score --wav as the service user: $(cat "$LOG-score.err")"
printf '    ok: pegboard score --wav speaks through espeak-ng as user pegboard\n'

say "install.sh, second run (must change nothing)"
in_root bash /usr/src/pegboard/systemd/install.sh | tee "$LOG-second-run.txt"
if grep -q '^    run:' "$LOG-second-run.txt"; then
    fail "the second run changed something: $(grep '^    run:' "$LOG-second-run.txt")"
fi

say "pegboard run as the service user, with no hardware attached"
# The unit gives the service its state directory; here it is made by hand, as systemd would.
in_root install -d -o pegboard -g pegboard -m 0750 /var/lib/pegboard
status=0
in_root runuser -u pegboard -- env STATE_DIRECTORY=/var/lib/pegboard \
    timeout 300 /usr/local/bin/pegboard run >"$LOG-run.txt" 2>&1 || status=$?
sed 's/^/    | /' "$LOG-run.txt"
[ "$status" = 2 ] || fail "pegboard run ended with status $status, not 2 (a clear error)"
grep -q 'cannot open the OLED on I2C bus 1 at address 0x3c' "$LOG-run.txt" ||
    fail "pegboard run did not say the OLED cannot be opened"
printf '    ok: exit status 2 and the message naming the OLED, its bus and its address\n'

printf '\ninstall-check: passed (%s, %s, %s, %s)\n' "$SUITE" "$ARCH" "$machine" "$python"
record_pass installed
