"""The ``[speech]`` section of the table's config: the engine and its voices (the speaker it
speaks through is the firmware's ``[speaker]``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import Field, Strict, field_validator

from sudoku_table.sections import Says, Section

ENGINES = ("espeak-ng", "none")

DEFAULT_VOICES: Mapping[str, str] = {"de": "de", "en": "en-gb"}
"""espeak-ng's voice for each language of the panel."""

Voice = Annotated[str, Strict(), Field(min_length=1, max_length=40, pattern=r"^[\w+/-]+$"),
                  Says('must be an espeak-ng voice such as "de" or "en-us"', always=True)]
"""An espeak-ng voice name (``de``, ``en-us``, ``mb/mb-de4``)."""


class SpeechConfig(Section):
    """The table's voice."""

    engine: Literal["espeak-ng", "none"] = "espeak-ng"
    """``espeak-ng`` (Debian's package) or ``none`` (the table never speaks)."""
    rate: Annotated[int, Strict(), Field(ge=80, le=300),
                    Says("must be words per minute from 80 to 300", always=True)] = 150
    """Words per minute (80 to 300)."""
    voices: Annotated[dict[str, Voice], Says(
        'must map languages to espeak-ng voices, like { de = "de", en = "en-us" }',
        always=True)] = Field(default_factory=lambda: dict(DEFAULT_VOICES))
    """espeak-ng's voice for each language (``{ de = "de", en = "en-us" }``); a language
    not named keeps its default."""

    @field_validator("voices", mode="after")
    @classmethod
    def _with_defaults(cls, voices: dict[str, str]) -> dict[str, str]:
        return {**DEFAULT_VOICES, **voices}
