"""Settling up at the end of a sitting: the fewest transfers that zero every balance.

The minimum number of transfers that clears balances ``b_1 … b_k`` (non-zero, summing to zero)
is ``k − g``, where ``g`` is the largest number of groups the players can be split into so that
each group sums to zero on its own: inside a group of ``m`` players, ``m − 1`` transfers suffice
and are needed. The grouping is found exactly by a dynamic programme over subsets (``O(2^k·k)``)
for up to :data:`EXACT_LIMIT` non-zero balances; beyond that a greedy pass is used (at most
``k − 1`` transfers, not always the fewest).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoring.engine.errors import N_, SettlementError
from scoring.engine.words import PHRASES, REASONS

from .types import Transfer

__all__ = ["EXACT_LIMIT", "settle_up"]

#: Largest number of non-zero balances settled exactly (2^16 states × 16 is still instant).
EXACT_LIMIT = 16


def settle_up(balances: Mapping[str, int]) -> list[Transfer]:
    """The fewest transfers (debtor → creditor) that bring every balance to zero.

    Raises :class:`SettlementError` when the balances do not sum to zero (nobody could settle
    them). The order of the answer is deterministic: groups in the order found, and inside a
    group the largest debt is paid to the largest credit first.
    """
    total = sum(balances.values())
    if total != 0:
        raise SettlementError(
            N_("Không thể thanh toán: tổng số dư phải bằng 0 (đang là {total})."), total=total
        )
    open_items = sorted(
        ((name, amount) for name, amount in balances.items() if amount != 0),
        key=lambda item: (-abs(item[1]), item[0]),
    )
    groups = [open_items] if len(open_items) > EXACT_LIMIT else _zero_sum_groups(open_items)
    transfers: list[Transfer] = []
    for group in groups:
        transfers.extend(_greedy(group))
    return transfers


def _zero_sum_groups(items: Sequence[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """Split ``items`` into the largest number of zero-sum groups.

    ``best[mask]`` is the most zero-sum prefixes any ordering of ``mask`` can have; an ordering
    that reaches ``best[full]`` cut at its zero-sum prefixes gives the groups.
    """
    count = len(items)
    full = (1 << count) - 1
    sums = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + items[low][1]
        bonus = 1 if sums[mask] == 0 else 0
        best[mask] = bonus + max(best[mask ^ (1 << i)] for i in range(count) if mask >> i & 1)
    order: list[int] = []
    mask = full
    while mask:
        bonus = 1 if sums[mask] == 0 else 0
        last = next(i for i in range(count) if mask >> i & 1 and best[mask ^ (1 << i)] + bonus == best[mask])
        order.append(last)
        mask ^= 1 << last
    order.reverse()
    groups: list[list[tuple[str, int]]] = []
    current: list[tuple[str, int]] = []
    running = 0
    for index in order:
        current.append(items[index])
        running += items[index][1]
        if running == 0:
            groups.append(current)
            current = []
    return groups


def _greedy(group: Sequence[tuple[str, int]]) -> list[Transfer]:
    """Clear one zero-sum group: the largest debtor pays the largest creditor, repeatedly.

    Every step zeroes at least one side and the last step zeroes both, so a group of ``m``
    players needs at most ``m − 1`` transfers.
    """
    debts = {name: -amount for name, amount in group if amount < 0}
    credits = {name: amount for name, amount in group if amount > 0}
    transfers: list[Transfer] = []
    while debts and credits:
        debtor = max(debts, key=lambda name: (debts[name], name))
        creditor = max(credits, key=lambda name: (credits[name], name))
        amount = min(debts[debtor], credits[creditor])
        transfers.append(
            Transfer(
                debtor,
                creditor,
                amount,
                REASONS["pay"].format(
                    payer=debtor, payee=creditor, amount=amount, label=PHRASES["settle_up"]
                ),
            )
        )
        for book, name in ((debts, debtor), (credits, creditor)):
            book[name] -= amount
            if book[name] == 0:
                del book[name]
    return transfers
