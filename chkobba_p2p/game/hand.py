"""One hand (:class:`Hand`): its moves (:class:`Move`), the steps it waits for
(:class:`DealStep`, :class:`CutterChoice`, :class:`Redeal`, :class:`Turn`,
:class:`HandOver`) and the seats' helpers.  How a hand is driven: :mod:`.rules`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple, cast

from ..errors import (
    CaptureNotOnTable,
    CaptureRequired,
    CardNotInHand,
    ForcedCaptureRequired,
    GroupDoesNotSum,
    InvalidDeal,
    NotYourTurn,
    RankMatchRequired,
    WrongPhase,
)
from ._masks import (
    _BELOW_MASK,
    _CAPTURE_SETS,
    _MASKS,
    _RANK_MASK,
    _SAME_SETS,
    _SINGLE,
    ALL_CARDS,
    BIT,
    VALUE,
    _capture_sets,
    _in_table_order,
    capture_masks,
    cards_of,
    frozen,
    mask_of,
    mask_sum,
)
from .cards import Card
from .errors import GameUsageError, shown
from .events import CutEvent, DealEvent, Event, PlayEvent, SweepEvent
from .ruleset import Opening, RedealRule, Ruleset
from .scoring import HandScore, _score
from .seating import Seating

#: The ``viewer`` of a hand seen from no seat (a spectator, an auditor): every card in a
#: hand is unknown until it is shown.
SPECTATOR = -1

# --------------------------------------------------------------------------- seats


def sides_count(players: int) -> int:
    """How many sides score at ``players`` seats (:attr:`Seating.sides`)."""
    return Seating.of(players).sides


def side_of(seat: int, players: int) -> int:
    """The side (team) a seat scores for (:meth:`Seating.side_of`)."""
    return Seating.of(players).side_of(seat)


def _check_players(players: int) -> None:
    Seating.of(players)  # raises LocalError for a shape the engine does not play


def resolve_first_dealer(draws: dict[int, Card]) -> int | tuple[int, ...]:
    """The first-dealer draw: the lowest value deals.

    Returns the dealer's seat, or the tuple of tied seats that must draw again.
    """
    if not draws:
        raise GameUsageError("nobody drew", code="nobody_drew")
    low = min(c.value for c in draws.values())
    lowest = tuple(sorted(s for s, c in draws.items() if c.value == low))
    return lowest[0] if len(lowest) == 1 else lowest


# --------------------------------------------------------------------------- moves


class Move(NamedTuple):
    """Play ``card``; take the table cards in ``capture`` (empty: the card stays on the table)."""

    card: Card
    capture: frozenset[Card] = frozenset()

    @property
    def is_capture(self) -> bool:
        return bool(self.capture)

    @property
    def text(self) -> str:
        """``7D`` (a drop), ``7D x 3H+4S`` (a capture), cards sorted by id."""
        if not self.capture:
            return self.card.text
        return f"{self.card.text} x " + "+".join(c.text for c in sorted(self.capture))

    @classmethod
    def parse(cls, text: str) -> Move:
        head, _, tail = text.partition("x")
        from .cards import card as parse_card

        capture = frozenset(parse_card(t) for t in tail.split("+")) if tail.strip() else frozenset()
        return cls(parse_card(head), capture)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"


# --------------------------------------------------------------------------- pending steps


@dataclass(frozen=True, slots=True)
class DealStep:
    """Deal the next ``len(recipients)`` cards from the top: each to a seat, or None = table.

    ``draw`` marks the cut-and-draw card, seen by the cutter alone.
    """

    recipients: tuple[int | None, ...]
    draw: bool = False


@dataclass(frozen=True, slots=True)
class CutterChoice:
    seat: int


@dataclass(frozen=True, slots=True)
class Redeal:
    """The opening table must be dealt again (fresh shuffle) by the same dealer."""


@dataclass(frozen=True, slots=True)
class Turn:
    seat: int


@dataclass(frozen=True, slots=True)
class HandOver:
    """Every card is played and the last capturer has swept the table."""


Pending = DealStep | CutterChoice | Redeal | Turn | HandOver
_TURNS = tuple(Turn(seat) for seat in range(4))
_NO_CAPTURE: frozenset[Card] = frozenset()
_new_tuple = tuple.__new__
_new_object = object.__new__


# --------------------------------------------------------------------------- the hand

# The stages: the cut's draw, the cutter's choice, a deal of the opening, another deal,
# a redeal due, a turn, the end.
_DRAW, _CHOICE, _ODEAL, _DEAL, _REDEAL, _PLAY, _OVER = range(7)
#: A round of three cards to every seat, from the seat ``first``: ``_ROUNDS[players][first]``.
_ROUNDS = {n: tuple(tuple((first + i) % n for i in range(n) for _ in range(3))
                    for first in range(n)) for n in (2, 3, 4)}


class Hand:
    """One hand, from the opening deal to the final sweep.  Immutable by contract: every
    action returns a new Hand and no method changes one (attributes are not guarded
    against assignment, which would cost a fifth of the engine's speed).

    Build with :meth:`Hand.new`; read :attr:`pending`; act with :meth:`deal`,
    :meth:`choose_cut` and :meth:`play`, each returning a new Hand.

    Inside, the table, the captured piles and the cards a view has seen are also kept as
    40-bit masks (see :func:`capture_masks`), on which moves are generated and checked
    and the hand is scored.  The bots' search (:mod:`chkobba_p2p.bots.expert`) plays its
    sampled worlds on this same class.
    """

    __slots__ = (
        "ruleset", "players", "dealer", "viewer", "hands", "table", "chkobbas",
        "stock", "turn", "last_capturer", "_log", "_stage", "_queue",
        "_tm", "_tsum", "_pm", "_known", "_deck",
    )

    ruleset: Ruleset
    players: int
    dealer: int
    viewer: int | None
    #: Each seat's hand in the order dealt; ``None`` entries are cards this view cannot see.
    hands: tuple[tuple[Card | None, ...], ...]
    #: The table in the order its cards were laid.
    table: tuple[Card, ...]
    chkobbas: tuple[int, ...]
    #: Cards not dealt yet.
    stock: int
    turn: int
    last_capturer: int | None
    # The events: a tuple, or a node [earlier log, event, ...] that :attr:`events` turns
    # into one when read (appending to a tuple on every play would copy it every time).
    _log: tuple[Event, ...] | list[Any]
    # What the hand waits for (one of _DRAW.._OVER) and the recipients of the pending
    # deal step (None: the table).
    _stage: int
    _queue: tuple[int | None, ...]
    # The table's mask, the captured piles (40 bits per seat: seat s's pile is
    # ``_pm >> 40 * s & ALL_CARDS``), the mask of every card this
    # view has seen (on the table, in a pile, in a hand it sees), and for a sampled world
    # of the search the undealt cards in dealing order (None: deals come from outside).
    _tm: int
    _tsum: int  # the sum of the table's values
    _pm: int
    _known: int
    _deck: tuple[Card, ...] | None

    @classmethod
    def new(cls, ruleset: Ruleset, players: int, dealer: int,
            viewer: int | None = None) -> Hand:
        """A fresh hand: nothing dealt yet.  ``viewer`` None means every card is known."""
        _check_players(players)
        if not 0 <= dealer < players:
            raise GameUsageError(f"dealer must be a seat in 0..{players - 1}",
                                 code="dealer_out_of_range",
                                 data={"dealer": shown(dealer), "players": players})
        if viewer is not None and viewer != SPECTATOR and not 0 <= viewer < players:
            raise GameUsageError(f"viewer must be a seat in 0..{players - 1} or SPECTATOR",
                                 code="viewer_out_of_range",
                                 data={"viewer": shown(viewer), "players": players})
        h = object.__new__(cls)
        s = object.__setattr__
        s(h, "ruleset", ruleset)
        s(h, "players", players)
        s(h, "dealer", dealer)
        s(h, "viewer", viewer)
        s(h, "hands", ((),) * players)
        s(h, "table", ())
        s(h, "chkobbas", (0,) * players)
        s(h, "stock", 40)
        cutter = Seating.of(players).cutter(dealer)
        s(h, "turn", cutter)
        s(h, "last_capturer", None)
        s(h, "_log", ())
        if ruleset.opening is Opening.CUT_AND_DRAW:
            s(h, "_stage", _DRAW)
            s(h, "_queue", (cutter,))
        else:
            s(h, "_stage", _ODEAL)
            s(h, "_queue", cls._round_of_three(cutter, players) + (None,) * 4)
        s(h, "_tm", 0)
        s(h, "_tsum", 0)
        s(h, "_pm", 0)
        s(h, "_known", 0)
        s(h, "_deck", None)
        return h

    @classmethod
    def from_position(cls, ruleset: Ruleset, players: int, dealer: int, *,
                      hands: Sequence[Sequence[Card | None]], table: Sequence[Card],
                      turn: int, stock: int | None = None,
                      piles: Sequence[Sequence[Card]] | None = None,
                      chkobbas: Sequence[int] | None = None,
                      last_capturer: int | None = None,
                      viewer: int | None = None) -> Hand:
        """A hand in mid-play, waiting for ``turn`` to play (puzzles, tests, search).

        ``stock`` defaults to the cards not placed anywhere else.  Unknown cards (None) are
        allowed in hands only when ``viewer`` is set.
        """
        _check_players(players)
        piles = tuple(tuple(p) for p in (piles or ((),) * players))
        hands_t = tuple(tuple(h) for h in hands)
        for c in [*table, *(c for h in hands_t for c in h), *(c for p in piles for c in p)]:
            if c is not None and type(c) is not Card:
                raise InvalidDeal(f"not a card: {c!r}")
        for seat in (turn, last_capturer):
            if seat is not None and not 0 <= seat < players:
                raise GameUsageError(f"seats are numbered 0..{players - 1}",
                                     code="seat_out_of_range",
                                     data={"seat": shown(seat), "players": players})
        if chkobbas is not None and len(chkobbas) != players:
            raise GameUsageError(f"a {players}-player position has {players} chkobba "
                                 "counts", code="chkobba_counts", data={"players": players})
        if len(hands) == players and not hands_t[turn]:
            raise InvalidDeal("the seat to play has no card")
        placed = [c for h in hands_t for c in h] + list(table) + [c for p in piles for c in p]
        known = [c for c in placed if c is not None]
        if len(set(known)) != len(known):
            raise InvalidDeal("a card appears twice in the position")
        if viewer is None and len(known) != len(placed):
            raise InvalidDeal("an omniscient position cannot hold unknown cards")
        if len(hands_t) != players or len(piles) != players:
            raise InvalidDeal(f"a {players}-player position has {players} hands and piles")
        if stock is None:
            stock = 40 - len(placed)
        if stock < 0 or stock + len(placed) != 40 or stock % (3 * players):
            raise InvalidDeal("the stock must hold the cards placed nowhere else, "
                              "in whole deals of 3 per player")
        h = cls.new(ruleset, players, dealer, viewer)
        return h._with(hands=hands_t, table=tuple(table), _pm=_pack(map(mask_of, piles)),
                       chkobbas=tuple(chkobbas or (0,) * players), stock=stock, turn=turn,
                       last_capturer=last_capturer, _stage=_PLAY, _queue=(),
                       _tm=mask_of(table), _tsum=sum(c.value for c in table),
                       _known=mask_of(known))

    def _with(self, **changes: object) -> Hand:
        h = _copy_hand(self)
        s = object.__setattr__
        for name, value in changes.items():
            s(h, name, value)
        return h

    def _logged(self, event: Event) -> dict[str, object]:
        """``_with`` arguments that append ``event``."""
        return {"_log": [self._log, event]}

    @staticmethod
    def _round_of_three(first: int, players: int) -> tuple[int, ...]:
        return _ROUNDS[players][first]

    # ------------------------------------------------------------------ reading

    @property
    def cutter(self) -> int:
        """The player on the dealer's right: cuts, draws, and plays first."""
        return Seating.of(self.players).cutter(self.dealer)

    @property
    def pending(self) -> Pending:
        """What the hand waits for next."""
        st = self._stage
        if st == _PLAY:
            return _TURNS[self.turn]
        if st in (_DEAL, _ODEAL):
            queue = self._queue
            step = _DEAL_STEPS.get(queue)
            if step is None:
                step = _DEAL_STEPS[queue] = DealStep(queue)
            return step
        if st == _DRAW:
            return DealStep(self._queue, draw=True)
        if st == _CHOICE:
            return CutterChoice(self.cutter)
        if st == _REDEAL:
            return Redeal()
        return HandOver()

    @property
    def is_over(self) -> bool:
        return self._stage == _OVER

    @property
    def needs_redeal(self) -> bool:
        return self._stage == _REDEAL

    @property
    def is_opening(self) -> bool:
        """True until the opening table is complete."""
        return self._stage <= _ODEAL

    @property
    def is_last_deal(self) -> bool:
        return self.stock == 0

    @property
    def piles(self) -> tuple[tuple[Card, ...], ...]:
        """Cards captured by each seat, by id (partners' piles are pooled only for
        scoring)."""
        pm = self._pm
        return tuple([cards_of(pm >> 40 * s & ALL_CARDS) for s in range(self.players)])

    @property
    def events(self) -> tuple[Event, ...]:
        """Every action so far, in order (each view's own copy masks others' cards)."""
        log = self._log
        if type(log) is tuple:
            return log
        nodes = []
        while type(log) is list:
            nodes.append(log)
            log = log[0]
        out = list(log)
        for node in reversed(nodes):
            out.extend(node[1:])
        events = tuple(out)
        self._log = events  # a cache: the same events, read faster next time
        return events

    def side_of(self, seat: int) -> int:
        return side_of(seat, self.players)

    def hand_of(self, seat: int) -> tuple[Card | None, ...]:
        return self.hands[seat]

    def known_cards(self) -> frozenset[Card]:
        """Every card this view has seen that is still in play or captured."""
        return frozenset(cards_of(self._known))

    def unseen_cards(self) -> frozenset[Card]:
        """Cards this view has not seen: in other hands or in the stock."""
        return frozenset(cards_of(ALL_CARDS ^ self._known))

    def view(self, seat: int) -> Hand:
        """This hand as ``seat`` sees it: other seats' cards become unknown."""
        if not 0 <= seat < self.players:
            raise GameUsageError(f"seats are numbered 0..{self.players - 1}, not {seat!r}",
                                 code="seat_out_of_range",
                                 data={"seat": shown(seat), "players": self.players})
        if self.viewer is not None and self.viewer != seat:
            raise GameUsageError("a view cannot be turned into another seat's view",
                                 code="view_of_another_view")
        hands = tuple(h if i == seat else (None,) * len(h) for i, h in enumerate(self.hands))
        events = self.events
        if self.viewer is None:
            # Only deals hold private cards; every other event is public.
            events = tuple([_mask_event(e, seat) if type(e) is DealEvent else e
                            for e in events])
        known = self._tm | mask_of([c for c in hands[seat] if c is not None])
        pm = self._pm
        while pm:
            known |= pm & ALL_CARDS
            pm >>= 40
        return self._with(viewer=seat, hands=hands, _log=events, _known=known, _deck=None)

    def side_piles(self) -> tuple[tuple[Card, ...], ...]:
        return tuple([cards_of(m) for m in self._side_masks()])

    def _side_masks(self) -> tuple[int, ...]:
        pm = self._pm
        if Seating.of(self.players).teams:
            return ((pm | pm >> 80) & ALL_CARDS, (pm >> 40 | pm >> 120) & ALL_CARDS)
        return tuple([pm >> 40 * s & ALL_CARDS for s in range(self.players)])

    def side_chkobbas(self) -> tuple[int, ...]:
        k = self.chkobbas
        if Seating.of(self.players).teams:
            return (k[0] + k[2], k[1] + k[3])
        return k

    @property
    def score(self) -> HandScore:
        """The hand's scoring breakdown; only once the hand is over."""
        if self._stage != _OVER:
            raise GameUsageError("the hand is scored only once every card is played",
                                 code="hand_not_over")
        return _score(self._side_masks(), self.side_chkobbas(), self.ruleset, self.players)

    # ------------------------------------------------------------------ dealing

    def deal(self, dealt: Sequence[Card | None], *, own_later: bool = False) -> Hand:
        """Deal the cards of the pending :class:`DealStep`, in its order.

        A card may be None only where this view does not see it (another seat's card).
        ``own_later``: in a round of three during play, this view's own cards may be
        None too (they open to it a little later: the transcript's ``seat-deal/v1``);
        :meth:`see_own` fills them in.
        """
        if self._stage > _DEAL:
            raise WrongPhase("no cards are due to be dealt now")
        recipients = self._queue
        dealt = tuple(dealt)
        if len(dealt) != len(recipients):
            raise InvalidDeal(f"this deal step is {len(recipients)} cards, not {len(dealt)}")
        fresh = 0
        for c in dealt:
            if c is not None:
                if type(c) is not Card:
                    raise InvalidDeal(f"not a card: {c!r}")
                if fresh >> c & 1:
                    raise InvalidDeal("the same card was dealt twice")
                fresh |= BIT[c]
        again = fresh & self._known
        if again:
            raise InvalidDeal(f"{cards_of(again)[0]} is already in play")
        viewer = self.viewer
        hands = list(self.hands)
        table = self.table
        if viewer is None:  # omniscient: every card is seen
            if fresh.bit_count() != len(dealt):
                raise InvalidDeal("a card this view must see was dealt unknown")
            n = self.players
            first = recipients[0]
            each: tuple[int | None, ...] = recipients
            if first is not None and recipients is _ROUNDS[n][first]:
                # A round of three after the hands ran out: each seat's three in a slice.
                hands = [dealt[3 * ((s - first) % n):3 * ((s - first) % n) + 3]
                         for s in range(n)]
                each = ()
            for who, c in zip(each, dealt):
                if who is None:
                    table += (c,)  # type: ignore[operator]  # never None: counted above
                else:
                    hands[who] += (c,)
        else:
            later = own_later and self._stage == _DEAL
            for who, c in zip(recipients, dealt):
                visible = who is None or who == viewer
                if c is None:
                    if visible and not (later and who == viewer):
                        raise InvalidDeal("a card this view must see was dealt unknown")
                elif not visible:
                    raise InvalidDeal("a view cannot hold another seat's card")
                if who is None:
                    table += (c,)  # type: ignore[operator]  # never None: refused above
                else:
                    hands[who] += (c,)
        h = _copy_hand(self)
        h._log = [self._log, _new_tuple(DealEvent, (recipients, dealt, self._stage == _DRAW))]
        h.hands = tuple(hands)
        if table is not self.table:
            h.table = table
            h._tm = mask_of(table)
            h._tsum = sum([c.value for c in table])
        h.stock = self.stock - len(dealt)
        h._queue = ()
        h._known = self._known | fresh
        if self._stage == _DRAW:
            h._stage = _CHOICE
            return h
        if self._stage == _ODEAL:
            return h._after_opening()
        h._stage = _PLAY
        return h

    def see_own(self, cards: Sequence[Card]) -> Hand:
        """This view's own cards dealt unseen (:meth:`deal` with ``own_later``), now
        seen, in the order dealt: they replace the unknown cards of its hand."""
        viewer = self.viewer
        if viewer is None or viewer == SPECTATOR:
            raise GameUsageError("only a seat's view has cards of its own to see",
                                 code="no_own_cards")
        hand = self.hands[viewer]
        cards = tuple(cards)
        if len(cards) != hand.count(None):
            raise InvalidDeal(f"{hand.count(None)} cards of this seat are unseen, "
                              f"not {len(cards)}")
        fresh = 0
        for c in cards:
            if type(c) is not Card:
                raise InvalidDeal(f"not a card: {c!r}")
            if (fresh | self._known) >> c & 1:
                raise InvalidDeal(f"{c} is already in play")
            fresh |= BIT[c]
        it = iter(cards)
        seen = tuple(next(it) if c is None else c for c in hand)
        hands = self.hands[:viewer] + (seen,) + self.hands[viewer + 1:]
        return self._with(hands=hands, _known=self._known | fresh)

    def _after_opening(self) -> Hand:
        """Sets the stage of a hand just made whose opening table is complete."""
        rule = self.ruleset.redeal
        tm = self._tm
        if rule is RedealRule.KINGS:
            redeal = (tm & _RANK_MASK[10]).bit_count() >= 3
        elif rule is RedealRule.ANY_THREE:
            redeal = any((tm & _RANK_MASK[v]).bit_count() >= 3 for v in range(1, 11))
        else:
            redeal = False
        self._stage = _REDEAL if redeal else _PLAY
        return self

    def choose_cut(self, keep: bool, card: Card | None = None) -> Hand:
        """The cutter keeps the drawn card, or places it face up (``card`` names it).

        Keep: the cutter gets 2 more, every other player 3, then 4 cards go to the table.
        Place: the card joins the table, 3 more go to the table, then 3 to every player.
        """
        if self._stage != _CHOICE:
            raise WrongPhase("the cutter is not choosing now")
        cutter = self.cutter
        drawn = self.hands[cutter][0]
        n = self.players
        if keep:
            others = tuple((cutter + i) % n for i in range(1, n) for _ in range(3))
            queue = (cutter, cutter) + others + (None,) * 4
            return self._with(_stage=_ODEAL, _queue=queue,
                              **self._logged(CutEvent(cutter, True, None)))
        if card is not None and type(card) is not Card:
            raise InvalidDeal(f"not a card: {card!r}")
        if drawn is None:
            if card is None:
                raise GameUsageError("placing an unseen drawn card: name the card revealed",
                                     code="drawn_card_unnamed")
            if self._known >> card & 1:
                raise InvalidDeal(f"{card} is already in play")
        elif card is not None and card != drawn:
            raise InvalidDeal(f"the drawn card is {drawn}, not {card}")
        placed = drawn if drawn is not None else card
        assert placed is not None
        hands = tuple(() if i == cutter else h for i, h in enumerate(self.hands))
        queue = (None,) * 3 + self._round_of_three(cutter, n)
        return self._with(hands=hands, table=(placed,), _tm=BIT[placed], _tsum=placed.value,
                          _known=self._known | BIT[placed], _stage=_ODEAL, _queue=queue,
                          **self._logged(CutEvent(cutter, False, placed)))

    # ------------------------------------------------------------------ playing

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """Every legal move for ``seat`` (default: whose turn it is) among its known cards:
        the cards in the order held, each card's captures by the table positions of the
        cards they take."""
        if self._stage != _PLAY:
            return []
        if seat is None:
            seat = self.turn
        elif seat != self.turn:
            return []
        table = self._tm
        moves: list[Move] = []
        captures = False
        for c in self.hands[seat]:
            if c is None:
                continue
            v = c.value
            same = table & _RANK_MASK[v]
            if same:
                if same & (same - 1):  # several: in table order
                    options = tuple([_SINGLE[t] for t in self.table if same >> t & 1])
                else:
                    options = _SAME_SETS[same]
            else:
                smaller = table & _BELOW_MASK[v]
                if smaller & (smaller - 1):
                    found = _CAPTURE_SETS.get((smaller << 4) | v)
                    options = _capture_sets(v, table) if found is None else found
                    if len(options) > 1:
                        options = _in_table_order(options, self.table)
                else:
                    options = ()
            # tuple.__new__ skips the named tuple's Python-level constructor: this loop is
            # the engine's hottest.
            if options:
                captures = True
                moves.extend([_new_tuple(Move, (c, o)) for o in options])
            else:
                moves.append(_DROPS[c])
        if captures and self.ruleset.forced_capture:
            moves = [m for m in moves if m[1]]
        global _LAST_LEGAL
        _LAST_LEGAL = (self, moves)  # one assignment: atomic, whatever the threads
        return moves[:]

    def captures_for(self, card: Card) -> list[frozenset[Card]]:
        """Hint: what ``card`` would take from the table now (empty: it would stay)."""
        options = _capture_sets(card.value, self._tm)
        return list(_in_table_order(options, self.table) if len(options) > 1 else options)

    def play(self, seat: int, card: Card, capture: Iterable[Card] = ()) -> Hand:
        """``seat`` plays ``card`` taking ``capture``; IllegalMove subclasses name the rule."""
        if self._stage != _PLAY:
            raise WrongPhase("no card may be played now: the hand waits for "
                             + type(self.pending).__name__)
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        if type(card) is not Card:
            raise CardNotInHand(f"not a card: {card!r}")
        hand = self.hands[seat]
        if card in hand:
            idx = hand.index(card)
        elif None in hand and not self._known >> card & 1:
            idx = hand.index(None)
        else:
            raise CardNotInHand(f"{card} is not in seat {seat}'s hand")
        table = self._tm
        taken = 0
        for c in capture:
            if type(c) is not Card or not table >> c & 1:
                raise CaptureNotOnTable(f"{c} is not on the table")
            taken |= BIT[c]
        value = card.value
        options = capture_masks(value, table)
        if taken:
            if taken not in options:
                group = cards_of(taken)
                if len(group) > 1 and mask_sum(taken) == value and table & _RANK_MASK[value]:
                    raise RankMatchRequired(
                        f"a table card of value {value} must be taken before any sum")
                raise GroupDoesNotSum(
                    f"{'+'.join(c.text for c in group)} does not make {value}")
        elif options:
            raise CaptureRequired(f"{card} can capture, so it must")
        elif self.ruleset.forced_capture and None not in hand:
            for other in hand:
                if other is not None and other != card and capture_masks(other.value, table):
                    raise ForcedCaptureRequired(
                        f"forced capture: {other} can capture, so a capturing card must be "
                        "played")
        return self._play_trusted(seat, idx, card, taken)

    def _play_trusted(self, seat: int, idx: int, card: Card, taken: int,
                      capture: frozenset[Card] | None = None) -> Hand:
        """The play of the card at ``hand[idx]`` (``card``) by ``seat`` (whose turn it is)
        taking the table cards of mask ``taken`` (``capture``, if known, as cards):
        trusted legal (checked by :meth:`play`, generated by the search).  The engine's
        hottest code: every slot is set once.

        A sampled world of the search (``_deck`` set) deals itself and keeps no log of
        its own (nobody reads a hypothetical hand's events)."""
        hands = self.hands
        hand = hands[seat]
        n = self.players
        if n == 2:
            hands = (hand[:idx] + hand[idx + 1:], hands[1]) if seat == 0 else \
                (hands[0], hand[:idx] + hand[idx + 1:])
        else:
            hands_l = list(hands)
            hands_l[seat] = hand[:idx] + hand[idx + 1:]
            hands = tuple(hands_l)
        stock = self.stock
        h = _new_object(Hand)
        h.ruleset = self.ruleset
        h.players = n
        h.dealer = self.dealer
        h.viewer = self.viewer
        h.turn = turn = (seat + 1) % n  # Seating.next, inlined: the search's hot path
        h._known = self._known | BIT[card]
        h._deck = deck = self._deck
        h._queue = ()
        held = any(hands)
        chkobba = False
        if taken:
            h._tm = table = self._tm ^ taken
            h._tsum = self._tsum - VALUE[card]  # a capture adds up to the card's value
            h.table = tuple([c for c in self.table if not taken >> c & 1])
            h._pm = self._pm | (taken | BIT[card]) << 40 * seat
            h.last_capturer = seat
            if not table and (held or stock):
                chkobba = True
                k = self.chkobbas
                h.chkobbas = k[:seat] + (k[seat] + 1,) + k[seat + 1:]
            else:
                h.chkobbas = self.chkobbas
        else:
            h._tm = self._tm | BIT[card]
            h._tsum = self._tsum + VALUE[card]
            h.table = self.table + (card,)
            h._pm = self._pm
            h.last_capturer = self.last_capturer
            h.chkobbas = self.chkobbas
        if deck is None:
            if capture is None:
                capture = frozen(taken) if taken else _NO_CAPTURE
            log: list[Any] = [self._log, _new_tuple(PlayEvent, (seat, card, capture, chkobba))]
            h._log = log
        else:
            h._log = self._log
        if held:
            h.hands = hands
            h.stock = stock
            h._stage = _PLAY
            return h
        if stock:
            if deck is None:
                h.hands = hands
                h.stock = stock
                h._stage = _DEAL
                h._queue = _ROUNDS[n][turn]
                return h
            size = 3 * n
            dealt = deck[:size]
            h._deck = deck[size:]
            h.stock = stock - size
            h.hands = tuple([dealt[3 * ((s - turn) % n):3 * ((s - turn) % n) + 3]
                             for s in range(n)])
            h._stage = _PLAY
            return h
        # The last play: the last capturer takes what is left; that is never a chkobba.
        h.hands = hands
        h.stock = 0
        h._stage = _OVER
        taker = h.last_capturer
        left = h.table
        if deck is None:
            log.append(SweepEvent(taker, left))
        if taker is not None and left:
            h._pm |= h._tm << 40 * taker
            h.table = ()
            h._tm = 0
            h._tsum = 0
        return h

    def apply(self, move: Move, seat: int | None = None) -> Hand:
        """Play a :class:`Move` for ``seat`` (default: whose turn it is)."""
        turn = self.turn
        if seat is None or seat == turn:
            last = _LAST_LEGAL
            if last[0] is self and move in last[1]:  # generated here: legal already
                card, capture = move
                if type(card) is not Card or type(capture) is not frozenset:
                    # An equal move of other types (an int, a set): the checks say so.
                    return self.play(turn, card, capture)
                taken = (_MASKS.get(capture) or mask_of(capture)) if capture else 0
                return self._play_trusted(turn, self.hands[turn].index(card), card, taken,
                                          capture)
            seat = turn
        return self.play(seat, move.card, move.capture)

    # ------------------------------------------------------------------ the search's use

    def _world(self, hands: Sequence[Sequence[Card]], deck: Sequence[Card]) -> Hand:
        """An omniscient hand consistent with this position: every seat's hand given,
        the undealt cards in dealing order (the hand then deals them itself).  For the
        bots' search, which samples the cards a view does not see."""
        if self._stage != _PLAY or len(deck) != self.stock:
            raise GameUsageError(f"a world of a hand in play, with its {self.stock} undealt "
                                 "cards", code="world_not_in_play",
                                 data={"stock": self.stock})
        return self._with(viewer=None, hands=tuple(map(tuple, hands)), _known=ALL_CARDS,
                          _deck=tuple(deck))

    def _opening_world(self, hands: Sequence[Sequence[Card]], table: Sequence[Card],
                deck: Sequence[Card]) -> Hand:
        """An omniscient world of this hand just after its opening: the hands and the
        table as given, nothing captured, the undealt cards in dealing order, the cutter
        to play (the search's sample of a cut choice)."""
        table = tuple(table)
        return self._with(viewer=None, hands=tuple(map(tuple, hands)), table=table,
                          _tsum=sum(c.value for c in table),
                          _tm=mask_of(table), _pm=0,
                          chkobbas=(0,) * self.players, stock=len(deck), turn=self.cutter,
                          last_capturer=None, _stage=_PLAY, _queue=(),
                          _known=ALL_CARDS, _deck=tuple(deck))

    def _move_masks(self) -> list[tuple[int, Card, int]]:
        """Legal moves of the seat to play, whose cards are all known, as (index in
        hand, card, capture mask)."""
        table = self._tm
        held = cast(tuple[Card, ...], self.hands[self.turn])
        out: list[tuple[int, Card, int]] = []
        captures = False
        for i, c in enumerate(held):
            options = capture_masks(VALUE[c], table)
            if options:
                captures = True
                out.extend([(i, c, o) for o in options])
            else:
                out.append((i, c, 0))
        if captures and self.ruleset.forced_capture:
            out = [m for m in out if m[2]]
        return out

    def __repr__(self) -> str:
        return (f"<Hand players={self.players} dealer={self.dealer} stock={self.stock} "
                f"table={' '.join(c.text for c in self.table)} pending={self.pending}>")


def _pack(piles: Iterable[int]) -> int:
    """Per-seat masks as one int, 40 bits per seat (seat 0 lowest)."""
    out = 0
    for seat, m in enumerate(piles):
        out |= m << 40 * seat
    return out


def _make_copier() -> Callable[[Hand], Hand]:
    # The engine copies a Hand on every action: an unrolled copy is several times faster
    # than a loop over the slots.
    lines = ["def _copy_hand(old):", "    h = _new(_Hand)"]
    lines += [f"    h.{name} = old.{name}" for name in Hand.__slots__]
    lines.append("    return h")
    namespace: dict[str, Any] = {"_new": object.__new__, "_set": object.__setattr__,
                                 "_Hand": Hand}
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from our own slot names
    copier: Callable[[Hand], Hand] = namespace["_copy_hand"]
    return copier


_copy_hand = _make_copier()

#: The deal steps met so far (a handful of shapes: steps are values, shared).
_DEAL_STEPS: dict[tuple[int | None, ...], DealStep] = {}

#: Every card's drop (the card stays on the table): moves are values, shared.
_DROPS = tuple(Move(Card(i)) for i in range(40))

#: The last hand whose legal moves were listed, and that list: applying one of them needs
#: no second check (a cache; replaced as a whole, so a reader never pairs a hand with
#: another's moves).
_LAST_LEGAL: tuple[Hand | None, list[Move]] = (None, [])


@lru_cache(maxsize=4096)  # every view of a hand masks the same few deals again
def _mask_event(event: Event, seat: int) -> Event:
    if type(event) is not DealEvent:
        return event
    recipients = event.recipients
    if all(who is None or who == seat for who in recipients):
        return event
    cards = tuple(c if who is None or who == seat else None
                  for who, c in zip(recipients, event.cards))
    return DealEvent(recipients, cards, event.draw)
