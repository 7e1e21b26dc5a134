"""The games table of docs/rules.md §2."""

from __future__ import annotations

import pytest

from scoring.engine.errors import GameError
from scoring.engine.games import GAMES, DeckKind, GameSlug, ScoringFamily, get_game


@pytest.mark.parametrize(
    ("slug", "name", "players", "deal", "dealer", "hand", "lung", "draw", "deck", "family"),
    [
        ("to-tom-5", "Tổ Tôm Bí Ngũ", (5, 5), 20, 21, 21, 1, 5, DeckKind.TO_TOM, ScoringFamily.TO_TOM),
        ("to-tom-4", "Tổ Tôm Bí Tứ", (4, 4), 24, 25, 25, 2, 8, DeckKind.TO_TOM, ScoringFamily.TO_TOM),
        ("tai-ban", "Tài Bàn", (3, 3), 30, 31, 31, 9, 14, DeckKind.TO_TOM, ScoringFamily.TAI_BAN),
        ("to-tom-diem", "Tổ Tôm Điếm", (5, 5), 20, 21, 21, 1, 1, DeckKind.TO_TOM, ScoringFamily.TO_TOM),
        ("chan", "Chắn", (2, 4), 19, 20, 20, None, None, DeckKind.CHAN, ScoringFamily.CHAN),
        ("phom", "Phỏm", (2, 4), 9, 10, None, None, None, DeckKind.WESTERN, ScoringFamily.PHOM),
    ],
)
def test_game_facts(slug, name, players, deal, dealer, hand, lung, draw, deck, family):
    game = get_game(slug)
    assert game.slug == slug
    assert game.name_vi == name
    assert (game.players_min, game.players_max) == players
    assert (game.deal, game.dealer_deal, game.hand_size) == (deal, dealer, hand)
    assert (game.min_lung, game.draw_at) == (lung, draw)
    assert game.deck is deck
    assert game.family is family


def test_every_slug_has_one_game():
    assert set(GAMES) == set(GameSlug)
    assert [g.slug for g in GAMES.values()] == list(GameSlug)


@pytest.mark.parametrize("slug", ["to-tom-5", "to-tom-4", "tai-ban", "to-tom-diem"])
def test_each_fold_removes_three_more_cards(slug):
    assert get_game(slug).fold_draw_extra == 3


@pytest.mark.parametrize("text", ["TO-TOM-5", " to-tom-5 ", GameSlug.TO_TOM_5])
def test_lookup_is_case_insensitive(text):
    assert get_game(text) is GAMES[GameSlug.TO_TOM_5]


def test_a_game_is_returned_as_is():
    game = get_game("chan")
    assert get_game(game) is game


@pytest.mark.parametrize("bad", ["to-tom-6", "", "tổ tôm"])
def test_unknown_game_is_refused_in_vietnamese_with_valid_slugs(bad):
    with pytest.raises(GameError) as exc:
        get_game(bad)
    message = str(exc.value)
    assert message.startswith(f"Không có trò chơi '{bad}'")
    for slug in GameSlug:
        assert f"'{slug.value}'" in message


@pytest.mark.parametrize(
    ("slug", "n", "ok"),
    [
        ("chan", 1, False),
        ("chan", 2, True),
        ("chan", 4, True),
        ("chan", 5, False),
        ("to-tom-5", 4, False),
        ("to-tom-5", 5, True),
    ],
)
def test_player_counts(slug, n, ok):
    assert get_game(slug).accepts_players(n) is ok
