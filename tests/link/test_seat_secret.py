"""A table's seat secret (PROTOCOL.md 5.5; issue 42 "seats belong to the host's
friends"), in memory and with no clock: the join code carries a random per-table secret;
a joiner proves it in its hello (an HMAC over this connection's greeting nonce, its key
and its own nonce, never the secret itself), and a host with a secret refuses a hello
without a proof (``secret_required``) or with a wrong one (``secret_wrong``), including
a proof copied from another connection.  A table without a secret greets exactly as
before, and any joiner sits there."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

import pytest

from chkobba_p2p.address import Address, AddressError, new_secret, parse_secret
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link import messages as lm
from chkobba_p2p.link.handshake import (
    CAP_SEAT_SECRET,
    SEAT_SECRET_DOMAIN,
    ClientHandshake,
    HostHandshake,
    Lobby,
    seat_secret_proof,
)
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity, ProtocolError

SECRET = "k7m2-x4qa-b3cd-e5fg"
VECTOR = Path(__file__).resolve().parent.parent / "vectors" / "wire_seat_secret.json"


def _lobby(secret: str | None = SECRET) -> Lobby:
    lobby = Lobby(Identity.generate(), "amel", Ruleset(), 2)
    lobby.secret = secret
    return lobby


def _join(lobby: Lobby, who: Identity, secret: str | None) -> tuple[int, dict]:
    """One connection's whole handshake: the seat, or the host's ProtocolError."""
    host = HostHandshake(lobby)
    client = ClientHandshake(who, "guest", secret=secret)
    hello = client.on_host(host.greeting())
    welcome, seat, _ = host.on_hello(hello)
    assert client.on_welcome(welcome) == seat
    return seat, hello


def _refused(lobby: Lobby, hello_of) -> ErrorCode:
    host = HostHandshake(lobby)
    hello = hello_of(host.greeting())
    with pytest.raises(ProtocolError) as caught:
        host.on_hello(hello)
    return caught.value.error_code


def test_a_stranger_without_the_secret_is_refused_and_the_friend_then_gets_the_seat():
    lobby = _lobby()
    greeting = HostHandshake(lobby).greeting()
    assert CAP_SEAT_SECRET in greeting["caps"]
    stranger = Identity.generate()
    code = _refused(lobby, lambda g: ClientHandshake(stranger, "mallory").on_host(g))
    assert code == ErrorCode.SECRET_REQUIRED == 209
    assert lobby.seats[1] is None  # nothing taken, nothing to free
    friend = Identity.generate()
    seat, hello = _join(lobby, friend, SECRET)
    assert seat == 1 and lobby.seats[1].key == friend.public
    assert len(hello["secret_proof"]) == 32
    assert SECRET.replace("-", "").encode() not in wire.encode(hello)  # never in clear


def test_a_wrong_secret_is_refused():
    lobby = _lobby()
    other = new_secret()
    assert other != SECRET
    code = _refused(lobby, lambda g: ClientHandshake(Identity.generate(), "g",
                                                     secret=other).on_host(g))
    assert code == ErrorCode.SECRET_WRONG == 210
    assert lobby.seats[1] is None


def test_a_proof_seen_on_another_connection_proves_nothing():
    """Someone who saw the friend's hello on one connection (its proof in clear) cannot
    use the proof on a connection of its own: each greeting's nonce is fresh, and the
    proof covers it and the joiner's key and nonce."""
    lobby = _lobby()
    friend, mallory = Identity.generate(), Identity.generate()
    seen = ClientHandshake(friend, "sami", secret=SECRET).on_host(
        HostHandshake(lobby).greeting())  # a connection the friend then let go
    proof = seen["secret_proof"]

    def with_the_seen_proof(greeting: dict) -> dict:
        hello = ClientHandshake(mallory, "mallory").on_host(greeting)
        hello = lm.Hello.from_wire(hello)
        forged = lm.Hello(hello.v, hello.caps, mallory.public, "mallory", seen["nonce"],
                          secret_proof=proof).to_wire()
        client = ClientHandshake(mallory, "mallory")
        client._greeting = wire.encode(greeting)
        return client.seal_hello(forged)  # a hello of its own key, properly signed

    assert _refused(lobby, with_the_seen_proof) == ErrorCode.SECRET_WRONG
    # The friend's whole hello, replayed on a new connection: its signature covers the
    # greeting it answered, not this one.
    assert _refused(lobby, lambda g: seen) == ErrorCode.BAD_PROOF_OF_POSSESSION
    assert lobby.seats[1] is None
    assert _join(lobby, friend, SECRET)[0] == 1  # the friend, on a fresh connection


def test_a_table_without_a_secret_greets_as_before_and_seats_anyone():
    lobby = _lobby(None)
    greeting = HostHandshake(lobby, nonce=bytes(32)).greeting()
    assert CAP_SEAT_SECRET not in greeting["caps"]
    # A joiner with a secret in its code sends no proof where none is asked: the very
    # hello of a joiner without one.
    identity = Identity.from_seed(bytes(range(32)))
    with_code = ClientHandshake(identity, "g", nonce=bytes(32), secret=SECRET).on_host(greeting)
    without = ClientHandshake(identity, "g", nonce=bytes(32)).on_host(greeting)
    assert "secret_proof" not in with_code and wire.encode(with_code) == wire.encode(without)
    assert _join(lobby, Identity.generate(), None)[0] == 1


def test_a_malformed_proof_is_a_bad_field():
    lobby = _lobby()

    def bad(greeting: dict) -> dict:
        client = ClientHandshake(Identity.generate(), "g")
        hello = client.on_host(greeting)
        hello = {k: v for k, v in hello.items() if k != "pop"} | {"secret_proof": b"x" * 5}
        return client.seal_hello(hello | {"pop": bytes(64)})

    assert _refused(lobby, bad) == ErrorCode.BAD_FIELD


def test_the_join_code_carries_the_secret_after_the_fingerprint():
    code = Address.parse("203.0.113.7:7777#2935-c4f7-816c-a26c+K7M2X4QAB3CDE5FG")
    assert code.fingerprint == "2935-c4f7-816c-a26c" and code.secret == SECRET
    assert str(code) == f"203.0.113.7:7777#2935-c4f7-816c-a26c+{SECRET}"
    assert Address.parse(str(code)) == code
    assert str(Address("::1", 7777, "2935-c4f7-816c-a26c")) == "[::1]:7777#2935-c4f7-816c-a26c"
    for bad in ("k7m2-x4qa-b3cd", "k7m2-x4qa-b3cd-e5f0", "k7m2-x4qa-b3cd-e5fg-aaaa", ""):
        with pytest.raises(AddressError, match="not a table secret"):
            Address.parse(f"203.0.113.7:7777#2935-c4f7-816c-a26c+{bad}")
    assert parse_secret(new_secret()) != new_secret()


def test_the_proof_matches_its_vector():
    vector = json.loads(VECTOR.read_text())
    proof = seat_secret_proof(vector["secret"], bytes.fromhex(vector["host_nonce"]),
                              bytes.fromhex(vector["joiner_key"]),
                              bytes.fromhex(vector["hello_nonce"]))
    assert proof.hex() == vector["secret_proof"]
    # The key is the printed form whatever the form held (PROTOCOL.md 5.5: lower case,
    # no dashes or spaces), as every reader of a code accepts it.
    typed = seat_secret_proof("K7M2 X4QA B3CD E5FG", bytes.fromhex(vector["host_nonce"]),
                              bytes.fromhex(vector["joiner_key"]),
                              bytes.fromhex(vector["hello_nonce"]))
    assert typed.hex() == vector["secret_proof"]
    # The formula itself, from the vector's own fields (what another client computes).
    assert SEAT_SECRET_DOMAIN.hex() == vector["domain"]
    message = b"".join(bytes.fromhex(vector[k])
                       for k in ("domain", "host_nonce", "joiner_key", "hello_nonce"))
    assert hmac.new(bytes.fromhex(vector["hmac_key"]), message,
                    hashlib.sha256).hexdigest() == vector["secret_proof"]
    identity = Identity.from_seed(bytes.fromhex(vector["joiner_seed"]))
    assert identity.public.hex() == vector["joiner_key"]


def test_a_seat_that_proved_the_secret_proves_it_again_when_it_comes_back():
    """Review of issue 42: a resume was proven by the key alone.  The local bots of the
    terminal client (chkobba_cli.support.botproc) sit with a well-known key (bot_seed: anyone
    can compute it), and the game id is streamed to any spectator, who is not asked for
    the secret: a stranger took the bot's seat's connection in the running game (and
    could sign its resignation) without the secret.  A key that sat with the secret must
    prove it on every later hello; a restarted host (a new secret none could prove)
    takes a resume on the key alone, as before."""
    from chkobba_p2p.observe.rating import bot_seed

    lobby = _lobby()
    bot = Identity.from_seed(bot_seed("greedy", 1))  # the TUI's first local bot's key
    assert _join(lobby, bot, SECRET)[0] == 1  # it sat with the join code
    game = lobby.table().game

    def resume_hello(secret: str | None):
        return lambda g: ClientHandshake(bot, "bot1", resume=(game, 1),
                                         secret=secret).on_host(g)

    def fresh_hello(g: dict) -> dict:
        return ClientHandshake(bot, "bot1").on_host(g)

    for hello_of in (resume_hello(None), fresh_hello):
        host = HostHandshake(lobby, running=game)
        hello = hello_of(host.greeting())
        with pytest.raises(ProtocolError) as caught:
            host.on_hello(hello)
        assert caught.value.error_code == ErrorCode.SECRET_REQUIRED
    # The bot itself (it has the code) comes back as before.
    host = HostHandshake(lobby, running=game)
    client = ClientHandshake(bot, "bot1", resume=(game, 1), secret=SECRET)
    welcome, seat, resume = host.on_hello(client.on_host(host.greeting()))
    assert (seat, resume) == (1, (game, 1))
    # A host restarted from a save that lost the secret: a new one, nobody proved it.
    # A well-known key is then never taken back on the key alone (issue 42, bot
    # vouchers: anyone can sign as it); the host's own bots sit under keys of their own.
    restarted = _lobby(new_secret())
    restarted.seats = list(lobby.seats)
    host = HostHandshake(restarted, running=game)
    with pytest.raises(ProtocolError) as caught:
        host.on_hello(resume_hello(SECRET)(host.greeting()))
    assert caught.value.error_code == ErrorCode.SEAT_REFUSED
    # Restarted from its save, with a new run's secret: the seats prove the one they
    # sat with, or the one the new run shows; nothing else, and never nothing.
    shown = new_secret()
    restarted = _lobby(shown)
    restarted.seats, restarted.proven, restarted.former_secret = \
        list(lobby.seats), {bot.public}, SECRET
    for secret, code in ((SECRET, None), (shown, None), (None, ErrorCode.SECRET_REQUIRED),
                         (new_secret(), ErrorCode.SECRET_WRONG)):
        host = HostHandshake(restarted, running=game)
        hello = resume_hello(secret)(host.greeting())
        if code is None:
            assert host.on_hello(hello)[1] == 1
            continue
        with pytest.raises(ProtocolError) as caught:
            host.on_hello(hello)
        assert caught.value.error_code == code


def test_a_new_secret_is_16_letters_of_the_whole_alphabet_and_never_the_same():
    """The printed form parses; the 32 letters and digits 2-7 all occur (each letter takes
    5 fresh bits), and 200 secrets are 200 different ones."""
    secrets_made = [new_secret() for _ in range(200)]
    assert all(parse_secret(s) == s and len(s) == 19 for s in secrets_made)
    assert len(set(secrets_made)) == 200
    letters = {ch for s in secrets_made for ch in s.replace("-", "")}
    assert letters == set("abcdefghijklmnopqrstuvwxyz234567")
