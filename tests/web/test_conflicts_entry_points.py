"""Random cước sets are refused or scored the same way by every entry point (issue 21): the engine,
``manage.py score`` and ``POST /api/v1/score``; and a replayed ván by the engine's replay and
``manage.py replay`` (the app's services, rolled back). A refusal is exit 2 / 400 with the same
``{"error": …}``; a score is the same answer."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from typing import Any

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from scoring.engine.contract import score_request
from scoring.engine.cuoc import cuoc_for_game
from scoring.engine.errors import EngineError
from scoring.engine.rules import load_rules
from scoring.engine.settlement import replay
from tests.factories import without_code

pytestmark = [pytest.mark.django_db]

GAMES = {
    "to-tom-5": ["luat-2005", "hoi-50"],
    "to-tom-4": ["luat-2005"],
    "tai-ban": ["tai-ban"],
    "chan": ["chan"],
}
PLAYERS = {
    "to-tom-5": ["An", "Bình", "Chi", "Dũng", "Em"],
    "to-tom-4": ["An", "Bình", "Chi", "Dũng"],
    "tai-ban": ["An", "Bình", "Chi"],
    "chan": ["An", "Bình", "Chi", "Dũng"],
}
PROPS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@st.composite
def wins(draw: st.DrawFn) -> dict[str, Any]:
    game = draw(st.sampled_from(sorted(GAMES)))
    preset = draw(st.sampled_from(GAMES[game]))
    valued = sorted(c.slug for c in cuoc_for_game(game) if c.slug in load_rules(preset).cuoc and not c.streak)
    cuoc = draw(st.lists(st.sampled_from(valued), min_size=1, max_size=5))
    return {"game": game, "rules": preset, "cuoc": cuoc, "streak": draw(st.integers(1, 4))}


def cli(command: str, payload: Any) -> tuple[int, Any]:
    """The management command in this process: JSON on stdin, JSON on stdout, exit code."""
    out = io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO(json.dumps(payload))
    code = 0
    try:
        with contextlib.redirect_stdout(out):
            call_command(command)
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.stdin = stdin
    return code, json.loads(out.getvalue())


def engine(call: Any) -> tuple[int, Any]:
    try:
        return 0, call()
    except EngineError as exc:
        return 2, {"error": exc.message}


@PROPS
@given(request=wins())
def test_a_cuoc_set_is_refused_or_scored_alike_by_the_engine_the_cli_and_the_api(
    request: dict[str, Any],
) -> None:
    by_engine = engine(lambda: score_request(request))
    by_cli = cli("score", request)
    answer = APIClient().post("/api/v1/score", request, format="json")
    by_api = (0 if answer.status_code == 200 else 2, without_code(answer.json()))
    assert by_engine == by_cli == by_api, request
    assert answer.status_code in (200, 400)


@PROPS
@given(win=wins())
def test_a_replayed_van_is_refused_or_settled_alike_by_the_engine_and_the_cli(win: dict[str, Any]) -> None:
    game = win["game"]
    players = PLAYERS[game]
    request = {
        "game": game,
        "rules": win["rules"],
        "mode": "quang",
        "players": players,
        "van": [{"result": "hoa"}, {"winner": players[1], "cuoc": win["cuoc"]}],
    }
    by_engine = engine(lambda: replay(request))
    by_cli = cli("replay", request)
    assert by_engine == by_cli, request
    if by_engine[0]:
        assert by_engine[1]["error"].startswith("Ván 2: ")
