"""Words the players read are written in English in the code and translated by the panel's
catalogs (``src/sudoku_table/web/i18n.py``). ``N_`` marks such words where they are defined (message
codes, end reasons, score parts), so that ``pybabel extract`` finds them; it changes nothing
here."""

from __future__ import annotations


def N_(text: str) -> str:  # noqa: N802 (gettext's own name for it)
    """``text`` itself, marked for the catalogs (gettext_noop)."""
    return text
