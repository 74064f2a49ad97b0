"""The library never prints: what a person should see reaches the seat's controller as a
:class:`~chkobba_p2p._shell.peer.Notice` event, the rest goes to :mod:`logging`.

Each notice kind that can be provoked cheaply is provoked here, on loopback, and
asserted as an event; the terminal client words each kind in English and French; and an
:mod:`ast` walk holds every module of the library to no ``print`` call and no write to
``sys.stdout``/``sys.stderr`` (a docstring's example is a string, not a call: it is not
seen).
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import logging
from pathlib import Path

import pytest
import trio
from support.net import GatedBot, host_config, join_config

from chkobba_cli.words.i18n import MESSAGES, Translator, notice_text
from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import (
    BotController,
    ErrorCode,
    Identity,
    Notice,
    NoticeKind,
    SavedGame,
    SeatController,
)
from chkobba_p2p.wire import codec as wire

LIBRARY = Path(__file__).resolve().parent.parent / "chkobba_p2p"


# ---------------------------------------------------------------- the library is quiet


def printing_calls(source: str, filename: str = "<source>") -> list[str]:
    """Where ``source`` calls ``print`` or reaches for ``sys.stdout``/``sys.stderr``
    (``file:line``), read with :mod:`ast` (docstrings are strings, not calls)."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "print":
            found.append(f"{filename}:{node.lineno}: print(...)")
        elif isinstance(node, ast.Attribute) and node.attr in ("stdout", "stderr") \
                and isinstance(node.value, ast.Name) and node.value.id == "sys":
            found.append(f"{filename}:{node.lineno}: sys.{node.attr}")
    return found


def test_the_walk_finds_a_print_and_a_stderr_write_but_not_a_docstrings_example():
    source = ('"""Use it::\n\n    print(outcome)\n"""\nimport sys\n\n'
              'def f():\n    """print(x)"""\n    print("a", file=sys.stderr)\n'
              '    sys.stdout.write("b")\n    log.print_me()\n')
    assert printing_calls(source, "m.py") == [
        "m.py:9: print(...)", "m.py:9: sys.stderr", "m.py:10: sys.stdout"]


def test_no_module_of_the_library_prints():
    files = sorted(LIBRARY.rglob("*.py"))
    assert len(files) > 30, "the walk found too few modules to mean anything"
    found = [hit for path in files
             for hit in printing_calls(path.read_text(), str(path.relative_to(LIBRARY)))]
    assert not found, ("the library prints (report an event, a Notice, or log through "
                       "logging):\n" + "\n".join(found))


def test_the_librarys_logger_is_silent_until_the_application_configures_logging():
    handlers = logging.getLogger("chkobba_p2p").handlers
    assert any(isinstance(h, logging.NullHandler) for h in handlers)


# ---------------------------------------------------------------- each kind provoked


class Recorder(SeatController):
    """Records every event; ``noticed`` is set by the first :class:`Notice`."""

    def __init__(self) -> None:
        self.events: list[object] = []
        self.noticed = trio.Event()

    def on_event(self, event: object) -> None:
        self.events.append(event)
        if isinstance(event, Notice):
            self.noticed.set()

    def notices(self) -> list[Notice]:
        return [e for e in self.events if isinstance(e, Notice)]


def _unreadable_save(tmp_path: Path, seat: int, host: str) -> tuple[Path, Path]:
    """A saved game whose log is not a transcript at all (a cut file, another file)."""
    log = tmp_path / f"seat{seat}.chklog"
    log.write_bytes(b"this is not a transcript\n")
    state = tmp_path / f"seat{seat}.state"
    SavedGame(b"g" * 16, seat, host, b"m" * 32, str(log)).save(state)
    return state, log


def test_a_host_whose_saved_log_is_unreadable_says_so_and_opens_a_new_table(tmp_path):
    state, log = _unreadable_save(tmp_path, 0, "port:7777")
    controller = Recorder()
    host = HostPeer(dataclasses.replace(host_config(tmp_path), port=7777, state_path=state),
                    controller)
    assert host.session is None  # a new table, not the broken game
    [notice] = controller.notices()
    assert notice.kind is NoticeKind.RESUME_FAILED and notice.path == log
    assert notice.detail  # the cause, for people
    assert str(log) in str(notice)  # the English for developers


def test_a_joiner_whose_saved_log_is_unreadable_says_so_and_joins_afresh(tmp_path):
    state, log = _unreadable_save(tmp_path, 1, "127.0.0.1:7777")
    controller = Recorder()
    peer = ClientPeer(join_config(tmp_path, 7777, "amel", state_path=state), controller)
    assert peer.session is None
    [notice] = controller.notices()
    assert (notice.kind, notice.path) == (NoticeKind.RESUME_FAILED, log)


@pytest.mark.slow
async def test_a_table_that_cannot_be_announced_on_the_lan_says_so_and_stays_open(tmp_path):
    # An announced address that is no address fails before anything is sent.
    cfg = dataclasses.replace(host_config(tmp_path), beacon=True,
                              announce_addresses=("not-an-address",))
    controller = Recorder()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(HostPeer(cfg, controller).run)
            await controller.noticed.wait()
            stream = await trio.open_tcp_stream("127.0.0.1", port)  # still listening
            await stream.aclose()
            nursery.cancel_scope.cancel()
    [notice] = controller.notices()
    assert notice.kind is NoticeKind.ANNOUNCE_FAILED and notice.detail


class Front:
    """A TCP front for the host's port that forwards every connection, except that the
    next ``impostor`` ones meet an impostor (``kind``: a garbled greeting, or an
    ``error unknown_game``); :meth:`cut` closes the connections forwarded so far."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.impostor = 0
        self.kind = "garbled"
        self.met = trio.Event()
        self._open: list[trio.abc.Stream] = []

    async def serve(self, task_status=trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        task_status.started(listeners[0].socket.getsockname()[1])
        await trio.serve_listeners(self._handle, listeners)

    async def cut(self) -> None:
        for stream in self._open:
            await stream.aclose()
        self._open.clear()

    async def _handle(self, stream: trio.SocketStream) -> None:
        if self.impostor > 0:
            self.impostor -= 1
            if self.kind == "garbled":
                await stream.send_all(wire.frame(wire.encode({"t": "host", "key": 5})))
            else:
                await stream.send_all(wire.frame(wire.encode(
                    {"t": "error", "code": int(ErrorCode.UNKNOWN_GAME),
                     "name": "unknown_game", "msg": "no such game"})))
            self.met.set()
            await stream.aclose()
            return
        upstream = await trio.open_tcp_stream("127.0.0.1", self.target)
        self._open += [stream, upstream]

        async def pipe(a: trio.abc.Stream, b: trio.abc.Stream) -> None:
            try:
                while data := await a.receive_some(65536):
                    await b.send_all(data)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                pass
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError,
                                     OSError):
                await b.aclose()

        async with trio.open_nursery() as n:
            n.start_soon(pipe, stream, upstream)
            n.start_soon(pipe, upstream, stream)


@pytest.mark.parametrize("kind", ["garbled", "error"])
@pytest.mark.slow
async def test_a_joiner_whose_reconnection_fails_says_so_once_and_plays_on(tmp_path, kind):
    """In a game, the joiner's link drops; its next connection meets an impostor at the
    host's address (a garbled handshake, or an unsigned refusal).  The joiner says so,
    as a notice, once (the same cause on every retry is not news), and resumes."""
    gate = GatedBot(gate_at=2)
    out: dict[str, object] = {}
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            async def run_host(task_status=trio.TASK_STATUS_IGNORED):
                out["host"] = await HostPeer(host_config(tmp_path),
                                             BotController("greedy", 0)).run(task_status)

            port = await nursery.start(run_host)
            front = Front(port)
            front_port = await nursery.start(front.serve)
            cfg = join_config(tmp_path, front_port, "amel", identity=Identity.generate())

            async def run_guest():
                out["guest"] = await ClientPeer(cfg, gate).run()

            nursery.start_soon(run_guest)
            await gate.holding.wait()
            front.impostor, front.kind = 2, kind  # the next two connections: an impostor
            await front.cut()
            await front.met.wait()
            gate.release.set()
            while "host" not in out or "guest" not in out:
                await trio.sleep(0.05)
            nursery.cancel_scope.cancel()
    assert out["guest"].completed, out["guest"]
    notices = [e for e in gate.events if isinstance(e, Notice)]
    if kind == "garbled":
        assert [n.kind for n in notices] == [NoticeKind.HANDSHAKE_RETRY], notices
        assert notices[0].code in {c.name.lower() for c in ErrorCode}, notices
    else:
        # The impostor's own words past its code's sentence, as data (a client quotes
        # them as its words, and words the code itself).
        assert notices == [Notice(NoticeKind.RESUME_REFUSED, "no such game",
                                  code="unknown_game",
                                  number=int(ErrorCode.UNKNOWN_GAME))], notices


# ---------------------------------------------------------------- the client's words


def test_every_notice_kind_has_its_words_in_both_languages():
    for kind in NoticeKind:
        assert f"nt_{kind}" in MESSAGES, kind
    en, fr = Translator("en"), Translator("fr")
    n = Notice(NoticeKind.RESUME_FAILED, "bad\x1b[2Jframe", path=Path("/tmp/g.chklog"))
    # The detail is made safe to show (it may be the host's words): no escape reaches
    # the terminal.
    assert notice_text(en, n) == ("the saved game (/tmp/g.chklog) cannot be resumed: "
                                  "bad\u241b[2Jframe; starting afresh")
    assert notice_text(fr, n).startswith("impossible de reprendre la partie enregistrée "
                                         "(/tmp/g.chklog)")
    refused = Notice(NoticeKind.RESUME_REFUSED, "no such game", code="unknown_game")
    assert 'unknown_game: "no such game"' in notice_text(en, refused)
    assert "unknown_game : « no such game »" in notice_text(fr, refused)
    for kind in NoticeKind:  # every kind worded, in each language, with its data
        for t in (en, fr):
            text = notice_text(t, Notice(kind, "why", path=Path("p"), code="c"))
            assert "{" not in text and text, (kind, t.lang)
        assert str(Notice(kind, "why"))  # the English for developers


@pytest.mark.parametrize("code", list(ErrorCode))
def test_a_refused_return_and_a_failed_handshake_say_every_wire_code_in_both_languages(code):
    # The library gives the code (and the host's or the check's own words): the
    # client says it, never the library's English sentence in French.
    name = code.name.lower()
    for kind, detail in ((NoticeKind.RESUME_REFUSED, ""), (NoticeKind.HANDSHAKE_RETRY, "9 MB")):
        n = Notice(kind, detail, code=name, number=int(code))
        en, fr = notice_text(Translator("en"), n), notice_text(Translator("fr"), n)
        assert MESSAGES[f"wire_{name}"][0] in en and MESSAGES[f"wire_{name}"][1] in fr, n
        assert code.sentence not in fr or code.sentence == MESSAGES[f"wire_{name}"][1], fr
        assert detail in en and detail in fr


def test_a_code_this_program_does_not_know_is_said_by_its_number():
    n = Notice(NoticeKind.RESUME_REFUSED, "", code="connection_closed", number=999)
    assert "(999)" in notice_text(Translator("en"), n)
    assert "(999)" in notice_text(Translator("fr"), n)
    stalled = Notice(NoticeKind.HANDSHAKE_RETRY, "", code="handshake_timeout")
    assert notice_text(Translator("en"), stalled) == (
        "the connection to the host failed (timeout); trying again")


def test_the_events_pane_shows_a_notice_as_a_warning_in_the_clients_language():
    from chkobba_cli.tui.model.view import TableView, card_style
    from chkobba_cli.tui.parts.narration import EventLog
    from chkobba_p2p.tablestate import TableState

    st = TableState(seat=1).with_players(2)
    for lang, words in (("en", 'the host refused our return (unknown_game: "gone")'),
                        ("fr", "l'hôte a refusé notre retour (unknown_game : « gone »)")):
        pane = EventLog()
        view = TableView(st, Translator(lang), card_style(st, None, True))
        pane.narrate(Notice(NoticeKind.RESUME_REFUSED, "gone", code="unknown_game"), view)
        [line] = pane.lines
        assert line[0][0] == "class:warn" and line[0][1].startswith(words), line
