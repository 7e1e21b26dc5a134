"""The Trung Quân section in English (/en/…): the console, the list of tables, the timeline and the
audience display show their fixed texts in English, the Vietnamese pages keep theirs, and the
console's errors are answered in the page's language.

Only the game's own words (Trung Quân, ván, nọc, bất thực, chiếu, cửa, đốc nọc…) and the data
(players, cước names) stay Vietnamese on the English pages; the seeded signals' names and
meanings are translated (a village's own signals show as typed). Each page
is checked with pairs of the same text in both languages: the English page shows the English one
and not the Vietnamese one, and the Vietnamese page the other way round.

Needs the compiled English catalogue (``make messages``, which ``make test`` runs first).
"""

from __future__ import annotations

import html as htmllib
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tournaments.console.services import signal_send, van_finish

pytestmark = pytest.mark.django_db

#: The same seat error in both languages (a service's ConsoleError).
SEAT_ERROR = (
    'The seat must be a number from 1 to 5 or "trung_quan" (got 9).',
    'Chỗ ngồi phải là số từ 1 đến 5 hoặc "trung_quan" (nhận được 9).',
)


def tq(festival: Any) -> Client:
    client = Client()
    client.force_login(festival.trung_quan)
    return client


def text(response: Any, status: int = 200) -> str:
    assert response.status_code == status, response.status_code
    return htmllib.unescape(response.content.decode())


def in_own_language(english: str, vietnamese: str, pairs: list[tuple[str, str]]) -> None:
    """Each (English, Vietnamese) pair shows in its own language's page only."""
    assert [en for en, _vi in pairs if en not in english] == []
    assert [vi for _en, vi in pairs if vi in english] == []
    assert [vi for _en, vi in pairs if vi not in vietnamese] == []
    assert [en for en, _vi in pairs if en in vietnamese] == []


def both(client: Client, path: str, pairs: list[tuple[str, str]], *, page: bool = True) -> tuple[str, str]:
    """GET ``path`` in English (/en/…) and in Vietnamese and check ``pairs``; returns the two."""
    english, vietnamese = text(client.get(f"/en{path}")), text(client.get(path))
    if page:
        assert 'lang="en"' in english and 'lang="vi"' in vietnamese
    in_own_language(english, vietnamese, pairs)
    return english, vietnamese


@pytest.fixture
def played(festival: Any) -> Any:
    """Ván 1 won by An with no signal given, ván 2 won by Bình (Tôm) after a phỗng at seat 3, and
    ván 3 under way with Bình's red flag up (the console shows the ván form)."""
    table = festival.table
    van_finish(table=table, seq=1, record={"winner": "An"}, by=festival.trung_quan, idempotency_key=None)
    signal_send(table=table, seat=3, signal="tung-tung")
    van_finish(
        table=table,
        seq=2,
        record={"winner": "Bình", "cuoc": ["tom"]},
        by=festival.trung_quan,
        idempotency_key=None,
    )
    signal_send(table=table, seat=2, signal="co-do")
    return festival


def test_the_last_result_in_english(festival: Any) -> None:
    """The console's notice of the ván just announced, before the next ván's first signal (which
    takes the result off the display and the console)."""
    table = festival.table
    van_finish(table=table, seq=1, record={"winner": "An"}, by=festival.trung_quan, idempotency_key=None)
    van_finish(
        table=table,
        seq=2,
        record={"winner": "Bình", "cuoc": ["tom"]},
        by=festival.trung_quan,
        idempotency_key=None,
    )
    both(
        tq(festival),
        f"/trung-quan/{table.pk}/",
        [
            ("<strong>Bình</strong> won", "<strong>Bình</strong> ù"),
            ("<strong>8 points</strong>", "<strong>8 điểm</strong>"),
            ("· announced on the display.", "· đã báo lên màn hình."),
            (
                "over the seats until “Start the ván” is pressed",
                "đè lên các chỗ ngồi đến khi bấm “Bắt đầu ván”",
            ),
        ],
    )


def test_the_console_in_english(played: Any) -> None:
    english, _vietnamese = both(
        tq(played),
        f"/trung-quan/{played.table.pk}/",
        [
            ("Chiếu number for devices:", "Mã chiếu cho thiết bị:"),
            (">Audience display ↗</a>", ">Màn hình khán giả ↗</a>"),
            (">Timeline of the ván</a>", ">Diễn biến các ván</a>"),
            ('<span class="tq-k">Clock</span>', '<span class="tq-k">Đồng hồ</span>'),
            (">Start the ván</button>", ">Bắt đầu ván</button>"),
            ('<span class="tq-k">Nọc left</span>', '<span class="tq-k">Nọc còn</span>'),
            ('aria-label="Put a card back on the nọc"', 'aria-label="Trả lại một quân vào nọc"'),
            (">Draw from the nọc −1</button>", ">Bốc nọc −1</button>"),
            (
                "<small>Draw when the nọc is down to 1 (đốc nọc)</small>",
                "<small>Hòa khi còn 1 (đốc nọc)</small>",
            ),
            ('<span class="tq-k">Turn</span>', '<span class="tq-k">Lượt</span>'),
            (">Next turn ↺</button>", ">Lượt tiếp ↺</button>"),
            ('<span class="tq-badge">Dealer</span>', '<span class="tq-badge">Cái</span>'),
            ('value="2">Turn<span class="vh">', 'value="2">Lượt<span class="vh">'),
            ('value="2">Dealer<span class="vh">', 'value="2">Cái<span class="vh">'),
            ('aria-label="Signals by seat"', 'aria-label="Hiệu của từng chỗ"'),
            ('aria-label="Seat 2: Bình"', 'aria-label="Chỗ 2: Bình"'),
            ('<h2 id="tq-big-drum">Big drum</h2>', '<h2 id="tq-big-drum">Trống cái</h2>'),
            ("<summary>Bắt cái (choosing the dealer)</summary>", "<summary>Bắt cái (chọn nhà cái)</summary>"),
            ("One card, counted counter-clockwise", "Một quân, đếm ngược chiều kim đồng hồ"),
            ("<label>First card turned <input", "<label>Quân lật thứ nhất <input"),
            (">See who deals</button>", ">Xem ai được cái</button>"),
            (
                "<summary>Ù đè (two players win on the same card)</summary>",
                "<summary>Ù đè (hai người cùng ù một quân)</summary>",
            ),
            ("<legend>Who claims the win?</legend>", "<legend>Ai báo ù?</legend>"),
            # the seeded signals' names and words (issue 33); a village's own signals stay as typed
            ('<span class="tq-btn-label">Boom boom</span>', '<span class="tq-btn-label">Tùng tùng</span>'),
            ('aria-label="Red flag: Ù! — Bình"', 'aria-label="Cờ đỏ: Ù! — Bình"'),
            (">See who wins</button>", ">Xem ai được ù</button>"),
            # the ván form, open for Bình's red flag
            ("<h2>Ván 3: record the win</h2>", "<h2>Ván 3: ghi ù</h2>"),
            ("<legend>Winner</legend>", "<legend>Người ù</legend>"),
            ("<legend>Cước (leave empty: plain win)</legend>", "<legend>Cước (để trống: ù suông)</legend>"),
            (
                ">Save the ván and announce it on the display</button>",
                ">Lưu ván và báo lên màn hình</button>",
            ),
        ],
    )
    # The game's words and the data stay Vietnamese on the English page.
    for kept in (
        "<h1>Trung Quân · Chiếu sân đình</h1>",
        ">Bất thực: <strong>0</strong>",
        "<span>Tôm<small>",
    ):
        assert kept in english


def test_the_draw_form_in_english(played: Any) -> None:
    both(
        tq(played),
        f"/trung-quan/{played.table.pk}/phieu-van/?hoa=1",
        [
            ("<h2>Ván 3: draw (đốc nọc)</h2>", "<h2>Ván 3: hòa (đốc nọc)</h2>"),
            (
                "<label>Đầu kê (whose cửa the last card fell at)",
                "<label>Đầu kê (người có quân cuối rơi vào cửa)",
            ),
            ('<option value="">— not recorded —</option>', '<option value="">— không ghi —</option>'),
        ],
        page=False,
    )  # an htmx fragment: no <html lang>


def test_the_table_list_in_english(played: Any) -> None:
    pk = played.table.pk
    both(
        tq(played),
        "/trung-quan/",
        [
            (
                "The Trung Quân's console (a tablet) and the audience display",
                "Bàn điều khiển của Trung Quân (máy tính bảng) và màn hình cho khán giả",
            ),
            (
                "<th>Console</th><th>Audience display</th><th>Timeline</th>",
                "<th>Bàn điều khiển</th><th>Màn hình khán giả</th><th>Diễn biến</th>",
            ),
            (">Open the Trung Quân console</a>", ">Mở bàn Trung Quân</a>"),
            (
                f'href="/en/man-hinh/{pk}/">/en/man-hinh/{pk}/</a>',
                f'href="/man-hinh/{pk}/">/man-hinh/{pk}/</a>',
            ),
            (">View</a>", ">Xem</a>"),
            ("<h2>Open a new chiếu</h2>", "<h2>Mở chiếu mới</h2>"),
            ("<label>Chiếu name <input", "<label>Tên chiếu <input"),
            ('placeholder="Village courtyard chiếu"', 'placeholder="Chiếu sân đình"'),
            ("<label>Village rules", "<label>Lệ làng"),
            (
                "<legend>Five players (in counter-clockwise order)</legend>",
                "<legend>Năm người chơi (theo thứ tự ngược chiều kim đồng hồ)</legend>",
            ),
            ("<label>Seat 1 <input", "<label>Chỗ 1 <input"),
            (">Open the chiếu and its Trung Quân console</button>", ">Mở chiếu và bàn Trung Quân</button>"),
        ],
    )
    someone = Client()
    someone.force_login(get_user_model().objects.create_user("khach"))
    in_own_language(
        text(someone.get("/en/trung-quan/")),
        text(someone.get("/trung-quan/")),
        [
            ("You are not Trung Quân at any chiếu yet.", "Bạn chưa làm Trung Quân ở chiếu nào."),
        ],
    )


def test_the_timeline_in_english(played: Any) -> None:
    both(
        Client(),
        f"/man-hinh/{played.table.pk}/dien-bien/",
        [
            ("<h1>Timeline · Chiếu sân đình</h1>", "<h1>Diễn biến · Chiếu sân đình</h1>"),
            ("Press “Replay” to hear a ván again.", "Bấm “Phát lại” để nghe lại một ván."),
            (">Audience display</a>", ">Màn hình khán giả</a>"),
            ('aria-pressed="false">Sound on</button>', 'aria-pressed="false">Bật âm thanh</button>'),
            (
                '<p class="help">No signal was recorded in this ván.</p>',
                '<p class="help">Không có hiệu nào được ghi trong ván này.</p>',
            ),
            ("Bình won Tôm, 8 points", "Bình ù Tôm, 8 điểm"),
            ('data-replay="1-2">Replay ván 2</button>', 'data-replay="1-2">Phát lại ván 2</button>'),
            (
                "<th>Time</th><th>+</th><th>Seat</th><th>Signal</th><th>Meaning</th><th>Nọc left</th>",
                "<th>Giờ</th><th>+</th><th>Chỗ</th><th>Hiệu</th><th>Ý nghĩa</th><th>Nọc còn</th>",
            ),
        ],
    )


def test_the_audience_display_in_english(played: Any) -> None:
    english, _vietnamese = both(
        Client(),
        f"/man-hinh/{played.table.pk}/",
        [
            (
                "<title>Chiếu sân đình · Audience display · Sổ Tôm</title>",
                "<title>Chiếu sân đình · Màn hình khán giả · Sổ Tôm</title>",
            ),
            ('aria-live="polite">Connecting…</div>', 'aria-live="polite">Đang kết nối…</div>'),
            ('aria-pressed="false">Sound on</button>', 'aria-pressed="false">Bật âm thanh</button>'),
            ("hidden>Đốc nọc — draw</div>", "hidden>Đốc nọc — hòa</div>"),
            ('<span class="dp-k">Time</span>', '<span class="dp-k">Thời gian</span>'),
            ('<span class="dp-k">Dealer</span>', '<span class="dp-k">Nhà cái</span>'),
            ('aria-label="Seat 2"', 'aria-label="Chỗ 2"'),
            ('<span class="dp-cai">Dealer</span>', '<span class="dp-cai">Cái</span>'),
            ('data-role="balance">28 points</div>', 'data-role="balance">28 điểm</div>'),
            (
                '<aside class="dp-ticker" aria-label="Timeline">',
                '<aside class="dp-ticker" aria-label="Diễn biến">',
            ),
            ("<h2>Timeline</h2>", "<h2>Diễn biến</h2>"),
        ],
    )
    assert '<div class="dp-van">Ván <b id="dp-van">3</b></div>' in english
    assert '<span class="dp-k">Nọc</span>' in english


def test_console_errors_are_answered_in_the_page_s_language(played: Any) -> None:
    """A service's error (ConsoleError) and the views' own refusals, in English under /en/.

    The hardware API is not under a language prefix: it answers in the language its client asks
    for with Accept-Language (scoring/i18n.py ApiLanguageMiddleware, issue 21), Vietnamese otherwise.
    """
    client, pk = tq(played), played.table.pk
    hx = {"HTTP_HX_REQUEST": "true"}

    def post(path: str, data: dict[str, Any], status: int = 200) -> tuple[str, str]:
        return (
            text(client.post(f"/en/trung-quan/{pk}/{path}", data, **hx), status),
            text(client.post(f"/trung-quan/{pk}/{path}", data, **hx), status),
        )

    # a refusal answers 400 (a mistake, as on every page); the helpers' results and a ván form
    # without a winner are not refusals
    in_own_language(*post("hieu/", {"seat": 9, "signal": "tung"}, 400), [SEAT_ERROR])
    in_own_language(
        *post("hieu/", {"seat": 1, "signal": "khai-hoi"}, 400),
        [
            (
                'Khai hội is the Trung Quân\'s big drum: send it with the seat "trung_quan".',
                'Khai hội là trống cái của Trung Quân: hãy gửi với chỗ "trung_quan".',
            ),
        ],
    )
    in_own_language(
        *post("noc/", {"action": "set", "value": "99"}, 400),
        [
            ("The nọc holds only 0 to 19 cards (got 99).", "Nọc chỉ có từ 0 đến 19 quân (nhận được 99)."),
        ],
    )
    in_own_language(
        *post("cai/", {"seat": 9}, 400),
        [
            (
                "Dealer must be a seat from 1 to 5 (got 9).",
                "Nhà cái phải là chỗ ngồi từ 1 đến 5 (nhận được 9).",
            ),
        ],
    )
    in_own_language(*post("ghi-van/", {"seq": 3, "key": "k"}), [("Pick the winner.", "Hãy chọn người ù.")])
    in_own_language(
        *post("u-de/", {"door": 1, "claimants": ["3", "4", "5"]}),
        [
            ("Seat 3 — Chi wins; overridden (bị đè ù): Dũng, Em", "Chỗ 3 — Chi được ù; bị đè ù: Dũng, Em"),
        ],
    )
    in_own_language(
        *post("bat-cai/", {"method": "mot_quan", "card1": "7v", "chooser": 1, "players": 5}),
        [
            ("Dealer: seat 3 — Chi, part 2", "Cái về chỗ 3 — Chi, phần thứ 2"),
            (">Make Chi the dealer</button>", ">Giao cái cho Chi</button>"),
        ],
    )
    in_own_language(
        text(client.post("/en/trung-quan/", {"event_table": "999999"}), 400),
        text(client.post("/trung-quan/", {"event_table": "999999"}), 400),
        [
            (
                "No such chiếu, or you are not an organiser or Trung Quân of the tournament.",
                "Không có chiếu này, hoặc bạn không phải ban tổ chức hay Trung Quân của giải.",
            )
        ],
    )
    someone = Client()
    someone.force_login(get_user_model().objects.create_user("khach"))
    in_own_language(
        text(someone.get(f"/en/trung-quan/{pk}/"), 403),
        text(someone.get(f"/trung-quan/{pk}/"), 403),
        [
            (
                "Only this chiếu's Trung Quân and the organisers can open the Trung Quân console.",
                "Chỉ Trung Quân của chiếu này và ban tổ chức mới mở được bàn Trung Quân.",
            )
        ],
    )
    api = client.post(
        f"/api/v1/tables/{pk}/signals",
        {"seat": 9, "signal": "tung"},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert (api.status_code, api.json()) == (400, {"error": SEAT_ERROR[0], "code": "console_refused"})
    api = client.post(
        f"/api/v1/tables/{pk}/signals", {"seat": 9, "signal": "tung"}, content_type="application/json"
    )
    assert (api.status_code, api.json()) == (400, {"error": SEAT_ERROR[1], "code": "console_refused"})
