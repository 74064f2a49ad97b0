"""The typed link messages (chkobba_p2p.link.messages): the bytes the peers send, read back
as the same value, bounded at the edge with named errors, and the published vectors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link import messages as m
from chkobba_p2p.link.handshake import ClientHandshake, HostHandshake, Lobby, error_message
from chkobba_p2p.transcript.caps import SPOKEN
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity, ProtocolError

VECTORS = Path(__file__).resolve().parent.parent / "vectors"
KEY = bytes(range(32))

# Each typed message beside the dict literal the peers have sent for it (net.py, session.py,
# spectate.py before the link core): the same bytes on the wire.
SAME_BYTES = [
    (m.Ping(), {"t": "ping"}),
    (m.Pong(), {"t": "pong"}),
    (m.Away(), {"t": "away"}),
    (m.Away(0), {"t": "away", "seat": 0}),
    (m.Chat("salam", 0), {"t": "chat", "seat": 0, "text": "salam"}),
    (m.Chat("salam"), {"t": "chat", "text": "salam"}),
    (m.Back(2), {"t": "back", "seat": 2}),
    (m.Rematch(True), {"t": "rematch", "accept": True}),
    (m.RematchOffer(), {"t": "rematch-offer"}),
    (m.Start(3), {"t": "start", "seating": 3}),
    (m.Wait(1, 30), {"t": "wait", "seat": 1, "secs": 30}),
    (m.Wait(1, 30, away=True), {"t": "wait", "seat": 1, "secs": 30, "away": True}),
    (m.Wait(1, 0, restart=True), {"t": "wait", "seat": 1, "secs": 0, "restart": True}),
    (m.Watch(1, "Amel"), {"t": "watch", "v": 1, "name": "Amel"}),
    (m.Watching(2, 57), {"t": "watching", "v": 1, "id": 2, "have": 57}),
    (m.Watching(2, 57, limits=(45, 120)),
     {"t": "watching", "v": 1, "id": 2, "have": 57, "limits": {"move": 45, "away": 120}}),
    (m.Spectators(("Amel", "Zied"), 4), {"t": "spectators", "names": ["Amel", "Zied"], "max": 4}),
    (m.ErrorMsg.of(ErrorCode.SHUTDOWN, "the host closed the table"),
     {"t": "error", "code": int(ErrorCode.SHUTDOWN), "name": "shutdown",
      "msg": ErrorCode.SHUTDOWN.sentence + ": the host closed the table"}),
]


@pytest.mark.parametrize("typed, literal", SAME_BYTES, ids=lambda v: type(v).__name__)
def test_a_typed_message_sends_the_same_bytes_and_reads_back(typed, literal):
    assert wire.encode(typed.to_wire()) == wire.encode(literal)
    if isinstance(typed, m.Chat) and typed.seat is None:
        back = m.Chat.from_joiner(literal)  # a joiner's line: the host reads it so
    else:
        back = m.parse_link_message(wire.decode(wire.encode(literal)))
    assert back == typed


def test_the_published_spectator_vectors_are_the_typed_messages():
    cases = {c["name"]: bytes.fromhex(c["frame_hex"])[4:]
             for c in json.loads((VECTORS / "spectator_messages.json").read_text())["cases"]}
    assert cases["watch"] == wire.encode(m.Watch(1, "Amel").to_wire())
    assert cases["watching"] == wire.encode(m.Watching(2, 57).to_wire())
    assert cases["watching_limits"] == wire.encode(m.Watching(2, 57, limits=(900, 300))
                                                   .to_wire())
    # An older spectator reads the new field as nothing it knows (its id and have hold).
    assert m.Watching.from_wire(wire.decode(cases["watching_limits"])).limits == (900, 300)
    assert m.Watching.from_wire(wire.decode(cases["watching"])).limits is None
    assert cases["spectators"] == wire.encode(m.Spectators(("Amel", "Zied"), 4).to_wire())


#: The published frames of PROTOCOL.md 17's playing again (``rematch_messages.json``).
REMATCH_VECTORS = VECTORS / "rematch_messages.json"


def _rematch_cases() -> dict[str, m.LinkMessage]:
    return {"rematch_yes": m.Rematch(True), "rematch_no": m.Rematch(False),
            "rematch_offer": m.RematchOffer()}


def test_the_published_rematch_vectors_are_the_typed_messages():
    cases = {c["name"]: bytes.fromhex(c["frame_hex"])
             for c in json.loads(REMATCH_VECTORS.read_text())["cases"]}
    assert set(cases) == set(_rematch_cases())
    for name, typed in _rematch_cases().items():
        assert wire.frame(wire.encode(typed.to_wire())) == cases[name], name
        assert m.read_frame(cases[name][4:]) == typed, name
    # The offer is its own type: an older joiner reads it as nothing it knows (ignored),
    # never as the host's rematch, whose accept still means the new table opens now.
    assert cases["rematch_offer"][4:] == wire.encode({"t": "rematch-offer"})


@pytest.mark.skip(reason="regeneration only on request")
def test_regenerate_rematch_vectors():  # pragma: no cover
    REMATCH_VECTORS.write_text(json.dumps({"cases": [
        {"name": n, "frame_hex": wire.frame(wire.encode(t.to_wire())).hex()}
        for n, t in _rematch_cases().items()]}, indent=2, sort_keys=True) + "\n")


def test_the_handshake_vector_reads_as_typed_messages_with_its_bytes():
    v = json.loads((VECTORS / "wire_handshake.json").read_text())
    for key, cls in (("host_hex", m.Host), ("hello_hex", m.Hello), ("welcome_hex", m.Welcome)):
        body = bytes.fromhex(v[key])
        typed = cls.from_wire(wire.decode(body))
        assert wire.encode(typed.to_wire()) == body, key


def test_a_live_handshake_and_lobby_are_the_typed_messages():
    host, guest = Identity.generate(), Identity.generate()
    lobby = Lobby(host, "host", Ruleset(), 2)
    hs = HostHandshake(lobby, limits={"move": 60, "away": 300})
    greeting = hs.greeting()
    c = ClientHandshake(guest, "guest", resume=None)
    hello = c.on_host(greeting)
    welcome, seat, _ = hs.on_hello(hello)
    for msg in (greeting, hello, welcome, lobby.lobby_message(),
                lobby.lobby_message() | {"spectators": 4}):
        typed = m.parse_link_message(msg)
        assert wire.encode(typed.to_wire()) == wire.encode(msg)
    assert m.Welcome.from_wire(welcome).limits == (60, 300)
    assert m.Welcome.from_wire(welcome).caps == SPOKEN and seat == 1
    assert error_message(ErrorCode.TABLE_FULL) == m.ErrorMsg.of(ErrorCode.TABLE_FULL).to_wire()


def test_a_resumes_welcome_carries_the_allowance_left_and_the_move_used_within_bounds():
    host, guest = Identity.generate(), Identity.generate()
    lobby = Lobby(host, "host", Ruleset(), 2)
    lobby.take_seat(guest.public, "guest", ("deal/v1",))
    game = bytes(16)
    used = [12]
    hs = HostHandshake(lobby, running=game, limits={"move": 60, "away": 300},
                       allowance_left=lambda seat: 250, move_used=lambda: used[0])
    greeting = hs.greeting()
    hello = ClientHandshake(guest, "guest", resume=(game, 3)).on_host(greeting)
    welcome, seat, resume = hs.on_hello(hello)
    assert resume == (game, 3) and seat == 1
    typed = m.Welcome.from_wire(welcome)
    assert (typed.left, typed.used) == (250, 12)
    assert wire.encode(typed.to_wire()) == wire.encode(welcome)
    used[0] = 999  # a clock past the limit is announced as the limit, never more
    assert m.Welcome.from_wire(hs.on_hello(hello)[0]).used == 60
    used[0] = None  # nobody owes the next entry: no "used"
    assert "used" not in hs.on_hello(hello)[0]["limits"]
    fresh = HostHandshake(Lobby(host, "host", Ruleset(), 2), limits={"move": 60, "away": 300},
                          move_used=lambda: 12)
    first = fresh.on_hello(ClientHandshake(guest, "new", resume=None).on_host(fresh.greeting()))
    assert "used" not in first[0]["limits"]  # a welcome to a new seat says nothing of it


def test_a_seat_back_on_a_new_connection_speaks_what_its_new_hello_announces():
    """What the host offers a seat after the match (rematch-offer/v1) follows the caps of
    its latest hello: a restarted host, or a seat back with a newer client, is asked
    with what that connection speaks, not with what its first hello said."""
    host, guest = Identity.generate(), Identity.generate()
    lobby = Lobby(host, "host", Ruleset(), 2, shuffle_proofs=False)
    lobby.take_seat(guest.public, "guest", ("deal/v1",))
    game = bytes(16)
    hs = HostHandshake(lobby, running=game)
    hs.on_hello(ClientHandshake(guest, "guest", resume=(game, 3), caps=SPOKEN)
                .on_host(hs.greeting()))
    assert lobby.seat_caps[1] == SPOKEN
    ended = HostHandshake(lobby, running=None, ended=lambda g, k: (1, 5))
    ended.on_hello(ClientHandshake(guest, "guest", resume=(game, 3), caps=("deal/v1",))
                   .on_host(ended.greeting()))
    assert lobby.seat_caps[1] == SPOKEN  # told an ended match's end: it takes no seat


@pytest.mark.parametrize("msg, code", [
    ({"t": "wait", "seat": 4, "secs": 3}, ErrorCode.BAD_FIELD),
    ({"t": "wait", "seat": True, "secs": 3}, ErrorCode.BAD_FIELD),
    ({"t": "wait", "seat": 1, "secs": (1 << 31) + 1}, ErrorCode.BAD_FIELD),
    ({"t": "back", "seat": -1}, ErrorCode.BAD_FIELD),
    ({"t": "chat", "seat": 1, "text": "\x1b[2J"}, ErrorCode.BAD_FIELD),
    ({"t": "chat", "seat": 1, "text": "x" * 201}, ErrorCode.BAD_FIELD),
    ({"t": "rematch", "accept": 1}, ErrorCode.BAD_FIELD),
    ({"t": "start", "seating": "3"}, ErrorCode.BAD_FIELD),
    ({"t": "lobby", "seats": [None]}, ErrorCode.BAD_FIELD),
    ({"t": "spectators", "names": ["x"] * 65, "max": 64}, ErrorCode.BAD_FIELD),
    ({"t": "spectators", "names": ["\n"], "max": 1}, ErrorCode.BAD_FIELD),
    ({"t": "watch", "v": 9, "name": "a"}, ErrorCode.VERSION_MISMATCH),
    ({"t": "watch", "v": 1, "name": ""}, ErrorCode.BAD_FIELD),
    ({"t": "hello", "v": 1, "caps": ["resume/v1"]}, ErrorCode.BAD_FIELD),
    ({"t": "welcome", "seat": 1}, ErrorCode.BAD_FIELD),
    ({"t": "watching", "v": 1, "id": "2", "have": 0}, ErrorCode.BAD_FIELD),
    ({"t": "sig", "p": b"", "s": b""}, ErrorCode.UNKNOWN_TYPE),
    ({"t": "later-version"}, ErrorCode.UNKNOWN_TYPE),
    ({"t": 7}, ErrorCode.UNKNOWN_TYPE),
])
def test_a_field_out_of_bounds_is_a_named_error(msg, code):
    with pytest.raises(ProtocolError) as info:
        m.parse_link_message(msg)
    assert info.value.error_code == code


def test_a_frame_reads_as_a_link_message_a_signed_entry_an_unknown_or_a_malformed_one():
    """What a connection carries, as the cores take it: never an exception for a map with
    a type, whatever its fields (the core decides what an unknown or malformed one
    means); the lenient readers of before are the typed fields."""
    def frame(msg):
        return m.read_frame(wire.encode(msg), msg)

    lobby = {"t": "lobby", "seats": [{"seat": 0, "key": KEY, "name": "a"},
                                     {"seat": 1, "key": KEY, "name": "b\x00"}]}
    bad = frame(lobby)
    assert isinstance(bad, m.Malformed) and bad.kind is m.Lobby
    assert bad.error.detail == "seat 1's name is not printable"
    lobby["seats"][1] = None
    assert frame(lobby).seats == (m.LobbySeat(0, KEY, "a"), None)
    assert frame({"t": "lobby", "seats": [None] * 5}).error.detail \
        == "5 seats (a table has 2 to 4)"
    assert frame({"t": "wait", "seat": 1, "secs": 5}) == m.Wait(1, 5)
    assert m.kind_of(frame({"t": "wait", "seat": 4, "secs": 5})) is m.Wait
    assert frame({"t": "chat", "seat": 1, "text": " hi "}) == m.Chat("hi", 1)
    # A seat out of bounds is nobody's: the host reads the line, a joiner drops it.
    assert frame({"t": "chat", "seat": 9, "text": "hi"}) == m.Chat("hi")
    assert frame({"t": "away", "seat": True}) == m.Away()
    assert isinstance(frame({"t": "chat", "seat": 1, "text": ""}), m.Malformed)
    error = frame({"t": "error", "code": True, "msg": "a\nb"})
    assert error == m.ErrorMsg(None, "a?b") and error.said == "a\nb"
    assert frame({"t": "error", "code": 4242}).number == 4242
    assert frame({"t": "error", "code": int(ErrorCode.TIMEOUT)}).code == ErrorCode.TIMEOUT
    assert m.read_limits({"move": 60, "away": 0}) == (60, 0)
    assert m.read_limits({"move": 0, "away": 0}) is None
    assert m.read_allowance_left({"left": 301}, 300) is None
    assert m.read_have({"have": True}) == 0
    signed = frame({"t": "sig", "p": b"", "s": b""})
    assert isinstance(signed, m.Signed) and m.type_name(signed) == "sig"
    assert frame({"t": "later-version", "x": 1}) == m.Unknown("later-version")
    assert m.type_name(bad) == "lobby" and m.kind_of(frame({"t": "ping"})) is m.Ping


_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**64, 2**64) | st.text(max_size=40)
    | st.binary(max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=5),
    max_leaves=20)
_fields = ("seat", "secs", "text", "names", "max", "v", "name", "id", "have", "seats",
           "seating", "ready", "accept", "code", "msg", "caps", "key", "nonce", "pop",
           "limits", "resume", "versions", "players", "rules", "rules_hash")


@settings(max_examples=400, deadline=None)
@given(st.sampled_from((*m.LINK_TYPES, "sig", "nope")),
       st.dictionaries(st.sampled_from(_fields), _values, max_size=8),
       st.integers(2, 4))
def test_any_message_parses_or_is_a_protocol_error(t, fields, players):
    """Whatever a hostile peer puts in a link message, the parser gives a typed value or a
    ProtocolError with a wire code, and a typed value sends bytes that read back as it."""
    msg = {"t": t, **fields}
    try:
        typed = m.parse_link_message(msg, players)
    except ProtocolError as exc:
        assert isinstance(exc.error_code, ErrorCode)
        return
    again = m.parse_link_message(wire.decode(wire.encode(typed.to_wire())), players)
    if isinstance(typed, m.ErrorMsg) and typed.code is None:  # a code we do not know:
        assert again.code == ErrorCode.PROTOCOL_VIOLATION     # sent on as a violation
        typed = m.ErrorMsg(again.code, typed.text)
    assert again == typed


@settings(max_examples=300, deadline=None)
@given(st.sampled_from((*m.LINK_TYPES, "sig", "nope")),
       st.dictionaries(st.sampled_from(_fields), _values, max_size=8))
def test_any_frame_reads_as_one_of_the_four_kinds_and_never_raises(t, fields):
    """What the cores take: a link message exactly when the parser takes the map, else a
    signed entry, an unknown type or a malformed message carrying the parser's error."""
    msg = {"t": t, **fields}
    frame = m.read_frame(b"as received", msg)  # (the map may hold what msgpack cannot)
    assert m.type_name(frame) == t
    try:
        typed = m.parse_link_message(msg)
    except ProtocolError as exc:
        if t == "sig":
            assert isinstance(frame, m.Signed) and frame.body == b"as received"
        elif t == "nope":
            assert frame == m.Unknown("nope")
        else:
            assert isinstance(frame, m.Malformed) and frame.error.error_code == exc.error_code
        return
    assert frame == typed
