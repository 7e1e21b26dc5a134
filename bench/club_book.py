"""Benchmark of the club book (not a test), on PostgreSQL or SQLite: the same code on both.

Builds a synthetic club in a throwaway database (PostgreSQL: next to the one ``DATABASE_URL``
names; SQLite, when ``DATABASE_URL`` is a ``sqlite://`` URL or unset: a file in a temporary folder):
``--members`` members (200) and ``--van`` ván (20,000) in canh of five players and 100 ván each,
spread over the lunar year Ất Tỵ (2025), with their ledger transactions and postings, bulk-loaded
(PostgreSQL: COPY with the ledger's row triggers off; SQLite: ``executemany``; the synthetic
transactions are balanced by construction). Then, in the same run, for the whole lunar year:

(a) a plain SQL ``GROUP BY member`` sum of the same postings (the club's canh of the period, the
    players' accounts): the reference;
(b) the club book's selector (``scoring.selectors.book.book``: points, settled and open parts, ván,
    wins, biggest win, canh, the running points of every member, the fewest-transfers plan, the
    ratings and closes), and its ratio to (a);
(c) the book's page (``/lang/<slug>/so/``, every member's row with its sparkline) and the API's
    ``GET /api/v1/clubs/<slug>/balances``, served through Django's test client in this process, as
    the treasurer.

Run from the repository root: ``DATABASE_URL=postgres://… .venv/bin/python bench/club_book.py
[--van N] [--members N] [--keep]`` (or with ``DATABASE_URL=sqlite:///…``, or unset). Targets:
(b)/(a) ≤ 2.0, and (b) and (c) under a second. ``--quick`` is the few-seconds run ``make test``
makes (tests/book/test_club_book_bench.py): 5,000 ván, in the database ``DATABASE_URL`` names as
it is (``--here``: the test database, emptied by its test). It exits 1 if the book's points differ
from the raw sums, whatever the timings.
"""

from __future__ import annotations

import datetime as dt
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchdb import bench_main, bench_parser, best_of, target  # noqa: E402 (bench/ is the script's own folder)
from leaderboard import Loader  # noqa: E402 (the leaderboard bench's loader)

SEATS = 5
VAN_PER_CANH = 100
CUOC = [("tom", 8), ("leo", 10), ("thap_dieu", 18), ("chi_nay", 36), ("bach_thu", 8), ("kinh_cu", 18)]
TET, NEXT_TET = dt.date(2025, 1, 29), dt.date(2026, 2, 17)

#: The reference: the cheapest query that sums every member's postings of the period.
RAW = """SELECT s.player_id, SUM(p.amount), COUNT(*) FROM scoring_posting p
         JOIN scoring_seat s ON s.id = p.seat_id JOIN scoring_sitting c ON c.id = p.sitting_id
         WHERE c.club_id = %s AND c.created_at >= %s AND c.created_at < %s AND p.account = 'player'
         GROUP BY s.player_id"""


def build(van: int, members: int, seed: int) -> Any:
    """The synthetic club: members, canh (sittings) over the lunar year, ván, transactions, postings."""
    from django.db import connection, transaction
    from django.utils import timezone

    from scoring.models import Club, Player
    from scoring.services.rules import resolve_rules, snapshot_for

    rng = random.Random(seed)
    club = Club.objects.create(name="Câu lạc bộ (benchmark)", slug="clb-bench", kind="clb")
    players = Player.objects.bulk_create(Player(name=f"Hội viên {i:03d}", club=club) for i in range(members))
    rules = snapshot_for(rules=resolve_rules("luat-2005"))
    canh = -(-van // VAN_PER_CANH)
    span = (NEXT_TET - TET).days
    zone = timezone.get_current_timezone()
    load = Loader(connection)
    b = load.base
    seats: list[list[tuple[int, Any]]] = []
    seat_id = b["scoring_seat"]
    for _ in range(canh):
        row = []
        for p in rng.sample(players, SEATS):
            seat_id += 1
            row.append((seat_id, p))
        seats.append(row)
    with transaction.atomic():
        if load.pg:
            with connection.cursor() as c:
                c.execute(
                    "SET LOCAL session_replication_role = replica"
                )  # the load skips the ledger's row triggers
        load.load(
            "scoring_sitting",
            "id, game, rules_id, mode, title, created_at, needs_confirmation, club_id",
            (
                (
                    b["scoring_sitting"] + t + 1,
                    "to-tom-5",
                    rules.pk,
                    "quang",
                    f"Canh {t + 1}",
                    timezone.make_aware(
                        dt.datetime.combine(TET + dt.timedelta(days=t * span // canh), dt.time(19)), zone
                    ),
                    False,
                    club.pk,
                )
                for t in range(canh)
            ),
        )
        load.load(
            "scoring_seat",
            "id, sitting_id, player_id, position, name",
            (
                (s_id, b["scoring_sitting"] + t + 1, p.pk, pos + 1, p.name)
                for t, row in enumerate(seats)
                for pos, (s_id, p) in enumerate(row)
            ),
        )
        now = timezone.now()
        for part, table, columns in (
            (
                "van",
                "scoring_van",
                "id, sitting_id, seq, record, outcome, winner_id, fault, cuoc, streak, points, "
                "cards, created_at, is_current, correction_reason, status",
            ),
            ("txn", "scoring_ledgertransaction", "id, sitting_id, van_id, kind, reason, created_at"),
            (
                "posting",
                "scoring_posting",
                "id, transaction_id, sitting_id, account, seat_id, amount, line, why",
            ),
        ):
            load.load(table, columns, _stream(load, seed + 1, van, seats, now, part))
    with connection.cursor() as c:
        if load.pg:
            for table in (
                "scoring_sitting",
                "scoring_seat",
                "scoring_van",
                "scoring_ledgertransaction",
                "scoring_posting",
            ):
                c.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
                )
        c.execute("ANALYZE")
    return club


def _stream(
    load: Any, seed: int, van: int, seats: list[list[tuple[int, Any]]], now: Any, part: str
) -> Iterator[tuple[Any, ...]]:
    """The rows of one table of the load, the same draw each time (streamed)."""
    b = load.base
    rng = random.Random(seed)
    posting_id = b["scoring_posting"]
    for v in range(van):
        t = v // VAN_PER_CANH
        sitting = b["scoring_sitting"] + t + 1
        row = seats[t]
        win = rng.randrange(SEATS)
        slug, points = rng.choice(CUOC)
        winner_seat, winner = row[win]
        seq = v % VAN_PER_CANH + 1
        van_id, txn_id = b["scoring_van"] + v + 1, b["scoring_ledgertransaction"] + v + 1
        if part == "van":
            yield (
                van_id,
                sitting,
                seq,
                f'{{"winner": "{winner.name}", "cuoc": ["{slug}"]}}',
                "u",
                winner_seat,
                "",
                f'["{slug}"]',
                1,
                points,
                "",
                now,
                True,
                "",
                "khong_can",
            )
        elif part == "txn":
            yield (txn_id, sitting, van_id, "van", f"Ván {seq}", now)
        else:
            line = 0
            for i, (seat_id, _p) in enumerate(row):
                if i == win:
                    continue
                line += 1
                posting_id += 2
                yield (posting_id - 1, txn_id, sitting, "player", seat_id, -points, line, "trả")
                yield (posting_id, txn_id, sitting, "player", winner_seat, points, line, "được")


def run(van: int, members: int, seed: int) -> bool:
    """The run; answers whether the book's points equal the raw sums."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from scoring.models import ClubRole, ClubRoleKind
    from scoring.periods import lunar_year
    from scoring.selectors.book import book

    call_command("migrate", verbosity=0)
    database = {"postgresql": "PostgreSQL", "sqlite": "SQLite"}.get(connection.vendor, connection.vendor)
    started = __import__("time").perf_counter()
    club = build(van, members, seed)
    print(f"bench/club_book.py on {database}")
    print(
        f"built: {members} members, {van:,} ván, {van * (SEATS - 1) * 2:,} postings "
        f"in {__import__('time').perf_counter() - started:.1f} s"
    )
    period = lunar_year(2025)
    start, end = period.bounds()
    params = [
        club.pk,
        connection.ops.adapt_datetimefield_value(start),
        connection.ops.adapt_datetimefield_value(end),
    ]

    def raw() -> dict[int, int]:
        with connection.cursor() as c:
            c.execute(RAW, params)
            return {player: int(total) for player, total, _n in c.fetchall()}

    def whole() -> Any:
        return book(club, period)

    raw(), whole()  # warm the caches of both alike
    raws, books = [], []
    for _ in range(5):  # in turn, so that a busy moment of the machine weighs on both alike
        raws.append(best_of(1, raw))
        books.append(best_of(1, whole))
    (raw_s, sums), (book_s, the_book) = min(raws, key=lambda r: r[0]), min(books, key=lambda r: r[0])
    print(f"(a) raw GROUP BY member:  {raw_s * 1000:8.1f} ms ({len(sums)} members; best of 5)")
    print(
        f"(b) the club book:        {book_s * 1000:8.1f} ms ({the_book.van:,} ván, {len(the_book.canh)} canh; "
        f"best of 5; target < 1 s: {target(book_s < 1)})"
    )
    judged = (
        target(book_s / raw_s <= 2.0)
        if van >= 20_000
        else "not judged below 20,000 ván: fixed costs weigh more"
    )
    print(f"    book / raw GROUP BY = {book_s / raw_s:.2f}  (target ≤ 2.0: {judged})")
    treasurer = get_user_model().objects.create_user("thu-quy-bench")
    ClubRole.objects.create(user=treasurer, club=club, role=ClubRoleKind.TREASURER)
    client = Client()
    client.force_login(treasurer)
    page_s, page = best_of(3, lambda: client.get(f"/lang/{club.slug}/so/?ky=nam-2025"))
    api_s, api = best_of(
        3, lambda: client.get(f"/api/v1/clubs/{club.slug}/balances?from={period.start}&to={period.end}")
    )
    if page.status_code != 200 or api.status_code != 200:
        raise SystemExit(f"the page answered {page.status_code}, the API {api.status_code}")
    print(
        f"(c) book page: {page_s * 1000:7.1f} ms; API balances: {api_s * 1000:7.1f} ms "
        f"(best of 3; target < 1 s: {target(max(page_s, api_s) < 1)})"
    )
    same = {m.player_id: m.points for m in the_book.members} == sums and {
        row["player"]: row["points"] for row in api.json()["members"]
    } == {m.name: m.points for m in the_book.members}
    print(f"    book == raw GROUP BY: {same}")
    return same


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--van", type=int, default=None, help="ván to load (20,000; --quick: 5,000)")
    parser.add_argument("--members", type=int, default=200, help="members (200)")
    args = parser.parse_args()
    van = args.van or (5_000 if args.quick else 20_000)
    bench_main(args, "bench_club_book", lambda: run(van, args.members, args.seed))


if __name__ == "__main__":
    main()
