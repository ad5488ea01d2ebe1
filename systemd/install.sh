#!/usr/bin/env bash
# Install Pegboard as a service on Raspberry Pi OS (Bookworm, trixie) or Debian, or remove it.
#
#   sudo systemd/install.sh              install (or update) and start the service
#   sudo systemd/install.sh --uninstall  stop and remove it (games and config are kept)
#   systemd/install.sh --dry-run         print every step, change nothing
#   systemd/install.sh --root DIR        act on the system image under DIR (no service started)
#
# Running it again changes nothing unless something is missing or the code has changed.
# See systemd/README.md.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PYTHON=${PYTHON:-python3}
ROOT=""
DRY_RUN=0
UNINSTALL=0

SERVICE=pegboard.service
WEB_SERVICE=pegboard-web.service  # the LAN scoreboard: installed, never enabled here
CLUB_SERVICE=pegboard-club.service  # the club publisher ([club] in the config): the same
USER_NAME=pegboard
GROUPS_NEEDED=(gpio i2c spi dialout audio)
# espeak-ng speaks and aplay (alsa-utils) plays: the voice.
PACKAGES=(python3-venv python3-pip i2c-tools espeak-ng alsa-utils)
# GPIO for gpiozero: Raspberry Pi OS's python3-lgpio where the package sources have it (plain
# Debian has none), else lgpio from PyPI into the venv.
LGPIO_PACKAGE=python3-lgpio
LGPIO_FROM=""  # "system" or "pypi", decided by install_packages ("unusable": the system's
# package is installed but the venv's Python cannot import it)
# PyPI's lgpio 0.2 has wheels (and no source) for CPython 3.9 to 3.12 on aarch64 and
# x86-64. For any other Python pip would take lgpio 0.0.0.2 instead, an empty placeholder module
# that imports and does nothing: hence the version floor, wheels only, and a check that the
# module has lgpio's functions rather than only that it imports.
LGPIO_PYPI='lgpio>=0.2'
LGPIO_WORKS='import lgpio; lgpio.gpiochip_open'
I2C_LINE="dtparam=i2c_arm=on,i2c_arm_baudrate=400000"

usage() {
    sed -n '2,10s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --uninstall) UNINSTALL=1 ;;
        --root) ROOT=${2:?--root needs a directory}; shift ;;
        --root=*) ROOT=${1#--root=} ;;
        -h | --help) usage; exit 0 ;;
        *) printf 'install.sh: unknown option %s\n\n' "$1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

if [ -n "$ROOT" ]; then
    if [ ! -d "$ROOT" ]; then
        printf 'install.sh: --root %s is not a directory\n' "$ROOT" >&2
        exit 2
    fi
    ROOT=$(cd "$ROOT" && pwd)
    ROOT_OPT=(--root "$ROOT")
else
    ROOT_OPT=()
    if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
        printf 'install.sh: run it as root: sudo %s\n' "$0" >&2
        exit 1
    fi
fi

CHANGED=0       # something the running service uses changed: restart it
UNIT_CHANGED=0  # the unit file changed: reload systemd
WEB_CHANGED=0  # the scoreboard's unit changed: restart it if it runs
CLUB_CHANGED=0  # the club publisher's unit changed: restart it if it runs
REBOOT=0        # a boot setting changed

# A path inside the target root.
at() { printf '%s%s' "$ROOT" "$1"; }

step() { printf '==> %s\n' "$*"; }
ok() { printf '    ok: %s\n' "$*"; }

# Run a command that changes the system, or only show it with --dry-run.
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '    would run:'
    else
        printf '    run:'
    fi
    printf ' %q' "$@"
    printf '\n'
    if [ "$DRY_RUN" = 0 ]; then "$@"; fi
}

# Install file $1 as $2 with mode $3 unless it is already there with the same content.
put_file() {
    local from=$1 to=$2 mode=$3
    if [ -f "$to" ] && cmp -s "$from" "$to"; then
        ok "$to is up to date"
        return 1
    fi
    run install -D -m "$mode" "$from" "$to"
}

# Make $1 a symbolic link to $2 (a path as the target system sees it) unless it already is.
# A file that is not a link is left alone: it is someone else's program.
put_link() {
    local link=$1 target=$2
    if [ -L "$link" ] && [ "$(readlink "$link")" = "$target" ]; then
        ok "$link -> $target"
    elif [ -e "$link" ] && [ ! -L "$link" ]; then
        printf '    skipped: %s is not a link to Pegboard; run %s instead\n' "$link" "$target"
    else
        [ -d "$(dirname "$link")" ] || run mkdir -p "$(dirname "$link")"
        run ln -sfn "$target" "$link"
    fi
}

# Remove the link $1 if it points into Pegboard's folder.
remove_link() {
    if [ -L "$1" ] && [[ "$(readlink "$1")" == /opt/pegboard/* ]]; then
        run rm -f "$1"
    else
        ok "$1 is not Pegboard's link"
    fi
}

# Install the text on stdin as file $1 (mode $2) unless it is already there.
put_text() {
    local to=$1 mode=$2 tmp status=0
    tmp=$(mktemp)
    cat >"$tmp"
    if [ "$DRY_RUN" = 1 ] && ! { [ -f "$to" ] && cmp -s "$tmp" "$to"; }; then
        printf '    would write %s (mode %s):\n' "$to" "$mode"
        sed 's/^/        | /' "$tmp"
    else
        put_file "$tmp" "$to" "$mode" || status=$?
    fi
    rm -f "$tmp"
    return "$status"
}

has_package() {
    local admin=()
    if [ -n "$ROOT" ]; then admin=(--admindir "$ROOT/var/lib/dpkg"); fi
    # shellcheck disable=SC2016  # ${...} here is dpkg-query's format, not the shell's
    dpkg-query "${admin[@]}" -W -f='${db:Status-Status}' "$1" 2>/dev/null | grep -qx installed
}

in_group() {  # in_group GROUP USER: USER is a listed member of GROUP
    awk -F: -v g="$1" -v u="$2" '
        $1 == g { n = split($4, members, ","); for (i = 1; i <= n; i++) if (members[i] == u) found = 1 }
        END { exit !found }' "$(at /etc/group)"
}

has_entry() {  # has_entry FILE NAME: NAME is in /etc/passwd or /etc/group of the root
    grep -q "^$2:" "$(at "$1")" 2>/dev/null
}

install_packages() {
    step "System packages: ${PACKAGES[*]} (and $LGPIO_PACKAGE where there is one)"
    local missing=() package updated=0 apt=(apt-get) cache=(apt-cache)
    if [ -n "$ROOT" ]; then apt+=(-o "Dir=$ROOT/"); cache+=(-o "Dir=$ROOT/"); fi
    for package in "${PACKAGES[@]}"; do
        has_package "$package" || missing+=("$package")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        run "${apt[@]}" update
        updated=1
    fi
    if has_package "$LGPIO_PACKAGE"; then
        LGPIO_FROM=system
    elif "${cache[@]}" policy "$LGPIO_PACKAGE" 2>/dev/null | grep -q '^ *Candidate: [^(]'; then
        LGPIO_FROM=system
        missing+=("$LGPIO_PACKAGE")
        if [ "$updated" = 0 ]; then run "${apt[@]}" update; fi
    else
        LGPIO_FROM=pypi
        printf '    note: %s is not in the package sources (a Raspberry Pi OS package): lgpio comes from PyPI into the venv instead\n' \
            "$LGPIO_PACKAGE"
    fi
    if [ ${#missing[@]} -eq 0 ]; then
        ok "all installed"
        return
    fi
    run env DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y --no-install-recommends \
        "${missing[@]}"
}

enable_i2c() {
    step "I2C on at 400 kHz (the OLED)"
    local config
    config=$(at /boot/firmware/config.txt)
    if [ ! -f "$config" ]; then
        printf '    skipped: %s not found (not Raspberry Pi OS Bookworm or trixie?); add %s by hand\n' \
            "$config" "$I2C_LINE"
    elif grep -qxF "$I2C_LINE" "$config" && [ "$(grep -c '^[#[:space:]]*dtparam=i2c_arm=' "$config")" = 1 ]; then
        ok "$config has $I2C_LINE"
    else
        # Replace the first i2c_arm line (commented out or not) with ours, drop any others,
        # and append ours if there was none.
        awk -v line="$I2C_LINE" '
            /^[#[:space:]]*dtparam=i2c_arm=/ { if (!done) print line; done = 1; next }
            { print }
            END { if (!done) print line }' "$config" | put_text "$config" 0755 && REBOOT=1
    fi
    printf 'i2c-dev\n' | put_text "$(at /etc/modules-load.d/pegboard.conf)" 0644 && REBOOT=1
    return 0
}

create_user() {
    step "User $USER_NAME in groups ${GROUPS_NEEDED[*]}"
    local group
    for group in "${GROUPS_NEEDED[@]}"; do
        if has_entry /etc/group "$group"; then
            ok "group $group exists"
        else
            run groupadd "${ROOT_OPT[@]}" --system "$group"
        fi
    done
    if has_entry /etc/passwd "$USER_NAME"; then
        ok "user $USER_NAME exists"
        for group in "${GROUPS_NEEDED[@]}"; do
            in_group "$group" "$USER_NAME" || run usermod "${ROOT_OPT[@]}" -a -G "$group" "$USER_NAME"
        done
    else
        local joined
        joined=$(IFS=,; printf '%s' "${GROUPS_NEEDED[*]}")
        run useradd "${ROOT_OPT[@]}" --system --user-group --no-create-home \
            --home-dir /var/lib/pegboard --shell /usr/sbin/nologin \
            --comment "Pegboard cribbage scorekeeper" --groups "$joined" "$USER_NAME"
    fi
}

# Neither the system's python3-lgpio nor a wheel from PyPI: say exactly what to do, and stop.
no_lgpio() {
    local version sources="the package sources have no $LGPIO_PACKAGE"
    if [ "$LGPIO_FROM" = unusable ]; then
        sources="the system's $LGPIO_PACKAGE does not import in it (built for another Python?)"
    fi
    version=$("$1/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null ||
        printf 'this')
    cat >&2 <<EOF
install.sh: no lgpio (the GPIO library for the buttons, the encoder and the keypad) for
Python $version here: $sources, and PyPI's lgpio has wheels
only for Python 3.9 to 3.12 (none for $version, and no source to build from).
Do one of these, then run this installer again:
  - Raspberry Pi OS (Bookworm or trixie) has $LGPIO_PACKAGE in the Raspberry Pi archive, which
    the image lists in /etc/apt/sources.list.d/ (raspi.list or raspi.sources): put that file
    back if it was removed, then: sudo apt-get update && sudo apt-get install $LGPIO_PACKAGE
  - Another Debian: build lgpio from its source (https://abyz.me.uk/lg/download.html):
      sudo apt-get install build-essential swig python3-dev unzip wget
      wget https://abyz.me.uk/lg/lg.zip && unzip lg.zip && cd lg && make && sudo make install
      sudo $1/bin/python -m pip install ./PY_LGPIO
  - Or a venv on a Python from 3.9 to 3.12, if the system has one:
      sudo rm -r $1 && sudo PYTHON=python3.12 systemd/install.sh
EOF
    exit 1
}

source_digest() {
    (
        cd "$SRC"
        find pyproject.toml README.md pegboard -type f ! -name '*.pyc' ! -path '*/__pycache__/*' \
            -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
    ) | sha256sum | cut -d' ' -f1
}

install_program() {
    step "Program in /opt/pegboard/venv"
    local venv stamp digest
    venv=$(at /opt/pegboard/venv)
    stamp=$(at /opt/pegboard/installed-source)
    if [ -x "$venv/bin/python" ] && grep -qx 'include-system-site-packages = true' "$venv/pyvenv.cfg"; then
        ok "$venv exists (it sees the system's Python packages)"
    else
        run "$PYTHON" -m venv --system-site-packages "$venv"
        CHANGED=1
    fi
    digest=$(source_digest)
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$digest" ]; then
        ok "Pegboard from $SRC is installed"
    else
        # The flash extra brings mpremote, for `pegboard leds flash` (never the dev extra: its
        # MicroPython unix port has no ARM wheel).
        run "$venv/bin/python" -m pip install --quiet --upgrade "${SRC}[flash]"
        printf '%s\n' "$digest" | put_text "$stamp" 0644 || true
        CHANGED=1
    fi
    # The system's package is used only once the venv's own Python has imported a working
    # lgpio from it (a package built for another Python would import nothing).
    if [ "$LGPIO_FROM" = system ]; then
        if [ "$DRY_RUN" = 1 ]; then
            ok "GPIO through the system's $LGPIO_PACKAGE (checked from the venv on a real run)"
        elif "$venv/bin/python" -c "$LGPIO_WORKS" 2>/dev/null; then
            ok "GPIO through the system's $LGPIO_PACKAGE (the venv's Python imports its lgpio)"
        else
            printf '    note: %s is installed, but the venv'"'"'s Python cannot import a working lgpio from it: trying PyPI\n' \
                "$LGPIO_PACKAGE"
            LGPIO_FROM=unusable
        fi
    fi
    if [ "$LGPIO_FROM" = system ]; then
        :
    elif [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "$LGPIO_WORKS" 2>/dev/null; then
        ok "lgpio (from PyPI) is in $venv"
    elif ! run "$venv/bin/python" -m pip install --quiet --only-binary=lgpio "$LGPIO_PYPI"; then
        no_lgpio "$venv"
    else
        CHANGED=1
    fi
    put_file "$SRC/README.md" "$(at /opt/pegboard/README.md)" 0644 || true
    step "Firmware for the LED board's Pico in /opt/pegboard/firmware"
    local file
    for file in "$SRC"/firmware/*.py; do
        put_file "$file" "$(at "/opt/pegboard/firmware/${file##*/}")" 0644 || true
    done
    step "Commands on PATH: pegboard and mpremote in /usr/local/bin"
    put_link "$(at /usr/local/bin/pegboard)" /opt/pegboard/venv/bin/pegboard
    put_link "$(at /usr/local/bin/mpremote)" /opt/pegboard/venv/bin/mpremote
}

install_files() {
    step "Service unit, polkit rule for safe shutdown, config"
    put_file "$SRC/systemd/pegboard.service" "$(at /etc/systemd/system/$SERVICE)" 0644 \
        && UNIT_CHANGED=1 && CHANGED=1
    put_file "$SRC/systemd/$WEB_SERVICE" "$(at /etc/systemd/system/$WEB_SERVICE)" 0644 \
        && UNIT_CHANGED=1 && WEB_CHANGED=1
    put_file "$SRC/systemd/$CLUB_SERVICE" "$(at /etc/systemd/system/$CLUB_SERVICE)" 0644 \
        && UNIT_CHANGED=1 && CLUB_CHANGED=1
    put_file "$SRC/systemd/50-pegboard-power.rules" \
        "$(at /etc/polkit-1/rules.d/50-pegboard-power.rules)" 0644 || true
    local config
    config=$(at /etc/pegboard/config.toml)
    if [ -e "$config" ]; then
        ok "$config kept as it is"
    else
        run install -D -m 0644 "$SRC/systemd/config.example.toml" "$config"
    fi
}

# systemd runs this system (sd_booted(3)): not so in a chroot, or a container without it.
systemd_running() { [ -d /run/systemd/system ]; }

start_service() {
    step "Enable and start $SERVICE"
    if [ -n "$ROOT" ] || ! systemd_running; then
        local where=()
        if [ -n "$ROOT" ]; then where=(--root="$ROOT"); fi
        if [ -L "$(at /etc/systemd/system/multi-user.target.wants/$SERVICE)" ]; then
            ok "$SERVICE is enabled"
        else
            run systemctl "${where[@]}" enable "$SERVICE"
        fi
        if [ -n "$ROOT" ]; then
            printf '    skipped: starting it (%s is not the running system)\n' "$ROOT"
        else
            printf '    skipped: starting it (systemd is not running here: a chroot or a container); it starts at the next boot\n'
        fi
        return
    fi
    if [ "$UNIT_CHANGED" = 1 ]; then run systemctl daemon-reload; fi
    if [ "$WEB_CHANGED" = 1 ] && systemctl is-active --quiet "$WEB_SERVICE" 2>/dev/null; then
        run systemctl restart "$WEB_SERVICE"
    fi
    if [ "$CLUB_CHANGED" = 1 ] && systemctl is-active --quiet "$CLUB_SERVICE" 2>/dev/null; then
        run systemctl restart "$CLUB_SERVICE"
    fi
    if systemctl is-enabled --quiet "$SERVICE" 2>/dev/null; then
        ok "$SERVICE is enabled"
    else
        run systemctl enable "$SERVICE"
    fi
    if [ "$CHANGED" = 1 ]; then
        run systemctl restart "$SERVICE"
    elif systemctl is-active --quiet "$SERVICE" 2>/dev/null; then
        ok "$SERVICE is running"
    else
        run systemctl start "$SERVICE"
    fi
}

remove_path() {
    if [ -e "$1" ] || [ -L "$1" ]; then
        run rm -rf "$1"
    else
        ok "$1 is already gone"
    fi
}

# Stop and disable one unit if it is installed (under --root, only its boot link goes).
disable_unit() {
    if [ -n "$ROOT" ]; then
        if [ -L "$(at "/etc/systemd/system/multi-user.target.wants/$1")" ]; then
            run systemctl --root="$ROOT" disable "$1"
        else
            ok "$1 is not enabled"
        fi
    elif [ ! -f "/etc/systemd/system/$1" ]; then
        ok "$1 is not installed"
    elif systemd_running; then
        run systemctl disable --now "$1"
    else
        run systemctl disable "$1"
    fi
}

uninstall() {
    step "Stop and disable $SERVICE, $WEB_SERVICE and $CLUB_SERVICE"
    local unit
    for unit in "$SERVICE" "$WEB_SERVICE" "$CLUB_SERVICE"; do
        disable_unit "$unit"
    done
    step "Remove the program, the units and the polkit rule"
    remove_path "$(at /etc/systemd/system/$SERVICE)"
    remove_path "$(at /etc/systemd/system/$WEB_SERVICE)"
    remove_path "$(at /etc/systemd/system/$CLUB_SERVICE)"
    remove_path "$(at /etc/polkit-1/rules.d/50-pegboard-power.rules)"
    remove_path "$(at /etc/modules-load.d/pegboard.conf)"
    remove_link "$(at /usr/local/bin/pegboard)"
    remove_link "$(at /usr/local/bin/mpremote)"
    remove_path "$(at /opt/pegboard)"
    if [ -z "$ROOT" ] && systemd_running; then run systemctl daemon-reload; fi
    step "Kept"
    printf '    the games in %s, the config in %s, the user %s and the I2C setting.\n' \
        "$(at /var/lib/pegboard)" "$(at /etc/pegboard)" "$USER_NAME"
    printf '    To remove them too: rm -r /var/lib/pegboard /etc/pegboard; userdel %s\n' \
        "$USER_NAME"
}

if [ "$DRY_RUN" = 1 ]; then
    printf 'Dry run: nothing will be changed.\n'
fi
if [ "$UNINSTALL" = 1 ]; then
    uninstall
    exit 0
fi
install_packages
enable_i2c
create_user
install_program
install_files
start_service
if [ "$REBOOT" = 1 ]; then
    printf '\nI2C settings changed: restart the Raspberry Pi (sudo reboot) to use the OLED.\n'
fi
printf '\nDone. Status: systemctl status pegboard   Logs: journalctl -u pegboard -f\n'
printf 'The LAN scoreboard is installed but off: sudo systemctl enable --now %s\n' \
    "$WEB_SERVICE"
printf 'The club publisher too ([club] in %s first, docs/club.md): sudo systemctl enable --now %s\n' \
    /etc/pegboard/config.toml "$CLUB_SERVICE"
