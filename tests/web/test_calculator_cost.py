"""The calculator page's cost (issue 32: ≥ 0.7 × the reference page): one query however many village
rule sets are saved, and the parts kept in the "fragments" cache (the page frame, the form's fixed
parts, the chips, the streak stepper, the breakdown) are the page as rendered fresh, with nothing of
the request (CSRF token, account, path) ever served from another request."""

from __future__ import annotations

import html as htmllib
import re
from typing import Any

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.services.rules import village_rules_save

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


@pytest.fixture(autouse=True)
def _no_kept_fragments() -> None:
    caches["fragments"].clear()


def page(client: Any, path: str = "/", data: dict[str, Any] | None = None, **headers: str) -> str:
    response = client.post(path, data, **headers) if data is not None else client.get(path, **headers)
    assert response.status_code == 200
    return htmllib.unescape(response.content.decode())


def tokens(html: str) -> set[str]:
    """Every CSRF token the page carries (the forms' hidden inputs and htmx's header)."""
    return set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)) | set(
        re.findall(r'"X-CSRFToken": "([^"]+)"', html)
    )


def rules_offered(html: str) -> list[str]:
    select = re.search(r'<select id="rules" name="rules">(.*?)</select>', html, re.S)
    assert select
    return re.findall(r'<option value="([^"]+)"', select.group(1))


def test_the_calculator_reads_one_query_however_many_village_rule_sets(client: Any) -> None:
    for n in range(6):
        village_rules_save(name=f"Làng {n}", preset="luat-2005", overrides={"stake": 10 + n})
    village_rules_save(name="Chắn làng Đông", preset="chan", overrides={})
    # built on Phỏm's preset, its rules are Tài Bàn's: offered with Tài Bàn, as its rules say
    village_rules_save(name="Tài Bàn xóm Bắc", preset="phom", overrides={"family": "tai_ban"})
    for path in ("/", "/", "/en/", "/?game=chan"):  # fresh, then from the kept fragments
        with CaptureQueriesContext(connection) as queries:
            html = page(Client(), path)
        assert len(queries) == 1, [q["sql"] for q in queries.captured_queries]
        selected = queries.captured_queries[0]["sql"].split(" FROM ")[0]
        assert '"spec"' not in selected  # slugs and names, not every set's rules
        assert "JOIN" not in queries.captured_queries[0]["sql"]
    to_tom = rules_offered(page(client, "/"))
    assert to_tom[:4] == ["luat-2005", "suong4-dich2", "suong2-dich1", "hoi-50"]
    assert to_tom[4:] == [f"lang-{n}" for n in range(6)]  # the village's own, by name, after the presets
    assert rules_offered(html) == ["chan", "chan-lang-dong"]  # each game offers the sets of its family
    assert "Chắn làng Đông ★" in html
    assert rules_offered(page(client, "/?game=tai-ban")) == ["tai-ban", "tai-ban-xom-bac"]
    assert "tai-ban-xom-bac" not in rules_offered(page(client, "/?game=phom"))


def test_the_kept_fragments_are_the_page_rendered_fresh() -> None:
    """The same request gives the same page whether its fragments were kept or not, and each
    language, menu entry, game, streak and choice of cước gets its own."""

    def masked(html: str) -> str:
        for token in tokens(html):
            html = html.replace(token, "TOKEN")
        return html

    requests: list[tuple[str, dict[str, Any] | None, dict[str, str]]] = [
        ("/", None, {}),
        ("/en/", None, {}),
        ("/?game=phom", None, {}),
        ("/tinh-diem/", {"game": "to-tom-5", "cuoc": ["tom", "leo"], "streak": "3"}, {}),
        (
            "/tinh-diem/",
            {"game": "to-tom-5", "cuoc": ["tom"], "streak": "3", "step": "1"},
            {"HTTP_HX_REQUEST": "true"},
        ),
        ("/en/tinh-diem/", {"game": "chan", "cuoc": ["xuong"], "streak": "2"}, {}),
        ("/kiem-bai/", None, {}),
    ]
    fresh = []
    for path, data, headers in requests:
        caches["fragments"].clear()
        fresh.append(masked(page(Client(), path, data, **headers)))
    kept = [masked(page(Client(), path, data, **headers)) for path, data, headers in requests]
    assert kept == fresh
    # what differs between them is shown, never another request's fragment
    assert '<html lang="en">' in kept[1] and 'aria-current="page">Score a win' in kept[1]
    assert 'aria-current="page">Tính điểm' in kept[0] and "Score a win" not in kept[0]
    assert 'aria-current="page">Kiểm bài' in kept[6] and 'aria-current="page">Tính điểm' not in kept[6]
    assert 'aria-live="polite">3</output>' in kept[3] and 'aria-live="polite">4</output>' in kept[4]
    total = re.compile(r'data-testid="points">(\d+) ')
    assert total.search(kept[3]) and total.search(kept[4])
    assert total.search(kept[3]).group(1) != total.search(kept[4]).group(1)  # type: ignore[union-attr]
    assert '<option value="phom" selected>' in kept[2] and '<option value="to-tom-5" selected>' in kept[0]


def test_nothing_of_the_request_comes_from_a_kept_fragment(client: Any, keeper: Any) -> None:
    first, second = page(Client(), "/"), page(Client(), "/?game=chan")
    assert len(tokens(first)) == 1 and len(tokens(second)) == 1 and tokens(first) != tokens(second)
    assert 'href="/dang-nhap/?next=/%3Fgame%3Dchan"' in second and 'href="/dang-nhap/?next=/"' in first
    client.force_login(keeper)
    mine = page(client, "/")
    assert "Đăng xuất (thu-ky-test)" in mine and "Đăng nhập" not in mine


def test_a_csp_nonce_given_to_the_frame_is_the_request_s() -> None:
    """htmx's script tag carries the context's ``csp_nonce`` when there is one: it is never kept."""
    from django.contrib.auth.models import AnonymousUser
    from django.template.loader import render_to_string
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    for nonce in ("nonce-one", "nonce-two"):
        frame = render_to_string("base.html", {"csp_nonce": nonce, "nav": "calculator"}, request=request)
        assert f'nonce="{nonce}"' in frame
