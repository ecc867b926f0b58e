#!/usr/bin/env bash
# Install the Sudoku Table in a Debian Bookworm or Trixie arm64 root (the bases of Raspberry Pi
# OS) on a PC, and check that it installs, starts and finds the Pi's LED stack: pip's install of
# the [pi] extra, the installer's dry runs on a Pi 4, Pi 5 and Zero 2 W, and then the whole
# installer for real (apt, user, venv, config, boot config, Wi-Fi setup, units; systemd is not
# running in the root, so units are enabled and not started). Needs root, debootstrap and
# qemu-user-static (installed with apt when missing). Slow: everything arm64 runs emulated.
#
#   --cache DIR       keep the Debian root, .deb files and pip downloads here between runs
#                     (default: $XDG_CACHE_HOME/sudoku-table/arm64, or ~/.cache/...)
#   --runner NAME     how arm64 programs run: auto (default), binfmt (the kernel's binfmt_misc
#                     with qemu-aarch64-static, in a chroot) or proot (proot -q qemu-aarch64-static)
#   --source WHAT     head (default: git archive of HEAD) or tree (the working tree as it is)
#   --fresh           build the Debian root again instead of using the cached one (the
#                     cache keeps it once after debootstrap and once with the packages added)
#   --mirror URL      Debian mirror (default http://deb.debian.org/debian)
#   --suite NAME      bookworm (Debian 12, default) or trixie (Debian 13, Python 3.13)
#   --no-neopixel     leave out the opt-in [pi-neopixel] extra (its source build is the slowest)
#   --install-only    only the whole installer for real and what it left (no venv, dry runs,
#                     self-test or LED stack: an earlier run showed those)
#
# Prints a summary (step, result, seconds) and exits 1 when a step failed, 2 when it cannot
# start. The full output goes to the terminal and to DIR/logs/.
# shellcheck disable=SC2317  # the step functions are called through step()
set -euo pipefail

SUITE=bookworm
readonly ARCH=arm64
readonly PI4_MODEL="Raspberry Pi 4 Model B Rev 1.5"
readonly PI5_MODEL="Raspberry Pi 5 Model B Rev 1.0"
# The revision codes of those boards (4 GB), as a Pi's /proc/cpuinfo shows them.
readonly PI4_REVISION=c03115
readonly PI5_REVISION=c04170
# What the installer needs (systemd/install.sh: python3-venv, python3-dev, gcc) and what pip
# needs to fetch and build (certificates, the C library headers).
ROOT_PACKAGES=(python3-venv python3-dev gcc libc6-dev ca-certificates)
readonly QEMU=qemu-aarch64-static
STEP_LIMIT=40m  # for one command in the root (the longest, a pip install, takes ~5 min)

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/sudoku-table/arm64
RUNNER_WANTED=auto
SOURCE_KIND="head"
FRESH=0
NEOPIXEL=1
INSTALL_ONLY=0
MIRROR=http://deb.debian.org/debian

usage() {
    sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

die() {
    echo "check-arm64: $*" >&2
    exit 2
}

while (($#)); do
    case $1 in
        --cache) (($# >= 2)) || die "--cache needs a directory"; CACHE=$2; shift ;;
        --cache=*) CACHE=${1#*=} ;;
        --runner) (($# >= 2)) || die "--runner needs auto, binfmt or proot"; RUNNER_WANTED=$2; shift ;;
        --runner=*) RUNNER_WANTED=${1#*=} ;;
        --source) (($# >= 2)) || die "--source needs head or tree"; SOURCE_KIND=$2; shift ;;
        --source=*) SOURCE_KIND=${1#*=} ;;
        --mirror) (($# >= 2)) || die "--mirror needs a URL"; MIRROR=$2; shift ;;
        --mirror=*) MIRROR=${1#*=} ;;
        --suite) (($# >= 2)) || die "--suite needs bookworm or trixie"; SUITE=$2; shift ;;
        --suite=*) SUITE=${1#*=} ;;
        --fresh) FRESH=1 ;;
        --no-neopixel) NEOPIXEL=0 ;;
        --install-only) INSTALL_ONLY=1 ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown argument '$1' (try --help)" ;;
    esac
    shift
done
case $RUNNER_WANTED in auto|binfmt|proot) ;; *) die "--runner must be auto, binfmt or proot" ;; esac
case $SOURCE_KIND in head|tree) ;; *) die "--source must be head or tree" ;; esac
case $SUITE in bookworm|trixie) ;; *) die "--suite must be bookworm or trixie" ;; esac
readonly SUITE
# Trixie's Python 3.13 has no lgpio wheel: pip builds it from source with swig (as the
# installer does there), with lgpio's own C library linked in (PYPI=1).
PIP_ENV=()
if [[ $SUITE == trixie ]]; then
    ROOT_PACKAGES+=(swig)
    PIP_ENV=(PYPI=1)
fi
readonly ROOT_PACKAGES PIP_ENV
readonly ZERO2_MODEL="Raspberry Pi Zero 2 W Rev 1.0"
[[ -f $SOURCE/pyproject.toml && -x $SOURCE/systemd/install.sh ]] \
    || die "$SOURCE is not the Sudoku Table source tree"
CACHE=$(realpath -m "$CACHE")
case $CACHE/ in
    "$SOURCE"/*) die "the cache $CACHE lies inside the source tree: give --cache elsewhere" ;;
esac
((EUID == 0)) || die "run as root (it builds a Debian root and mounts /proc in it)"
mkdir -p "$CACHE" || die "cannot create the cache $CACHE"

readonly BASE_TAR=$CACHE/$SUITE-$ARCH-base.tar
readonly PACKAGES_TAR=$CACHE/$SUITE-$ARCH-packages.tar
readonly DEBS=$CACHE/debs/$SUITE  # one per suite: two runs at once never share apt's lock
readonly PIP_CACHE=$CACHE/pip
readonly WORK=$CACHE/work-$SUITE
readonly ROOT=$WORK/root
readonly LOGS=$CACHE/logs
mkdir -p "$DEBS" "$PIP_CACHE" "$WORK" "$LOGS"
LOG=$LOGS/check-$SUITE-$(date +%Y%m%d-%H%M%S).log
exec > >(tee -a "$LOG") 2>&1

# --- steps and the summary ---------------------------------------------------------------------
#
# Bash ignores `set -e` inside a function called as a step, so every step function chains its
# commands with && or returns on the first failure itself.

STEPS=() RESULTS=() TIMES=() NOTES=()
FAILED=0

# step NAME COMMAND...: run it, time it, record ok or FAILED; returns the command's status.
step() {
    local name=$1 start rc=0
    shift
    printf '\n===== %s\n' "$name"
    start=$(date +%s.%N)
    "$@" || rc=$?
    STEPS+=("$name")
    TIMES+=("$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')")
    if ((rc == 0)); then
        RESULTS+=(ok)
    else
        RESULTS+=("FAILED (exit $rc)")
        FAILED=1
    fi
    return "$rc"
}

skip() {
    STEPS+=("$1") RESULTS+=("skipped: $2") TIMES+=(-)
}

note() {
    NOTES+=("$*")
    printf -- '--> %s\n' "$*"
}

summary() {
    local i width=4
    for i in "${!STEPS[@]}"; do
        ((${#STEPS[i]} > width)) && width=${#STEPS[i]}
    done
    printf '\n===== summary (%s %s, %s)\n' "$SUITE" "$ARCH" "${RUNNER:-no runner}"
    printf '%-*s  %-8s  %s\n' "$width" step seconds result
    for i in "${!STEPS[@]}"; do
        printf '%-*s  %8s  %s\n' "$width" "${STEPS[i]}" "${TIMES[i]}" "${RESULTS[i]}"
    done
    if ((${#NOTES[@]})); then
        printf '\n'
        printf '%s\n' "${NOTES[@]}"
    fi
    printf '\nlog: %s\n' "$LOG"
}

# --- the root's mounts (chroot runner) ---------------------------------------------------------

MOUNTED=()

mount_root() {
    local target source
    mkdir -p "$ROOT/proc" "$ROOT/dev" "$ROOT/sys" "$ROOT/var/cache/apt/archives" \
        "$ROOT/root/.cache/pip"
    mount -t proc proc "$ROOT/proc" && MOUNTED+=("$ROOT/proc") || return
    mount --bind /dev "$ROOT/dev" && MOUNTED+=("$ROOT/dev") || return
    if [[ -d /dev/pts ]]; then
        mount --bind /dev/pts "$ROOT/dev/pts" && MOUNTED+=("$ROOT/dev/pts") || return
    fi
    for target in var/cache/apt/archives root/.cache/pip; do
        case $target in var/*) source=$DEBS ;; *) source=$PIP_CACHE ;; esac
        mount --bind "$source" "$ROOT/$target" && MOUNTED+=("$ROOT/$target") || return
    done
}

unmount_root() {
    local i
    for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do
        umount "${MOUNTED[i]}" 2>/dev/null || umount -l "${MOUNTED[i]}" || true
    done
    MOUNTED=()
}

# Nothing of the host may be mounted inside the root when it is deleted.
remove_root() {
    unmount_root
    if [[ -d $ROOT ]]; then
        if findmnt -rn -o TARGET | grep -q "^$ROOT\(/\|$\)"; then
            echo "check-arm64: something is still mounted under $ROOT; not deleting it" >&2
            return 1
        fi
        rm -rf --one-file-system "$ROOT"
    fi
}

cleanup() {
    unmount_root
}
trap cleanup EXIT

# --- running arm64 programs --------------------------------------------------------------------

RUNNER=""

# A file shown as /proc/cpuinfo inside the root while set (a Pi's revision code).
CPUINFO=""

# in_root COMMAND...: run an arm64 command inside the root, as root, with a clean environment
# (plus any NAME=VALUE words given first).
in_root() {
    local env=(HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
               LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive PIP_DISABLE_PIP_VERSION_CHECK=1
               PIP_CERT=/etc/ssl/certs/ca-certificates.crt)
    while (($#)) && [[ $1 == *=* && $1 != /* ]]; do
        env+=("$1")
        shift
    done
    local rc=0 binds=()
    # A hung emulated program must not hang the check: each command gets at most STEP_LIMIT.
    case $RUNNER in
        binfmt)
            if [[ -n $CPUINFO ]]; then
                mount --bind "$CPUINFO" "$ROOT/proc/cpuinfo" || return
            fi
            timeout --kill-after=30 "$STEP_LIMIT" chroot "$ROOT" /usr/bin/env -i "${env[@]}" "$@" \
                || rc=$?
            if [[ -n $CPUINFO ]]; then
                umount "$ROOT/proc/cpuinfo" || umount -l "$ROOT/proc/cpuinfo"
            fi
            return "$rc" ;;
        proot)
            [[ -z $CPUINFO ]] || binds=(-b "$CPUINFO:/proc/cpuinfo")
            timeout --kill-after=30 "$STEP_LIMIT" \
                proot -0 -q "$QEMU" -r "$ROOT" -b /dev -b /proc -b /sys "${binds[@]}" \
                -b "$DEBS:/var/cache/apt/archives" -b "$PIP_CACHE:/root/.cache/pip" -w / \
                /usr/bin/env -i "${env[@]}" "$@" ;;
        *) echo "check-arm64: no way to run arm64 programs chosen" >&2; return 1 ;;
    esac
}

# The kernel's handler for aarch64 programs: registered by qemu-user-static's package (through
# binfmt-support or systemd-binfmt), or here if the kernel lets us.
binfmt_ready() {
    local dir=/proc/sys/fs/binfmt_misc entry interpreter flags
    if [[ ! -e $dir/register ]]; then
        mount -t binfmt_misc binfmt_misc "$dir" 2>/dev/null || return 1
    fi
    entry=$dir/qemu-aarch64
    if [[ ! -e $entry ]] && command -v update-binfmts >/dev/null; then
        update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
    fi
    if [[ ! -e $entry ]]; then
        # The handler qemu-user-static describes, with F: the kernel opens the interpreter now,
        # so it need not exist inside the root.
        printf '%s' ':qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:/usr/bin/qemu-aarch64-static:FP' \
            > "$dir/register" 2>/dev/null || return 1
    fi
    [[ $(head -n1 "$entry") == enabled ]] || echo 1 > "$entry" 2>/dev/null || return 1
    interpreter=$(sed -n 's/^interpreter //p' "$entry")
    flags=$(sed -n 's/^flags: //p' "$entry")
    # Without F the kernel looks for the interpreter inside the root: put it there.
    if [[ $flags != *F* ]]; then
        mkdir -p "$ROOT$(dirname "$interpreter")" && cp -L "$interpreter" "$ROOT$interpreter" \
            || return
    fi
    chroot "$ROOT" /bin/true 2>/dev/null
}

choose_runner() {
    if [[ $RUNNER_WANTED != proot ]]; then
        if binfmt_ready; then
            RUNNER=binfmt
            note "arm64 programs run through the kernel's binfmt_misc handler with $QEMU (chroot)"
            return 0
        fi
        if [[ $RUNNER_WANTED == binfmt ]]; then
            echo "check-arm64: this machine cannot run arm64 programs through binfmt_misc" >&2
            return 1
        fi
        echo "binfmt_misc cannot be used here; trying proot"
    fi
    if proot -0 -q "$QEMU" -r "$ROOT" /bin/true; then
        RUNNER=proot
        note "arm64 programs run through proot -q $QEMU (no binfmt_misc handler)"
        # Seen with Debian's proot 5.1.0: opening a file in the root works, but checking
        # whether it exists (ls, bash's [[ -r ]], gcc looking for cc1) looks at this
        # machine's files instead.
        note "with proot, file checks inside the root see this machine's files: expect the" \
             "source builds and the installer's model check to fail (binfmt_misc has neither)"
        return 0
    fi
    echo "check-arm64: neither binfmt_misc nor proot can run arm64 programs here" >&2
    return 1
}

# --- the steps ---------------------------------------------------------------------------------

host_tools() {
    local missing=() tool package
    for tool in debootstrap:debootstrap "$QEMU":qemu-user-static proot:proot \
                update-binfmts:binfmt-support; do
        package=${tool#*:}
        command -v "${tool%%:*}" >/dev/null || missing+=("$package")
    done
    if ((${#missing[@]})); then
        echo "installing: ${missing[*]}"
        apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" \
            || return
    fi
    echo "debootstrap $(dpkg-query -W -f='${Version}' debootstrap)," \
         "qemu-user-static $(dpkg-query -W -f='${Version}' qemu-user-static)," \
         "proot $(dpkg-query -W -f='${Version}' proot)"
}

# The first stage of debootstrap needs no arm64 program; the second one does. The cache keeps
# the root after debootstrap and again after the packages were added (for the same package
# list); a run starts from the most complete one, and apt then only checks.
unpack_root() {
    remove_root && mkdir -p "$ROOT" || return
    ROOT_FROM=debootstrap
    if ((FRESH)); then
        rm -f "$BASE_TAR" "$PACKAGES_TAR" "$PACKAGES_TAR.list"
    fi
    if [[ -s $PACKAGES_TAR && $(cat "$PACKAGES_TAR.list" 2>/dev/null) == "${ROOT_PACKAGES[*]}" ]]
    then
        ROOT_FROM=packages
        echo "using the cached root with packages $PACKAGES_TAR" \
            "($(date -r "$PACKAGES_TAR" '+%Y-%m-%d %H:%M'))"
        tar -C "$ROOT" -xpf "$PACKAGES_TAR"
    elif [[ -s $BASE_TAR ]]; then
        ROOT_FROM=base
        echo "using the cached root $BASE_TAR ($(date -r "$BASE_TAR" '+%Y-%m-%d %H:%M'))"
        tar -C "$ROOT" -xpf "$BASE_TAR"
    else
        debootstrap --foreign --arch="$ARCH" --variant=minbase --cache-dir="$DEBS" \
            "$SUITE" "$ROOT" "$MIRROR"
    fi
}

# A tar of the root without what this run mounted or copied into it.
save_root() {
    local tar=$1
    tar -C "$ROOT" --numeric-owner --exclude='./proc/*' --exclude='./sys/*' --exclude='./dev/*' \
        --exclude='./var/cache/apt/archives/*' --exclude='./root/.cache/pip/*' --exclude=./src \
        -cpf "$tar.tmp" . && mv -f "$tar.tmp" "$tar"
}

second_stage() {
    in_root /debootstrap/debootstrap --second-stage && save_root "$BASE_TAR"
}

root_packages() {
    local about
    # Bookworm with its updates, as Raspberry Pi OS has them. The keyring is named: apt-key's
    # merged keyring fails under proot (NO_PUBKEY for every signature). A source that cannot be
    # fetched or verified is an error, not a warning.
    local signed=/usr/share/keyrings/debian-archive-keyring.gpg
    printf 'deb [signed-by=%s] %s %s main\n' \
        "$signed" "$MIRROR" "$SUITE" "$signed" "$MIRROR" "$SUITE-updates" \
        "$signed" "${MIRROR%/debian}/debian-security" "$SUITE-security" \
        > "$ROOT/etc/apt/sources.list" || return
    cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf" && in_root apt-get update -q --error-on=any \
        && in_root apt-get install -y -q --no-install-recommends "${ROOT_PACKAGES[@]}" || return
    # This machine's own certificate authorities (a network behind a TLS-inspecting proxy):
    # trusted in the root too, so that pip reaches PyPI from there as it does from here. Added
    # to the bundle from here (update-ca-certificates hangs under proot).
    local local_cas=(/usr/local/share/ca-certificates/*.crt) ca bundle
    bundle=$ROOT/etc/ssl/certs/ca-certificates.crt
    if [[ -e ${local_cas[0]} ]]; then
        for ca in "${local_cas[@]}"; do
            cp "$ca" "$ROOT/usr/local/share/ca-certificates/" || return
            grep -qF -- "$(sed -n 2p "$ca")" "$bundle" || cat "$ca" >> "$bundle" || return
        done
        note "the root trusts this machine's certificate authorities too: ${local_cas[*]##*/}"
    fi
    if [[ $ROOT_FROM != packages ]]; then
        save_root "$PACKAGES_TAR" && printf '%s' "${ROOT_PACKAGES[*]}" > "$PACKAGES_TAR.list" \
            || return
    fi
    # shellcheck disable=SC2016  # expanded inside the root
    about=$(in_root sh -c '. /etc/os-release; echo "Debian $(cat /etc/debian_version) ($VERSION_CODENAME, $(dpkg --print-architecture), $(uname -m)), $(python3 --version), gcc $(gcc -dumpfullversion), glibc $(ldd --version | sed -n "1s/.* //p")"') \
        || return
    note "root: $about"
}

copy_project() {
    rm -rf "$ROOT/src" && mkdir -p "$ROOT/src/sudoku-table" || return
    if [[ $SOURCE_KIND == head ]]; then
        git -C "$SOURCE" archive --format=tar HEAD | tar -C "$ROOT/src/sudoku-table" -xf - \
            || return
        note "project: git archive of HEAD $(git -C "$SOURCE" log -1 --format='%h (%cs)')"
    else
        tar -C "$SOURCE" --exclude=./.git --exclude=./.venv --exclude=./build \
            --exclude='*.egg-info' --exclude=__pycache__ --exclude=./.pytest_cache \
            --exclude=./.mypy_cache --exclude=./.ruff_cache --exclude=./.hypothesis \
            --exclude=./.cache -cf - . | tar -C "$ROOT/src/sudoku-table" -xf - || return
        note "project: the working tree as it is (HEAD $(git -C "$SOURCE" log -1 --format=%h 2>/dev/null || echo '?') plus any uncommitted change)"
    fi
}

make_venv() {
    in_root python3 -m venv /src/venv && in_root /src/venv/bin/pip install -q --upgrade pip \
        && note "venv: $(in_root /src/venv/bin/pip --version | cut -d' ' -f1-2)"
}

# An extra as the installer installs it (pi), every package that has no arm64 wheel built here
# (the cached downloads are kept, wheels built on an earlier run are not).
install_extra() {
    local extra=$1 out=$WORK/pip-$1.log rc=0 built
    rm -rf "$PIP_CACHE/wheels"
    in_root "${PIP_ENV[@]}" /src/venv/bin/pip install --progress-bar off "/src/sudoku-table[$extra]" 2>&1 \
        | tee "$out" || rc=$?  # pipefail: pip's status
    built=$(sed -n 's/^ *Building wheel for \([^ ]*\) .*/\1/p' "$out" | grep -v '^sudoku-table$' \
        | sort -u | paste -sd, - || true)
    if [[ -n $built ]]; then
        note "[$extra] built from source on arm64: ${built//,/, }"
    fi
    if ((rc)); then
        note "pip install '.[$extra]' failed:"
        local line
        while IFS= read -r line; do
            note "    $line"
        done < <(grep -E "^ *(ERROR|error):|Failed to build|No matching distribution|fatal error" \
                    "$out" | head -n 12)
    fi
    return "$rc"
}

# Without the pi extra: so that the checks after it can still run when the extra failed.
install_plain() {
    in_root /src/venv/bin/pip install -q --progress-bar off /src/sudoku-table
}

# The whole installer, for real, as on a Pi 4 (the model file and config.txt as Raspberry Pi
# OS has them). Debian's policy-rc.d keeps the packages it installs from starting services in
# the root (systemd does not run here); the installer sees that and enables its units only.
real_install() {
    # The whole installer is one command here, and on Trixie it builds lgpio from source
    # emulated: it gets longer than one command's usual limit.
    local out=$WORK/install-real.log rc=0 expected STEP_LIMIT=150m
    printf '%s\0' "$PI4_MODEL" > "$ROOT/src/model" && mkdir -p "$ROOT/boot/firmware" || return
    printf '# http://rptl.io/configtxt\ndtparam=spi=on\ndtparam=audio=on\ncamera_auto_detect=1\ndtoverlay=vc4-kms-v3d\narm_64bit=1\n[all]\n' \
        > "$ROOT/boot/firmware/config.txt" || return
    printf '#!/bin/sh\nexit 101\n' > "$ROOT/usr/sbin/policy-rc.d" && chmod 755 "$ROOT/usr/sbin/policy-rc.d" \
        || return
    printf 'raspberrypi\n' > "$ROOT/etc/hostname" || return
    # Raspberry Pi OS has systemd; the minimal Debian root has not (no systemctl): added here.
    if [[ ! -x $ROOT/usr/bin/systemctl ]]; then
        in_root apt-get install -y -q --no-install-recommends systemd > "$WORK/apt-systemd.log" 2>&1 \
            || { cat "$WORK/apt-systemd.log"; rm -f "$ROOT/usr/sbin/policy-rc.d"; return 1; }
        note "systemd $(in_root dpkg-query -W -f='${Version}' systemd) added to the root" \
             "(Raspberry Pi OS has it; the minimal root has not)"
    fi
    in_root SUDOKU_TABLE_MODEL_FILE=/src/model /src/sudoku-table/systemd/install.sh --force \
        > "$out" 2>&1 || rc=$?
    rm -f "$ROOT/usr/sbin/policy-rc.d"
    cat "$out"
    ((rc == 0)) || return "$rc"
    for expected in "installing on: $PI4_MODEL" "systemd is not running here: sudoku-table.service is enabled"; do
        grep -qF -- "$expected" "$out" || { echo "missing in the output: $expected"; return 1; }
    done
}

# What the real install left: the units enabled, the program's self-test, the boot config
# block, comitup's and NetworkManager's versions and config files.
installed_state() {
    local about
    in_root systemctl is-enabled sudoku-table.service avahi-daemon.service comitup.service \
        || return
    in_root sh -c 'cd /tmp && exec /opt/sudoku-table/venv/bin/sudoku-table selftest --sim' \
        > "$WORK/installed-selftest.log" 2>&1 || { cat "$WORK/installed-selftest.log"; return 1; }
    tail -n 3 "$WORK/installed-selftest.log"
    sed -n '/^# >>> sudoku-table/,/^# <<< sudoku-table/p' "$ROOT/boot/firmware/config.txt"
    grep -q '^dtoverlay=spi0-0cs' "$ROOT/boot/firmware/config.txt" || return
    grep -q '^# *dtparam=spi=on' "$ROOT/boot/firmware/config.txt" || return
    grep -q '^web_service: sudoku-table.service' "$ROOT/etc/comitup.conf" || return
    # shellcheck disable=SC2016  # expanded inside the root
    about=$(in_root sh -c 'dpkg-query -W -f="\${Package} \${Version}, " comitup network-manager netplan.io avahi-daemon polkitd systemd 2>/dev/null; echo') || true
    note "installed: ${about%, }"
    note "lgpio in the installed venv: $(in_root /opt/sudoku-table/venv/bin/python -c 'import lgpio; from importlib.metadata import version; print(version("lgpio"), "group_read" if hasattr(lgpio, "group_read") else "NO group_read")' 2>&1)"
    # comitup's own defaults (its config.py): the two keys the installer writes must be
    # among the keys it reads (the installer empties apt's cache, so the .deb is gone).
    local key defaults=$ROOT/usr/share/comitup/comitup/config.py
    for key in ap_name web_service; do
        if grep -q "\"$key\":" "$defaults" 2>/dev/null; then
            note "comitup reads '$key' (its config.py)"
        else
            note "comitup's config.py has no '$key': check /etc/comitup.conf"
        fi
    done
    if in_root systemd-analyze verify /etc/systemd/system/sudoku-table.service \
            > "$WORK/verify.log" 2>&1; then
        note "systemd-analyze verify of the installed unit: clean"
    else
        note "systemd-analyze verify of the installed unit: $(head -n 3 "$WORK/verify.log" | paste -sd' ' -)"
    fi
}

versions() {
    local wanted='^(adafruit-blinka|adafruit-platformdetect|adafruit-circuitpython-neopixel|adafruit-circuitpython-neopixel-spi|adafruit-circuitpython-pixelbuf|adafruit-blinka-raspberry-pi5-neopixel|adafruit-blinka-raspberry-pi-pwm|rpi-ws281x|rpi_ws281x|spidev|gpiod|lgpio|rpi-lgpio|gpiozero|flask|waitress|reportlab|pip)=='
    local label=$1
    in_root /src/venv/bin/pip freeze --all > "$WORK/freeze.txt" || return
    note "$label: $(grep -iE "$wanted" "$WORK/freeze.txt" | sed 's/==/ /' | paste -sd, - \
        | sed 's/,/, /g')"
    cat "$WORK/freeze.txt"
}

# The installer's dry run on a board: the model file names it, and /boot/firmware/config.txt is
# there as on Raspberry Pi OS (with SPI turned on the usual way when SPI_ON is given). Every
# EXPECTED line must be in the output.
dry_run_install() {
    local label=$1 model=$2 spi=$3 out=$WORK/install-dry-run-$1.log rc=0 expected
    shift 3
    printf '%s\0' "$model" > "$ROOT/src/model" && mkdir -p "$ROOT/boot/firmware" || return
    {
        printf '# For more options and information see\n# http://rptl.io/configtxt\n'
        if [[ $spi == spi_on ]]; then
            echo "dtparam=spi=on"
        else
            echo "#dtparam=spi=on"
        fi
        printf 'dtparam=audio=on\ncamera_auto_detect=1\ndisplay_auto_detect=1\n'
        printf 'auto_initramfs=1\ndtoverlay=vc4-kms-v3d\nmax_framebuffers=2\narm_64bit=1\n'
        printf '[cm5]\ndtoverlay=dwc2,dr_mode=host\n[all]\n'
    } > "$ROOT/boot/firmware/config.txt" || return
    in_root SUDOKU_TABLE_MODEL_FILE=/src/model /src/sudoku-table/systemd/install.sh \
        --dry-run --force > "$out" 2>&1 || rc=$?
    cat "$out"
    ((rc == 0)) || return "$rc"
    for expected in "installing on: $model" "$@"; do
        grep -qF -- "$expected" "$out" || { echo "missing in the output: $expected"; return 1; }
    done
}

# The Debian packages the installer's dry runs would add (Wi-Fi setup, name, power): resolved
# by apt for arm64 without installing them (they start services and pull in a network manager).
installer_packages() {
    local packages out=$WORK/apt-simulate.log rc=0
    packages=$(sed -n 's/^+ apt-get install -y -q //p' "$WORK"/install-dry-run-*.log \
        | tr ' ' '\n' | sort -u | paste -sd' ' -)
    if [[ -z $packages ]]; then
        note "the installer's dry runs add no Debian package"
        return 0
    fi
    # shellcheck disable=SC2086  # a list of package names
    in_root apt-get install --simulate -q $packages > "$out" 2>&1 || rc=$?
    cat "$out"
    ((rc == 0)) || return "$rc"
    note "apt for arm64 resolves what the installer adds ($packages):" \
        "$(grep -c '^Inst ' "$out") packages, e.g." \
        "$(sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1 \2/p' "$out" \
            | grep -E "^(${packages// /|}) " | paste -sd, - | sed 's/,/, /g')"
}

selftest_sim() {
    in_root sh -c 'cd /tmp && exec /src/venv/bin/sudoku-table selftest --sim'
}

# The LED stack under a forced board: every import must work; opening the chain stops at the
# missing device, and the probe says where. With a revision code the root's /proc/cpuinfo is a
# Pi's too: Blinka's neopixel_write asks for it, whatever board is forced.
led_probe() {
    local board=$1 driver=$2 revision=${3:-} out rc=0 line
    out=$WORK/led-$board-$driver.log
    if [[ -n $revision ]]; then
        CPUINFO=$WORK/cpuinfo
        printf 'processor\t: 0\nHardware\t: BCM2835\nRevision\t: %s\nModel\t\t: %s\n' \
            "$revision" "$(if [[ $board == *5* ]]; then echo "$PI5_MODEL"; else echo "$PI4_MODEL"; fi)" \
            > "$CPUINFO" || return
    fi
    in_root BLINKA_FORCEBOARD="$board" BLINKA_FORCECHIP=BCM2XXX sh -c \
        "cd /tmp && exec /src/venv/bin/python /src/sudoku-table/hardware/led_probe.py --driver $driver" \
        > "$out" 2>&1 || rc=$?
    CPUINFO=""
    cat "$out"
    note "LED stack, $board, driver $driver${revision:+, revision $revision}:"
    while IFS= read -r line; do
        note "    $line"
    done < <(grep -E "^(STOP|ok   import|ok   Blinka)" "$out")
    return "$rc"
}

# --- the run -----------------------------------------------------------------------------------

echo "Sudoku Table on Debian $SUITE $ARCH: cache $CACHE, source $SOURCE ($SOURCE_KIND)"
ROOT_FROM=""
step "host tools (debootstrap, qemu-user-static, proot)" host_tools || { summary; exit 2; }
step "Debian $SUITE $ARCH root: unpack" unpack_root || { summary; exit 2; }
step "arm64 emulation" choose_runner || { summary; exit 2; }
if [[ $ROOT_FROM == debootstrap ]]; then
    step "Debian $SUITE $ARCH root: second stage (cached after)" second_stage \
        || { summary; exit 1; }
else
    skip "Debian $SUITE $ARCH root: second stage" "cached root ($ROOT_FROM)"
fi
if [[ $RUNNER == binfmt ]]; then
    step "mount /proc, /dev and the caches in the root" mount_root || { summary; exit 2; }
fi
step "apt: ${ROOT_PACKAGES[*]}" root_packages || { summary; exit 1; }
step "copy the project" copy_project || { summary; exit 1; }
if ((INSTALL_ONLY)); then
    skip "pip install, dry runs, self-test, LED stack" "--install-only"
else
step "venv (python3 -m venv, pip upgraded)" make_venv || { summary; exit 1; }
PI_OK=1
step "pip install '.[pi]'" install_extra pi || PI_OK=0
if ((!PI_OK)); then
    step "pip install . (without pi, to go on)" install_plain || { summary; exit 1; }
fi
step "versions installed" versions "installed with [pi]" || true
# What differs: the Pi 4's SPI clock comes from the core clock, which is pinned; the Pi 5's not.
# The Pi 4 has SPI turned on as raspi-config does it, which claims a matrix column's pin.
step "install.sh --dry-run --force (Pi 4 model)" dry_run_install pi4 "$PI4_MODEL" spi_on \
    "boot config /boot/firmware/config.txt: SPI0 for the LEDs (dtoverlay=spi0-0cs core_freq=500 core_freq_min=500)" \
    "'dtparam=spi=on' claims GPIO7 (a matrix column): commenting it out" \
    "installing the [pi] extra" "no line claims a pin of the table" || true
step "install.sh --dry-run --force (Pi 5 model)" dry_run_install pi5 "$PI5_MODEL" spi_off \
    "boot config /boot/firmware/config.txt: SPI0 for the LEDs (dtoverlay=spi0-0cs)" \
    "installing the [pi] extra" || true
step "install.sh --dry-run --force (Zero 2 W model)" dry_run_install zero2 "$ZERO2_MODEL" spi_off \
    "boot config /boot/firmware/config.txt: SPI0 for the LEDs (dtoverlay=spi0-0cs core_freq=400 core_freq_min=400)" \
    "config: scan_interval_ms = 8.0 for this board (Zero 2 W)" || true
step "apt: what the installer adds, resolved for arm64 (simulated)" installer_packages || true
step "sudoku-table selftest --sim" selftest_sim || true
step "LED stack, forced Pi 4, driver spi" led_probe RASPBERRY_PI_4B spi || true
step "LED stack, forced Pi 5, driver spi" led_probe RASPBERRY_PI_5 spi || true
# The opt-in extra for leds.driver = "neopixel" (rpi_ws281x, the Pi 5's PIO backend).
if ((!NEOPIXEL)); then
    skip "pip install '.[pi-neopixel]' (opt-in)" "--no-neopixel"
elif step "pip install '.[pi-neopixel]' (opt-in)" install_extra pi-neopixel; then
    step "versions installed (after pi-neopixel)" versions "after [pi-neopixel]" || true
    step "LED stack, forced Pi 4 + revision, driver neopixel" \
        led_probe RASPBERRY_PI_4B neopixel "$PI4_REVISION" || true
    step "LED stack, forced Pi 5 + revision, driver neopixel" \
        led_probe RASPBERRY_PI_5 neopixel "$PI5_REVISION" || true
else
    skip "LED stack, driver neopixel" "its extra did not install"
fi
fi  # INSTALL_ONLY
if step "install.sh, the whole install for real (Pi 4 model, no systemd running)" real_install; then
    step "what the install left (units, self-test, config.txt, comitup)" installed_state || true
else
    skip "what the install left" "the install failed"
fi
unmount_root
summary
exit "$FAILED"
