"""Bots: legal moves only, only their seat's view, and a search model true to the engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from chkobba_p2p import errors
from chkobba_p2p.bots.expert import (
    ExpertBot,
    bits,
    capture_masks,
    determinize,
    exact_endgame,
    margin,
    mask_of,
    moves,
    play,
    score_masks,
    undealt,
)
from chkobba_p2p.bots.levels import LEVELS, make_bot
from chkobba_p2p.bots.simple import GreedyBot, HeuristicBot, RandomBot
from chkobba_p2p.game.cards import DECK, Card, cards
from chkobba_p2p.game.rules import (
    CutterChoice,
    DealStep,
    Hand,
    Move,
    Ruleset,
    Turn,
    capture_options,
    score_piles,
)

TUNISIAN = Ruleset()
RULESETS = [
    TUNISIAN,
    Ruleset.preset("cardavia"),  # forced capture, primiera, plain opening
    TUNISIAN.with_variant("plain").with_variant("no-redeal"),
]


def small_expert(seed: int) -> ExpertBot:
    """A deterministic expert: a fixed number of sampled worlds, no clock."""
    return ExpertBot(seed, move_ms=None, samples=3)


def bots_for(level: str, players: int, seed: int) -> list:
    if level == "expert":
        return [small_expert(seed + i) for i in range(players)]
    return [make_bot(level, seed + i) for i in range(players)]


class Referee:
    """Drives an omniscient hand like simulate.play_hand, checking every decision."""

    def __init__(self, bots: list) -> None:
        self.bots = bots
        self.moves = 0

    def play(self, hand: Hand, deck: list[Card]) -> Hand:
        while True:
            step = hand.pending
            if isinstance(step, Turn):
                seat = step.seat
                view = hand.view(seat)
                move = self.bots[seat].choose_play(view)
                assert move in hand.legal_moves(), f"{move} is not legal in {hand}"
                hand = hand.apply(move)
                self.moves += 1
            elif isinstance(step, DealStep):
                k = len(step.recipients)
                hand = hand.deal(deck[:k])
                del deck[:k]
            elif isinstance(step, CutterChoice):
                keep = self.bots[step.seat].choose_cut(hand.view(step.seat))
                assert isinstance(keep, bool)
                hand = hand.choose_cut(keep)
            else:
                return hand


# ----------------------------------------------------------------- legality


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_level_plays_whole_hands_legally(level, players):
    rng = random.Random(f"{level}{players}")
    for i, rules in enumerate(RULESETS):
        referee = Referee(bots_for(level, players, 10 * i))
        deck = list(DECK)
        rng.shuffle(deck)
        hand = referee.play(Hand.new(rules, players, i % players), deck)
        assert hand.is_over or hand.needs_redeal
        if hand.is_over:
            assert sum(len(p) for p in hand.piles) == 40


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 4]),
       rules=st.sampled_from(RULESETS))
def test_heuristic_and_expert_moves_are_legal_in_random_positions(seed, players, rules):
    rng = random.Random(seed)
    bots = [HeuristicBot(seed), small_expert(seed)] * (players // 2)
    hand = Hand.new(rules, players, 0)
    deck = list(DECK)
    rng.shuffle(deck)
    # Random play to a random point, then each bot must answer legally from there.
    stop = rng.randrange(0, 36)
    randoms = [RandomBot(seed + s) for s in range(players)]
    plays = 0
    while not hand.is_over and not hand.needs_redeal:
        step = hand.pending
        if isinstance(step, Turn):
            view = hand.view(step.seat)
            if plays >= stop:
                for bot in bots:
                    assert bot.choose_play(view) in hand.legal_moves()
            hand = hand.apply(randoms[step.seat].choose_play(view))
            plays += 1
        elif isinstance(step, DealStep):
            k = len(step.recipients)
            hand = hand.deal(deck[:k])
            del deck[:k]
        else:
            hand = hand.choose_cut(rng.random() < 0.5)


def test_a_single_legal_move_is_played_without_thinking():
    h = Hand.from_position(TUNISIAN, 2, 1, hands=(cards("5S"), cards("9H")),
                           table=cards("5H 10C"), turn=0, stock=0,
                           piles=(tuple(c for c in DECK if c not in cards("5S 9H 5H 10C")), ()))
    clock = TickingClock(1.0)
    bot = ExpertBot(0, move_ms=10_000, clock=clock)
    assert bot.choose_play(h.view(0)) == Move(cards("5S")[0], frozenset(cards("5H")))
    assert clock.now <= 1.0  # at most the start of the move was read: no sampling loop
    assert bot.last_samples == 0


# ----------------------------------------------------------------- information hiding


@pytest.mark.parametrize("level", list(LEVELS))
def test_bots_refuse_the_omniscient_hand(level):
    h = Hand.from_position(TUNISIAN, 2, 1, hands=(cards("5S 3D 1H"), cards("9H 1C 2S")),
                           table=cards("2H 10C 4D 6C"), turn=0)
    bot = make_bot(level, 1) if level != "expert" else small_expert(1)
    with pytest.raises(errors.LocalError, match="view"):
        bot.choose_play(h)


def test_random_bot_refuses_to_play_another_seats_turn():
    h = Hand.from_position(TUNISIAN, 2, 1, hands=(cards("5S 3D 1H"), cards("9H 1C 2S")),
                           table=cards("2H 10C 4D 6C"), turn=0)
    with pytest.raises(errors.LocalError, match="own seat"):
        RandomBot(1).choose_play(h.view(1))
    assert RandomBot(1).choose_play(h.view(0)) in h.legal_moves()


def _other_world(hand: Hand, seat: int, rng: random.Random) -> Hand:
    """The same position with every card hidden from ``seat`` dealt again at random."""
    unseen = sorted(hand.view(seat).unseen_cards())
    rng.shuffle(unseen)
    hands = []
    k = 0
    for s, held in enumerate(hand.hands):
        if s == seat:
            hands.append(held)
        else:
            hands.append(tuple(unseen[k:k + len(held)]))
            k += len(held)
    return Hand.from_position(hand.ruleset, hand.players, hand.dealer, hands=hands,
                              table=hand.table, turn=hand.turn, stock=hand.stock,
                              piles=hand.piles, chkobbas=hand.chkobbas,
                              last_capturer=hand.last_capturer)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 4]),
       level=st.sampled_from(["greedy", "heuristic", "expert"]))
def test_a_bot_decides_the_same_whatever_it_cannot_see(seed, players, level):
    """Two worlds that differ only in cards hidden from the bot's seat: the same decision.

    A bot whose choice depended on a hidden card would, for some reshuffle of the hidden
    cards, choose differently from the same view.
    """
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    hand = Hand.new(TUNISIAN.with_variant("plain"), players, 0)
    randoms = [RandomBot(seed + s) for s in range(players)]
    stop = rng.randrange(0, 30)
    plays = 0
    while not (isinstance(hand.pending, Turn) and plays >= stop):
        step = hand.pending
        if isinstance(step, Turn):
            hand = hand.apply(randoms[step.seat].choose_play(hand.view(step.seat)))
            plays += 1
        elif isinstance(step, DealStep):
            k = len(step.recipients)
            hand = hand.deal(deck[:k])
            del deck[:k]
        else:
            # Opening redeal: start again with this deck's remainder is not a hand; restart.
            hand = Hand.new(hand.ruleset, players, 0)
            deck = list(DECK)
            rng.shuffle(deck)
    seat = hand.turn
    base = _other_world(hand, seat, random.Random(0))  # same shape as the other: no events
    other = _other_world(hand, seat, random.Random(1))
    assert base.view(seat).hands == other.view(seat).hands

    def decide(h: Hand) -> Move:
        bot = small_expert(seed) if level == "expert" else make_bot(level, seed)
        return bot.choose_play(h.view(seat))

    assert decide(base) == decide(other)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
def test_determinize_deals_only_unseen_cards_in_the_known_shapes(seed, players):
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    hand = Hand.new(TUNISIAN.with_variant("plain").with_variant("no-redeal"), players, 0)
    randoms = [RandomBot(seed + s) for s in range(players)]
    stop = rng.randrange(0, 30)
    plays = 0
    while not (isinstance(hand.pending, Turn) and plays >= stop) and not hand.is_over:
        step = hand.pending
        if isinstance(step, Turn):
            hand = hand.apply(randoms[step.seat].choose_play(hand.view(step.seat)))
            plays += 1
        else:
            k = len(step.recipients)
            hand = hand.deal(deck[:k])
            del deck[:k]
    if hand.is_over:
        return
    seat = hand.turn
    view = hand.view(seat)
    world = determinize(view, rng)
    unseen = {c.id for c in view.unseen_cards()}
    assert world.hands[seat] == hand.hands[seat]
    dealt = [c for s, h in enumerate(world.hands) if s != seat for c in h] + list(undealt(world))
    assert sorted(dealt) == sorted(unseen)
    assert [len(h) for h in world.hands] == [len(h) for h in hand.hands]
    assert len(undealt(world)) == world.stock == hand.stock
    assert world.table == hand.table and world.viewer is None


def test_determinize_refuses_an_omniscient_hand():
    h = Hand.from_position(TUNISIAN, 2, 1, hands=(cards("5S 3D 1H"), cards("9H 1C 2S")),
                           table=cards("2H 10C 4D 6C"), turn=0)
    with pytest.raises(errors.LocalError):
        determinize(h, random.Random(0))


# ----------------------------------------------------------------- the search model


@settings(max_examples=200, deadline=None)
@given(table=st.lists(st.sampled_from(DECK), max_size=9, unique=True),
       value=st.integers(1, 10))
def test_capture_masks_match_the_engine(table, value):
    free = [c for c in DECK if c.value == value and c not in table]
    assume(free)  # all four cards of that value may be on the table
    played = free[0]
    expected = {mask_of(o) for o in capture_options(played, table)}
    got = capture_masks(value, mask_of(table))
    assert len(got) == len(expected)
    assert set(got) == expected


@settings(max_examples=100, deadline=None)
@given(owner=st.lists(st.integers(0, 1), min_size=40, max_size=40),
       chk=st.tuples(st.integers(0, 3), st.integers(0, 3)),
       primiera=st.booleans())
def test_score_masks_match_the_engine(owner, chk, primiera):
    piles = [tuple(c for c, o in zip(DECK, owner) if o == side) for side in (0, 1)]
    rules = Ruleset.preset("cardavia") if primiera else TUNISIAN
    expected = score_piles(piles, chk, rules, 2).points
    assert tuple(score_masks([mask_of(p) for p in piles], chk, primiera)) == expected


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]),
       rules=st.sampled_from(RULESETS))
def test_the_search_plays_the_engine_s_own_moves(seed, players, rules):
    """One model: the search's moves and plays are the engine's (the engine itself is
    compared with a slow reference in test_rules_reference.py)."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    hand = Hand.new(rules, players, 0)
    while not isinstance(hand.pending, Turn):
        step = hand.pending
        if isinstance(step, DealStep):
            k = len(step.recipients)
            hand = hand.deal(deck[:k])
            del deck[:k]
        elif isinstance(step, CutterChoice):
            hand = hand.choose_cut(rng.random() < 0.5)
        else:
            return  # a redeal: nothing to compare
    world = hand._world(hand.hands, deck)  # the search's world: the deck in dealing order
    while not hand.is_over:
        legal = hand.legal_moves()
        assert sorted(moves(world)) == sorted((m.card.id, mask_of(m.capture)) for m in legal)
        move = rng.choice(legal)
        hand = hand.apply(move)
        world = play(world, move.card.id, mask_of(move.capture))
        while isinstance(hand.pending, DealStep):
            k = len(hand.pending.recipients)
            hand = hand.deal(deck[:k])
            del deck[:k]
        assert world.table == hand.table and world.hands == hand.hands
        # (white-box: the table sum the rollout policy reads is kept along)
        assert world._tsum == hand._tsum == sum(c.value for c in hand.table)
        assert world.is_over == hand.is_over
    assert world.score == hand.score


def _brute_margin(state: Hand, side: int) -> int:
    """Plain minimax, no pruning: the reference for the exact endgame."""
    if state.is_over:
        return margin(state, side)
    values = [_brute_margin(play(state, c, o), side) for c, o in moves(state)]
    return max(values) if state.side_of(state.turn) == side else min(values)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_exact_endgame_agrees_with_plain_minimax(seed):
    rng = random.Random(seed)
    ids = list(range(40))
    rng.shuffle(ids)
    n0 = rng.randint(1, 3)
    n1 = rng.choice([n0, n0 - 1]) if n0 > 1 else n0
    hands = [ids[:n0], ids[n0:n0 + n1]]
    rest = ids[n0 + n1:]
    t = rng.randint(0, 6)
    table = [Card(c) for c in rest[:t]]
    owners = [rng.randint(0, 1) for _ in rest[t:]]
    piles = [[Card(c) for c, o in zip(rest[t:], owners) if o == s] for s in (0, 1)]
    turn = 0 if n0 > n1 or n0 == n1 else 1
    h = Hand.from_position(TUNISIAN, 2, 1, hands=[[Card(c) for c in x] for x in hands],
                           table=table, turn=turn, stock=0, piles=piles,
                           last_capturer=rng.choice([None, 0, 1]) if any(piles) else None)
    state = h
    side = turn
    (c, o), value = exact_endgame(state, side)
    assert value == _brute_margin(state, side)
    assert _brute_margin(play(state, c, o), side) == value


def test_expert_plays_the_exact_endgame_from_its_view():
    # Last deal, 2 players: every card is accounted for, so the view determines the rest.
    mine = cards("7S 1S 5D")
    theirs = cards("3C 4S 6H")
    table = cards("7D 2C 5C")
    used = set(mine) | set(theirs) | set(table)
    rest = [c for c in DECK if c not in used]
    h = Hand.from_position(TUNISIAN, 2, 1, hands=(mine, theirs), table=table, turn=0, stock=0,
                           piles=(rest[:16], rest[16:]), last_capturer=1)
    # (Taking the haya at once is not the best here: dropping 1S is.)
    move = ExpertBot(3, move_ms=50).choose_play(h.view(0))
    values = {(c, o): _brute_margin(play(h, c, o), 0) for c, o in moves(h)}
    assert values[(move.card.id, mask_of(move.capture))] == max(values.values())
    assert len(set(values.values())) > 1  # the choice matters here


# ----------------------------------------------------------------- levels and budgets


def test_make_bot_keeps_the_two_argument_call_and_names_every_level():
    assert list(LEVELS) == ["random", "greedy", "heuristic", "expert"]
    for level in LEVELS:
        assert make_bot(level, 7).level == level
    assert isinstance(make_bot("greedy", 1, move_ms=50), GreedyBot)
    assert make_bot("expert", 1, move_ms=50).move_ms == 50
    with pytest.raises(errors.LocalError, match="unknown bot level"):
        make_bot("grandmaster", 1)
    with pytest.raises(errors.LocalError, match="positive"):
        make_bot("expert", 1, move_ms=0)


class TickingClock:
    """A clock that moves on by ``step`` seconds each time it is read: the bot's sense of
    time with no real time in it, so the budget logic is checked, not the machine's speed
    (the real figures are in benchmarks/arena.py)."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_expert_stays_within_its_time_budget():
    hand = Hand.from_position(TUNISIAN, 2, 1, hands=(cards("1D 5S 9H"), cards("2S 3S 4S")),
                              table=cards("4D 6C 8H 10S"), turn=0)
    used = {}
    for step in (0.0002, 0.001, 0.004, 0.02):
        clock = TickingClock(step)
        bot = ExpertBot(0, move_ms=40, clock=clock)
        bot.choose_play(hand.view(0))
        # One world at least, however slow; then no clock reading past the hard stop
        # (85% of the budget) by more than the one read that crossed it.
        assert bot.last_samples >= 1
        assert clock.now <= 0.85 * 0.040 + 2 * step
        used[step] = bot.last_samples
    # A slower world costs more of the budget: fewer of them fit.
    assert used[0.0002] > used[0.001] > used[0.004] >= used[0.02] >= 1


def test_expert_cut_choice_stays_within_its_time_budget():
    from chkobba_p2p.game.cards import card

    fresh = Hand.new(TUNISIAN, 2, 1).deal([card("7D")])
    view = fresh.view(fresh.cutter)
    for step in (0.0005, 0.005):
        clock = TickingClock(step)
        bot = ExpertBot(0, move_ms=40, clock=clock)
        bot.choose_cut(view)
        assert bot.last_samples >= 1
        assert clock.now <= 0.75 * 0.040 + 2 * step


def test_bits_and_masks_round_trip():
    some = cards("1S 7D 10C 5H")
    assert sorted(bits(mask_of(some))) == sorted(c.id for c in some)


def test_expert_cut_choice_reads_only_the_cutters_view():
    from chkobba_p2p.game.cards import card

    # With a sample count and no clock the choice is a function of the view alone; a
    # seat other than the cutter (who alone saw the card) cannot choose.
    fresh = Hand.new(TUNISIAN, 2, 1).deal([card("7D")])
    assert isinstance(fresh.pending, CutterChoice)
    view = fresh.view(fresh.cutter)
    choices = {ExpertBot(5, move_ms=None, samples=20).choose_cut(view) for _ in range(2)}
    assert len(choices) == 1
    with pytest.raises(errors.LocalError):
        ExpertBot(5, move_ms=None, samples=2).choose_cut(fresh.view(1 - fresh.cutter))
    with pytest.raises(errors.LocalError):
        ExpertBot(5, move_ms=None, samples=2).choose_cut(fresh)
