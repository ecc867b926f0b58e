"""The build's drawings and printable parts: ``sudoku-table parts --out DIR``.

A maker runs this on a PC, never on the table: it draws, from the same square pitch the overlays
use (``[board] square_mm``) and the layer stack of ``[build]``, the cross-section of one square,
the carrier's 1:1 drilling template, the spacer grid to laser-cut or to 3D-print, a one-square
test jig, the wiring layout of the matrix and the LEDs, and the tactile overlays and number
tiles for playing by touch (:mod:`.tactile`, braille from liblouis through :mod:`.braille`).

The package is split so the table's own install stays small: :mod:`.config` (the ``[build]``
section) and :mod:`.stack` and :mod:`.margins` (the figures the guide quotes) need nothing but
the standard library and pydantic; the drawing modules import the ``parts`` extra's libraries
(ezdxf, trimesh, manifold3d, matplotlib) when they run.
"""
