"""A player who leaves a game against local bots (``chkobba play``'s q or Ctrl-C): the
host signs its ``abort`` (``peer_left``, against itself) and sends it as it closes; the
bot peers, separate processes, must get it into their own logs before they are
stopped.  Stopped at once, a bot's log ended one entry short: INCOMPLETE, "the match
did not finish", beside the player's VALID log of the same game."""

from __future__ import annotations

import trio

from chkobba_cli.support.hosting import hosting
from chkobba_p2p import HostConfig
from chkobba_p2p.observe.audit import audit_log
from chkobba_p2p.testing import GatedController


async def test_the_bots_logs_hold_the_players_leaving(tmp_path):
    log = tmp_path / "play.chklog"
    config = HostConfig(port=0, bind="127.0.0.1", beacon=False, log_path=log,
                        leave_on_cancel=True)
    game = hosting(config, 1, "greedy", 5)
    person = GatedController(2)  # holds the floor at its second play, as a player who quits
    with trio.fail_after(120):
        with trio.CancelScope() as scope:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(game, person)
                await person.holding.wait()
                scope.cancel()  # what the screen does on q: the peer is cancelled
    mine = audit_log(log)
    assert (mine.verdict, mine.code, mine.blamed) == ("valid", "left", 0)
    bot = audit_log(log.with_name(f"{log.stem}-bot1.chklog"))
    assert (bot.verdict, bot.code, bot.blamed) == ("valid", "left", 0), bot.reason
    assert bot.entries == mine.entries
