"""The coach: every decision of a finished match graded by the expert's search, from what
the deciding player knew at that moment.

A game record (:mod:`chkobba_p2p.game.record`, what ``chkobba replay`` audits out of a log once
every deck's seeds are open) holds every card; a player at the table saw only their own.
:func:`review_records` drives each hand through the rules engine and, before each
decision -- every play, and the cutter's keep-or-place -- takes **that seat's view**
(:meth:`chkobba_p2p.game.rules.Hand.view`: its own cards, the table, the captured piles, what
was played) and only that view to the expert's search (:mod:`chkobba_p2p.bots.expert`):

* a play: every legal move is played out in the same sampled worlds (the cards unseen from
  that seat dealt at random into the other hands and the stock, :func:`~.search.determinize`)
  by the expert's greedy rollout policy; at 2 players once the stock is empty every card
  is accounted for and the rest of the hand is searched exactly (alpha-beta);
* the cut: keeping the drawn card and placing it on the table are both played out over
  the same shuffles of the cards the cutter has not seen.

A move's **value** is the expected point margin of the hand for the player's side (its
points minus the other side's, the expert's own measure); the **loss** of a decision is the
best move's value minus the played move's, in points of this hand (never below zero: the
played move is among those searched).  A decision with one legal move is forced, loss 0.
Thresholds (:data:`MISTAKE`, :data:`BLUNDER`) turn a loss into a label; a player's
summary gives the mean loss per decision, the counts, and an accuracy figure (the share of
decisions that are neither mistake nor blunder).

Bounded: a log holds up to thousands of decisions, each a search of its own (6,438 took
200 s): :func:`review_records` grades the first ``limit`` of them in play order
(:data:`DEFAULT_LIMIT` unless told otherwise; 0 or None: every one), and the
:class:`Review` says how many there were (:attr:`Review.decisions`) and whether it
stopped short (:attr:`Review.cut_short`).

Deterministic: each decision's random worlds come from ``(seed, hand, decision)`` alone, so
a log and a seed always give the same grades, whatever was graded before.  Sans-IO and
silent: ``progress`` is called after each graded decision; nothing is printed.

A decision that lost points (not forced, loss above zero) also carries its
:attr:`Grade.reasons`: what the rules say the played move gave away against the best one,
decided exactly from the same seat's view (:func:`reasons_for_play`,
:func:`reasons_for_cut`), never from the sampled worlds: a code of :data:`REASON_CODES`
and the card or value it concerns, most important first.  Data only: the client words it.

Not graded: the decisions of an abandoned opening (a redealt hand), which left no trace in
the score.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..bots.expert import cut_margins, determinize, exact_endgame, margin, play, rollout
from ..game._masks import BIT, DIAMOND_MASK, HAYA_BIT, SEVEN_MASK, cards_of, mask_of
from ..game.cards import Card, card
from ..game.hand import CutterChoice, Hand, Move, side_of
from ..game.ruleset import Ruleset
from .errors import ObserveUsageError

__all__ = [
    "MISTAKE",
    "BLUNDER",
    "DEFAULT_SAMPLES",
    "DEFAULT_LIMIT",
    "Grade",
    "Reason",
    "REASON_CODES",
    "SeatSummary",
    "Review",
    "label_for",
    "grade_play",
    "grade_cut",
    "reasons_for_play",
    "reasons_for_cut",
    "review_records",
]

#: A decision that loses at least this many points of the hand (expected margin) against
#: the best move is a **mistake**...
MISTAKE = 0.5
#: ...and at least this many, a **blunder** (about a chkobba given away, or the haya).
BLUNDER = 1.0
#: Sampled worlds per decision (every move is judged on the same worlds).
DEFAULT_SAMPLES = 200

#: The most decisions a review grades unless told otherwise (a minute or two of one core
#: at :data:`DEFAULT_SAMPLES`, 103 s measured; a whole match to 21 points is a few hundred).
DEFAULT_LIMIT = 2000

#: Labels of a grade.
FORCED, GOOD, MISTAKE_LABEL, BLUNDER_LABEL = "forced", "good", "mistake", "blunder"


def label_for(loss: float, options: int) -> str:
    """The label of a decision that lost ``loss`` points among ``options`` choices."""
    if options <= 1:
        return FORCED
    if loss >= BLUNDER:
        return BLUNDER_LABEL
    if loss >= MISTAKE:
        return MISTAKE_LABEL
    return GOOD


#: Why a move lost points, most important first (a grade's reasons are in this order):
#:
#: * ``misses_chkobba``: the best move swept the table (a chkobba), the played one did not;
#: * ``misses_haya``: the best move took the 7 of diamonds (the haya), the played one did
#:   not (``card``: 7D);
#: * ``gives_haya``: after the played move a card this seat has not seen could take the
#:   haya from the table, after the best move none could (``card``: 7D);
#: * ``leaves_sweep``: after the played move more of the cards this seat has not seen
#:   could sweep the table in one capture (a chkobba for whoever holds one) than after
#:   the best move (``value``: the value that sweeps it);
#: * ``last_capture``: the play ends the hand and the best move made this side the last
#:   to capture (the table's last cards go to it), the played one did not;
#: * ``misses_sevens``, ``fewer_dinari``, ``fewer_cards``: the best move took more sevens
#:   (barmila), more diamonds (dinari), more cards (carta) than the played one
#:   (``value``: how many more);
#: * ``gives_seven``, ``gives_dinari``: after the played move a seven (not the haya), a
#:   diamond lies on the table where a card this seat has not seen could take it, and
#:   after the best move it does not (``card``: that card);
#: * ``keep_cut`` / ``place_cut``: the cut card was worth more kept in hand / placed on
#:   the table (``card``: the card drawn).
REASON_CODES = ("misses_chkobba", "misses_haya", "gives_haya", "leaves_sweep",
                "last_capture", "misses_sevens", "gives_seven", "fewer_dinari",
                "gives_dinari", "fewer_cards", "keep_cut", "place_cut")


@dataclass(frozen=True)
class Reason:
    """One reason a decision lost points: ``code`` (one of :data:`REASON_CODES`), and
    the card it concerns (canonical text, ``7D``) or a value, where the code has one."""

    code: str
    card: str | None = None
    value: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Grade:
    """One graded decision.  ``kind``: ``"play"`` or ``"cut"``; ``number``: the play's
    number in its hand (1-based; 0 for the cut); ``played`` / ``best``: the move as cards
    (``card`` and the ``capture`` it took, canonical text; for the cut, ``card`` is the
    drawn card and ``keep`` says the choice); ``values``: expected margin of the played and
    the best move; ``loss``: their difference (points of the hand); ``exact``: found by
    the exact endgame search rather than by sampling; ``reasons``: why the played move
    lost points against the best (:class:`Reason`, most important first; empty for a
    forced move, a move that lost nothing, or a loss no rule explains in one move)."""

    hand: int
    number: int
    seat: int
    kind: str
    played: Mapping[str, Any]
    best: Mapping[str, Any]
    value_played: float
    value_best: float
    loss: float
    options: int
    samples: int
    exact: bool
    label: str
    reasons: tuple[Reason, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["played"], out["best"] = dict(self.played), dict(self.best)
        out["reasons"] = [r.to_dict() for r in self.reasons]
        return out


@dataclass(frozen=True)
class SeatSummary:
    """A player's grades in short: decisions graded, mean loss per decision (points per
    hand), mistakes, blunders, and accuracy (% of decisions neither)."""

    seat: int
    decisions: int
    mean_loss: float
    mistakes: int
    blunders: int
    accuracy: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Review:
    """Every grade of a match, in play order, and a summary per graded seat."""

    grades: list[Grade] = field(default_factory=list)
    seed: int = 0
    samples: int = DEFAULT_SAMPLES
    #: The decisions there were to grade (those of the seats asked for).
    decisions: int = 0
    #: The most it was to grade (None: no limit).
    limit: int | None = None

    @property
    def cut_short(self) -> bool:
        """Whether the review stopped at :attr:`limit` before grading every decision."""
        return len(self.grades) < self.decisions

    def summaries(self) -> list[SeatSummary]:
        out = []
        for seat in sorted({g.seat for g in self.grades}):
            mine = [g for g in self.grades if g.seat == seat]
            loss = sum(g.loss for g in mine) / len(mine)
            mistakes = sum(g.label == MISTAKE_LABEL for g in mine)
            blunders = sum(g.label == BLUNDER_LABEL for g in mine)
            accuracy = 100.0 * (len(mine) - mistakes - blunders) / len(mine)
            out.append(SeatSummary(seat, len(mine), round(loss, 3), mistakes, blunders,
                                   round(accuracy, 1)))
        return out

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON: the thresholds, the settings, every grade, the summaries."""
        return {"mistake": MISTAKE, "blunder": BLUNDER, "seed": self.seed,
                "samples": self.samples, "unit": "points of the hand (expected margin)",
                "decisions": self.decisions, "graded": len(self.grades), "limit": self.limit,
                "grades": [g.to_dict() for g in self.grades],
                "summaries": [s.to_dict() for s in self.summaries()]}


# ------------------------------------------------------------------------ one decision


def _move_dict(c: int, capture: int) -> dict[str, Any]:
    return {"card": Card(c).text,
            "capture": [Card(x).text for x in range(40) if capture >> x & 1]}


def _seat_view(view: Hand) -> int:
    if view.viewer is None or not 0 <= view.viewer < view.players:
        raise ObserveUsageError("grade from a seat's view (hand.view(seat)), never the open "
                                "hand", code="open_hand_graded")
    return view.viewer


def grade_play(view: Hand, move: Move, *, rng: random.Random,
               samples: int = DEFAULT_SAMPLES, hand: int = 0, number: int = 0) -> Grade:
    """Grade ``move`` (the move played) from ``view``, the playing seat's view just before
    it.  Raises :class:`LocalError` for an omniscient hand or an illegal move."""
    seat = _seat_view(view)
    if view.turn != seat:
        raise ObserveUsageError("it is not this seat's turn to play", code="not_its_turn")
    moves = view.legal_moves()
    if move not in moves:
        raise ObserveUsageError(f"{move} is not a legal move here", code="move_not_legal",
                                data={"card": move.card.id})
    # The search's move form: (card id, mask of the captured card ids).
    options = [(m.card.id, sum(1 << c.id for c in m.capture)) for m in moves]
    played = options[moves.index(move)]
    side = side_of(seat, view.players)
    if len(options) == 1:
        d = _move_dict(*played)
        return Grade(hand, number, seat, "play", d, d, 0.0, 0.0, 0.0, 1, 0, False, FORCED)
    exact = view.stock == 0 and view.players == 2
    if exact:
        # Every card is accounted for: the unseen cards are the opponent's hand.
        state = determinize(view, rng)
        values = []
        for c, o in options:
            child = play(state, c, o)
            values.append(float(margin(child, side)) if child.is_over
                          else -float(exact_endgame(child, 1 - side)[1]))
        n = 0
    else:
        totals = [0.0] * len(options)
        for _ in range(samples):
            world = determinize(view, rng)
            for i, (c, o) in enumerate(options):
                totals[i] += margin(rollout(play(world, c, o)), side)
        values = [t / samples for t in totals]
        n = samples
    i_played = options.index(played)
    best_i = max(range(len(options)), key=lambda i: (values[i], i == i_played))
    loss = max(0.0, values[best_i] - values[i_played])
    reasons = reasons_for_play(view, move, moves[best_i]) if round(loss, 3) > 0 else ()
    return Grade(hand, number, seat, "play", _move_dict(*played),
                 _move_dict(*options[best_i]), round(values[i_played], 3),
                 round(values[best_i], 3), round(loss, 3), len(options), n, exact,
                 label_for(loss, len(options)), reasons)


def grade_cut(view: Hand, keep: bool, *, rng: random.Random,
              samples: int = DEFAULT_SAMPLES, hand: int = 0) -> Grade:
    """Grade the cutter's choice (``keep`` the drawn card, or place it on the table) from
    ``view``, the cutter's view when it chose."""
    seat = _seat_view(view)
    if view.pending != CutterChoice(seat):
        raise ObserveUsageError("this seat is not choosing a cut here",
                                code="not_choosing_a_cut")
    drawn = view.hand_of(seat)[0]
    if drawn is None:
        raise ObserveUsageError("the cutter sees the drawn card", code="drawn_card_unseen")
    unseen = sorted(view.unseen_cards())
    keep_total = place_total = 0.0
    for _ in range(samples):
        rng.shuffle(unseen)
        kept, placed = cut_margins(view, drawn, unseen)
        keep_total += kept
        place_total += placed
    values = {True: keep_total / samples, False: place_total / samples}
    best = keep if values[keep] >= values[not keep] else not keep
    loss = max(0.0, values[best] - values[keep])
    reasons = reasons_for_cut(drawn, keep, best) if round(loss, 3) > 0 else ()
    return Grade(hand, 0, seat, "cut", {"card": drawn.text, "keep": keep},
                 {"card": drawn.text, "keep": best}, round(values[keep], 3),
                 round(values[best], 3), round(loss, 3), 2, samples, False,
                 label_for(loss, 2), reasons)


# ------------------------------------------------------------------------ the reasons

#: The haya (the seven of diamonds), as the rules model names it.
_HAYA = cards_of(HAYA_BIT)[0]


def _sweepers(after: Hand, unseen: Iterable[Card]) -> tuple[int, int | None]:
    """How many of the ``unseen`` cards could sweep ``after``'s table in one capture, and
    the value that does (None: none can).  By the rules' rank-first capture, a table of
    one card is swept by its value, a table of several by the sum of its values alone
    (no card of a rank on it can make the sum)."""
    table = set(after.table)
    if not table or after.is_over:
        return 0, None
    n, value = 0, None
    for c in unseen:
        if any(option == table for option in after.captures_for(c)):
            n, value = n + 1, c.value
    return n, value


def _open(after: Hand, unseen: Sequence[Card]) -> set[Card]:
    """The table cards of ``after`` that a card in ``unseen`` could take."""
    if after.is_over:
        return set()
    return {t for c in unseen for option in after.captures_for(c) for t in option}


def _last_side(world: Hand, move: Move) -> int | None:
    """The side that captures last when ``move`` is played in ``world`` (an omniscient
    hand with no stock) and the rest of the hand as the exact search plays it."""
    state = play(world, move.card.id, sum(1 << c.id for c in move.capture))
    while not state.is_over:
        (c, o), _ = exact_endgame(state, side_of(state.turn, state.players))
        state = play(state, c, o)
    last = state.last_capturer
    return None if last is None else side_of(last, state.players)


#: The reason said for a card of a kind left for others to take.
GIVES = {"misses_sevens": "gives_seven", "fewer_dinari": "gives_dinari"}


def _count(best: set[Card], played: set[Card], kind: int) -> int:
    """How many more cards of a ``kind`` (a mask of the rules model: its sevens, its
    diamonds) the best move took than the played one."""
    return (mask_of(best) & kind).bit_count() - (mask_of(played) & kind).bit_count()


def reasons_for_play(view: Hand, played: Move, best: Move) -> tuple[Reason, ...]:
    """Why ``played`` is worse than ``best`` for the seat to play in ``view`` (its own
    view), as the rules decide it one move ahead: the reasons of :data:`REASON_CODES`
    that hold, most important first.  Pure and exact: nothing is sampled."""
    seat = _seat_view(view)
    if played == best:
        return ()
    side = side_of(seat, view.players)
    unseen = sorted(view.unseen_cards())
    before = view.side_piles()[side]
    p_after = view.play(seat, played.card, played.capture)
    b_after = view.play(seat, best.card, best.capture)
    # What each move took from the table (the card played is this seat's either way:
    # kept in hand or not, it is no gain of the capture).
    p_gain = set(p_after.side_piles()[side]) - set(before) - {played.card}
    b_gain = set(b_after.side_piles()[side]) - set(before) - {best.card}
    out: list[Reason] = []
    if b_after.side_chkobbas()[side] > p_after.side_chkobbas()[side]:
        out.append(Reason("misses_chkobba"))
    if _HAYA in b_gain and _HAYA not in p_gain:
        out.append(Reason("misses_haya", card=_HAYA.text))
    # The cards the played move leaves for others to take that the best one does not
    # (taken by it, or out of reach).
    given = sorted(_open(p_after, unseen) - _open(b_after, unseen) - b_gain)
    if _HAYA in given:  # never with misses_haya: a haya the best move takes is no gift
        out.append(Reason("gives_haya", card=_HAYA.text))
    p_sweep, value = _sweepers(p_after, unseen)
    if p_sweep > _sweepers(b_after, unseen)[0]:
        out.append(Reason("leaves_sweep", value=value))
    if view.players == 2 and view.stock == 0:
        # Every card is accounted for (the unseen ones are the other hand): both lines
        # are played out to the end as the exact search plays them.
        world = determinize(view, random.Random(0))
        if _last_side(world, best) == side != _last_side(world, played):
            out.append(Reason("last_capture"))
    if any(r.code == "misses_haya" for r in out):
        # Said once: the haya is not counted again as a seven and a diamond.
        b_gain.discard(_HAYA)
    for code, more, kind in (
            ("misses_sevens", _count(b_gain, p_gain, SEVEN_MASK), SEVEN_MASK),
            ("fewer_dinari", _count(b_gain, p_gain, DIAMOND_MASK), DIAMOND_MASK),
            ("fewer_cards", len(b_gain) - len(p_gain), None)):
        if more > 0:
            out.append(Reason(code, value=more))
        if kind is not None:  # a seven, a diamond left to take (the haya said apart)
            left = [c for c in given if BIT[c] & kind and c != _HAYA]
            if left:
                out.append(Reason(GIVES[code], card=left[0].text))
    return tuple(out)


def reasons_for_cut(drawn: Card, keep: bool, best: bool) -> tuple[Reason, ...]:
    """Why the cutter's choice (``keep``) is worse than ``best``: the card was worth
    more kept, or placed."""
    if keep == best:
        return ()
    return (Reason("keep_cut" if best else "place_cut", card=drawn.text),)


# ------------------------------------------------------------------------ a whole match


def _decisions(record: Mapping[str, Any]) -> Iterable[tuple[Hand, dict[str, Any], int]]:
    """Each decision of a hand record: the open hand just before it, the recorded event
    (a cut or a play) and the play's number (0 for the cut)."""
    ruleset = Ruleset.from_dict(record["ruleset"])
    hand = Hand.new(ruleset, int(record["players"]), int(record["dealer"]))
    plays = 0
    for ev in record["events"]:
        (kind, b), = ev.items()
        if kind == "deal":
            hand = hand.deal([None if c is None else card(c) for c in b["cards"]])
        elif kind == "cut":
            yield hand, {"cut": b}, 0
            hand = hand.choose_cut(bool(b["keep"]),
                                   None if b["card"] is None else card(b["card"]))
        elif kind == "play":
            plays += 1
            yield hand, {"play": b}, plays
            hand = hand.play(int(b["seat"]), card(b["card"]), [card(c) for c in b["capture"]])


def _rng(seed: int, hand: int, number: int) -> random.Random:
    # A string seed is hashed with SHA-512 by random: the same in every process.
    return random.Random(f"chkobba-review/{seed}/{hand}/{number}")


def review_records(records: Iterable[Mapping[str, Any]], *, seats: Sequence[int] | None = None,
                   samples: int = DEFAULT_SAMPLES, seed: int = 0,
                   progress: Callable[[int, int], None] | None = None,
                   limit: int | None = DEFAULT_LIMIT) -> Review:
    """Grade the decisions of the hand records (``seats``: only those seats'; default
    all), the first ``limit`` of them in play order (0 or None: all of them).
    ``progress(done, total)`` is called after each graded decision (``total``: those
    that will be graded)."""
    if samples < 1:
        raise ObserveUsageError("the review needs at least one sampled world per decision",
                                code="samples_below_one", data={"samples": samples})
    if limit is not None and limit < 0:
        raise ObserveUsageError("the review's limit is 0 (none) or more decisions",
                                code="negative_limit", data={"limit": limit})
    todo = []
    for r in records:
        if r.get("type") != "hand":
            continue
        for open_hand, ev, number in _decisions(r):
            (kind, b), = ev.items()
            if seats is None or int(b["seat"]) in seats:
                todo.append((int(r["number"]), open_hand, kind, b, number))
    limit = limit or None
    review = Review(seed=seed, samples=samples, decisions=len(todo), limit=limit)
    if limit is not None:
        del todo[limit:]
    for done, (hand_no, open_hand, kind, b, number) in enumerate(todo, 1):
        seat = int(b["seat"])
        view = open_hand.view(seat)  # what that player knew then, and nothing more
        rng = _rng(seed, hand_no, number)
        if kind == "cut":
            review.grades.append(grade_cut(view, bool(b["keep"]), rng=rng, samples=samples,
                                           hand=hand_no))
        else:
            move = Move(card(b["card"]), frozenset(card(c) for c in b["capture"]))
            review.grades.append(grade_play(view, move, rng=rng, samples=samples,
                                            hand=hand_no, number=number))
        if progress is not None:
            progress(done, len(todo))
    return review
