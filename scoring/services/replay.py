"""Replaying a whole sitting through the app's own services (``manage.py replay``, and the
import of a sitting played online: ``POST /api/v1/sittings/import``).

The request is the engine replay's (:func:`scoring.engine.settlement.replay`). :func:`replay_check`
checks all of it with the engine before anything is written and names the first bad ván
(:class:`BadVan`). :func:`sitting_replay` opens a sitting with :func:`sitting_open` (or fills one
already open and still empty: ``into``) and records every ván with :func:`van_record` (or with the
caller's ``record``, e.g. the events app's recording path), so the answer is read back from the
ledger. It must equal the engine's pure replay: a difference is a bug (:class:`InvariantError`),
never a user error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from scoring.engine import (
    MAX_VAN,
    N_,
    REPLAY_KEYS,
    EngineError,
    InvariantError,
    Joined,
    Msg,
    get_game,
    initial_state,
    make_terms,
    parse_van,
    replay,
    require_keys,
    rules_with_overrides,
    settle_van,
)
from scoring.models import Club, Sitting, Van
from scoring.selectors.ledger import balances, van_transfers
from scoring.services.ledger import snapshots_written_once
from scoring.services.people import User
from scoring.services.rules import resolve_rules
from scoring.services.sittings import sitting_open, van_record

__all__ = [
    "BadVan",
    "ReplayConflict",
    "Recorder",
    "replay_answer",
    "replay_check",
    "replay_shape",
    "sitting_replay",
]

REQUIRED = ("game", "rules", "players", "van")

#: Records ván ``seq`` of the replay into the sitting; returns the ván written.
Recorder = Callable[[Sitting, int, Mapping[str, Any]], Van]


class BadVan(EngineError):
    """A ván of the replay that the engine refuses; ``seq`` is its number (from 1)."""

    code = "bad_replay_van"

    def __init__(self, message: str | Msg, /, *, seq: int, **params: Any) -> None:
        super().__init__(message, **params)
        self.seq = seq


class ReplayConflict(EngineError):
    """The sitting to fill cannot take the replay as it stands (it is ended, or has ván)."""

    code = "replay_conflict"


def _checked(request: Any) -> Mapping[str, Any]:
    if not isinstance(request, Mapping):
        raise EngineError(N_("Yêu cầu replay phải là một đối tượng JSON."))
    require_keys(request, REPLAY_KEYS, REQUIRED)
    if not isinstance(request["van"], list) or len(request["van"]) > MAX_VAN:  # checked before any write
        raise EngineError(N_("'van' phải là danh sách các ván (tối đa {most} ván)."), most=MAX_VAN)
    if not isinstance(request["players"], list) or not all(isinstance(p, str) for p in request["players"]):
        raise EngineError(N_("'players' phải là danh sách tên người chơi theo thứ tự chỗ ngồi."))
    return request


def replay_shape(*, request: Any) -> Mapping[str, Any]:
    """The request's shape only (keys, a list of at most MAX_VAN ván, the players' names), cheap
    enough for a request that hands the rest to a job; :func:`replay_check` checks every ván."""
    return _checked(request)


def replay_answer(*, sitting: Sitting, written: list[tuple[int, int, int]]) -> dict[str, Any]:
    """The replay contract's answer read back from the ledger: ``written`` is each ván's (id,
    points, streak) in order."""
    transfers = van_transfers(sitting)
    return {
        **balances(sitting).to_dict(),
        "hoi": [h.to_dict() for h in sitting.hoi.order_by("index")],
        "van": [
            {"points": points, "streak": streak, "transfers": transfers.pop(pk, [])}
            for pk, points, streak in written
        ],
    }


def replay_check(*, request: Any) -> None:
    """Check the whole replay with the engine before anything is written: keys, rule set, seats,
    then every ván in order (each settled from the state the earlier ones left). The first ván the
    engine refuses raises :class:`BadVan` with its number; anything else wrong, an EngineError."""
    request = _checked(request)
    table = make_terms(
        request["game"], rules_with_overrides(request, resolve_rules), request.get("mode", "quang")
    )
    players = request["players"]
    state = initial_state(players, table.game, table.rules, table.mode)
    for seq, record in enumerate(request["van"], start=1):
        try:
            state = settle_van(
                state, parse_van(record, players, seq), game=table.game, rules=table.rules, mode=table.mode
            ).state
        except EngineError as exc:
            raise BadVan(exc.msg, seq=seq) from exc


def _fits(sitting: Sitting, request: Mapping[str, Any], fingerprint: str) -> None:
    """The sitting to fill is the one the replay describes: same game, rule set, mode and seats,
    not ended, no ván yet."""
    game = get_game(request["game"]).slug.value
    mode = str(request.get("mode", "quang")).strip().lower()
    seats = list(sitting.seats.order_by("position").values_list("name", flat=True))
    wrong = [
        what
        for what, ok in (
            (
                Msg(N_("trò chơi ({has}, không phải {sent})"), has=sitting.game, sent=game),
                sitting.game == game,
            ),
            (
                Msg(N_("lệ làng (bộ luật và các thay đổi phải đúng như của canh)")),
                sitting.rules.fingerprint == fingerprint,
            ),
            (
                Msg(N_("cách tính ({has}, không phải {sent})"), has=sitting.mode, sent=mode),
                sitting.mode == mode,
            ),
            (
                Msg(N_("người chơi theo thứ tự chỗ ngồi ({seats})"), seats=seats),
                seats == list(request["players"]),
            ),
        )
        if not ok
    ]
    if wrong:
        raise EngineError(
            N_("Canh bài được nhập không khớp với canh của chiếu: {wrong}."), wrong=Joined(wrong)
        )
    if sitting.ended_at is not None:
        raise ReplayConflict(N_("Canh bài của chiếu đã kết thúc: không nhập thêm ván được."))
    if sitting.van.filter(is_current=True).exists():
        raise ReplayConflict(
            N_("Canh bài của chiếu đã có ván: chỉ nhập được cả canh vào một canh chưa ghi ván nào.")
        )


def sitting_replay(
    *,
    request: Mapping[str, Any],
    created_by: User | None = None,
    club: Club | None = None,
    title: str = "",
    into: Sitting | None = None,
    record: Recorder | None = None,
) -> tuple[Sitting, dict[str, Any]]:
    """Open a sitting (in ``club``, named ``title``), or fill ``into`` (open, empty, the same game,
    rules, mode and seats), record every ván of ``request`` (with ``record``, else
    :func:`van_record`), and answer the replay contract from the ledger.

    The caller owns the transaction (``manage.py replay`` rolls it back unless ``--save``).
    The request's ``gom``, ``ga_ngoai`` and ``ga_trong`` are rule overrides, stored in the
    sitting's rule-set snapshot.
    """
    request = _checked(request)
    rules = rules_with_overrides(request, resolve_rules)
    if into is None:
        sitting = sitting_open(
            game=request["game"],
            rules=rules,
            mode=request.get("mode", "quang"),
            players=request["players"],
            created_by=created_by,
            club=club,
            title=title,
        ).obj
    else:
        sitting = into
        _fits(sitting, request, rules.fingerprint)

    def recorded(s: Sitting, seq: int, van: Mapping[str, Any]) -> Van:
        return van_record(sitting=s, seq=seq, record=van, idempotency_key=None, entered_by=created_by).obj

    write = record or recorded
    # Only what the answer needs of each ván, not the ván: each holds the sitting row it was written
    # under, with the engine's state after it (a long replay kept them all: gigabytes at 10,000 ván).
    written = []
    with snapshots_written_once():  # one transaction: the snapshot is written once, at the end
        for seq, van in enumerate(request["van"], start=1):
            v = write(sitting, seq, van)
            written.append((v.pk, v.points, v.streak))
    result = replay_answer(sitting=sitting, written=written)
    del written
    expected = replay(request, resolve_rules=resolve_rules)
    if result != expected:
        raise InvariantError(f"ledger replay differs from the engine's: {result!r} != {expected!r}")
    return sitting, result
