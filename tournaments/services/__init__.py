"""Writes of the tournaments app: keyword-only, typed, one transaction each; side effects
(leaderboard recomputes) queued with ``transaction.on_commit``."""
