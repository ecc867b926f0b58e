"""The journal: every accepted action on disk before the LEDs confirm it, and proof of it.

What it promises and how (a chain, a mark, evidence kept, a reserve for a full card, failures
that say why) is told once, in docs/DESIGN.md, "The journal" and "When the disk fills or
fails". The parts, each owning its own state:

* ``store.Journal``: one open file, its checks at opening, and the API the table calls;
* ``writer.Writer``: the connection and each transaction (on disk or refused whole), the mark
  after each commit, checkpoints; ``reserve.Reserve``: the space kept for a full card;
* ``chain``: digests, seals and their checks; ``mark``: the mark against going back in time;
  ``evidence``: the copies kept of a damaged file;
* ``games``, ``imports``, ``reading``: the writes of games played here, imports, reads;
* ``schema``, ``opening``, ``disk``: the tables and their words, opening the file, failure
  causes and side files written whole.
"""

from .chain import entry_digest, game_root, record_seal
from .disk import (
    FULL,
    IO,
    OTHER,
    READ_ONLY,
    JournalError,
    cause_of,
    set_aside,
    transient,
    write_atomically,
)
from .imports import stored_size
from .reading import StoredGame
from .reserve import RESERVE_BYTES
from .schema import (
    ABANDONED,
    ACTION,
    DAMAGED,
    DRAW,
    FINISHED,
    HINTS,
    IMPORTING,
    RUNNING,
    SCHEMA,
    SCHEMA_VERSION,
    UNDO,
    UNREADABLE,
    WAL_LIMIT,
    now_iso,
)
from .store import Journal
from .writer import CHECKPOINT_BYTES

__all__ = [
    "ABANDONED", "ACTION", "CHECKPOINT_BYTES", "DAMAGED", "DRAW", "FINISHED", "FULL", "HINTS",
    "IMPORTING", "IO", "OTHER", "READ_ONLY", "RESERVE_BYTES", "RUNNING", "SCHEMA",
    "SCHEMA_VERSION", "UNDO", "UNREADABLE", "WAL_LIMIT", "Journal", "JournalError", "StoredGame",
    "cause_of", "entry_digest", "game_root",
    "now_iso", "record_seal", "set_aside", "stored_size", "transient", "write_atomically",
]
