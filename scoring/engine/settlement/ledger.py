"""A scratch book used while one ván is being settled.

:class:`Book` is the only mutable object of the settlement package, and it never escapes
:func:`settle_van`: it starts from a :class:`SittingState`, records transfers (checking each one),
and is turned back into a new immutable state. Zero amounts are silently skipped, so callers can
write "pay what is due" without testing for nothing-to-pay.
"""

from __future__ import annotations

from collections.abc import Callable

from scoring.engine.errors import InvariantError

from .types import GA_TRONG, POOL, SittingState, Transfer

__all__ = ["Book", "check_state"]


class Book:
    """Accounts of a sitting (players, pool, gà pot) and the transfers of the current ván."""

    def __init__(self, state: SittingState) -> None:
        self.accounts: dict[str, int] = state.balance_map()
        self.accounts[POOL] = state.pool
        self.accounts[GA_TRONG] = state.ga_trong
        self.transfers: list[Transfer] = []
        #: Whether a payout took points out of the pool during this ván.
        self.pool_paid_out = False

    def pay(self, from_: str, to: str, amount: int, why: str) -> int:
        """Move ``amount`` from ``from_`` to ``to``; return the amount moved (0 is skipped)."""
        if amount < 0:
            raise InvariantError(f"negative transfer {from_}->{to}: {amount}")
        if from_ == to:
            raise InvariantError(f"transfer to self: {from_}")
        if from_ not in self.accounts or to not in self.accounts:
            raise InvariantError(f"unknown account in transfer {from_}->{to}")
        if amount == 0:
            return 0
        if from_ in (POOL, GA_TRONG) and self.accounts[from_] < amount:
            raise InvariantError(f"{from_} would go below zero")
        self.accounts[from_] -= amount
        self.accounts[to] += amount
        self.transfers.append(Transfer(from_, to, amount, why))
        return amount

    def take_from_pool(self, to: str, wanted: int, why: Callable[[int], str]) -> int:
        """Pay ``to`` up to ``wanted`` from the pool; return what was taken (capped at the pool).

        ``why`` builds the reason from the amount actually taken.
        """
        taken = min(wanted, self.accounts[POOL])
        if taken > 0:
            self.pool_paid_out = True
        return self.pay(POOL, to, taken, why(taken))

    @property
    def pool(self) -> int:
        """Points in the pool now."""
        return self.accounts[POOL]

    @property
    def pot(self) -> int:
        """Points in the gà trong pot now."""
        return self.accounts[GA_TRONG]

    def balances(self, players: tuple[str, ...]) -> tuple[int, ...]:
        """Player balances in seat order."""
        return tuple(self.accounts[name] for name in players)


def check_state(state: SittingState) -> None:
    """Raise :class:`InvariantError` unless the state is zero-sum with non-negative pots."""
    if state.total() != 0:
        raise InvariantError(f"accounts do not sum to zero: {state.total()}")
    if state.pool < 0 or state.ga_trong < 0:
        raise InvariantError(f"negative pool or pot: pool={state.pool} ga_trong={state.ga_trong}")
    if len(state.balances) != len(state.players) or len(state.cheo_do) != len(state.players):
        raise InvariantError("state arrays do not follow the seats")
