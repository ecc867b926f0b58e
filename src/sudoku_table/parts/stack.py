"""The layer stack of one square and whether a piece's magnet closes its reed switch.

Heights are in millimetres upwards from the carrier's underside. The field figures the guide
quotes come from here (a test compares them), so they follow the config.

The field of the disc magnet on its own axis is the closed form for a uniformly magnetised
cylinder (remanence ``Br``, radius ``R``, thickness ``D``, distance ``z`` from its face)::

    B(z) = Br / 2 * ((D + z) / sqrt(R^2 + (D + z)^2) - z / sqrt(R^2 + z^2))

as given, for example, by Dexter Magnetic Technologies' "field on the axis of a cylinder
magnet" calculator and by e-magnetica.pl's cylindrical-magnet calculator (S. Zurek). The reed
switch stands upright on that axis, so what closes it is the field along its glass; its mean
over the glass from ``z1`` to ``z2`` is the integral of the same formula::

    mean B = Br / 2 * (S(z2) - S(z1)) / (z2 - z1),  S(z) = sqrt(R^2 + (D + z)^2) - sqrt(R^2 + z^2)

Off the axis (a piece standing near the edge of its square, or on the neighbouring square) a
point dipole of moment ``Br * V / mu0`` gives the mean axial field along a vertical line at
lateral distance ``rho`` in closed form too (``z`` from the magnet's centre)::

    mean Bz = Br * V / (4 pi) * (z1 / r1^3 - z2 / r2^3) / (z2 - z1),  r = sqrt(rho^2 + z^2)

A reed switch's sensitivity is rated in ampere-turns (AT) of its maker's test coil. A coil of
``N * I`` ampere-turns and length ``L`` makes ``B = mu0 * N * I / L`` inside (Dexter Magnetic
Technologies, "FAQ - Magnets for sensors"); taking the coil no longer than the glass gives the
largest field an ``AT`` rating can stand for, so the estimate errs on the safe side. Littelfuse's
application note "Ampere*turn versus mT and Gauss" warns that such a conversion holds only to
about a factor of two: the figures below are for choosing parts, and one square is tested in
the jig before the rest is bought.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .config import BuildConfig

MU0 = 4e-7 * math.pi
"""The magnetic constant in T*m/A."""
SAFETY = 2.0
"""How far the weakest field on the square must exceed the switch's need (and the need of the
most sensitive switch exceed a neighbour's field): the factor of two the conversion from
ampere-turns to a field is good for."""


@dataclass(frozen=True)
class Layer:
    """One layer of the stack: its name and its bottom and top in mm above the carrier's
    underside."""

    name: str
    bottom: float
    top: float

    @property
    def thickness(self) -> float:
        return self.top - self.bottom


@dataclass(frozen=True)
class Magnet:
    """An axially magnetised disc magnet."""

    diameter: float
    thickness: float
    br: float
    """Remanence in tesla."""

    @property
    def volume_mm3(self) -> float:
        return math.pi * (self.diameter / 2) ** 2 * self.thickness

    @property
    def label(self) -> str:
        return f"{self.diameter:g} x {self.thickness:g} mm, Br {self.br:g} T"


def layers(build: BuildConfig) -> list[Layer]:
    """The stack from the carrier up to the overlay (or the cover), optional layers left out."""
    out: list[Layer] = []
    z = 0.0
    for name, thickness in (("carrier", build.carrier_mm), ("spacer grid", build.spacer_mm),
                            ("top sheet", build.top_mm), ("overlay", build.overlay_mm),
                            ("clear cover", build.cover_mm)):
        if thickness > 0:
            out.append(Layer(name, z, z + thickness))
            z += thickness
    return out


def surface(build: BuildConfig) -> float:
    """The height pieces stand on."""
    return layers(build)[-1].top


def magnet_of(build: BuildConfig) -> Magnet:
    return Magnet(build.magnet_diameter_mm, build.magnet_thickness_mm, build.magnet_br_t)


def magnet_bottom(build: BuildConfig) -> float:
    """The height of the magnet's lower face in a piece standing on the board."""
    return surface(build) + build.piece_floor_mm


def reed_span(build: BuildConfig) -> tuple[float, float]:
    """The heights of the bottom and the top of the upright reed switch's glass."""
    top = build.carrier_mm + build.spacer_mm - build.reed_gap_mm
    return top - build.reed_length_mm, top


# --- the field ------------------------------------------------------------------------------


def axial_field_t(z_mm: float, magnet: Magnet) -> float:
    """The field on the magnet's axis ``z_mm`` from its face, in tesla (the closed form)."""
    r, d, z = magnet.diameter / 2, magnet.thickness, z_mm
    return magnet.br / 2 * ((d + z) / math.hypot(r, d + z) - z / math.hypot(r, z))


def mean_axial_field_t(z1_mm: float, z2_mm: float, magnet: Magnet) -> float:
    """The mean of :func:`axial_field_t` from ``z1_mm`` to ``z2_mm`` (its exact integral)."""
    r, d = magnet.diameter / 2, magnet.thickness

    def s(z: float) -> float:
        return math.hypot(r, d + z) - math.hypot(r, z)

    return magnet.br / 2 * (s(z2_mm) - s(z1_mm)) / (z2_mm - z1_mm)


def dipole_mean_axial_field_t(rho_mm: float, z1_mm: float, z2_mm: float,
                              magnet: Magnet) -> float:
    """The mean axial field along a vertical line ``rho_mm`` off the axis, from ``z1_mm`` to
    ``z2_mm`` below the magnet's centre, of a point dipole of the magnet's moment (signed:
    negative where the field points the other way)."""
    k = magnet.br * magnet.volume_mm3 / (4 * math.pi)  # T*mm^3

    def term(z: float) -> float:
        return z / math.hypot(rho_mm, z) ** 3

    return k * (term(z1_mm) - term(z2_mm)) / (z2_mm - z1_mm)


def needed_field_t(ampere_turns: float, length_mm: float) -> float:
    """The field a switch rated ``ampere_turns`` needs, taking its test coil as long as its
    glass (the largest such field)."""
    return MU0 * ampere_turns / (length_mm / 1000)


@dataclass(frozen=True)
class Estimate:
    """How a piece's magnet meets one square's upright reed switch."""

    distance_mm: float
    """From the magnet's face to the top of the reed's glass."""
    contacts_mm: float
    """From the magnet's face to the reed's contacts (the middle of the glass)."""
    contacts_field_mt: float
    """The field on the magnet's axis at the contacts (the closed form)."""
    centred_mt: float
    """The mean field along the glass, the piece centred on the square (the closed form)."""
    off_centre_mm: float
    """How far a piece's magnet can stand off the square's centre while on the square."""
    off_centre_mt: float
    """The mean field along the glass with the piece that far off (the dipole, scaled to the
    closed form on the axis)."""
    neighbour_mm: float
    """The nearest a piece on the neighbouring square comes to the reed's axis."""
    neighbour_mt: float
    """The mean field along the glass from such a piece (the dipole, scaled likewise; negative:
    the field runs the other way there)."""
    needed_mt: float
    """What the least sensitive switch bought needs (its highest pull-in)."""
    sensitive_mt: float
    """What the most sensitive switch bought needs (its lowest pull-in)."""

    @property
    def margin(self) -> float:
        """The weakest field on the square over what the least sensitive switch needs."""
        return self.off_centre_mt / self.needed_mt

    @property
    def neighbour_margin(self) -> float:
        """What the most sensitive switch needs over a neighbour's field."""
        return self.sensitive_mt / abs(self.neighbour_mt)

    @property
    def closes(self) -> bool:
        return self.margin >= SAFETY and self.neighbour_margin >= SAFETY


def estimate(build: BuildConfig, pitch: float) -> Estimate:
    """The field estimate for ``build`` at square pitch ``pitch``."""
    magnet = magnet_of(build)
    bottom, top = reed_span(build)
    face = magnet_bottom(build)
    z1, z2 = face - top, face - bottom
    centre = magnet.thickness / 2  # dipole distances count from the magnet's centre
    off = max(0.0, (pitch - build.piece_mm) / 2)
    near = (pitch + build.piece_mm) / 2
    exact = mean_axial_field_t(z1, z2, magnet)
    # Close to the magnet the dipole overstates the field: scale it by how much it does so
    # on the axis, where the closed form is exact.
    scale = exact / dipole_mean_axial_field_t(0.0, z1 + centre, z2 + centre, magnet)

    def dipole(rho: float) -> float:
        return dipole_mean_axial_field_t(rho, z1 + centre, z2 + centre, magnet) * scale * 1000

    return Estimate(
        distance_mm=z1, contacts_mm=(z1 + z2) / 2,
        contacts_field_mt=axial_field_t((z1 + z2) / 2, magnet) * 1000,
        centred_mt=exact * 1000,
        off_centre_mm=off, off_centre_mt=dipole(off),
        neighbour_mm=near, neighbour_mt=dipole(near),
        needed_mt=needed_field_t(build.reed_pull_in_at, build.reed_length_mm) * 1000,
        sensitive_mt=needed_field_t(build.reed_pull_in_min_at, build.reed_length_mm) * 1000,
    )


def allowance_mm(build: BuildConfig, pitch: float) -> float:
    """How much higher than the guide's pieces a magnet may lie (a thicker overlay, a floor
    under it) before the stack no longer closes with the margin :data:`SAFETY` asks for, to a
    hundredth of a millimetre; 0 when even this stack does not."""
    def closes(rise: float) -> bool:
        raised = build.model_copy(update={"piece_floor_mm": build.piece_floor_mm + rise})
        return estimate(raised, pitch).closes

    if not closes(0.0):
        return 0.0
    low, high = 0.0, 50.0
    while high - low > 0.005:
        middle = (low + high) / 2
        low, high = (middle, high) if closes(middle) else (low, middle)
    return math.floor(low * 100) / 100


@dataclass(frozen=True)
class Option:
    """A way to stack the square, compared by the field at the reed's contacts."""

    name: str
    magnet: Magnet
    contacts_mm: float

    @property
    def field_mt(self) -> float:
        return axial_field_t(self.contacts_mm, self.magnet) * 1000


FIRST_PLAN_MM = 0.2 + 2.0 + 3.0 + 12.0
"""The stack first planned: overlay, 2 mm clear acrylic, 3 mm top sheet, a 12 mm spacer grid,
and the switch lying flat on the carrier (its contacts half its glass higher)."""


def options(build: BuildConfig) -> list[Option]:
    """The stacks the guide compares: the first plan with the small and a large magnet, and
    this build's upright switch with both."""
    small = magnet_of(build)
    large = Magnet(10.0, 3.0, build.magnet_br_t)
    flat = FIRST_PLAN_MM + build.reed_diameter_mm / 2
    ours = estimate(build, 40.0).contacts_mm
    return [Option("switch flat on the carrier, 12 mm spacer, 2 mm acrylic", small, flat),
            Option("switch flat on the carrier, 12 mm spacer, 2 mm acrylic", large, flat),
            Option("switch upright, its top 2.5 mm under the top sheet", small, ours),
            Option("switch upright, its top 2.5 mm under the top sheet", large, ours)]
