"""A bot peer in its own process, for ``chkobba play``: joins a table over loopback.

``python -m chkobba_cli.support.botproc HOST:PORT --level greedy --seed 7 --name bot1`` -- the same
public API any client uses (:func:`chkobba_p2p.join_match`), with a seeded bot so a
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
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the key work only when a bot is told its table
    from chkobba_p2p import Identity, SeatLock


def bot_line(host: Identity, level: str, index: int) -> str:
    """The line a local bot reads on its stdin, never on its command line (any user of
    this machine reads those): the seed of its key, derived from the host's identity,
    and the host's voucher that the key is its bot of ``level`` (PROTOCOL.md 5.6), hex.
    Nobody but this host can then sit, come back or knock as this bot."""
    from chkobba_p2p.observe.vouch import bot_identity, voucher

    bot = bot_identity(host, level, index)
    return f"{bot.seed.hex()} {voucher(host, bot.public, level).hex()}"


def read_bot_line(line: str, level: str) -> tuple[Identity, tuple[str, bytes]] | None:
    """The key and voucher of :func:`bot_line` (None: an empty or unreadable line)."""
    from chkobba_p2p import Identity

    try:
        seed, sig = (bytes.fromhex(x) for x in line.split())
        return Identity.from_seed(seed), (level, sig)
    except ValueError:
        return None


#: Seconds a host's bot for a new table waits for an older process of it to end (one
#: still finishing the match before, at this address, with the seat's saved game).
KEEP_WAIT = 60.0


def keep_game(identity: Identity, address: str, resuming: bool, wait: float = KEEP_WAIT
              ) -> tuple[Path | None, SeatLock | None] | None:
    """Where a host's bot keeps its game at the table ``address`` (its saved game, as a
    person's ``join`` keeps one: the secrets its seat plays with), with the lock that
    makes it the one process playing that seat.

    ``resuming``: the host restarted its game and started its bots again.  Each new one
    resumes the game its predecessor saved, when that one died with the host or stopped
    waiting for it; when it still lives (it comes back to the seat by itself) the new
    one leaves the seat to it: None.  Either way no new bot sits afresh at a running
    game, where it could only tell the host that its seat is away, its secrets being
    elsewhere, and lose the match on time for the host's restart.

    Otherwise (a new table): a save of an older game at this address is of a game the
    host no longer plays (it would have resumed it): it is filed aside, and the bot
    joins afresh.  An older process of this bot still finishing a match here is waited
    for (up to ``wait`` seconds; then this bot keeps nothing: ``(None, None)``)."""
    import time

    from chkobba_p2p import SavedGame, SeatBusy, SeatLock, saved_game_path, split_join_code

    table, _ = split_join_code(address)
    state = saved_game_path(identity.fingerprint, table)
    deadline = time.monotonic() + wait
    while True:
        try:
            lock = SeatLock(state).acquire()
            break
        except SeatBusy:
            if resuming:
                return None
            if time.monotonic() > deadline:
                return None, None
            time.sleep(0.2)
    if not resuming and state.exists():
        SavedGame.file_aside(state)
    return state, lock


class EarlyBots:
    """Bot processes started before the table listens, each waiting on its stdin for
    the address (:meth:`go`)."""

    def __init__(self, count: int, level: str, seed: int | None) -> None:
        self.level = level
        self.procs: list[subprocess.Popen] = []
        for i in range(count):
            cmd = [sys.executable, "-m", "chkobba_cli.support.botproc", "-",
                   "--level", level, "--name", f"bot{i + 1}", "--index", str(i + 1)]
            if seed is not None:
                cmd += ["--seed", str(seed + i)]
            # Their output must not reach the terminal the full-screen UI draws on.
            self.procs.append(subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True))

    def go(self, address: str, log_path: Path | None, host: Identity | None = None
           ) -> None:
        """Tell every bot the table's address; each bot's log is named after the game's.
        ``host``: the host's identity, whose bots they are (:func:`bot_line`)."""
        for i, p in enumerate(self.procs):
            log = "" if log_path is None else \
                str(log_path.with_name(f"{log_path.stem}-bot{i + 1}.chklog"))
            cred = "" if host is None else bot_line(host, self.level, i + 1)
            assert p.stdin is not None
            try:
                p.stdin.write(f"{address}\n{log}\n{cred}\n".encode())
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
    # The library before trio: its first import loads libsodium (rbcl), some 12 MB for a
    # moment; with trio already loaded that moment would be the bot's peak memory, and
    # before it the memory is reused by what follows (issue 44).
    from chkobba_p2p import BotController, Identity, JoinConfig, Timeouts, join_match
    from chkobba_p2p.bots.levels import LEVELS
    from chkobba_p2p.observe.rating import bot_seed

    import trio  # isort: skip - after the library (above)

    p = argparse.ArgumentParser(prog="chkobba-bot-peer")
    p.add_argument("address", help="HOST:PORT, or - to read it (then the log path) from stdin")
    p.add_argument("--level", default="greedy", choices=sorted(LEVELS))
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--name", default="bot")
    p.add_argument("--index", type=int, default=1, help="which bot of the table (1, 2, 3): "
                   "with the level, it names the bot's well-known key")
    p.add_argument("--log", default=None)
    p.add_argument("--reconnect-timeout", type=float, default=10.0,
                   help="the allowance of time away until the host announces its own")
    p.add_argument("--keep-game", action="store_true",
                   help="a host that can resume its game (a fixed port): save this bot's "
                        "game, so that the host's restart resumes it (keep_game)")
    p.add_argument("--resuming", action="store_true",
                   help="with --keep-game: the host resumes its saved game (keep_game)")
    args = p.parse_args(argv)
    address, log = args.address, args.log
    cred = None
    if address == "-":
        address = sys.stdin.readline().strip()
        log = sys.stdin.readline().strip() or log
        cred = read_bot_line(sys.stdin.readline(), args.level)
        if not address:
            return 0  # the client gave up before its table listened
    # The host's bot: a key derived from the host's identity, with its voucher (the logs
    # show which seats were its bots, and ratings read against them).  Told none (an
    # older host's way): a bot level's well-known key, which anyone can sign as.
    identity, bot = cred if cred is not None else \
        (Identity.from_seed(bot_seed(args.level, args.index)), None)
    state = lock = None
    if args.keep_game and bot is not None:
        kept = keep_game(identity, address, args.resuming)
        if kept is None:
            return 0  # another process of this bot plays the seat
        state, lock = kept
    try:
        config = JoinConfig(address, name=args.name, identity=identity,
                            log_path=Path(log) if log else None, state_path=state,
                            timeouts=Timeouts(reconnect=args.reconnect_timeout), bot=bot,
                            claims_host_gone=state is None)
        outcome = trio.run(join_match, config, BotController(args.level, args.seed))
    finally:
        if lock is not None:
            lock.release()
    return 0 if outcome.completed else 3


if __name__ == "__main__":
    sys.exit(main())
