"""Imports every variant module so that each registers itself, in the order of spec/records.md."""

from . import dominari, kosmos, duell, family  # noqa: F401
