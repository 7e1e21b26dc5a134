"""Demo data for `make run`: idempotent (looked up by natural keys, never duplicated)."""

from __future__ import annotations

from django.db import transaction

from scoring.models import VillageRuleSet
from scoring.services.rules import village_rules_save

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


@transaction.atomic
def load_demo() -> dict[str, int]:
    for item in DEMO_VILLAGE_RULES:
        if not VillageRuleSet.objects.filter(slug=item["slug"]).exists():
            village_rules_save(**item)
    return {"lệ làng": VillageRuleSet.objects.count()}
