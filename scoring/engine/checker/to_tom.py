"""Kiểm bài for Tổ Tôm Bí Ngũ, Bí Tứ and Điếm: tròn, lưng, card-derived cước, waits (RULES §4–§5)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from scoring.engine.cards import CARD_BY_CODE, CARDS, Card, card_counts
from scoring.engine.checker.common import (
    Arrangement,
    count_problem,
    diff_message,
    junk_message,
    result,
)
from scoring.engine.checker.phu import (
    ONE,
    LungSlug,
    Phu,
    PhuShape,
    find_phu,
    isolated_kinds,
    lung_families,
    pack,
    show_arrangement,
)
from scoring.engine.checker.result import CheckResult, Wait
from scoring.engine.checker.search import ToTomSearch, tt_search
from scoring.engine.checker.signature import PHU_INDEX, mask_bits, need_code, split_index
from scoring.engine.checker.verdict import XUYEN_FAMILY, Verdict, XuongDiff, cuoc_names, diff_declared
from scoring.engine.games import Game, GameSlug

__all__ = ["arrangements_to_tom", "check_to_tom", "cuoc_of", "waits_to_tom"]

_RED = tuple(c.index for c in CARDS if c.is_red)
_OC = CARD_BY_CODE["oc"].index
_CC = CARD_BY_CODE["cc"].index
_LEO_KINDS = (_CC, CARD_BY_CODE["9m"].index, CARD_BY_CODE["8s"].index)
_LEO = dict.fromkeys(_LEO_KINDS, 1)
_TOM = (CARD_BY_CODE["7v"].index, CARD_BY_CODE["3m"].index, CARD_BY_CODE["3s"].index)

#: Cước the cards alone decide, per game.
JUDGED_TT5 = frozenset({"tom", "leo", "thap_dieu", "kinh_cu", "bach_dinh", "kinh_tu_co"})
JUDGED_TT4 = frozenset({"tom", "leo", "thap_nhi_dieu", "kinh_2_cu", "bach_dinh", "kinh_tu_co"})
#: Cước decided by the waiting hand and the winning card.
WAIT_CUOC = frozenset({"bach_thu", "xuyen", "xuyen_nam_gian", "xuyen_bi_tu", "chi_nay"})


def _judged(game: Game) -> frozenset[str]:
    return JUDGED_TT4 if game.slug is GameSlug.TO_TOM_4 else JUDGED_TT5


def cuoc_of(game: Game, counts: Sequence[int], index: int) -> tuple[str, ...]:
    """Card-derived cước of a complete hand read with cước index ``index`` ("suong" if none)."""
    tom, leo, ktc = split_index(index)
    red = sum(map(counts.__getitem__, _RED))
    oc = counts[_OC]
    out = []
    if ktc and red == 4 == oc:
        out.append("kinh_tu_co")
    if red == 0:
        out.append("bach_dinh")
    if game.slug is GameSlug.TO_TOM_4:
        if red == 12:
            out.append("thap_nhi_dieu")
        if red == 2 == oc:
            out.append("kinh_2_cu")
    else:
        if red == 10:
            out.append("thap_dieu")
        if red == 1 == oc:
            out.append("kinh_cu")
    if leo:
        out += ["leo"] * leo
    if tom:
        out.append("tom")
    return tuple(out) if out else ("suong",)


def read_counts(cards: Sequence[Card]) -> tuple[list[int], int]:
    """Count vector and packed count of a hand (the packed count is garbage past 15 copies)."""
    counts = [0] * len(CARDS)
    state = 0
    for card in cards:
        index = card.index
        counts[index] += 1
        state += ONE[index]
    return counts, state


def check_to_tom(
    game: Game,
    cards: tuple[Card, ...],
    declared: Sequence[str] | None,
    win_card: Card | None,
) -> CheckResult:
    """Check a Tổ Tôm winning hand (and a declaration, when given)."""
    counts, state = read_counts(cards)
    if len(cards) != game.hand_size or max(counts) > 4:
        verdict, message = count_problem(game, cards, counts) or (Verdict.SAI_SO_QUAN, "")
        return result(game, cards, verdict, message)
    isolated = isolated_kinds(state)
    if isolated:
        return result(game, cards, Verdict.KHONG_TRON, junk_message(isolated))
    search = tt_search(game.min_lung or 1)
    if declared is None:
        found = search.find(state, _targets(counts, search.cap))
        if found is None:
            return result(game, cards, Verdict.KHONG_TRON, junk_message(()))
        if found[0]:  # the most valuable reading the counts allow: no need to weigh the others
            cuoc = cuoc_of(game, counts, sum(map(PHU_INDEX.__getitem__, found[1])))
            phu, lung = show_arrangement(found[1])
            return CheckResult(game.slug, cards, True, True, lung, cuoc, Verdict.OK, phu, _ok_message(cuoc))
    return _check_all_readings(game, cards, counts, state, search, declared, win_card)


def _check_all_readings(
    game: Game,
    cards: tuple[Card, ...],
    counts: list[int],
    state: int,
    search: ToTomSearch,
    declared: Sequence[str] | None,
    win_card: Card | None,
) -> CheckResult:
    """Check a hand by weighing every reading of it (the signature mask)."""
    search.reset()
    mask = search.mask(state)
    if not mask:
        return result(game, cards, Verdict.KHONG_TRON, junk_message(()))
    cap = search.cap
    top = search.level(mask, cap)
    if not top:
        level = max(lv for lv in range(cap) if search.level(mask, lv))
        phu, lung = show_arrangement(search.build(state, level, search.level(mask, level).bit_length() - 1))
        return result(
            game,
            cards,
            Verdict.KHONG_LUNG,
            _no_lung_message(game, level, cap),
            tron=True,
            lung=lung,
            arrangement=phu,
        )
    index, verdict, message, diff = _judge(game, cards, counts, top, declared, win_card)
    phu, lung = show_arrangement(search.build(state, cap, index))
    return result(
        game,
        cards,
        verdict,
        message,
        tron=True,
        valid=True,
        lung=lung,
        cuoc=cuoc_of(game, counts, index),
        arrangement=phu,
        thua=diff.thua,
        thieu=diff.thieu,
        declared=None if declared is None else tuple(declared),
    )


_OK_MESSAGES: dict[tuple[str, ...], str] = {}


def _ok_message(cuoc: tuple[str, ...]) -> str:
    """ "Bài ù hợp lệ: …" for these cước (cached: few distinct lists occur)."""
    message = _OK_MESSAGES.get(cuoc)
    if message is None:
        message = _OK_MESSAGES[cuoc] = f"Bài ù hợp lệ: {cuoc_names(cuoc)}."
    return message


def _targets(counts: Sequence[int], cap: int) -> list[int]:
    """What a win with these counts could carry, most valuable first (Kính Tứ Cố, Lèo, Tôm), then
    a plain win, then mere tròn (0): the fast search takes the first it reaches."""
    tom = counts[_TOM[0]] and counts[_TOM[1]] and counts[_TOM[2]]
    leo = min(counts[_CC], counts[_LEO_KINDS[1]], counts[_LEO_KINDS[2]])
    ktc = counts[_OC] == 4 and sum(map(counts.__getitem__, _RED)) == 4
    if not (tom or leo or ktc):
        return [cap, 0]
    return [
        need_code(cap, bool(t), lo, bool(k))
        for k in range(int(ktc), -1, -1)
        for lo in range(leo, -1, -1)
        for t in range(int(bool(tom)), -1, -1)
    ] + [0]


def _no_lung_message(game: Game, level: int, cap: int) -> str:
    if level == 0:
        return "Bài tròn nhưng không có lưng nào."
    return f"Bài tròn nhưng chỉ có {level} lưng; {game.name_vi} cần {cap} lưng riêng."


def _judge(
    game: Game,
    cards: tuple[Card, ...],
    counts: list[int],
    top: int,
    declared: Sequence[str] | None,
    win_card: Card | None,
) -> tuple[int, Verdict, str, XuongDiff]:
    """The reading to show: the best one, or the one a declaration fits best."""
    indexes = list(mask_bits(top))
    if declared is None:
        shown = cuoc_of(game, counts, indexes[0])
        return indexes[0], Verdict.OK, _ok_message(shown), XuongDiff((), ())
    judged = _judged(game)
    allowed: tuple[str, ...] = ()
    optional = frozenset({"xuyen"})  # only some rule sets know the single-gap Xuyên
    if win_card is not None:
        judged |= WAIT_CUOC
        allowed = _allowed_for(game, cards, win_card)
        if XUYEN_FAMILY & set(declared) & set(allowed):
            optional = XUYEN_FAMILY  # allowing several, any one may be declared
    best: tuple[tuple[int, int], int, XuongDiff] | None = None
    for index in _undominated(game, counts, indexes):
        diff = diff_declared(declared, cuoc_of(game, counts, index) + allowed, judged, optional=optional)
        if best is None or diff.key < best[0]:
            best = (diff.key, index, diff)
    assert best is not None
    verdict, message = diff_message(best[2], declared)
    return best[1], verdict, message, best[2]


def _undominated(game: Game, counts: Sequence[int], indexes: list[int]) -> list[int]:
    """Readings whose cước no other reading covers and exceeds (a lesser reading is xướng thiếu)."""
    shown = [(index, Counter(c for c in cuoc_of(game, counts, index) if c != "suong")) for index in indexes]
    return [
        index
        for index, mine in shown
        if not any(other != mine and all(other[k] >= n for k, n in mine.items()) for _, other in shown)
    ]


def _allowed_for(game: Game, cards: tuple[Card, ...], win_card: Card) -> tuple[str, ...]:
    """Wait cước the win on ``win_card`` allows, from the waiting hand (hand minus that card)."""
    waiting = list(cards)
    waiting.remove(win_card)
    wait = next((w for w in waits_to_tom(game, card_counts(waiting)) if w.card == win_card), None)
    return wait.allows if wait else ()


def waits_to_tom(game: Game, counts: list[int]) -> tuple[Wait, ...]:
    """Every card kind completing the waiting hand ``counts``, in deck order."""
    search = tt_search(game.min_lung or 1)
    search.reset()
    state = pack(counts)
    complete: dict[int, int] = {}
    for kind in range(len(CARDS)):
        if counts[kind] >= 4 or isolated_kinds(state + ONE[kind]):
            continue
        top = search.level(search.mask_holding(state + ONE[kind], kind), search.cap)
        if top:
            complete[kind] = top.bit_length() - 1
    single = len(complete) == 1
    out = []
    for kind, index in complete.items():
        full_counts = list(counts)
        full_counts[kind] += 1
        allows = _allows(search, state, counts, kind) if single else ()
        out.append(Wait(CARDS[kind], cuoc_of(game, full_counts, index), allows))
    return tuple(out)


def _allows(search: ToTomSearch, state: int, counts: list[int], kind: int) -> tuple[str, ...]:
    """Wait cước of the only winning card ``kind`` (RULES §5)."""
    full = state + ONE[kind]

    def fits(phu: Phu | None) -> bool:
        return phu is not None and bool(search.level(search.with_phu(full, phu), search.cap))

    card = CARDS[kind]
    out = []
    if counts[kind] == 2 and fits(find_phu(PhuShape.TRUNG, {kind: 3})):
        out.append("bach_thu")
    if card.rank is not None and 3 <= card.rank <= 7 and fits(_run(kind - 2, 5)):
        out.append("xuyen_nam_gian")
    if any(fits(p) for p in _bi_tu(kind)):
        out.append("xuyen_bi_tu")
    if card.rank is not None and 2 <= card.rank <= 8 and fits(_run(kind - 1, 3)):
        out.append("xuyen")
    if kind == _CC and fits(find_phu(PhuShape.LUNG, _LEO, LungSlug.LEO)):
        out.append("chi_nay")
    return tuple(out)


def _run(start: int, length: int) -> Phu | None:
    return find_phu(PhuShape.DOC, {start + k: 1 for k in range(length)})


def _bi_tu(kind: int) -> Iterator[Phu]:
    """The 5-card bí (or bí-shaped lưng) made of ``kind`` and a pair of each other kind."""
    card = CARDS[kind]
    if card.rank is not None:
        kinds = (card.rank - 1, card.rank + 8, card.rank + 17)
        phu = find_phu(PhuShape.BI, {k: 1 if k == kind else 2 for k in kinds})
        if phu is not None:
            yield phu
    for slug, kinds, bi_shaped in lung_families(kind):
        if bi_shaped:
            phu = find_phu(PhuShape.LUNG, {k: 1 if k == kind else 2 for k in kinds}, slug)
            if phu is not None:
                yield phu


def arrangements_to_tom(game: Game, counts: list[int]) -> Iterator[Arrangement]:
    """Every distinct complete arrangement with the lưng the game needs."""
    search = tt_search(game.min_lung or 1)
    search.reset()
    seen: set[tuple[int, ...]] = set()
    for ids in search.walk(pack(counts), search.cap):
        key = tuple(sorted(ids))
        if key in seen:
            continue
        seen.add(key)
        phu, lung = show_arrangement(ids)
        yield Arrangement(phu, lung, cuoc_of(game, counts, sum(map(PHU_INDEX.__getitem__, ids))), len(lung))
