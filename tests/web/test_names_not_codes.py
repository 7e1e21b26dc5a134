"""Pages show names, not internal codes (issue 19, item 8, part): the rule columns were headed by
their ids ('luat-2005') and the calculator showed the rules' hash."""

from __future__ import annotations

import re

import pytest

from scoring.engine.rules import load_rules

pytestmark = pytest.mark.django_db


def test_the_rule_columns_are_headed_by_names_only(client) -> None:
    page = client.get("/le-lang/").content.decode()
    heads = re.findall(r'<th scope="col"[^>]*>(.*?)</th>', page, flags=re.S)
    assert any("Luật Tổ Tôm 2005" in h for h in heads)
    assert not any("luat-2005" in re.sub(r"<[^>]+>", "", h) for h in heads)


def test_the_calculator_shows_no_rules_hash(client) -> None:
    page = client.post("/tinh-diem/", {"game": "to-tom-5", "rules": "luat-2005", "cuoc": ["tom"]}).content.decode()
    assert "Luật Tổ Tôm 2005" in page
    assert load_rules("luat-2005").fingerprint not in page
