"""The service unit and the Pi installer (``systemd/``)."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.notified import served

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "sudoku-table.service"
INSTALL = ROOT / "systemd" / "install.sh"
EXAMPLE_CONFIG = ROOT / "src" / "sudoku_table" / "firmware" / "table.example.toml"


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """Sections of a unit file, each key with all its values in order (keys may repeat)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None, f"line {number} is outside a section: {raw!r}"
        assert "=" in line, f"line {number} is not key=value: {raw!r}"
        key, value = (part.strip() for part in line.split("=", 1))
        current.setdefault(key, []).append(value)
    return sections


@pytest.fixture(scope="module")
def unit() -> dict[str, dict[str, list[str]]]:
    return parse_unit(UNIT.read_text(encoding="utf-8"))


def one(unit: dict[str, dict[str, list[str]]], section: str, key: str) -> str:
    values = unit[section].get(key, [])
    assert len(values) == 1, f"{section}.{key}: {values}"
    return values[0]


def test_the_unit_runs_the_server_as_a_notify_service_with_a_watchdog(unit: dict) -> None:
    assert one(unit, "Service", "Type") == "notify"
    assert int(one(unit, "Service", "WatchdogSec")) >= 10
    assert one(unit, "Service", "Restart") == "on-failure"
    command = one(unit, "Service", "ExecStart").split()
    assert command[0] == "/opt/sudoku-table/venv/bin/sudoku-table" and command[1] == "serve"
    options = dict(zip(command[2::2], command[3::2], strict=True))
    assert options["--host"] == "0.0.0.0"
    assert options["--data"] == "/var/lib/sudoku-table"
    assert options["--config"] == "/etc/sudoku-table/table.toml"
    port = int(options["--port"])
    # Below 1024 needs exactly one capability, and it must be handed over.
    if port < 1024:
        assert one(unit, "Service", "AmbientCapabilities") == "CAP_NET_BIND_SERVICE"
        assert one(unit, "Service", "CapabilityBoundingSet") == "CAP_NET_BIND_SERVICE"
    assert one(unit, "Install", "WantedBy") == "multi-user.target"


def test_the_service_commands_parse_with_the_cli() -> None:
    """The ExecStart arguments are ones ``sudoku-table serve`` accepts."""
    from sudoku_table.cli import build_parser

    command = parse_unit(UNIT.read_text(encoding="utf-8"))["Service"]["ExecStart"][0].split()
    args = build_parser().parse_args(command[1:])
    assert args.command == "serve" and args.sim is False


def test_the_unit_runs_unprivileged_and_hardened(unit: dict) -> None:
    service = unit["Service"]
    assert one(unit, "Service", "User") == "sudoku-table" != "root"
    assert set(one(unit, "Service", "SupplementaryGroups").split()) >= {"gpio", "spi", "audio"}
    for key, value in [("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"),
                       ("ProtectHome", "yes"), ("PrivateTmp", "yes"),
                       ("StateDirectory", "sudoku-table"), ("DevicePolicy", "closed"),
                       ("ProtectKernelModules", "yes"), ("RestrictSUIDSGID", "yes")]:
        assert one(unit, "Service", key) == value, key
    devices = " ".join(service["DeviceAllow"])
    for needed in ("char-gpiochip", "char-spi", "/dev/pio0", "char-alsa"):
        assert needed in devices
    assert "PrivateDevices" not in service  # it would hide the GPIO and SPI devices
    # lgpio writes its notification pipes to LG_WD: somewhere writable under ProtectSystem.
    env = dict(v.split("=", 1) for v in service["Environment"])
    assert env["LG_WD"] == "/run/sudoku-table"
    assert one(unit, "Service", "RuntimeDirectory") == "sudoku-table"


@pytest.mark.integration
def test_the_server_speaks_the_notify_protocol_the_unit_expects(tmp_path: Path) -> None:
    """Type=notify and WatchdogSec only work if ``serve`` sends READY=1 once it listens and
    then WATCHDOG=1 at half the interval systemd gives it; SIGTERM stops it cleanly."""
    with served(tmp_path, "--sim", start_timeout=20, WATCHDOG_USEC="200000",
                GPIOZERO_PIN_FACTORY="mock") as running:
        listener, server = running.listener, running.process
        assert listener.recv(64) == b"READY=1"
        assert server.stdout is not None
        line = server.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line
        # Ready means listening: the panel answers.
        with urllib.request.urlopen(f"http://127.0.0.1:{match.group(1)}/api/variants",
                                    timeout=10) as answer:
            assert answer.status == 200
        assert listener.recv(64) == b"WATCHDOG=1"
        assert listener.recv(64) == b"WATCHDOG=1"
    assert server.returncode == 0, running.err
    assert "Sudoku Table stopped." in running.out


@pytest.mark.integration
@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze missing")
def test_systemd_analyze_verify_accepts_the_unit(tmp_path: Path) -> None:
    # The installed program does not exist here: point ExecStart at this checkout's.
    program = Path(sys.executable).with_name("sudoku-table")
    assert program.exists()
    text = UNIT.read_text(encoding="utf-8").replace(
        "/opt/sudoku-table/venv/bin/sudoku-table", str(program))
    copy = tmp_path / "sudoku-table.service"
    copy.write_text(text, encoding="utf-8")
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True,
                            text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert "sudoku-table.service" not in result.stderr, result.stderr


@pytest.mark.integration
def test_the_installer_is_valid_bash_in_strict_mode() -> None:
    subprocess.run(["bash", "-n", str(INSTALL)], check=True, timeout=10)
    text = INSTALL.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in text
    assert os.access(INSTALL, os.X_OK)


def install(*args: str, model: str | None = None, tmp_path: Path | None = None,
            prefix: tuple[str, ...] = (), boot: str = "",
            systemd_up: bool = True,
            config: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["SUDOKU_TABLE_SYSTEMD_UP"] = "1" if systemd_up else "0"
    if config is not None:
        env["SUDOKU_TABLE_INSTALL_CONFIG"] = str(config)
    if model is not None:
        assert tmp_path is not None
        model_file = tmp_path / "model"
        model_file.write_bytes(model.encode() + b"\0")  # as the device tree writes it
        env["SUDOKU_TABLE_MODEL_FILE"] = str(model_file)
        boot_config = tmp_path / "config.txt"
        boot_config.write_text(boot, encoding="utf-8")
        env["SUDOKU_TABLE_BOOT_CONFIG"] = str(boot_config)
    else:
        env["SUDOKU_TABLE_MODEL_FILE"] = "/nonexistent/model"
    return subprocess.run([*prefix, "bash", str(INSTALL), *args], capture_output=True, text=True,
                          env=env, timeout=30)


def commands(out: str) -> list[str]:
    return [line[2:] for line in out.splitlines() if line.startswith("+ ")]


@pytest.mark.integration
def test_the_installer_refuses_to_run_off_a_pi_unless_forced() -> None:
    result = install("--dry-run")
    assert result.returncode == 1
    assert "not a Raspberry Pi" in result.stderr and "--force" in result.stderr
    assert result.stdout == ""


@pytest.mark.integration
def test_the_installer_rejects_unknown_arguments() -> None:
    result = install("--dry-rn")
    assert result.returncode == 2 and "unknown argument '--dry-rn'" in result.stderr


@pytest.mark.integration
def test_the_installer_needs_root_for_a_real_run() -> None:
    as_user: tuple[str, ...] = ()
    if os.geteuid() == 0:  # drop to an ordinary user to see the refusal
        if shutil.which("setpriv") is None:
            pytest.skip("running as root and setpriv is missing")
        as_user = ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")
    result = install("--force", prefix=as_user)
    assert result.returncode == 1 and "run as root" in result.stderr


@pytest.mark.integration
def test_a_dry_run_on_a_pi_4_shows_every_step_in_order(tmp_path: Path) -> None:
    result = install("--dry-run", model="Raspberry Pi 4 Model B Rev 1.4", tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "installing on: Raspberry Pi 4 Model B Rev 1.4" in out
    assert "dry run: nothing is changed" in out
    steps = commands(out)
    joined = "\n".join(steps)
    venv = "/opt/sudoku-table/venv"
    # The program: a venv with the pi extra, built from a clean copy of this source tree.
    assert any(s.startswith(f"tar -C {ROOT} ") and s.endswith("tar -C /opt/sudoku-table/src -xf -")
               and "--exclude=./.git" in s and "--exclude=./.venv" in s for s in steps)
    assert (f"{venv}/bin/pip install --quiet --no-cache-dir --upgrade "
            "'/opt/sudoku-table/src[pi]'") in steps
    # The config, from the firmware's example, readable by the service's group only.
    if not Path("/etc/sudoku-table/table.toml").exists():
        assert (f"install -m 0640 -o root -g sudoku-table {EXAMPLE_CONFIG} "
                "/etc/sudoku-table/table.toml") in steps
    # SPI0 for the LED line, without chip selects, and the core clock pinned (a Pi 4); no PIO.
    assert "LED driver: spi" in out
    shown = [line[4:] for line in out.splitlines() if line.startswith("|   ")]
    start = shown.index("# >>> sudoku-table (install.sh): LED data on SPI0 MOSI (GPIO10)")
    assert shown[start + 1:start + 6] == ["[all]", "dtoverlay=spi0-0cs", "core_freq=500",
                                          "core_freq_min=500", "# <<< sudoku-table"]
    assert "99-sudoku-table-pio.rules" not in joined and "udevadm" not in joined
    assert "reboot once" in out
    # The unit goes in, then is enabled and (re)started: last of all.
    assert steps[-4:] == [
        f"install -m 0644 {ROOT}/systemd/sudoku-table.service "
        "/etc/systemd/system/sudoku-table.service",
        "systemctl daemon-reload",
        "systemctl enable sudoku-table.service",
        "systemctl restart sudoku-table.service",
    ]
    order = [out.index(s) for s in ("pip install", "table.toml", "spi0-0cs", "systemctl")]
    assert order == sorted(order)


@pytest.mark.integration
def test_a_dry_run_creates_only_what_is_missing(tmp_path: Path) -> None:
    """Idempotence: the user and groups are created only when absent."""
    result = install("--dry-run", model="Raspberry Pi 5 Model B Rev 1.0", tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    steps = commands(result.stdout)
    has_user = subprocess.run(["id", "-u", "sudoku-table"], capture_output=True).returncode == 0
    assert any(s.startswith("useradd --system") for s in steps) is not has_user
    for group in ("gpio", "spi"):
        exists = subprocess.run(["getent", "group", group], capture_output=True).returncode == 0
        assert (f"groupadd --system {group}" in steps) is not exists
    assert "usermod --append --groups gpio,spi,audio sudoku-table" in steps
    # A Pi 5's SPI runs from the RP1's own clock: SPI0 on, no core clock lines.
    assert "dtoverlay=spi0-0cs" in result.stdout and "core_freq" not in result.stdout
    assert not any("do_spi" in s for s in steps)


@pytest.mark.integration
def test_the_boot_config_frees_the_matrix_pin_and_is_written_once(tmp_path: Path) -> None:
    """dtparam=spi=on would claim GPIO7 (column i): commented out. An existing block that is
    already right is left alone (no reboot asked for)."""
    zero = "Raspberry Pi Zero 2 W Rev 1.0"
    result = install("--dry-run", model=zero, tmp_path=tmp_path,
                     boot="[all]\ndtparam=audio=on\ndtparam=spi=on\n")
    assert result.returncode == 0, result.stderr
    # Raspberry Pi's documentation: the Zero 2 W's default core clock is 400 MHz.
    assert "core_freq=400" in result.stdout and "claims GPIO7" in result.stdout
    assert any(s.startswith("sed -i") and "dtparam=spi=on" in s
               for s in commands(result.stdout))
    done = ("# >>> sudoku-table (install.sh): LED data on SPI0 MOSI (GPIO10)\n[all]\n"
            "dtoverlay=spi0-0cs\ncore_freq=400\ncore_freq_min=400\n# <<< sudoku-table\n")
    again = install("--dry-run", model=zero, tmp_path=tmp_path, boot="dtparam=audio=on\n" + done)
    assert again.returncode == 0, again.stderr
    assert "SPI0 for the LEDs already set" in again.stdout
    assert "reboot once" not in again.stdout


def test_the_installer_only_installs_files_that_exist() -> None:
    """Every source file the installer copies is part of the tree."""
    text = INSTALL.read_text(encoding="utf-8")
    copied = re.findall(r"\$SOURCE/([\w./$-]+)", text)
    assert "src/sudoku_table/firmware/table.example.toml" in copied
    for relative in copied:
        relative = relative.replace("$SERVICE", "sudoku-table")
        assert (ROOT / relative).exists(), relative


@pytest.mark.integration
def test_the_installer_checks_the_whole_config(tmp_path: Path) -> None:
    """The installer's config check (run with the installed venv's Python) really tells a good
    config from a bad one."""
    text = INSTALL.read_text(encoding="utf-8")
    match = re.search(r"^readonly CHECK_CONFIG='(.*?)'$", text, re.S | re.M)
    assert match is not None
    check = match.group(1)
    good = subprocess.run([sys.executable, "-c", check, str(EXAMPLE_CONFIG)],
                          capture_output=True, text=True, timeout=30, cwd=ROOT)
    assert good.returncode == 0, good.stderr
    bad_config = tmp_path / "table.toml"
    bad_config.write_text("[leds]\ndata_pin = 4\n", encoding="utf-8")  # a matrix row's pin
    bad = subprocess.run([sys.executable, "-c", check, str(bad_config)],
                         capture_output=True, text=True, timeout=30, cwd=ROOT)
    assert bad.returncode == 1
    assert bad.stderr.startswith("install.sh: fix the config: ") and "leds.data_pin" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_a_config_that_cannot_start_does_not_restart_forever(unit: dict) -> None:
    assert int(one(unit, "Unit", "StartLimitBurst")) <= 10
    assert int(one(unit, "Unit", "StartLimitIntervalSec")) > (
        int(one(unit, "Unit", "StartLimitBurst")) * int(one(unit, "Service", "RestartSec")))


# --- the appliance: name, Wi-Fi setup, power -------------------------------------------------

def written(out: str, path: str) -> str:
    """The text a dry run shows for ``write PATH``."""
    lines = out.splitlines()
    start = lines.index(next(line for line in lines if line.startswith(f"+ write {path} ")))
    body = []
    for line in lines[start + 1:]:
        if not line.startswith("|   ") and line != "|":
            break
        body.append(line[4:])
    return "\n".join(body)


@pytest.mark.integration
def test_a_dry_run_sets_up_the_name_the_setup_hotspot_and_the_power_rule(tmp_path: Path) -> None:
    result = install("--dry-run", model="Raspberry Pi 4 Model B Rev 1.4", tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    out, steps = result.stdout, commands(result.stdout)
    assert "systemctl enable --now avahi-daemon.service" in steps
    service = written(out, "/etc/avahi/services/sudoku-table.service")
    assert "<type>_http._tcp</type>" in service and "<port>80</port>" in service
    comitup = written(out, "/etc/comitup.conf")
    settings = dict(line.split(": ", 1) for line in comitup.splitlines()
                    if line and not line.startswith("#"))
    assert settings == {"ap_name": "Sudoku-Table-<nnnn>", "web_service": "sudoku-table.service"}
    assert "systemctl enable comitup.service" in steps
    assert "http://10.41.0.1/" in out
    rule = written(out, "/etc/polkit-1/rules.d/50-sudoku-table-power.rules")
    assert 'subject.user == "sudoku-table"' in rule
    # Everything of the appliance comes before the unit is (re)started.
    joined = "\n".join(steps)
    assert joined.index("comitup") < joined.index("systemctl restart sudoku-table.service")


@pytest.mark.integration
def test_the_wifi_setup_can_be_skipped(tmp_path: Path) -> None:
    result = install("--dry-run", "--no-wifi-setup", model="Raspberry Pi 5 Model B Rev 1.0",
                     tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "comitup" not in "\n".join(commands(result.stdout))
    assert "Wi-Fi setup: skipped (--no-wifi-setup)" in result.stdout


@pytest.mark.integration
def test_the_host_name_is_set_on_request_and_checked(tmp_path: Path) -> None:
    bad = install("--dry-run", "--hostname=Sudoku_Table", model="Raspberry Pi 4 Model B",
                  tmp_path=tmp_path)
    assert bad.returncode == 2 and "--hostname needs" in bad.stderr
    name = "sudoku-table" if socket.gethostname() != "sudoku-table" else "sudoku-table-2"
    result = install("--dry-run", f"--hostname={name}", model="Raspberry Pi 4 Model B",
                     tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    steps = commands(result.stdout)
    assert (f"raspi-config nonint do_hostname {name}" in steps
            or f"hostnamectl set-hostname {name}" in steps)
    assert f"the panel is at http://{name}.local/" in result.stdout


POLKIT_SHIM = """
const fs = require("fs");
const rules = [];
const polkit = {Result: {YES: "yes", NO: "no"}, addRule: (f) => rules.push(f)};
eval(fs.readFileSync(process.argv[2], "utf8"));
const answers = {};
for (const user of ["sudoku-table", "pi", "root"]) {
  for (const id of JSON.parse(process.argv[3])) {
    answers[user + " " + id] = rules.map((f) => f({id}, {user})).find((r) => r) || null;
  }
}
console.log(JSON.stringify(answers));
"""

POLKIT_ACTIONS = [
    "org.freedesktop.login1.power-off", "org.freedesktop.login1.power-off-multiple-sessions",
    "org.freedesktop.login1.reboot", "org.freedesktop.login1.reboot-multiple-sessions",
    "org.freedesktop.login1.power-off-ignore-inhibit", "org.freedesktop.login1.halt",
    "org.freedesktop.login1.set-wall-message", "org.freedesktop.systemd1.manage-units",
    "org.freedesktop.NetworkManager.settings.modify.system",
]


@pytest.mark.integration
@pytest.mark.skipif(shutil.which("node") is None, reason="node is missing")
def test_the_polkit_rule_grants_power_off_and_reboot_to_the_service_user_only(
        tmp_path: Path) -> None:
    result = install("--dry-run", model="Raspberry Pi 4 Model B", tmp_path=tmp_path)
    rule = tmp_path / "rule.js"
    rule.write_text(written(result.stdout, "/etc/polkit-1/rules.d/50-sudoku-table-power.rules"),
                    encoding="utf-8")
    shim = tmp_path / "shim.js"
    shim.write_text(POLKIT_SHIM, encoding="utf-8")
    import json

    done = subprocess.run(["node", str(shim), str(rule), json.dumps(POLKIT_ACTIONS)],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    granted = {k for k, v in json.loads(done.stdout).items() if v == "yes"}
    assert granted == {f"sudoku-table {a}" for a in POLKIT_ACTIONS[:4]}


def test_the_unit_lets_the_service_reach_the_system_bus(unit: dict) -> None:
    """busctl talks to logind over the system bus: an AF_UNIX socket, allowed by the unit."""
    service = unit["Service"]
    assert "AF_UNIX" in one(unit, "Service", "RestrictAddressFamilies").split()
    assert "PrivateNetwork" not in service and "IPAddressDeny" not in service
    assert "InaccessiblePaths" not in service and "ProtectSystem" in service


# --- what grows on the card ------------------------------------------------------------------

def size_mb(value: str) -> int:
    number, unit = int(value[:-1]), value[-1]
    return number * {"K": 1, "M": 1024, "G": 1024 * 1024}[unit] // 1024


@pytest.mark.integration
def test_the_install_bounds_the_system_logs_and_caches(tmp_path: Path) -> None:
    """The SD card must not fill with the system's own logs: journald is capped and keeps room
    free, rsyslog's files (where installed) are rotated by size every hour, apt's cache is
    emptied and pip keeps none; all before the service starts."""
    result = install("--dry-run", model="Raspberry Pi 4 Model B Rev 1.4", tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    out, steps = result.stdout, commands(result.stdout)
    journald = parse_unit(written(out, "/etc/systemd/journald.conf.d/50-sudoku-table.conf"))
    limits = {key: values[0] for key, values in journald["Journal"].items()}
    assert size_mb(limits["SystemMaxUse"]) <= 100
    assert size_mb(limits["SystemMaxFileSize"]) <= size_mb(limits["SystemMaxUse"])
    assert size_mb(limits["SystemKeepFree"]) >= 100
    assert size_mb(limits["RuntimeMaxUse"]) <= 32
    assert "systemctl restart systemd-journald.service" in steps
    rsyslog = subprocess.run(["dpkg-query", "-W", "-f=${Status}", "rsyslog"],
                             capture_output=True, text=True).stdout.endswith("installed")
    if rsyslog:
        rotate = written(out, "/etc/logrotate.d/00-sudoku-table")
        assert "maxsize 20M" in rotate.splitlines()
        timer = parse_unit(written(out, "/etc/systemd/system/logrotate.timer.d/"
                                        "50-sudoku-table.conf"))
        assert timer["Timer"]["OnCalendar"] == ["", "hourly"]
    else:
        assert "rsyslog: not installed" in out
        assert "logrotate" not in "\n".join(steps)
    assert "apt-get clean" in steps
    assert all("--no-cache-dir" in s for s in steps if "/bin/pip install" in s)
    joined = "\n".join(steps)
    assert joined.index("systemd-journald") < joined.index("systemctl restart sudoku-table")


@pytest.mark.integration
def test_a_boot_config_line_that_claims_a_matrix_pin_is_refused(tmp_path: Path) -> None:
    """A 1-wire bus on GPIO4 (rank 1): the installer stops before writing anything, names the
    line and what to change."""
    pi4 = "Raspberry Pi 4 Model B Rev 1.5"
    result = install("--dry-run", model=pi4, tmp_path=tmp_path,
                     boot="dtparam=audio=on\ndtoverlay=w1-gpio\n")
    assert result.returncode == 1
    assert "line 2: 'dtoverlay=w1-gpio' claims GPIO4 (matrix row rank 1)" in result.stderr
    assert "change that line first" in result.stderr
    assert "SPI0 for the LEDs" not in result.stdout  # nothing planned after the refusal


@pytest.mark.integration
def test_the_speaker_s_overlay_is_written_when_the_config_asks_for_it(tmp_path: Path) -> None:
    """[speaker] i2s = true: the amplifier's overlay with no-sdmode (GPIO4 stays rank 1); the
    same overlay added by hand without no-sdmode is refused."""
    i2s_build = Path(__file__).resolve().parents[1] / "hardware" / "speaker-i2s.toml"
    pi5 = "Raspberry Pi 5 Model B Rev 1.0"
    plain = install("--dry-run", model=pi5, tmp_path=tmp_path)
    assert plain.returncode == 0, plain.stderr
    assert "max98357a" not in plain.stdout
    speaker = install("--dry-run", model=pi5, tmp_path=tmp_path, config=i2s_build)
    assert speaker.returncode == 0, speaker.stderr
    assert "|   dtoverlay=max98357a,no-sdmode" in speaker.stdout
    assert "no line claims a pin of the table" in speaker.stdout
    by_hand = install("--dry-run", model=pi5, tmp_path=tmp_path, config=i2s_build,
                      boot="dtoverlay=max98357a\n")
    assert by_hand.returncode == 1
    assert "'dtoverlay=max98357a' claims GPIO4 (matrix row rank 1)" in by_hand.stderr


@pytest.mark.integration
def test_a_zero_2_w_gets_its_own_core_clock_and_scan_interval(tmp_path: Path) -> None:
    result = install("--dry-run", model="Raspberry Pi Zero 2 W Rev 1.0", tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "core_freq=400" in result.stdout
    if not Path("/etc/sudoku-table/table.toml").exists():  # a new config is written
        assert "scan_interval_ms = 8.0 for this board (Zero 2 W)" in result.stdout


@pytest.mark.integration
def test_without_systemd_running_units_are_enabled_not_started(tmp_path: Path) -> None:
    """A chroot or an image being built: nothing is started or restarted, all is enabled."""
    result = install("--dry-run", model="Raspberry Pi 4 Model B Rev 1.5", tmp_path=tmp_path,
                     systemd_up=False)
    assert result.returncode == 0, result.stderr
    steps = commands(result.stdout)
    assert "systemctl enable sudoku-table.service" in steps
    assert "systemctl enable avahi-daemon.service" in steps
    assert not any(s.startswith(("systemctl restart", "systemctl start", "systemctl daemon-"))
                   or "--now" in s or s.startswith("udevadm") for s in steps)
    assert "systemd is not running here: sudoku-table.service is enabled" in result.stdout
