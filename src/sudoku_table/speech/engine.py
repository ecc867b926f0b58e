"""Text to speech: the engine behind a small interface, as the firmware's ports are.

``Engine.render(text, language, volume)`` returns a WAV file (bytes) of the text spoken in the
language. ``EspeakEngine`` runs Debian's ``espeak-ng`` (a formant synthesiser: German and
English voices, offline, a few per cent of a Zero 2 W core for speech in real time; see
docs/DESIGN.md for why this one). ``measure`` reads a WAV back: its duration and whether any of
it is more than silence, for the tests, the bench and ``sudoku-table speak``.
"""

from __future__ import annotations

import array
import io
import shutil
import subprocess
import sys
import wave
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from sudoku_table.rules.wording import N_

from .config import DEFAULT_VOICES, SpeechConfig

MAX_CHARS = 2000
"""The longest text spoken at once (a long announcement is a few hundred characters)."""

SILENCE = 300
"""A 16-bit sample whose size stays under this (1 % of full scale) is silence."""


class SpeechError(Exception):
    """The text cannot be spoken: the message says why."""


class Engine(Protocol):
    """Something that speaks text into WAV audio."""

    name: str

    def problem(self) -> str | None:
        """Why the engine cannot speak here (None: it can), in English words of the panel's
        catalog."""

    def render(self, text: str, language: str, volume: float = 0.5) -> bytes:
        """``text`` spoken in ``language`` as a WAV file; ``volume`` from 0.0 to 1.0.
        ``SpeechError`` when it cannot be."""


def check_text(text: str) -> str:
    """``text`` without control characters; ``SpeechError`` for none or too much."""
    if not isinstance(text, str):
        raise SpeechError("the text must be a string")
    clean = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    if not clean:
        raise SpeechError("there is no text to speak")
    if len(clean) > MAX_CHARS:
        raise SpeechError(f"the text is too long to speak at once: {len(clean)} characters, "
                          f"at most {MAX_CHARS}")
    return clean


def repack(raw: bytes) -> bytes:
    """A WAV with its sizes filled in: espeak-ng writes a streaming header to a pipe (sizes
    unknown), which some players and Python's ``wave`` read as a huge file."""
    if raw[:4] != b"RIFF" or raw[8:12] != b"WAVE":
        raise SpeechError("the engine wrote no WAV audio")
    at = 12
    fmt = None
    while at + 8 <= len(raw):
        chunk, size = raw[at:at + 4], int.from_bytes(raw[at + 4:at + 8], "little")
        body = at + 8
        if chunk == b"fmt ":
            fmt = raw[body:body + 16]
        elif chunk == b"data":
            if fmt is None:
                break
            channels = int.from_bytes(fmt[2:4], "little")
            rate = int.from_bytes(fmt[4:8], "little")
            width = int.from_bytes(fmt[14:16], "little") // 8
            data = raw[body:] if size >= len(raw) - body else raw[body:body + size]
            data = data[:len(data) - len(data) % (channels * width)]
            out = io.BytesIO()
            with wave.open(out, "wb") as w:
                w.setnchannels(channels)
                w.setsampwidth(width)
                w.setframerate(rate)
                w.writeframes(data)
            return out.getvalue()
        at = body + size + (size & 1)
    raise SpeechError("the engine wrote no audio data")


@dataclass(frozen=True)
class Audio:
    """What a WAV file holds: its length, and how loud its loudest sample is (0..1)."""

    seconds: float
    peak: float
    rate: int

    @property
    def silent(self) -> bool:
        return self.peak * 32768 < SILENCE


def measure(wav: bytes) -> Audio:
    """The duration and peak of a 16-bit WAV file (``SpeechError`` if it is none)."""
    try:
        with wave.open(io.BytesIO(wav), "rb") as w:
            frames, rate, width = w.getnframes(), w.getframerate(), w.getsampwidth()
            data = w.readframes(frames)
    except (wave.Error, EOFError) as e:
        raise SpeechError(f"not a WAV file: {e}") from None
    if width != 2 or not rate:
        raise SpeechError("not 16-bit audio")
    samples = array.array("h")
    samples.frombytes(data)
    if sys.byteorder == "big":
        samples.byteswap()
    peak = max((abs(s) for s in samples), default=0) / 32768
    return Audio(frames / rate, peak, rate)


class EspeakEngine:
    """Debian's espeak-ng, run once per text (about 30 ms to start; the text goes in on stdin
    as UTF-8, never as an argument)."""

    name = "espeak-ng"

    def __init__(self, command: str = "espeak-ng", rate: int = 150,
                 voices: Mapping[str, str] | None = None, timeout: float = 20.0) -> None:
        self.command = command
        self.rate = rate
        self.voices = dict(voices or DEFAULT_VOICES)
        self.timeout = timeout

    def problem(self) -> str | None:
        if shutil.which(self.command) is None:
            return N_("espeak-ng is not installed: sudo apt-get install espeak-ng (make run "
                      "installs it)")
        return None

    def voice(self, language: str) -> str:
        """The voice for ``language`` (``SpeechError`` for a language without one)."""
        voice = self.voices.get(language)
        if voice is None:
            raise SpeechError(f"no voice for the language {language!r} (known: "
                              f"{', '.join(sorted(self.voices))})")
        return voice

    def render(self, text: str, language: str, volume: float = 0.5) -> bytes:
        clean = check_text(text)
        voice = self.voice(language)
        if not 0.0 <= volume <= 1.0:
            raise SpeechError(f"the volume must be from 0 to 1, got {volume!r}")
        problem = self.problem()
        if problem:
            raise SpeechError(problem)
        try:
            done = subprocess.run(
                [self.command, "-v", voice, "-s", str(self.rate), "-a", str(round(volume * 200)),
                 "-b", "1", "--stdout"],
                input=clean.encode("utf-8"), capture_output=True, timeout=self.timeout,
                check=False)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise SpeechError(f"{self.command} failed: {e}") from None
        if done.returncode != 0:
            detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise SpeechError(f"{self.command} failed: {detail[-1] if detail else done.returncode}")
        return repack(done.stdout)

    def phonemes(self, text: str, language: str) -> str:
        """What espeak-ng will say, in its phoneme mnemonics (``-x``): for checking that a
        square or a number is said as meant."""
        done = subprocess.run([self.command, "-q", "-x", "-v", self.voice(language), "-b", "1"],
                              input=check_text(text).encode("utf-8"), capture_output=True,
                              timeout=self.timeout, check=False)
        return done.stdout.decode("utf-8", "replace")


class SilentEngine:
    """``[speech] engine = "none"``: the table never speaks."""

    name = "none"

    def problem(self) -> str | None:
        return N_("speech is switched off in the table's config file ([speech] engine)")

    def render(self, text: str, language: str, volume: float = 0.5) -> bytes:
        raise SpeechError(self.problem() or "")


def open_engine(config: SpeechConfig | None = None) -> Engine:
    """The engine the config names."""
    config = config or SpeechConfig()
    if config.engine == "none":
        return SilentEngine()
    return EspeakEngine(rate=config.rate, voices=config.voices)
