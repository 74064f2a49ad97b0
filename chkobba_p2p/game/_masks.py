"""Sets of cards as 40-bit masks, and the capture tables computed on them.

Bit ``id`` of a mask is the card ``Card(id)``.  The engine (:mod:`.hand`), the scoring
(:mod:`.scoring`) and the bots' search (:mod:`chkobba_p2p.bots.expert`) work on these.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from .cards import Card

# --------------------------------------------------------------------------- bitmasks
# Inside the engine a set of cards is a 40-bit int: bit ``id`` is the card ``Card(id)``.
# Captures, the cards a view has seen, the captured piles and the scores are computed on
# these masks; the public values (tuples of cards, frozensets, Move) are built from them.

VALUE = tuple(i % 10 + 1 for i in range(40))
BIT = tuple(1 << i for i in range(40))
DIAMOND_MASK = sum(BIT[20:30])
SEVEN_MASK = BIT[6] | BIT[16] | BIT[26] | BIT[36]
SIX_MASK = BIT[5] | BIT[15] | BIT[25] | BIT[35]
HAYA_BIT = BIT[26]
ALL_CARDS = (1 << 40) - 1
#: The cards of each value (index 1..10), and of every value below it.
_RANK_MASK = (0,) + tuple(BIT[v - 1] | BIT[v + 9] | BIT[v + 19] | BIT[v + 29]
                          for v in range(1, 11))
_BELOW_MASK = tuple(sum(_RANK_MASK[1:v]) for v in range(11))
_PRIMIERA = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}
# Per suit, the card ids from best to worst primiera value.
_PRIMIERA_ORDER = tuple(
    tuple(sorted(range(s * 10, s * 10 + 10), key=lambda c: -_PRIMIERA[VALUE[c]]))
    for s in range(4)
)


def bits(mask: int) -> list[int]:
    """The card ids set in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Iterable[Card]) -> int:
    """The mask of some cards."""
    m = 0
    for c in cards:
        m |= BIT[c]
    return m


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of ``mask``, by id."""
    return tuple([_DECK_BY_ID[i] for i in bits(mask)])


_DECK_BY_ID = tuple(Card(i) for i in range(40))

# The caches are cleared when full, which keeps memory bounded (and the clearing cheap
# enough to fit in a bot's move budget).
_CACHE_LIMIT = 200_000
_CAPTURE_MASKS: dict[int, tuple[int, ...]] = {}
_CAPTURE_SETS: dict[int, tuple[frozenset[Card], ...]] = {}
_FROZEN: dict[int, frozenset[Card]] = {}
_MASKS: dict[frozenset[Card], int] = {}  # the inverse of _FROZEN
_MASK_SUM: dict[int, int] = {}
_SUM_PATTERNS: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}


def capture_masks(value: int, table: int) -> tuple[int, ...]:
    """Every capture (as a mask) a card of ``value`` may make on ``table`` (a mask).

    Rank first: one option per table card of that value.  Otherwise every group of two or
    more table cards whose values sum to ``value``.  Empty: nothing can be taken.  Options
    come in a fixed order (same-value cards by id; groups in the order a walk over the
    table's cards by value, then id, finds them); the public moves and hints list them in
    table order.
    """
    same = table & _RANK_MASK[value]
    if same:
        return _SAME_MASKS[same]
    smaller = table & _BELOW_MASK[value]
    if not smaller & (smaller - 1):  # fewer than two cards: no sum
        return ()
    key = (smaller << 4) | value
    found = _CAPTURE_MASKS.get(key)
    if found is None:
        # The groups depend only on the values: found once per multiset of values (the
        # tables met are many, their value patterns few), then named with these cards.
        ids = sorted(bits(smaller), key=VALUE.__getitem__)  # by value, ties by id
        pattern = (value, *[VALUE[c] for c in ids])
        groups = _SUM_PATTERNS.get(pattern)
        if groups is None:
            out: list[tuple[int, ...]] = []
            _sum_groups(pattern, 1, value, (), out)
            groups = tuple(out)
            if len(_SUM_PATTERNS) > _CACHE_LIMIT:
                _SUM_PATTERNS.clear()
            _SUM_PATTERNS[pattern] = groups
        found = tuple([sum([BIT[ids[i - 1]] for i in g]) for g in groups])
        if len(_CAPTURE_MASKS) > _CACHE_LIMIT:
            _CAPTURE_MASKS.clear()
        _CAPTURE_MASKS[key] = found
    return found


def _sum_groups(values: tuple[int, ...], start: int, remaining: int, chosen: tuple[int, ...],
                out: list[tuple[int, ...]]) -> None:
    """The groups of two or more of ``values[start:]`` (ascending) summing to
    ``remaining``, as index tuples, in the order of a walk from the smallest."""
    # A plain function, not a closure: a recursive closure is a reference cycle, garbage
    # that only the cycle collector frees (and its pauses would eat into a bot's budget).
    for i in range(start, len(values)):
        v = values[i]
        if v == remaining:
            if chosen:
                out.append((*chosen, i))
        elif v < remaining:
            _sum_groups(values, i + 1, remaining - v, (*chosen, i), out)
        else:
            break  # ascending: nothing further fits


def frozen(mask: int) -> frozenset[Card]:
    """The cards of ``mask`` as a frozenset (shared: the same few are asked again)."""
    found = _FROZEN.get(mask)
    if found is None:
        found = frozenset(cards_of(mask))
        if len(_FROZEN) > _CACHE_LIMIT:
            _FROZEN.clear()
            _MASKS.clear()
        _FROZEN[mask] = found
        _MASKS[found] = mask
    return found


def _capture_sets(value: int, table: int) -> tuple[frozenset[Card], ...]:
    """:func:`capture_masks` as frozensets of cards (what moves hold)."""
    same = table & _RANK_MASK[value]
    if same:
        return _SAME_SETS[same]
    smaller = table & _BELOW_MASK[value]
    if not smaller & (smaller - 1):
        return ()
    key = (smaller << 4) | value
    found = _CAPTURE_SETS.get(key)
    if found is None:
        found = tuple([frozen(m) for m in capture_masks(value, table)])
        if len(_CAPTURE_SETS) > _CACHE_LIMIT:
            _CAPTURE_SETS.clear()
        _CAPTURE_SETS[key] = found
    return found


def _same_value_options() -> tuple[dict[int, tuple[int, ...]],
                                   dict[int, tuple[frozenset[Card], ...]]]:
    """The rank-first options of every set of same-value table cards (150 of them)."""
    masks: dict[int, tuple[int, ...]] = {}
    sets: dict[int, tuple[frozenset[Card], ...]] = {}
    for v in range(1, 11):
        ids = bits(_RANK_MASK[v])
        for k in range(1, 16):
            same = sum(BIT[ids[i]] for i in range(4) if k >> i & 1)
            masks[same] = tuple([BIT[c] for c in bits(same)])
            sets[same] = tuple([frozenset([_DECK_BY_ID[c]]) for c in bits(same)])
    return masks, sets


_SAME_MASKS, _SAME_SETS = _same_value_options()
#: Each card alone, as the capture of a card of its value.
_SINGLE = tuple(_SAME_SETS[BIT[i]][0] for i in range(40))


def mask_sum(mask: int) -> int:
    """The sum of the values of the cards of ``mask``."""
    found = _MASK_SUM.get(mask)
    if found is None:
        found = sum([VALUE[c] for c in bits(mask)])
        if len(_MASK_SUM) > _CACHE_LIMIT:
            _MASK_SUM.clear()
        _MASK_SUM[mask] = found
    return found


def capture_options(played: Card, table: Sequence[Card]) -> list[frozenset[Card]]:
    """Every capture the rules allow for ``played`` on ``table``.

    Rank first: the table cards of the same value, one option each.  Otherwise every group
    of two or more table cards whose values sum to the played value.  Empty: no capture.
    """
    options = _capture_sets(played.value, mask_of(table))
    return list(_in_table_order(options, table) if len(options) > 1 else options)


def _in_table_order(options: Sequence[frozenset[Card]],
                    table: Sequence[Card]) -> tuple[frozenset[Card], ...]:
    """Options in the order people read them: by the table positions of their cards
    (a walk over the table as laid out finds them in this order)."""
    pos = {c: i for i, c in enumerate(table)}
    return tuple(sorted(options, key=lambda group: sorted([pos[c] for c in group])))


def _brute_force_options(played: Card, table: Sequence[Card]) -> list[frozenset[Card]]:
    """Reference enumeration over all subsets (for tests): same contract as capture_options."""
    same = [frozenset((c,)) for c in table if c.value == played.value]
    if same:
        return same
    return [
        frozenset(group)
        for size in range(2, len(table) + 1)
        for group in combinations(table, size)
        if sum(c.value for c in group) == played.value
    ]
