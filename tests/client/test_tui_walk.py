"""What the walk of issue 43 found on the table's screen, read off the whole screen as
drawn (:mod:`screenshot`) at 80x24 and 120x40, in English and French, at 2 and 4
players: the footer follows a capture choice with its own keys, ``h`` says whether the
hints are on, the dealer's tag stays put at 4."""

from __future__ import annotations

import pytest
from prompt_toolkit.keys import Keys
from screenshot import screen_rows
from test_tui_mouse import _asked

SIZES = [(24, 80), (40, 120)]


def press(ui, key: str) -> None:
    """``key`` through the screen's own bindings, in asyncio as prompt_toolkit runs them
    (Esc included)."""
    import asyncio

    from prompt_toolkit.key_binding.key_processor import KeyPress

    async def go() -> None:
        kp = ui.app.key_processor
        kp.feed(KeyPress(key, key))
        kp.process_keys()

    asyncio.run(go())



@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang, card_keys, choice_keys", [
    ("en", "1-9 card · ←→ Enter", "1-2 or ↑↓ Enter: take · Esc: another card"),
    ("fr", "1-9 carte · ←→ Entrée", "1-2 ou ↑↓ Entrée : prendre · Échap : une autre carte")])
@pytest.mark.parametrize("players", [2, 4])
def test_the_footer_gives_the_capture_choices_keys_while_it_is_open(
        app_session, size, lang, card_keys, choice_keys, players):
    ui, answers = _asked(lang, players)
    assert card_keys in screen_rows(ui, *size)[-1]
    press(ui, "1")  # Q♦ takes A♣ + 7♥ or 3♦ + 5♠: the choice opens
    assert ui.options is not None and answers == []
    footer = screen_rows(ui, *size)[-1]
    assert choice_keys in footer and card_keys not in footer, footer
    press(ui, Keys.Escape)  # back to the cards: their keys again
    assert card_keys in screen_rows(ui, *size)[-1]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang, on, off", [
    ("en", "hints on: what each card would take", "hints off (h: on)"),
    ("fr", "conseils activés : ce que prendrait chaque carte", "conseils désactivés")])
@pytest.mark.parametrize("players", [2, 4])
def test_h_says_whether_the_hints_are_now_on_or_off(app_session, size, lang, on, off,
                                                    players):
    ui, _ = _asked(lang, players)
    press(ui, "h")
    # (At 80 columns the French notice takes two rows: test_footer_notice.py.)
    assert ui.hints and on in " ".join(r.strip() for r in screen_rows(ui, *size)[-2:])
    press(ui, "h")
    rows = screen_rows(ui, *size)
    assert not ui.hints and off in rows[-1] and on not in "\n".join(rows)
    press(ui, Keys.Left)  # the next key: the word is gone, the keys are back
    assert off not in screen_rows(ui, *size)[-1]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang, tag, said", [("en", "[dealer", "dealer: "),
                                             ("fr", "[donneur", "donneur : ")])
@pytest.mark.parametrize("names", [("dana", "carol", "alice", "bob"),
                                   ("Mohamed-Aziz", "Khadija Trabelsi", "sami", "Bob")])
def test_at_four_the_dealer_is_said_in_one_place_whoever_is_to_move(
        app_session, size, lang, tag, said, names):
    """The walk saw the dealer's tag beside a seat on our left or right come and go: it
    gave way to the clock on that seat's turn.  A side seat's dealer is said under the
    seats, the same way at every turn; our partner's and our own line keep the tag."""
    from test_tui_four_at_80 import _seated

    dealer = 3  # (_seated deals from the last seat)
    for seat in range(4):
        places = set()
        for turn in range(4):
            ui = _seated(names, seat, lang, turn)
            text = " ".join(" ".join(r.split("│")[0] for r in screen_rows(ui, *size)).split())
            if f"{said}{names[dealer]}" in text:
                places.add("under the seats")
                assert tag not in text, text
            else:
                assert seat in (dealer, (dealer + 2) % 4) and tag in text, text
                places.add("tag")
        assert len(places) == 1, (seat, places)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("n, lang, said", [
    (2, "en", "2 bots take their seats"), (2, "fr", "2 robots prennent place"),
    (1, "en", "a bot takes its seat"), (1, "fr", "un robot prend place")])
def test_the_bots_are_robots_in_french(app_session, size, n, lang, said):
    """The walk at 3 players in French read "2 bots prennent place" (the French screens
    say "robot" everywhere else)."""
    from chkobba_cli.tui.app import TuiApp
    from chkobba_cli.tui.parts.narration import BotsStarting
    from chkobba_p2p.game import rules as R

    ui = TuiApp(kind="play", lang=lang, seat=0, rules=R.Ruleset(), players=n + 1)
    ui._show_event(BotsStarting(n))
    text = " ".join(" ".join(r.split("│")[-1] for r in screen_rows(ui, *size)).split())
    assert said in text, text
    assert lang == "en" or " bot" not in text.replace("robot", "")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang, drew, why", [
    ("en", "drew 7♦", "keep: it is one of your 3 cards · place: it goes face up on the "
                      "table, and you get 3 new cards"),
    ("fr", "tiré 7♦", "garder : elle est une de vos 3 cartes · poser : elle va face "
                      "visible sur la table, et vous recevez 3 nouvelles cartes")])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_cut_says_what_keeping_or_placing_changes(app_session, size, lang, drew, why,
                                                      players):
    """The walk at 3 players: the cutter is asked "keep it or place it?" with nothing to
    say what either does (only the help's second page said it)."""
    from chkobba_cli.tui.app import TuiApp
    from chkobba_cli.tui.parts.decision import Request
    from chkobba_p2p._shell.peer import Lobby
    from chkobba_p2p.game import rules as R
    from chkobba_p2p.game.cards import cards
    from chkobba_p2p.transcript.events import HandStarted

    dealer = players - 1  # the cutter is the seat after the dealer: ours, seat 0
    hand = R.Hand.new(R.Ruleset(), players, dealer=dealer).deal(cards("7D")).view(0)
    ui = TuiApp(kind="play", lang=lang, seat=0, rules=hand.ruleset, players=players)
    names = tuple((f"p{i}", f"{i:04x}-0000-0000-0000") for i in range(players))
    ui.state = ui.state.apply(Lobby(names)).apply(HandStarted(1, dealer)).sync(hand)
    ui.request = Request("cut", hand, lambda answer: None)
    rows = screen_rows(ui, *size)
    text = " ".join(" ".join(r.split("│")[0] for r in rows).split())
    assert drew in text and why in text, "\n".join(rows)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang, role", [("en", "(opponent)"), ("fr", "(adversaire)")])
@pytest.mark.parametrize("names", [("amel", "bot1", "bot2"), ("amel", "Khadija", "sami")])
def test_at_three_each_opponent_stays_one_whoever_is_to_move(app_session, size, lang, role,
                                                              names):
    """The walk at 3 players in French: "▶ bot2  ▮ 1  [coupeur]  ⏱ encore 15:00", the
    role gone while the clock was on that seat, back after.  The clock's words give way
    first."""
    from test_tui_four_at_80 import _seated

    for seat in range(3):
        for turn in range(3):
            ui = _seated(names, seat, lang, turn)
            rows = [r.split("│")[0] for r in screen_rows(ui, *size)]
            for other in (s for s in range(3) if s != seat):
                line = next(r for r in rows if r.startswith((f"   {names[other]} ",
                                                              f" ▶ {names[other]} ")))
                assert role in line and (turn != other or "⏱" in line), (line, rows)
