"""Words the players read are written in English in the code and translated by the panel's
catalogs (``src/sudoku_table/web/i18n.py``). ``N_`` marks such words where they are defined (message
codes, end reasons, score parts), so that ``pybabel extract`` finds them; it changes nothing
here."""

from __future__ import annotations


def N_(text: str) -> str:  # noqa: N802 (gettext's own name for it)
    """``text`` itself, marked for the catalogs (gettext_noop)."""
    return text


def Nn_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 (as N_)
    """A wording that changes with a number, in its English singular and plural, marked for
    the catalogs (ngettext_noop): each language keeps its own forms (German: one Punkt, two
    Punkte) and picks one by the number (``web.i18n.translate_n``)."""
    return singular, plural
