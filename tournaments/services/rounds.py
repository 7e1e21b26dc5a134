"""Seating a round: the checked-in players on tables, each table a new sitting of the ledger
(its canh 1); a round with a time limit stores each table's end time for the page's clock."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from scoring.engine.errors import N_, EngineError
from scoring.engine.games import get_game
from scoring.models import Player, Seat
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

__all__ = ["round_seat"]

User = AbstractBaseUser


def _present(event: Event) -> list[int]:
    """Checked-in players, in registration order."""
    return list(
        Registration.objects.filter(event=event, status=RegistrationStatus.CHECKED_IN)
        .order_by("id").values_list("player_id", flat=True)
    )


def _by_standings(event: Event, players: list[int]) -> list[int]:
    """Players in the order of the stored leaderboard (unranked ones last, in registration order)."""
    rows = Leaderboard.objects.filter(event=event).values_list("rows", flat=True).first() or []
    rank = {row["key"]: i for i, row in enumerate(rows)}
    return sorted(players, key=lambda p: rank.get(p, len(rank)))


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


class RoundStillPlaying(EngineError):
    """The next round was asked for while tables of the last round are still open."""


def open_tables(event: Event) -> list[Table]:
    """The tables of the event's last round that are not closed yet, by number."""
    last = Round.objects.filter(event=event).order_by("-number").first()
    if last is None:
        return []
    return list(Table.objects.filter(round=last, closed_at__isnull=True).order_by("number"))


@transaction.atomic
def round_seat(
    *,
    event: Event,
    method: str = Method.RANDOM,
    remainder: str = Remainder.BYE,
    seed: int | None = None,
    created_by: User | None = None,
    even_if_open: bool = True,
) -> Round:
    """Seat the next round: checked-in players on tables of the game's size, by ``method``;
    the players left over sit out (``bye``) or some tables are smaller (``smaller``).

    Each table is a new sitting of the ledger under the event's rule set and money mode.
    With ``even_if_open=False`` (the organiser's button before they confirm) it refuses with
    :class:`RoundStillPlaying` while a table of the last round is still open: its players would
    sit in two rounds at once (issue 19, item 4). Checked under the event's lock, so two clicks
    cannot seat two rounds.
    """
    ensure_running(event)
    try:
        the_method, the_remainder = Method(method), Remainder(remainder)
    except ValueError:
        raise EngineError("Cách xếp chỗ không hợp lệ.") from None
    event = Event.objects.select_for_update().get(pk=event.pk)  # one round seated at a time
    number = (Round.objects.filter(event=event).order_by("-number").values_list("number", flat=True).first()
              or 0) + 1
    if not even_if_open:
        still = open_tables(event)
        if still:
            raise RoundStillPlaying(
                N_("Vòng {round} còn {count} chiếu đang chơi (chiếu {tables}): xếp chỗ vòng {next} bây giờ thì người "
                   "ở các chiếu đó ngồi hai vòng cùng lúc. Hãy đóng các chiếu đó trước, hoặc đánh dấu “vẫn xếp chỗ”."),
                round=number - 1, count=len(still), tables=", ".join(str(t.number) for t in still), next=number,
            )
    players = _present(event)
    if the_method == Method.STANDINGS:
        players = _by_standings(event, players)
    game = get_game(event.game)
    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    seating = seat_round(
        the_method, players, size=game.players_max, min_size=game.players_min, remainder=the_remainder,
        seed=seed, history=_history(event), bye_counts=_bye_counts(event),
    )
    rnd = Round.objects.create(event=event, number=number, method=the_method, remainder=the_remainder,
                               seed=seed, byes=list(seating.byes))
    people = Player.objects.in_bulk(players)
    rules = event.rules.rules()
    now = timezone.now()
    ends_at = now + timedelta(minutes=event.minutes_per_round) if event.round_format == RoundFormat.TIME else None
    for t, seated in enumerate(seating.tables, start=1):
        sitting = sitting_open(
            game=event.game, rules=rules, mode=event.mode, players=[people[p] for p in seated],
            title=f"{event.name} · Vòng {number} · Chiếu {t}", created_by=created_by,
            needs_confirmation=event.confirmation_required,
        ).obj
        table = Table.objects.create(round=rnd, number=t, sitting=sitting, event=event, ends_at=ends_at)
        TableSitting.objects.create(table=table, sitting=sitting, event=event, number=1)
    return rnd
