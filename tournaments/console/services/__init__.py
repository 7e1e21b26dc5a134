"""Writes of the console: open a festival table, give a signal, move the nọc, record a ván.

Keyword-only, one transaction each, the table's row locked first so writes to a table are
serialised; the display hears of every write after its commit (:mod:`tournaments.console.broadcast`).
"""

from tournaments.console.services.errors import ConsoleError
from tournaments.console.services.retention import trim_display_events
from tournaments.console.services.signals import (
    ensure_catalogue,
    parse_seat,
    signal_send,
    signal_table,
)
from tournaments.console.services.tables import (
    dealer_set,
    noc_change,
    table_open,
    turn_set,
    van_finish,
    van_start,
)

__all__ = [
    "ConsoleError",
    "dealer_set",
    "ensure_catalogue",
    "noc_change",
    "parse_seat",
    "signal_send",
    "signal_table",
    "table_open",
    "trim_display_events",
    "turn_set",
    "van_finish",
    "van_start",
]
