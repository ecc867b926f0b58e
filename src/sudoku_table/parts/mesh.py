"""Closed meshes for 3D printing, built by constructive solid geometry and written as STL.

manifold3d does the booleans (its results are always closed, manifold solids) and trimesh
writes and checks the files. The helpers here are the few shapes the table's printed parts
are made of (boxes and cylinders, extruded outlines, unions and differences), kept apart from
any one part so spacer tiles, the test jig and later tactile overlays and number tiles share
them. Both libraries are imported on first use: they are the ``parts`` extra, never on the
table itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Solid = Any
"""A ``manifold3d.Manifold``."""


def _manifold() -> Any:
    import manifold3d

    return manifold3d


def box(x0: float, y0: float, z0: float, x1: float, y1: float, z1: float) -> Solid:
    """An axis-aligned box between two corners (mm)."""
    m = _manifold()
    return m.Manifold.cube([x1 - x0, y1 - y0, z1 - z0]).translate([x0, y0, z0])


def cylinder(x: float, y: float, z0: float, z1: float, diameter: float,
             segments: int = 48) -> Solid:
    """An upright cylinder centred on (x, y), from ``z0`` up to ``z1``."""
    m = _manifold()
    return m.Manifold.cylinder(z1 - z0, diameter / 2, diameter / 2, segments).translate(
        [x, y, z0])


def extrude(outline: Sequence[tuple[float, float]], z0: float, z1: float,
            holes: Iterable[Sequence[tuple[float, float]]] = ()) -> Solid:
    """A flat outline (counter-clockwise, holes clockwise or any: even-odd fill) extruded
    from ``z0`` to ``z1``."""
    m = _manifold()
    section = m.CrossSection([list(outline), *(list(h) for h in holes)],
                             m.FillRule.EvenOdd)
    return m.Manifold.extrude(section, z1 - z0).translate([0, 0, z0])


def flat_union(rectangles: Iterable[tuple[float, float, float, float]],
               z0: float, z1: float) -> Solid:
    """Axis-aligned rectangles (x0, y0, x1, y1) joined in the plane, then extruded from ``z0``
    to ``z1``: many touching boxes as one clean solid, faster and without the slivers that
    boxes joined in space leave where their faces meet."""
    m = _manifold()
    sections = [m.CrossSection.square([x1 - x0, y1 - y0]).translate([x0, y0])
                for x0, y0, x1, y1 in rectangles]
    joined = m.CrossSection.batch_boolean(sections, m.OpType.Add)
    return m.Manifold.extrude(joined, z1 - z0).translate([0, 0, z0])


def dome(x: float, y: float, base: float, diameter: float, height: float,
         segments: int = 16) -> Solid:
    """A rounded bump (the top half of an ellipsoid) standing ``height`` on a surface at
    ``base``, sunk a little into it so that the two join."""
    m = _manifold()
    r = diameter / 2
    ball = m.Manifold.sphere(r, segments).scale([1, 1, height / r]).translate([x, y, base])
    return ball ^ box(x - r, y - r, base - 0.05, x + r, y + r, base + height + 1)


def union(solids: Iterable[Solid]) -> Solid:
    m = _manifold()
    return m.Manifold.batch_boolean(list(solids), m.OpType.Add)


def subtract(solid: Solid, cuts: Iterable[Solid]) -> Solid:
    cuts = list(cuts)
    if not cuts:
        return solid
    return solid - union(cuts)


def to_trimesh(solid: Solid) -> Any:
    """The solid as a ``trimesh.Trimesh`` (for checks and export)."""
    import trimesh

    mesh = solid.to_mesh()
    return trimesh.Trimesh(vertices=mesh.vert_properties[:, :3], faces=mesh.tri_verts,
                           process=True)


def closed(solid: Solid) -> Any:
    """The solid as a ``trimesh.Trimesh``; ``ValueError`` if it is not a closed solid."""
    mesh = to_trimesh(solid)
    if not (mesh.is_watertight and mesh.is_volume):
        raise ValueError("the mesh is not a closed solid")
    return mesh


def stl(solid: Solid) -> bytes:
    """A binary STL of the solid; ``ValueError`` if it is not a closed solid (never written)."""
    data = closed(solid).export(file_type="stl")
    assert isinstance(data, bytes)
    return data


def three_mf(solids: Mapping[str, Solid]) -> bytes:
    """A 3MF file holding each solid as an object of its own, by name, where it stands (a
    slicer arranges them on its bed); ``ValueError`` if one is not a closed solid."""
    import trimesh

    scene = trimesh.Scene()
    for name, solid in solids.items():
        scene.add_geometry(closed(solid), node_name=name, geom_name=name)
    data = scene.export(file_type="3mf")
    assert isinstance(data, bytes)
    return data
