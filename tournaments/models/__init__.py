"""Events (a festival or a club season), registrations, rounds, tables (chiếu) and leaderboards.

A table of a round plays one or more canh, each a sitting of the ledger
(:class:`scoring.models.Sitting`): its seats are the sitting's seats, its points the sitting's
postings. A :class:`Leaderboard` is stored, rebuilt from the ledger by a Celery task
(:mod:`tournaments.tasks`), and never computed per request.
"""

from tournaments.models.events import (
    DEFAULT_TIE_BREAKS,
    Event,
    EventKind,
    Registration,
    RegistrationStatus,
    RoundFormat,
    TieBreak,
    default_tie_breaks,
    new_token,
)
from tournaments.models.leaderboards import BuiltBy, JSONTextField, Leaderboard, SeatTally, dump_json
from tournaments.models.roles import EventRole, EventRoleKind
from tournaments.models.tables import Round, ScorekeeperToken, Table, TableSitting, new_pin, new_secret

__all__ = [
    "DEFAULT_TIE_BREAKS",
    "BuiltBy",
    "Event",
    "EventKind",
    "EventRole",
    "EventRoleKind",
    "JSONTextField",
    "Leaderboard",
    "Registration",
    "RegistrationStatus",
    "Round",
    "RoundFormat",
    "ScorekeeperToken",
    "SeatTally",
    "Table",
    "TableSitting",
    "TieBreak",
    "default_tie_breaks",
    "dump_json",
    "new_pin",
    "new_secret",
    "new_token",
]
