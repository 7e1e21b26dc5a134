"""A canh opened with a village rule set names that set, not its base preset (issue 19, item 5):
its heading and its audit trail said "Luật Tổ Tôm 2005" while the village's values applied."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.utils import translation

from scoring.selectors.audit import sitting_audit
from scoring.services.rules import village_rules_save
from scoring.services.sittings import sitting_open

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("signed_in")]

PLAYERS = ["An", "Bình", "Chi", "Dũng", "Em"]


def shown_rules(client, url: str) -> str:
    page = client.get(url).content.decode()
    found = re.search(r'data-testid="rules-name">([^<]*)<', page)
    assert found, page[:500]
    return htmllib.unescape(found.group(1))


def test_the_heading_and_the_trail_name_the_village_rule_set_applied(client, keeper) -> None:
    village = village_rules_save(
        name="Lệ làng Đông", preset="luat-2005", overrides={"cuoc": {"kinh_cu": {"main": 24}}}
    )
    sitting = sitting_open(
        game="to-tom-5",
        rules=village.slug,
        mode="quang",
        players=PLAYERS,
        created_by=keeper,
        idempotency_key=None,
    ).obj
    assert sitting.rules.rules().cuoc["kinh_cu"].main == 24  # the village's values are the ones used
    assert (
        shown_rules(client, f"/so-diem/{sitting.pk}/")
        == "Lệ làng Đông (lệ làng, phiên bản 1, trên Luật Tổ Tôm 2005)"
    )
    assert "village rules, version 1" in shown_rules(client, f"/en/so-diem/{sitting.pk}/")
    with translation.override("vi"):  # the trail reads in the active language (the /en/ page left English on)
        opened = [e for e in sitting_audit(sitting) if e.action == "Mở canh bài"]
    assert "Lệ làng Đông" in opened[0].detail


def test_a_preset_canh_keeps_its_preset_name(client, keeper) -> None:
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=PLAYERS,
        created_by=keeper,
        idempotency_key=None,
    ).obj
    assert shown_rules(client, f"/so-diem/{sitting.pk}/") == "Luật Tổ Tôm 2005"
