"""The transcript vectors' regeneration (``REGENERATE_WIRE_VECTORS=1``): a 2-seat match of
real sessions (played by greedy bots up to a chosen entry, for the shares-ride and
next-deck vectors), written as the guest's log (``NAME.chklog``) beside what its test
checks of each entry (``NAME.json``; the short and proof-apart vectors too).  Identities,
game id and deal masters are fixed; the proofs' nonces and the log header's date are
not, so a regeneration changes bytes, never what the tests check of them."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from chkobba_p2p.transcript.session import Session
from chkobba_p2p.transcript.table import TableInfo
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import Identity
from chkobba_p2p.wire.logfile import TranscriptWriter

__all__ = ["VECTORS", "REGEN", "seed", "regenerate_two_seat_vector", "write_two_seat_vector",
           "play_until"]

#: The vectors' folder (``tests/vectors``).
VECTORS = Path(__file__).parent.parent / "vectors"
#: Whether this run regenerates the vectors (``REGENERATE_WIRE_VECTORS=1``).
REGEN = os.environ.get("REGENERATE_WIRE_VECTORS") == "1"


def seed(i: int) -> bytes:
    """A vector's fixed 32-byte secret: ``i`` repeated."""
    return bytes([i]) * 32


def regenerate_two_seat_vector(name: str, table: TableInfo, masters: tuple[int, int],
                               until: Callable[[list[bytes]], bool],
                               items: Callable[[wire.Entry], dict[str, object]]) -> None:
    """Play ``table`` (seat 0: the identity of ``seed(1)``, seat 1: ``seed(2)``; their
    deal masters ``seed(masters[0])`` and ``seed(masters[1])``) with greedy bots until
    ``until`` holds of the bodies made so far (the genesis first), and write the vector
    (:func:`write_two_seat_vector`)."""
    ids = [Identity.from_seed(seed(1)), Identity.from_seed(seed(2))]
    host, genesis = Session.create(ids[0], table, master=seed(masters[0]))
    guest = Session.join(ids[1], genesis, ids[0].public, master=seed(masters[1]))
    bodies = play_until([host, guest], [genesis.body], until)
    write_two_seat_vector(name, table, bodies, masters[1], items)


def play_until(sessions: list[Session], bodies: list[bytes],
               until: Callable[[list[bytes]], bool]) -> list[bytes]:
    """Greedy bots play ``sessions`` (seat order), each entry made delivered to every
    other session and added to ``bodies`` (the genesis first), until ``until`` holds of
    ``bodies``; returns ``bodies``."""
    from chkobba_p2p.bots.levels import make_bot

    bots = [make_bot("greedy", i) for i in range(len(sessions))]
    while not until(bodies):
        for s in sessions:
            d = s.decision
            if d is not None:
                bot = bots[s.own_seat]
                s.decide(bot.choose_play(d.hand) if d.kind == "play"
                         else bot.choose_cut(d.hand))
            e = s.next_entry()
            if e is not None:
                bodies.append(e.body)
                for o in sessions:
                    if o is not s:
                        o.receive(wire.open_entry(e.body))
                break
    return bodies


def write_two_seat_vector(name: str, table: TableInfo, bodies: list[bytes],
                          guest_master: int,
                          items: Callable[[wire.Entry], dict[str, object]]) -> None:
    """Write ``VECTORS/name.chklog`` (``bodies`` as the guest's log: seat 1, the identity
    of ``seed(2)``) and ``VECTORS/name.json``: the two seats' seeds (``seed(1)``,
    ``seed(2)``), the guest's master (``seed(guest_master)``), each entry's kind, seat,
    id and ``items(entry)``, the head's id."""
    path = VECTORS / f"{name}.chklog"
    path.unlink(missing_ok=True)
    w = TranscriptWriter(path)
    w.write_header(game=table.game, seat=1, key=Identity.from_seed(seed(2)).public,
                   name="guest", host="127.0.0.1:7777")
    for b in bodies:
        w.append(b)
    w.close()
    entries = [wire.open_entry(b) for b in bodies]
    (VECTORS / f"{name}.json").write_text(json.dumps({
        "host_seed_hex": seed(1).hex(), "guest_seed_hex": seed(2).hex(),
        "guest_master_hex": seed(guest_master).hex(),
        "entries": [{"kind": e.kind, "seat": e.seat, **items(e), "id_hex": e.id.hex()}
                    for e in entries],
        "head_hex": entries[-1].id.hex()}, indent=2, sort_keys=True) + "\n")
