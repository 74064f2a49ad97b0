"""The pure pieces of the table a newcomer reads (issue 26), without a terminal: the
seats' picture at 4, quick chat and the bell, the memo kept across a resume, the
figures' values in the help, resigning asked again, a declined rematch no longer
offered, Esc without prompt_toolkit's delay."""

from __future__ import annotations

import json

import pytest

from chkobba_cli.tui.app import TuiApp
from chkobba_cli.tui.keys import ESCAPE_DELAY
from chkobba_cli.tui.model.memo import KEPT_CHAT, Memo
from chkobba_cli.tui.parts.quickchat import QUICK_CHAT, TurnBell, keys_text, phrase
from chkobba_cli.tui.parts.render import line_text
from chkobba_cli.tui.parts.seats import seat_positions
from chkobba_cli.tui.screens.helpscreen import figure_values, help_lines
from chkobba_cli.words.i18n import Translator
from chkobba_p2p._shell.peer import (
    Chat,
    Lobby,
    Outcome,
    RematchAnswer,
    RematchOffered,
    Restored,
)
from chkobba_p2p.game import rules as R
from chkobba_p2p.game.cards import card
from chkobba_p2p.transcript.events import FirstDealerDrawn, HandStarted, MatchDone


def test_the_seats_around_us_follow_the_order_of_play_counter_clockwise():
    # Seat s+1 plays after s and sits on its right; the partner is across.
    assert seat_positions(0) == {"right": 1, "across": 2, "left": 3}
    assert seat_positions(3) == {"right": 0, "across": 1, "left": 2}
    for me in range(4):
        pos = seat_positions(me)
        assert sorted(pos.values()) == sorted(set(range(4)) - {me})
        assert (pos["across"] - me) % 2 == 0  # the partner: the same side


@pytest.mark.parametrize("lang,words", [("en", ("quick chat", "well played")),
                                        ("fr", ("phrases", "bien joué"))])
def test_quick_chat_phrases_and_the_help_that_lists_them(lang, words):
    t = Translator(lang)
    assert phrase(t, "b") == "bsahtek" and phrase(t, "a") == "yaatik saha"
    assert phrase(t, "y") == "yalla" and phrase(t, "c").startswith("chkobba")
    assert phrase(t, "w") == words[1] and phrase(t, "z") is None
    # No key of the game's (cards, cut, hints, chat, leave, help) is a phrase.
    assert not set(QUICK_CHAT) & set("123456789kgphtq?sxnr")
    text = "\n".join(line_text(x) for x in help_lines(t, R.Ruleset(), lang, 74))
    assert keys_text(t) in " ".join(text.split()) and words[0] in text


def test_the_bell_rings_when_the_turn_comes_back_after_the_others_played():
    bell = TurnBell()
    assert not bell.asked()  # the first question: nobody made us wait
    bell.on_event(R.PlayEvent(1, card("5C"), frozenset(), False), 0)
    assert bell.asked() and not bell.asked()  # once per return of the turn
    bell.on_event(R.PlayEvent(0, card("5C"), frozenset(), False), 0)
    assert not bell.asked()  # our own move
    bell.on_event(R.PlayEvent(1, card("5C"), frozenset(), False), 0)
    bell.on_event(Restored(None, 0, ()), 0)  # type: ignore[arg-type]
    assert not bell.asked()  # moves replayed on a resume made nobody wait
    quiet = TurnBell(enabled=False)
    quiet.on_event(R.PlayEvent(1, card("5C"), frozenset(), False), 0)
    assert not quiet.asked()  # --no-bell


def test_the_figures_values_come_from_the_rules_convention():
    assert figure_values(R.Ruleset()) == "A 1 · Q 8 · J 9 · K 10"
    french = R.Ruleset().with_variant("french-figures")
    assert figure_values(french) == "A 1 · J 8 · Q 9 · K 10"
    for lang, word in (("en", "figures: A 1 · Q 8 · J 9 · K 10"),
                       ("fr", "figures : A 1 · D 8 · V 9 · R 10")):
        lines = [line_text(x) for x in help_lines(Translator(lang), R.Ruleset(), lang, 74)]
        assert any(word in x for x in lines)
        assert len(lines) <= 22  # the frame fits 80x24


def test_the_memo_keeps_chat_and_hints_and_reads_a_hostile_file_safely(tmp_path):
    saved = tmp_path / "resume" / "abcd-host-7000.state"
    memo = Memo.beside(saved)
    assert memo.path.parent == saved.parent and memo.path.name.startswith(saved.name)
    memo.add_chat([("class:chat", "sami: yalla")])
    memo.set_hints(True)
    back = Memo.beside(saved).load()
    assert back.hints and back.chat == [[("class:chat", "sami: yalla")]]
    for i in range(KEPT_CHAT + 5):
        memo.add_chat([("class:chat", f"line {i}")])
    assert len(Memo.beside(saved).load().chat) == KEPT_CHAT
    memo.clear()
    assert not memo.path.exists() and Memo.beside(saved).load().chat == []
    # Escapes and strange styles do not reach the terminal; junk is nothing.
    memo.path.write_text(json.dumps({"hints": 1, "chat": [
        [["class:chat", "x\x1b[2Jy"]], [["bold fg:red", "styled"]], "junk", [[1, 2]]]}))
    bad = Memo.beside(saved).load()
    assert not bad.hints and len(bad.chat) == 1 and "\x1b" not in bad.chat[0][0][1]
    memo.path.write_text("{not json")
    assert Memo.beside(saved).load().chat == []


def _started(kind: str, players: int = 2, **kw) -> TuiApp:
    ui = TuiApp(kind=kind, lang="en", seat=0 if kind == "host" else 1, rules=R.Ruleset(),
                players=players, **kw)
    ui.size = (24, 80)
    names = tuple((f"p{i}", f"{i:04x}-0000-0000-0000") for i in range(players))
    ui.state = ui.state.apply(Lobby(names)).apply(HandStarted(1, 1))
    return ui


def test_resigning_is_asked_again_with_keys_of_its_own(app_session):
    ui = _started("join")
    ui.request_leave()
    assert ui.overlay_kind() == "away"
    assert "x  resign" in "".join(t for _, t in ui._overlay())
    # The footer gives the dialog's keys, not the play's under it (they do nothing now).
    assert line_text(ui._footer()).strip() == "s step away · x resign · Esc keep playing"
    ui.confirm_resign = True  # x
    assert ui.overlay_kind() == "resign"
    shown = "".join(t for _, t in ui._overlay()) + line_text(ui._footer())
    assert "Resign the match?" in shown and "[y]es, resign" in shown
    called = []
    ui._in_trio = lambda call: called.append(call)  # type: ignore[method-assign]
    ui.resign_now()
    assert called and ui.overlay_kind() is None


def test_a_declined_rematch_is_no_longer_offered(app_session):
    host = _started("host")
    host.finished, host.rematch_open = True, True
    assert host.can_rematch
    host.rematch_answers[1] = False  # sami said no
    assert not host.can_rematch and host.rematch_refused
    joiner = _started("join")
    joiner.finished, joiner.rematch_open = True, True
    joiner._show_event(RematchAnswer(0, False))
    assert not joiner.can_rematch


@pytest.mark.parametrize("lang, yes, no", [
    ("en", "p1 wants a rematch", "p2 declines a rematch"),
    ("fr", "p1 veut une revanche", "p2 refuse la revanche")])
def test_the_end_screen_shows_the_others_answers_to_the_rematch(app_session, lang, yes, no):
    # The events panel that narrates them is under the end screen's box at 80x24: the
    # host would not see that a player already said yes.
    host = _started("host", players=3)
    host.t = Translator(lang)
    host.finished, host.rematch_open = True, True
    host.outcome = Outcome(0, None, None, done=MatchDone(0, (11, 4, 2), 3))
    assert host.overlay_kind() == "over"
    host._show_event(RematchAnswer(1, True))
    box = "".join(t for _, t in host._overlay())
    assert yes in box and no not in box
    host._show_event(RematchAnswer(2, False))
    box = "".join(t for _, t in host._overlay())
    assert yes in box and no in box


@pytest.mark.parametrize("lang, offer", [
    ("en", "p0 wants a rematch and waits for your answer"),
    ("fr", "p0 veut une revanche et attend votre réponse")])
def test_the_joiners_end_screen_says_the_host_wants_a_rematch_before_it_answers(
        app_session, lang, offer):
    """Issue 43, item 11: the host's person pressed r and waits for our answer; at
    80x24 the joiner's end screen says so (its box, and the events under it) while r
    still answers, and no longer once we answered."""
    from chkobba_cli.tui.parts.render import line_text

    joiner = _started("join", players=2)
    joiner.t = Translator(lang)
    joiner.finished, joiner.rematch_open = True, True
    joiner.outcome = Outcome(1, None, None, done=MatchDone(0, (11, 4), 2))
    assert joiner.overlay_kind() == "over"
    assert offer not in "".join(t for _, t in joiner._overlay())
    joiner._show_event(RematchOffered(0))
    rows = "".join(t for _, t in joiner._overlay()).split("\n")
    assert any(offer in row for row in rows), rows
    assert len(rows) <= 20 and all(len(row) <= 78 for row in rows), rows  # inside 80x24
    assert offer in " ".join(line_text(line) for line in joiner.events.lines)
    assert joiner.can_rematch and "r" in line_text(joiner._footer())
    joiner.ask_rematch()  # r: our yes; the offer is answered
    assert offer not in "".join(t for _, t in joiner._overlay())


def test_the_hosts_r_offers_the_rematch_to_the_joiners_at_once(app_session):
    """The host's r goes to the library (SeatController.offer_rematch) as it is pressed,
    not once every joiner answered; a joiner's r offers nothing (its yes is its answer)."""
    from chkobba_p2p import SeatController

    offered: list[str] = []

    class Peer(SeatController):
        def offer_rematch(self) -> bool:
            offered.append("offer")
            return True

    for kind, want in (("host", ["offer"]), ("join", [])):
        offered.clear()
        ui = _started(kind, players=2)
        ui.finished, ui.rematch_open = True, True
        ui._in_trio = lambda call: call(Peer())  # type: ignore[method-assign]
        ui.ask_rematch()
        assert ui.rematch_answered is True and offered == want, kind
        ui.ask_rematch()  # answered: r does nothing more
        assert offered == want


def test_esc_acts_without_prompt_toolkits_delay_and_chat_goes_to_the_memo(app_session,
                                                                          tmp_path):
    memo = Memo.beside(tmp_path / "g.state")
    ui = _started("join", memo=memo)
    assert ui.app.ttimeoutlen == ESCAPE_DELAY <= 0.1 and ui.app.timeoutlen <= 0.1
    ui._show_event(Chat(0, "bsahtek"))
    ui.toggle_hints()
    again = _started("join", memo=Memo.beside(tmp_path / "g.state").load())
    assert again.hints and "p0: bsahtek" in " ".join(
        line_text(x) for x in again.events.lines)


def test_a_side_seat_keeps_its_clock_and_the_picture_stays_with_long_names(app_session):
    from chkobba_cli.tui.parts.seats import seat_picture, side_cell
    from chkobba_cli.tui.screens.table import _seat_line

    ui = _started("host", players=4)
    long = tuple((n, f"{i:04x}-0000-0000-0000") for i, n in
                 enumerate(("amel", "Mohamed-Aziz Ben Salah", "sami", "Khadija Trabelsi")))
    ui.state = ui.state.apply(Lobby(long))
    view = ui.view
    clock = [("class:warn", "  ⏱ 0:12 left")]
    cell = line_text(side_cell(view, 1, clock, 24))
    assert len(cell) <= 24 and cell.endswith("⏱ 0:12 left") and "…" in cell
    lines = seat_picture(view, 51, _seat_line, lambda s: clock if s == 3 else [])
    assert lines is not None and all(len(line_text(x)) <= 50 for _, x in lines)
    text = "\n".join(line_text(x) for _, x in lines)
    assert "sami (partner)" in text and text.count("(opponent)") == 2
    # The whole order of play, every long name cut the same way (never to one letter).
    assert "⏱ 0:12" in text and "you → Mohamed-Azi… → sami → Khadija Tra… → you" in text
    assert "Mohamed-Azi…  0" in text and "Khadija Tra…  ⏱ 0:12" in text, text


def test_the_bell_is_silenced_by_no_bell_or_by_the_settings():
    import argparse

    from chkobba_cli.main import build_parser
    from chkobba_cli.support.player import bell_wanted

    for command in (["play"], ["host"], ["join", "127.0.0.1:7000"]):
        parser = build_parser(command[0])
        on = parser.parse_args(command)
        off = parser.parse_args([*command, "--no-bell"])
        assert bell_wanted(on, {}) and bell_wanted(on, {"bell": True})
        assert not bell_wanted(off, {}) and not bell_wanted(on, {"bell": False})
    assert bell_wanted(argparse.Namespace(), {"name": "amel"})


def test_the_ascii_picture_measures_what_it_draws(app_session):
    from chkobba_cli.support.term import asciify
    from chkobba_cli.tui.parts.seats import seat_picture
    from chkobba_cli.tui.screens.table import _seat_line

    ui = _started("host", players=4, symbols=False)
    names = tuple((n, f"{i:04x}-0000-0000-0000") for i, n in
                  enumerate(("amel", "bot1", "bot2", "Khadija Trabelsi Ben Salah")))
    ui.state = ui.state.apply(Lobby(names))
    view = ui.view
    lines = seat_picture(view, 51, _seat_line, lambda s: [])
    assert lines is not None
    for _, line in lines:  # drawn in ASCII (--ascii): no wider than measured
        text = line_text(line)
        assert len(asciify(text)) == len(text) <= 50, text


@pytest.mark.parametrize("lang, one, two", [
    ("en", "you vs sami: 1 match, you 1–0", "you vs sami: 2 matches, you 1–1"),
    ("fr", "vous contre sami : 1 partie, vous 1–0",
            "vous contre sami : 2 parties, vous 1–1")])
def test_the_record_against_a_player_counts_one_game_in_the_singular(lang, one, two):
    from chkobba_cli.tui.model.past import record_text
    from chkobba_p2p.observe.history import Record

    t = Translator(lang)
    assert record_text(t, "sami", Record(1, 1, 0)) == one
    assert record_text(t, "sami", Record(2, 1, 1)) == two


@pytest.mark.parametrize("lang, seated", [("en", "amel takes a seat"),
                                           ("fr", "amel prend place")])
def test_a_player_sitting_down_is_news_in_the_events_once(app_session, lang, seated):
    host = TuiApp(kind="host", lang=lang, seat=0, rules=R.Ruleset(), players=2)
    host.size = (24, 80)
    sami, amel = ("sami", "0000-0000-0000-0000"), ("amel", "0001-0000-0000-0000")
    # The host's first lobby may already hold a joiner: its table was open and empty.
    host._show_event(Lobby((sami, amel)))
    host._show_event(Lobby((sami, amel), ready=(False, True)))  # ready: no one new
    said = [line_text(x) for x in host.events.lines]
    assert sum(seated in x for x in said) == 1, said
    assert not any("sami" in x for x in said), said  # ourselves: no news
    joiner = TuiApp(kind="join", lang=lang, seat=1, rules=R.Ruleset(), players=2)
    joiner._show_event(Lobby((sami, amel)))  # the table as we found it
    assert not any(seated in line_text(x) for x in joiner.events.lines)
    # ... said once, who is there (a first-time player's joiner pane stayed empty).
    found = {"en": "at the table: sami", "fr": "à la table : sami"}[lang]
    joiner._show_event(Lobby((sami, amel), ready=(True, False)))
    assert [line_text(x).strip() for x in joiner.events.lines].count(found) == 1, \
        [line_text(x) for x in joiner.events.lines]


def test_the_rematch_lobby_says_players_are_joining_only_while_a_seat_is_free(app_session):
    from chkobba_cli.tui.screens.lobby import lobby_lines

    host = TuiApp(kind="host", lang="en", seat=0, rules=R.Ruleset(), players=2, rematch=True)
    sami, amel = ("sami", "0000-0000-0000-0000"), ("amel", "0001-0000-0000-0000")
    joining = "the players who said yes are joining"

    def said() -> str:
        return " ".join(line_text(x) for x in lobby_lines(
            host.view, 50, kind="host", connected=True, address="127.0.0.1", port=7777,
            rematch=True))

    host._show_event(Lobby((sami, None)))
    assert joining in said()
    host._show_event(Lobby((sami, amel)))  # amel is here: nobody is joining any more
    assert joining not in said()


def test_our_own_bots_are_said_once_as_they_start_not_again_by_name(app_session):
    from chkobba_cli.tui.parts.narration import BotsStarting
    from chkobba_p2p.observe.rating import bot_seed
    from chkobba_p2p.wire.codec import Identity

    host = TuiApp(kind="host", lang="en", seat=0, rules=R.Ruleset(), players=3)
    bot = Identity.from_seed(bot_seed("greedy", 1)).public
    person = Identity.from_seed(bytes(32)).public
    sami, amel = ("sami", "0000-0000-0000-0000"), ("amel", "0001-0000-0000-0000")
    bot1 = ("bot1", "0002-0000-0000-0000")
    host._show_event(BotsStarting(1))
    host._show_event(Lobby((sami, bot1, None), keys=(person, bot, None)))
    host._show_event(Lobby((sami, bot1, amel), keys=(person, bot, person)))
    said = [line_text(x) for x in host.events.lines]
    assert said.count("a bot takes its seat") == 1 and not any("bot1" in x for x in said)
    assert "amel takes a seat" in said, said


@pytest.mark.parametrize("lang, said", [
    ("en", "first dealer draw (the lowest deals): you 4♥, p1 Q♠"),
    ("fr", "tirage du donneur (la plus basse donne) : vous 4♥, p1 D♠")])
def test_the_first_dealer_draw_says_who_deals_and_why(app_session, lang, said):
    # "you 4♥, bot1 Q♠" then "hand 1: you deal": a newcomer asked why (RULES.md: the
    # lowest value deals).
    ui = _started("host")
    ui.t = Translator(lang)
    ui._show_event(FirstDealerDrawn({0: card("4H"), 1: card("8S")}))
    assert said in [line_text(x) for x in ui.events.lines]


@pytest.mark.parametrize("lang, said", [
    ("en", "a tie for the lowest, drawn again: you 3♣, p2 2♥"),
    ("fr", "égalité pour la plus basse, nouveau tirage : vous 3♣, p2 2♥")])
def test_a_tie_in_the_dealer_draw_says_why_it_is_drawn_again(app_session, lang, said):
    # Two draws in a row at 4 ("you A♦, p1 7♥, p2 A♣, p3 K♠" then "you 3♣, p2 2♥")
    # read as a mistake: the second says it breaks a tie.
    ui = _started("host", players=4)
    ui.t = Translator(lang)
    ui._show_event(FirstDealerDrawn({0: card("1D"), 1: card("7H"), 2: card("1C"),
                                       3: card("10S")}))
    ui._show_event(FirstDealerDrawn({0: card("3C"), 2: card("2H")}))
    lines = [line_text(x) for x in ui.events.lines]
    assert said in " ".join(" ".join(lines).split()), lines
    assert sum("drawn again" in x or "nouveau tirage" in x for x in lines) == 1


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_leave_question_says_what_leaving_does_where_we_are(app_session, lang):
    # In a lobby nothing was played ("the log is kept" was untrue there); against local
    # bots the game stops (no "other players" to tell).
    words = {"en": ("Close your table?", "Nothing has been played yet", "Leave the table?",
                    "your seat is freed", "Leave the game?",
                    "Leaving a match under way loses it"),
             "fr": ("Fermer votre table ?", "Rien n'a encore été joué", "Quitter la table ?",
                    "votre place est libérée", "Quitter la partie ?",
                    "Quitter une partie en cours la fait perdre")}[lang]

    def box(ui: TuiApp) -> str:
        ui.request_leave()
        assert ui.overlay_kind() == "leave"
        return "".join(t for _, t in ui._overlay())

    host = TuiApp(kind="host", lang=lang, seat=0, rules=R.Ruleset(), players=2)
    host._show_event(Lobby((("sami", "0000-0000-0000-0000"), None)))
    said = box(host)
    assert words[0] in said and words[1] in said and "log" not in said, said
    joiner = TuiApp(kind="join", lang=lang, seat=1, rules=R.Ruleset(), players=2)
    said = box(joiner)
    assert words[2] in said and words[3] in said, said
    bots = _started("play")
    bots.t = Translator(lang)
    said = box(bots)
    assert words[4] in said and words[5] in said and "other players" not in said, said


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_after_a_three_player_match_the_rematch_lobby_says_only_who_beat_whom(tmp_path, lang):
    """Issue 43, item 8: after bilel won at 3 players, amel read "sami: 1 game, 0–1" and
    sami "amel: 1 game, 0–1"; neither lost to the other: no record between them, and
    each one's record against the winner."""
    from chkobba_cli.tui.model.past import PastGames, record_text
    from chkobba_p2p.observe.audit import VALID
    from chkobba_p2p.observe.history import Game, Log, Seat
    from chkobba_p2p.wire.codec import Identity

    amel, sami, bilel = (Identity.generate().public for _ in range(3))
    seats = (Seat("amel", amel), Seat("sami", sami), Seat("bilel", bilel))
    past = PastGames(tmp_path)
    past.games = [Game(Log("m.chklog", "d", "2026-03-01T20:00:00Z", "g", 3, seats, VALID,
                           None, "", "points", 2, (4, 6, 11), 5))]
    t = Translator(lang)
    assert past.record_against(amel, sami) is None
    assert past.record_against(sami, amel) is None
    lost = past.record_against(amel, bilel)
    assert record_text(t, "bilel", lost) == \
        {"en": "you vs bilel: 1 match, you 0–1",
         "fr": "vous contre bilel : 1 partie, vous 0–1"}[lang]
    won = past.record_against(bilel, sami)
    assert record_text(t, "sami", won) == \
        {"en": "you vs sami: 1 match, you 1–0",
         "fr": "vous contre sami : 1 partie, vous 1–0"}[lang]


@pytest.mark.parametrize("lang, words", [
    ("en", "spectators type: chkobba watch 192.168.1.20:7777"),
    ("fr", "pour regarder : chkobba watch 192.168.1.20:7777"),
])
def test_the_hosts_lobby_says_how_spectators_connect(app_session, lang, words):
    """Issue 43, item 13: the host was told what its friends type to join, not what a
    spectator types; said only when the table admits spectators, at 80 columns."""
    from chkobba_cli.tui.screens.lobby import lobby_lines

    def said(places: int) -> str:
        host = TuiApp(kind="host", lang=lang, seat=0, rules=R.Ruleset(), players=2)
        host._show_event(Lobby((("sami", "0000-0000-0000-0000"), None), spectators=places))
        lines = [line_text(x) for x in lobby_lines(host.view, 79, kind="host",
                                                   address="192.168.1.20", port=7777)]
        assert all(len(x) <= 79 for x in lines), lines
        return " ".join(" ".join(lines).split())

    assert words in said(3)
    assert "chkobba watch" not in said(0)


def test_the_headless_hosts_lines_say_how_spectators_connect(capsys):
    from chkobba_cli.outputs.headless import Narrator
    from chkobba_p2p import Listening

    for places, shown in ((2, True), (0, False)):
        narrator = Narrator()
        narrator.bind, narrator.spectators = "192.168.1.20", places
        narrator.on_event(Listening(7777, bytes(32)))
        out = capsys.readouterr().out
        assert "friends on the LAN: 192.168.1.20:7777#" in out, out
        assert ("spectators type: chkobba watch 192.168.1.20:7777\n" in out) == shown, out


def test_french_cards_read_r_d_v_on_every_screen():
    """Issue 43 (polish): French card letters stayed K/Q/J; a French deck prints R, D,
    V (Roi, Dame, Valet).  One table in the client's words (i18n.FIGURE_LETTERS) letters
    the table's cards, the help's figures, the spectator's commentary and the page."""
    import io

    from chkobba_cli.outputs.commentary import Commentary
    from chkobba_cli.outputs.replay_html import _Page
    from chkobba_cli.tui.parts.render import CardStyle
    from chkobba_cli.words.i18n import card_letters
    from chkobba_p2p.game.cards import FigureConvention

    king, queen, jack, seven = card("10H"), card("8S"), card("9D"), card("7C")
    fr, en = CardStyle(lang="fr"), CardStyle(lang="en")
    assert fr.labels([king, queen, jack, seven]) == "R♥ D♠ V♦ 7♣"
    assert en.labels([king, queen, jack, seven]) == "K♥ Q♠ J♦ 7♣"
    assert CardStyle(symbols=False, lang="fr").label(queen) == "DS"
    assert CardStyle(values=True, lang="fr").label(king) == "10♥"
    # The convention decides the value, the language only the letter.
    assert CardStyle(FigureConvention.FRENCH, lang="fr").label(queen) == "V♠"
    assert card_letters("Q♥", "en") == "Q♥" and card_letters("", "fr") == ""
    assert figure_values(R.Ruleset(), "fr") == "A 1 · D 8 · V 9 · R 10"
    out = io.StringIO()
    Commentary(out, lang="fr").say(Commentary(out, lang="fr").cards([king, queen]))
    assert out.getvalue() == "R♥ D♠\n"
    page = _Page.__new__(_Page)
    page.figures, page.lang = FigureConvention.TUNISIAN, "fr"
    assert ">R♥</span>" in page.card("10H")


@pytest.mark.parametrize("lang, mine, spectator, free", [
    ("en", "teams: you & dora against bilel & sami",
     "teams: amel & dora against bilel & sami", "teams: you & (free) against (free) & sami"),
    ("fr", "équipes : vous & dora contre bilel & sami",
     "équipes : amel & dora contre bilel & sami",
     "équipes : vous & (libre) contre (libre) & sami"),
])
def test_the_four_player_lobby_says_who_partners_whom(app_session, lang, mine, spectator,
                                                      free):
    """Issue 43, item 4: the lobby listed four seats and never said who partners whom
    (partners face each other: seats 1 & 3 against 2 & 4); our side first, at 80 columns,
    and nothing of teams at 2 or 3 seats."""
    from chkobba_cli.tui.screens.lobby import lobby_lines

    amel, bilel = ("amel", "0000-0000-0000-0000"), ("bilel", "0001-0000-0000-0000")
    dora, sami = ("dora", "0002-0000-0000-0000"), ("sami", "0003-0000-0000-0000")

    def said(kind: str, seat: int | None, seats: tuple) -> list[str]:
        ui = TuiApp(kind=kind, lang=lang, seat=seat, rules=R.Ruleset(), players=len(seats))
        ui._show_event(Lobby(seats))
        lines = [line_text(x) for x in lobby_lines(ui.view, 79, kind=kind,
                                                   connected=True, address="127.0.0.1")]
        assert all(len(x) <= 79 for x in lines), lines
        return [x.strip() for x in lines]

    assert mine in said("join", 0, (amel, bilel, dora, sami))
    assert mine.replace("dora", "amel") in said("join", 2, (amel, bilel, dora, sami))
    assert free in said("join", 0, (amel, None, None, sami))
    # From the other side: theirs is ours now.
    other = {"en": "teams: you & sami against amel & dora",
             "fr": "équipes : vous & sami contre amel & dora"}[lang]
    assert other in said("join", 1, (amel, bilel, dora, sami))
    assert spectator in said("watch", None, (amel, bilel, dora, sami))
    word = mine.split()[0]
    assert not any(x.startswith(word) for x in said("join", 1, (amel, bilel, dora)))
    assert not any(x.startswith(word) for x in said("join", 1, (amel, bilel)))


def _solo_on_time(kind: str, lang: str) -> tuple[str, list[str]]:
    """A 2-seat table where amel (seat 0, ours) ran out of her move clock (15 min):
    the end screen's words, and the events panel from the start of the match."""
    from chkobba_cli.tui.parts.stopped import stop_sentences
    from chkobba_cli.tui.screens import dialogs
    from chkobba_p2p.link.events import Outcome as LinkOutcome
    from chkobba_p2p.transcript.clocks import Limits
    from chkobba_p2p.transcript.events import Aborted, Standing, TableReady
    from chkobba_p2p.transcript.table import SeatInfo, TableInfo
    from chkobba_p2p.wire.codec import ErrorCode, Identity

    names = ("amel", "bot1")
    ids = [Identity.from_seed(bytes([i + 1]) * 32) for i in range(2)]
    table = TableInfo(bytes(16), 1, 2, R.Ruleset(),
                      tuple(SeatInfo(i, ids[i].public, n) for i, n in enumerate(names)))
    ui = TuiApp(kind=kind, lang=lang, seat=0, rules=R.Ruleset(), players=2)
    ui.size = (24, 80)
    ui._show_event(Lobby((("amel", "0000-0000-0000-0000"), ("bot1", "0001-0000-0000-0000")),
                         limits=Limits(900.0, 120.0)))
    ui._show_event(TableReady(table, 0))
    ui._show_event(TableReady(table, 0))  # said once, however often the table is ready
    aborted = Aborted(0, ErrorCode.TIMEOUT, 0, "slow", Standing.OWED, flag=0, totals=(1, 5))
    lines = dialogs.over_lines(ui.view, LinkOutcome(0, table, None, aborted=aborted), None, 80)
    assert all(len(line_text(x)) <= 80 for x in lines)
    said = [line_text(x).strip() for x in ui.events.lines]
    said += [text for _, text in stop_sentences(ui.view, aborted)]
    return " ".join(" ".join(line_text(x) for x in lines).split()), said


@pytest.mark.parametrize("lang, late, start, event", [
    ("en", "won on time you took longer than the move clock (15 min)",
     "each move has a clock of 15 min: past it, the match is lost on time",
     "you lost on time: you took longer than the move clock (15 min)"),
    ("fr", "gagne au temps vous avez dépassé le temps d'un coup (15 min)",
     "chaque coup a une horloge de 15 min : au-delà, la partie est perdue au temps",
     "vous perdez au temps : vous avez dépassé le temps d'un coup (15 min)"),
])
def test_a_solo_game_says_its_move_clock_plainly(app_session, lang, late, start, event):
    """Issue 43, item 12: against local bots, losing on time spoke of "the host's clock"
    (there is no host to a person playing alone) and nothing had said that moves have a
    clock.  Solo: said once at the start, and plainly at the end; at a table of people
    the words of whose clock counted stay."""
    text, said = _solo_on_time("play", lang)
    assert late in text, text
    assert {"en": "the host's clock", "fr": "l'hôte"}[lang] not in text
    assert {"en": "your clock", "fr": "votre horloge"}[lang] not in text
    assert said.count(start) == 1, said
    assert event in said, said
    text, said = _solo_on_time("host", lang)
    assert {"en": "(the time is your clock;", "fr": "(le temps est celui de votre horloge"}[
        lang] in text, text
    assert start not in said and event not in said, said


@pytest.mark.parametrize("lang, words", [("en", "bot1  0 cards"), ("fr", "bot1  0 carte")])
def test_a_side_seat_with_no_card_left_says_0_cards(app_session, lang, words):
    """walk6 (4 players): a side seat with no card left read ``bot1  0``, a bare zero
    under the name; it says what it counts, as the other rows do (a bare 0 only when
    the words do not fit)."""
    from dataclasses import replace

    from chkobba_cli.tui.parts.seats import side_cell

    ui = TuiApp(kind="host", lang=lang, seat=0, rules=R.Ruleset(), players=4)
    ui.size = (24, 80)
    names = tuple((n, f"{i:04x}-0000-0000-0000") for i, n in
                  enumerate(("amel", "bot1", "bot2", "bot3")))
    ui.state = ui.state.apply(Lobby(names)).apply(HandStarted(1, 1))
    ui.state = replace(ui.state, counts=(3, 0, 2, 1))
    view = ui.view
    assert line_text(side_cell(view, 1, [], 24)).strip() == words
    assert line_text(side_cell(view, 3, [], 24)).strip() == "bot3  ▮ 1"  # the bar counts
    assert line_text(side_cell(view, 1, [], 10)).strip() == "bot1  0"  # no room: the number
