"""The ``[speech]`` section of the table's config: the engine and its voices (the speaker it
speaks through is the firmware's ``[speaker]``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

ENGINES = ("espeak-ng", "none")

DEFAULT_VOICES: Mapping[str, str] = {"de": "de", "en": "en-gb"}
"""espeak-ng's voice for each language of the panel."""


class ConfigError(ValueError):
    """A bad value in the ``[speech]`` section; the message names the key."""


@dataclass(frozen=True, slots=True)
class SpeechConfig:
    """The table's voice."""

    engine: str = "espeak-ng"
    """``espeak-ng`` (Debian's package) or ``none`` (the table never speaks)."""
    rate: int = 150
    """Words per minute (80 to 300)."""
    voices: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_VOICES))
    """espeak-ng's voice for each language (``{ de = "de", en = "en-us" }``)."""

    @classmethod
    def from_section(cls, raw: Mapping[str, Any]) -> SpeechConfig:
        """The checked ``[speech]`` section (``ConfigError`` names the bad key)."""
        out: dict[str, Any] = {}
        if "engine" in raw:
            if raw["engine"] not in ENGINES:
                raise ConfigError(f"speech.engine must be one of {', '.join(map(repr, ENGINES))}"
                                  f", got {raw['engine']!r}")
            out["engine"] = raw["engine"]
        if "rate" in raw:
            rate = raw["rate"]
            if isinstance(rate, bool) or not isinstance(rate, int) or not 80 <= rate <= 300:
                raise ConfigError(f"speech.rate must be words per minute from 80 to 300, "
                                  f"got {rate!r}")
            out["rate"] = rate
        if "voices" in raw:
            voices = raw["voices"]
            if not isinstance(voices, Mapping) or not all(
                    isinstance(k, str) and isinstance(v, str) and v and len(v) <= 40
                    and all(ch.isalnum() or ch in "-_+/" for ch in v)
                    for k, v in voices.items()):
                raise ConfigError(f'speech.voices must map languages to espeak-ng voices, '
                                  f'like {{ de = "de", en = "en-us" }}, got {voices!r}')
            out["voices"] = {**DEFAULT_VOICES, **voices}
        return cls(**out)

    @classmethod
    def keys(cls) -> list[str]:
        return [f.name for f in fields(cls)]
