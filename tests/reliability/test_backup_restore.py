"""Backup and restore: an event (every sitting, ván version, ledger transaction, rule set, person)
exported to one JSON file with ``manage.py event_export`` and imported with ``event_import`` into
an emptied database reads back equal: every balance, leaderboard row and history entry."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from scoring.engine.errors import EngineError
from scoring.models import IdempotencyKey, LedgerTransaction, Posting, Sitting, Van
from scoring.selectors.ledger import balances, ledger_differences, sitting_history, van_list
from scoring.services.review import van_confirm, van_reject
from scoring.services.sittings import sitting_settle_up
from tests.reliability.festival import festival, play, seat_names
from tests.reliability.harness import figure
from tournaments.models import Event, EventRole, Leaderboard, ScorekeeperToken, Table, TableSitting
from tournaments.selectors.audit import event_audit
from tournaments.services.events import check_in, check_in_by_token, registration_add, registration_withdraw
from tournaments.services.leaderboard import rebuild_leaderboard
from tournaments.services.roles import organiser_add, organiser_remove, role_grant, role_revoke
from tournaments.services.rounds import round_seat
from tournaments.services.tables import table_close
from tournaments.services.tokens import token_for_secret, token_issue, token_revoke
from tournaments.services.van import event_van_correct

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _played_event(django_user_model: Any) -> Event:
    """Two rounds of a festival with two-person confirmation (standings count confirmed ván only):
    ván by a scorekeeper, most confirmed by the organiser, one rejected, a correction, a table settled up."""
    organiser = django_user_model.objects.create_user("ban-to-chuc")
    keeper = django_user_model.objects.create_user("ghi-diem")
    rng = random.Random(3)
    event, tables = festival(created_by=organiser, confirmation_required=True, count_confirmed_only=True)
    for _ in range(6):
        for table in tables:
            play(table, rng, entered_by=keeper)
    for table in tables:
        for seq in (1, 3, 4, 5):
            van_confirm(sitting=table.sitting, seq=seq, reviewer=organiser)
    van_reject(sitting=tables[1].sitting, seq=6, reviewer=organiser, reason="chưa đủ cước")
    second = Van.objects.get(sitting=tables[0].sitting, seq=2, is_current=True)
    names = seat_names(tables[0])
    event_van_correct(
        van=second,
        record={"winner": names[3], "cuoc": ["thap_dieu"], "discarder": names[0]},
        reason="ghi nhầm người ù",
        corrected_by=organiser,
        idempotency_key="sua-1",
    )
    sitting_settle_up(sitting=tables[1].sitting, settled_by=organiser, idempotency_key="thanh-toan-1")
    round_seat(event=event, method="rotation", seed=12, created_by=organiser)
    for table in Table.objects.filter(event=event, round__number=2):
        for _ in range(4):
            play(table, rng, entered_by=keeper)
    # A late arrival registered and checked in by the organiser, then withdrawn: who did each is kept.
    late = registration_add(event=event, name="Người đến muộn", team="Giáp Nam", by=organiser)
    registration_withdraw(registration=check_in(registration=late, by=organiser), by=organiser)
    # Another checks in with their own QR code at the gate: the trail says so, not "—".
    check_in_by_token(token=registration_add(event=event, name="Người tự điểm danh", by=organiser).token)
    rebuild_leaderboard(event_id=event.pk, force=True)
    return event


def _picture(slug: str) -> dict[str, Any]:
    """Everything a user can read back about the event."""
    event = Event.objects.get(slug=slug)
    board = Leaderboard.objects.get(event=event)
    sittings = Sitting.objects.filter(pk__in=Table.objects.filter(event=event).values("sitting")).order_by(
        "pk"
    )
    return {
        "board": (board.rows, board.teams, board.van_count),
        "event": (
            event.name,
            event.date,
            event.rules.fingerprint,
            event.mode,
            event.tie_breaks,
            event.confirmation_required,
            event.count_confirmed_only,
            sorted(event.organisers.values_list("username", flat=True)),
        ),
        "registrations": sorted(
            event.registrations.values_list(
                "player_id",
                "player__name",
                "team",
                "status",
                "token",
                "created_at",
                "checked_in_at",
                "withdrawn_at",
                "registered_by__username",
                "checked_in_by__username",
                "checked_in_own_link",
                "withdrawn_by__username",
            )
        ),
        "tables": sorted(
            Table.objects.filter(event=event).values_list("round__number", "number", "sitting_id")
        ),
        # The organisers' audit trail: who did what and when, every entry.
        "trail": event_audit(event, limit=1000),
        "sittings": {
            s.pk: {
                "balances": balances(s).to_dict(),
                "play": balances(s, play_only=True).players,
                "history": sitting_history(s),
                "van": van_list(s, include_superseded=True),
                "ended_at": s.ended_at,
                "rules": s.rules.spec,
            }
            for s in sittings
        },
    }


def test_an_event_restored_into_an_empty_database_reads_back_equal(
    django_user_model: Any, tmp_path: Path
) -> None:
    event = _played_event(django_user_model)
    before = _picture(event.slug)
    counts = (
        Sitting.objects.count(),
        Van.objects.count(),
        LedgerTransaction.objects.count(),
        Posting.objects.count(),
    )
    backup = tmp_path / "giai.json"
    call_command("event_export", event.slug, output=str(backup))

    call_command("flush", interactive=False, verbosity=0)
    assert (Event.objects.count(), Sitting.objects.count(), Posting.objects.count()) == (0, 0, 0)
    call_command("event_import", str(backup), stdout=open(tmp_path / "out.txt", "w"))  # noqa: SIM115

    after = _picture(event.slug)
    assert after["sittings"].keys() == before["sittings"].keys()
    for pk, sitting in before["sittings"].items():
        assert after["sittings"][pk] == sitting, f"sitting {pk} differs after the restore"
    assert after == before
    assert (
        Sitting.objects.count(),
        Van.objects.count(),
        LedgerTransaction.objects.count(),
        Posting.objects.count(),
    ) == counts
    assert [d for s in Sitting.objects.all() for d in ledger_differences(s)] == []
    figure(
        "event restored from one JSON file",
        f"{counts[0]} sittings, {counts[1]} ván versions, "
        f"{counts[2]} transactions, {counts[3]} postings, {backup.stat().st_size // 1024} KiB; all equal",
    )

    # The restored database keeps working: the next ván gets fresh ids, and a second import is refused.
    table = (
        Table.objects.filter(event__slug=event.slug, sitting__ended_at__isnull=True).order_by("pk").first()
    )
    assert play(table, random.Random(4)).pk > max(
        v["id"] for s in before["sittings"].values() for v in s["van"]
    )
    assert IdempotencyKey.objects.count() == 0  # keys are not part of a backup
    with pytest.raises(CommandError, match="cơ sở dữ liệu trống"):
        call_command("event_import", str(backup))
    assert json.loads(backup.read_text())["format"] == "so-tom-backup"


def _running_event(django_user_model: Any) -> Event:
    """A festival mid-round: canh of 2 ván (table 1 on its third canh), table 2 closed by the
    organiser, a scorekeeper for table 1 and a Trung Quân for the event, scorekeeper links (one
    revoked)."""
    organiser = django_user_model.objects.create_user("ban-to-chuc-hoi")
    django_user_model.objects.create_user("thu-ky-chieu-1")
    django_user_model.objects.create_user("trung-quan-hoi")
    rng = random.Random(5)
    event, (first, second) = festival(created_by=organiser, van_per_sitting=2, van_per_round=8)
    event.organisers.add(organiser)
    for _ in range(5):
        first.refresh_from_db()
        play(first, rng)
    for _ in range(3):
        second.refresh_from_db()
        play(second, rng)
    role_grant(event=event, username="thu-ky-chieu-1", role="ghi_diem", table=first, by=organiser)
    role_grant(event=event, username="trung-quan-hoi", role="trung_quan", by=organiser)
    # The trail's history: a role revoked then granted again, an organiser added then removed,
    # an option changed (as the admin site saves it).
    role_revoke(
        role=role_grant(event=event, username="thu-ky-chieu-1", role="trung_quan", by=organiser), by=organiser
    )
    role_grant(event=event, username="thu-ky-chieu-1", role="trung_quan", table=second, by=organiser)
    # An account given a role and deleted since: the history keeps its rows.
    django_user_model.objects.create_user("tai-khoan-da-xoa")
    role_grant(event=event, username="tai-khoan-da-xoa", role="ghi_diem", by=organiser)
    django_user_model.objects.filter(username="tai-khoan-da-xoa").delete()
    helper = organiser_add(event=event, username="thu-ky-chieu-1", by=organiser)
    organiser_remove(event=event, user=helper, by=organiser)
    event.refresh_from_db()
    event.is_public, event._history_user = False, organiser  # type: ignore[attr-defined]
    event.save()
    token_issue(table=first, label="Điện thoại bác Tư", created_by=organiser)
    token_revoke(token=token_issue(table=second, label="Máy cũ", created_by=organiser), revoked_by=organiser)
    table_close(table=second, closed_by=organiser)
    rebuild_leaderboard(event_id=event.pk, force=True)
    return event


def _running_picture(slug: str) -> dict[str, Any]:
    """What the organiser's pages read about the event's tables, roles and links."""
    event = Event.objects.get(slug=slug)
    tables = Table.objects.filter(event=event).order_by("round__number", "number")
    return {
        "board": _picture(slug)["board"],
        "event": (event.van_per_sitting, event.van_per_round, event.created_by.username, event.created_at),
        "tables": [
            (
                t.round.number,
                t.number,
                t.sitting_id,
                t.started_at,
                t.ends_at,
                t.closed_at,
                t.closed_by.username if t.closed_by else None,
                list(
                    TableSitting.objects.filter(table=t)
                    .order_by("number")
                    .values_list("number", "sitting_id")
                ),
                list(
                    ScorekeeperToken.objects.filter(table=t)
                    .order_by("created_at")
                    .values_list(
                        "secret",
                        "pin",
                        "label",
                        "created_by__username",
                        "created_at",
                        "revoked_at",
                        "revoked_by__username",
                    )
                ),
            )
            for t in tables
        ],
        "roles": sorted(
            EventRole.objects.filter(event=event).values_list(
                "user__username", "role", "table__number", "granted_by__username", "created_at"
            )
        ),
        "sittings": {
            pk: balances(Sitting.objects.get(pk=pk)).to_dict()
            for pk in TableSitting.objects.filter(event=event).values_list("sitting_id", flat=True)
        },
        "trail": event_audit(event, limit=1000),
    }


def test_a_running_festival_restored_keeps_its_canh_closed_tables_roles_and_links(
    django_user_model: Any, tmp_path: Path
) -> None:
    event = _running_event(django_user_model)
    before = _running_picture(event.slug)
    assert [len(t[7]) for t in before["tables"]] == [3, 2]  # table 1 on canh 3; table 2 opened canh 2
    actions = [entry.action for entry in before["trail"]]
    assert {
        "Thu hồi vai trò Trung Quân của thu-ky-chieu-1",
        "Thêm thu-ky-chieu-1 vào ban tổ chức",
        "Bỏ thu-ky-chieu-1 khỏi ban tổ chức",
        "Đổi cài đặt giải",
        "Tạo giải",
    } <= set(actions)
    backup = tmp_path / "giai-dang-choi.json"
    call_command("event_export", event.slug, output=str(backup))

    call_command("flush", interactive=False, verbosity=0)
    call_command("event_import", str(backup), stdout=open(tmp_path / "out.txt", "w"))  # noqa: SIM115

    assert _running_picture(event.slug) == before
    # Each live role's history rows carry its new id; the two roles revoked before the backup
    # (one by hand, one with its deleted account) keep theirs apart under ids no row can have.
    restored = Event.objects.get(slug=event.slug)
    live = set(EventRole.objects.filter(event=restored).values_list("pk", flat=True))
    kept = set(EventRole.history.filter(event_id=restored.pk).values_list("id", flat=True))
    assert live <= kept and len(kept - live) == 2 and all(pk < 0 for pk in kept - live)
    # The restored festival plays on: table 1's canh 3 takes its second ván, then canh 4 opens;
    # the closed table takes none; the scorekeeper's link still lets the phone in.
    table = Table.objects.get(event__slug=event.slug, round__number=1, number=1)
    play(table, random.Random(6))
    table.refresh_from_db()
    assert TableSitting.objects.filter(table=table).count() == 4
    closed = Table.objects.get(event__slug=event.slug, round__number=1, number=2)
    with pytest.raises(EngineError):
        play(closed, random.Random(7))
    link = ScorekeeperToken.objects.get(table=table)
    assert token_for_secret(table=table, secret=link.secret) == link


def test_a_backup_written_before_the_history_was_kept_still_restores(
    django_user_model: Any, tmp_path: Path
) -> None:
    """Files written before the event's history, role ids and registration times were kept: the
    event, its roles and people come back; the trail then starts with the event's creation."""
    event = _running_event(django_user_model)
    before = _running_picture(event.slug)
    backup = tmp_path / "cu.json"
    call_command("event_export", event.slug, output=str(backup))
    doc = json.loads(backup.read_text())
    del doc["event"]["history"]
    for item in doc["event"]["roles"] + doc["event"]["registrations"]:
        item.pop("id", None)
        item.pop("created_at", None) if "player" in item else None
    backup.write_text(json.dumps(doc, ensure_ascii=False))

    call_command("flush", interactive=False, verbosity=0)
    call_command("event_import", str(backup), stdout=open(tmp_path / "out.txt", "w"))  # noqa: SIM115

    after = _running_picture(event.slug)
    assert {k: v for k, v in after.items() if k != "trail"} == {
        k: v for k, v in before.items() if k != "trail"
    }
    trail = after["trail"]
    created = Event.objects.get(slug=event.slug).created_at
    assert [(e.when, e.action) for e in trail if e.action == "Tạo giải"] == [(created, "Tạo giải")]
    assert {e.action for e in trail} >= {"Cấp vai trò Trung Quân cho trung-quan-hoi", "Đóng chiếu"}


def _console_festival(django_user_model: Any) -> tuple[Event, Any]:
    """A Tổ Tôm Điếm festival of 2 ván per canh; chiếu 1 run by a Trung Quân from the console,
    now on its second canh in the middle of a ván (signals given, the nọc drawn down)."""
    import datetime as dt

    from tournaments.console.services import noc_change, signal_send, table_open, van_finish, van_start
    from tournaments.console.services.signals import ensure_catalogue
    from tournaments.services.events import event_create

    ensure_catalogue()
    organiser = django_user_model.objects.create_user("ban-to-chuc-dong-ngac")
    event = event_create(
        name="Hội làng Đông Ngạc",
        date=dt.date(2026, 2, 22),
        game="to-tom-diem",
        rules="luat-2005",
        mode="quang",
        van_per_round=6,
        van_per_sitting=2,
        created_by=organiser,
    )
    for name in ["An", "Bình", "Chi", "Dũng", "Em", "Giang", "Hà", "Khánh", "Lan", "Minh"]:
        check_in(registration=registration_add(event=event, name=name, by=organiser), by=organiser)
    round_seat(event=event, method="random", seed=11, created_by=organiser)
    table = Table.objects.filter(event=event).order_by("number").first()
    trung_quan = django_user_model.objects.create_user("trung-quan-dinh")
    console = table_open(
        name="Chiếu giữa sân", event_table=table, trung_quan=trung_quan, created_by=organiser
    )
    for seq, (seat, flag) in enumerate([(2, "co-trang"), (4, "co-vang")], start=1):
        van_start(table=console)
        signal_send(table=console, seat=seat, signal=flag, by=trung_quan)
        signal_send(table=console, seat=1, signal="tung-tung", by=trung_quan)
        signal_send(table=console, seat=1, signal="hoi-dai", by=trung_quan)
        console.refresh_from_db()
        winner = console.sitting.seats.get(position=1).name
        van_finish(
            table=console,
            seq=seq,
            record={"winner": winner, "cuoc": ["tom"]},
            by=trung_quan,
            idempotency_key=f"tq-{seq}",
        )
    van_start(table=console)  # canh 2, ván 1 under way
    signal_send(table=console, seat=3, signal="tung", by=trung_quan)
    signal_send(table=console, seat="trung_quan", signal="trong-nhac", by=trung_quan)
    noc_change(table=console, delta=-7)
    rebuild_leaderboard(event_id=event.pk, force=True)
    return event, console


def _shown(value: Any) -> Any:
    """A display's JSON without row ids (a restore gives rows new ids) and the clock."""
    if isinstance(value, dict):
        return {k: _shown(v) for k, v in value.items() if k not in {"id", "table", "server_now"}}
    if isinstance(value, list):
        return [_shown(v) for v in value]
    return value


def _console_picture(slug: str) -> dict[str, Any]:
    """What the Trung Quân's console, the audience display and the timeline show."""
    from tournaments.console.models import FestivalTable
    from tournaments.console.selectors import recent_signals, table_state, timeline

    c = FestivalTable.objects.select_related("trung_quan", "created_by").get(event_table__event__slug=slug)
    return {
        "console": (
            c.name,
            c.sitting_id,
            c.event_table.round.number,
            c.event_table.number,
            c.trung_quan.username,
            c.van_seq,
            c.dealer,
            c.turn,
            c.noc_left,
            c.van_started_at,
            c.announcement,
            c.stream_seq,
            c.created_by.username,
            c.created_at,
        ),
        "display": _shown(table_state(c)),
        "ticker": _shown(recent_signals(c, limit=100)),
        "timeline": [
            (
                v.canh,
                v.seq,
                v.result,
                [(s["seat_name"], s["signal"], s["offset"], s["at"], s["noc_left"]) for s in v.signals],
            )
            for v in timeline(c)
        ],
    }


def test_a_festival_restored_keeps_its_trung_quan_console_and_every_signal(
    django_user_model: Any, tmp_path: Path
) -> None:
    from tournaments.console.models import FestivalTable
    from tournaments.console.services import signal_send, van_finish
    from tournaments.console.services.signals import ensure_catalogue

    event, _console = _console_festival(django_user_model)
    before = _console_picture(event.slug)
    assert [v[:2] for v in before["timeline"]] == [(1, 1), (1, 2), (2, 1)]
    assert len(before["ticker"]) == 8 and before["display"]["noc_left"] == before["console"][8]
    backup = tmp_path / "giai-diem.json"
    call_command("event_export", event.slug, output=str(backup))

    call_command("flush", interactive=False, verbosity=0)  # the signal catalogue goes too
    call_command("event_import", str(backup), stdout=open(tmp_path / "out.txt", "w"))  # noqa: SIM115

    assert _console_picture(event.slug) == before
    # A display open before the backup resumes from its last id: it is sent the table's state.
    from tournaments.console.broadcast import DisplayEventStorage

    restored = FestivalTable.objects.get(event_table__event__slug=event.slug)
    assert restored.stream_seq == before["console"][11] > 0
    [snap] = DisplayEventStorage().get_events(f"ban-{restored.pk}", restored.stream_seq - 1)
    assert (snap.type, snap.id) == ("snapshot", restored.stream_seq)
    assert _shown(json.loads(snap.data)["state"]) == before["display"]
    # The Trung Quân plays on: the ván under way takes its signals and its result, on its canh.
    ensure_catalogue()
    console = FestivalTable.objects.get(event_table__event__slug=event.slug)
    signal_send(table=console, seat=5, signal="co-do", by=console.trung_quan)
    console.refresh_from_db()
    winner = console.sitting.seats.get(position=5).name
    van = van_finish(
        table=console,
        seq=1,
        record={"winner": winner, "cuoc": ["tom"]},
        by=console.trung_quan,
        idempotency_key="tq-sau-khoi-phuc",
    ).obj
    assert (van.sitting_id, van.seq) == (before["console"][1], 1)
    assert _console_picture(event.slug)["timeline"][-1][:2] == (2, 1)


def test_a_tables_own_sitting_backup_carries_its_trung_quan_console(
    django_user_model: Any, tmp_path: Path
) -> None:
    """A Tổ Tôm Điếm table run from the console without an event: its sitting's backup (the
    download of the reports page) holds the console too."""
    from django.test import Client

    from tournaments.console.models import FestivalTable
    from tournaments.console.selectors import recent_signals, table_state, timeline
    from tournaments.console.services import noc_change, signal_send, table_open, van_finish, van_start
    from tournaments.console.services.signals import ensure_catalogue

    ensure_catalogue()
    organiser = django_user_model.objects.create_user("ong-truong-ban")
    trung_quan = django_user_model.objects.create_user("trung-quan-san-dinh")
    console = table_open(
        name="Chiếu sân đình",
        players=["An", "Bình", "Chi", "Dũng", "Em"],
        trung_quan=trung_quan,
        created_by=organiser,
    )
    van_start(table=console)
    signal_send(table=console, seat=3, signal="co-trang", by=trung_quan)
    signal_send(table=console, seat=2, signal="hoi-dai", by=trung_quan)
    van_finish(
        table=console,
        seq=1,
        record={"winner": "Bình", "cuoc": ["tom"]},
        by=trung_quan,
        idempotency_key="tq-1",
    )
    van_start(table=console)
    signal_send(table=console, seat=4, signal="tung-tung", by=trung_quan)
    noc_change(table=console, delta=-5)

    def picture() -> Any:
        c = FestivalTable.objects.select_related("trung_quan").get(sitting_id=console.sitting_id)
        return (
            (
                c.name,
                c.trung_quan.username,
                c.van_seq,
                c.dealer,
                c.turn,
                c.noc_left,
                c.van_started_at,
                c.announcement,
                c.created_at,
            ),
            _shown(table_state(c)),
            _shown(recent_signals(c, limit=100)),
            [(v.canh, v.seq, v.result, [(s["signal"], s["at"]) for s in v.signals]) for v in timeline(c)],
        )

    before = picture()
    client = Client()
    client.force_login(organiser)
    backup = tmp_path / "chieu-san-dinh.json"
    backup.write_bytes(client.get(f"/so-diem/{console.sitting_id}/xuat/sao-luu.json").content)
    assert json.loads(backup.read_text())["console"]["name"] == "Chiếu sân đình"

    call_command("flush", interactive=False, verbosity=0)
    call_command("event_import", str(backup), stdout=open(tmp_path / "out.txt", "w"))  # noqa: SIM115

    assert picture() == before
    assert len(before[2]) == 3 and before[0][5] == before[1]["noc_left"]
