"""A complete bot peer in about a hundred lines, on the library's protocol layer alone.

No trio, no CLI, no ``chkobba_p2p._shell``: one blocking TCP socket, and the face for
protocol implementers, :mod:`chkobba_p2p.lowlevel`: the wire codec and the sans-IO
session, which does every check (signatures, the hash chain, the floor, the rules, the
mental-poker deal).
It is what a client in another language would do, following PROTOCOL.md.

    python examples/socket_bot.py HOST:PORT [--name NAME]

Start a table first, e.g. ``chkobba host --headless --players 2``.  Prints the result and
exits 0 when the match completes.
"""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path

# Run from a checkout without installing: the package is next to this directory.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chkobba_p2p import lowlevel  # noqa: E402
from chkobba_p2p.bots.simple import GreedyBot  # noqa: E402
from chkobba_p2p.lowlevel import ClientHandshake, GameFault, Session  # noqa: E402


class Connection:
    """Frames over a blocking socket (PROTOCOL.md section 2)."""

    def __init__(self, host: str, port: int) -> None:
        self.sock = socket.create_connection((host, port), timeout=60)
        self.decoder = lowlevel.FrameDecoder()
        self.ready: list[bytes] = []

    def receive(self) -> tuple[bytes, lowlevel.Frame]:
        """The next frame body (kept exact: entries are verified on these bytes) and what
        it is: a link message, a signed entry, an unknown or a malformed message."""
        while not self.ready:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("the host closed the connection")
            self.ready.extend(self.decoder.feed(data))
        body = self.ready.pop(0)
        return body, lowlevel.read_frame(body)

    def send(self, body: bytes) -> None:
        self.sock.sendall(lowlevel.frame(body))


def play(address: str, name: str) -> int:
    host, _, port = address.rpartition(":")
    conn = Connection(host or "127.0.0.1", int(port or 7777))
    me = lowlevel.Identity.generate()  # a fresh identity key for this game
    bot = GreedyBot()

    # Handshake (section 5): the host greets, we say hello with a proof of possession of
    # our key, the host welcomes us with its own proof.
    hs = ClientHandshake(me, name)
    greeting_body, greeting = conn.receive()
    conn.send(lowlevel.encode(hs.on_host(greeting, greeting_body)))  # signs the exact bytes
    welcome_body, welcome = conn.receive()
    seat = hs.on_welcome(welcome, welcome_body)
    print(f"seated at seat {seat} with {hs.host_name} ({lowlevel.fingerprint(hs.host_key)})")

    session: Session | None = None
    while session is None or not session.finished:
        body, msg = conn.receive()
        if isinstance(msg, lowlevel.Ping):
            conn.send(lowlevel.encode(lowlevel.Pong().to_wire()))
            continue
        if not isinstance(msg, lowlevel.Signed):
            continue  # lobby, wait, back...: display only; unknown types are ignored
        entry = lowlevel.open_entry(msg.body, msg.msg)
        try:
            if session is None:  # the genesis: the table as the host signed it
                session = Session.join(me, entry, hs.host_key)
            else:
                session.receive(entry)  # every check happens here
        except GameFault as fault:  # an illegal move or a failed proof: blame, stop
            conn.send(session.abort(fault.error_code, fault.blamed_seat, fault.detail,
                                    body).body)
            break
        # Our turn to speak?  Decide if the game waits for us, then send our entry.
        while True:
            decision = session.decision
            if decision is not None:
                if decision.kind == "play":
                    session.decide(bot.choose_play(decision.hand))
                else:
                    session.decide(bot.choose_cut(decision.hand))
            out = session.next_entry()
            if out is None:
                break
            conn.send(out.body)
    conn.sock.shutdown(socket.SHUT_WR)  # let everything we sent arrive, then close
    conn.sock.close()
    if session is not None and session.done is not None:
        d = session.done
        t = session.table  # the winners by name: seats of the winning side
        won = [s.name for s in t.seats if s.seat % (2 if t.players == 4 else t.players)
               == d.winner_side]
        hands = "1 hand" if d.hands == 1 else f"{d.hands} hands"
        print(f"result: match over after {hands}: {' and '.join(won)} "
              f"{'win' if len(won) > 1 else 'wins'} {d.score}")  # the winner's total first
        return 0
    print(f"result: game aborted: {session.aborted if session else 'no game'}")
    return 3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("address", help="HOST:PORT of a table")
    parser.add_argument("--name", default="socket-bot")
    args = parser.parse_args()
    return play(args.address, args.name)


if __name__ == "__main__":
    sys.exit(main())
