"""A bot peer in its own process, for ``chkobba play``: joins a table over loopback.

``python -m chkobba_cli.tui.botproc HOST:PORT --level greedy --seed 7 --name bot1`` -- the same
public API any client uses (:func:`chkobba_p2p._shell.peer.join_match`), with a seeded bot so a
test game's play style is reproducible (the deal itself never is: it is cryptographic).

With ``-`` for the address the bot is started before the table exists (:class:`EarlyBots`,
the very first thing ``chkobba play`` does): it imports the peer stack while the client
imports its own, then reads the table's address, and its log path (an empty line: none),
from its stdin.  Its stdin closed with no address: the client gave up, the bot ends.
This module imports nothing heavy until it runs as the bot (``chkobba play`` imports it
to start the bots).
"""

from __future__ import annotations

import argparse
import contextlib
import subprocess
import sys
from pathlib import Path


class EarlyBots:
    """Bot processes started before the table listens, each waiting on its stdin for
    the address (:meth:`go`)."""

    def __init__(self, count: int, level: str, seed: int | None) -> None:
        self.procs: list[subprocess.Popen] = []
        for i in range(count):
            cmd = [sys.executable, "-m", "chkobba_cli.tui.botproc", "-",
                   "--level", level, "--name", f"bot{i + 1}", "--index", str(i + 1)]
            if seed is not None:
                cmd += ["--seed", str(seed + i)]
            # Their output must not reach the terminal the full-screen UI draws on.
            self.procs.append(subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True))

    def go(self, address: str, log_path: Path | None) -> None:
        """Tell every bot the table's address; each bot's log is named after the game's."""
        for i, p in enumerate(self.procs):
            log = "" if log_path is None else \
                str(log_path.with_name(f"{log_path.stem}-bot{i + 1}.chklog"))
            assert p.stdin is not None
            try:
                p.stdin.write(f"{address}\n{log}\n".encode())
                p.stdin.close()
            except OSError:  # it died already: the table sees a seat that never comes
                pass

    def close(self) -> None:
        """Bots not yet told an address end (their stdin closes); the others go on."""
        for p in self.procs:
            if p.stdin is not None and not p.stdin.closed:
                with contextlib.suppress(OSError):
                    p.stdin.close()


def main(argv: list[str] | None = None) -> int:
    import trio

    from chkobba_p2p import BotController, Identity, JoinConfig, Timeouts, join_match
    from chkobba_p2p.bots.levels import LEVELS
    from chkobba_p2p.observe.rating import bot_seed

    p = argparse.ArgumentParser(prog="chkobba-bot-peer")
    p.add_argument("address", help="HOST:PORT, or - to read it (then the log path) from stdin")
    p.add_argument("--level", default="greedy", choices=sorted(LEVELS))
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--name", default="bot")
    p.add_argument("--index", type=int, default=1, help="which bot of the table (1, 2, 3): "
                   "with the level, it names the bot's well-known key")
    p.add_argument("--log", default=None)
    p.add_argument("--reconnect-timeout", type=float, default=10.0)
    args = p.parse_args(argv)
    address, log = args.address, args.log
    if address == "-":
        address = sys.stdin.readline().strip()
        log = sys.stdin.readline().strip() or log
        if not address:
            return 0  # the client gave up before its table listened
    # A bot level's well-known key (chkobba_p2p.observe.rating.bot_seed): the logs show which
    # seats were which bots, and ratings read against them.
    identity = Identity.from_seed(bot_seed(args.level, args.index))
    config = JoinConfig(address, name=args.name, identity=identity,
                        log_path=Path(log) if log else None,
                        timeouts=Timeouts(reconnect=args.reconnect_timeout))
    outcome = trio.run(join_match, config, BotController(args.level, args.seed))
    return 0 if outcome.completed else 3


if __name__ == "__main__":
    sys.exit(main())
