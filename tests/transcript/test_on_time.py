"""Losing on time (issue 26, PROTOCOL.md 12.3): the seat to play that runs out of its
move clock (or of its allowance, away) loses the match, as at a chess flag.  The host
signs a ``timeout`` or ``peer_left`` abort with a ``flag`` naming the seat; the flag stands
only if the host signed it, the flagged seat was the one to play, and no signed claim of
that seat that the host went silent comes before it.  A flag that stands is a result
(replay: VALID, ``on_time``, the other side wins; history counts it); any other is the
stop it always was.

In memory (``chkobba_p2p.testing``, MockClock: no real time) and on in-process sessions;
the published vector ``tests/vectors/wire_on_time.json`` (PROTOCOL.md 16)."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path

import pytest
import trio
from support.audit import make_sessions, said

from chkobba_cli.words.event_words import words
from chkobba_cli.words.i18n import Translator
from chkobba_p2p._shell.config import Timeouts
from chkobba_p2p.bots.levels import make_bot
from chkobba_p2p.game.rules import PRESETS
from chkobba_p2p.game.seating import Seating
from chkobba_p2p.observe.audit import INCOMPLETE, VALID, audit_bodies, audit_log
from chkobba_p2p.observe.history import ON_TIME, games, record_against, summarize
from chkobba_p2p.testing import GatedController, InMemoryTable, RecordingController
from chkobba_p2p.transcript.clocks import flag_holds, flag_winner, make_clock
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.transcript.table import Phase
from chkobba_p2p.wire.codec import Entry, ErrorCode, Identity, open_entry

EN = Translator("en")  # the words a person reads (the client's)

#: A short move clock and allowance (time costs nothing under MockClock).
SHORT = dataclasses.replace(Timeouts(), turn=20.0, reconnect=10.0)


# ------------------------------------------------------------ a live table, in memory


@pytest.mark.parametrize("players", [2, 4])
async def test_a_stall_past_the_clock_is_lost_on_time_and_replays_valid(
        tmp_path, players, autojump_clock):
    ctls: list = [RecordingController(s) for s in range(players)]
    ctls[-1] = GatedController(gate_at=2, seed=players)  # never released: it stalls
    table = InMemoryTable(tmp_path, players=players, controllers=ctls, timeouts=SHORT)
    with trio.fail_after(600):
        outcomes = await table.run()
    late = outcomes[-1].seat  # the joiners take their seats as they come
    assert late is not None and late != 0
    winner = 1 - Seating.of(players).side_of(late)
    for seat, o in enumerate(outcomes):
        a = o.aborted
        assert a is not None and a.by_seat == 0 and a.code is ErrorCode.TIMEOUT, seat
        assert a.flag == late and a.on_time and o.on_time == late, seat
        assert o.winner_side == winner and o.decided, seat
        assert "lost on time" in words(o, EN), words(o, EN)
    last = open_entry(table.host.core.session.bodies[-1])
    assert last.kind == "abort" and last.fields["flag"] == late
    names = ["host.chklog"] + [f"seat{c}.chklog" for c in range(1, players)]
    for name in names:
        report = audit_log(tmp_path / name, workers=0)
        assert (report.verdict, report.code, report.winner, report.blamed) == \
            (VALID, "on_time", winner, late), said(report)
        summary = said(report)
        assert "lost on time" in summary and "the time is the host's word" in summary
        assert "its signed clock reading, in the log, is its own" in summary
        log = summarize(report, name)
        assert (log.ending, log.winner) == (ON_TIME, winner) and log.counted


async def test_away_past_the_allowance_while_to_play_is_lost_on_time(tmp_path, autojump_clock):
    """The other flag: the seat to play drops and does not come back within its
    allowance (``peer_left``)."""
    gate = GatedController(gate_at=2, seed=1)
    # A long move clock: the host sees the link gone (the idle timer) and the allowance
    # runs out first.
    away = dataclasses.replace(SHORT, turn=600.0)
    table = InMemoryTable(tmp_path, controllers=[RecordingController(0), gate],
                          timeouts=away)
    out = {}
    async with trio.open_nursery() as nursery:
        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            out["host"] = await table.host.run(task_status)

        await nursery.start(run_host)
        with trio.CancelScope() as scope:
            async def vanish():
                await gate.holding.wait()
                scope.cancel()  # the joiner's process dies while it is to play

            nursery.start_soon(vanish)
            await table.joiner(1).run()
    host = out["host"]
    assert host.aborted is not None and host.aborted.code is ErrorCode.PEER_LEFT
    assert host.on_time == 1 and host.winner_side == 0
    report = audit_log(tmp_path / "host.chklog", workers=0)
    assert (report.verdict, report.code, report.winner) == (VALID, "on_time", 0), \
        said(report)


# ------------------------------------------------------------ in-process sessions


def _to_play(seat: int, players: int = 2, key: bytes = b"on time", after: int = 1
             ) -> tuple[list[Session], list[Identity]]:
    """A table of in-process sessions, played until ``seat`` is to play in PLAYING
    (after at least ``after`` turns)."""
    ss, ids = make_sessions(players, PRESETS["tunisian"], False, key)
    bots = [make_bot("greedy", i) for i in range(players)]
    turns = 0
    for _ in range(10_000):
        host = ss[0]
        if host.phase == Phase.PLAYING and host.floor == seat and turns >= after:
            return ss, ids
        i = host.floor
        s = ss[i]
        d = s.decision
        if d is not None:
            s.decide(bots[i].choose_play(d.hand) if d.kind == "play"
                     else bots[i].choose_cut(d.hand))
        entry = s.next_entry()
        assert entry is not None
        turns += entry.kind == "turn"
        for j, other in enumerate(ss):
            if j != i:
                other.receive(entry)
    raise AssertionError("never reached")


def _flag(host: Session, seat: int, **body: object) -> Entry:
    """The host signs a flag of its own making (no check of its own applies)."""
    fields = {"code": int(ErrorCode.TIMEOUT), "blamed": seat, "why": "slow", "flag": seat}
    fields.update(body)
    return host._sign("abort", fields)


def _verdict(bodies: list[bytes]) -> tuple[str, str | None, int | None]:
    r = audit_bodies(bodies, workers=0)
    return r.verdict, r.code, r.winner


def test_the_flag_of_the_seat_to_play_stands_everywhere():
    ss, _ = _to_play(1)
    flag = ss[0].abort(ErrorCode.TIMEOUT, 1, "seat 1 held the floor too long", flag=1)
    assert ss[0].aborted is not None and ss[0].aborted.flag == 1
    ss[1].receive(flag)
    a = ss[1].aborted
    assert a is not None and a.on_time and a.winner_side(2) == 0
    assert "lost on time" in words(a, EN) and "word" in words(a, EN)
    assert _verdict(ss[0].bodies) == (VALID, "on_time", 0)


@pytest.mark.parametrize("forge", ["not_to_play", "wrong_blame", "not_the_host", "a_bool",
                                   "bad_code", "no_seat"])
def test_a_forged_flag_stands_for_nothing(forge):
    ss, _ = _to_play(1)
    host, guest = ss
    if forge == "not_to_play":
        entry = _flag(host, 0)  # seat 0 named, but seat 1 is to play
    elif forge == "wrong_blame":
        entry = _flag(host, 1, blamed=0)
    elif forge == "not_the_host":
        entry = guest._sign("abort", {"code": int(ErrorCode.TIMEOUT), "blamed": 1,
                                      "why": "x", "flag": 1})  # the guest has no clocks
    elif forge == "a_bool":
        entry = _flag(host, 1, flag=True)
    elif forge == "bad_code":
        entry = _flag(host, 1, code=int(ErrorCode.ILLEGAL_MOVE))
    else:
        entry = _flag(host, 1, flag=7)
    receiver = guest if entry.seat == 0 else host
    receiver.receive(entry)
    a = receiver.aborted
    assert a is not None and a.flag is None and not a.on_time
    assert a.winner_side(2) is None
    bodies = receiver.bodies
    verdict, code, winner = _verdict(bodies)
    assert (verdict, code, winner) == (INCOMPLETE, "aborted", None)


def test_a_flag_before_the_match_is_played_is_a_stop():
    ss, _ = make_sessions(2, PRESETS["tunisian"], False, b"ready")
    host, guest = ss
    guest.receive(host.next_entry())  # the host's ready; seat 1 owes its own
    assert host.phase == Phase.READY and host.floor == 1
    entry = _flag(host, 1)
    guest.receive(entry)
    assert guest.aborted is not None and guest.aborted.flag is None
    assert _verdict(guest.bodies)[:2] == (INCOMPLETE, "aborted")


def test_a_host_silent_claim_signed_first_keeps_the_game_a_disputed_stop():
    """The late seat signed first that the host went silent: its log holds its claim,
    then the host's flag, which then stands for nothing."""
    ss, _ = _to_play(1)
    host, guest = ss
    claim = guest.abort(ErrorCode.PEER_LEFT, 0, "the host stayed unreachable")
    flag = _flag(host, 1)
    guest.receive(flag)  # it arrives after: the game had ended
    assert guest.aborted is not None and guest.aborted.by_seat == 1
    assert guest.aborted.flag is None
    assert guest.bodies[-2:] == [claim.body, flag.body]
    assert _verdict(guest.bodies)[:2] == (INCOMPLETE, "aborted")
    # The rule itself, whatever came before: a claim by the flagged seat against the host.
    fields = dict(flag.fields)
    assert flag_holds(fields, 0, players=2, phase=Phase.PLAYING, floor=1) == 1
    assert flag_holds(fields, 0, players=2, phase=Phase.PLAYING, floor=1,
                        earlier=[(1, 0)]) is None
    assert flag_holds(fields, 0, players=2, phase=Phase.CLOSING, floor=1) is None


def test_at_three_players_a_flag_gives_nobody_the_win():
    """The hook for 3 players: three sides, and a flag does not say which of the two
    others wins."""
    assert flag_winner(1, 2) == 0 and flag_winner(0, 2) == 1
    assert flag_winner(1, 4) == 0 and flag_winner(2, 4) == 1
    assert flag_winner(1, 3) is None


def test_history_counts_a_loss_on_time(tmp_path):
    ss, ids = _to_play(1)
    flag = ss[0].abort(ErrorCode.TIMEOUT, 1, "seat 1 held the floor too long", flag=1)
    ss[1].receive(flag)
    from support.audit import Played
    played = Played(ss, ids)
    logs = []
    for seat in (0, 1):
        path = played.write_log(tmp_path / f"s{seat}.chklog", seat)
        logs.append(summarize(audit_log(path, workers=0), f"d{seat}"))
    assert all((lg.ending, lg.winner) == (ON_TIME, 0) for lg in logs)
    all_games = games(logs)
    assert len(all_games) == 1 and all_games[0].counted
    rec = record_against(all_games, ids[0].public, ids[1].public)
    assert (rec.games, rec.wins, rec.losses) == (1, 1, 0)


def test_history_counts_the_flag_when_the_flagged_sides_copy_only_says_the_host_went_silent(
        tmp_path):
    """The host's copy holds its flag; the late seat's own copy holds, first, its signed
    word that the host went silent (it never received the flag, or it forked its copy at
    the flag's head): that word does not cite the flag, so it does not void it -- only a
    dispute with the seat's own clock does (PROTOCOL.md 12.6, tests/transcript/test_fair_time.py).
    The match counts for the host, and the disagreement shows as a dispute."""
    from support.audit import Played

    from chkobba_p2p.observe.history import disputes

    ss, ids = _to_play(1)
    host, guest = ss
    flag = host.abort(ErrorCode.TIMEOUT, 1, "seat 1 held the floor too long", flag=1)
    claim = guest.abort(ErrorCode.PEER_LEFT, 0, "the host stayed unreachable")
    guest.receive(flag)
    host.receive(claim)  # after its own flag: it changes nothing there
    played = Played(ss, ids)
    logs = [summarize(audit_log(played.write_log(tmp_path / f"s{seat}.chklog", seat),
                                workers=0), f"d{seat}") for seat in (0, 1)]
    assert (logs[0].ending, logs[0].winner) == (ON_TIME, 0)
    # The seat's own log is not a loss: its own word came first there.
    assert logs[1].ending == "aborted" and logs[1].disputed_by == 1 and not logs[1].counted
    (game,) = games(logs)
    assert game.counted and game.disputed and game.log.path.endswith("s0.chklog")
    rec = record_against([game], ids[0].public, ids[1].public)
    assert (rec.games, rec.wins, rec.losses) == (1, 1, 0)
    assert disputes([game]) == {ids[0].public: 1, ids[1].public: 1}
    # Alone, the seat's own copy counts nothing against it.
    assert not games(logs[1:])[0].counted


# ------------------------------------------------------------------ the published vector

VECTOR = Path(__file__).parent.parent / "vectors" / "wire_on_time.json"


def test_regenerate_on_time_vector():
    if os.environ.get("REGENERATE_WIRE_VECTORS") != "1":
        pytest.skip("regeneration only on request")
    ss, ids = _to_play(1, key=b"wire_on_time vector")
    host = ss[0]
    chain = list(host.bodies)
    forged = _flag(host, 0, why="seat 0 ran out of time")  # seat 1 is to play
    flag = host.abort(ErrorCode.TIMEOUT, 1, "seat 1 held the floor for more than 45 s",
                      flag=1)
    VECTOR.write_text(json.dumps({
        "host_seed_hex": ids[0].seed.hex(), "guest_seed_hex": ids[1].seed.hex(),
        "chain_bodies_hex": [b.hex() for b in chain],
        "to_play": 1,
        "flag_body_hex": flag.body.hex(), "flag_payload_hex": flag.payload.hex(),
        "flag_fields": {"k": "abort", "seat": 0, "code": int(ErrorCode.TIMEOUT),
                        "blamed": 1, "flag": 1},
        "verdict": {"verdict": VALID, "code": "on_time", "winner": 0, "blamed": 1},
        "forged_body_hex": forged.body.hex(),
        "forged_verdict": {"verdict": INCOMPLETE, "code": "aborted", "winner": None},
    }, indent=2, sort_keys=True) + "\n")


def test_on_time_vector():
    """PROTOCOL.md 12.3 and 16: the host's flag on the seat to play is a loss on time;
    the same flag naming a seat that is not to play stands for nothing."""
    v = json.loads(VECTOR.read_text())
    chain = [bytes.fromhex(b) for b in v["chain_bodies_hex"]]
    host = Identity.from_seed(bytes.fromhex(v["host_seed_hex"]))
    genesis = open_entry(chain[0])
    assert genesis.fields["seats"][0]["key"] == host.public
    flag = open_entry(bytes.fromhex(v["flag_body_hex"]))
    assert flag.payload.hex() == v["flag_payload_hex"]
    assert flag.prev == open_entry(chain[-1]).id and flag.game == genesis.game
    for k, value in v["flag_fields"].items():
        assert (flag.kind if k == "k" else flag.seat if k == "seat" else
                flag.fields[k]) == value, k
    want = v["verdict"]
    r = audit_bodies([*chain, flag.body], workers=0)
    assert (r.verdict, r.code, r.winner, r.blamed) == \
        (want["verdict"], want["code"], want["winner"], want["blamed"]), said(r)
    bad = v["forged_verdict"]
    r = audit_bodies([*chain, bytes.fromhex(v["forged_body_hex"])], workers=0)
    assert (r.verdict, r.code, r.winner) == (bad["verdict"], bad["code"], bad["winner"])


# ------------------------------------------------------------ the terminal client's words


def _outcome(tmp_path: Path, seat: int):
    """Seat ``seat``'s outcome of a match lost on time by seat 1, and the host's log."""
    from support.audit import Played

    from chkobba_p2p.link.events import Outcome

    ss, ids = _to_play(1)
    flag = ss[0].abort(ErrorCode.TIMEOUT, 1, "seat 1 held the floor too long", flag=1)
    ss[1].receive(flag)
    log = Played(ss, ids).write_log(tmp_path / "host.chklog", 0)
    s = ss[seat]
    return Outcome(seat, s.table, log, aborted=s.aborted), log


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_both_screens_say_who_won_on_time(tmp_path, lang):
    from chkobba_cli.tui.model.view import TableView, card_style
    from chkobba_cli.tui.screens.dialogs import over_lines
    from chkobba_cli.words.i18n import Translator
    from chkobba_p2p.tablestate import TableState

    def screen(seat: int) -> str:
        o, _ = _outcome(tmp_path, seat)
        st = TableState().with_table(o.table, seat).apply(o.aborted)
        v = TableView(st, Translator(lang), card_style(st, None, True))
        return "\n".join("".join(f[1] for f in line) for line in over_lines(v, o, None, 80))

    won, lost = screen(0), screen(1)
    if lang == "en":
        assert "peer1 ran out of time: you won on time!" in won
        assert "You ran out of time: host won on time" in lost
        assert "the time is your clock" in won  # the host signed the flag
        assert "the time is the host's clock" in lost
    else:
        assert "peer1 n'a plus de temps : vous gagnez au temps !" in won
        assert "Vous n'avez plus de temps : host gagne au temps" in lost
        assert "le temps est celui de votre horloge" in won
        assert "l'horloge de l'hôte" in lost


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_host_flagged_by_a_joiner_reads_whose_clock_it_was(tmp_path, lang):
    """A joiner flags a host that stalls on its own move (PROTOCOL.md 12.6): the screens
    name the joiner's clock, never "the host's clock"."""
    from chkobba_cli.tui.model.view import TableView, card_style
    from chkobba_cli.tui.parts.stopped import stop_sentences
    from chkobba_cli.tui.screens.dialogs import over_lines
    from chkobba_cli.words.i18n import Translator
    from chkobba_p2p.link.events import Outcome
    from chkobba_p2p.tablestate import TableState

    ss, ids = _to_play(0)
    flag = ss[1].abort(ErrorCode.TIMEOUT, 0, "the host held the floor too long", flag=0,
                       clock=make_clock(45, 30, 46, 30))
    ss[0].receive(flag)
    assert ss[0].aborted is not None and ss[0].aborted.flag == 0

    def screen(seat: int) -> str:
        s = ss[seat]
        o = Outcome(seat, s.table, tmp_path / "x.chklog", aborted=s.aborted)
        st = TableState().with_table(o.table, seat).apply(o.aborted)
        v = TableView(st, Translator(lang), card_style(st, None, True))
        lines = over_lines(v, o, None, 80) + [stop_sentences(v, s.aborted)]
        return "\n".join("".join(f[1] for f in line) for line in lines)

    host, joiner = screen(0), screen(1)
    if lang == "en":
        assert "the time is peer1's clock" in host and "host's clock" not in host
        assert "you lost on time (peer1's clock)" in host
        assert "the time is your clock" in joiner
    else:
        assert "le temps est celui de l'horloge de peer1" in host
        assert "vous perdez au temps (selon l'horloge de peer1)" in host
        assert "hôte" not in host.split("(le temps")[1]
        assert "le temps est celui de votre horloge" in joiner


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_html_replay_tells_a_loss_on_time(tmp_path, lang):
    from chkobba_cli.outputs.replay_html import render_html

    _, log = _outcome(tmp_path, 0)
    import html

    page = html.unescape(render_html(audit_log(log, workers=0), lang))
    if lang == "en":
        assert "lost on time at entry #" in page and "wins the match" in page
        # The flag is the host's word (seat 0 is named "host" here), its clock logged.
        text = re.sub("<[^>]+>", "", page)
        assert "the time ran out is host's word, with host's clock reading" in text
    else:
        assert "perd au temps à l'entrée" in page and "gagne la partie" in page
