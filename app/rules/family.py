"""Placeholder: filled in by its variant work."""
