#!/usr/bin/env bash
# Install the Sudoku Table as a service on a Raspberry Pi (Pi 4, Pi 5, Zero 2 W; Raspberry Pi OS
# Bookworm or later). Run from the source tree: `make install` or `sudo ./systemd/install.sh`.
#
#   --dry-run        print every step it would take and change nothing (no root needed)
#   --force          install even though this machine does not look like a Raspberry Pi
#   --no-wifi-setup  no setup hotspot (a wired table, or one whose Wi-Fi is set up already)
#   --hostname=NAME  the table's name on the network (NAME.local); without it a Pi still
#                    called "raspberrypi" becomes "sudoku-table", any other name is kept
#
# Safe to run again: existing users, groups and the config are kept, the program is upgraded in
# place, the unit and udev rule are rewritten, and the service is restarted.
set -euo pipefail

readonly SERVICE=sudoku-table
readonly SERVICE_USER=sudoku-table
readonly PREFIX=/opt/sudoku-table
readonly VENV=$PREFIX/venv
readonly CONFIG_DIR=/etc/sudoku-table
# The config (overridable so that the installer's tests can give their own).
readonly CONFIG=${SUDOKU_TABLE_INSTALL_CONFIG:-$CONFIG_DIR/table.toml}
readonly STATE_DIR=/var/lib/sudoku-table
readonly UNIT_PATH=/etc/systemd/system/$SERVICE.service
readonly UDEV_RULE=/etc/udev/rules.d/99-sudoku-table-pio.rules
readonly UDEV_TEXT='SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"'
# The file that names the board; overridable so the Pi checks can be exercised anywhere.
MODEL_FILE=${SUDOKU_TABLE_MODEL_FILE:-/proc/device-tree/model}
# The firmware's boot config (Bookworm: /boot/firmware/config.txt); overridable for the same reason.
if [[ -n ${SUDOKU_TABLE_BOOT_CONFIG:-} ]]; then
    BOOT_CONFIG=$SUDOKU_TABLE_BOOT_CONFIG
elif [[ -e /boot/firmware/config.txt ]]; then
    BOOT_CONFIG=/boot/firmware/config.txt
else
    BOOT_CONFIG=/boot/config.txt
fi
readonly BLOCK_START='# >>> sudoku-table (install.sh): LED data on SPI0 MOSI (GPIO10)'
readonly BLOCK_END='# <<< sudoku-table'

readonly CHECK_CONFIG='import sys
from sudoku_table.config import ConfigError, load_config
try:
    load_config(sys.argv[1])
except ConfigError as e:
    sys.exit(f"install.sh: fix the config: {e}")'

readonly TAR_EXCLUDES=(--exclude=./.git --exclude=./.venv --exclude=./build --exclude='*.egg-info'
    --exclude=__pycache__ --exclude=./.pytest_cache --exclude=./.mypy_cache
    --exclude=./.ruff_cache --exclude=./.hypothesis)

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DRY_RUN=0
FORCE=0
REBOOT=0
WIFI_SETUP=1
HOSTNAME_WANTED=""

usage() {
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
}

for arg in "$@"; do
    case $arg in
        --dry-run) DRY_RUN=1 ;;
        --force) FORCE=1 ;;
        --no-wifi-setup) WIFI_SETUP=0 ;;
        --hostname=*) HOSTNAME_WANTED=${arg#--hostname=}
            if ! [[ $HOSTNAME_WANTED =~ ^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$ ]]; then
                echo "install.sh: --hostname needs lower-case letters, digits and inner dashes," \
                     "e.g. --hostname=sudoku-table" >&2
                exit 2
            fi ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

say() { printf '==> %s\n' "$*"; }

# Run a command, or only show it in a dry run.
run() {
    if ((DRY_RUN)); then
        local shown=() word
        for word in "$@"; do
            if [[ $word =~ ^[A-Za-z0-9_./=:,@%+-]+$ ]]; then
                shown+=("$word")
            else
                shown+=("'${word//\'/\'\\\'\'}'")
            fi
        done
        printf '+ %s\n' "${shown[*]}"
    else
        "$@"
    fi
}

# Write stdin to a file with a mode, or only show it in a dry run.
write_file() {
    local path=$1 mode=$2 content
    content=$(cat)
    if ((DRY_RUN)); then
        printf '+ write %s (mode %s):\n' "$path" "$mode"
        printf '%s\n' "$content" | sed 's/^/|   /'
    else
        [[ -d $(dirname "$path") ]] || install -d -m 0755 "$(dirname "$path")"  # keep a mode
        printf '%s\n' "$content" > "$path.tmp"
        chmod "$mode" "$path.tmp"
        mv -f "$path.tmp" "$path"
    fi
}

# --- where are we? -----------------------------------------------------------------------------

MODEL=""
if [[ -r $MODEL_FILE ]]; then
    MODEL=$(tr -d '\0' < "$MODEL_FILE")
fi
if [[ $MODEL != "Raspberry Pi"* ]]; then
    if ((FORCE)); then
        say "not a Raspberry Pi (${MODEL:-no device-tree model}); going on because of --force"
    else
        echo "install.sh: this is not a Raspberry Pi (${MODEL:-no device-tree model})." >&2
        echo "  The service drives GPIO pins and LEDs; off a Pi use 'make run' (simulated table)," >&2
        echo "  or pass --force to install anyway." >&2
        exit 1
    fi
else
    say "installing on: $MODEL"
fi
if [[ $MODEL == "Raspberry Pi 5"* || $MODEL == "Raspberry Pi Compute Module 5"* ]]; then
    PI5=1
else
    PI5=0
fi
# Per board: the core clock the SPI clock is divided from, pinned at the board's default
# (Raspberry Pi's config.txt documentation, "Overclocking options": 500 MHz on a Pi 4, 400 MHz
# on a Zero 2 W; either gives the LEDs 6.25 MHz), and the quiet scan interval written into a
# new config (the Zero 2 W's slower cores scan every 8 ms).
ZERO2=0
if [[ $MODEL == "Raspberry Pi Zero 2"* ]]; then
    ZERO2=1
    CORE_FREQ=400
    SCAN_INTERVAL_MS=8.0
else
    CORE_FREQ=500
    SCAN_INTERVAL_MS=""  # the config's default (4 ms)
fi
# systemd runs this system (not so in a chroot building an image, or a container): services
# are then enabled for the next boot but not started or reloaded now.
# (SUDOKU_TABLE_SYSTEMD_UP=1 or 0 overrides the check, for the installer's own tests.)
if [[ -n ${SUDOKU_TABLE_SYSTEMD_UP:-} ]]; then
    SYSTEMD_UP=$((SUDOKU_TABLE_SYSTEMD_UP == 1))
elif [[ -d /run/systemd/system ]]; then
    SYSTEMD_UP=1
else
    SYSTEMD_UP=0
fi

if ((!DRY_RUN)) && ! command -v systemctl >/dev/null; then
    echo "install.sh: this system has no systemd (no systemctl): the table runs as a systemd" >&2
    echo "  service, as on Raspberry Pi OS. Install systemd first (sudo apt-get install systemd)." >&2
    exit 1
fi
if ((!DRY_RUN)) && ((EUID != 0)); then
    echo "install.sh: run as root (sudo ./systemd/install.sh), or with --dry-run to see the steps" >&2
    exit 1
fi
if [[ ! -f $SOURCE/pyproject.toml || ! -f $SOURCE/systemd/$SERVICE.service ]]; then
    echo "install.sh: $SOURCE is not the Sudoku Table source tree" >&2
    exit 1
fi
((DRY_RUN)) && say "dry run: nothing is changed"

# --- system packages ---------------------------------------------------------------------------

# python3-venv for the venv, a compiler and Python's headers for the packages pip builds on the
# Pi where no wheel fits (gpiod; rpi_ws281x for the neopixel driver); the table's voice:
# espeak-ng renders speech, alsa-utils' aplay plays it on the speaker.
# lgpio (gpiozero's GPIO library on every Pi) has wheels for Python up to 3.12 only: on
# Raspberry Pi OS Trixie (Debian 13, Python 3.13) pip builds it from its source, which needs
# swig; PYPI=1 makes that build link lgpio's own C library in (Debian 13 has no liblgpio).
PYTHON_MINOR=$(python3 -c 'import sys; print(sys.version_info[1])' 2>/dev/null || echo 0)
SYSTEM_PACKAGES=(python3-venv python3-dev gcc libc6-dev espeak-ng alsa-utils)
if ((PYTHON_MINOR >= 13)); then
    SYSTEM_PACKAGES+=(swig)
    LGPIO_FROM_SOURCE=1
    say "Python 3.$PYTHON_MINOR: lgpio has no wheel for it and is built from its source (swig)"
else
    LGPIO_FROM_SOURCE=0
fi
missing=()
for pkg in "${SYSTEM_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
        || missing+=("$pkg")
done
if ((${#missing[@]})); then
    say "system packages: ${missing[*]}"
    run apt-get update -q
    run apt-get install -y -q "${missing[@]}"
else
    say "system packages: present"
fi

# --- user and groups ---------------------------------------------------------------------------

for group in gpio spi audio; do
    if getent group "$group" >/dev/null; then
        say "group $group: exists"
    else
        say "group $group: creating"
        run groupadd --system "$group"
    fi
done
if id -u "$SERVICE_USER" >/dev/null 2>&1; then
    say "user $SERVICE_USER: exists"
else
    say "user $SERVICE_USER: creating (system user, no login)"
    run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
        --shell /usr/sbin/nologin --comment "Sudoku Table" "$SERVICE_USER"
fi
run usermod --append --groups gpio,spi,audio "$SERVICE_USER"

# --- the program -------------------------------------------------------------------------------

if [[ -x $VENV/bin/python ]]; then
    say "venv $VENV: exists, upgrading the program in it"
else
    say "venv $VENV: creating"
    run install -d -m 0755 "$PREFIX"
    run python3 -m venv "$VENV"
fi
# A clean copy of the tree to build from (so the build leaves nothing root-owned in $SOURCE);
# it also keeps the build guide at hand, where the unit's Documentation= points.
say "source: copying to $PREFIX/src"
run rm -rf "$PREFIX/src"
run install -d -m 0755 "$PREFIX/src"
if ((DRY_RUN)); then
    printf '+ tar -C %s %s -cf - . | tar -C %s -xf -\n' "$SOURCE" "${TAR_EXCLUDES[*]}" "$PREFIX/src"
else
    tar -C "$SOURCE" "${TAR_EXCLUDES[@]}" -cf - . | tar -C "$PREFIX/src" -xf -
fi
run "$VENV/bin/pip" install --quiet --no-cache-dir --upgrade pip
# The LED driver decides the extra: the config that will be used (the existing one, else the
# example), read with the system's Python (Bookworm's 3.11 has tomllib).
DRIVER_SOURCE=$CONFIG
[[ -r $DRIVER_SOURCE ]] || DRIVER_SOURCE=$SOURCE/src/sudoku_table/firmware/table.example.toml
DRIVER=$(python3 -c 'import sys, tomllib
with open(sys.argv[1], "rb") as f:
    print(tomllib.load(f).get("leds", {}).get("driver", "spi"))' "$DRIVER_SOURCE" 2>/dev/null || echo spi)
SPEAKER_I2S=$(python3 -c 'import sys, tomllib
with open(sys.argv[1], "rb") as f:
    print(int(tomllib.load(f).get("speaker", {}).get("i2s", False) is True))' "$DRIVER_SOURCE" 2>/dev/null || echo 0)
if [[ $DRIVER == neopixel ]]; then
    EXTRAS=pi,pi-neopixel
else
    EXTRAS=pi
fi
say "LED driver: $DRIVER (from $DRIVER_SOURCE): installing the [$EXTRAS] extra"
# lgpio>=0.2 (pyproject): never its placeholder 0.0.0.2, which installs but does nothing.
if ((LGPIO_FROM_SOURCE)); then
    run env PYPI=1 "$VENV/bin/pip" install --quiet --no-cache-dir --upgrade "$PREFIX/src[$EXTRAS]"
else
    run "$VENV/bin/pip" install --quiet --no-cache-dir --upgrade "$PREFIX/src[$EXTRAS]"
fi
say "lgpio: checking that the installed one drives GPIO groups (not a placeholder)"
run "$VENV/bin/python" -c 'import lgpio, sys
from importlib.metadata import version
v = version("lgpio")
sys.exit(0 if tuple(int(p) for p in v.split(".")[:2]) >= (0, 2) and hasattr(lgpio, "group_read")
         else f"install.sh: lgpio {v} is not usable (placeholder?): pip install \"lgpio>=0.2\"")'

# --- the config --------------------------------------------------------------------------------

EXAMPLE=$SOURCE/src/sudoku_table/firmware/table.example.toml
if [[ -e $CONFIG ]]; then
    say "config $CONFIG: exists, kept (compare with $EXAMPLE after an upgrade)"
elif [[ -f $EXAMPLE ]]; then
    say "config $CONFIG: from $EXAMPLE"
    run install -d -m 0750 -o root -g "$SERVICE_USER" "$CONFIG_DIR"
    run install -m 0640 -o root -g "$SERVICE_USER" "$EXAMPLE" "$CONFIG"
    if [[ -n $SCAN_INTERVAL_MS ]]; then
        say "config: scan_interval_ms = $SCAN_INTERVAL_MS for this board (Zero 2 W)"
        run sed -i "s/^scan_interval_ms = [0-9.]*/scan_interval_ms = $SCAN_INTERVAL_MS/" "$CONFIG"
    fi
else
    echo "install.sh: $EXAMPLE is missing: cannot write $CONFIG" >&2
    exit 1
fi
# The panel's data (journal, settings) is created by systemd's StateDirectory= on start.

# A config the table cannot start with is reported now, not as a failing service.
if ((DRY_RUN)) || [[ -e $CONFIG ]]; then
    say "config: checking"
    run "$VENV/bin/python" -c "$CHECK_CONFIG" "$CONFIG"
fi

# --- the LED hardware --------------------------------------------------------------------------

# A config.txt line (outside the installer's block) that gives a pin of the table to the kernel:
# refused with the line and what to change, before anything is written. dtparam=spi=on is the
# installer's to fix (below), so it is checked as it will be after that.
check_boot_config() {
    [[ -r $BOOT_CONFIG ]] || return 0
    local copy rc=0 said
    copy=$(mktemp)
    sed 's/^[[:space:]]*dtparam=spi=on.*/# & (sudoku-table: SPI0 comes from spi0-0cs)/' \
        "$BOOT_CONFIG" > "$copy"
    said=$(python3 "$SOURCE/src/sudoku_table/firmware/bootconfig.py" --config "$CONFIG" \
        --example "$SOURCE/src/sudoku_table/firmware/table.example.toml" \
        --block-start "$BLOCK_START" --block-end "$BLOCK_END" "$copy" 2>&1) || rc=$?
    rm -f "$copy"
    said=${said//$copy/$BOOT_CONFIG}
    if ((rc)); then
        printf '%s\n' "$said" >&2
        echo "install.sh: $BOOT_CONFIG gives a pin of the table to the kernel (above):" \
             "change that line first" >&2
        exit 1
    fi
    say "boot config: $said"
}

if [[ $DRIVER == spi ]]; then
    # Every Pi: the LED data goes out on SPI0's MOSI (GPIO10) through /dev/spidev0.0 (group spi,
    # no root). spi0-0cs turns SPI0 on without claiming its chip selects, so GPIO7 and GPIO8
    # stay free for the matrix (dtparam=spi=on would claim both). On a Pi 4 and Zero 2 W the SPI
    # clock is divided from the VPU core clock, which otherwise follows the load: pinned.
    # [all]: the block holds whatever conditional section ([pi4], [cm5]...) the file ends in.
    block=("$BLOCK_START" "[all]" "dtoverlay=spi0-0cs")
    if ((!PI5)); then
        block+=("core_freq=$CORE_FREQ" "core_freq_min=$CORE_FREQ")
    fi
    if ((SPEAKER_I2S)); then
        # The MAX98357A as a sound card; no-sdmode: its SD pin is not driven, so GPIO4 (rank 1)
        # stays the matrix's. force_eeprom_read=0: GPIO0 (a column then) is not probed for a
        # HAT's EEPROM at boot.
        block+=("dtoverlay=max98357a,no-sdmode" "force_eeprom_read=0")
    fi
    block+=("$BLOCK_END")
    wanted=$(printf '%s\n' "${block[@]}")
    current=""
    if [[ -r $BOOT_CONFIG ]]; then
        current=$(sed -n "/^$BLOCK_START\$/,/^$BLOCK_END\$/p" "$BOOT_CONFIG")
    fi
    check_boot_config
    if [[ $current == "$wanted" ]]; then
        say "boot config $BOOT_CONFIG: SPI0 for the LEDs already set"
    else
        say "boot config $BOOT_CONFIG: SPI0 for the LEDs (${block[*]:2:${#block[@]}-3})"
        if ((DRY_RUN)); then
            printf '+ edit %s: put this block in place of any earlier one:\n' "$BOOT_CONFIG"
            printf '%s\n' "${block[@]}" | sed 's/^/|   /'
        else
            [[ -e $BOOT_CONFIG ]] || { echo "install.sh: $BOOT_CONFIG is missing" >&2; exit 1; }
            cp -p "$BOOT_CONFIG" "$BOOT_CONFIG.sudoku-table.bak"
            sed -i "/^$BLOCK_START\$/,/^$BLOCK_END\$/d" "$BOOT_CONFIG"
            printf '%s\n' "${block[@]}" >> "$BOOT_CONFIG"
        fi
        REBOOT=1
    fi
    # dtparam=spi=on claims GPIO7 and GPIO8 as chip selects, and GPIO7 is a matrix column.
    if [[ -r $BOOT_CONFIG ]] && grep -q '^[[:space:]]*dtparam=spi=on' "$BOOT_CONFIG"; then
        say "boot config: 'dtparam=spi=on' claims GPIO7 (a matrix column): commenting it out"
        run sed -i 's/^[[:space:]]*dtparam=spi=on.*/# & (sudoku-table: SPI0 comes from spi0-0cs)/' "$BOOT_CONFIG"
        REBOOT=1
    fi
else
    say "LED driver neopixel: Adafruit's NeoPixel on the config's data pin"
    if ((PI5)); then
        # The Pi 5's NeoPixel backend drives the data line through /dev/pio0.
        say "udev rule $UDEV_RULE: /dev/pio0 for the gpio group"
        write_file "$UDEV_RULE" 0644 <<EOF
# Sudoku Table: the Pi 5's PIO device (NeoPixel output) for members of the gpio group.
$UDEV_TEXT
EOF
        if ((SYSTEMD_UP)); then
            run udevadm control --reload-rules
            run udevadm trigger --subsystem-match='*-pio' --action=add
        fi
    else
        say "WARNING: on a Pi 4 or Zero 2 W the neopixel driver (PWM/PCM through rpi_ws281x)"
        say "  needs root (/dev/mem), which the service does not have: use the default"
        say "  leds.driver = \"spi\" with the data line on GPIO10 (see hardware/README.md)"
    fi
fi

# --- the appliance: its name, Wi-Fi setup and power ----------------------------------------------

readonly DEFAULT_HOSTNAME=sudoku-table
readonly AVAHI_SERVICE=/etc/avahi/services/sudoku-table.service
readonly COMITUP_CONF=/etc/comitup.conf
readonly POLKIT_RULE=/etc/polkit-1/rules.d/50-sudoku-table-power.rules

# Enable a unit for every boot and (re)start it now where systemd runs.
start_now() {
    local unit=$1 how=${2:-start}
    if ((SYSTEMD_UP)) && [[ $how == start ]]; then
        run systemctl enable --now "$unit"
        return
    fi
    run systemctl enable "$unit"
    if ((SYSTEMD_UP)); then
        run systemctl "$how" "$unit"
    else
        say "systemd is not running here: $unit is enabled and starts at the next boot"
    fi
}

restart_if_up() {
    if ((SYSTEMD_UP)); then
        run systemctl restart "$1"
    else
        say "systemd is not running here: $1 not restarted"
    fi
}

# Install a Debian package unless it is there already (the package lists are updated once).
APT_UPDATED=0
need_package() {
    if dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; then
        say "package $1: present"
    else
        say "package $1: installing"
        if ((!APT_UPDATED)); then
            run apt-get update -q
            APT_UPDATED=1
        fi
        run apt-get install -y -q "$1"
    fi
}

# The name: avahi answers NAME.local for the Pi's own host name, whatever its address is.
CURRENT_HOSTNAME=$(hostname 2>/dev/null || cat /etc/hostname 2>/dev/null || echo localhost)
if [[ -z $HOSTNAME_WANTED && $CURRENT_HOSTNAME == raspberrypi ]]; then
    HOSTNAME_WANTED=$DEFAULT_HOSTNAME  # nobody chose the stock name
fi
need_package avahi-daemon
start_now avahi-daemon.service
if [[ -n $HOSTNAME_WANTED && $HOSTNAME_WANTED != "$CURRENT_HOSTNAME" ]]; then
    say "host name: $CURRENT_HOSTNAME -> $HOSTNAME_WANTED (the panel: http://$HOSTNAME_WANTED.local/)"
    if command -v raspi-config >/dev/null && ((SYSTEMD_UP)); then
        run raspi-config nonint do_hostname "$HOSTNAME_WANTED"  # /etc/hostname and /etc/hosts
    else
        if ((SYSTEMD_UP)); then
            run hostnamectl set-hostname "$HOSTNAME_WANTED"
        else
            printf '%s\n' "$HOSTNAME_WANTED" | write_file /etc/hostname 0644
        fi
        run sed -i "s/^127\.0\.1\.1\s.*/127.0.1.1\t$HOSTNAME_WANTED/" /etc/hosts
    fi
    restart_if_up avahi-daemon.service
    TABLE_HOST=$HOSTNAME_WANTED
else
    TABLE_HOST=$CURRENT_HOSTNAME
    say "host name: $TABLE_HOST kept (the panel: http://$TABLE_HOST.local/;" \
        "--hostname=$DEFAULT_HOSTNAME renames it)"
fi
# The panel as a web service on the home network, for apps that list a home's devices.
say "avahi service $AVAHI_SERVICE: the panel as _http._tcp on port 80"
write_file "$AVAHI_SERVICE" 0644 <<'EOF'
<?xml version="1.0" standalone="no"?>
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<!-- Sudoku Table: the phone panel, announced on the home network (written by install.sh). -->
<service-group>
  <name replace-wildcards="yes">Sudoku Table on %h</name>
  <service>
    <type>_http._tcp</type>
    <port>80</port>
    <txt-record>path=/</txt-record>
  </service>
</service-group>
EOF

# Wi-Fi setup: comitup opens the hotspot "Sudoku-Table-<4 digits>" whenever no known Wi-Fi is in
# reach, with its setup page at http://10.41.0.1/. That page needs port 80 too, so comitup stops
# the table's service while the hotspot is up and starts it again once the Pi is connected.
if ((WIFI_SETUP)); then
    need_package comitup
    say "Wi-Fi setup $COMITUP_CONF: hotspot Sudoku-Table-<nnnn>, setup page http://10.41.0.1/"
    write_file "$COMITUP_CONF" 0644 <<'EOF'
# Sudoku Table (written by install.sh; running it again rewrites this file).
# With no known Wi-Fi in reach, comitup opens the hotspot below; its setup page at
# http://10.41.0.1/ lists the networks it sees. While the hotspot is up the table's own panel
# is stopped (both need port 80); comitup starts it again once the table is connected.
ap_name: Sudoku-Table-<nnnn>
web_service: sudoku-table.service
EOF
    run systemctl enable comitup.service
else
    say "Wi-Fi setup: skipped (--no-wifi-setup)"
fi

# Power: polkit lets the service user, and nobody else new, switch the Pi off and restart it
# through systemd-logind (the panel's Shut down and Restart); *-multiple-sessions covers somebody
# logged in over SSH at the time. Nothing else is granted: the service stays unprivileged.
need_package polkitd
say "polkit rule $POLKIT_RULE: $SERVICE_USER may power off and reboot, nothing else"
write_file "$POLKIT_RULE" 0644 <<'EOF'
// Sudoku Table (written by install.sh): the table's service user may switch the Pi off and
// restart it (the panel's "Shut down" and "Restart"), and nothing else.
polkit.addRule(function (action, subject) {
    var allowed = ["org.freedesktop.login1.power-off",
                   "org.freedesktop.login1.power-off-multiple-sessions",
                   "org.freedesktop.login1.reboot",
                   "org.freedesktop.login1.reboot-multiple-sessions"];
    if (subject.user == "sudoku-table" && allowed.indexOf(action.id) >= 0) {
        return polkit.Result.YES;
    }
});
EOF

# --- what grows on the memory card --------------------------------------------------------------

# The table keeps a reserve beside its journal so that a game in progress can always be saved to
# its end (docs/DESIGN.md, "When the disk fills or fails"); what else grows on the card is capped
# here so that it does not fill it in the first place. journald: at most 64 MB of logs, and it
# stops writing while less than 256 MB of the card are free.
readonly JOURNALD_CONF=/etc/systemd/journald.conf.d/50-sudoku-table.conf
readonly LOGROTATE_CONF=/etc/logrotate.d/00-sudoku-table
readonly LOGROTATE_TIMER=/etc/systemd/system/logrotate.timer.d/50-sudoku-table.conf
say "journald $JOURNALD_CONF: at most 64 MB of logs, 256 MB of the card always left free"
write_file "$JOURNALD_CONF" 0644 <<'EOF'
# Sudoku Table (written by install.sh): the system's logs never fill the memory card.
[Journal]
SystemMaxUse=64M
SystemMaxFileSize=16M
SystemKeepFree=256M
RuntimeMaxUse=16M
MaxRetentionSec=1month
EOF
restart_if_up systemd-journald.service
# rsyslog (not installed on Raspberry Pi OS since Bookworm, often added later) writes plain files
# that logrotate only rotates weekly: a flood of messages fills a card within that week. Where it
# is installed, logrotate runs every hour and rotates any file over 20 MB, keeping two.
if dpkg-query -W -f='${Status}' rsyslog 2>/dev/null | grep -q "install ok installed"; then
    say "rsyslog: its files rotated at 20 MB, checked every hour ($LOGROTATE_CONF)"
    write_file "$LOGROTATE_CONF" 0644 <<'EOF'
# Sudoku Table (written by install.sh): read before the other files of /etc/logrotate.d, so
# these defaults apply to every log rotated after it (rsyslog's among them).
maxsize 20M
rotate 2
compress
EOF
    write_file "$LOGROTATE_TIMER" 0644 <<'EOF'
# Sudoku Table (written by install.sh): rotate every hour, so that maxsize holds within hours.
[Timer]
OnCalendar=
OnCalendar=hourly
EOF
    ((SYSTEMD_UP)) && run systemctl daemon-reload
else
    say "rsyslog: not installed (journald keeps the logs)"
fi
# apt keeps every package it downloaded: emptied once the installs above are done.
say "apt: its cache of downloaded packages emptied"
run apt-get clean

# --- the service -------------------------------------------------------------------------------

say "unit $UNIT_PATH"
run install -m 0644 "$SOURCE/systemd/$SERVICE.service" "$UNIT_PATH"
((SYSTEMD_UP)) && run systemctl daemon-reload
start_now "$SERVICE.service" restart
if ((REBOOT)); then
    say "the boot config changed: reboot once (sudo reboot) so SPI0 and the clock take effect"
fi
say "done: 'systemctl status $SERVICE' and 'journalctl -u $SERVICE -f' show how it runs;"
say "  the panel is at http://$TABLE_HOST.local/ (port 80)"
