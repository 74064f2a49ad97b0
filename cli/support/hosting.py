"""The host's side of a game with bots on this machine: the match hosted, each bot a
process of its own that joins over loopback (a peer like any other), and the bots let
finish, then stopped, whatever way the match ends."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

import trio

from chkobba_p2p import HostConfig, Outcome, SeatController, host_match

from .botproc import EarlyBots, bot_line

if TYPE_CHECKING:  # imported by the command that opens a table over Tor, not here
    from chkobba_p2p import Identity, TorTransport

__all__ = ["hosting"]

#: Seconds a host that left on purpose gives its bots to take its signed ``abort`` and end.
LEFT_GRACE = 3.0


def spawn_bots(where: str, count: int, level: str, seed: int | None,
                log_path: Path | None = None, host: Identity | None = None,
                keep_game: bool = False, resuming: bool = False
                ) -> list[subprocess.Popen]:
    """Bot peers as separate processes joining ``where`` (the table's loopback address,
    or its join code there) over loopback.  Their output must not reach the terminal the
    full-screen UI draws on.  They run this interpreter, which has this package
    installed.  ``keep_game``: the host can restart its game (a fixed port, a saved
    game), and so can they: each keeps its own saved game, which the bots a restarted
    host starts (``resuming``) resume (:func:`.botproc.keep_game`)."""
    procs = []
    for i in range(count):
        # The address on the bot's stdin, never on its command line: a join code there
        # carries the table's seat secret, and any user of this machine reads every
        # process's command line (ps).
        cmd = [sys.executable, "-m", "chkobba_cli.support.botproc", "-",
               "--level", level, "--name", f"bot{i + 1}", "--index", str(i + 1)]
        if seed is not None:
            cmd += ["--seed", str(seed + i)]
        if keep_game and host is not None:
            cmd += ["--keep-game", *(["--resuming"] if resuming else [])]
        log = "" if log_path is None else \
            str(log_path.with_name(f"{log_path.stem}-bot{i + 1}.chklog"))  # its own log
        proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        procs.append(proc)
        assert proc.stdin is not None
        with contextlib.suppress(OSError):  # it died already: a seat that never comes
            cred = "" if host is None else bot_line(host, level, i + 1)
            proc.stdin.write(f"{where}\n{log}\n{cred}\n".encode())
            proc.stdin.close()
    return procs


async def reap(procs: list[subprocess.Popen], grace: float) -> None:
    """Let bot processes finish (they sign the result), then stop the stragglers."""
    with trio.CancelScope(shield=True):
        with trio.move_on_after(grace):
            while any(p.poll() is None for p in procs):
                await trio.sleep(0.05)
        for p in procs:
            if p.poll() is None:
                p.terminate()
        with trio.move_on_after(2):
            while any(p.poll() is None for p in procs):
                await trio.sleep(0.05)
        for p in procs:
            if p.poll() is None:
                p.kill()


def hosting(config: HostConfig, bots: int, level: str, seed: int | None,
            early: EarlyBots | None = None, tor: TorTransport | None = None
            ) -> Callable[[SeatController], Awaitable[Outcome]]:
    """The game to run under the screen: host ``config`` and start ``bots`` bot peers
    (of ``level``, seeded from ``seed``) once the table listens; or, with ``early``,
    tell the bots already started (importing while the client did) the table's address.
    ``tor`` (host --tor, ``config.transport``) is closed when the game ends (its onion
    service with it)."""
    async def game(controller: SeatController) -> Outcome:
        from ..tui.parts.narration import BotsStarting

        box: list[Outcome] = []
        procs: list[subprocess.Popen] = []
        if tor is not None:  # what tor does while the table opens, to the screen
            tor.tor.on_event = controller.on_event

        async def host(task_status=trio.TASK_STATUS_IGNORED) -> None:
            box.append(await host_match(config, controller, task_status=task_status))

        # A restarted host's saved game: its bots come back to their seats (the screen
        # says so of each), they take none.
        resuming = config.state_path is not None and config.state_path.exists()
        completed = False
        try:
            async with trio.open_nursery() as nursery:
                port = await nursery.start(host)
                if bots and not resuming:
                    # The client's own event, which its controller (the screen's)
                    # takes beside the library's TableEvent.
                    controller.on_event(BotsStarting(bots))  # type: ignore[arg-type]
                # At a table with a seat secret the local bots, too, join with the code.
                where = f"127.0.0.1:{port}" if config.secret is None or config.identity \
                    is None else f"127.0.0.1:{port}#{config.identity.fingerprint}+{config.secret}"
                if early is not None:
                    early.go(where, config.log_path, config.identity)
                    procs.extend(early.procs)
                elif bots:
                    procs.extend(spawn_bots(where, bots, level, seed, config.log_path,
                                            config.identity,
                                            keep_game=config.state_path is not None,
                                            resuming=resuming))
            completed = True
        finally:
            # A cancelled host that leaves (``play``: q, Ctrl-C) has just sent its signed
            # ``abort``: the bots end their match on it and exit by themselves once their
            # logs hold it; stopped at once, their logs would end a step short of the end.
            # A host that steps away (a table with people) leaves its bots waiting for
            # its return: nothing to wait for, they stop at once.
            grace = 5.0 if completed else LEFT_GRACE if config.leave_on_cancel else 0.0
            await reap(procs, grace)
            if tor is not None:
                with trio.CancelScope(shield=True):
                    await tor.aclose()
        return box[0]
    return game
