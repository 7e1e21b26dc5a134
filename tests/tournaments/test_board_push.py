"""An event's public board pushed to its pages (tournaments/board.py): what the pages ask for and
how often, what each new board sends and to whom, and who may open a board's stream."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import override_settings

from tests.tournaments.conftest import record, seat_names
from tournaments import board
from tournaments.services.leaderboard import rebuild_leaderboard

pytestmark = pytest.mark.django_db


def board_tag(html: str) -> str:
    found = re.search(r'<section id="board"[^>]*>', html)
    assert found, html[:500]
    return found.group(0)


def test_where_nothing_can_push_a_board_its_page_asks_every_2_s(client, seated) -> None:
    event, _ = seated
    with override_settings(BOARD_PUSH=False):
        tag = board_tag(client.get(f"/giai/{event.slug}/").content.decode())
        assert 'hx-trigger="every 2s, board-missed"' in tag
        assert "data-board-stream" not in tag
        assert client.get(f"/su-kien/bang/{event.slug}/bang/vi/").status_code == 404


@override_settings(BOARD_PUSH=True)
def test_a_pushed_board_names_its_stream_and_asks_only_every_10_minutes(client, seated) -> None:
    event, _ = seated
    tag = board_tag(client.get(f"/giai/{event.slug}/").content.decode())
    assert 'hx-trigger="every 600s, board-missed"' in tag
    assert f'data-board-stream="/su-kien/bang/{event.slug}/bang/vi/"' in tag
    english = board_tag(client.get(f"/en/giai/{event.slug}/man-chieu/").content.decode())
    assert f'data-board-stream="/su-kien/bang/{event.slug}/chieu/en/"' in english
    assert f'hx-get="/en/giai/{event.slug}/man-chieu/?v=' in english


@override_settings(BOARD_PUSH=True)
def test_a_new_board_is_sent_once_for_each_page_in_each_language(seated, monkeypatch) -> None:
    event, tables = seated
    sent: list[tuple[str, str, Any]] = []
    monkeypatch.setattr(
        board, "send_event", lambda channel, kind, body, **kw: sent.append((channel, kind, body))
    )
    winner = seat_names(tables[0])[0]
    record(tables[0], 1, winner, ["chi_nay"])
    rebuilt = rebuild_leaderboard(event_id=event.pk)
    from tournaments.signals import standings_changed

    standings_changed.send(sender=None, event_id=event.pk, version=rebuilt.version)  # as the task does
    channels = sorted(channel for channel, _, _ in sent)
    assert channels == sorted(
        f"bxh-{event.pk}-{page}-{language}"
        for page in ("bang", "tat-ca", "chieu")
        for language in ("vi", "en")
    )
    assert {kind for _, kind, _ in sent} == {"board"}
    by_channel = {channel: body for channel, _, body in sent}
    vi, en = by_channel[f"bxh-{event.pk}-bang-vi"], by_channel[f"bxh-{event.pk}-bang-en"]
    assert f'"version":{rebuilt.version}' in vi
    assert winner in vi and "Bảng xếp hạng" in vi and "Chi Nẩy" in vi
    assert "Standings" in en and "Bảng xếp hạng" not in en
    # the projector shows its own top of the table, not the scoreboard's
    assert 'class=\\"projector-grid\\"' in by_channel[f"bxh-{event.pk}-chieu-vi"]


@override_settings(BOARD_PUSH=True)
def test_a_push_that_fails_leaves_the_board_stored_and_the_task_done(seated, monkeypatch, caplog) -> None:
    event, _ = seated

    def down(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("Pushpin is down")

    monkeypatch.setattr(board, "send_event", down)
    from tournaments.signals import standings_changed

    standings_changed.send(sender=None, event_id=event.pk, version=1)  # no exception reaches the task
    assert "Could not push" in caplog.text


@override_settings(BOARD_PUSH=True)
def test_a_private_events_board_stream_is_not_found_for_a_stranger(client, make_event) -> None:
    event = make_event(is_public=False)
    assert client.get(f"/su-kien/bang/{event.slug}/bang/vi/").status_code == 404
    public = make_event(name="Giải mở")
    assert client.get(f"/su-kien/bang/{public.slug}/khong-co/vi/").status_code == 404
    assert client.get(f"/su-kien/bang/{public.slug}/bang/fr/").status_code == 404
    from tournaments.console.broadcast import DisplayChannels

    channels = DisplayChannels()
    assert not channels.can_read_channel(None, board.channel_for(event.pk, "bang", "vi"))
    assert channels.can_read_channel(None, board.channel_for(public.pk, "bang", "vi"))
    assert not channels.is_channel_reliable(board.channel_for(public.pk, "bang", "vi"))
