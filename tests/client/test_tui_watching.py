"""The spectator's table and the terms before Enter, their pure pieces (issue 26): the live
feed (the observer's events and the table's news) turned into the spectator's view state
and screen lines; the lobby's terms (rules, clocks, spectators' places) and "not ready";
the library's Lobby event carrying those terms to a joiner and to a spectator over
loopback; the text commentary's names and its one lobby line."""

from __future__ import annotations

import io
import re

import pytest
import trio
import trio.testing
from support.audit import a_match, played_once
from support.net import FAST, host_config, join_config
from test_spectators import Recording

from chkobba_cli.outputs.commentary import Commentary
from chkobba_cli.tui.parts.render import line_text
from chkobba_cli.tui.parts.terms import duration_text
from chkobba_cli.tui.screens.watching import WatchView
from chkobba_p2p._shell.config import Timeouts
from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import Lobby, Spectators
from chkobba_p2p._shell.watch import WatchConfig, WatchOutcome, watch_match
from chkobba_p2p.game.rules import PRESETS, PlayEvent, Ruleset
from chkobba_p2p.observe.observer import Observer
from chkobba_p2p.transcript.clocks import Limits
from chkobba_p2p.wire.codec import Identity, fingerprint


def _text(lines) -> str:
    return "\n".join(line_text(line) for line in lines)


#: A match to 1 point, for the tests that read only its end and its names: a whole
#: match's words at a fraction of a match to 11's CPU.
SHORT = PRESETS["tunisian"].with_target(1)


def _feed(view: WatchView, bodies, until=None) -> Observer:
    """The observer's events of ``bodies`` into ``view``, as the spectator emits them
    (stopping after the event ``until`` accepts)."""
    obs = Observer()
    for body in bodies:
        for ev in obs.feed(body):
            view.on_event(ev)
            if until is not None and until(ev):
                return obs
    view.on_event(obs.end())
    return obs


def test_the_live_feed_draws_the_table_the_turn_and_names_then_the_end_in_words():
    played = a_match(2)
    names = [s.name for s in played.sessions[0].table.seats]
    for lang, words in (("en", ("Table", "turn: ", "cards in hand", "captured:")),
                        ("fr", ("Table", "à jouer : ", "cartes en main", "pris par"))):
        view = WatchView(lang=lang, pace=0, address="127.0.0.1:7777", name="amira")
        plays = 0

        def third_play(ev: object) -> bool:
            nonlocal plays
            plays += isinstance(ev, PlayEvent)
            return plays == 3

        _feed(view, played.sessions[0].bodies, until=third_play)
        st = view.state
        assert st.seat is None and st.started and st.turn is not None  # from no seat
        text = _text(view.body(51, 22))
        assert all(w in text for w in words), text
        assert all(n in text for n in names), text
        assert "seat " not in text and "place " not in text  # names, never numbers
        assert view.view.name(st.turn) in text.split(words[1], 1)[1].split("\n")[0]
        for c in st.table:  # every card on the table is drawn
            assert view.view.label(c) in text, (c, text)
        assert not st.hand  # hands face down: no hand of our own, only counts
        assert re.search(r"[▮] ?\d|\d ", text)
        header = line_text(view.header(80))
        assert all(n in header for n in names) and "seat" not in header
    # To the end: the winner by name and the score, the verdict, in words.
    view = WatchView(lang="en", pace=0)
    _feed(view, played.sessions[0].bodies)
    end = _text(view.end_lines(60))
    m = re.search(r"Match over: (\S+) wins (\d+)-(\d+)\.", end)
    assert m and m.group(1) in names and int(m.group(2)) > int(m.group(3)), end
    assert "VALID" in end and "seat" not in end
    # The match is over while the watch still is not: q quits, nothing "goes on".
    assert "the game goes on" not in line_text(view.footer())
    assert "q quit" in line_text(view.footer())
    view.finished(WatchOutcome(view.verdict, None, stop_reason="host_closed"))
    assert "q quit" in line_text(view.footer())
    sheet = _text(view.sheet_lines(51))
    assert "Score sheet" in sheet and all(n in sheet for n in names)


def test_a_spectator_that_came_in_after_the_lobby_shows_the_move_clock():
    """No lobby for a late spectator: the clocks of the host's ``watching`` are shown."""
    played = a_match(2)
    for known in (False, True):
        view = WatchView(lang="en", pace=0)
        if known:
            view.know_limits(Limits(60, 300))
        plays = 0

        def second_play(ev: object) -> bool:
            nonlocal plays
            plays += isinstance(ev, PlayEvent)
            return plays == 2

        _feed(view, played.sessions[0].bodies, until=second_play)
        text = _text(view.body(51, 22))
        turn = view.view.name(view.state.turn)
        [line] = [ln for ln in text.splitlines() if ln.startswith(f" ▶ {turn}")]
        assert bool(re.search(r"⏱ (1:00|0:[0-5]\d) left", line)) == known, line


class _Spectator:
    """What the screen reads of the spectator: its clocks and whether it reads the
    backlog (the entries the host had when it admitted us)."""

    def __init__(self, catching_up: bool) -> None:
        self.catching_up = catching_up
        self.limits = Limits(90, 300)


async def test_a_late_spectator_sees_the_game_so_far_at_once_then_live_moves_paced():
    played = a_match(2)
    bodies = played.sessions[0].bodies
    for catching_up in (True, False):
        view = WatchView(lang="en", pace=5.0)
        view.attach(_Spectator(catching_up))  # type: ignore[arg-type]
        async with trio.open_nursery() as nursery:
            nursery.start_soon(view.pacer.run)
            await trio.testing.wait_all_tasks_blocked()
            obs = Observer()
            for body in bodies[: len(bodies) // 2]:
                for ev in obs.feed(body):
                    view.on_event(ev)
            # The backlog is on the table at once; live moves wait their turn on screen.
            assert (view.state.hand_number > 0 and not view.pacer.busy) == catching_up
            assert view.state.limits == Limits(90, 300)
            assert view.presence.turn_timeout == 90
            nursery.cancel_scope.cancel()


def test_moves_that_come_faster_than_the_pace_are_shown_faster():
    view = WatchView(lang="en", pace=0.8)
    view.pacer.running = True  # as while its task runs: moves queue
    played = a_match(2)
    obs = Observer()
    paces = []
    for body in played.sessions[0].bodies[:30]:
        for ev in obs.feed(body):
            view.on_event(ev)
            paces.append(view.pacer.pace)
    assert paces[0] == 0.8 and paces[-1] == 0.2, paces


def test_each_hands_cards_show_once_its_seeds_open():
    played = played_once(2, seed=4, key=b"watch-seeds")
    view = WatchView(lang="en", pace=0)
    obs = Observer()
    before_reveal = None
    for body in played.sessions[0].bodies:
        for ev in obs.feed(body):
            if type(ev).__name__ == "DeckRevealed" and before_reveal is None:
                before_reveal = _text(view.below(51))
            view.on_event(ev)
    assert before_reveal == ""  # face down until the seeds open
    below = _text(view.below(51))
    names = [s.name for s in played.sessions[0].table.seats]
    assert all(f"{n} had " in below for n in names), below


def _lobby(ready=(False, False), **kw) -> Lobby:
    a, b = Identity.generate(), Identity.generate()
    return Lobby((("hana", fingerprint(a.public)), ("sami", fingerprint(b.public))),
                 ready=ready, keys=(a.public, b.public), **kw)


def test_the_spectators_lobby_shows_the_terms_and_who_is_not_ready_once():
    rules = Ruleset.preset("tunisian")
    for lang, words in (("en", ("Rules: ", "Clocks: 15 min per move, 2 min away",
                                "Spectators: up to 3", "not ready",
                                "Waiting for hana and sami to press Enter")),
                        ("fr", ("Règles : ", "Horloges : 15 min par coup, 2 min d'absence",
                                "Spectateurs : jusqu'à 3", "n'a pas encore confirmé",
                                "En attente de hana et sami (touche Entrée)"))):
        view = WatchView(lang=lang, pace=0, address="127.0.0.1:7777", name="amira")
        lobby = _lobby(limits=Limits(900, 120), rules=rules, spectators=3)
        view.on_event(lobby)
        view.on_event(lobby)  # the host says it again: the panel says it once
        text = _text(view.body(51, 22))
        assert all(w in text for w in words), text
        assert "amira" in text and "checking" not in text and "vérifie" not in text
        assert "You are ready" not in text  # a spectator is asked nothing
        panel = "".join(t for _, t in view.events_panel(28, 20))
        assert panel.count("hana") <= 1, panel


def test_a_lobby_says_no_spectators_and_the_watchers_names():
    view = WatchView(lang="en", pace=0)
    view.on_event(_lobby(spectators=0))
    assert "Spectators: none" in _text(view.body(60, 22))
    view.on_event(_lobby(spectators=2))
    view.on_event(Spectators(("amira",), 2))
    assert "Spectators: up to 2 (watching: amira)" in _text(view.body(60, 22))


def test_durations_read_as_people_say_them():
    assert [duration_text(s) for s in (45, 60, 90, 900, 3600, 0)] == \
        ["45 s", "1 min", "1 min 30 s", "15 min", "1 h", "0 s"]


def test_at_four_players_a_side_is_its_players_names():
    played = played_once(4, seed=5, key=b"watch-four", rules=SHORT)
    view = WatchView(lang="en", pace=0)
    _feed(view, played.sessions[0].bodies)
    names = [s.name for s in played.sessions[0].table.seats]
    sides = {view.view.side_name(0), view.view.side_name(1)}
    assert sides == {f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"}
    end = _text(view.end_lines(70))
    assert re.search(r"Match over: \S+ & \S+ win \d+-\d+\.", end), end
    assert "side 1" not in line_text(view.header(80))


def test_the_commentary_names_the_winner_and_says_the_lobby_once():
    played = a_match(2)
    out = io.StringIO()
    narrator = Commentary(out, lang="en")
    lobby = _lobby()
    narrator(lobby)
    narrator(_lobby(ready=(True, False)))  # the same seats, someone ready
    obs = Observer()
    for body in played.sessions[0].bodies:
        for ev in obs.feed(body):
            narrator(ev)
    text = out.getvalue()
    assert text.count("lobby: ") == 1, text
    names = [s.name for s in played.sessions[0].table.seats]
    m = re.search(r"match over: (\S+) wins (\d+)-(\d+);", text)
    assert m and m.group(1) in names and int(m.group(2)) > int(m.group(3)), text
    assert "seat 0 wins" not in text and "seat 1 wins" not in text


@pytest.mark.slow
async def test_the_joiner_and_the_spectator_get_the_terms_with_the_lobby(tmp_path):
    """A joiner's Lobby event carries the host's rules (its greeting), clocks (its
    welcome) and spectators' places (the lobby); a spectator's, the same (the greeting,
    ``watching``'s limits, the lobby)."""
    timeouts = Timeouts(handshake=2.0, frame=1.0, idle=6.0, reconnect=75.0, turn=45.0)
    rules = Ruleset(target=21)
    config = host_config(tmp_path, 2, spectators=3, rules=rules)
    config.timeouts = timeouts
    host = HostPeer(config, Recording(1))
    seen: list[object] = []
    watched, full = trio.Event(), trio.Event()

    def on_watch(ev: object) -> None:
        seen.append(ev)
        if isinstance(ev, Lobby):
            watched.set()

    class Guest(Recording):
        def on_event(self, event: object) -> None:
            super().on_event(event)
            if isinstance(event, Lobby) and event.full:
                full.set()

    guest = Guest(2)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)

        async def spectate() -> None:
            await watch_match(WatchConfig(f"127.0.0.1:{port}", name="amira",
                                          log_path=tmp_path / "w.chklog", timeouts=FAST),
                              on_watch)

        nursery.start_soon(spectate)
        with trio.fail_after(10):
            await watched.wait()
        nursery.start_soon(ClientPeer(join_config(tmp_path, port, "sami"), guest).run)
        with trio.fail_after(20):
            await full.wait()
        nursery.cancel_scope.cancel()
    for who, events in (("joiner", guest.events), ("spectator", seen)):
        lobby = next(e for e in events if isinstance(e, Lobby))
        assert lobby.rules == rules, who
        assert lobby.limits == Limits(45, 75), (who, lobby.limits)
        assert lobby.spectators == 3, who
        assert lobby.seats[0] is not None and lobby.seats[0][0], who


@pytest.mark.slow
async def test_a_host_whose_terms_do_not_check_out_shows_none_and_breaks_nothing(tmp_path):
    """Rules that are not the ones their hash announces, clocks out of bounds: the
    spectator's lobby shows neither (and still shows the seats); nothing crashes."""
    import functools

    from chkobba_p2p.wire import codec as wire

    host_key = Identity.generate().public
    rules = Ruleset(target=21)

    async def fake_host(stream: trio.SocketStream) -> None:
        async with stream:
            await stream.send_all(wire.frame(wire.encode({
                "t": "host", "versions": [1], "key": host_key, "name": "hana",
                "caps": [], "nonce": bytes(32), "players": 2, "rules": rules.to_dict(),
                "rules_hash": bytes(32)})))  # not this ruleset's digest
            await stream.receive_some(4096)  # the spectator's watch
            await stream.send_all(wire.frame(wire.encode(
                {"t": "watching", "v": 1, "id": 1, "have": 0,
                 "limits": {"move": 0, "away": -3}})))
            await stream.send_all(wire.frame(wire.encode(
                {"t": "lobby", "players": 2, "seating": 1, "ready": [False, False],
                 "spectators": True,  # not a count
                 "seats": [{"seat": 0, "key": host_key, "name": "hana"}, None]})))

    seen: list[object] = []
    async with trio.open_nursery() as nursery:
        [listener] = await nursery.start(
            functools.partial(trio.serve_tcp, fake_host, 0, host="127.0.0.1"))
        port = listener.socket.getsockname()[1]
        with trio.fail_after(10):
            outcome = await watch_match(WatchConfig(f"127.0.0.1:{port}", name="amira",
                                                    timeouts=FAST), seen.append)
        nursery.cancel_scope.cancel()
    [lobby] = [e for e in seen if isinstance(e, Lobby)]
    assert lobby.rules is None and lobby.limits is None and lobby.spectators is None
    assert lobby.seats[0] == ("hana", fingerprint(host_key))
    assert outcome.stop_reason == "host_closed" and outcome.stop_data == {}
    view = WatchView(lang="en", pace=0)
    view.on_event(lobby)
    text = _text(view.body(51, 22))
    assert "hana" in text and "Rules:" not in text and "Clocks:" not in text


def test_a_tall_lobby_drops_blank_lines_then_its_top_never_the_prompt():
    from chkobba_cli.tui.parts.terms import fit_lobby

    lines = [[("", " top")], [], [("", " rules")], [], [("", " seats")], [],
             [("", " press Enter to start")]]
    assert fit_lobby(lines, 10) == lines
    assert [line_text(x) for x in fit_lobby(lines, 5)] == \
        [" top", " rules", " seats", "", " press Enter to start"]
    assert [line_text(x) for x in fit_lobby(lines, 2)] == \
        [" seats", " press Enter to start"]


def test_a_cheat_is_said_with_the_entry_the_name_and_the_key():
    from chkobba_p2p.observe.verdict import INVALID, Verdict

    for lang, words in (("en", ("CHEAT CAUGHT at entry #7", "blamed: sami (key ")),
                        ("fr", ("TRICHE DÉTECTÉE à l'entrée n°7", "en faute : sami (clé "))):
        view = WatchView(lang=lang, pace=0)
        lobby = _lobby()
        view.on_event(lobby)
        view.on_event(Verdict(INVALID, "illegal_move", "seat 1 played a card it does not "
                              "hold", blamed=1, entry=7))
        style, text = view.verdict_line(view.verdict)
        assert style == "class:error" and all(w in text for w in words), text
        assert lobby.seats[1][1] in text  # the blamed player's key, to check with them
        assert "CHEAT" in _text(view.end_lines(70)) or "TRICHE" in _text(view.end_lines(70))


def test_a_watching_stopped_early_is_said_in_the_screens_language():
    from chkobba_p2p.observe.verdict import INCOMPLETE, Verdict

    for lang, word in (("en", "before the end of the match"), ("fr", "avant la fin")):
        view = WatchView(lang=lang, pace=0)
        view.on_event(_lobby())
        view.finished(WatchOutcome(Verdict(INCOMPLETE, "unfinished", "the transcript "
                                           "stops after entry #3"), None,
                                   stop_reason="host_closed"))
        text = _text(view.end_lines(200))
        assert word in text and "transcript" not in text, text
        # said of the connection, not as the host's act (nothing says who closed it)
        assert ("the connection to the host closed" in text if lang == "en"
                else "la connexion avec l'hôte s'est fermée" in text), text


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_table_closed_to_spectators_is_said_once(lang):
    from chkobba_cli.commands.watch import _refusal
    from chkobba_p2p.link import messages as m
    from chkobba_p2p.link.spectator import SpectatorCore
    from chkobba_p2p.wire.codec import ErrorCode

    # The host's refusal as the library gives it: its code, and the host's detail as its
    # own words -- once worded with the hint, one refusal read three times ("admits no
    # (more) spectators (the host adds: "1 spectator already watching") (a host admits
    # spectators when ... as many as N)").
    def said(detail: str) -> str:
        no = SpectatorCore.refused(m.ErrorMsg(ErrorCode.SPECTATORS_CLOSED, detail,
                                              number=int(ErrorCode.SPECTATORS_CLOSED)))
        return _refusal(WatchOutcome(None, None, error_code=no.code,
                                     error_reason=no.reason, error_data=no.data), lang)

    closed, full, one, taken = (said("this table admits no spectators"),
                                said("2 spectators already watching"),
                                said("1 spectator already watching"),
                                said("every spectator's place is taken"))
    words = {"en": ("admits no spectators", "--spectators N", "is taken",
                    "2 spectators watching", "1 spectator watching"),
             "fr": ("n'admet pas de spectateurs", "--spectators N", "sont prises",
                    "2 spectateurs regardent", "1 spectateur regarde")}[lang]
    assert words[0] in closed and words[1] in closed, closed
    for text in (full, one, taken):
        assert words[2] in text and "--spectators" not in text, text
    assert words[3] in full and words[4] in one, (full, one)
    for text in (closed, full, one, taken):  # one sentence, said once
        assert text.count(".") == 1 and text.endswith(".") and "adds" not in text, text
        assert text.count("spectat") <= 2, text


def test_a_spectator_of_three_players_is_told_who_won_in_words():
    # The end said who won only with two totals: at 3 players, nothing but the verdict.
    played = played_once(3, seed=3, key=b"watch-three", rules=SHORT)
    names = [s.name for s in played.sessions[0].table.seats]
    # The observer's events, its end included, are the same in either language: one pass.
    observer = Observer()
    events = [ev for body in played.sessions[0].bodies for ev in observer.feed(body)]
    events.append(observer.end())
    # The winner's total first, then whose the others are: "hana wins 9 (sami 5, amel 3)".
    for lang, words in (("en", r"Match over: (\S+) wins (\d+) \((\S+) (\d+), (\S+) (\d+)\)\."),
                        ("fr", r"Fin de la partie : (\S+) gagne (\d+) \((\S+) (\d+), (\S+) "
                               r"(\d+)\)\.")):
        view = WatchView(lang=lang, pace=0)
        for ev in events:
            view.on_event(ev)
        end = " ".join(_text(view.end_lines(60)).split())
        m = re.search(words, end)
        assert m and m.group(1) in names, end
        assert {m.group(1), m.group(3), m.group(5)} == set(names), end
        assert int(m.group(2)) >= max(int(m.group(4)), int(m.group(6))), end


def _flagged(lang: str) -> WatchView:
    """A spectator's view of a match sami lost on time (the host's flag on the seat to
    play), as the observer reports it."""
    from chkobba_p2p import Aborted, ErrorCode
    from chkobba_p2p.transcript.events import HandStarted

    view = WatchView(lang=lang, pace=0)
    view.show(_lobby())
    view.show(HandStarted(1, 0))
    view.show(Aborted(0, ErrorCode.TIMEOUT, 1, "seat 1 did not move in time", flag=1))
    return view


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang, over, lost", [
    ("en", "Match over: hana wins on time.", "sami lost on time"),
    ("fr", "Fin de la partie : hana gagne au temps.", "sami perd au temps")])
def test_a_spectators_flag_line_names_the_winner_under_match_over(size, lang, over, lost):
    # It read "sami lost on time (the host's clock)" alone: no winner, no "Match over"
    # (a match played to the end has its "Match over: hana wins 11-4.").  On the
    # screen it is said in the end box (test_watch_end_box.py); these lines are the
    # ones printed after the screen closes.
    rows, cols = size
    view = _flagged(lang)
    text = _text(view.end_lines(cols - 29))
    flat = " ".join(text.split())
    assert over in flat and lost in flat, text
    assert flat.index(over) < flat.index(lost), text
    assert all(len(line) <= cols - 29 for line in text.splitlines()), text


@pytest.mark.parametrize("lang, back", [("en", "s or Esc: back to the table · q quit"),
                                         ("fr", "s ou Échap : retour à la table · q quitter")])
def test_esc_closes_the_spectators_last_sheet_and_q_still_quits(lang, back):
    """One Esc on the sheet after the match quit the screen: it closes the sheet, as
    the players' sheet does; q quits."""
    from types import SimpleNamespace

    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.keys import Keys
    from prompt_toolkit.output import DummyOutput

    from chkobba_cli.tui.screens.watching import _build

    view = _flagged(lang)
    view.finished(None)
    quits: list[bool] = []
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        app = _build(view, False, lambda: (24, 80), on_key=lambda: None,
                     quit=lambda: quits.append(True))

    def press(key: str) -> None:
        (binding,) = [b for b in app.key_bindings.get_bindings_for_keys((key,))
                      if b.keys != (Keys.Any,)]
        binding.handler(SimpleNamespace(key_sequence=[SimpleNamespace(key=key)]))

    press("s")
    assert view.sheet and line_text(view.footer()).strip() == back
    press(Keys.Escape)
    assert not view.sheet and not quits
    assert "s" in line_text(view.footer()) and "Esc" not in line_text(view.footer())
    press("s")
    press("q")
    assert quits == [True]
