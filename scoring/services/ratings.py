"""Ratings of the club's members (OpenSkill, Plackett–Luce), derived from the club's ván.

**What is rated.** Every current ván of the club's canh, in the order of the canh (by opening
time) and then of the ván, is one game for the players who took part (the seated players less
those who folded, chịu):

* a valid win (Ù): the winner first, every other player tied second (one winner, n − 1 losers);
* a Phỏm ván ranked first to last (xếp hạng): that order;
* anything else (a draw, a báo, a fine only, a lành làng or báo win: no valid winner) changes nothing.

See ``docs/ratings.md`` for what a rating means at a table of five.

**Rebuilt from the ván, never by deltas kept apart.** :func:`rebuild_ratings` folds every ván from
the model's prior; :func:`update_ratings` (what a recorded ván triggers, through the Celery task)
continues from the stored ratings only when the ván they were folded from are still, in the same
order, the first ván of the club (a new ván at the end of the latest canh), and rebuilds otherwise
(a correction, a ván in an older canh). Both give the same numbers: the fold is the same
arithmetic in the same order (``tests/book/test_ratings.py``).

**Stored only if newer.** A result carries the number of ván rows (every version) its snapshot saw;
rows are only ever added, so a larger number is a later snapshot, and a result is stored only over
an older one (retries and concurrent runs are harmless).

**Coalesced** like the leaderboards: :func:`request_ratings_update` claims the board's
``recompute_due_at`` with a conditional UPDATE and queues the task 1 s later; changes inside the
window queue nothing (the task reads them).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import DatabaseError, connection, transaction
from django.db.models import Q
from django.utils import timezone
from openskill.models import PlackettLuce

from scoring.models import Club, ClubRating, ClubRatingBoard, Seat, Sitting, Van, VanOutcome
from scoring.services import rows
from scoring.services.snapshot import read_snapshot

__all__ = [
    "DEBOUNCE",
    "MODEL",
    "Rated",
    "game_of",
    "on_sitting_changed",
    "queue_update",
    "rebuild_ratings",
    "recompute",
    "request_ratings_update",
    "update_ratings",
]

log = logging.getLogger(__name__)

#: OpenSkill's Plackett–Luce model with its defaults: μ₀ = 25, σ₀ = 25/3, β = σ₀/2, τ = σ₀/100.
MODEL = PlackettLuce()
MU0, SIGMA0 = MODEL.mu, MODEL.sigma
#: At most one recompute per club per this window.
DEBOUNCE = timedelta(seconds=1)

Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class VanRow:
    id: int
    sitting_id: int
    day: str
    outcome: str
    winner_seat: int | None
    record: dict[str, Any]


@dataclass(slots=True)
class State:
    """The fold's state: each player's [μ, σ, rated ván] and history."""

    ratings: dict[int, list[float]] = field(default_factory=dict)
    history: dict[int, list[list[Any]]] = field(default_factory=dict)
    changed: set[int] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class Rated:
    club_id: int
    written: bool
    version: int
    seen: int
    van: int
    players: int
    duration_ms: int
    built_by: str

    def to_dict(self) -> dict[str, Any]:
        return {f: getattr(self, f) for f in self.__slots__}


def game_of(van: VanRow, seats: dict[str, int]) -> tuple[list[int], list[int]] | None:
    """The players of a rated ván (player ids) and their ranks (1 = first), or None when the ván
    changes no rating. ``seats``: the canh's seat names → player ids."""
    folded = set(van.record.get("chiu") or ())
    if van.outcome == VanOutcome.U and van.winner_seat is not None:
        winner = van.record.get("winner")
        players = [p for name, p in seats.items() if name not in folded or name == winner]
        if winner not in seats or len(players) < 2:
            return None
        return players, [1 if seats[winner] == p else 2 for p in players]
    if van.outcome == VanOutcome.XEP_HANG:
        order = [seats[name] for name in van.record.get("ranks") or () if name in seats]
        return (order, list(range(1, len(order) + 1))) if len(order) >= 2 else None
    return None


def fold(state: State, vans: Iterable[VanRow], seats: dict[int, dict[str, int]]) -> int:
    """Fold ``vans`` into ``state``; answers how many were rated."""
    rated = 0
    for van in vans:
        game = game_of(van, seats[van.sitting_id])
        if game is None:
            continue
        players, ranks = game
        before = [state.ratings.get(p) or [MU0, SIGMA0, 0] for p in players]
        teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma, _n in before]
        after = MODEL.rate(teams, ranks=ranks)
        for p, old, [new] in zip(players, before, after, strict=True):
            state.ratings[p] = [new.mu, new.sigma, int(old[2]) + 1]
            line = state.history.setdefault(p, [])
            point = [van.sitting_id, van.day, new.mu, new.sigma]
            if line and line[-1][0] == van.sitting_id:
                line[-1] = point
            else:
                line.append(point)
            state.changed.add(p)
        rated += 1
    return rated


def _current(club_id: int) -> Any:
    return Van.objects.filter(sitting__club_id=club_id, is_current=True).order_by(
        "sitting__created_at", "sitting_id", "seq"
    )


def _rows(club_id: int, ids: Sequence[int] | None = None) -> list[VanRow]:
    vans = _current(club_id)
    if ids is not None:
        vans = vans.filter(pk__in=list(ids))
    rows = vans.values_list("id", "sitting_id", "sitting__created_at", "outcome", "winner_id", "record")
    return [
        VanRow(pk, sitting, timezone.localtime(at).date().isoformat(), outcome, winner, record or {})
        for pk, sitting, at, outcome, winner, record in rows
    ]


def _seats(club_id: int, sittings: Iterable[int] | None = None) -> dict[int, dict[str, int]]:
    seats = Seat.objects.filter(sitting__club_id=club_id)
    if sittings is not None:
        seats = seats.filter(sitting_id__in=list(sittings))
    out: dict[int, dict[str, int]] = {}
    for sitting_id, name, player in seats.order_by("sitting_id", "position").values_list(
        "sitting_id", "name", "player_id"
    ):
        out.setdefault(sitting_id, {})[name] = player
    return out


def _seen(club_id: int) -> int:
    return Van.objects.filter(sitting__club_id=club_id).count()


def _digest(ids: Sequence[int]) -> str:
    return hashlib.sha256(",".join(map(str, ids)).encode()).hexdigest()


def compute(club_id: int) -> tuple[State, int, list[int], int]:
    """Every rating of the club from scratch, in one snapshot: (state, ván rows seen, the current
    ván ids folded, how many were rated)."""
    with read_snapshot():
        seen = _seen(club_id)
        vans = _rows(club_id)
        seats = _seats(club_id)
    state = State()
    rated = fold(state, vans, seats)
    return state, seen, [v.id for v in vans], rated


def _store(
    club_id: int,
    state: State,
    *,
    seen: int,
    ids: Sequence[int],
    full: bool,
    force: bool,
    started: float,
    say: Progress,
) -> Rated:
    """Write the ratings if they come from a later snapshot than the stored ones (``force``: or the
    same one); ``full``: every rating (players no longer rated are removed), else the changed ones."""
    built_by = "full" if full else "incremental"
    with transaction.atomic():
        ClubRatingBoard.objects.get_or_create(club_id=club_id)
        board = ClubRatingBoard.objects.select_for_update().get(club_id=club_id)
        if board.seen > seen or (board.seen == seen and not force and board.version):
            say(f"không lưu (đã có kết quả mới hơn): phiên bản {board.version}")
            return Rated(
                club_id, False, board.version, board.seen, board.folded, len(state.ratings), 0, built_by
            )
        players = set(state.ratings) if full else set(state.changed)
        if full:
            ClubRating.objects.filter(club_id=club_id).exclude(player_id__in=list(state.ratings)).delete()
        ClubRating.objects.bulk_create(
            [
                ClubRating(
                    club_id=club_id,
                    player_id=p,
                    mu=state.ratings[p][0],
                    sigma=state.ratings[p][1],
                    van=int(state.ratings[p][2]),
                    history=state.history.get(p, []),
                )
                for p in sorted(players)
            ],
            update_conflicts=True,
            unique_fields=["club", "player"],
            update_fields=["mu", "sigma", "van", "history"],
        )
        duration = round((time.perf_counter() - started) * 1000)
        board.version += 1
        board.seen, board.folded, board.fingerprint = seen, len(ids), _digest(ids)
        board.computed_at, board.duration_ms, board.built_by = timezone.now(), duration, built_by
        board.failed_at, board.failure = None, ""
        board.save()
    say(f"đã lưu: phiên bản {board.version}, {len(state.ratings)} người, {len(ids)} ván, {duration} ms")
    return Rated(club_id, True, board.version, seen, len(ids), len(state.ratings), duration, built_by)


def rebuild_ratings(*, club_id: int, force: bool = False, progress: Progress | None = None) -> Rated:
    """Rebuild every rating of the club from its ván (the managers' button, the command)."""
    say = progress or (lambda _msg: None)
    started = time.perf_counter()
    state, seen, ids, rated = compute(club_id)
    say(f"{len(ids)} ván, {rated} ván được tính, {len(state.ratings)} người")
    return _store(club_id, state, seen=seen, ids=ids, full=True, force=force, started=started, say=say)


def _stored_state(club_id: int) -> State:
    state = State()
    for player, mu, sigma, van, history in ClubRating.objects.filter(club_id=club_id).values_list(
        "player_id", "mu", "sigma", "van", "history"
    ):
        state.ratings[player] = [mu, sigma, van]
        state.history[player] = list(history or [])
    return state


def update_ratings(*, club_id: int, progress: Progress | None = None) -> Rated:
    """Bring the ratings up to the club's ván: the new ván folded onto the stored ratings when
    those were folded from the club's first ván as they still are, else a full rebuild."""
    say = progress or (lambda _msg: None)
    started = time.perf_counter()
    with read_snapshot():
        board = ClubRatingBoard.objects.filter(club_id=club_id).first()
        seen = _seen(club_id)
        ids = list(_current(club_id).values_list("id", flat=True))
        base = (
            board is not None
            and board.version > 0
            and board.folded <= len(ids)
            and _digest(ids[: board.folded]) == board.fingerprint
        )
        if base:
            assert board is not None
            state = _stored_state(club_id)
            tail = _rows(club_id, ids[board.folded :])
            seats = _seats(club_id, {v.sitting_id for v in tail})
    if not base:
        return rebuild_ratings(club_id=club_id, progress=say)
    fold(state, tail, seats)
    return _store(club_id, state, seen=seen, ids=ids, full=False, force=False, started=started, say=say)


def recompute(*, club_id: int, force: bool = False, progress: Progress | None = None) -> Rated:
    """The task's and the command's body: the update (``force``: the full rebuild); a failure is
    recorded on the board (shown to the club's managers) and raised again."""
    try:
        if force:
            return rebuild_ratings(club_id=club_id, force=True, progress=progress)
        return update_ratings(club_id=club_id, progress=progress)
    except Exception as exc:
        _record_failure(club_id, exc)
        raise


def _record_failure(club_id: int, exc: BaseException) -> None:
    text = f"{type(exc).__name__}: {exc}".strip()[:500]
    try:
        if connection.in_atomic_block and connection.needs_rollback:
            return
        ClubRatingBoard.objects.update_or_create(
            club_id=club_id, defaults={"failed_at": timezone.now(), "failure": text}
        )
    except DatabaseError:
        log.exception("could not record the failed rating recompute of club %s", club_id)


def queue_update(club_id: int, *, force: bool = False, eta: Any = None) -> None:
    """Queue the Celery task (never waits for it)."""
    from scoring.tasks import update_club_ratings

    update_club_ratings.apply_async((club_id,), {"force": force}, eta=eta)


def request_ratings_update(club_id: int) -> bool:
    """Ask for an update after a change has committed; coalesced to one per :data:`DEBOUNCE`.
    Answers whether this call queued the task."""
    now = timezone.now()
    due = now + DEBOUNCE
    ClubRatingBoard.objects.get_or_create(club_id=club_id)
    claimed = (
        ClubRatingBoard.objects.filter(club_id=club_id)
        .filter(Q(recompute_due_at__isnull=True) | Q(recompute_due_at__lte=now))
        .update(recompute_due_at=due)
    )
    if claimed:
        queue_update(club_id, eta=due)
    return bool(claimed)


_CLAIMS: dict[str, str] = {}


def _claim_sql() -> str:
    """The one statement of :func:`_claim` (written once per database vendor): the sitting's club's
    board created with its due time, or its due time claimed when none is pending; the club's id
    when this call claimed it."""
    sql = _CLAIMS.get(connection.vendor)
    if sql is None:
        qn = connection.ops.quote_name
        meta, table = ClubRatingBoard._meta, qn(ClubRatingBoard._meta.db_table)
        fields = [f for f in meta.concrete_fields if f is not meta.auto_field]
        due = qn(meta.get_field("recompute_due_at").column)
        picks = [
            "s.club_id" if f.name == "club" else "%s"
            for f in fields  # the due time and the other fields' defaults are parameters
        ]
        sql = _CLAIMS[connection.vendor] = (
            f"INSERT INTO {table} ({', '.join(qn(f.column) for f in fields)}) "
            f"SELECT {', '.join(picks)} FROM {qn(Sitting._meta.db_table)} s "
            "WHERE s.id = %s AND s.club_id IS NOT NULL "
            f"ON CONFLICT ({qn(meta.get_field('club').column)}) DO UPDATE SET {due} = excluded.{due} "
            f"WHERE {table}.{due} IS NULL OR {table}.{due} <= %s "
            f"RETURNING {qn(meta.get_field('club').column)}"
        )
    return sql


def _claim(sitting_id: int) -> tuple[int | None, Any]:
    """:func:`request_ratings_update`'s claim for the club of ``sitting_id`` in one statement (the
    club's id read, the board created if it has none, its due time claimed): after every ván.
    Answers the club's id when this call claimed the board (else None), and the due time."""
    now = timezone.now()
    due = now + DEBOUNCE
    meta = ClubRatingBoard._meta

    def on_the_orm() -> list[tuple[int]]:
        club_id = Sitting.objects.filter(pk=sitting_id).values_list("club_id", flat=True).first()
        if club_id is None:
            return []
        ClubRatingBoard.objects.get_or_create(club_id=club_id)
        claimed = (
            ClubRatingBoard.objects.filter(club_id=club_id)
            .filter(Q(recompute_due_at__isnull=True) | Q(recompute_due_at__lte=now))
            .update(recompute_due_at=due)
        )
        return [(club_id,)] if claimed else []

    if not connection.features.can_return_rows_from_bulk_insert:  # SQLite before 3.35: no RETURNING
        claimed = on_the_orm()
        return (claimed[0][0] if claimed else None), due
    params = [
        f.get_db_prep_save(due if f.name == "recompute_due_at" else f.get_default(), connection)
        for f in meta.concrete_fields
        if f is not meta.auto_field and f.name != "club"
    ]
    lookup = meta.get_field("recompute_due_at").get_db_prep_value(now, connection)
    claimed = rows.values(_claim_sql(), [*params, sitting_id, lookup], orm=on_the_orm)
    return (claimed[0][0] if claimed else None), due


#: The writes that change what is rated (a settle-up or a close does not).
RATED_ACTIONS = frozenset({"van_record", "van_correct"})


def on_sitting_changed(sender: Any, *, sitting_id: int, action: str, **kwargs: Any) -> None:
    """After the commit of a ván recorded or corrected in a club's canh: ask for the club's update."""
    if action not in RATED_ACTIONS:
        return
    # After every ván: one statement, as the rest of the ván path (scoring.services.rows).
    club_id, due = _claim(sitting_id)
    if club_id is not None:
        queue_update(club_id, eta=due)


def club_ratings(club: Club) -> list[ClubRating]:
    """The club's ratings, best first (by μ − 3σ)."""
    return sorted(
        ClubRating.objects.filter(club=club).select_related("player"),
        key=lambda r: (-r.ordinal, r.player.name, r.player_id),
    )
