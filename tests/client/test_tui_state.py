"""The terminal client's pure parts: the table picture built from events, the words in
both languages, and the drawing of cards and scoring tables."""

from __future__ import annotations

import random
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba_cli.tui.parts.render import (
    CardStyle,
    card_chips,
    card_row,
    line_text,
    score_lines,
    wrap_line,
)
from chkobba_cli.words.i18n import MESSAGES, RULE_NAMES, Translator, detect_lang
from chkobba_p2p._shell.peer import Lobby, Resumed, Waiting
from chkobba_p2p.bots.simple import GreedyBot, RandomBot
from chkobba_p2p.game import rules as R
from chkobba_p2p.game.cards import DECK, FigureConvention, card, cards
from chkobba_p2p.tablestate import TableState, side_captures
from chkobba_p2p.transcript.events import HandScored, HandStarted, MatchDone
from chkobba_p2p.transcript.table import SeatInfo, TableInfo


def _play_hand(seed: int, players: int, viewer: int, keep: bool | None = None):
    """Drive one omniscient hand with bots; yield (viewer's hand view, events so far)
    after every step, as a peer at ``viewer`` would see them."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    ruleset = R.Ruleset()
    dealer = rng.randrange(players)
    hand = R.Hand.new(ruleset, players, dealer)
    bots = [RandomBot(seed + i) if i % 2 else GreedyBot(seed + i) for i in range(players)]
    while True:
        p = hand.pending
        if isinstance(p, R.DealStep):
            k = len(p.recipients)
            hand, deck = hand.deal(deck[:k]), deck[k:]
        elif isinstance(p, R.CutterChoice):
            choice = rng.random() < 0.5 if keep is None else keep
            hand = hand.choose_cut(choice)
        elif isinstance(p, R.Turn):
            view = hand.view(p.seat)
            hand = hand.apply(bots[p.seat].choose_play(view))
        else:
            yield hand.view(viewer), dealer
            return
        yield hand.view(viewer), dealer


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 4]),
       viewer=st.integers(0, 3), keep=st.sampled_from([None, True, False]))
def test_state_from_events_matches_the_rules_engine_view(seed, players, viewer, keep):
    viewer %= players
    base = TableState(seat=viewer).with_players(players)
    seen = 0
    st_ = None
    for view, dealer in _play_hand(seed, players, viewer, keep):
        if st_ is None:
            st_ = base.apply(HandStarted(1, dealer))
        new = view.events[seen:]
        seen = len(view.events)
        st_ = st_.apply_all(new)
        if view.needs_redeal:
            return
        assert st_.table == view.table
        assert sorted(st_.hand) == sorted(c for c in view.hand_of(viewer) if c is not None)
        assert st_.counts == tuple(len(h) for h in view.hands)
        assert st_.stock == view.stock
        assert st_.chkobbas == view.side_chkobbas()
        for side, pile in enumerate(view.side_piles()):
            assert sorted(st_.piles[side]) == sorted(pile)
        # The engine's view, when synced, agrees with the picture built from events.
        synced = st_.sync(view)
        assert synced.table == st_.table and synced.counts == st_.counts
        if isinstance(view.pending, R.Turn):
            assert st_.turn == view.turn
        if isinstance(view.pending, R.CutterChoice):
            assert st_.cutting and st_.turn == view.cutter
            assert (st_.drawn is not None) == (viewer == view.cutter)
    assert st_ is not None
    if view.is_over:
        assert sum(side_captures(p).cards for p in st_.piles) == 40
        assert st_.table == ()


def test_lobby_finds_the_local_seat_and_names():
    st_ = TableState(my_fingerprint="bbbb")
    st_ = st_.apply(Lobby((("amel", "aaaa"), None)))
    assert st_.seat is None and st_.players == 2 and st_.names == ("amel", None)
    st_ = st_.apply(Lobby((("amel", "aaaa"), ("sami", "bbbb"))))
    assert st_.seat == 1 and st_.name(1) == "sami" and st_.fingerprints[0] == "aaaa"
    assert st_.others() == [0]


def test_a_table_info_gives_rules_names_and_seat():
    from chkobba_p2p.wire.codec import Identity

    ids = [Identity.generate() for _ in range(4)]
    rules = R.Ruleset.preset("cardavia")
    table = TableInfo(b"g" * 16, 1, 4, rules,
                        tuple(SeatInfo(i, k.public, f"p{i}") for i, k in enumerate(ids)))
    st_ = TableState(my_fingerprint=ids[2].fingerprint).apply(table)
    assert st_.seat == 2 and st_.players == 4 and st_.rules is rules
    assert st_.names == ("p0", "p1", "p2", "p3") and st_.my_side == 0
    assert st_.others() == [3, 0, 1] and st_.target == 11


def test_scores_waiting_and_the_end_of_the_match():
    st_ = TableState(seat=0).with_players(2).apply(HandStarted(1, 1))
    assert st_.cutter == 0 and st_.turn == 0 and st_.hand_number == 1
    score = R.score_piles([cards("7D 7S 1D"), cards("2S")], [1, 0], R.Ruleset(), 2)
    st_ = st_.apply(HandScored(1, score, (5, 0)))
    assert st_.totals == (5, 0) and st_.last_score.score is score
    st_ = st_.apply(Waiting(1, 30))
    assert st_.waiting == ((1, 30),)
    st_ = st_.apply(Waiting(1, 29))
    assert st_.waiting == ((1, 29),)
    st_ = st_.apply(Resumed(1))
    assert st_.waiting == ()
    done = MatchDone(0, (11, 4), 3)
    st_ = st_.apply(done)
    assert st_.over and st_.winner_side == 0 and st_.totals == (11, 4)
    assert st_.apply(object()) is st_  # unknown events change nothing


def test_side_captures_counts_what_scoring_counts():
    c = side_captures(cards("7D 7S 6H 1D 10C"), 2)
    assert (c.cards, c.diamonds, c.sevens, c.sixes, c.haya, c.chkobbas) == (5, 2, 2, 1, True, 2)


# ------------------------------------------------------------------------- words


def _fields(text: str) -> set[str]:
    return {f[1] for f in string.Formatter().parse(text) if f[1]}


def test_every_message_exists_in_both_languages_with_the_same_fields():
    for key, (en, fr) in MESSAGES.items():
        assert en and fr, key
        assert _fields(en) == _fields(fr), key
    for rule, (en, fr) in RULE_NAMES.items():
        assert en and fr, rule


def test_translator_and_locale_detection():
    assert Translator("fr")("your_hand") == "Votre main"
    assert Translator("en")("hand_no", n=3) == "hand 3"
    assert Translator("de")("your_hand") == "Your hand"  # unknown language: English
    assert Translator("fr").rule("forced_capture") == "prise obligatoire"
    assert detect_lang({"LANG": "fr_TN.UTF-8"}) == "fr"
    assert detect_lang({"LC_ALL": "en_US.UTF-8", "LANG": "fr_FR.UTF-8"}) == "en"
    assert detect_lang({}) == "en"


def test_messages_used_by_the_client_are_defined():
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parent.parent.parent / "cli"
    used = set()
    for path in [root / "commands" / "host.py", root / "commands" / "join.py",
                 root / "support" / "player.py", *sorted((root / "tui").rglob("*.py"))]:
        text = path.read_text()
        used |= set(re.findall(r"""\bt\(\s*"([a-z_]+)\"""", text))
        used |= {k + suffix for k in re.findall(r"""said\(\s*"([a-z_]+)\"""", text)
                 for suffix in ("", "_me")}
        # why a game stopped (tui/parts/stopped.py): _w(view, "away") says "st_away"
        used |= {"st_" + k for k in re.findall(r"""_w\(view, "([a-z_]+)\"""", text)}
    assert len(used) > 40
    missing = sorted(k for k in used if k not in MESSAGES)
    assert not missing


# ------------------------------------------------------------------------- drawing


def test_cards_show_value_and_suit_symbol_or_letters():
    cs = CardStyle()
    assert cs.label(card("7D")) == "7♦"
    assert cs.label(card("8S")) == "Q♠"  # Tunisian: the Queen is 8
    assert CardStyle(FigureConvention.FRENCH).label(card("8S")) == "J♠"
    assert CardStyle(symbols=False).label(card("10C")) == "KC"
    values = CardStyle(values=True)
    assert values.label(card("10S")) == "10♠" and values.face_text(card("7D")) == " 7♦"
    row = [line_text(x) for x in card_row(list(cards("10S 7D")), values, 40)]
    assert row == [" ┌───┐ ┌───┐ ", " │10♠│ │ 7♦│ ", " └───┘ └───┘ "]
    assert cs.style(card("3H")) == "class:card.red"
    assert cs.style(card("3C")) == "class:card.black"


def test_card_rows_wrap_to_the_width_and_mark_the_selection():
    row = card_row(list(cards("1S 2S 3S 4S 5S")), CardStyle(), width=16, selected=1,
                   numbered=True)
    texts = [line_text(line) for line in row]
    assert len(texts) == 8  # two rows of (numbers, top, faces, bottom)
    assert all(len(t) <= 16 for t in texts)
    assert "│2♠│" in texts[2]
    assert any(style == "class:card.selected" for style, _ in row[2])
    chips = card_chips(list(cards("1S 2S 3S 4S 5S")), CardStyle(), width=12)
    assert len(chips) == 3 and line_text(chips[0]).strip() == "[A♠] [2♠]"


def test_wrap_line_keeps_every_word():
    line = [("", "one two three four five six seven"), ("x", " eight")]
    wrapped = wrap_line(line, 12, indent="  ")
    assert all(len(line_text(w)) <= 13 for w in wrapped)
    assert " ".join(line_text(w) for w in wrapped).split() == \
        ["one", "two", "three", "four", "five", "six", "seven", "eight"]


def test_scoring_table_names_each_category_and_who_scores_it():
    score = R.score_piles([cards("7D 7S 6H 1D 2D 3D 4D 5D"), cards("2S 3S")], [1, 0],
                          R.Ruleset(), 2)
    rows = [line_text(r) for r in score_lines(score, (5, 0), ["you", "bot1"],
                                              Translator("en"), 11)]
    text = "\n".join(rows)
    for word in ("carta", "dinari", "barmila", "haya", "chkobba", "target 11"):
        assert word in text
    carta = next(r for r in rows if "carta" in r)
    assert carta.split()[-2:] == ["+1", "you"]
    totals = next(r for r in rows if "totals" in r)
    assert totals.split()[-2:] == ["5", "0"]
    tie = R.score_piles([cards("2S 3S"), cards("2C 3C")], [0, 0], R.Ruleset(), 2)
    rows = [line_text(r) for r in score_lines(tie, (0, 0), ["a", "b"], Translator("fr"), 11)]
    assert "beji" in next(r for r in rows if "carta" in r)
