"""The JSON contracts shared by the CLI commands and the HTTP API.

``python manage.py score`` / ``POST /api/v1/score`` (and the other contracts) take one request
object or a list of them; a list answers a list in the same order. The validation here is the
single place that turns loose JSON into engine calls, so the CLI and the API cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import bounds
from .errors import N_, EngineError, shown
from .games import ScoringFamily, get_game
from .points import score
from .rules import RuleSet, load_rules, wrong_family

Handler = Callable[[Mapping[str, Any]], dict[str, Any]]
RulesResolver = Callable[[Any], RuleSet]

SCORE_KEYS = frozenset({"game", "rules", "cuoc", "streak"})


def run_batch(payload: Any, handler: Handler) -> dict[str, Any] | list[dict[str, Any]]:
    """Apply ``handler`` to one request object, or to each object of a list.

    For a list, an error names the 0-based index of the bad element; nothing is answered for
    the others (the whole batch is refused, so a caller never half-applies it).
    """
    if isinstance(payload, Mapping):
        return handler(payload)
    if isinstance(payload, list):
        if len(payload) > bounds.BATCH:
            raise EngineError(
                N_("Danh sách có nhiều nhất {most} yêu cầu (nhận được {n})."),
                most=bounds.BATCH,
                n=len(payload),
            )
        answers = []
        for index, item in enumerate(payload):
            if not isinstance(item, Mapping):
                raise EngineError(
                    N_("Phần tử số {index} của danh sách phải là một đối tượng JSON."), index=index
                )
            try:
                answers.append(handler(item))
            except EngineError as exc:
                raise exc.within(N_("Phần tử số {index}: {inner}"), index=index) from exc
        return answers
    raise EngineError(N_("Yêu cầu phải là một đối tượng JSON hoặc một danh sách các đối tượng."))


def require_keys(request: Mapping[str, Any], allowed: frozenset[str], required: Sequence[str]) -> None:
    """Refuse unknown keys and missing required keys, naming them."""
    unknown = sorted(set(request) - allowed)
    if unknown:
        raise EngineError(
            N_("Khóa không hợp lệ: {keys}. Các khóa được dùng: {allowed}."),
            keys=[shown(k, 40) if not isinstance(k, str) else k[:40] for k in unknown[:5]],
            allowed=sorted(allowed),
        )
    missing = [key for key in required if key not in request]
    if missing:
        raise EngineError(N_("Thiếu khóa bắt buộc: {keys}."), keys=missing)


def _string_list(value: Any, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise EngineError(N_('\'{key}\' phải là một danh sách chuỗi, ví dụ ["tom", "leo"].'), key=key)
    if len(value) > bounds.CUOC_LIST:
        raise EngineError(
            N_("'{key}' có nhiều nhất {most} phần tử (nhận được {n})."),
            key=key,
            most=bounds.CUOC_LIST,
            n=len(value),
        )
    return [v.strip().lower() for v in value]


def _streak(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= bounds.STREAK:
        raise EngineError(
            N_("'streak' phải là số nguyên từ 1 đến {most} (nhận được {value})."),
            most=bounds.STREAK,
            value=shown(value),
        )
    return value


def score_request(
    request: Mapping[str, Any], *, resolve_rules: RulesResolver | None = None
) -> dict[str, Any]:
    """Answer one score request: ``{"game", "rules", "cuoc", "streak"}`` → the breakdown dict.

    ``resolve_rules`` lets the web app accept the slug of a saved village rule set as well as
    the presets; by default only presets and ``{"preset": ..., overrides}`` objects are known.
    """
    require_keys(request, SCORE_KEYS, ("game", "rules"))
    if not isinstance(request["game"], str):
        raise EngineError(N_("'game' phải là một chuỗi, ví dụ \"to-tom-5\"."))
    game = get_game(request["game"])
    rules = (resolve_rules or load_rules)(request["rules"])
    cuoc = _string_list(request.get("cuoc", []), "cuoc")
    streak = _streak(request.get("streak", 1))
    return score(game, rules, cuoc, streak).to_dict()


CHECK_KEYS = frozenset({"game", "hand", "declared", "waits", "dealt_khan", "rules"})
PHOM_CHECK_KEYS = frozenset({"game", "players", "rules"})


def check_request(
    request: Mapping[str, Any], *, resolve_rules: RulesResolver | None = None
) -> dict[str, Any]:
    """Answer one kiểm bài request.

    ``{"game", "hand", "declared"?, "dealt_khan"?, "rules"?}`` → the verdict dict; with ``"waits": true``
    and a hand one card short → ``{"waits": [...]}``, each wait with its cước (Tài Bàn: from
    ``dealt_khan``). ``rules`` (a preset or a village's rule set) decides the game's disputed
    choices, such as Tài Bàn's three identical cards not named as a khàn.
    """
    from .checker import check_hand, find_waits  # the checker is the heaviest import of the engine

    if not isinstance(request.get("game"), str):
        require_keys(request, CHECK_KEYS | PHOM_CHECK_KEYS, ("game",))
        raise EngineError(N_("'game' phải là một chuỗi, ví dụ \"to-tom-5\"."))
    game = get_game(request["game"])
    if game.family is ScoringFamily.PHOM:
        return phom_request(request, resolve_rules=resolve_rules)
    require_keys(request, CHECK_KEYS, ("game", "hand"))
    hand = request["hand"]
    if not isinstance(hand, str | list):
        raise EngineError(N_("'hand' phải là một chuỗi mã quân bài (\"7v 3m 3s …\") hoặc một danh sách."))
    if len(hand) > bounds.HAND_TEXT:
        raise EngineError(N_("'hand' quá dài: tối đa {most} ký tự hoặc phần tử."), most=bounds.HAND_TEXT)
    waits = request.get("waits", False)
    if not isinstance(waits, bool):
        raise EngineError(N_("'waits' phải là true hoặc false."))
    dealt_khan = request.get("dealt_khan")
    if dealt_khan is not None and not isinstance(dealt_khan, bool):
        raise EngineError(N_("'dealt_khan' phải là true hoặc false."))
    rules = None if request.get("rules") is None else (resolve_rules or load_rules)(request["rules"])
    if rules is not None and rules.family is not game.family:
        raise wrong_family(rules, game)
    if waits:
        return find_waits(game.slug, hand, dealt_khan=dealt_khan, rules=rules).to_dict()
    declared = request.get("declared")
    if declared is not None:
        declared = _string_list(declared, "declared")
    return check_hand(game.slug, hand, declared=declared, dealt_khan=dealt_khan, rules=rules).to_dict()


def phom_request(request: Mapping[str, Any], *, resolve_rules: RulesResolver | None = None) -> dict[str, Any]:
    """Answer one Phỏm kiểm bài request.

    ``{"game": "phom", "players": [{"name", "hand"}, …] in laying-down order, "rules"?}`` → each
    player's phỏm, points left, móm / ù, and the ván's ``ranks`` or ù ``winner`` (what a Phỏm ván
    records). ``rules`` decides ù khan (``phom_u_khan``).
    """
    from .checker.phom import check_phom

    require_keys(request, PHOM_CHECK_KEYS, ("game", "players"))
    game = get_game(request["game"])
    rules = None if request.get("rules") is None else (resolve_rules or load_rules)(request["rules"])
    if rules is not None and rules.family is not game.family:
        raise wrong_family(rules, game)
    u_khan = True if rules is None else rules.phom_u_khan
    return check_phom(game, request["players"], u_khan=u_khan).to_dict()
