"""Demo data for `make run`: idempotent (looked up by natural keys, never duplicated).

With ``with_user`` (``load_demo --with-demo-user``, or any run with DEBUG on) it also makes a demo
organiser account, ``thu-ky`` / ``so-tom-demo``, who owns a demo village (chủ sổ) and a demo
sitting with a few ván in it, so that a fresh `make run` has someone to sign in as.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from scoring.models import Club, ClubKind, ClubRole, ClubRoleKind, Sitting, VillageRuleSet
from scoring.services.rules import village_rules_save

__all__ = ["DEMO_CLUB", "DEMO_PASSWORD", "DEMO_USERNAME", "load_demo"]

DEMO_VILLAGE_RULES = [
    {
        "slug": "lang-mau-kinh-cu-24",
        "name": "Làng mẫu: Kính Cụ 24, Bạch Định 16",
        "preset": "luat-2005",
        "description": "Một lệ làng trong các chủ đề bàn luận: Kính Cụ 24, Bạch Định 16, Thập Điều 16, "
        "Chi Nẩy 24, Kính Tứ Cố 50.",
        "overrides": {
            "cuoc": {
                "kinh_cu": {"main": 24, "boi": None},
                "bach_dinh": {"main": 16, "boi": None},
                "thap_dieu": {"main": 16, "boi": None},
                "chi_nay": {"main": 24, "boi": None},
                "kinh_tu_co": {"main": 50, "boi": None},
            }
        },
    },
]

#: The demo organiser's account (printed by ``load_demo``; never made unless asked for).
DEMO_USERNAME = "thu-ky"
DEMO_PASSWORD = "so-tom-demo"
DEMO_CLUB = {"slug": "lang-mau-dong-ngac", "name": "Làng mẫu Đông Ngạc", "kind": ClubKind.VILLAGE}
DEMO_SITTING = {"title": "Canh bài mẫu ở đình làng", "game": "to-tom-5", "rules": "luat-2005", "mode": "quang",
                "players": ["Cụ Tư", "Bác Năm", "Chú Sáu", "Anh Bảy", "Cô Tám"]}
DEMO_VAN = [
    {"winner": "Cụ Tư", "cuoc": ["tom"], "discarder": "Bác Năm"},
    {"winner": "Cụ Tư", "cuoc": ["leo"]},
    {"result": "hoa"},
    {"winner": "Anh Bảy", "cuoc": ["thap_dieu"], "chiu": ["Cô Tám"]},
]


def _demo_user() -> Any:
    users = get_user_model().objects
    user = users.filter(username=DEMO_USERNAME).first()
    if user is None:
        user = users.create_user(DEMO_USERNAME, password=DEMO_PASSWORD)
    return user


def _demo_club(user: Any) -> Club:
    club, _ = Club.objects.get_or_create(slug=DEMO_CLUB["slug"], defaults={"name": DEMO_CLUB["name"],
                                                                          "kind": DEMO_CLUB["kind"]})
    ClubRole.objects.get_or_create(user=user, club=club, role=ClubRoleKind.ORGANISER, defaults={"granted_by": user})
    return club


def _demo_sitting(user: Any, club: Club) -> None:
    from scoring.services.sittings import sitting_open, van_record

    if Sitting.objects.filter(club=club, title=DEMO_SITTING["title"]).exists():
        return
    sitting = sitting_open(club=club, created_by=user, idempotency_key=None, **DEMO_SITTING).obj
    for seq, record in enumerate(DEMO_VAN, start=1):
        van_record(sitting=sitting, seq=seq, record=record, idempotency_key=None, entered_by=user)


@transaction.atomic
def load_demo(*, with_user: bool = False) -> dict[str, int]:
    """Load the demo data; with ``with_user`` also the demo organiser, its village and a sitting."""
    for item in DEMO_VILLAGE_RULES:  # owned by the demo village, whose organisers change them
        owner, _ = Club.objects.get_or_create(slug=DEMO_CLUB["slug"], defaults={"name": DEMO_CLUB["name"],
                                                                               "kind": DEMO_CLUB["kind"]})
        if not VillageRuleSet.objects.filter(slug=item["slug"]).exists():
            village_rules_save(**item, owner_club=owner)
        VillageRuleSet.objects.filter(slug=item["slug"], owner_club=None, owner_user=None).update(owner_club=owner)
    summary = {"lệ làng": VillageRuleSet.objects.count()}
    if with_user:
        user = _demo_user()
        club = _demo_club(user)
        _demo_sitting(user, club)
        summary["canh bài mẫu"] = Sitting.objects.filter(club=club).count()
    return summary
