"""The table's one TOML config: defaults, the example file, and a clear error for every bad
value, whichever layer owns its section."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import pytest

from sudoku_table.config import Config, ConfigError, from_mapping, json_schema, load_config
from sudoku_table.firmware.config import HardwareConfig, LedConfig, SensorConfig

EXAMPLE = files("sudoku_table.firmware") / "table.example.toml"


def test_no_path_and_no_env_gives_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SUDOKU_TABLE_CONFIG", raising=False)
    config = load_config(None)
    assert config == Config()
    assert config.source is None
    assert len(config.hardware.sensors.rows) == len(config.hardware.sensors.columns) == 9


def test_the_example_file_loads_and_equals_the_defaults() -> None:
    config = load_config(EXAMPLE)
    assert config == Config()
    assert config.source == str(EXAMPLE)


def test_the_env_var_names_the_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text("[leds]\nbrightness = 0.25\n[panel]\npin = \"4711\"\n")
    monkeypatch.setenv("SUDOKU_TABLE_CONFIG", str(path))
    config = load_config(None)
    assert config.hardware.leds.brightness == 0.25
    assert config.panel.pin == "4711"
    assert config.hardware.sensors == SensorConfig()


def test_a_path_beats_the_env_var(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SUDOKU_TABLE_CONFIG", str(tmp_path / "missing.toml"))
    path = tmp_path / "table.toml"
    path.write_text("[board]\nsquare_mm = 35\n")
    assert load_config(path).board.square_mm == 35.0


def test_values_are_converted_to_the_dataclass_types(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        "[sensors]\nrows = [4, 5, 6, 7, 8, 9, 11, 12, 13]\n"
        "columns = [14, 15, 16, 17, 18, 19, 20, 21, 22]\nsettle_ms = 30\n"
        "[leds]\ndriver = \"neopixel\"\ndata_pin = 26\nbalance = [1, 0.8, 0.9]\ncount = 83\n"
        "first = 1\n"
        "start_corner = \"top_right\"\nserpentine = false\nrotation = 270\n"
        "pixel_order = \"RGB\"\n[buzzer]\npin = 27\n[panel]\nhosts = [\"table.local\"]\n")
    config = load_config(path)
    assert config.hardware.sensors.rows == (4, 5, 6, 7, 8, 9, 11, 12, 13)
    settle = config.hardware.sensors.settle_ms
    assert settle == 30.0 and isinstance(settle, float)
    assert config.hardware.leds == LedConfig(
        driver="neopixel", data_pin=26, balance=(1.0, 0.8, 0.9), count=83, first=1,
        start_corner="top_right", serpentine=False, rotation=270, pixel_order="RGB")
    assert config.panel.hosts == ("table.local",)


BAD = [
    ({"sensor": {}}, "unknown section [sensor]"),
    ({"leds": 3}, "leds must be a section"),
    ({"leds": {"brightnes": 0.5}}, "unknown key leds.brightnes"),
    ({"sensors": {"rows": [4, 5, 6]}}, "sensors.rows must list exactly 9 values, got 3"),
    ({"sensors": {"rows": "4,5"}}, "sensors.rows must be a list"),
    ({"sensors": {"rows": [4, 5, 6, 12, 13, 16, 17, 22, 28]}},
     "sensors.rows[8] must be a GPIO number from 0 to 27, got 28"),
    ({"sensors": {"rows": [4, 5, 6, 12, 13, 16, 17, 22, -1]}}, "sensors.rows[8] must be a GPIO"),
    ({"sensors": {"rows": [4, 5, 6, 12, 13, 16, 17, 22, 23.0]}},
     "sensors.rows[8] must be a whole number"),
    ({"sensors": {"rows": [4, 5, 6, 12, 13, 16, 17, 22, True]}},
     "sensors.rows[8] must be a whole number"),
    ({"sensors": {"columns": [2, 25, 26, 27, 18, 19, 20, 21, 7]}},
     "sensors.columns[0] is GPIO2, which has a fixed pull-up"),
    ({"sensors": {"columns": [4, 25, 26, 27, 18, 19, 20, 21, 7]}},
     "sensors.columns[0] uses GPIO4, which sensors.rows[0] already uses"),
    ({"sensors": {"rows": [4, 4, 6, 12, 13, 16, 17, 22, 23]}},
     "sensors.rows[1] uses GPIO4, which sensors.rows[0] already uses"),
    ({"leds": {"driver": "neopixel", "data_pin": 7}},
     "leds.data_pin is GPIO7, which sensors.columns[8] already"),
    ({"leds": {"data_pin": 12}}, "leds.data_pin is GPIO12, but the spi driver sends on SPI0's"),
    ({"leds": {"driver": "pwm"}}, "leds.driver must be one of"),
    ({"sensors": {"rows": [4, 5, 6, 12, 13, 16, 17, 22, 11]}},
     "sensors.rows[8] is GPIO11, which SPI0 owns when the LEDs use GPIO10"),
    ({"leds": {"data_pin": 40}}, "leds.data_pin must be a GPIO number from 0 to 27"),
    ({"sensors": {"settle_ms": 0}}, "sensors.settle_ms must be greater than 0"),
    ({"sensors": {"settle_ms": "20"}}, "sensors.settle_ms must be a number"),
    ({"sensors": {"scan_interval_ms": float("nan")}}, "sensors.scan_interval_ms must be a finite"),
    ({"sensors": {"scan_interval_ms": 30.0, "settle_ms": 20}},
     "sensors.settle_ms (20) must be at least"),
    ({"sensors": {"chatter_quiet_ms": 10.0}}, "sensors.chatter_quiet_ms (10) must be at least"),
    ({"sensors": {"chatter_changes": 1}}, "sensors.chatter_changes must be from 2 to 1000"),
    ({"sensors": {"line_changes": 10}}, "sensors.line_changes must be from 2 to 9"),
    ({"sensors": {"chatter_window_ms": -5}}, "sensors.chatter_window_ms must be greater than 0"),
    ({"leds": {"count": 80}}, "leds.count must be at least leds.first + 81 = 81, got 80"),
    ({"leds": {"first": 2, "count": 82}}, "leds.count must be at least leds.first + 81 = 83"),
    ({"leds": {"count": 5000}}, "leds.count must be from 0 to 1024"),
    ({"leds": {"count": 81.0}}, "leds.count must be a whole number"),
    ({"leds": {"pixel_order": "GRBW"}}, "leds.pixel_order must be one of"),
    ({"leds": {"start_corner": "middle"}}, "leds.start_corner must be one of"),
    ({"leds": {"serpentine": "yes"}}, "leds.serpentine must be true or false"),
    ({"leds": {"rotation": 45}}, "leds.rotation must be one of 0, 90, 180, 270, got 45"),
    ({"leds": {"rotation": 90.0}}, "leds.rotation must be a whole number"),
    ({"leds": {"driver": True}}, "leds.driver must be one of 'spi', 'neopixel', got True"),
    ({"speaker": {"device": "a b"}}, "speaker.device must be an ALSA device name"),
    ({"panel": {"language": "fr"}}, "panel.language must be one of 'en', 'de', got 'fr'"),
    ({"board": {"square_mm": "35"}}, "board.square_mm must be between 5 and 200"),
    ({"board": {"sqare_mm": 35}}, "unknown key board.sqare_mm"),
    ({"speech": {"voices": {"de": "a b"}}}, "speech.voices.de must be an espeak-ng voice"),
    ({"panel": {"hosts": ["ok", ""]}}, "panel.hosts[1] must be a host name, got ''"),
    ({"leds": {"balance": [1, 0.5, "x"]}}, "leds.balance[2] must be a number, got 'x'"),
    ({"leds": {"brightness": 1.5}}, "leds.brightness must be between 0 and 1, got 1.5"),
    ({"leds": {"brightness": True}}, "leds.brightness must be a number"),
    ({"leds": {"gamma": 0.5}}, "leds.gamma must be between 1 and 4"),
    ({"leds": {"balance": [1.0, 1.0]}}, "leds.balance must list exactly 3 values"),
    ({"leds": {"balance": [1.0, 1.2, 1.0]}}, "leds.balance[1] must be between 0 and 1"),
    ({"leds": {"max_current_ma": 0}}, "leds.max_current_ma must be greater than 0"),
    ({"leds": {"max_current_ma": 50}}, "leds.max_current_ma (50) must be above the current of"),
    ({"leds": {"channel_ma": -1}}, "leds.channel_ma must be greater than 0"),
    ({"leds": {"idle_ma": 200}}, "leds.idle_ma must be between 0 and 100"),
    ({"board": {"square_mm": 2}}, "board.square_mm must be between 5 and 200"),
    ({"panel": {"pin": 4711}}, "panel.pin must be a string of digits in quotes"),
    ({"panel": {"pin": "12a4"}}, "panel.pin must be empty or 4 to 12 digits"),
    ({"panel": {"pin": "123"}}, "panel.pin must be empty or 4 to 12 digits"),
    ({"panel": {"hosts": "table.local"}}, "panel.hosts must be a list"),
    ({"panel": {"hosts": ["a b"]}}, "panel.hosts[0] must be a host name"),
    ({"simulator": {"bounce_ms": 500}}, "simulator.bounce_ms must be between 0 and 100"),
    ({"simulator": {"seed": 1.5}}, "simulator.seed must be a whole number"),
    ({"simulator": {"seed": -1}}, "simulator.seed must be from 0 to 2**63 - 1"),
    ({"sensors": {"fast_scan_ms": 0}}, "sensors.fast_scan_ms must be greater than 0"),
    ({"sensors": {"fast_scan_ms": 5.0}}, "sensors.fast_scan_ms (5) must be at most "
     "sensors.scan_interval_ms (4)"),
    ({"sensors": {"feedback_ms": "2"}}, "sensors.feedback_ms must be a number"),
    ({"sensors": {"feedback_ms": 200.0}}, "sensors.feedback_ms (200) must be at most "
     "sensors.settle_ms (150)"),
    ({"sensors": {"bounce_ms": -1}}, "sensors.bounce_ms must be between 0 and 100"),
    ({"sensors": {"bounce_ms": 30, "settle_ms": 20}}, "sensors.bounce_ms (30) must be at most "
     "sensors.settle_ms (20)"),
]


@pytest.mark.parametrize(("data", "message"), BAD, ids=[m for _, m in BAD])
def test_every_bad_value_is_a_config_error_naming_its_key(data: dict[str, object],
                                                          message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        from_mapping(data)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("this is = = not toml")
    with pytest.raises(ConfigError, match="broken.toml is not valid TOML"):
        load_config(broken)
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe[leds]")
    with pytest.raises(ConfigError, match="binary.toml"):
        load_config(binary)
    bad = tmp_path / "bad.toml"
    bad.write_text("[leds]\nbrightness = 2\n")
    with pytest.raises(ConfigError, match=r"bad.toml: leds.brightness must be between"):
        load_config(bad)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path)  # a directory


def test_the_config_is_frozen() -> None:
    config = HardwareConfig()
    with pytest.raises(AttributeError):
        config.hardware.leds.brightness = 1.0  # type: ignore[misc]


def test_the_example_file_sets_every_key() -> None:
    import tomllib

    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    sections = json_schema()["properties"]
    assert set(data) == set(sections)
    definitions = json_schema()["$defs"]
    for section, entry in sections.items():
        keys = definitions[entry["$ref"].rsplit("/", 1)[1]]["properties"]
        assert set(data[section]) == set(keys), section


@pytest.mark.integration
@pytest.mark.parametrize("text", [
    "[panel]\nx = " + "{a=" * 400 + "1" + "}" * 400 + "\n",  # tomllib recurses: RecursionError
    "a = " + "[" * 400 + "1" + "]" * 400 + "\n",
    "[panel]\nx = " + "[" * 12 + "1" + "]" * 12 + "\n",
])
def test_a_config_nested_too_deep_is_one_line(tmp_path: Path, text: str) -> None:
    """The attack: a config nested a few hundred levels deep printed a 3,000-line traceback."""
    import subprocess
    import sys

    deep = tmp_path / "deep.toml"
    deep.write_text(text)
    with pytest.raises(ConfigError, match="deep.toml is nested"):
        load_config(deep)
    done = subprocess.run([sys.executable, "-m", "sudoku_table.cli", "serve", "--config", str(deep),
                           "--port", "0"], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert len(lines) == 1 and "deep.toml is nested" in lines[0], lines[:5]


def test_the_published_json_schema_is_current() -> None:
    """docs/config.schema.json is what the sections declare (regenerate it with
    ``python -m sudoku_table.config --schema > docs/config.schema.json``)."""
    import json

    published = Path(__file__).resolve().parents[1] / "docs" / "config.schema.json"
    assert json.loads(published.read_text(encoding="utf-8")) == json_schema()
    leds = json_schema()["$defs"]["LedConfig"]["properties"]
    assert leds["brightness"]["maximum"] == 1 and leds["rotation"]["enum"] == [0, 90, 180, 270]
    assert json_schema()["additionalProperties"] is False


@pytest.mark.parametrize(("square_mm", "valid"), [(4, False), (4.9, False), (5, True),
                                                   (40.0, True), (200, True), (201, False)])
def test_the_json_schema_bounds_the_board_as_the_table_does(square_mm: float,
                                                            valid: bool) -> None:
    """An editor checking the file against docs/config.schema.json refuses the pitches the
    table refuses at its start (5-200 mm), and takes those it takes."""
    import jsonschema_rs

    validator = jsonschema_rs.validator_for(json_schema())
    document = {"board": {"square_mm": square_mm}}
    assert validator.is_valid(document) == valid
    if valid:
        assert from_mapping(document).board.square_mm == square_mm
    else:
        with pytest.raises(ConfigError, match="board.square_mm must be between 5 and 200"):
            from_mapping(document)


def test_the_json_schema_accepts_the_example_and_refuses_a_typo() -> None:
    import tomllib

    import jsonschema_rs

    validator = jsonschema_rs.validator_for(json_schema())
    assert validator.is_valid(tomllib.loads(EXAMPLE.read_text(encoding="utf-8")))
    assert not validator.is_valid({"leds": {"brightnes": 0.5}})
    assert not validator.is_valid({"sensors": {"rows": [4, 5, 6]}})
