"""The JSON contracts shared by the CLI commands and the HTTP API.

``python manage.py score`` / ``POST /api/v1/score`` (and the other contracts) take one request
object or a list of them; a list answers a list in the same order. The validation here is the
single place that turns loose JSON into engine calls, so the CLI and the API cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .errors import EngineError
from .games import get_game
from .points import score
from .rules import RuleSet, load_rules

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
        answers = []
        for index, item in enumerate(payload):
            if not isinstance(item, Mapping):
                raise EngineError(f"Phần tử số {index} của danh sách phải là một đối tượng JSON.")
            try:
                answers.append(handler(item))
            except EngineError as exc:
                raise EngineError(f"Phần tử số {index}: {exc.message}") from exc
        return answers
    raise EngineError("Yêu cầu phải là một đối tượng JSON hoặc một danh sách các đối tượng.")


def require_keys(request: Mapping[str, Any], allowed: frozenset[str], required: Sequence[str]) -> None:
    """Refuse unknown keys and missing required keys, naming them."""
    unknown = sorted(set(request) - allowed)
    if unknown:
        raise EngineError(
            f"Khóa không hợp lệ: {', '.join(unknown)}. Các khóa được dùng: {', '.join(sorted(allowed))}."
        )
    missing = [key for key in required if key not in request]
    if missing:
        raise EngineError(f"Thiếu khóa bắt buộc: {', '.join(missing)}.")


def _string_list(value: Any, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise EngineError(f"'{key}' phải là một danh sách chuỗi, ví dụ [\"tom\", \"leo\"].")
    return [v.strip().lower() for v in value]


def _streak(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise EngineError(f"'streak' phải là số nguyên từ 1 trở lên (nhận được {value!r}).")
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
        raise EngineError("'game' phải là một chuỗi, ví dụ \"to-tom-5\".")
    game = get_game(request["game"])
    rules = (resolve_rules or load_rules)(request["rules"])
    cuoc = _string_list(request.get("cuoc", []), "cuoc")
    streak = _streak(request.get("streak", 1))
    return score(game, rules, cuoc, streak).to_dict()


CHECK_KEYS = frozenset({"game", "hand", "declared", "waits", "dealt_khan"})


def check_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """Answer one kiểm bài request.

    ``{"game", "hand", "declared"?, "dealt_khan"?}`` → the verdict dict; with ``"waits": true``
    and a hand one card short → ``{"waits": [...]}``.
    """
    from .checker import check_hand, find_waits  # the checker is the heaviest import of the engine

    require_keys(request, CHECK_KEYS, ("game", "hand"))
    if not isinstance(request["game"], str):
        raise EngineError("'game' phải là một chuỗi, ví dụ \"to-tom-5\".")
    game = get_game(request["game"])
    hand = request["hand"]
    if not isinstance(hand, str | list):
        raise EngineError("'hand' phải là một chuỗi mã quân bài (\"7v 3m 3s …\") hoặc một danh sách.")
    waits = request.get("waits", False)
    if not isinstance(waits, bool):
        raise EngineError("'waits' phải là true hoặc false.")
    dealt_khan = request.get("dealt_khan")
    if dealt_khan is not None and not isinstance(dealt_khan, bool):
        raise EngineError("'dealt_khan' phải là true hoặc false.")
    if waits:
        return find_waits(game.slug, hand).to_dict()
    declared = request.get("declared")
    if declared is not None:
        declared = _string_list(declared, "declared")
    return check_hand(game.slug, hand, declared=declared, dealt_khan=dealt_khan).to_dict()
