"""Imports every variant module so that each registers itself (``all_variants`` orders them)."""

from . import dominari, duell, family, kosmos  # noqa: F401
