"""Random but valid ván for the fault tests: every record is checked by the engine's own replay
before it is used, so a refusal by the server can only mean a fault, never a bad record."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from scoring.engine.errors import EngineError
from scoring.engine.rules import load_rules
from scoring.engine.settlement import (
    initial_state,
    make_terms,
    parse_van,
    replay,
    rules_with_overrides,
    settle_van,
)

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]
CUOC = ["tom", "leo", "thap_dieu", "chi_nay", "suong", "bach_thu", "kinh_cu"]


def _candidate(rng: random.Random, players: list[str]) -> dict[str, Any]:
    winner = rng.choice(players)
    others = [p for p in players if p != winner]
    roll = rng.random()
    if roll < 0.08:
        return {"result": "hoa"}
    record: dict[str, Any] = {"winner": winner, "cuoc": [rng.choice(CUOC)]}
    if roll < 0.45:
        record["discarder"] = rng.choice(others)
    elif roll < 0.55:
        record["chiu"] = [rng.choice(others)]
    elif roll < 0.60:
        record["fault"] = "lanh_lang"
    elif roll < 0.64:
        record["fault"] = "u_bao"
    return record


@dataclass
class Script:
    """One sitting's request for the engine's replay, grown one checked ván at a time."""

    mode: str = "quang"
    players: list[str] = field(default_factory=lambda: list(FIVE))
    rules: str = "luat-2005"
    game: str = "to-tom-5"
    gom: int | None = None
    van: list[dict[str, Any]] = field(default_factory=list)
    _state: Any = None

    def request(self, van: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "rules": self.rules,
            "mode": self.mode,
            "players": self.players,
            "van": self.van if van is None else van,
        }
        if self.gom is not None:
            out["gom"] = self.gom
        return out

    def grow(self, rng: random.Random, count: int) -> list[dict[str, Any]]:
        """Append ``count`` random ván the engine accepts after the ones already there."""
        table = make_terms(self.game, rules_with_overrides(self.request(), load_rules), self.mode)
        if self._state is None:
            self._state = initial_state(self.players, table.game, table.rules, table.mode)
        for _ in range(count):
            for _attempt in range(50):
                record = _candidate(rng, self.players)
                try:
                    parsed = parse_van(record, self.players, len(self.van) + 1)
                    settled = settle_van(
                        self._state, parsed, game=table.game, rules=table.rules, mode=table.mode
                    )
                except EngineError:
                    continue
                self._state = settled.state
                self.van.append(record)
                break
            else:  # pragma: no cover - the menu always has a valid ván (a draw)
                raise AssertionError("no valid ván found")
        return self.van

    def expected(self) -> dict[str, Any]:
        """The engine's replay of every ván: what the ledger must end up holding."""
        return replay(self.request())


def scripts(rng: random.Random, sittings: int, van_each: int) -> list[Script]:
    """``sittings`` scripts alternating đánh quăng and đánh gom (10 each: the pool is exercised)."""
    out = []
    for i in range(sittings):
        script = Script(mode="gom", gom=10) if i % 2 else Script()
        script.grow(rng, van_each)
        out.append(script)
    return out
