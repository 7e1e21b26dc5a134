"""A scorekeeper at a mat with no signal, in real Chromium with a service worker on a real origin
(``live_server``: http://localhost is a secure context).

Offline, three ván are kept on the phone ("chờ gửi") with provisional points and streaks; the
page reloads from the service worker's cache with the three still waiting; back online they are
sent in order and the ledger holds exactly those three, once. Two phones that record the same
ván number offline end with one accepted ván and one conflict shown for a person to resolve. A ván
kept by mistake is withdrawn before it is sent. A correction saved offline is kept and sent later,
and refused (shown as a conflict) if someone corrected that ván in between.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.signals import request_started

from scoring.models import IdempotencyKey, Sitting, Van
from scoring.selectors.ledger import balances
from scoring.services.sittings import van_correct
from tests.conftest import sign_in, wait_for_quiet_database
from tests.factories import open_sitting, record_all
from tests.tournaments.conftest import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def new_phone(browser: Any, live_server: Any, keeper: Any) -> Iterator[Any]:
    """Open as many separate phones (browser contexts, each with its own service worker) as asked,
    each signed in as ``keeper`` (the scorekeeper who opened the sittings)."""
    contexts: list[Any] = []

    def make() -> tuple[Any, Any]:
        context = browser.new_context(
            locale="vi-VN", viewport={"width": 390, "height": 844}, has_touch=True, service_workers="allow"
        )
        contexts.append(context)
        sign_in(context, live_server.url, keeper)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return context, page

    yield make
    for context in contexts:
        context.close()
    # A worker may have asked for pages just before it closed (the sitting page keeps its
    # correction pages): let the server finish them before the database is flushed.
    wait_for_quiet_database()


def open_ready(page: Any, url: str) -> None:
    """Open the sitting page and wait until the worker, the kept page and the pack are in place."""
    page.goto(url)
    page.wait_for_selector("html[data-offline-ready='1']", state="attached")


def indicator(page: Any) -> Any:
    return page.get_by_test_id("net-indicator")


def tap_winner(page: Any, name: str) -> None:
    page.locator(f"#van-form label.who-btn[data-winner='{name}'] span").tap()


def tap_chip(page: Any, slug: str) -> None:
    """Tap a cước chip, brought to the middle of the screen first: at the bottom it can sit under
    the sticky save bar (how far down depends on the preview above it), and the tap would land there."""
    chip = page.locator(f"#van-form label.chip[data-cuoc={slug}] span")
    chip.evaluate("el => el.scrollIntoView({block: 'center'})")
    chip.tap()


def keep(page: Any, n_waiting: int) -> None:
    page.get_by_test_id("save").tap()
    page.get_by_test_id("outbox-item").nth(n_waiting - 1).wait_for()


def test_three_van_recorded_offline_survive_a_reload_and_reach_the_ledger_once(
    live_server, new_phone, keeper
) -> None:
    sitting = open_sitting(created_by=keeper)
    url = f"{live_server.url}/so-diem/{sitting.pk}/"
    context, page = new_phone()
    open_ready(page, url)
    assert indicator(page).get_attribute("data-state") == "online"

    context.set_offline(True)
    indicator(page).filter(has_text="Mất mạng").wait_for()

    # Ván 1: An ù Tôm: 8 points, provisional.
    tap_winner(page, "An")
    tap_chip(page, "tom")
    preview = page.get_by_test_id("preview")
    preview.filter(has_text="tạm tính").wait_for()
    assert page.get_by_test_id("preview-points").inner_text() == "8"
    keep(page, 1)
    assert page.locator("#ghi-van").inner_text() == "Ghi ván 2"

    # Ván 2: An ù Lèo again: Thông from the waiting ván 1 (Lèo 10 + Thông 1 dịch × 2 = 12).
    tap_winner(page, "An")
    tap_chip(page, "leo")
    page.get_by_test_id("preview-streak").filter(has_text="Thông").wait_for()
    assert page.get_by_test_id("preview-points").inner_text() == "12"
    keep(page, 2)

    # Ván 3: a draw.
    tap_winner(page, "hoa")
    keep(page, 3)
    assert indicator(page).get_attribute("data-waiting") == "3"
    assert "3 ván chờ gửi" in indicator(page).inner_text()
    items = page.get_by_test_id("outbox-item")
    assert [items.nth(i).get_attribute("data-seq") for i in range(3)] == ["1", "2", "3"]
    assert "chờ gửi" in items.nth(0).inner_text()
    assert Van.objects.count() == 0

    # Still offline: the page reloads from the service worker's cache (the copy kept while online,
    # not the server's page, which now has another title), the three still waiting.
    first_name = sitting.display_name
    Sitting.objects.filter(pk=sitting.pk).update(title="Chiếu sân đình")
    response = page.reload()
    assert response is not None and response.from_service_worker
    page.get_by_test_id("outbox-item").nth(2).wait_for()
    assert page.locator("h1").inner_text() == first_name
    assert indicator(page).get_attribute("data-state") == "offline"
    assert page.locator("#ghi-van").inner_text() == "Ghi ván 4"
    assert Van.objects.count() == 0

    # Back online: sent in order, once.
    context.set_offline(False)
    page.locator("#sitting[data-next-seq='4']").wait_for(state="attached")
    wait_for(lambda: indicator(page).get_attribute("data-state") == "online")
    assert page.get_by_test_id("outbox-item").count() == 0
    vans = list(Van.objects.order_by("seq"))
    assert [(v.seq, v.record) for v in vans] == [
        (1, {"winner": "An", "cuoc": ["tom"]}),
        (2, {"winner": "An", "cuoc": ["leo"]}),
        (3, {"result": "hoa"}),
    ]
    assert [v.streak for v in vans[:2]] == [1, 2]
    assert IdempotencyKey.objects.filter(operation="van_record").count() == 3
    assert balances(sitting).players["An"] == 4 * 8 + 4 * 12
    shown = page.locator("[data-testid=balances] li.seat[data-name='An']").get_attribute("data-balance")
    assert shown == str(4 * 8 + 4 * 12)
    assert page.locator("h1").inner_text() == "Chiếu sân đình"  # the page is the server's again


def test_two_phones_offline_on_the_same_number_give_one_van_and_one_visible_conflict(
    live_server, new_phone, keeper
) -> None:
    sitting = open_sitting(created_by=keeper)
    url = f"{live_server.url}/so-diem/{sitting.pk}/"
    (ctx_a, a), (ctx_b, b) = new_phone(), new_phone()
    open_ready(a, url)
    open_ready(b, url)
    ctx_a.set_offline(True)
    ctx_b.set_offline(True)

    tap_winner(a, "An")
    tap_chip(a, "tom")
    keep(a, 1)
    tap_winner(b, "Bình")
    tap_chip(b, "leo")
    keep(b, 1)

    ctx_a.set_offline(False)
    a.locator("#sitting[data-next-seq='2']").wait_for(state="attached")
    ctx_b.set_offline(False)
    conflict = b.get_by_test_id("outbox-conflict")
    conflict.wait_for()
    assert conflict.get_attribute("data-seq") == "1"
    assert "Ván số 1 đã được ghi" in conflict.inner_text()
    assert "An ù: Tôm" in b.get_by_test_id("conflict-server").inner_text()
    assert b.get_by_test_id("offline-notice").count() == 0  # no stale "kept, waiting" message
    wait_for(lambda: indicator(b).get_attribute("data-state") == "conflict")
    assert "1 xung đột" in indicator(b).inner_text()
    assert [(v.seq, v.record) for v in Van.objects.all()] == [(1, {"winner": "An", "cuoc": ["tom"]})]

    # Nothing merges by itself: it waits for a person, who decides to keep it as ván 2.
    b.wait_for_timeout(600)
    assert Van.objects.count() == 1
    conflict.get_by_role("button", name="Vẫn ghi, thành ván 2").tap()
    wait_for(lambda: Van.objects.count() == 2)
    assert Van.objects.get(seq=2).record == {"winner": "Bình", "cuoc": ["leo"]}


def test_a_phone_in_english_keeps_its_language_offline(live_server, new_phone, keeper) -> None:
    """The offline scripts speak the page's language (Django's JavaScript catalog), and the service
    worker keeps the catalog: reopened with no network, the page still speaks English."""
    sitting = open_sitting(created_by=keeper)
    url = f"{live_server.url}/en/so-diem/{sitting.pk}/"
    context, page = new_phone()
    open_ready(page, url)
    assert indicator(page).inner_text() == "Online"

    context.set_offline(True)
    indicator(page).filter(has_text="Offline").wait_for()
    tap_winner(page, "An")
    tap_chip(page, "tom")
    page.get_by_test_id("preview").filter(has_text="provisional").wait_for()
    keep(page, 1)
    assert (
        "Ván 1 is kept on this device: waiting to send." in page.get_by_test_id("offline-notice").inner_text()
    )
    assert "waiting to send" in page.get_by_test_id("outbox-item").inner_text()
    assert "1 ván waiting to send" in indicator(page).inner_text()

    response = page.reload()
    assert response is not None and response.from_service_worker
    page.get_by_test_id("outbox-item").wait_for()
    assert "Ván on this device, not yet in the ledger (1)" in page.locator("#outbox").inner_text()
    assert "Offline" in indicator(page).inner_text() and "Mất mạng" not in indicator(page).inner_text()

    context.set_offline(False)
    page.get_by_test_id("offline-notice").filter(has_text="Every waiting ván has been sent").wait_for()
    assert Van.objects.filter(sitting=sitting).count() == 1


def test_a_van_kept_offline_by_mistake_is_withdrawn_before_it_is_sent(live_server, new_phone, keeper) -> None:
    """A scorekeeper who kept a wrong ván while offline takes it back before it reaches the ledger:
    it is never written, the ván after it move up a number with their provisional streak
    recomputed, and a tap cancelled at the question changes nothing."""
    sitting = open_sitting(created_by=keeper)
    url = f"{live_server.url}/so-diem/{sitting.pk}/"
    context, page = new_phone()
    open_ready(page, url)
    context.set_offline(True)
    indicator(page).filter(has_text="Mất mạng").wait_for()

    tap_winner(page, "An")  # the mistake: it was Bình's Tôm
    tap_chip(page, "tom")
    keep(page, 1)
    tap_winner(page, "An")
    tap_chip(page, "leo")
    keep(page, 2)
    tap_winner(page, "hoa")
    keep(page, 3)
    items = page.get_by_test_id("outbox-item")
    assert items.nth(1).locator(".van-points").inner_text() == "12 điểm"  # Lèo with Thông after ván 1
    assert "Thông" in items.nth(1).inner_text()

    # Cancelled at the question: nothing changes.
    page.once("dialog", lambda dialog: dialog.dismiss())
    items.nth(0).get_by_test_id("withdraw").tap()
    page.wait_for_timeout(300)
    assert items.count() == 3 and items.nth(0).get_attribute("data-seq") == "1"

    questions: list[str] = []

    def accept(dialog: Any) -> None:
        questions.append(dialog.message)
        dialog.accept()

    page.once("dialog", accept)
    items.nth(0).get_by_role("button", name="Bỏ ván 1 (chưa gửi)").tap()
    page.get_by_test_id("offline-notice").filter(has_text="Đã bỏ ván 1").wait_for()
    assert questions and "Bỏ ván 1?" in questions[0]
    assert items.count() == 2
    assert [items.nth(i).get_attribute("data-seq") for i in range(2)] == ["1", "2"]
    # The Lèo is now ván 1: no Thông, 10 points.
    assert items.nth(0).locator(".van-points").inner_text() == "10 điểm"
    assert "Thông" not in items.nth(0).inner_text()
    assert page.locator("#ghi-van").inner_text() == "Ghi ván 3"
    assert indicator(page).get_attribute("data-waiting") == "2"

    # Still withdrawn after a reload from the service worker.
    page.reload()
    page.get_by_test_id("outbox-item").nth(1).wait_for()
    assert page.get_by_test_id("outbox-item").count() == 2

    tap_winner(page, "Bình")
    tap_chip(page, "tom")
    keep(page, 3)
    context.set_offline(False)
    page.locator("#sitting[data-next-seq='4']").wait_for(state="attached")
    assert [(v.seq, v.record) for v in Van.objects.filter(sitting=sitting).order_by("seq")] == [
        (1, {"winner": "An", "cuoc": ["leo"]}),
        (2, {"result": "hoa"}),
        (3, {"winner": "Bình", "cuoc": ["tom"]}),
    ]
    assert IdempotencyKey.objects.filter(operation="van_record").count() == 3
    assert balances(sitting).players["An"] == 4 * 10 - 8


def kept_copy(page: Any, path: str) -> Any:
    """Wait until the service worker holds a copy of ``path`` (a page it was asked to keep)."""
    script = f"caches.open('sotom-pages').then((c) => c.match('{path}')).then((r) => !!r)"
    return wait_for(lambda: page.evaluate(script))


def test_a_correction_saved_offline_is_kept_then_sent_before_the_van_after_it(
    live_server, new_phone, keeper
) -> None:
    """The sitting page keeps the correction pages of its last ván; offline, one opens from the
    worker, its save is kept on the phone (no preview, a clear note), the outbox lists it apart from
    new ván (which keep their numbers), and back online the ledger has the correction and the ván."""
    sitting = open_sitting(created_by=keeper)
    record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}, {"result": "hoa"}])
    url = f"{live_server.url}/so-diem/{sitting.pk}/"
    fix_url = f"/so-diem/{sitting.pk}/van/1/sua/"
    context, page = new_phone()
    open_ready(page, url)
    kept_copy(page, fix_url)
    kept_copy(page, f"/so-diem/{sitting.pk}/van/2/sua/")

    context.set_offline(True)
    response = page.goto(live_server.url + fix_url)
    assert response is not None and response.from_service_worker
    page.locator("#van-form label.who-btn[data-winner='Bình'] span").tap()
    page.get_by_test_id("preview-offline").wait_for()
    page.locator("#reason").fill("ghi nhầm người ù")
    page.get_by_test_id("save-correction").tap()
    note = page.get_by_test_id("offline-notice")
    note.filter(has_text="Đã giữ bản sửa ván 1 trên máy này: chờ gửi").wait_for()
    assert Van.objects.filter(sitting=sitting).count() == 2
    note.get_by_role("link", name="Về canh bài").tap()

    item = page.locator("[data-testid=outbox-item][data-kind=correct]")
    item.wait_for()
    assert "Sửa ván 1" in item.inner_text() and "Bình ù" in item.inner_text()
    assert "Lý do: ghi nhầm người ù" in item.inner_text()
    assert page.locator("#ghi-van").inner_text() == "Ghi ván 3"  # a correction takes no number
    tap_winner(page, "An")
    tap_chip(page, "leo")
    keep(page, 2)
    assert page.locator("#ghi-van").inner_text() == "Ghi ván 4"
    assert indicator(page).get_attribute("data-waiting") == "2"

    context.set_offline(False)
    page.locator("#sitting[data-next-seq='4']").wait_for(state="attached")
    wait_for(lambda: page.get_by_test_id("outbox-item").count() == 0)
    current = {v.seq: v for v in Van.objects.filter(sitting=sitting, is_current=True)}
    assert [(n, current[n].record) for n in sorted(current)] == [
        (1, {"winner": "Bình", "cuoc": ["tom"]}),
        (2, {"result": "hoa"}),
        (3, {"winner": "An", "cuoc": ["leo"]}),
    ]
    assert current[1].correction_reason == "ghi nhầm người ù"
    assert current[3].streak == 1  # An's ván 1 is Bình's now: no Thông
    assert balances(sitting).players["An"] == -8 + 4 * 10


def test_a_correction_kept_offline_is_refused_if_someone_corrected_that_van_meanwhile(
    live_server, new_phone, keeper
) -> None:
    """Someone else corrects ván 1 while the phone holds its own correction of it: the phone's is
    refused when sent (it names the version it saw) and shown as a conflict, with a link to the
    correction page and a way to drop it; the other correction stays."""
    sitting = open_sitting(created_by=keeper)
    (first,) = record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}])
    url = f"{live_server.url}/so-diem/{sitting.pk}/"
    fix_url = f"/so-diem/{sitting.pk}/van/1/sua/"
    context, page = new_phone()
    open_ready(page, url)
    kept_copy(page, fix_url)
    context.set_offline(True)
    page.goto(live_server.url + fix_url)
    page.locator("#van-form label.who-btn[data-winner='Chi'] span").tap()
    page.locator("#reason").fill("Chi ù mới đúng")
    page.get_by_test_id("save-correction").tap()
    page.get_by_test_id("offline-notice").wait_for()
    page.get_by_role("link", name="Về canh bài").tap()
    page.locator("[data-testid=outbox-item][data-kind=correct]").wait_for()

    van_correct(
        van=first.pk,
        record={"winner": "Dũng", "cuoc": ["tom"]},
        reason="trọng tài xem lại",
        corrected_by=None,
        idempotency_key=None,
    )
    context.set_offline(False)
    conflict = page.locator("[data-testid=outbox-conflict][data-kind=correct]")
    conflict.wait_for()
    assert "đã được sửa bằng một bản khác" in conflict.inner_text()
    assert conflict.get_by_role("link", name="Mở trang sửa ván 1").get_attribute("href") == fix_url
    assert Van.objects.get(sitting=sitting, is_current=True).record == {"winner": "Dũng", "cuoc": ["tom"]}
    conflict.get_by_role("button", name="Bỏ bản sửa này (không ghi)").tap()
    page.get_by_test_id("offline-notice").filter(has_text="Đã bỏ bản sửa ván 1").wait_for()
    assert page.locator("[data-testid=outbox-conflict]").count() == 0
    assert Van.objects.filter(sitting=sitting).count() == 2


def test_a_correction_page_is_kept_once_per_version_not_fetched_after_every_van(
    live_server, new_phone, keeper
) -> None:
    """Every online save refreshes the sitting's kept page; the correction pages of its last three
    ván (the newest, though the page lists them newest first) are asked for only when new or when
    their ván has another version (a correction), so a phone does not make the server draw three
    more pages for each ván it records."""
    sitting = open_sitting(created_by=keeper)
    record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}, {"result": "hoa"}])
    fetched: list[str] = []

    def count(sender: Any, environ: dict[str, Any], **kwargs: Any) -> None:
        if environ.get("REQUEST_METHOD") == "GET" and environ.get("PATH_INFO", "").endswith("/sua/"):
            fetched.append(environ["PATH_INFO"])

    def fix(seq: int) -> str:
        return f"/so-diem/{sitting.pk}/van/{seq}/sua/"

    def save_online(winner: str, cuoc: str, next_seq: int) -> None:
        tap_winner(page, winner)
        tap_chip(page, cuoc)
        page.get_by_test_id("save").tap()
        page.locator(f"#sitting[data-next-seq='{next_seq}']").wait_for(state="attached")

    request_started.connect(count, dispatch_uid="count-correction-pages")
    try:
        _context, page = new_phone()
        open_ready(page, f"{live_server.url}/so-diem/{sitting.pk}/")
        kept_copy(page, fix(1))
        kept_copy(page, fix(2))
        save_online("Bình", "tom", 4)
        kept_copy(page, fix(3))
        save_online("Chi", "leo", 5)
        kept_copy(page, fix(4))
        # A correction made on this phone: ván 3's page is asked for again, with its new version.
        page.get_by_test_id("correct-3").tap()
        page.locator("#van-form label.who-btn[data-winner='Dũng'] span").tap()
        page.locator("#reason").fill("ghi nhầm người ù")
        page.get_by_test_id("save-correction").tap()
        page.wait_for_url(f"{live_server.url}/so-diem/{sitting.pk}/")
        # Kept; opened by the person (and kept by that page itself); kept again in its new version.
        wait_for(lambda: fetched.count(fix(3)) == 4)
        page.wait_for_timeout(500)  # room for any fetch that should not happen
    finally:
        request_started.disconnect(dispatch_uid="count-correction-pages")
    assert sorted(Counter(fetched).items()) == [(fix(1), 1), (fix(2), 1), (fix(3), 4), (fix(4), 1)]
    assert Van.objects.get(sitting=sitting, seq=3, is_current=True).record["winner"] == "Dũng"
