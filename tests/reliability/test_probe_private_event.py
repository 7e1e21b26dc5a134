"""A private event's name, players and live signals stay private on every public surface.

Finding 5 of issue 20: the audience display ``/man-hinh/<id>/``, its timeline, the SSE stream
``/su-kien/ban/<id>/``, ``GET /api/v1/tables/<id>/signals``, the table page and its PIN page showed a
private event's name, players and signals to visitors while ``/giai/<slug>/`` was 404. Each now asks
the one rule :func:`tournaments.permissions.visible` (``tournaments.view_event``); the SSE stream also
through django-eventstream's channel manager (:class:`tournaments.console.broadcast.DisplayChannels`).
The matrix holds the statuses (``test_authz_matrix.py``, its private side); this probe reads what the
answers *contain*, for a visitor and for a signed-in stranger, and streams through a real daphne.
"""

from __future__ import annotations

import http.client
import time
from typing import Any

import pytest
from django.test import Client

from tests.reliability.harness import HOST, AppServer
from tests.reliability.probe_setup import Small, small_event

DIEM = "to-tom-diem"


def _festival(small: Small) -> Any:
    from tournaments.console.services import ensure_catalogue, signal_send, table_open

    ensure_catalogue()
    festival = table_open(name="Sân đình", event_table=small.table, created_by=small.organiser)
    signal_send(table=festival, seat=3, signal="tung-tung", by=small.organiser)
    return festival


def _secrets(small: Small) -> list[str]:
    """What must not reach someone who may not see the event."""
    return [small.event.name, *small.seat_names()]


def _surfaces(small: Small, festival: Any) -> dict[str, str]:
    return {
        "display": f"/man-hinh/{festival.pk}/",
        "timeline": f"/man-hinh/{festival.pk}/dien-bien/",
        "signals API": f"/api/v1/tables/{festival.pk}/signals",
        "SSE stream": f"/su-kien/ban/{festival.pk}/",
        "table page": small.table_url(),
        "PIN page": f"{small.table_url()}ma-pin/",
        "scoreboard": f"/giai/{small.event.slug}/",
    }


@pytest.mark.django_db
def test_nothing_of_a_private_event_reaches_a_stranger(probe: Any, django_user_model: Any) -> None:
    small = small_event(prefix="K", is_public=False, game=DIEM)
    festival = _festival(small)
    stranger = Client()
    stranger.force_login(django_user_model.objects.create_user("nguoi-la"))
    for who, client in (("visitor", Client()), ("stranger", stranger)):
        for what, url in _surfaces(small, festival).items():
            answer = client.get(url)
            if what in ("table page", "PIN page"):  # the PIN form stays reachable: a PIN holder needs it
                ok = answer.status_code in (200, 403) and b'name="pin"' in answer.content
            else:
                ok = answer.status_code == 404
            body = b"" if getattr(answer, "streaming", False) else answer.content
            leaked = [s for s in _secrets(small) if s.encode() in body]
            probe.check(ok and not leaked, f"{who} {what}: {answer.status_code}, shows {leaked}")


@pytest.mark.django_db
def test_those_who_take_part_and_a_public_event_still_see_everything(probe: Any) -> None:
    """The control: the organiser sees the private event's display; a public event is public."""
    private = small_event(prefix="K", is_public=False, game=DIEM)
    public = small_event(prefix="M", game=DIEM)
    for small, client in ((private, Client()), (public, Client())):
        if small is private:
            client.force_login(small.organiser)
        festival = _festival(small)
        for what, url in _surfaces(small, festival).items():
            if what in ("SSE stream", "table page", "PIN page"):
                continue  # a stream never ends in the test client; the table needs a PIN or a role
            answer = client.get(url)
            probe.check(answer.status_code == 200, f"{small.event.name} {what}: {answer.status_code}")
        probe.check(
            small.seat_names()[0].encode() in client.get(f"/man-hinh/{festival.pk}/").content,
            f"{small.event.name}: the display does not name the players",
        )


@pytest.mark.django_db
def test_the_channel_manager_refuses_a_private_tables_channel(probe: Any) -> None:
    from tournaments.console.broadcast import DisplayChannels, channel_for

    private, public = small_event(prefix="K", is_public=False, game=DIEM), small_event(prefix="M", game=DIEM)
    hidden, shown = _festival(private), _festival(public)
    channels = DisplayChannels()
    probe.check(
        not channels.can_read_channel(None, channel_for(hidden.pk)), "a visitor may read a private channel"
    )
    probe.check(channels.can_read_channel(private.organiser, channel_for(hidden.pk)), "the organiser may not")
    probe.check(
        channels.can_read_channel(None, channel_for(shown.pk)), "a visitor may not read a public channel"
    )
    for name in ("ban-999999", "user-1", "ban-1 ", "", f"ban-{hidden.pk}x"):
        probe.check(not channels.can_read_channel(None, name), f"an unknown channel is readable: {name!r}")


def _stream_head(server: AppServer, path: str, until: bytes = b"tung-tung") -> tuple[int, bytes]:
    """The status and what the real server streams within a few seconds (or until ``until``)."""
    conn = http.client.HTTPConnection(HOST, server.port, timeout=5)
    try:
        conn.request("GET", path, headers={"Accept": "text/event-stream"})
        response = conn.getresponse()
        if response.status != 200:
            return response.status, response.read()
        body, deadline = b"", time.monotonic() + 5
        while until not in body and time.monotonic() < deadline:
            try:
                chunk = response.read1(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            body += chunk
        return response.status, body
    finally:
        conn.close()


@pytest.mark.django_db(transaction=True)
def test_the_sse_stream_of_a_private_table_is_404_through_daphne(app_server: AppServer, probe: Any) -> None:
    private, public = small_event(prefix="K", is_public=False, game=DIEM), small_event(prefix="M", game=DIEM)
    hidden, shown = _festival(private), _festival(public)
    status, body = _stream_head(app_server, f"/su-kien/ban/{hidden.pk}/")
    probe.check(status == 404 and b"tung-tung" not in body, f"private stream: {status} {body[:200]!r}")
    # With the last event's id to resume from, the stored signal would be replayed at once.
    status, body = _stream_head(app_server, f"/su-kien/ban/{hidden.pk}/?lastEventId=ban-{hidden.pk}%3A0")
    probe.check(
        status == 404 and b"tung-tung" not in body, f"private stream resumed: {status} {body[:200]!r}"
    )
    status, body = _stream_head(app_server, f"/su-kien/ban/{shown.pk}/?lastEventId=ban-{shown.pk}%3A0")
    probe.check(
        status == 200 and b"stream-open" in body and b"tung-tung" in body,
        f"public stream: {status} {body[:300]!r}",
    )
