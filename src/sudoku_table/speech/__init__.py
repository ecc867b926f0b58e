"""The table's own voice: a speech engine behind a small interface, and a speaker that says the
table's announcements (``sudoku_table.table.announce``) through it without holding anything up.

``engine`` renders text to WAV audio (``EspeakEngine``: Debian's espeak-ng, offline, real time
on a Zero 2 W), ``audio`` plays it (``AplayPlayer`` on the Pi's sound device) or keeps it
(``RecordingPlayer``, the simulated table), ``speaker`` queues announcements in a thread of its
own, and ``config`` reads the ``[speech]`` section. What is said, in which words, comes from
outside (the table's announcements, worded by the panel's catalog).
"""

from .config import SpeechConfig
from .engine import Engine, EspeakEngine, SpeechError, open_engine
from .speaker import Speaker, SpeechSettings

__all__ = ["Engine", "EspeakEngine", "Speaker", "SpeechConfig", "SpeechError", "SpeechSettings",
           "open_engine"]
