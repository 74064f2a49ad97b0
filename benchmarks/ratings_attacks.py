"""Issue 42's attacks on the ratings, rerun as figures (items 1 and 3).

Run: python benchmarks/ratings_attacks.py
Prints one figure per line (`name: value unit`).  Every match is a real, VALID log: played
in process by the library's sessions (tests/support/history.py), the loser, seated as the
host, resigning after a few steps (so the attacker chooses who wins, as an attacker
playing against its own keys does), then audited by ``index_logs``.  The viewer is a
person, ``me``, who has played the farmer once (so the farmer's key is met).

(a) the farm: a key seated against the ``expert`` level's public key at tables the viewer
    did not host, winning 26 of 30; (b) 30 fresh sock-puppet keys, each beaten once;
(c) the same 13 matches between five people, their header dates (unsigned) reversed: the
    largest move of a rating; (d) where bot vouchers exist (PROTOCOL.md 5.6): the farmer
    hosting its own "expert", a puppet key it vouches for in its logs' headers, winning
    26 of 30 (the anchor counts: the host's word; the viewer did not host it).

Before/after: run it against another checkout with PYTHONPATH pointing there (the
figures about what is unrated print only where :func:`history.standings` exists).
"""

from __future__ import annotations

import datetime
import hashlib
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from support.audit import play  # noqa: E402
from support.history import _sessions, write_log  # noqa: E402

from chkobba_p2p.observe import history  # noqa: E402
from chkobba_p2p.observe.history import Game, games, index_logs, ratings  # noqa: E402
from chkobba_p2p.observe.rating import bot_seed  # noqa: E402
from chkobba_p2p.wire.codec import ErrorCode, Identity  # noqa: E402

Named = tuple[str, Identity]


def person(name: str) -> Named:
    return name, Identity.from_seed(hashlib.sha256(b"attack/" + name.encode()).digest())


ME, FARMER = person("me"), person("farmer")
EXPERT: Named = ("expert", Identity.from_seed(bot_seed("expert", 1)))


def day(i: int) -> str:
    when = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC) + datetime.timedelta(days=i)
    return when.isoformat(timespec="seconds")


def match(folder: Path, label: str, winner: Named, loser: Named, date: str,
          host: Named | None = None, bots: list[dict] | None = None) -> None:
    """A valid log of a match ``winner`` won: ``loser``, the host, resigns (or, with
    ``host``, that one hosts, and resigns if it loses; ``bots``: the header's vouchers)."""
    seated = [loser, winner] if host is None or host == loser else [winner, loser]
    quits = seated.index(loser)
    p = play(2, sessions=_sessions([i for _, i in seated], [n for n, _ in seated], label),
             stop_after=6, abort_by=quits, abort_code=ErrorCode.RESIGNED, seed=5)
    if bots is None:
        write_log(p, folder / f"{label}.chklog", 0, date)
    else:
        write_log(p, folder / f"{label}.chklog", 0, date, bots)


def show(label: str, gs: list[Game], who: Named, bots: bool) -> None:
    r = ratings(gs, bots=bots)[2][who[1].public]
    print(f"{label} rating: {r.rating:.0f} points")
    print(f"{label} deviation (rd): {r.rd:.0f} points")
    print(f"{label} provisional (rd > 110): {int(r.provisional)} bool")
    if hasattr(history, "standings"):
        s = history.standings(gs, [ME[1].public], bots=bots)[2][who[1].public]
        print(f"{label} matches against keys the viewer never met: {s.unmet}/{s.games} "
              "matches")
        print(f"{label} unrated for the viewer: {int(s.unrated)} bool")


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        met = root / "met.chklog"
        match(root, "met", ME, FARMER, day(0))
        farm, socks = root / "farm", root / "socks"
        for folder in (farm, socks):
            folder.mkdir()
            (folder / met.name).write_bytes(met.read_bytes())
        # (a) 26 wins of 30 against the expert level's public key, nobody watching.
        for i in range(30):
            win, lose = (FARMER, EXPERT) if i < 26 else (EXPERT, FARMER)
            match(farm, f"farm-{i}", win, lose, day(1 + i))
        show("a) expert farm", games(index_logs(farm)), FARMER, bots=True)
        # (b) 30 fresh keys, each beaten once.
        for i in range(30):
            match(socks, f"sock-{i}", FARMER, person(f"puppet {i}"), day(40 + i))
        show("b) sock puppets", games(index_logs(socks)), FARMER, bots=False)
        # (c) 13 matches between five people, a streak then its reverse; the same logs
        # with their header dates reversed.
        people = [person(n) for n in ("amel", "sami", "bilel", "dora", "hedi")]
        pairs = [(0, 1), (0, 2), (0, 3), (0, 4), (0, 1), (0, 2), (1, 2), (3, 4),
                 (1, 0), (2, 0), (3, 0), (4, 0), (1, 0)]
        pools = []
        for name, sign in (("forward", 1), ("backward", -1)):
            folder = root / name
            folder.mkdir()
            for i, (a, b) in enumerate(pairs):
                match(folder, f"m{i}", people[a], people[b], day(150 + sign * i))
            pools.append(ratings(games(index_logs(folder)))[2])
        one, two = pools
        move = max(abs(one[k].rating - two[k].rating) for k in one)
        print(f"c) largest move with the dates reversed: {move:.1f} points")
        try:
            from chkobba_p2p.observe.vouch import voucher
        except ImportError:
            return 0  # before bot vouchers
        # (d) the farmer's own "expert": a puppet it vouches for at its own tables.
        own = root / "own"
        own.mkdir()
        (own / met.name).write_bytes(met.read_bytes())
        puppet = person("vouched puppet")
        vouch = [{"key": puppet[1].public, "level": "expert",
                  "sig": voucher(FARMER[1], puppet[1].public, "expert")}]
        for i in range(30):
            win, lose = (FARMER, puppet) if i < 26 else (puppet, FARMER)
            match(own, f"own-{i}", win, lose, day(200 + i), host=FARMER, bots=vouch)
        show("d) self-vouched expert", games(index_logs(own)), FARMER, bots=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
