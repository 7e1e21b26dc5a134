"""The stored leaderboard of an event, and the per-seat tallies its incremental rebuild merges."""

from __future__ import annotations

import json
from typing import Any

from django.db import models

from scoring.models import Player, Seat, Sitting
from tournaments.models.events import Event


def dump_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class JSONTextField(models.TextField):
    """JSON stored as plain text: read and written whole, never queried inside. Cheaper than
    ``jsonb`` for a 2,000-row board (no parse into a binary tree; lz4 compression where the
    server has it, see migration 0002), which the one-ván leaderboard update rewrites within
    its 50 ms budget."""

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return None if value is None else json.loads(value)

    def to_python(self, value: Any) -> Any:
        return json.loads(value) if isinstance(value, str) else value

    def get_prep_value(self, value: Any) -> Any:
        return None if value is None else dump_json(value)

    def value_to_string(self, obj: Any) -> str:
        return dump_json(self.value_from_object(obj))


class BuiltBy(models.TextChoices):
    FULL = "full", "Tính lại toàn bộ"
    INCREMENTAL = "canh", "Chỉ tính lại các canh vừa đổi"


class Leaderboard(models.Model):
    """The stored standings of an event, as last rebuilt from the ledger.

    ``version`` only increases (``F() + 1`` on every write); ``ledger_seq`` is the event's
    :attr:`Event.ledger_seq` the rows were built from, and a write happens only when it is newer
    (a conditional UPDATE), so a stale result never overwrites a newer one.
    """

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="leaderboard")
    version = models.PositiveBigIntegerField("phiên bản", default=0)
    ledger_seq = models.BigIntegerField("dựng từ sổ thay đổi số", default=-1)
    computed_at = models.DateTimeField("tính lúc", null=True, blank=True)
    #: Players, ranked: see :func:`tournaments.selectors.standings.compute_standings`.
    rows = JSONTextField("bảng người chơi", default=list, blank=True)
    #: Villages, hamlets or teams, ranked.
    teams = JSONTextField("bảng làng / đội", default=list, blank=True)
    van_count = models.PositiveIntegerField("số ván", default=0)
    duration_ms = models.PositiveIntegerField("thời gian tính (ms)", default=0)
    built_by = models.CharField("cách tính", max_length=4, choices=BuiltBy.choices, default=BuiltBy.FULL)
    #: The last recompute that failed (the organiser's page says so), until one succeeds.
    failed_at = models.DateTimeField("lần tính lỗi gần nhất", null=True, blank=True)
    failure = models.TextField("lỗi khi tính", blank=True)

    class Meta:
        verbose_name = "bảng xếp hạng"
        verbose_name_plural = "bảng xếp hạng"

    def __str__(self) -> str:
        return f"{self.event} · v{self.version}"


class SeatTally(models.Model):
    """One player's figures in one canh (points, wins, biggest win, cước), rebuilt from that
    seat's own postings and won ván (never a delta); the canh's ván count is on its
    :class:`TableSitting`.

    ``stamp`` is the canh's :attr:`TableSitting.changed_seq` the tally was built at: a tally
    older than its canh is stale and is rebuilt before it is merged.
    """

    seat = models.OneToOneField(Seat, primary_key=True, on_delete=models.CASCADE, related_name="+")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="+", db_index=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", db_index=False)
    stamp = models.BigIntegerField("dựng ở lần đổi số")
    points = models.BigIntegerField("điểm", default=0)
    wins = models.PositiveIntegerField("số ván ù", default=0)
    best_win = models.IntegerField("ván ù lớn nhất", default=0)
    cuoc = JSONTextField("cước", default=dict, blank=True)

    class Meta:
        verbose_name = "điểm một người trong một canh"
        verbose_name_plural = "điểm từng người trong từng canh"

    def __str__(self) -> str:
        return f"{self.seat_id}: {self.points}"
