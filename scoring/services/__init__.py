"""Writes: each service is keyword-only, typed, and runs in one transaction."""
