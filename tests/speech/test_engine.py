"""The table's engine (Debian's espeak-ng) renders what the table says, in both languages.

Checked by listening the way a test can: every phrase of a whole game of each family becomes
audio of a plausible length that is not silence, and espeak-ng's own phoneme output shows that
squares and numbers are said as meant (German "c4" is "Ze vier", English "see four")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sudoku_table.speech.config import SpeechConfig
from sudoku_table.speech.engine import (
    EspeakEngine,
    SpeechError,
    check_text,
    measure,
    open_engine,
    repack,
)
from sudoku_table.table import announce
from sudoku_table.web.speech import CatalogVoice

from .games import FAMILIES, play_to_the_end

ENGINE = EspeakEngine()
SPEAK = [str(Path(sys.executable).with_name("sudoku-table")), "speak"]


@pytest.mark.integration
@pytest.mark.parametrize(("language", "text"), [
    ("de", "Anna: 7 auf c4, Zeile 3 komplett, plus 3."),
    ("en", "Anna: 7 on c4, rank 3 complete, plus 3."),
])
def test_a_sentence_becomes_audio_of_its_length(language: str, text: str) -> None:
    audio = measure(ENGINE.render(text, language))
    assert not audio.silent
    assert 2.0 < audio.seconds < 6.0, audio  # about 14 sounds a second at 150 words a minute
    quiet = measure(ENGINE.render(text, language, volume=0.1))
    assert quiet.peak < audio.peak


@pytest.mark.parametrize(("language", "text", "said"), [
    ("de", "c4", "ts'e: f'i:r"),  # the letter C is "Ze" in German
    ("de", "a1", "'A: _'aIns"),
    ("de", "h8", "h'A: _'axt"),
    ("de", "7 auf i9", "z'i:b@n"),
    ("de", "plus 3", "pl'Us dr'aI"),
    ("en", "c4", "s'i: f'o@"),
    ("en", "a1", "eI w'0n"),  # joined: "a 1" would be the article
    ("en", "h8", "'eItS 'eIt"),
    ("en", "minus 2", "m'aIn@s t'u:"),
])
@pytest.mark.integration
def test_squares_and_numbers_are_said_as_meant(language: str, text: str, said: str) -> None:
    assert said in ENGINE.phonemes(text, language)


@pytest.mark.integration
def test_ranges_and_lists_of_squares_are_said_without_minus() -> None:
    text = announce.sentence(f"{CatalogVoice('en').area('line d8-f8')} complete")
    assert "m'aIn@s" not in ENGINE.phonemes(text, "en")
    assert "m'i:nUs" not in ENGINE.phonemes(CatalogVoice("de").area("line d8-f8"), "de")


def test_what_cannot_be_spoken_is_refused_with_a_reason() -> None:
    with pytest.raises(SpeechError, match="no text"):
        ENGINE.render(" \n\t", "en")
    with pytest.raises(SpeechError, match="too long"):
        ENGINE.render("a" * 3000, "en")
    with pytest.raises(SpeechError, match="no voice for the language 'fr'"):
        ENGINE.render("bonjour", "fr")
    with pytest.raises(SpeechError, match="volume"):
        ENGINE.render("hello", "en", volume=2.0)
    missing = EspeakEngine(command="no-such-espeak-here")
    assert missing.problem() is not None
    with pytest.raises(SpeechError, match="not installed"):
        missing.render("hello", "en")
    assert open_engine(SpeechConfig(engine="none")).problem() is not None
    assert check_text("Anna:\x00 7\n on c4") == "Anna: 7 on c4"


@pytest.mark.integration
def test_a_streamed_wav_header_is_repacked_with_its_sizes() -> None:
    raw = subprocess.run(["espeak-ng", "--stdout", "-v", "en", "test"], capture_output=True,
                         check=True).stdout
    assert int.from_bytes(raw[40:44], "little") > len(raw)  # espeak-ng's streaming header
    audio = measure(repack(raw))
    assert 0.2 < audio.seconds < 2
    with pytest.raises(SpeechError):
        repack(b"not audio")


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.parametrize("variant", FAMILIES)
def test_every_phrase_of_a_whole_game_is_rendered_in_both_languages(variant: str) -> None:
    said, table = play_to_the_end(variant, seed=11)
    table.close()
    count = 0
    for language in ("de", "en"):
        voice = CatalogVoice(language)
        texts = {text for a in said for text in announce.words(
            a["parts"], voice, announce.seat_names(a["seats"], voice.text))}
        for text in sorted(texts):
            audio = measure(ENGINE.render(text, language))
            assert not audio.silent, text
            letters = sum(ch.isalnum() for ch in text)
            assert 0.03 * letters < audio.seconds < 0.25 * letters + 1.0, (text, audio)
            count += 1
    assert count > 20  # its speed on this machine and on a Pi: bench/bench_speech.py


@pytest.mark.integration
def test_the_speak_command_writes_a_wav_and_exits_0(tmp_path: Path) -> None:
    out = tmp_path / "said.wav"
    done = subprocess.run([*SPEAK, "--language", "de", "--out", str(out), "Ben ist dran."],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    audio = measure(out.read_bytes())
    assert 0.5 < audio.seconds < 3 and not audio.silent
    assert "s of speech" in done.stderr


@pytest.mark.integration
def test_the_speak_command_refuses_clearly(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from sudoku_table.cli import main

    def speak(*args: str) -> tuple[int, str]:
        try:
            code = main(["speak", *args])
        except SystemExit as e:  # argparse
            code = int(e.code or 0)
        return code, capsys.readouterr().err

    out = tmp_path / "said.wav"
    assert speak("--language", "en", "--out", str(out), "   ") == (
        1, "sudoku-table speak: there is no text to speak\n")
    code, err = speak("--language", "en", "--out", str(tmp_path / "no" / "x.wav"), "hello")
    assert code == 1 and "cannot write" in err
    code, err = speak("--language", "fr", "--out", str(out), "bonjour")
    assert code == 2 and "invalid choice" in err
    config = tmp_path / "table.toml"
    config.write_text('[speech]\nengine = "none"\n')
    code, err = speak("--language", "en", "--out", str(out), "--config", str(config), "hello")
    assert code == 2 and "switched off" in err
    config.write_text('[speech]\nrate = 5000\n')
    code, err = speak("--language", "en", "--out", str(out), "--config", str(config), "hello")
    assert code == 2 and "speech.rate" in err
    monkeypatch.setenv("PATH", "/nonexistent")
    code, err = speak("--language", "en", "--out", str(out), "hello")
    assert code == 2 and "espeak-ng is not installed" in err
    assert not out.exists()
