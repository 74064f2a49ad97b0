"""The wire format against its test vectors (``tests/vectors/wire_*``, ``transcript_*``),
plus framing and codec properties.

The vectors are what PROTOCOL.md's readers check their own implementation against.
``REGENERATE_WIRE_VECTORS=1 pytest tests/wire/test_wire.py`` rewrites them (review the diff!).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.vectors import write_two_seat_vector

from chkobba_p2p.deal import crypto as dc
from chkobba_p2p.deal import group
from chkobba_p2p.deal.core import run_job
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link.handshake import ClientHandshake, HostHandshake, Lobby
from chkobba_p2p.transcript.caps import CAP_PROOF_APART, CAP_SHUFFLE_PROOFS, TABLE_CAPABILITIES
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.transcript.table import SeatInfo, TableInfo
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity, ProtocolError
from chkobba_p2p.wire.logfile import MAGIC, LogUnreadable, read_header, read_log

VECTORS = Path(__file__).parent.parent / "vectors"
REGEN = os.environ.get("REGENERATE_WIRE_VECTORS") == "1"


def _load(name: str) -> dict:
    return json.loads((VECTORS / name).read_text())


def _save(name: str, data: dict) -> None:
    (VECTORS / name).write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")


def _seed(i: int) -> bytes:
    return bytes([i]) * 32


# ----------------------------------------------------------------------------- framing


def _framing_cases() -> list[tuple[str, dict]]:
    return [
        ("ping", {"t": "ping"}),
        ("error", {"t": "error", "code": 302, "name": "out_of_turn",
                   "msg": "a signed entry from a seat that does not hold the floor"}),
        ("wait", {"t": "wait", "seat": 2, "secs": 57}),
        ("bytes and lists", {"t": "x-example", "b": bytes(range(5)), "l": [1, -1, None, True]}),
    ]


@pytest.mark.skipif(not REGEN, reason="regeneration only on request")
def test_regenerate_framing():
    _save("wire_framing.json", {"cases": [
        {"name": n, "frame_hex": wire.frame(wire.encode(m)).hex()}
        for n, m in _framing_cases()]})


def test_framing_vectors():
    cases = {c["name"]: bytes.fromhex(c["frame_hex"]) for c in _load("wire_framing.json")["cases"]}
    for name, msg in _framing_cases():
        data = cases[name]
        assert wire.frame(wire.encode(msg)) == data
        assert int.from_bytes(data[:4], "big") == len(data) - 4
        (body,) = wire.FrameDecoder().feed(data)
        assert wire.decode(body) == msg


@given(st.lists(st.binary(max_size=300), max_size=8), st.integers(1, 50))
def test_frame_decoder_reassembles_any_split(bodies, chunk):
    data = b"".join(wire.frame(b) for b in bodies)
    dec = wire.FrameDecoder()
    out = []
    for i in range(0, len(data), chunk):
        out.extend(dec.feed(data[i:i + chunk]))
    assert out == bodies
    assert not dec.pending


def test_oversized_frame_refused_before_the_body_arrives():
    dec = wire.FrameDecoder()
    with pytest.raises(ProtocolError) as exc:
        dec.feed((wire.MAX_FRAME + 1).to_bytes(4, "big"))
    assert exc.value.error_code is ErrorCode.FRAME_TOO_LARGE


@pytest.mark.parametrize("body", [
    b"", b"\xc1", b"\x92\x01\x02",  # nothing, never-valid byte, an array not a map
    wire.encode({"t": 1}), wire.encode({"t": "x", "f": 1.5}),  # non-str type, a float
    wire.encode({"t": "x"}) + b"\x00",  # trailing bytes
    b"\x81\xa1t\xc7\x01\x05\x00",  # an extension type
])
def test_malformed_messages_refused(body):
    with pytest.raises(ProtocolError) as exc:
        wire.decode(body)
    assert exc.value.error_code in (ErrorCode.MALFORMED, ErrorCode.BAD_FIELD)


def test_error_codes_from_the_wire_are_integers_that_name_a_code():
    assert ErrorCode.from_wire(202) is ErrorCode.TABLE_FULL
    assert ErrorCode.from_wire(ErrorCode.SHUTDOWN) is ErrorCode.SHUTDOWN
    for junk in (999, -1, True, 202.0, "202", b"\xca", None, [202], {202: 1}):
        assert ErrorCode.from_wire(junk) is None, junk


def test_unknown_fields_are_kept_and_ignored():
    msg = wire.decode(wire.encode({"t": "ping", "future": [1, 2]}))
    assert msg["t"] == "ping"


# --------------------------------------------------------------------------- signature


def _signature_case() -> wire.Entry:
    ident = Identity.from_seed(_seed(7))
    return wire.make_entry(ident, game=bytes(range(16)), seat=1, seq=3, prev=bytes(32),
                           kind="turn", body={"d": [], "a": {"t": "cut", "keep": True}})


@pytest.mark.skipif(not REGEN, reason="regeneration only on request")
def test_regenerate_signature():
    e = _signature_case()
    _save("wire_signature.json", {
        "seed_hex": _seed(7).hex(), "public_hex": Identity.from_seed(_seed(7)).public.hex(),
        "domain_hex": wire.ENTRY_DOMAIN.hex(), "payload_hex": e.payload.hex(),
        "signature_hex": e.signature.hex(), "frame_body_hex": e.body.hex(),
        "entry_id_hex": e.id.hex(), "chain_domain_hex": wire.CHAIN_DOMAIN.hex()})


def test_signature_vector():
    v = _load("wire_signature.json")
    ident = Identity.from_seed(bytes.fromhex(v["seed_hex"]))
    assert ident.public.hex() == v["public_hex"]
    e = _signature_case()
    payload = bytes.fromhex(v["payload_hex"])
    assert e.payload == payload  # canonical msgpack of the fields, in insertion order
    assert e.signature.hex() == v["signature_hex"]  # Ed25519 is deterministic
    assert e.body.hex() == v["frame_body_hex"]
    assert wire.verify_signature(ident.public, bytes.fromhex(v["domain_hex"]), payload,
                                 bytes.fromhex(v["signature_hex"]))
    assert wire.entry_id(payload).hex() == v["entry_id_hex"]
    opened = wire.open_entry(bytes.fromhex(v["frame_body_hex"]))
    assert opened.fields["a"] == {"t": "cut", "keep": True}
    # The signature covers the exact bytes: a re-encoding with another (valid) msgpack
    # form of the same map does not verify.
    flipped = bytearray(payload)
    flipped[-1] ^= 1
    assert not wire.verify_signature(ident.public, wire.ENTRY_DOMAIN, bytes(flipped),
                                     e.signature)


# ------------------------------------------------------------- card point, share proof


@pytest.mark.skipif(not REGEN, reason="regeneration only on request")
def test_regenerate_deal_vectors():
    _save("wire_card_point.json", {"card": "7D", "id": 26,
                                   "tag": dc.TAG_CARD.decode(),
                                   "point_hex": dc.card_point(26).hex()})
    x = 1234567890123456789
    y = group.base_mul(x)
    ctx = [b"vector-session", dc.u64(1), dc.u64(0), dc.u64(2), y, group.base_mul(99)]
    r = 424242
    c1 = group.base_mul(r)
    c2 = group.add(dc.card_point(26), group.mul(r, group.add(y, group.base_mul(99))))
    ds, proof = dc.prove_shares(x, ctx, 0, b"step" + dc.u64(0), [5], [c1])
    _save("wire_decryption_share.json", {
        "x": str(x), "y_hex": y.hex(), "ctx_hex": [p.hex() for p in ctx], "seat": 0,
        "purpose_hex": (b"step" + dc.u64(0)).hex(), "positions": [5], "c1_hex": [c1.hex()],
        "c2_hex": c2.hex(), "other_share_hex": group.mul(99, c1).hex(),
        "d_hex": [d.hex() for d in ds], "proof_hex": proof.hex(), "card_id": 26})


def test_card_point_vector():
    v = _load("wire_card_point.json")
    point = bytes.fromhex(v["point_hex"])
    assert dc.card_point(v["id"]) == point
    assert group.hash_to_point(v["tag"].encode(), bytes([v["id"]])) == point
    assert group.decode_point(point) == point


def test_decryption_share_vector():
    v = _load("wire_decryption_share.json")
    y = bytes.fromhex(v["y_hex"])
    ctx = [bytes.fromhex(p) for p in v["ctx_hex"]]
    c1s = [bytes.fromhex(c) for c in v["c1_hex"]]
    ds = [bytes.fromhex(d) for d in v["d_hex"]]
    proof = bytes.fromhex(v["proof_hex"])
    purpose = bytes.fromhex(v["purpose_hex"])
    assert group.base_mul(int(v["x"])) == y
    assert ds == [group.mul(int(v["x"]), c) for c in c1s]
    assert dc.verify_shares(y, ds, proof, ctx, v["seat"], purpose, v["positions"], c1s)
    # Bound to the statement: another seat, purpose or position fails.
    assert not dc.verify_shares(y, ds, proof, ctx, 1, purpose, v["positions"], c1s)
    assert not dc.verify_shares(y, ds, proof, ctx, v["seat"], b"play", v["positions"], c1s)
    assert not dc.verify_shares(y, ds, proof, ctx, v["seat"], purpose, [6], c1s)
    # Both shares remove the mask: the card point appears.
    m = group.sub(group.sub(bytes.fromhex(v["c2_hex"]), ds[0]),
                  bytes.fromhex(v["other_share_hex"]))
    assert m == dc.card_point(v["card_id"])


# ------------------------------------------------------------------ short transcript


def _short_table() -> TableInfo:
    seats = tuple(SeatInfo(i, Identity.from_seed(_seed(i + 1)).public, n)
                  for i, n in enumerate(("host", "guest")))
    return TableInfo(bytes(range(100, 116)), 1, 2, Ruleset(), seats)


@pytest.mark.skipif(not REGEN, reason="regeneration only on request")
def test_regenerate_transcript():
    table = _short_table()
    ids = [Identity.from_seed(_seed(1)), Identity.from_seed(_seed(2))]
    host, genesis = Session.create(ids[0], table, master=_seed(50))
    guest = Session.join(ids[1], genesis, ids[0].public, master=_seed(51))
    sessions = [host, guest]
    bodies = [genesis.body]
    while len(bodies) < 7:  # genesis, two readies, then each seat's keys and shuffles
        for s in sessions:
            e = s.next_entry()
            if e is not None:
                bodies.append(e.body)
                other = sessions[1 - s.seat]
                other.receive(wire.open_entry(e.body))
    write_two_seat_vector("transcript_short", table, bodies, 51, lambda e: {})


def test_short_transcript_vector():
    v = _load("transcript_short.json")
    log = read_log(VECTORS / "transcript_short.chklog")
    raw = (VECTORS / "transcript_short.chklog").read_bytes()
    assert raw.startswith(MAGIC) and not log.truncated
    assert log.header["t"] == "log" and log.header["seat"] == 1
    entries = [wire.open_entry(b) for b in log.bodies]
    assert [(e.kind, e.seat, e.id.hex()) for e in entries] == \
        [(x["kind"], x["seat"], x["id_hex"]) for x in v["entries"]]
    # The chain: every entry names its predecessor.
    assert entries[0].prev == wire.GENESIS_PREV
    for a, b in zip(entries, entries[1:], strict=False):
        assert b.prev == a.id
    # The guest, given its master secret, replays the whole transcript as after a crash:
    # every signature, the chain, the floor order and every deal message is checked again.
    host_key = Identity.from_seed(bytes.fromhex(v["host_seed_hex"])).public
    guest_id = Identity.from_seed(bytes.fromhex(v["guest_seed_hex"]))
    master = bytes.fromhex(v["guest_master_hex"])
    guest = Session.resume(guest_id, list(log.bodies), host_key, master)
    assert guest.length == len(entries)
    assert guest.head.hex() == v["head_hex"]
    assert guest.table.rules == Ruleset()
    # One flipped byte anywhere after the genesis is refused.
    bodies = list(log.bodies)
    bad = bytearray(bodies[3])
    bad[len(bad) // 2] ^= 0x20
    bodies[3] = bytes(bad)
    with pytest.raises(ProtocolError):
        Session.resume(guest_id, bodies, host_key, master)


# ------------------------------------------------- proofs apart (proof-apart/v1)


def _apart_table() -> TableInfo:
    seats = tuple(SeatInfo(i, Identity.from_seed(_seed(i + 1)).public, n)
                  for i, n in enumerate(("host", "guest")))
    return TableInfo(bytes(range(120, 136)), 1, 2, Ruleset(), seats,
                     TABLE_CAPABILITIES + (CAP_SHUFFLE_PROOFS, CAP_PROOF_APART))


@pytest.mark.skipif(not REGEN, reason="regeneration only on request")
def test_regenerate_apart_transcript():
    """A 2-player game at a proof-apart/v1 table up to hand 1's first shares: each seat's
    deal/proof travels in a later turn than its deal/shuffle (the proof work deferred and
    done only when the seat holds the floor with nothing else to send)."""
    table = _apart_table()
    ids = [Identity.from_seed(_seed(1)), Identity.from_seed(_seed(2))]
    host, genesis = Session.create(ids[0], table, master=_seed(52))
    guest = Session.join(ids[1], genesis, ids[0].public, master=_seed(53))
    sessions = [host, guest]
    jobs: dict[int, list] = {0: [], 1: []}
    for s in sessions:
        s.defer_work = True
    bodies = [genesis.body]

    def shares_in_hand_1() -> bool:
        items = [d["t"] for b in bodies[1:] for d in wire.open_entry(b).fields.get("d", [])]
        return "deal/proof" in items and \
            items[items.index("deal/proof"):].count("deal/shares") >= 1
    while not shares_in_hand_1():
        for s in sessions:
            jobs[s.own_seat] += s.jobs()
            e = s.next_entry()
            while e is None and jobs[s.own_seat] and s.floor == s.seat:
                job = jobs[s.own_seat].pop(0)
                s.job_done(job, run_job(job))
                e = s.next_entry()
            if e is not None:
                bodies.append(e.body)
                sessions[1 - s.own_seat].receive(wire.open_entry(e.body))
    write_two_seat_vector("transcript_apart", table, bodies, 53,
                          lambda e: {"items": [d["t"] for d in e.fields.get("d", [])]})


def test_apart_transcript_vector():
    """deal/proof on the wire: each hand-1 shuffle without its proof, the proof of the
    same seat in a later turn, every share after both proofs; the guest replays it all
    (every proof checked again) from its master secret."""
    v = _load("transcript_apart.json")
    log = read_log(VECTORS / "transcript_apart.chklog")
    entries = [wire.open_entry(b) for b in log.bodies]
    assert [(e.kind, e.seat, e.id.hex()) for e in entries] == \
        [(x["kind"], x["seat"], x["id_hex"]) for x in v["entries"]]
    table = TableInfo.from_entry(entries[0])
    assert table.proof_apart
    items = [(i, e.seat, d) for i, e in enumerate(entries) for d in e.fields.get("d", [])]
    proofs = [(i, s, d) for i, s, d in items if d["t"] == "deal/proof"]
    assert len(proofs) == 2 and {s for _, s, _ in proofs} == {0, 1}
    for i, seat, d in proofs:
        assert set(d) == {"t", "proof"} and isinstance(d["proof"], bytes)
        shuffle = max(j for j, s, x in items if s == seat and x["t"] == "deal/shuffle")
        assert shuffle < i and "proof" not in items[[j for j, *_ in items].index(shuffle)][2]
    assert min(i for i, _, d in items if d["t"] == "deal/shares" and i > proofs[0][0]) \
        > max(i for i, _, _ in proofs)
    host_key = Identity.from_seed(bytes.fromhex(v["host_seed_hex"])).public
    guest_id = Identity.from_seed(bytes.fromhex(v["guest_seed_hex"]))
    guest = Session.resume(guest_id, list(log.bodies), host_key,
                           bytes.fromhex(v["guest_master_hex"]))
    assert guest.head.hex() == v["head_hex"]
    # The host's proof for another statement, signed by the host all the same: the
    # guest's replay refuses it at that entry, blaming seat 0 (bad_shuffle_proof).
    i, _, d = next(p for p in proofs if p[1] == 0)
    e = entries[i]
    host_id = Identity.from_seed(bytes.fromhex(v["host_seed_hex"]))
    other = [x for x in entries[i - 1].fields.get("d", []) if x["t"] == "deal/proof"]
    assert other  # the guest's own proof, a proof of another deck
    forged = wire.make_entry(host_id, game=e.game, seat=0, seq=e.seq, prev=e.prev,
                             kind="turn", body={"d": [{"t": "deal/proof",
                                                       "proof": other[0]["proof"]}]})
    resumed = Session.resume(guest_id, list(log.bodies)[:i] + [forged.body], host_key,
                             bytes.fromhex(v["guest_master_hex"]))
    a = resumed.aborted  # the verdict signed, owed to the others (as live)
    assert resumed.owes_abort and a is not None
    assert a.blamed_seat == 0 and a.code == ErrorCode.DEAL_FAILURE
    assert "bad_shuffle_proof" in a.detail, a


@given(st.binary(max_size=200))
def test_decode_of_arbitrary_bytes_refuses_cleanly(data):
    try:
        msg = wire.decode(data)
    except ProtocolError:
        return
    assert isinstance(msg, dict) and isinstance(msg["t"], str)


def _sample_entries() -> list[bytes]:
    """Entries of a real game's start: genesis, readies, deal turns."""
    return list(read_log(VECTORS / "transcript_short.chklog").bodies)


@given(st.data())
def test_any_flipped_bit_in_a_relayed_entry_is_refused(data):
    v = _load("transcript_short.json")
    bodies = _sample_entries()
    i = data.draw(st.integers(3, len(bodies) - 1), label="entry")
    body = bytearray(bodies[i])
    pos = data.draw(st.integers(0, len(body) - 1), label="byte")
    bit = data.draw(st.integers(0, 7), label="bit")
    body[pos] ^= 1 << bit
    guest = Identity.from_seed(bytes.fromhex(v["guest_seed_hex"]))
    host_key = Identity.from_seed(bytes.fromhex(v["host_seed_hex"])).public
    master = bytes.fromhex(v["guest_master_hex"])
    session = Session.resume(guest, bodies[:i], host_key, master)
    with pytest.raises(ProtocolError):
        session.receive(wire.open_entry(bytes(body)))


# --------------------------------------------------------------------------- handshake


def _handshake_case() -> tuple[bytes, bytes, bytes]:
    """A whole handshake from fixed keys and nonces: greeting, hello, welcome bodies."""
    host_id, guest_id = Identity.from_seed(_seed(1)), Identity.from_seed(_seed(2))
    lobby = Lobby(host_id, "host", Ruleset(), 2)
    hs = HostHandshake(lobby, nonce=bytes(range(32)))
    c = ClientHandshake(guest_id, "guest", nonce=bytes(range(32, 64)))
    greeting = wire.encode(hs.greeting())
    hello = wire.encode(c.on_host(wire.decode(greeting), greeting))
    welcome, seat, _ = hs.on_hello(wire.decode(hello), hello, 0)
    body = wire.encode(welcome)
    assert c.on_welcome(wire.decode(body), body) == seat == 1
    return greeting, hello, body


@pytest.mark.skipif(not REGEN, reason="regeneration only on request")
def test_regenerate_handshake():
    greeting, hello, welcome = _handshake_case()
    _save("wire_handshake.json", {
        "host_seed_hex": _seed(1).hex(), "guest_seed_hex": _seed(2).hex(),
        "host_hex": greeting.hex(), "hello_hex": hello.hex(), "welcome_hex": welcome.hex(),
        "hello_signed_hash_hex": wire.handshake_hash(
            greeting, wire.unsealed(hello, wire.decode(hello))).hex(),
        "welcome_signed_hash_hex": wire.handshake_hash(
            greeting, hello, wire.unsealed(welcome, wire.decode(welcome))).hex()})


def test_handshake_vector():
    """The proofs of possession over the handshake hash, byte for byte."""
    v = _load("wire_handshake.json")
    greeting, hello, welcome = (bytes.fromhex(v[k]) for k in ("host_hex", "hello_hex",
                                                              "welcome_hex"))
    assert _handshake_case() == (greeting, hello, welcome)
    host_key = Identity.from_seed(bytes.fromhex(v["host_seed_hex"])).public
    guest_key = Identity.from_seed(bytes.fromhex(v["guest_seed_hex"])).public
    h1 = wire.handshake_hash(greeting, hello[:-64] + bytes(64))
    h2 = wire.handshake_hash(greeting, hello, welcome[:-64] + bytes(64))
    assert (h1.hex(), h2.hex()) == (v["hello_signed_hash_hex"], v["welcome_signed_hash_hex"])
    assert wire.verify_signature(guest_key, wire.POP_JOINER_DOMAIN, h1, hello[-64:])
    assert wire.verify_signature(host_key, wire.POP_HOST_DOMAIN, h2, welcome[-64:])


# ------------------------------------------------------------------ duplicate map keys


def _dup_map(pairs: list[tuple[bytes, bytes]]) -> bytes:
    """A msgpack map written by hand (fixmap), so that it can hold a key twice."""
    assert len(pairs) < 16
    return bytes([0x80 | len(pairs)]) + b"".join(k + v for k, v in pairs)


def _s(text: str) -> bytes:
    return wire.encode(text)


def test_duplicate_map_keys_refused_at_any_depth():
    """Two implementations may keep different values of a repeated key (first or last):
    a map with a duplicate key is malformed wherever it is."""
    top = _dup_map([(_s("t"), _s("ping")), (_s("t"), _s("pong"))])
    inner = _dup_map([(_s("x"), wire.encode(1)), (_s("x"), wire.encode(2))])
    nested = _dup_map([(_s("t"), _s("x")), (_s("m"), b"\x91" + inner)])  # inside an array
    for body in (top, nested):
        with pytest.raises(ProtocolError) as exc:
            wire.decode(body)
        assert exc.value.error_code is ErrorCode.MALFORMED
        assert "duplicate" in exc.value.detail
    # The same maps without the repetition are fine.
    assert wire.decode(_dup_map([(_s("t"), _s("x")), (_s("m"), b"\x91" + _dup_map(
        [(_s("x"), wire.encode(1)), (_s("y"), wire.encode(2))]))]))["m"] == [{"x": 1, "y": 2}]


def test_duplicate_key_in_a_signed_payload_is_refused():
    """A correctly signed entry whose payload repeats a key (here the action inside a
    turn's ``a``, and the kind ``k`` itself) is refused before anything reads it."""
    ident = Identity.from_seed(_seed(7))
    common = [(_s("g"), wire.encode(bytes(16))), (_s("seat"), wire.encode(0)),
              (_s("n"), wire.encode(1)), (_s("prev"), wire.encode(bytes(32)))]
    action = _dup_map([(_s("t"), _s("cut")), (_s("keep"), wire.encode(True)),
                       (_s("keep"), wire.encode(False))])
    payloads = [
        _dup_map(common + [(_s("k"), _s("turn")), (_s("d"), b"\x90"), (_s("a"), action)]),
        _dup_map(common + [(_s("k"), _s("turn")), (_s("k"), _s("done"))]),
    ]
    for payload in payloads:
        body = wire.encode({"t": "sig", "p": payload,
                            "s": ident.sign(wire.ENTRY_DOMAIN, payload)})
        with pytest.raises(ProtocolError) as exc:
            wire.open_entry(body)
        assert exc.value.error_code is ErrorCode.MALFORMED


def test_duplicate_key_in_a_log_is_refused(tmp_path):
    header = _dup_map([(_s("t"), _s("log")), (_s("v"), wire.encode(1)),
                       (_s("v"), wire.encode(2))])
    path = tmp_path / "dup.chklog"
    path.write_bytes(MAGIC + wire.frame(header))
    with pytest.raises(ProtocolError) as exc:
        wire.decode(header)
    assert exc.value.error_code is ErrorCode.MALFORMED
    with pytest.raises(LogUnreadable, match="the header frame is not a message") as unread:
        read_log(path)
    assert str(exc.value) in str(unread.value)
    assert read_header(path) is None


def test_size_and_shape_limits():
    def nest(depth: int) -> dict:
        msg: dict = {"t": "x"}
        inner = msg
        for _ in range(depth - 1):
            inner["a"] = {}
            inner = inner["a"]
        return msg

    assert wire.decode(wire.encode(nest(wire.MAX_DEPTH)))["t"] == "x"  # top level is 1
    with pytest.raises(ProtocolError) as exc:
        wire.decode(wire.encode(nest(wire.MAX_DEPTH + 1)))
    assert exc.value.error_code is ErrorCode.MALFORMED
    # Strings are measured in UTF-8 bytes, values and keys alike.
    assert wire.decode(wire.encode({"t": "x", "s": "é" * (wire.MAX_STR // 2)}))
    for msg in ({"t": "x", "s": "é" * (wire.MAX_STR // 2 + 1)},
                {"t": "x", "k" * (wire.MAX_STR + 1): 1}):
        with pytest.raises(ProtocolError) as exc:
            wire.decode(wire.encode(msg))
        assert exc.value.error_code is ErrorCode.BAD_FIELD
    # Integers: the whole msgpack range, −2⁶³ … 2⁶⁴−1.
    assert wire.decode(wire.encode({"t": "x", "a": -(2**63), "b": 2**64 - 1})) == \
        {"t": "x", "a": -(2**63), "b": 2**64 - 1}


def test_values_per_message_are_bounded():
    """A message's maps and arrays hold at most MAX_ITEMS values together (keys count):
    one big array, or many small ones, valid otherwise, are refused."""
    n = wire.MAX_ITEMS
    # The top map holds t and a (4 values), the array the rest: exactly at the limit.
    assert len(wire.decode(wire.encode({"t": "x", "a": [0] * (n - 4)}))["a"]) == n - 4
    for msg in ({"t": "x", "a": [0] * (n - 3)},            # one over, in one array
                {"t": "x", "a": [[0] * 1000] * 5},          # spread over several
                {"t": "x", "a": [{"k": 1}] * (n // 2)},     # a map's keys count too
                {"t": "x", "a": [0] * (10 * n)}):           # far over: the C decoder stops
        with pytest.raises(ProtocolError) as exc:
            wire.decode(wire.encode(msg))
        assert exc.value.error_code is ErrorCode.MALFORMED
        assert f"more than {n} values" in exc.value.detail


@pytest.mark.parametrize("body, words", [
    (b"", "not one complete msgpack value"),
    (b"\x82", "not one complete msgpack value"),          # a map cut short
    (b"\xc1", "not one complete msgpack value"),          # a byte msgpack never uses
    (wire.encode({"t": "x"}) + b"\x00", "bytes left over"),
    (b"\x81\xa1t\xa2\xff\xfe", "not valid UTF-8"),
    (b"\x91" * 3000, "nested deeper than"),
])
def test_decode_failures_are_worded(body, words):
    """Bytes that are no msgpack message say why in words, never a class name."""
    with pytest.raises(ProtocolError) as exc:
        wire.decode(body)
    assert exc.value.error_code is ErrorCode.MALFORMED
    assert words in exc.value.detail
    for name in ("ValueError", "ExtraData", "StackError", "UnicodeDecodeError", "OutOfData"):
        assert name not in str(exc.value)


@pytest.mark.parametrize("label, shown", [
    ("a/b", "a_b"), ("../../x", "______x"), ("Léa", "Léa"), ("amel b", "amel_b"),
    ("bot-1_x", "bot-1_x")])
def test_a_log_named_after_a_player_stays_in_the_logs_folder(tmp_path, monkeypatch, label,
                                                            shown):
    """A joiner's log is named after its name: 'a/b' made a folder in the logs, and
    '../x' wrote above them."""
    from chkobba_p2p.wire.logfile import default_log_path

    monkeypatch.setenv("CHKOBBA_DATA_DIR", str(tmp_path))
    path = default_log_path(label)
    assert path.parent == tmp_path / "logs"
    assert path.name.split("-", 1)[1].rsplit("-", 1)[0] == shown
