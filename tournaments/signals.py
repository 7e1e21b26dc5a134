"""Signals of the tournaments app, each sent after the commit of the change it announces (never
for a change rolled back). The online app's webhooks hook here
(:mod:`tournaments.online.services.webhooks`); the ledger's own ``sitting_changed`` announces ván.
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

__all__ = ["event_finished", "round_seated", "send_on_commit", "standings_changed"]

#: ``event_id``, ``round_id``: a round was seated (its tables and canh opened).
round_seated = Signal()
#: ``event_id``: the results were made final.
event_finished = Signal()
#: ``event_id``, ``version``: a new version of the stored leaderboard was written.
standings_changed = Signal()


def send_on_commit(signal: Signal, **kwargs: object) -> None:
    """Send ``signal`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: signal.send(sender=None, **kwargs))
