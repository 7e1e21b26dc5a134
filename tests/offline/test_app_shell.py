"""The installable app's pieces, through Django's test client: the service worker at the site
root with the shell it caches, the manifest, and a sitting's offline pack."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest
from django.contrib.staticfiles import finders

from scoring.engine.rules import load_rules
from tests.factories import open_sitting, record_all

#: A scorekeeper's phone: signed in as ``keeper``, who opened the sittings.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("signed_in")]


def _static_name(url: str) -> str:
    return urlsplit(url).path.removeprefix("/static/")


def test_the_service_worker_is_served_at_the_root_with_the_shell_it_caches(client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    config = json.loads(body.split("\n", 1)[0].removeprefix("const SOTOM = ").rstrip(";"))
    assert config["offline"] == "/ngoai-tuyen/" and config["manifest"] == "/manifest.webmanifest"
    names = {_static_name(u) for u in config["shell"]}
    assert {
        "django_htmx/htmx-2.min.js",
        "css/sitting.css",
        "offline/outbox.js",
        "offline/offline.js",
    } <= names
    assert all(finders.find(name) for name in names)
    assert 'addEventListener("fetch"' in body
    assert client.get("/sw.js").content == response.content  # a stable version while nothing changes


def test_the_manifest_makes_an_installable_vietnamese_app(client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    data = response.json()
    assert data["short_name"] == "Sổ Tôm" and data["lang"] == "vi"
    assert data["start_url"] == "/so-diem/" and data["scope"] == "/" and data["display"] == "standalone"
    sizes = {(i["sizes"], i["purpose"]) for i in data["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    assert all(finders.find(_static_name(i["src"])) for i in data["icons"])


def test_the_sitting_pages_link_the_manifest_and_the_offline_scripts(client, keeper) -> None:
    sitting = open_sitting(created_by=keeper)
    html = client.get(f"/so-diem/{sitting.pk}/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert "offline/outbox.js" in html and "offline/offline.js" in html
    assert f'"sitting": {sitting.pk}, "pack": "/so-diem/{sitting.pk}/ngoai-tuyen.json"' in html
    english = client.get(f"/en/so-diem/{sitting.pk}/").content.decode()
    assert '"sw": "/sw.js"' in english  # one worker for every language


def test_the_offline_pack_has_the_rules_values_and_the_streak_so_far(client, keeper) -> None:
    sitting = open_sitting(created_by=keeper)
    record_all(
        sitting, [{"winner": "Bình", "cuoc": ["tom"]}, {"winner": "An"}, {"winner": "An", "cuoc": ["leo"]}]
    )
    pack = client.get(f"/so-diem/{sitting.pk}/ngoai-tuyen.json").json()
    rules = load_rules("luat-2005")
    assert pack["next_seq"] == 4
    assert pack["streak"] == {"holder": "An", "streak": 2}
    # Ván 3 is Lèo + Thông: 10 + 1 dịch × 2 = 12 from each of the four others.
    assert pack["balances"] == {
        "An": -8 + 4 * 4 + 4 * 12,
        "Bình": 4 * 8 - 4 - 12,
        "Chi": -24,
        "Dũng": -24,
        "Em": -24,
    }
    assert pack["rules"]["cuoc"]["thap_dieu"] == {"name": "Thập Điều", "main": 18, "dich": 3}
    assert pack["rules"]["plain"]["main"] == rules.suong
    assert pack["rules"]["streaks"]["2"] == {"slug": "thong", "name": "Thông", "main": 6, "dich": 1}
    assert pack["rules"]["streaks"]["3"]["name"] == "Tam Khôi"
    assert pack["rules"]["subsumes"] == {"chi_nay": ["leo"]}
    # what the phone settles the next ván from: the engine's state, the page's words
    assert pack["version"] == 3
    assert pack["state"]["balances"] == list(pack["balances"].values())
    assert (pack["state"]["streak_holder"], pack["state"]["streak"], pack["state"]["van_count"]) == (
        "An",
        2,
        3,
    )
    assert (
        pack["labels"]["ga"]["quan_lo"] == "quân lộ" and pack["labels"]["regimes"]["cheo_do"] == "Báo chèo đò"
    )
    assert pack["labels"]["accounts"] == {"pool": "Điểm làng", "ga_trong": "Gà trong"}
    assert [h["summary"] for h in pack["history"]] == ["Bình ù: Tôm", "An ù: Suông", "An ù: Lèo"]


def test_a_gom_sitting_carries_what_the_pool_needs(client, keeper) -> None:
    sitting = open_sitting(mode="gom", created_by=keeper)
    record_all(sitting, [{"winner": "Bình", "cuoc": ["tom"]}])
    pack = client.get(f"/so-diem/{sitting.pk}/ngoai-tuyen.json").json()
    rules = load_rules("luat-2005")
    assert pack["mode"] == "gom" and pack["rules"]["gom"] == rules.gom_amount(5)
    # the hội opened at ván 1 (everyone paid the gom) and the pool paid Bình's Tôm
    assert pack["state"]["hoi_open"] and pack["state"]["pool"] == 5 * rules.gom_amount(5) - 8
    assert client.get("/so-diem/999999/ngoai-tuyen.json").status_code == 404


def test_the_offline_page_lists_what_this_phone_keeps(client) -> None:
    html = client.get("/ngoai-tuyen/").content.decode()
    assert "Mất mạng" in html and 'id="offline-sittings"' in html
