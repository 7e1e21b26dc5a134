"""Probe (issue 20, finding 12): names are one name when people read them as one.

The probe: "Bình" composed (NFC) and decomposed (NFD: "i" + U+0300) made two seats of one sitting,
and names of zero-width characters only were accepted. Every name now enters through
``scoring.names.clean_name`` (NFC, invisible characters dropped, spaces tidied, empty refused) and
names compare by ``scoring.names.name_key`` (case and the tone mark's place do not count; accents
do): players, seats in a sitting, registrations at an event, clubs (rule-set names: see
``test_probe_rule_sets.py``).
"""

from __future__ import annotations

import datetime as dt
import unicodedata
import uuid
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.engine.errors import EngineError
from scoring.models import ClubRole, ClubRoleKind, Player, Seat
from tests.reliability.harness import figure

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

NFC = "Bình"
NFD = unicodedata.normalize("NFD", NFC)
INVISIBLE = ["\u200b", "\u200b\u200c\u200d", "\ufeff", "\u2060\u00ad", "\u202e\u200f", " \u3164 ", "\u0301"]


@pytest.fixture
def api(django_user_model: Any) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.credentials(
        HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=django_user_model.objects.create_user('ghi')).key}"
    )
    return client


def _post(api: APIClient, url: str, body: dict[str, Any]) -> Any:
    return api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))


def _sitting(api: APIClient, players: list[str], **extra: Any) -> Any:
    return _post(
        api,
        "/api/v1/sittings",
        {"game": "to-tom-5", "rules": "luat-2005", "mode": "quang", "players": players, **extra},
    )


def test_one_name_written_two_ways_is_one_seat_not_two(api: APIClient) -> None:
    assert NFC != NFD
    same_name = {
        "composed and decomposed": [NFC, NFD],
        "upper and lower case": [NFC, "BÌNH"],
        "old and new tone placement": ["Hoà", "Hòa"],
        "with a zero-width space": [NFC, "Bì\u200bnh"],
        "with doubled and odd spaces": ["Bình An", "Bình\u00a0 An"],
        "capital eth for Đ": ["Đức", "\u00d0ức"],
    }
    accepted = []
    for what, (a, b) in same_name.items():
        answer = _sitting(api, ["An", a, "Chi", "Dũng", b])
        if answer.status_code != 400:
            accepted.append(f"{what}: {answer.status_code} {answer.json().get('seats')}")
        elif "cùng tên" not in answer.json()["error"]:
            accepted.append(f"{what}: refused for another reason: {answer.json()['error']}")
    figure(
        "one name written two ways as two seats: attempts / accepted", f"{len(same_name)} / {len(accepted)}"
    )
    assert not accepted, "\n".join(accepted)
    # Accents count: Binh, Bình and Bính are three people.
    ok = _sitting(api, ["Binh", "Bình", "Bính", "Dũng", "Em"])
    assert ok.status_code == 201, ok.json()
    assert [s["name"] for s in ok.json()["seats"]] == ["Binh", "Bình", "Bính", "Dũng", "Em"]


def test_names_of_invisible_characters_only_are_refused_everywhere(api: APIClient) -> None:
    from tournaments.services.events import event_create, registration_add

    event = event_create(name="Hội làng thử", date=dt.date(2025, 2, 3), game="to-tom-5", rules="luat-2005")
    entries = {
        "player": lambda name: _post(api, "/api/v1/players", {"name": name}),
        "club": lambda name: _post(api, "/api/v1/clubs", {"name": name}),
        "seat": lambda name: _sitting(api, ["An", name, "Chi", "Dũng", "Em"]),
    }
    attempts, accepted = 0, []
    for name in INVISIBLE:
        for where, send in entries.items():
            attempts += 1
            answer = send(name)
            if answer.status_code != 400:
                accepted.append(f"{where} {name!r}: {answer.status_code}")
        attempts += 1
        try:
            registration_add(event=event, name=name)
            accepted.append(f"registration {name!r}")
        except EngineError as exc:
            assert "Hãy nhập tên" in exc.message
    figure("names of invisible characters only: attempts / accepted", f"{attempts} / {len(accepted)}")
    assert not accepted, "\n".join(accepted)
    assert not Player.objects.exists()


def test_names_are_stored_composed_and_clean_and_found_again(api: APIClient, django_user_model: Any) -> None:
    answer = _post(api, "/api/v1/players", {"name": f"  {NFD}\u200b  Nguyễn\t"})
    assert answer.status_code == 201
    assert answer.json()["name"] == "Bình Nguyễn"
    assert Player.objects.get().name == unicodedata.normalize("NFC", "Bình Nguyễn")

    # A club's player typed again in another case or form is the same player, seated by their name.
    club = _post(api, "/api/v1/clubs", {"name": "Làng Mọc"}).json()
    first = _sitting(api, ["An", NFC, "Chi", "Dũng", "Em"], club=club["slug"]).json()
    again = _sitting(api, ["an", NFD, "CHI", "dũng", "EM"], club=club["slug"]).json()
    assert [s["player_id"] for s in again["seats"]] == [s["player_id"] for s in first["seats"]]
    assert [s["name"] for s in again["seats"]] == ["An", NFC, "Chi", "Dũng", "Em"]
    assert Seat.objects.filter(name=NFD).count() == 0


def test_clubs_and_registrations_people_read_as_one_are_refused(
    api: APIClient, django_user_model: Any
) -> None:
    from tournaments.services.events import event_create, registration_add

    assert _post(api, "/api/v1/clubs", {"name": "Làng Bình Đà"}).status_code == 201
    twins = ["làng bình đà", unicodedata.normalize("NFD", "LÀNG BÌNH ĐÀ"), "Làng  Bình\u200b Đà"]
    accepted = []
    for i, name in enumerate(twins):
        answer = _post(api, "/api/v1/clubs", {"name": name, "slug": f"khac-{i}"})
        if answer.status_code != 400:
            accepted.append(f"club {name!r}: {answer.status_code}")
    event = event_create(name="Hội xuân", date=dt.date(2025, 2, 3), game="to-tom-5", rules="luat-2005")
    registration_add(event=event, name="Hoà")
    for name in ("hoà", "HÒA", unicodedata.normalize("NFD", "Hòa")):
        try:
            registration_add(event=event, name=name)
            accepted.append(f"registration {name!r}")
        except EngineError as exc:
            assert "đã có người tên" in exc.message
    figure("clubs and registrations read as one: attempts / accepted", f"{len(twins) + 3} / {len(accepted)}")
    assert not accepted, "\n".join(accepted)
    registration_add(event=event, name="Hoa")  # another name: no accent
    assert ClubRole.objects.filter(role=ClubRoleKind.ORGANISER).count() == 1
