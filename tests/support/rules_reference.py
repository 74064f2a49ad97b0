"""A slow, obviously-correct reference of one hand of Chkobba, written for the tests.

It follows /work/shared/rules.md line by line with plain lists and brute force (every
subset of the table is tried), and shares no code with :mod:`chkobba_p2p.game.rules`: the
Hypothesis tests in ``test_rules_reference.py`` play the engine and this reference side
by side and compare them after every action.  Nothing here is fast, on purpose.
"""

from __future__ import annotations

from itertools import combinations

# A card is its wire id 0..39: suit id // 10 (0 spades, 1 hearts, 2 diamonds, 3 clubs in
# the wire order; only "diamonds" matters to the rules), value id % 10 + 1.
DIAMONDS = 2
HAYA = 26  # the seven of diamonds
PRIMIERA_POINTS = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}


def value(c: int) -> int:
    return c % 10 + 1


def suit(c: int) -> int:
    return c // 10


def side(seat: int, players: int) -> int:
    """Partners face each other at 4 players; otherwise each seat is a side."""
    return seat % 2 if players == 4 else seat


def sides(players: int) -> int:
    return 2 if players == 4 else players


def captures(played: int, table: list[int]) -> set[frozenset[int]]:
    """What ``played`` may take: one same-value card if any (rank first), else any group
    of two or more cards summing to its value; empty when nothing can be taken."""
    same = {frozenset([c]) for c in table if value(c) == value(played)}
    if same:
        return same
    out = set()
    for size in range(2, len(table) + 1):
        for group in combinations(table, size):
            if sum(value(c) for c in group) == value(played):
                out.add(frozenset(group))
    return out


def captures_in_table_order(played: int, table: list[int]) -> list[frozenset[int]]:
    """:func:`captures` as people read them: by the table positions of the cards taken
    (compared as sorted lists of positions)."""
    pos = {c: i for i, c in enumerate(table)}
    return sorted(captures(played, table), key=lambda g: sorted(pos[c] for c in g))


def legal(hand: list[int], table: list[int], forced: bool) -> set[tuple[int, frozenset[int]]]:
    """Every (card, capture) the player may make: a card that can capture must; with
    ``forced``, if any card can capture only capturing plays are allowed."""
    moves = set()
    for c in hand:
        options = captures(c, table)
        if options:
            moves |= {(c, o) for o in options}
        else:
            moves.add((c, frozenset()))
    if forced and any(o for _, o in moves):
        moves = {m for m in moves if m[1]}
    return moves


def refusal(hand: list[int], table: list[int], forced: bool, card: int,
            capture: frozenset[int]) -> str | None:
    """The name of the rule an attempted play breaks (an error class name), or None."""
    if card not in hand:
        return "CardNotInHand"
    if any(c not in table for c in capture):
        return "CaptureNotOnTable"
    options = captures(card, table)
    if capture:
        if capture in options:
            return None
        if len(capture) > 1 and sum(value(c) for c in capture) == value(card) and any(
                value(c) == value(card) for c in table):
            return "RankMatchRequired"
        return "GroupDoesNotSum"
    if options:
        return "CaptureRequired"
    if forced and any(captures(other, table) for other in hand if other != card):
        return "ForcedCaptureRequired"
    return None


def strict_max(values: list) -> int | None:
    """The index holding the strictly highest value (None values never win), else None."""
    present = [v for v in values if v is not None]
    if not present:
        return None
    top = max(present)
    holders = [i for i, v in enumerate(values) if v == top]
    return holders[0] if len(holders) == 1 else None


def primiera(pile: list[int]) -> int | None:
    best = {}
    for c in pile:
        best[suit(c)] = max(best.get(suit(c), 0), PRIMIERA_POINTS[value(c)])
    return sum(best.values()) if len(best) == 4 else None


def score(piles: list[list[int]], chkobbas: list[int], use_primiera: bool) -> list[int]:
    """Points per side: carta, dinari, barmila (sevens, then sixes among those tied on
    sevens) or primiera, haya, and one per chkobba."""
    points = list(chkobbas)
    winners = [
        strict_max([len(p) for p in piles]),
        strict_max([sum(1 for c in p if suit(c) == DIAMONDS) for p in piles]),
    ]
    if use_primiera:
        winners.append(strict_max([primiera(p) for p in piles]))
    else:
        sevens = [sum(1 for c in p if value(c) == 7) for p in piles]
        barmila = strict_max(sevens)
        if barmila is None and max(sevens) > 0:
            sixes = [sum(1 for c in p if value(c) == 6) if s == max(sevens) else None
                     for p, s in zip(piles, sevens)]
            barmila = strict_max(sixes)
        winners.append(barmila)
    winners.append(next((i for i, p in enumerate(piles) if HAYA in p), None))
    for w in winners:
        if w is not None:
            points[w] += 1
    return points


class RefHand:
    """One hand from a shuffled deck (top first), mutable and slow.

    ``opening``: "cut_and_draw" or "plain"; ``keep``: the cutter's choice (cut-and-draw);
    ``redeal``: "kings", "any_three" or "none".
    """

    def __init__(self, players: int, dealer: int, deck: list[int], *, opening: str,
                 keep: bool, redeal: str, forced: bool, use_primiera: bool) -> None:
        self.players = players
        self.forced = forced
        self.use_primiera = use_primiera
        self.deck = list(deck)
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.table: list[int] = []
        self.piles: list[list[int]] = [[] for _ in range(sides(players))]
        self.chkobbas = [0] * sides(players)
        self.last_side: int | None = None
        cutter = (dealer + 1) % players
        self.turn = cutter
        order = [(cutter + i) % players for i in range(players)]
        if opening == "cut_and_draw":
            drawn = self.deck.pop(0)
            if keep:
                self.hands[cutter] = [drawn] + self.take(2)
                for seat in order[1:]:
                    self.hands[seat] = self.take(3)
                self.table = self.take(4)
            else:
                self.table = [drawn] + self.take(3)
                for seat in order:
                    self.hands[seat] = self.take(3)
        else:
            for seat in order:
                self.hands[seat] = self.take(3)
            self.table = self.take(4)
        counts = [sum(1 for c in self.table if value(c) == v) for v in range(1, 11)]
        self.needs_redeal = (redeal == "kings" and counts[9] >= 3) or (
            redeal == "any_three" and max(counts) >= 3)
        self.over = False

    def take(self, k: int) -> list[int]:
        out, self.deck = self.deck[:k], self.deck[k:]
        return out

    def legal(self) -> set[tuple[int, frozenset[int]]]:
        return legal(self.hands[self.turn], self.table, self.forced)

    def refusal(self, card: int, capture: frozenset[int]) -> str | None:
        return refusal(self.hands[self.turn], self.table, self.forced, card, capture)

    def play(self, card: int, capture: frozenset[int]) -> None:
        assert self.refusal(card, capture) is None
        seat = self.turn
        self.hands[seat].remove(card)
        last_play = not self.deck and not any(self.hands)
        if capture:
            s = side(seat, self.players)
            self.table = [c for c in self.table if c not in capture]
            self.piles[s] += [card, *capture]
            self.last_side = s
            if not self.table and not last_play:
                self.chkobbas[s] += 1
        else:
            self.table.append(card)
        self.turn = (seat + 1) % self.players
        if not any(self.hands):
            if self.deck:
                for i in range(self.players):
                    self.hands[(self.turn + i) % self.players] = self.take(3)
            else:
                if self.last_side is not None:
                    self.piles[self.last_side] += self.table
                    self.table = []
                self.over = True

    def points(self) -> list[int]:
        assert self.over
        return score(self.piles, self.chkobbas, self.use_primiera)
