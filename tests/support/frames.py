"""The link messages as the maps tests send on raw streams, built from the typed messages
(:mod:`chkobba_p2p.link.messages`), frames as the cores take them, and the junk a hostile
peer sends in their place."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from chkobba_p2p.link import states
from chkobba_p2p.link.messages import Frame, Spectators, Watch, Watching, read_frame
from chkobba_p2p.wire import codec as wire


def watch_message(name: str, version: int) -> dict[str, Any]:
    """A spectator's answer to the host's greeting."""
    return Watch(version, name).to_wire()


def watching_message(spectator_id: int, have: int, limits: tuple[int, int] | None = None,
                     used: int | None = None) -> dict[str, Any]:
    """The host's admission of a spectator."""
    return Watching(spectator_id, have, limits=limits, used=used).to_wire()


def spectators_message(names: tuple[str, ...], limit: int) -> dict[str, Any]:
    """Who is watching."""
    return Spectators(names, limit).to_wire()


def frame(msg: dict[str, Any]) -> Frame:
    """A map as a core takes it once read from a connection: encoded, then read back as
    the shell's reader does (raises its ProtocolError for a map the reader refuses)."""
    return read_frame(wire.encode(msg))


#: What a hostile peer puts in a field, whatever the field.
JUNK_VALUES = st.none() | st.booleans() | st.integers(-5, 70) | st.text(max_size=6) \
    | st.binary(max_size=40) | st.lists(st.integers(0, 3), max_size=5)
#: A type no peer would send, but any integer msgpack can carry (int64 to uint64).
ODD_TYPES = st.text(max_size=8) | st.integers(-(2**63), 2**64 - 1)


def junk_messages(fields: tuple[str, ...]) -> st.SearchStrategy[dict[str, Any]]:
    """Maps of a link message's type (or an odd one) with up to six of ``fields``, each
    holding any of :data:`JUNK_VALUES`."""
    return st.builds(lambda t, f: {"t": t, **f},
                     st.sampled_from(states.MESSAGE_TYPES) | ODD_TYPES,
                     st.dictionaries(st.sampled_from(fields), JUNK_VALUES, max_size=6))
