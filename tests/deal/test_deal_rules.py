"""The deal core driven by the rules engine: every seat runs its own view of the match and
its own deal peer; whatever the engine asks for (cut-and-draw keep or place, plain
opening, deals of three, the kings redeal, turns) is dealt exactly, and every seat's view
of the hand agrees with every other's."""

from __future__ import annotations

import hashlib

import pytest
from support.tiers import covering

from chkobba_p2p.bots.simple import RandomBot
from chkobba_p2p.deal import CardShown, FirstDealerDraw, StepOpened, Verified
from chkobba_p2p.deal.crypto import DECK_SIZE, expand_permutation
from chkobba_p2p.deal.local import LocalTable, make_table
from chkobba_p2p.game.cards import DECK, Card
from chkobba_p2p.game.rules import (
    CutterChoice,
    DealStep,
    HandOver,
    Match,
    Opening,
    Redeal,
    Ruleset,
    Turn,
    resolve_first_dealer,
)


def _events(t: LocalTable, seat: int, kind: type) -> list:
    return [e for e in t.take_events(seat) if isinstance(e, kind)]


def play_match_hand(n: int, ruleset: Ruleset, match: list[Match], *, keep: bool = True,
                    session: bytes = b"rules-driven", seeds: list[list[bytes]] | None = None,
                    cut: int = 13) -> dict[str, object]:
    """Play the hand in progress of every seat's match view; returns what happened."""
    hand_no = match[0].hand_number
    dealer = match[0].dealer
    cutter = (dealer + 1) % n
    instance = 0
    log: dict[str, object] = {"instances": 0, "dealt": [], "cut_choice": None}
    bots = [RandomBot(100 * hand_no + s) for s in range(n)]

    def new_table() -> LocalTable:
        t = make_table(n, session_id=session, hand=hand_no, instance=instance,
                       cutter=cutter if ruleset.opening is Opening.CUT_AND_DRAW else None,
                       seeds=seeds[instance] if seeds and instance < len(seeds) else None)
        t.start()
        if ruleset.opening is Opening.CUT_AND_DRAW:
            t.call(cutter, "cut", cut)
            t.deliver()
        log["instances"] = int(log["instances"]) + 1  # type: ignore[call-overload]
        return t

    t = new_table()
    top = 0
    while True:
        pend = {type(m.hand.pending) for m in match}
        assert len(pend) == 1, pend  # every seat's engine waits for the same thing
        p = match[0].hand.pending
        if isinstance(p, DealStep):
            positions = list(range(top, top + len(p.recipients)))
            top += len(positions)
            private: dict[int, list[int]] = {}
            public = []
            for pos, who in zip(positions, p.recipients, strict=True):
                if who is None:
                    public.append(pos)
                else:
                    private.setdefault(who, []).append(pos)
            t.call_all("open", private, public)
            t.deliver()
            for s in range(n):
                (ev,) = _events(t, s, StepOpened)
                cards = [ev.mine.get(pos) or ev.public.get(pos) for pos in positions]
                # A seat sees exactly its own cards and the face-up ones.
                for who, c in zip(p.recipients, cards, strict=True):
                    assert (c is not None) == (who is None or who == s)
                match[s] = match[s].with_hand(match[s].hand.deal(cards))
            log["dealt"].append(p.recipients)  # type: ignore[attr-defined]
        elif isinstance(p, CutterChoice):
            assert p.seat == cutter
            log["cut_choice"] = keep
            if keep:
                for s in range(n):
                    match[s] = match[s].with_hand(match[s].hand.choose_cut(True))
            else:
                drawn_pos = [q for q in range(DECK_SIZE) if t.peers[cutter].holder(q) == cutter]
                assert drawn_pos == [0]
                t.call(cutter, "play", 0)  # placed face up: everyone learns it
                t.deliver()
                for s in range(n):
                    (ev,) = _events(t, s, CardShown)
                    assert ev.pos == 0
                    match[s] = match[s].with_hand(match[s].hand.choose_cut(False, ev.card))
        elif isinstance(p, Redeal):
            table = match[0].hand.table
            assert sum(c.value == 10 for c in table) >= 3
            t.call_all("finish", discard=True)
            t.deliver()
            assert all(any(isinstance(e, Verified) for e in t.events[s]) for s in range(n))
            match = [m.redeal() for m in match]
            instance += 1
            top = 0
            log["dealt"] = []  # the discarded deck's deals do not count
            t = new_table()
        elif isinstance(p, Turn):
            seat = p.seat
            move = bots[seat].choose_play(match[seat].hand)
            pos = next(q for q in t.peers[seat].hand_positions()
                       if t.peers[seat].card_at(q) == move.card)
            t.call(seat, "play", pos)
            t.deliver()
            for s in range(n):
                (ev,) = _events(t, s, CardShown)
                assert (ev.seat, ev.pos, ev.card) == (seat, pos, move.card)
                # The capture choice travels in the transport's move message.
                match[s] = match[s].with_hand(match[s].hand.play(seat, ev.card, move.capture))
        elif isinstance(p, HandOver):
            break
        else:  # pragma: no cover
            raise AssertionError(p)
    assert top == DECK_SIZE
    t.call_all("finish")
    t.deliver()
    for s in range(n):
        assert t.peers[s].phase == "done"
        assert any(isinstance(e, Verified) for e in t.events[s])
    scores = {m.hand.score for m in match}
    assert len(scores) == 1  # every seat scores the hand the same
    piles = match[0].hand.piles
    assert sorted(c for pile in piles for c in pile) == list(DECK)
    log["match"] = match
    return log


def views(n: int, ruleset: Ruleset, dealer: int) -> list[Match]:
    return [Match.new(ruleset, n, dealer, viewer=s) for s in range(n)]


# The fast tier deals each ruleset and each count once (support.tiers.covering).
@pytest.mark.parametrize("preset,keep,n", covering(
    [("tunisian", True), ("tunisian", False), ("chkoum", True), ("cardavia", True)], [2, 3, 4]))
def test_rules_engine_hand_is_dealt_exactly(n: int, preset: str, keep: bool) -> None:
    rs = Ruleset.preset(preset)
    log = play_match_hand(n, rs, views(n, rs, dealer=n - 1), keep=keep)
    dealt = log["dealt"]
    # Every position is dealt once, the cutter's drawn card included.
    assert sum(len(r) for r in dealt) == DECK_SIZE
    if rs.opening is Opening.CUT_AND_DRAW:
        assert log["cut_choice"] is keep


def _seeds_for_kings(n: int, positions: list[int], cut: int) -> list[bytes]:
    for i in range(100000):
        seeds = [hashlib.sha256(f"kings {n} {i} {s}".encode()).digest() for s in range(n)]
        deck = list(range(DECK_SIZE))
        for seed in seeds:
            perm = expand_permutation(seed)
            deck = [deck[perm[j]] for j in range(DECK_SIZE)]
        deck = deck[cut:] + deck[:cut]
        if sum(deck[p] % 10 == 9 for p in positions) >= 3:
            return seeds
    raise AssertionError("no seed found")


@pytest.mark.parametrize("preset,keep,n", covering(
    [("tunisian", True), ("tunisian", False), ("chkoum", True)], [2, 3, 4]))
def test_rules_engine_kings_redeal_is_a_fresh_instance(n: int, preset: str, keep: bool) -> None:
    rs = Ruleset.preset(preset)
    plain = rs.opening is Opening.PLAIN
    table_positions = [3 * n + i for i in range(4)] if keep else [0, 1, 2, 3]
    seeds = _seeds_for_kings(n, table_positions, cut=0 if plain else 13)
    log = play_match_hand(n, rs, views(n, rs, dealer=0), keep=keep, seeds=[seeds])
    assert int(log["instances"]) >= 2  # type: ignore[call-overload]
    assert log["match"][0].redeals >= 1  # type: ignore[index]


def test_two_hands_of_a_match_with_the_first_dealer_drawn() -> None:
    n = 2
    rs = Ruleset()
    # The first-dealer draw on its own instance.
    t = make_table(n, session_id=b"match", hand=0, instance=0)
    t.start()
    draw = FirstDealerDraw(n)
    while draw.dealer is None:
        positions = draw.next_draw()
        t.call_all("open", public=list(positions.values()))
        t.deliver()
        ev = [e for e in t.take_events(0) if isinstance(e, StepOpened)][-1]
        cards: dict[int, Card] = {s: ev.public[q] for s, q in positions.items()}
        expected = resolve_first_dealer(cards)
        got = draw.record(cards)
        assert got == (expected if isinstance(expected, int) else None)
    t.call_all("finish", discard=True)
    t.deliver()
    match = views(n, rs, draw.dealer)
    dealers = []
    for _ in range(2):
        dealers.append(match[0].dealer)
        log = play_match_hand(n, rs, match, session=b"match")
        match = [m.finish_hand() for m in log["match"]]  # type: ignore[attr-defined]
        if match[0].is_over:
            break
    assert dealers[:2] == [draw.dealer, (draw.dealer + 1) % n]
