"""An ``Authorization`` header that is present decides alone (issue 30, item 3).

At 7854447 a browser holding a session cookie *and* a revoked token was served as the session's
account: DRF's session authentication ran first and won. Now the session is not read when the
call carries the header (:class:`scoring.api.auth.SessionAuthentication`): a wrong, revoked or
unknown-scheme credential is 401 with a challenge, whatever cookie comes with it.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.reliability.probe_setup import small_event
from tournaments.online.services.tokens import token_create, token_revoke

pytestmark = pytest.mark.django_db


def _browser(user: Any) -> Client:
    """A browser signed in to the site (session cookie, CSRF checks on as in a real browser)."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


@pytest.fixture
def private() -> Any:
    return small_event(prefix="H", is_public=False)


def _revoked_account_token(user: Any) -> str:
    token = Token.objects.create(user=user)
    key = token.key
    token.delete()  # an account token is revoked by deleting it
    return f"Token {key}"


def _revoked_platform_token(user: Any, event: Any) -> str:
    token, text = token_create(label="Chiếu Online", access="doc", created_by=user, event=event)
    token_revoke(token=token, by=user)
    return f"Bearer {text}"


@pytest.mark.parametrize("credential", ["revoked account token", "revoked platform token", "unknown scheme"])
def test_a_bad_header_is_401_even_with_a_valid_session(private: Any, credential: str) -> None:
    organiser = private.organiser
    browser = _browser(organiser)
    url = f"/api/v1/events/{private.event.slug}"
    assert browser.get(url).status_code == 200  # the session alone: the organiser sees the private event
    header = {
        "revoked account token": lambda: _revoked_account_token(organiser),
        "revoked platform token": lambda: _revoked_platform_token(organiser, private.event),
        "unknown scheme": lambda: "Basic YnRjLWg6bWF0LWtoYXUtZGFpLTEyMw==",
    }[credential]()
    refused = browser.get(url, HTTP_AUTHORIZATION=header)
    assert refused.status_code == 401, refused.content
    assert "Token" in refused["WWW-Authenticate"]
    assert private.event.name not in refused.content.decode()
    # A write is refused the same way (401, not served as the session, not a CSRF 403).
    write = browser.post(
        "/api/v1/sittings/import",
        {"table": private.table.pk, "event": private.event.slug},
        content_type="application/json",
        HTTP_AUTHORIZATION=header,
        HTTP_IDEMPOTENCY_KEY="k-1",
    )
    assert write.status_code == 401, write.content


def test_a_valid_header_acts_as_its_own_account_not_the_sessions(
    private: Any, django_user_model: Any
) -> None:
    """The header decides even when it is valid: a stranger's token in the organiser's browser is
    the stranger (404 for the private event), not the organiser."""
    stranger = django_user_model.objects.create_user("nguoi-la-h")
    browser = _browser(private.organiser)
    key = Token.objects.create(user=stranger).key
    answer = browser.get(f"/api/v1/events/{private.event.slug}", HTTP_AUTHORIZATION=f"Token {key}")
    assert answer.status_code == 404
    # Without a session at all, a good token of the organiser still works, and a 10 MB key is a 401.
    own = Token.objects.create(user=private.organiser).key
    assert (
        Client().get(f"/api/v1/events/{private.event.slug}", HTTP_AUTHORIZATION=f"Token {own}").status_code
        == 200
    )
    assert Client().get("/api/v1/sittings", HTTP_AUTHORIZATION="Token " + "x" * 10_000_000).status_code == 401
