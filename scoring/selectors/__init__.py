"""Reads that build pages and API answers (selectors), one module per concern."""
