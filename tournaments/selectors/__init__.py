"""Reads of the tournaments app: standings rebuilt from the ledger, and what the pages show."""
