"""Told, and never stuck (issue 40, case 6; PROTOCOL.md 13.1): a seat that comes back to a
match that ended while it was away (the host flagged it on time) is shown the match's
signed end, the host's: its log gets the host's ending entries and replays to the host's
verdict, its saved game is done with, and it can sit at the host's new table at the same
address.  A host that no longer knows the game at all does not hold the seat either: it
stops at once, signs nothing, files its saved game aside, and the same command then joins
the new table.

In memory (``chkobba_p2p.testing``, MockClock) for each place the end can be found (the
same table still open, a later table of the same process, a restarted host's logs), and
once end to end over loopback TCP."""

from __future__ import annotations

import dataclasses
import socket
from pathlib import Path

import pytest
import trio
from support.net import FAST, host_config, join_config

from chkobba_cli.words.event_words import words
from chkobba_cli.words.i18n import Translator
from chkobba_p2p._shell.config import Timeouts
from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import BotController
from chkobba_p2p.link.events import Outcome, OutcomeError, SeatController
from chkobba_p2p.link.joiner import SeatLink
from chkobba_p2p.link.messages import read_frame
from chkobba_p2p.observe.audit import VALID, audit_log
from chkobba_p2p.testing import GatedController, InMemoryTable, RecordingController
from chkobba_p2p.transcript import ended
from chkobba_p2p.transcript.clocks import Limits
from chkobba_p2p.transcript.ended import EndedMatch, ended_match
from chkobba_p2p.wire.codec import ErrorCode, Identity, ProtocolError, encode, open_entry
from chkobba_p2p.wire.logfile import SavedGame, read_log

EN = Translator("en")  # the words a person reads (the client's)

#: The table's clocks: a long move clock, a short allowance (the seat that dies while to
#: play is flagged ``peer_left`` once it is spent).  MockClock: time costs nothing.
TABLE = dataclasses.replace(Timeouts(), turn=600.0, reconnect=10.0)


class Lingering(RecordingController):
    """A host's person that sits on the end-of-match screen until ``leave`` is set
    (``asked`` says the screen is up)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.asked = trio.Event()
        self.leave = trio.Event()

    async def after_match(self, outcome: Outcome) -> bool | None:
        self.asked.set()
        await self.leave.wait()
        return None


def _signed_by(log: Path, seat: int) -> list[str]:
    """The kinds of the entries ``seat`` signed in ``log``."""
    return [e.kind for e in map(open_entry, read_log(log).bodies) if e.seat == seat]


def _verdict(log: Path) -> tuple[str, str | None, int | None, int | None]:
    r = audit_log(log, workers=0)
    return r.verdict, r.code, r.winner, r.blamed


async def _flagged_while_away(tmp_path: Path, host_ctl: SeatController, identity: Identity,
                              state: Path, nursery: trio.Nursery,
                              out: dict[str, Outcome]) -> InMemoryTable:
    """Seat 1 dies while to play and stays away: the host flags it.  Returns once the
    host's match is over (its table may still be open: ``host_ctl`` decides)."""
    gate = GatedController(gate_at=2, seed=1)
    table = InMemoryTable(tmp_path, controllers=[host_ctl, gate], timeouts=TABLE)

    async def run_host(task_status=trio.TASK_STATUS_IGNORED):
        out["host"] = await table.host.run(task_status)

    await nursery.start(run_host)
    with trio.CancelScope() as scope:
        async def vanish():
            await gate.holding.wait()
            scope.cancel()  # the seat's process dies while it is to play

        nursery.start_soon(vanish)
        await table.joiner(1, identity=identity, state_path=state, name="seat1").run()
    assert state.exists()  # a saved game, to come back to
    while not table.host.finished.is_set():
        await trio.sleep(1)
    return table


async def _new_table(table: InMemoryTable, nursery: trio.Nursery, log: Path,
                     out: dict[str, Outcome]) -> HostPeer:
    """The same host (same key) opens a new table at the same address and port."""
    old = table.host.config
    cfg = dataclasses.replace(old, identity=table.host.identity, port=table.host.port,
                              log_path=log)
    host = HostPeer(cfg, RecordingController(0))

    async def run(task_status=trio.TASK_STATUS_IGNORED):
        out["host2"] = await host.run(task_status)

    await nursery.start(run)
    return host


@pytest.mark.parametrize("where", ["same table", "later table", "restarted host"])
async def test_a_seat_back_after_its_flag_gets_the_hosts_end_and_then_a_new_table(
        tmp_path, where, autojump_clock, monkeypatch):
    monkeypatch.setattr(ended, "_kept", type(ended._kept)())  # this test's process
    identity = Identity.generate()
    state = tmp_path / "seat1.state"
    host_ctl = Lingering() if where == "same table" else RecordingController(0)
    out: dict[str, Outcome] = {}
    with trio.fail_after(3000):
        async with trio.open_nursery() as nursery:
            table = await _flagged_while_away(tmp_path, host_ctl, identity, state,
                                              nursery, out)
            if where == "same table":
                await host_ctl.asked.wait()  # the host's person reads the end
            else:
                while "host" not in out:
                    await trio.sleep(1)
                if where == "restarted host":  # nothing in memory: its logs only
                    monkeypatch.setattr(ended, "_kept", type(ended._kept)())
                await _new_table(table, nursery, tmp_path / "host2.chklog", out)
            # Coming back with this peer's own defaults: the clocks shown meanwhile are
            # the table's, as its host announced them.
            back_ctl = RecordingController(1)
            back = ClientPeer(table.join_config(1, identity=identity, state_path=state,
                                                name="seat1", timeouts=Timeouts()),
                              back_ctl)
            assert back.core.limits() == Limits(move=600.0, allowance=10.0)
            out["back"] = await back.run()
            if where == "same table":
                host_ctl.leave.set()
                while "host" not in out:
                    await trio.sleep(1)
                await _new_table(table, nursery, tmp_path / "host2.chklog", out)
            # Nothing of the old game is left in the way: the same command sits at the
            # host's new table and plays it to its end.
            again = ClientPeer(table.join_config(1, identity=identity, state_path=state,
                                                 name="again"), RecordingController(1))
            out["again"] = await again.run()
    host, came_back = out["host"], out["back"]
    # The host's end, shown: who won and why.
    a = came_back.aborted
    assert a is not None and a.by_seat == 0 and a.code is ErrorCode.PEER_LEFT
    assert a.flag == 1 and came_back.on_time == 1 and came_back.winner_side == 0
    assert came_back.decided and came_back.error_reason is None, came_back
    assert "lost on time" in words(came_back, EN)
    assert came_back.log_path == tmp_path / "seat1.chklog"
    # One match, one signed ending: the host's, in both logs, and nothing the returning
    # seat signed after it went away.
    assert read_log(tmp_path / "seat1.chklog").bodies == \
        read_log(tmp_path / "host.chklog").bodies
    assert "abort" not in _signed_by(tmp_path / "seat1.chklog", 1)
    assert _verdict(tmp_path / "seat1.chklog") == _verdict(tmp_path / "host.chklog") == \
        (VALID, "on_time", 0, 1)
    assert host.aborted == a
    assert not state.exists() and not (tmp_path / "filed").exists()
    assert out["again"].completed, out["again"]
    assert out["again"].done == out["host2"].done


async def test_a_host_that_no_longer_knows_the_game_holds_nobody(tmp_path, autojump_clock,
                                                                  monkeypatch):
    """The host restarted without the old game's log (its logs elsewhere, nothing in
    memory): its ``unknown_game``, behind its own greeting, stops the returning seat at
    once; it signs nothing (the host may have signed an end it cannot show), files its
    saved game aside, and the same command joins the new table."""
    monkeypatch.setattr(ended, "_kept", type(ended._kept)())
    identity = Identity.generate()
    state = tmp_path / "seat1.state"
    out: dict[str, Outcome] = {}
    with trio.fail_after(3000):
        async with trio.open_nursery() as nursery:
            table = await _flagged_while_away(tmp_path, RecordingController(0), identity,
                                              state, nursery, out)
            while "host" not in out:
                await trio.sleep(1)
            monkeypatch.setattr(ended, "_kept", type(ended._kept)())
            (tmp_path / "elsewhere").mkdir()
            await _new_table(table, nursery, tmp_path / "elsewhere" / "host2.chklog", out)
            start = trio.current_time()
            out["back"] = await table.joiner(1, RecordingController(1), identity=identity,
                                             state_path=state, name="seat1").run()
            waited = trio.current_time() - start
            out["again"] = await table.joiner(1, RecordingController(1), identity=identity,
                                              state_path=state, name="again").run()
    back = out["back"]
    assert back.error_code == OutcomeError.GAME_UNKNOWN and back.aborted is None
    assert waited < TABLE.reconnect  # not "trying again" for the host's allowance
    assert "abort" not in _signed_by(tmp_path / "seat1.chklog", 1)
    filed = list((tmp_path / "filed").iterdir())
    assert len(filed) == 1 and SavedGame.load(filed[0]) is not None
    assert back.error_reason == "game_unknown" and back.error_data["filed"] == str(filed[0])
    assert out["again"].completed and out["again"].done == out["host2"].done


def test_an_impostors_unknown_game_still_stops_nothing():
    """``unknown_game`` without our host's greeting (anyone at the address can send it)
    keeps the old rule: retried within the host's allowance, nothing filed."""
    identity = Identity.generate()
    link: SeatLink[object] = SeatLink(identity, "10.0.0.1:7955", None, Limits(600, 10))
    link.resumed(_two_seat_session(identity), b"k" * 32)
    err = {"t": "error", "code": int(ErrorCode.UNKNOWN_GAME), "msg": "no such game"}
    err = read_frame(encode(err), err)
    assert link.refused(err) is False and link.refused(err, b"x" * 32) is False
    assert not link.game_unknown
    assert link.refused(err, b"k" * 32) is True and link.game_unknown
    assert link.error_code == OutcomeError.GAME_UNKNOWN


def _two_seat_session(identity: Identity):
    from chkobba_p2p.game.rules import Ruleset
    from chkobba_p2p.transcript.session import Session
    from chkobba_p2p.transcript.table import SeatInfo, TableInfo

    host = Identity.generate()
    info = TableInfo(b"g" * 16, 1, 2, Ruleset(),
                     (SeatInfo(0, host.public, "h"), SeatInfo(1, identity.public, "j")))
    hs, genesis = Session.create(host, info)
    return Session.join(identity, genesis, host.public, None)


# ------------------------------------------------------------------ pure parts


def _ended_transcript() -> tuple[list[bytes], Identity, Identity]:
    from chkobba_p2p.game.rules import Ruleset
    from chkobba_p2p.transcript.session import Session
    from chkobba_p2p.transcript.table import SeatInfo, TableInfo

    host, seat = Identity.generate(), Identity.generate()
    info = TableInfo(b"e" * 16, 1, 2, Ruleset(),
                     (SeatInfo(0, host.public, "h"), SeatInfo(1, seat.public, "j")))
    hs, genesis = Session.create(host, info)
    js = Session.join(seat, genesis, host.public, None)
    bodies = [genesis.body]
    for me, other in ((js, hs), (hs, js)):
        e = me.next_entry()
        if e is not None:
            other.receive(e)
            bodies.append(e.body)
    hs.abort(ErrorCode.PEER_LEFT, 1, "gone")
    bodies.append(hs.bodies[-1])
    return bodies, seat, host


def test_an_ended_transcript_says_who_sat_and_where_the_end_begins():
    bodies, seat, _ = _ended_transcript()
    match = ended_match(bodies)
    assert isinstance(match, EndedMatch) and match.seat_of(seat.public) == 1
    assert match.seat_of(match.keys[0]) is None  # the host never resumes
    n = len(bodies)
    assert match.start_for(2) == 2
    # A copy that holds more than the host's chain (an entry of its own the host never
    # got) still gets the abort: it stands wherever it comes.
    assert match.start_for(n - 1) == n - 1 and match.start_for(n + 3) == n - 1
    assert ended_match(bodies[:-1]) is None  # no end: nothing to tell
    assert ended_match([b"junk"]) is None and ended_match([]) is None


def _write_log(path: Path, bodies: list[bytes], key: bytes, seat: int = 0) -> None:
    from chkobba_p2p.wire.logfile import TranscriptWriter

    log = TranscriptWriter(path)
    log.write_header(game=open_entry(bodies[0]).game, seat=seat, key=key, name="h",
                     host="x")
    for body in bodies:
        log.append(body)
    log.close()


def test_a_host_finds_the_matches_it_ended_in_its_logs_and_only_those(tmp_path,
                                                                       monkeypatch):
    monkeypatch.setattr(ended, "_kept", type(ended._kept)())
    bodies, seat, host = _ended_transcript()
    game = open_entry(bodies[0]).game
    now = [0.0]
    logs = ended.EndedLogs(host.public, tmp_path, clock=lambda: now[0])
    _write_log(tmp_path / "running.chklog", bodies[:-1], host.public)  # no end yet
    _write_log(tmp_path / "theirs.chklog", bodies, seat.public, seat=1)  # a joiner's copy
    (tmp_path / "junk.chklog").write_bytes(b"not a log")
    assert logs.find(game) is None
    _write_log(tmp_path / "ended.chklog", bodies, host.public)
    assert logs.find(game) is None  # looked a moment ago: not again at once
    now[0] += ended.RESCAN
    match = logs.find(game)
    assert match is not None and match.bodies == tuple(bodies)
    assert match.seat_of(seat.public) == 1
    assert ended.EndedLogs(Identity.generate().public, tmp_path).find(game) is None
    assert ended.kept(host.public, game) == match  # found once, then from memory


def test_a_host_reads_its_logs_with_the_audits_limits(tmp_path, monkeypatch):
    """The ended matches are read by the one log reader (wire/logfile.py): a log over the
    size limit, or with a frame no log can hold after its end, is not answered from."""
    from chkobba_p2p.wire import logfile

    monkeypatch.setattr(ended, "_kept", type(ended._kept)())
    bodies, _, host = _ended_transcript()
    game = open_entry(bodies[0]).game
    path = tmp_path / "ended.chklog"
    _write_log(path, bodies, host.public)
    size = path.stat().st_size
    assert logfile.read_header(path) == logfile.read_log(path).header
    monkeypatch.setattr(logfile, "MAX_LOG_BYTES", size - 1)
    assert ended.EndedLogs(host.public, tmp_path).find(game) is None
    monkeypatch.setattr(logfile, "MAX_LOG_BYTES", size)
    with open(path, "ab") as f:
        f.write((logfile.wire.MAX_FRAME + 1).to_bytes(4, "big"))
    monkeypatch.setattr(logfile, "MAX_LOG_BYTES", size + 4)
    assert logfile.read_log(path).tail is not None and not logfile.read_log(path).truncated
    assert ended.EndedLogs(host.public, tmp_path).find(game) is None
    path.write_bytes(path.read_bytes()[:size + 2])  # a torn length: a crash, still read
    match = ended.EndedLogs(host.public, tmp_path).find(game)
    assert match is not None and match.bodies == tuple(bodies)


# ------------------------------------------------------------------ loopback TCP


def _free_tcp_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
async def test_over_tcp_a_flagged_seat_comes_back_to_the_hosts_end_then_a_new_table(
        tmp_path, monkeypatch):
    """End to end over loopback: a seat drops, the host flags it, the host's process
    ends; the same host opens a new table at the same port (a new process: only its logs
    know the old match).  The seat comes back and ends with the host's ending in its log
    (both logs replay to the same verdict), then sits at the new table."""
    monkeypatch.setattr(ended, "_kept", type(ended._kept)())
    port = _free_tcp_port()
    host_id, identity = Identity.generate(), Identity.generate()
    state = tmp_path / "seat1.state"
    short = dataclasses.replace(FAST, reconnect=1.0, turn=30.0)
    out: dict[str, Outcome] = {}
    gate = GatedController(gate_at=2, seed=1)
    cfg = dataclasses.replace(host_config(tmp_path), port=port, identity=host_id,
                              timeouts=short)
    seat_cfg = dataclasses.replace(join_config(tmp_path, port, "seat1"), identity=identity,
                                   state_path=state, timeouts=short)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            async def run_host(task_status=trio.TASK_STATUS_IGNORED):
                out["host"] = await HostPeer(cfg, BotController("greedy", 0)).run(
                    task_status)

            await nursery.start(run_host)
            with trio.CancelScope() as scope:
                async def vanish():
                    await gate.holding.wait()
                    scope.cancel()

                nursery.start_soon(vanish)
                await ClientPeer(seat_cfg, gate).run()
        monkeypatch.setattr(ended, "_kept", type(ended._kept)())  # "a new process"
        async with trio.open_nursery() as nursery:
            cfg2 = dataclasses.replace(cfg, log_path=tmp_path / "host2.chklog")

            async def run_host2(task_status=trio.TASK_STATUS_IGNORED):
                out["host2"] = await HostPeer(cfg2, BotController("greedy", 0)).run(
                    task_status)

            await nursery.start(run_host2)
            out["back"] = await ClientPeer(seat_cfg, BotController("greedy", 1)).run()
            again = dataclasses.replace(seat_cfg, log_path=tmp_path / "again.chklog")
            out["again"] = await ClientPeer(again, BotController("greedy", 1)).run()
    back = out["back"]
    assert back.aborted is not None and back.aborted.flag == 1 and back.winner_side == 0
    assert back.aborted == out["host"].aborted
    assert "abort" not in _signed_by(tmp_path / "seat1.chklog", 1)
    assert _verdict(tmp_path / "seat1.chklog") == _verdict(tmp_path / "host.chklog") == \
        (VALID, "on_time", 0, 1)
    assert not state.exists()
    assert out["again"].completed and out["again"].done == out["host2"].done


def test_the_end_of_a_bigger_table_is_welcomed_from_a_smaller_one():
    """The host's new table seats 2, the ended match 4: the welcome of our resume gives
    our seat in the ended match (3), and the joiner takes it (its greeting's size is the
    new table's)."""
    from chkobba_p2p.game.rules import Ruleset
    from chkobba_p2p.link.handshake import ClientHandshake, HostHandshake
    from chkobba_p2p.link.handshake import Lobby as SeatLobby

    host, seat = Identity.generate(), Identity.generate()
    lobby = SeatLobby(host, "h", Ruleset(), 2, shuffle_proofs=False)
    hs = HostHandshake(lobby, None, ended=lambda game, key: (3, 40)
                       if (game, key) == (b"e" * 16, seat.public) else None)
    cs = ClientHandshake(seat, "j", (b"e" * 16, 12), resume_seat=3)
    welcome, at, resume = hs.on_hello(cs.on_host(hs.greeting()))
    assert (at, resume, welcome["have"]) == (3, (b"e" * 16, 12), 40)
    assert "limits" not in welcome  # no clocks run for a match that is over
    assert cs.on_welcome(welcome) == 3
    stranger = ClientHandshake(Identity.generate(), "x", (b"e" * 16, 12), resume_seat=1)
    hs2 = HostHandshake(lobby, None, ended=hs.ended)
    with pytest.raises(ProtocolError) as refused:  # no seat of its own there: unknown
        hs2.on_hello(stranger.on_host(hs2.greeting()))
    assert refused.value.error_code is ErrorCode.UNKNOWN_GAME


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "the host no longer has this game"),
    ("fr", "l'hôte n'a plus cette partie"),
])
def test_the_player_is_told_in_his_language_where_the_saved_game_went(lang, words, capsys):
    """``chkobba join``'s last words when the host no longer has the game: the reason in
    the player's language, where the saved game was filed, exit status 2 (no game)."""
    from types import SimpleNamespace

    from chkobba_cli.tui.guest import RunResult
    from chkobba_cli.words.ending import EXIT_NO_GAME, finish
    from chkobba_cli.words.i18n import Translator

    table = _two_seat_session(Identity.generate()).table
    filed = "/data/resume/filed/ab-10.0.0.1_7955-20261205T190000Z.state"
    outcome = Outcome(1, table, Path("/data/logs/x.chklog"),
                      error_code=OutcomeError.GAME_UNKNOWN, error_reason="game_unknown",
                      error_data={"where": "10.0.0.1:7955", "filed": filed})
    ui = SimpleNamespace(t=Translator(lang), log_path=None)
    assert finish(RunResult(outcome, left=False), ui, "10.0.0.1:7955") == EXIT_NO_GAME
    out = capsys.readouterr()
    said = " ".join((out.err + out.out).split())
    assert words in said and filed in said and "10.0.0.1:7955" in said
