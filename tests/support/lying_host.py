"""A host that lies about time, in a process of its own over loopback TCP, for the
end-to-end tests of PROTOCOL.md 12.6 (issue 40, case 1): it announces ``MOVE`` seconds a
move in every welcome while it enforces a move clock of ``LIMIT`` seconds, so it flags a
seat whose own clock shows most of the move left.  Seat 0 is a greedy bot.

    python tests/support/lying_host.py PORT LOG LIMIT MOVE

It prints ``listening PORT`` once it accepts connections."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import trio

from chkobba_p2p._shell.config import HostConfig, Timeouts
from chkobba_p2p._shell.peer import BotController
from chkobba_p2p.testing import lying_host


async def main(port: int, log: Path, limit: float, move: int) -> None:
    timeouts = dataclasses.replace(Timeouts(), turn=limit)
    cfg = HostConfig(players=2, port=port, bind="127.0.0.1", beacon=False, name="amel",
                     log_path=log, timeouts=timeouts, shuffle_proofs=False)
    host = lying_host(move=move, away=120)(cfg, BotController("greedy", 0))
    async with trio.open_nursery() as nursery:
        await nursery.start(host.run)
        print(f"listening {port}", flush=True)


if __name__ == "__main__":
    trio.run(main, int(sys.argv[1]), Path(sys.argv[2]), float(sys.argv[3]),
             int(sys.argv[4]))
