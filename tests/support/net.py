"""Shared helpers for the network tests (no tests here).

Controllers are real :class:`SeatController` implementations (the public interface a
client implements); the host and peers are the library's own, on real loopback TCP.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import trio

from chkobba_p2p._shell.peer import BotController, HostConfig, JoinConfig, Timeouts
from chkobba_p2p.link.messages import ErrorMsg
from chkobba_p2p.wire import codec as wire

REPO_ROOT = Path(__file__).resolve().parent.parent.parent

FAST = Timeouts(handshake=2.0, frame=1.0, idle=6.0, reconnect=10.0, turn=30.0)


def host_config(tmp_path: Path, players: int = 2, **kw) -> HostConfig:
    kw.setdefault("shuffle_proofs", False)  # the deal core's own tests cover the proofs
    return HostConfig(players=players, port=0, bind="127.0.0.1", beacon=False,
                      log_path=tmp_path / "host.chklog", timeouts=FAST, **kw)


def join_config(tmp_path: Path, port: int, name: str, **kw) -> JoinConfig:
    return JoinConfig(f"127.0.0.1:{port}", name=name, log_path=tmp_path / f"{name}.chklog",
                      timeouts=FAST, **kw)


class RecordingBot(BotController):
    """A greedy bot (a real :class:`BotController`, its worker thread included) that
    records every event it is shown."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__("greedy", seed)
        self.events: list[object] = []

    def on_event(self, event: object) -> None:
        self.events.append(event)


async def cut_the_wire(gate: GatedBot, guest: Any) -> None:
    """Once ``gate`` holds the floor, close the joining ``guest``'s connection under it
    (a dropped line, not a leave: the guest reconnects), then let ``gate`` play on."""
    await gate.holding.wait()
    await guest.link.stream.aclose()
    gate.release.set()


class GatedBot(BotController):
    """A greedy bot that, before its ``gate_at``-th play, reports that it holds the floor
    (``holding`` is set) and waits until the test opens ``release``."""

    def __init__(self, gate_at: int = 2) -> None:
        super().__init__("greedy", seed=1)
        self.plays = 0
        self.gate_at = gate_at
        self.holding = trio.Event()
        self.release = trio.Event()
        self.events: list[object] = []

    async def choose_play(self, hand):
        self.plays += 1
        if self.plays == self.gate_at:
            self.holding.set()
            await self.release.wait()
        return await super().choose_play(hand)

    def on_event(self, event: object) -> None:
        self.events.append(event)


class RawClient:
    """A bare TCP connection speaking frames, for feeding the host bad input."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.decoder = wire.FrameDecoder()
        self.frames: list[bytes] = []

    @classmethod
    async def connect(cls, port: int) -> RawClient:
        return cls(await trio.open_tcp_stream("127.0.0.1", port))

    async def send_raw(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def send(self, msg: dict) -> None:
        await self.stream.send_all(wire.frame(wire.encode(msg)))

    async def receive(self) -> dict | None:
        """The next message, or None at the end of the stream."""
        while not self.frames:
            data = await self.stream.receive_some(65536)
            if not data:
                return None
            self.frames.extend(self.decoder.feed(data))
        return wire.decode(self.frames.pop(0))

    async def until_error(self) -> dict:
        """Read until the host's error message; then the stream must end."""
        while True:
            msg = await self.receive()
            assert msg is not None, "closed without an error message"
            if wire.message_type(msg) == ErrorMsg.TYPE:
                assert await self.receive() is None, "not closed after the error"
                return msg


def has_ipv6_loopback() -> bool:
    """Whether this machine can listen on ::1 (a test over IPv6 skips where not)."""
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


def cli_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def cli_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "chkobba_cli.main", *args]


def child_processes(pid: int, marker: bytes) -> list[int]:
    """The live children of process ``pid`` whose command line holds ``marker`` (a host's
    bot processes, ``b"chkobba_cli.support.botproc"``: found before the host dies, since
    they outlive it under another parent)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        state, ppid = stat.rsplit(")", 1)[1].split()[:2]
        if int(ppid) == pid and state != "Z" and marker in cmd:
            found.append(int(entry.name))
    return sorted(found)


def process_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a ``chkobba`` process under test, its data in ``tmp_path``."""
    env = cli_env()
    env["CHKOBBA_DATA_DIR"] = str(tmp_path / "data")
    return env


def start_host(tmp_path: Path, *args: str) -> tuple[subprocess.Popen, int]:
    """``chkobba host --headless`` on a free loopback port (log in ``tmp_path``): the
    process and the port it says it listens on."""
    proc = subprocess.Popen(
        cli_command("host", "--headless", "--port", "0", "--bind", "127.0.0.1",
                    "--no-beacon", "--quiet", "--log", str(tmp_path / "host.chklog"), *args),
        cwd=REPO_ROOT, env=process_env(tmp_path), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        m = re.search(r"listening on port (\d+)", line)
        if m:
            return proc, int(m.group(1))
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError(f"host did not start: {proc.stderr.read() if proc.stderr else ''}")


def start_bot(tmp_path: Path, port: int, name: str, *args: str) -> subprocess.Popen:
    """``chkobba bot`` joining the loopback table on ``port`` (log in ``tmp_path``)."""
    return subprocess.Popen(
        cli_command("bot", f"127.0.0.1:{port}", "--name", name, "--quiet",
                    "--log", str(tmp_path / f"{name}.chklog"), *args),
        cwd=REPO_ROOT, env=process_env(tmp_path), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)


async def run_then_vanish(nursery: trio.Nursery, peer: Any, gate: Any,
                          thinking: float = 0.0) -> None:
    """Run a joining ``peer`` until its controller ``gate`` (a gated bot or controller)
    holds the floor, then, ``thinking`` seconds later (on the test's clock: a mock clock
    jumps them), make its process "die": no leave signed, its connection simply closed
    (the resume and allowance tests' crash)."""
    scope = trio.CancelScope()

    async def run() -> None:
        with scope:
            await peer.run()

    nursery.start_soon(run)
    await gate.holding.wait()
    if thinking:
        await trio.sleep(thinking)
    scope.cancel()
    assert peer._last_link is not None
    await peer._last_link.stream.aclose()


async def play_mixed_table(tmp_path: Path, players: int, rules: Any, old: set[int],
                           old_joiner: type, **table_options: Any) -> list[Any]:
    """A whole match in memory (:class:`~chkobba_p2p.testing.InMemoryTable`) where the
    seats in ``old`` join as ``old_joiner`` (a peer of before some capability) and the
    others as today's :class:`ClientPeer`, seated one after the other in seat order:
    every outcome done, the same result everywhere, every log VALID.  The outcomes in
    seat order.  ``table_options``: for the host (``shuffle_proofs=True``, say)."""
    from chkobba_p2p._shell.net import ClientPeer
    from chkobba_p2p.observe.audit import VALID, audit_log
    from chkobba_p2p.testing import InMemoryTable, RecordingController
    from support.audit import said

    table = InMemoryTable(tmp_path, players=players, rules=rules, **table_options)
    out: dict[int, Any] = {}
    with trio.fail_after(3600):
        async with trio.open_nursery() as nursery:
            async def host(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
                out[0] = await table.host.run(task_status)

            await nursery.start(host)

            async def join(seat: int) -> None:
                cls = old_joiner if seat in old else ClientPeer
                out[seat] = await cls(table.join_config(seat), table.controllers[seat]).run()

            for seat in range(1, players):
                nursery.start_soon(join, seat)
                host_ctl = table.controllers[0]
                assert isinstance(host_ctl, RecordingController)
                await host_ctl.until(lambda _, s=seat: table.host.lobby.seats[s] is not None)
    outcomes = [out[s] for s in range(players)]
    assert all(o.done is not None and o.aborted is None and o.error_code is None
               for o in outcomes)
    assert len({o.done for o in outcomes}) == 1
    for o in outcomes:
        report = audit_log(o.log_path, workers=0)
        assert report.verdict == VALID, said(report)
    return outcomes


def old_joiner(without: str) -> type:
    """A joiner of before the capability ``without``: a :class:`ClientPeer` whose hello
    announces everything this implementation speaks but that one (for the tests that
    seat it at a table of today's peers: the mixed table falls back cleanly)."""
    from chkobba_p2p._shell.net import ClientPeer
    from chkobba_p2p.link.handshake import ClientHandshake
    from chkobba_p2p.transcript.caps import SPOKEN

    spoken = tuple(c for c in SPOKEN if c != without)

    class OldJoiner(ClientPeer):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            make = self.core.hello_for

            def hello_for(identity: wire.Identity, name: str,
                          caps: tuple[str, ...]) -> ClientHandshake:
                return make(identity, name, spoken)

            self.core.hello_for = hello_for  # type: ignore[method-assign]

    OldJoiner.__doc__ = f"A joiner of before {without}: its hello does not announce it."
    return OldJoiner
