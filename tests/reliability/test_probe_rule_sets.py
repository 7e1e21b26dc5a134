"""Probe (issue 20, finding 1): nobody but a rule set's owner changes it, and a change never
changes a sitting already opened.

The probe: a new account with no roles POSTed ``/le-lang/moi/`` with the name of the demo village's
rule set and ``main_tom=500``: 302, the set was replaced (``update_or_create`` by slug), and the
next sitting opened with it scored ù Tôm at 500. Now a rule set has an owner (a club: its
organisers; or a person); a save under a name people read as another owner's set is refused with a
message naming the owner; the owner's managers (and staff) save a new *version*, the old one kept
and immutable (the database refuses UPDATE and DELETE), and sittings keep the snapshot they were
opened with. The pages and ``GET /api/v1/rule-sets`` show each set's owner and version.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from django.core.management import call_command
from django.db import DatabaseError, transaction
from django.test import Client

from scoring.models import Club, ClubRole, ClubRoleKind, VillageRuleSet, VillageRuleSetVersion
from scoring.services.demo import DEMO_CLUB, DEMO_VILLAGE_RULES
from tests.factories import FIVE, new_key, record_all
from tests.reliability.harness import figure

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

DEMO = DEMO_VILLAGE_RULES[0]


def _client(user: Any) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def _tom_points(rules: str) -> int:
    answer = Client().post(
        "/api/v1/score",
        {"game": "to-tom-5", "rules": rules, "cuoc": ["tom"]},
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    return answer.json()["points"]


def _save(client: Client, name: str, main_tom: int, *, owner: str = "", prefix: str = "") -> Any:
    return client.post(
        f"{prefix}/le-lang/moi/",
        {
            "name": name,
            "preset": "luat-2005",
            "main_tom": str(main_tom),
            "dich_tom": "1",
            "tu_tru_cong_dich": "on",
            "owner": owner,
        },
    )


@pytest.fixture
def demo(django_user_model: Any) -> dict[str, Any]:
    call_command("load_demo", "--with-demo-user", stdout=open("/dev/null", "w"))  # noqa: SIM115
    club = Club.objects.get(slug=DEMO_CLUB["slug"])
    organiser = ClubRole.objects.get(club=club, role=ClubRoleKind.ORGANISER).user
    return {"club": club, "organiser": organiser, "set": VillageRuleSet.objects.get(slug=DEMO["slug"])}


def test_nobody_but_the_owners_managers_changes_a_village_rule_set(
    demo: dict[str, Any], django_user_model: Any
) -> None:
    village = demo["set"]
    before = _tom_points(village.slug)

    # People who are not the demo village's organisers, each trying the name as is and as people
    # would type it again (another case, decomposed, with a zero-width space).
    new_account = django_user_model.objects.create_user("tai-khoan-moi")
    keeper = django_user_model.objects.create_user("thu-ky-lang")
    ClubRole.objects.create(user=keeper, club=demo["club"], role=ClubRoleKind.SCOREKEEPER)
    player = django_user_model.objects.create_user("nguoi-choi-lang")
    ClubRole.objects.create(user=player, club=demo["club"], role=ClubRoleKind.PLAYER)
    other_organiser = django_user_model.objects.create_user("chu-so-lang-khac")
    other_club = Club.objects.create(name="Làng khác", slug="lang-khac")
    ClubRole.objects.create(user=other_organiser, club=other_club, role=ClubRoleKind.ORGANISER)
    names = [
        village.name,
        village.name.upper(),
        unicodedata.normalize("NFD", village.name),
        village.name.replace(" ", " \u200b"),
    ]
    attempts, replaced = 0, []
    for user in (new_account, keeper, player, other_organiser):
        client = _client(user)
        for name in names:
            for owner in ("", "lang-khac") if user is other_organiser else ("",):
                attempts += 1
                answer = _save(client, name, 500, owner=owner)
                if answer.status_code != 400 or "Đã có lệ làng" not in answer.content.decode():
                    replaced.append(f"{user.username} {name!r} owner={owner!r}: {answer.status_code}")
    village.refresh_from_db()
    figure("saves of another owner's rule set: attempts / accepted", f"{attempts} / {len(replaced)}")
    assert not replaced, "\n".join(replaced)
    assert _tom_points(village.slug) == before != 500
    assert village.owner_club == demo["club"] and village.version == 1
    assert VillageRuleSetVersion.objects.filter(rule_set=village).count() == 1

    # The refusal names the owner, in Vietnamese and, under /en/, in English.
    refusal = _save(_client(new_account), village.name, 500).content.decode()
    assert "của Làng mẫu Đông Ngạc" in refusal and "chủ sổ của Làng mẫu Đông Ngạc" in refusal
    english = _save(_client(new_account), village.name, 500, prefix="/en").content.decode()
    assert "already a rule set" in english and "Làng mẫu Đông Ngạc" in english


def test_the_owners_change_is_a_new_version_and_open_sittings_keep_theirs(demo: dict[str, Any]) -> None:
    from scoring.services.sittings import sitting_open

    village = demo["set"]
    before = _tom_points(village.slug)
    opened = sitting_open(
        game="to-tom-5", rules=village.slug, mode="quang", players=list(FIVE), idempotency_key=new_key()
    ).obj
    first = record_all(opened, [{"winner": "An", "cuoc": ["tom"]}])[0]
    assert first.points == before

    answer = _save(_client(demo["organiser"]), village.name, before + 30)
    assert answer.status_code == 302, answer.content.decode()
    village.refresh_from_db()
    assert village.version == 2
    versions = list(VillageRuleSetVersion.objects.filter(rule_set=village).order_by("number"))
    assert [v.number for v in versions] == [1, 2]
    assert versions[0].overrides == DEMO["overrides"] and versions[1].created_by == demo["organiser"]
    assert _tom_points(village.slug) == before + 30

    # The sitting opened with version 1 scores with version 1, before and after the change.
    second = record_all(opened, [{"winner": "Bình", "cuoc": ["tom"]}])[0]
    assert second.points == before
    call_command("ledger_check", stdout=open("/dev/null", "w"))  # noqa: SIM115
    newer = sitting_open(
        game="to-tom-5", rules=village.slug, mode="quang", players=list(FIVE), idempotency_key=new_key()
    ).obj
    assert record_all(newer, [{"winner": "An", "cuoc": ["tom"]}])[0].points == before + 30

    # A version is never edited nor deleted, by the app or by SQL.
    for attempt in (
        lambda: VillageRuleSetVersion.objects.filter(pk=versions[0].pk).update(overrides={}),
        lambda: VillageRuleSetVersion.objects.filter(pk=versions[0].pk).delete(),
    ):
        with pytest.raises(DatabaseError), transaction.atomic():
            attempt()
    assert VillageRuleSetVersion.objects.get(pk=versions[0].pk).overrides == DEMO["overrides"]


def test_a_persons_set_is_theirs_and_staffs_and_the_pages_say_whose(django_user_model: Any) -> None:
    owner = django_user_model.objects.create_user("ong-lap")
    other = django_user_model.objects.create_user("nguoi-khac")
    staff = django_user_model.objects.create_user("quan-tri", is_staff=True)
    assert _save(_client(owner), "Lệ làng Ông Lập", 77).status_code == 302
    assert _save(_client(other), "lệ làng ông lập", 500).status_code == 400
    assert _save(_client(owner), "Lệ làng Ông Lập", 78).status_code == 302
    assert _save(_client(staff), "Lệ làng Ông Lập", 79).status_code == 302
    village = VillageRuleSet.objects.get(name="Lệ làng Ông Lập")
    assert (village.owner_user, village.version, _tom_points(village.slug)) == (owner, 3, 79)
    # A club's set only by its organisers: someone who organises no club cannot give it one.
    club = Club.objects.create(name="Làng Mọc", slug="lang-moc")
    assert _save(_client(other), "Lệ làng Mọc", 40, owner="lang-moc").status_code == 400
    ClubRole.objects.create(user=other, club=club, role=ClubRoleKind.ORGANISER)
    assert _save(_client(other), "Lệ làng Mọc", 40, owner="lang-moc").status_code == 302
    assert VillageRuleSet.objects.get(name="Lệ làng Mọc").owner_club == club

    page = Client().get("/le-lang/").content.decode()
    assert "của ong-lap · phiên bản 3" in page and "của Làng Mọc · phiên bản 1" in page
    assert "by ong-lap · version 3" in Client().get("/en/le-lang/").content.decode()
    listed = {r["slug"]: r for r in Client().get("/api/v1/rule-sets").json()}
    assert listed[village.slug]["owner"] == {"kind": "person", "slug": None, "name": "ong-lap"}
    assert listed[village.slug]["version"] == 3
    club_set = VillageRuleSet.objects.get(name="Lệ làng Mọc").slug
    assert listed[club_set]["owner"] == {"kind": "club", "slug": "lang-moc", "name": "Làng Mọc"}
    assert listed["luat-2005"]["owner"] is None and listed["luat-2005"]["version"] is None
