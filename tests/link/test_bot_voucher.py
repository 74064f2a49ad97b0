"""A local bot's seat cannot be taken by whoever computes its key (issue 42, "bot keys
vouched for by the host's identity"), in memory and with no clock.

Before: the terminal client's bots sat under a bot level's well-known key
(``observe.rating.bot_seed``: anyone can compute the private half), so at a table
without a seat secret a stranger took a bot's return (a resume, or a fresh hello in the
running game) and could knock for an absent bot, holding its flag.  Now a well-known
key's return and knock prove nothing and are refused; the host's own bots sit under a key
derived from the host's identity, with the host's voucher in their hello."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

import pytest

from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link import messages as lm
from chkobba_p2p.link.handshake import (
    ClientHandshake,
    HostHandshake,
    Knocks,
    Lobby,
    knock_message,
)
from chkobba_p2p.observe.rating import bot_seed
from chkobba_p2p.observe.vouch import (
    VOUCHER_DOMAIN,
    bot_identity,
    check_voucher,
    own_bot_number,
    voucher,
)
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity, ProtocolError, verify_signature

VECTOR = Path(__file__).resolve().parent.parent / "vectors" / "wire_bot_voucher.json"


def _seat(lobby: Lobby, who: Identity, name: str = "bot1", **kw) -> int:
    host = HostHandshake(lobby)
    client = ClientHandshake(who, name, **kw)
    welcome, seat, _ = host.on_hello(client.on_host(host.greeting()))
    assert client.on_welcome(welcome) == seat
    return seat


def test_a_stranger_with_a_bots_well_known_key_cannot_take_its_return():
    """The attack of the review: a bot seated under ``bot_seed``'s key, the game running,
    the bot away; a stranger derives the same key from the public seed and comes back
    in its place (a resume with the game id a spectator sees, or a fresh hello), or
    knocks for it.  Each is refused (``seat_refused``) or ignored (the knock)."""
    lobby = Lobby(Identity.generate(), "amel", Ruleset(), 2)  # no seat secret
    bot = Identity.from_seed(bot_seed("greedy", 1))
    assert _seat(lobby, bot) == 1
    game = lobby.table().game
    stranger = Identity.from_seed(bot_seed("greedy", 1))  # anyone can compute it
    for resume in ((game, 5), None):
        host = HostHandshake(lobby, running=game)
        hello = ClientHandshake(stranger, "bot1", resume=resume).on_host(host.greeting())
        with pytest.raises(ProtocolError) as caught:
            host.on_hello(hello)
        assert caught.value.error_code == ErrorCode.SEAT_REFUSED
    knocks = Knocks(lobby)
    knock = knock_message(stranger, lobby.identity.public, knocks.nonce())
    assert knocks.check(knock) is None  # proves nothing: it holds no flag
    # A person's key comes back as before (its private half is its own).
    lobby2 = Lobby(Identity.generate(), "amel", Ruleset(), 2)
    friend = Identity.generate()
    assert _seat(lobby2, friend, "sami") == 1
    game2 = lobby2.table().game
    host = HostHandshake(lobby2, running=game2)
    hello = ClientHandshake(friend, "sami", resume=(game2, 5)).on_host(host.greeting())
    assert host.on_hello(hello)[1:] == (1, (game2, 5))
    knocks = Knocks(lobby2)
    assert knocks.check(knock_message(friend, lobby2.identity.public,
                                      knocks.nonce())) == (1, friend.public)


def test_the_hosts_own_bot_sits_shows_its_voucher_and_comes_back():
    """A bot under a key derived from the host's identity, with the host's voucher in its
    hello: seated, shown with its voucher in the lobby (which a joiner checks against the
    greeting's key), and taken back on a resume like a person's key (nobody else can
    sign as it)."""
    host_id = Identity.generate()
    lobby = Lobby(host_id, "amel", Ruleset(), 3)
    bot = bot_identity(host_id, "expert", 1)
    assert bot.public != Identity.from_seed(bot_seed("expert", 1)).public
    assert bot.public == bot_identity(host_id, "expert", 1).public  # the same every time
    assert bot.public != bot_identity(Identity.generate(), "expert", 1).public
    assert bot.public != bot_identity(host_id, "expert", 2).public
    sig = voucher(host_id, bot.public, "expert")
    assert _seat(lobby, bot, bot=("expert", sig)) == 1
    assert _seat(lobby, Identity.generate(), "sami") == 2
    assert lobby.bots == {bot.public: ("expert", sig)}
    seen = lm.Lobby.from_wire(wire.decode(wire.encode(lobby.lobby_message())))
    shown = {s.key: s.bot for s in seen.seats if s is not None and s.bot is not None}
    assert shown == {bot.public: ("expert", sig)}
    assert check_voucher(host_id.public, bot.public, *shown[bot.public])
    assert not check_voucher(host_id.public, bot.public, "random", sig)  # another level
    assert not check_voucher(Identity.generate().public, bot.public, "expert", sig)
    game = lobby.table().game
    host = HostHandshake(lobby, running=game)
    hello = ClientHandshake(bot, "bot1", resume=(game, 3),
                            bot=("expert", sig)).on_host(host.greeting())
    assert host.on_hello(hello)[1:] == (1, (game, 3))
    knocks = Knocks(lobby)
    assert knocks.check(knock_message(bot, host_id.public, knocks.nonce())) == (1, bot.public)


def test_a_voucher_not_signed_by_this_host_is_refused():
    """A hello claiming to be the host's bot with a voucher of another host (or for
    another key) is refused ``seat_refused`` and takes no seat; a malformed one is a
    ``bad_field``."""
    host_id = Identity.generate()
    lobby = Lobby(host_id, "amel", Ruleset(), 2)
    me = Identity.generate()
    elsewhere = Identity.generate()
    for sig in (voucher(elsewhere, me.public, "expert"),
                voucher(host_id, Identity.generate().public, "expert")):
        host = HostHandshake(lobby)
        hello = ClientHandshake(me, "bot1", bot=("expert", sig)).on_host(host.greeting())
        with pytest.raises(ProtocolError) as caught:
            host.on_hello(hello)
        assert caught.value.error_code == ErrorCode.SEAT_REFUSED
    assert lobby.seats[1] is None and lobby.bots == {}
    for bad in ({"level": "", "sig": bytes(64)}, {"level": "expert", "sig": b"x"},
                {"level": 3, "sig": bytes(64)}, "expert"):
        host = HostHandshake(lobby)
        client = ClientHandshake(me, "bot1")
        client.on_host(host.greeting())
        hello = client.seal_hello({**lm.Hello(1, client.caps, me.public, "bot1",
                                              client.nonce).to_wire(), "bot": bad})
        with pytest.raises(ProtocolError) as caught:
            host.on_hello(hello)
        assert caught.value.error_code == ErrorCode.BAD_FIELD
    # Without the field the hello is byte for byte as before (older hosts and joiners).
    plain = ClientHandshake(me, "bot1", nonce=bytes(32))
    host = HostHandshake(lobby, nonce=bytes(32))
    assert "bot" not in plain.on_host(host.greeting())


def test_the_voucher_matches_its_vector():
    vector = json.loads(VECTOR.read_text())
    host_id = Identity.from_seed(bytes.fromhex(vector["host_seed"]))
    assert host_id.public.hex() == vector["host_key"]
    assert VOUCHER_DOMAIN.hex() == vector["domain"]
    bot = bot_identity(host_id, vector["level"], vector["index"])
    assert (bot.seed.hex(), bot.public.hex()) == (vector["bot_seed"], vector["bot_key"])
    # The derivation from the vector's own fields (the reference host's choice).
    seed = hmac.new(host_id.seed, bytes.fromhex(vector["derive_domain"])
                    + vector["level"].encode() + b"\x00" + str(vector["index"]).encode(),
                    hashlib.sha256).hexdigest()
    assert seed == vector["bot_seed"]
    sig = voucher(host_id, bot.public, vector["level"])
    assert sig.hex() == vector["voucher"]  # Ed25519 is deterministic
    message = b"".join(bytes.fromhex(vector[k]) for k in ("host_key", "bot_key")) \
        + vector["level"].encode()
    assert verify_signature(host_id.public, bytes.fromhex(vector["domain"]), message,
                            bytes.fromhex(vector["voucher"]))
    assert check_voucher(host_id.public, bot.public, vector["level"],
                         bytes.fromhex(vector["voucher"]))


def test_a_joiner_reads_a_seat_as_the_hosts_bot_only_by_a_voucher_that_checks():
    """The lobby event a joiner makes of the host's ``lobby``: a seat is the host's bot
    of a level only if its voucher verifies under the greeting's key (a lobby is
    unsigned: a relay could add anything); the table state then says so, and a
    well-known key is still a bot for the screen (never an anchor, never remembered)."""
    from chkobba_p2p.link.joiner import lobby_event
    from chkobba_p2p.tablestate import TableState

    host_id = Identity.generate()
    lobby = Lobby(host_id, "amel", Ruleset(), 4)
    mine = bot_identity(host_id, "heuristic", 1)
    _seat(lobby, mine, bot=("heuristic", voucher(host_id, mine.public, "heuristic")))
    _seat(lobby, Identity.from_seed(bot_seed("random", 2)), "bot2")
    _seat(lobby, Identity.generate(), "sami")
    msg = wire.decode(wire.encode(lobby.lobby_message()))
    # A forged voucher for sami's seat, added on the way: not the host's signature.
    msg["seats"][3]["bot"] = {"level": "expert",
                              "sig": voucher(Identity.generate(), msg["seats"][3]["key"],
                                             "expert")}
    event = lobby_event(lm.Lobby.from_wire(msg), (), (host_id.public, "amel"))
    assert event is not None and event.bots == (None, "heuristic", None, None)
    st = TableState(players=4).apply(event)
    assert [st.bot(i) for i in range(4)] == [None, "heuristic", "random", None]


def _own_bot(host_id: Identity, number: int, level: str = "greedy") -> dict:
    bot = bot_identity(host_id, level, number)
    return {"who": bot, "name": f"bot{number}",
            "bot": (level, voucher(host_id, bot.public, level))}


@pytest.mark.parametrize("players, arrivals, names", [
    # A host with --bots 2 whose second bot connects first.
    (3, ["bot2", "bot1"], ["amel", "bot1", "bot2"]),
    # A person between them, before them, after them: the bots still read in order.
    (4, ["bot2", "sami", "bot1"], ["amel", "bot1", "bot2", "sami"]),
    (4, ["sami", "bot2", "bot1"], ["amel", "sami", "bot1", "bot2"]),
    (4, ["bot2", "bot1", "sami"], ["amel", "bot1", "bot2", "sami"]),
    (4, ["bot3", "bot1", "bot2"], ["amel", "bot1", "bot2", "bot3"]),
    # No seat but the held ones left: the person takes one, the bots still in order.
    (4, ["bot3", "sami", "bot2"], ["amel", "sami", "bot2", "bot3"]),
])
def test_the_hosts_bots_sit_in_their_numbers_order(players, arrivals, names):
    """The lobby read 'bot2, bot1' when the second bot connected first (each local bot
    is its own process, they race): the host's bots sit in their numbers' order, a seat
    held below one that came early for each lower number still to come, which a person
    takes last."""
    host_id = Identity.generate()
    lobby = Lobby(host_id, "amel", Ruleset(), players)
    for who in arrivals:
        if who.startswith("bot"):
            _seat(lobby, **_own_bot(host_id, int(who[3:])))
        else:
            _seat(lobby, Identity.generate(), who)
    assert [s.name if s is not None else None for s in lobby.seats] == names


def test_a_person_takes_a_seat_held_for_a_bot_when_no_other_is_free():
    host_id = Identity.generate()
    lobby = Lobby(host_id, "amel", Ruleset(), 3)
    assert _seat(lobby, **_own_bot(host_id, 2)) == 2  # seat 1 held for bot1
    assert _seat(lobby, Identity.generate(), "sami") == 1  # bot1 never came: it is free


def test_only_the_hosts_own_keys_are_numbered():
    """A bot level's well-known key, another host's bot, a person: no number, the lowest
    free seat, as before."""
    host_id = Identity.generate()
    assert own_bot_number(host_id, bot_identity(host_id, "expert", 2).public, "expert",
                          4) == 2
    assert own_bot_number(host_id, bot_identity(host_id, "expert", 2).public, "greedy",
                          4) is None
    assert own_bot_number(host_id, bot_identity(host_id, "expert", 3).public, "expert",
                          3) is None  # a table of 3 has two bots at most
    other = Identity.generate()
    assert own_bot_number(host_id, bot_identity(other, "expert", 1).public, "expert",
                          4) is None
    assert own_bot_number(host_id, Identity.from_seed(bot_seed("expert", 1)).public,
                          "expert", 4) is None
    lobby = Lobby(host_id, "amel", Ruleset(), 3)
    assert _seat(lobby, Identity.from_seed(bot_seed("greedy", 2)), "bot2") == 1
