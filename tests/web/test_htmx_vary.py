"""Every page may answer htmx with a fragment, so every answer says ``Vary: HX-Request``
(scoring.htmx.VaryOnHtmxMiddleware): a cache never hands a fragment to a full-page load."""

from __future__ import annotations

import pytest


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url", ["/", "/so-diem/", "/tinh-diem/", "/en/", "/api/v1/rule-sets", "/khong-co-trang-nay/"]
)
def test_every_answer_varies_on_hx_request(client, url: str) -> None:
    response = client.get(url)
    assert "HX-Request" in response.get("Vary", ""), (url, response.status_code, response.get("Vary"))
