"""Seating a round: the checked-in players on tables, each table a new sitting of the ledger
(its canh 1); a round with a time limit stores each table's end time for the page's clock.

:func:`open_tables` lists the tables of the last round still playing (not closed);
:func:`round_seat` with ``refuse_open=True`` refuses (:class:`PreviousRoundOpen`, naming them)
to seat the next round while there are any: the API asks for that unless told to force, and the
organiser's page can ask before seating.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import ngettext

from scoring.engine import N_, EngineError, Msg, get_game
from scoring.models import Player, Seat
from scoring.services.people import User
from scoring.services.sittings import sitting_open
from tournaments.models import (
    Event,
    Leaderboard,
    Registration,
    RegistrationStatus,
    Round,
    RoundFormat,
    Table,
    TableSitting,
)
from tournaments.seating import Method, Remainder, seat_round
from tournaments.services.events import ensure_running
from tournaments.signals import round_seated, send_on_commit

__all__ = ["PreviousRoundOpen", "open_tables", "round_seat"]


def _present(event: Event) -> list[int]:
    """Checked-in players, in registration order."""
    return list(
        Registration.objects.filter(event=event, status=RegistrationStatus.CHECKED_IN)
        .order_by("id")
        .values_list("player_id", flat=True)
    )


def _by_standings(event: Event, players: list[int]) -> list[int]:
    """Players in the order of the stored leaderboard (unranked ones last, in registration order)."""
    rows = Leaderboard.objects.filter(event=event).values_list("rows", flat=True).first() or []
    rank = {row["key"]: i for i, row in enumerate(rows)}
    return sorted(players, key=lambda p: rank.get(p, len(rank)))


def _by_rating(players: list[int]) -> list[int]:
    """Players by their rating in their own club (the club book's OpenSkill μ − 3σ), best first;
    a player with no rating counts as the model's newcomer (0); ties keep registration order."""
    from scoring.models import ClubRating

    rated = {
        pk: mu - 3 * sigma
        for pk, mu, sigma in ClubRating.objects.filter(
            player_id__in=players, club_id=F("player__club_id")
        ).values_list("player_id", "mu", "sigma")
    }
    return sorted(players, key=lambda p: -rated.get(p, 0.0))


def _history(event: Event) -> list[list[int]]:
    """The players of every earlier table of the event."""
    tables: dict[int, list[int]] = {}
    seats = Seat.objects.filter(sitting__event_table__event=event).order_by("sitting_id", "position")
    for sitting_id, player_id in seats.values_list("sitting_id", "player_id"):
        tables.setdefault(sitting_id, []).append(player_id)
    return list(tables.values())


def _bye_counts(event: Event) -> Counter[int]:
    counts: Counter[int] = Counter()
    for byes in Round.objects.filter(event=event).values_list("byes", flat=True):
        counts.update(byes or [])
    return counts


class PreviousRoundOpen(EngineError):
    """The previous round still has tables playing: seating the next one now would leave them
    behind (their players would be seated twice)."""

    code = "previous_round_open"

    def __init__(
        self, message: str | Msg, /, *, round_number: int, tables: list[Table], **params: Any
    ) -> None:
        super().__init__(message, **params)
        self.round_number = round_number
        self.tables = tables


def open_tables(*, event: Event) -> list[Table]:
    """The tables of the event's last round not closed yet, by number (none before round 1)."""
    last = Round.objects.filter(event=event).order_by("-number").first()
    if last is None:
        return []
    return list(
        Table.objects.filter(round=last, closed_at__isnull=True).select_related("round").order_by("number")
    )


def _refuse_open(event: Event) -> None:
    tables = open_tables(event=event)
    if not tables:
        return
    number = tables[0].round.number
    names = ", ".join(str(t.number) for t in tables)
    message = ngettext(
        "Vòng %(round)s còn %(count)s chiếu đang chơi (chiếu %(tables)s): hãy đóng chiếu ấy trước khi xếp "
        'vòng mới, hoặc xếp luôn nếu chắc chắn ("force": true).',
        "Vòng %(round)s còn %(count)s chiếu đang chơi (chiếu %(tables)s): hãy đóng các chiếu ấy trước khi xếp "
        'vòng mới, hoặc xếp luôn nếu chắc chắn ("force": true).',
        len(tables),
    ) % {"round": number, "count": len(tables), "tables": names}
    raise PreviousRoundOpen(message, round_number=number, tables=tables)


@transaction.atomic
def round_seat(
    *,
    event: Event,
    method: str = Method.RANDOM,
    remainder: str = Remainder.BYE,
    seed: int | None = None,
    created_by: User | None = None,
    refuse_open: bool = False,
) -> Round:
    """Seat the next round: checked-in players on tables of the game's size, by ``method``;
    the players left over sit out (``bye``) or some tables are smaller (``smaller``).

    Each table is a new sitting of the ledger under the event's rule set and money mode.
    ``refuse_open``: raise :class:`PreviousRoundOpen` while tables of the last round are open.
    The organiser's page and the API both refuse so unless asked to seat anyway (seating over open
    tables would leave their players in two rounds at once); checked under the event's lock, so two clicks cannot seat two rounds.
    """
    ensure_running(event=event)
    try:
        the_method, the_remainder = Method(method), Remainder(remainder)
    except ValueError:
        raise EngineError(N_("Cách xếp chỗ không hợp lệ.")) from None
    event = Event.objects.select_for_update(no_key=True).get(pk=event.pk)  # one round seated at a time
    if refuse_open:
        _refuse_open(event)
    number = (
        Round.objects.filter(event=event).order_by("-number").values_list("number", flat=True).first() or 0
    ) + 1
    players = _present(event)
    if the_method == Method.STANDINGS:
        players = _by_standings(event, players)
    elif the_method == Method.RATING:
        players = _by_rating(players)
    game = get_game(event.game)
    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    seating = seat_round(
        the_method,
        players,
        size=game.players_max,
        min_size=game.players_min,
        remainder=the_remainder,
        seed=seed,
        history=_history(event),
        bye_counts=_bye_counts(event),
    )
    rnd = Round.objects.create(
        event=event,
        number=number,
        method=the_method,
        remainder=the_remainder,
        seed=seed,
        byes=list(seating.byes),
    )
    people = Player.objects.in_bulk(players)
    rules = event.rules.rules()
    now = timezone.now()
    ends_at = (
        now + timedelta(minutes=event.minutes_per_round) if event.round_format == RoundFormat.TIME else None
    )
    for t, seated in enumerate(seating.tables, start=1):
        sitting = sitting_open(
            game=event.game,
            rules=rules,
            mode=event.mode,
            players=[people[p] for p in seated],
            title=f"{event.name} · Vòng {number} · Chiếu {t}",
            created_by=created_by,
            needs_confirmation=event.confirmation_required,
        ).obj
        table = Table.objects.create(round=rnd, number=t, sitting=sitting, event=event, ends_at=ends_at)
        TableSitting.objects.create(table=table, sitting=sitting, event=event, number=1)
    send_on_commit(round_seated, event_id=event.pk, round_id=rnd.pk)
    return rnd
