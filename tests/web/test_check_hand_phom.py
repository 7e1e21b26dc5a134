"""Phỏm from the cards through `manage.py check_hand` and `POST /api/v1/check-hand` (issue 31, item 3),
and the one bound of a player's name (item 4)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.api.check_hand import VERDICTS
from scoring.engine import MAX_PLAYER_NAME
from scoring.engine.checker import Verdict
from tests.web.test_score_contract import run_cli

VAN = {
    "game": "phom",
    "players": [
        {"name": "An", "hand": "ab 2b 3b 4b 7c 7r 7t kc qc"},
        {"name": "Bình", "hand": "5c 6c 8c 9r 10r jr 2t 3t 4t"},
        {"name": "Chi", "hand": "K♠ Q♠ 9♣ 8♣ 6♦ 5♠"},
    ],
}


def test_cli_ranks_a_phom_van_from_the_cards() -> None:
    status, answer = run_cli("check_hand", VAN)
    assert status == 0
    assert answer["ranks"] == ["Bình", "An", "Chi"] and answer["winner"] is None
    assert [p["points"] for p in answer["players"]] == [25, 19, 13 + 12 + 9 + 8 + 6 + 5]
    assert answer["players"][2]["mom"] is True


def test_cli_refuses_a_card_in_two_hands() -> None:
    bad = {"game": "phom", "players": [{"name": "An", "hand": "kc"}, {"name": "Bình", "hand": "K♥"}]}
    status, answer = run_cli("check_hand", bad)
    assert status == 2 and "K Cơ có ở cả bài An và bài Bình" in answer["error"]


@pytest.mark.django_db
def test_api_matches_the_cli_and_answers_an_u() -> None:
    response = APIClient().post("/api/v1/check-hand", VAN, format="json")
    assert response.status_code == 200
    assert response.json() == run_cli("check_hand", VAN)[1]
    u = {
        "game": "phom",
        "players": [{"name": "An", "hand": "2c 3c"}, {"name": "Bình", "hand": "qb qt qr 5b 5t 5r 8b 8t 8r"}],
    }
    answer = APIClient().post("/api/v1/check-hand", [u, VAN], format="json").json()
    assert answer[0]["winner"] == "Bình" and answer[0]["ranks"] == []
    assert answer[1]["ranks"] == ["Bình", "An", "Chi"]


@pytest.mark.django_db
def test_api_errors_in_english_too() -> None:
    bad = {"game": "phom", "players": [{"name": "An", "hand": "kc"}]}
    response = APIClient().post("/api/v1/check-hand", bad, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "2" in response.json()["error"] and "4" in response.json()["error"]
    response = APIClient().post("/api/v1/check-hand", {"game": "phom", "hand": "kc"}, format="json")
    assert response.status_code == 400 and "hand" in response.json()["error"]


def test_the_schema_names_every_verdict() -> None:
    assert [v.value for v in Verdict] == VERDICTS


@pytest.mark.django_db
def test_a_five_copy_hand_says_so_through_the_api() -> None:
    hand = "7v " * 5 + "3m 3s 4v 5v 6v 2v 2m 2s 5m 6m 7m 9v 9m 9s 1v 1m"
    answer = APIClient().post("/api/v1/check-hand", {"game": "to-tom-5", "hand": hand}, format="json").json()
    assert answer["verdict"] == "qua_bon_quan" and "có 5 quân Thất Văn" in answer["message"]


# -- one bound for a player's name -------------------------------------------------------------------


def test_the_name_bound_is_the_database_column() -> None:
    from scoring.models.people import Player
    from scoring.models.sitting import Seat

    assert Player._meta.get_field("name").max_length == MAX_PLAYER_NAME
    assert Seat._meta.get_field("name").max_length == MAX_PLAYER_NAME


def test_a_replay_refuses_a_name_the_database_cannot_hold() -> None:
    long = "A" * (MAX_PLAYER_NAME + 1)
    status, answer = run_cli(
        "replay", {"game": "phom", "rules": "phom", "players": [long, "Bình"], "van": []}
    )
    assert status == 2 and f"{MAX_PLAYER_NAME} ký tự" in answer["error"]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["vi", "en"])
def test_a_players_name_is_refused_with_the_documented_bound(keeper_api, language) -> None:
    """Issue 31: 120 characters were refused as "dài quá 80" while docs/bounds.md said 120. The one
    bound (the database column) is the one the doc states, the API's schema and its refusal."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "bounds.md").read_text(encoding="utf-8")
    assert f"at most {MAX_PLAYER_NAME} characters (the database column)" in doc
    import uuid

    def create(name: str) -> object:
        return keeper_api.post(
            "/api/v1/players",
            {"name": name},
            format="json",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
            HTTP_ACCEPT_LANGUAGE=language,
        )

    assert create("A" * MAX_PLAYER_NAME).status_code == 201
    refused = create("B" * (MAX_PLAYER_NAME + 1))
    assert refused.status_code == 400 and str(MAX_PLAYER_NAME) in refused.json()["error"]
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert (
        schema["components"]["schemas"]["PlayerCreate"]["properties"]["name"]["maxLength"] == MAX_PLAYER_NAME
    )
