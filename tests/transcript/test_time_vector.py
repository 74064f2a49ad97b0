"""The published vector of time's trust model and the knock (``tests/vectors/wire_time.json``,
PROTOCOL.md 5.4, 12.3, 12.6, 16): every field issue 40 added to the wire, byte for byte.

- a flag carrying its signer's ``clock`` reading that agrees (the move ran out):
  ``valid``, ``on_time``;
- the same flag disputed by the flagged seat (code 503 ``clock_dispute``, ``evidence`` the
  flag's body, its own ``clock``): ``incomplete``, ``disputed``, no winner;
- a flag whose own reading shows time left: it stands for nothing;
- a ``knock`` frame from a fixed key, citing a nonce sealed under a fixed host secret.

``REGENERATE_WIRE_VECTORS=1 pytest tests/transcript/test_time_vector.py`` rewrites it."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from pathlib import Path

import pytest
from test_on_time import _to_play

from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link.handshake import KNOCK_DOMAIN, Knocks, Lobby, knock_message
from chkobba_p2p.observe.audit import audit_bodies
from chkobba_p2p.transcript.clocks import clock_reading, make_clock
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity, open_entry

VECTOR = Path(__file__).parent.parent / "vectors" / "wire_time.json"
SECRET = bytes(range(32))  # the host process's knock secret (random in play)
NONCE_RANDOM = bytes([0xA5]) * 8  # the nonce's 8 random bytes (random in play)


def _verdict(bodies: list[bytes]) -> dict:
    r = audit_bodies(bodies, workers=0)
    return {"verdict": r.verdict, "code": r.code, "winner": r.winner}


def _nonce(serial: int) -> bytes:
    head = serial.to_bytes(8, "big") + NONCE_RANDOM
    return head + hmac.new(SECRET, head, hashlib.sha256).digest()[:16]


def _build() -> dict:
    ss, ids = _to_play(1, key=b"wire_time vector")
    host, guest = ss
    chain = list(host.bodies)
    clocks = {
        "flag": make_clock(300, 120, 300.2, 120),  # the move ran out: it agrees
        "dispute": make_clock(300, 120, 3.5, 120),  # the seat's own: 296.5 s left
        "refuted": make_clock(300, 120, 3.0, 120),  # the flag's own shows time left
    }
    flag = host.abort(ErrorCode.TIMEOUT, 1, "seat 1 held the floor for more than 300 s",
                      flag=1, clock=clocks["flag"])
    guest.receive(flag)
    dispute = guest.dispute(clocks["dispute"])
    assert dispute is not None
    ss2, _ = _to_play(1, key=b"wire_time vector")
    refuted = ss2[0].abort(ErrorCode.TIMEOUT, 1, "seat 1 held the floor for more than 300 s",
                           flag=1, clock=clocks["refuted"])
    lobby = Lobby(ids[0], "host", Ruleset(), 2)
    lobby.take_seat(ids[1].public, "guest")
    nonce = _nonce(1)
    knock = wire.encode(knock_message(ids[1], ids[0].public, nonce))
    return {
        "host_seed_hex": ids[0].seed.hex(), "guest_seed_hex": ids[1].seed.hex(),
        "chain_bodies_hex": [b.hex() for b in chain], "to_play": 1,
        "clocks_ms": clocks,
        "flag_body_hex": flag.body.hex(),
        "flag_verdict": _verdict([*chain, flag.body]),
        "dispute_body_hex": dispute.body.hex(),
        "dispute_fields": {"code": int(ErrorCode.CLOCK_DISPUTE), "blamed": 0,
                           "evidence_hex": flag.body.hex()},
        "disputed_verdict": _verdict([*chain, flag.body, dispute.body]),
        "refuted_flag_body_hex": refuted.body.hex(),
        "refuted_verdict": _verdict([*chain, refuted.body]),
        "knock": {
            "host_secret_hex": SECRET.hex(), "nonce_serial": 1,
            "nonce_hex": nonce.hex(),
            "signed_hex": (KNOCK_DOMAIN + ids[0].public + nonce).hex(),
            "body_hex": knock.hex(), "frame_hex": wire.frame(knock).hex(),
        },
    }


def test_regenerate_time_vector():
    if os.environ.get("REGENERATE_WIRE_VECTORS") != "1":
        pytest.skip("regeneration only on request")
    VECTOR.write_text(json.dumps(_build(), indent=2, sort_keys=True) + "\n")


def test_the_knock_in_the_vector_is_what_this_implementation_signs():
    """Ed25519 and our encoder are deterministic: the same key, host and nonce give the
    same knock, byte for byte (the chain's entries carry the deal's fresh secrets, so
    only their reading is pinned, below)."""
    assert json.loads(VECTOR.read_text())["knock"] == _build()["knock"]


def test_time_vector_reads_as_published():
    """What a stranger's implementation checks (PROTOCOL.md 12.6, 5.4)."""
    v = json.loads(VECTOR.read_text())
    chain = [bytes.fromhex(b) for b in v["chain_bodies_hex"]]
    flag = open_entry(bytes.fromhex(v["flag_body_hex"]))
    assert flag.kind == "abort" and flag.fields["flag"] == 1
    assert flag.fields["clock"] == v["clocks_ms"]["flag"]
    assert clock_reading(flag.fields["clock"]) == v["clocks_ms"]["flag"]
    dispute = open_entry(bytes.fromhex(v["dispute_body_hex"]))
    # Signed at the flag's head, as the flag was: both cite the same last entry.
    assert dispute.seat == 1 and dispute.prev == flag.prev
    assert dispute.fields["code"] == v["dispute_fields"]["code"] == 503
    assert dispute.fields["blamed"] == v["dispute_fields"]["blamed"]
    assert dispute.fields["evidence"].hex() == v["dispute_fields"]["evidence_hex"]
    assert dispute.fields["clock"] == v["clocks_ms"]["dispute"]
    assert _verdict([*chain, flag.body]) == v["flag_verdict"]
    assert v["flag_verdict"] == {"verdict": "valid", "code": "on_time", "winner": 0}
    assert _verdict([*chain, flag.body, dispute.body]) == v["disputed_verdict"]
    assert v["disputed_verdict"] == {"verdict": "incomplete", "code": "disputed",
                                     "winner": None}
    refuted = bytes.fromhex(v["refuted_flag_body_hex"])
    assert _verdict([*chain, refuted]) == v["refuted_verdict"]
    assert v["refuted_verdict"]["winner"] is None
    k = v["knock"]
    host = Identity.from_seed(bytes.fromhex(v["host_seed_hex"]))
    guest = Identity.from_seed(bytes.fromhex(v["guest_seed_hex"]))
    body = bytes.fromhex(k["body_hex"])
    assert wire.frame(body).hex() == k["frame_hex"]
    msg = wire.decode(body)
    assert msg["t"] == "knock" and msg["key"] == guest.public
    assert msg["nonce"].hex() == k["nonce_hex"]
    assert bytes.fromhex(k["signed_hex"]) == KNOCK_DOMAIN + host.public + msg["nonce"]
    assert wire.verify_signature(guest.public, KNOCK_DOMAIN, host.public + msg["nonce"],
                                 msg["sig"])
    lobby = Lobby(host, "host", Ruleset(), 2)
    lobby.take_seat(guest.public, "guest")
    lobby.game = bytes(16)  # a running game: knocks are for its seats
    knocks = Knocks(lobby, secret=bytes.fromhex(k["host_secret_hex"]))
    assert knocks.serial(msg["nonce"]) == k["nonce_serial"]
    assert knocks.check(msg) == (1, guest.public)
    assert knocks.check(msg) is None  # seen once, never again
