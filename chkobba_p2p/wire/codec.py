"""The wire format: framing, the msgpack codec, identities, signed entries and the hash chain.

Everything here is pure (no sockets, no clock).  PROTOCOL.md is the normative description;
this module is its reference implementation and the test vectors in ``tests/vectors/``
are produced and checked with it.

* A **frame** is a 4-byte big-endian length then that many bytes of one msgpack message
  (at most :data:`MAX_FRAME` bytes).
* Every **message** is a msgpack map with a string ``"t"`` (its type).  Maps have string
  keys; floats and extension types are refused; unknown fields are ignored.
* A **signed entry** travels as ``{"t": "sig", "p": <bin payload>, "s": <bin signature>}``.
  The payload is itself one msgpack map; the signature is Ed25519 over
  ``ENTRY_DOMAIN || payload`` -- the exact payload bytes, never a re-encoding -- so a relay
  forwards the entry byte for byte and a log stores exactly what travelled.
* The **hash chain**: an entry's id is ``SHA-256(CHAIN_DOMAIN || payload)``; each payload
  names the id of the previous entry in ``"prev"`` (all zeros for the first).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from .._digest import sha256
from ..errors import RemoteError
from .errors import WireUsageError

__all__ = [
    "message_type",
    "PROTOCOL_VERSION",
    "SUPPORTED_VERSIONS",
    "MAX_FRAME",
    "MAX_STR",
    "MAX_NAME",
    "MAX_DEPTH",
    "MAX_ENTRY",
    "MAX_ENTRY_OTHER",
    "MAX_UNKNOWN",
    "MAX_EVIDENCE",
    "MAX_TRANSCRIPT",
    "MAX_HELLO",
    "entry_limit",
    "same_value",
    "check_entry_size",
    "entry_id_of",
    "ENTRY_DOMAIN",
    "CHAIN_DOMAIN",
    "POP_JOINER_DOMAIN",
    "POP_HOST_DOMAIN",
    "HANDSHAKE_DOMAIN",
    "handshake_hash",
    "seal_pop",
    "unsealed",
    "GENESIS_PREV",
    "ErrorCode",
    "ProtocolError",
    "frame",
    "FrameDecoder",
    "encode",
    "decode",
    "Identity",
    "verify_signature",
    "keep_verified_signatures",
    "fingerprint",
    "entry_id",
    "Entry",
    "make_entry",
    "open_entry",
    "get_field",
]

#: The version this implementation speaks (and the only one so far).
PROTOCOL_VERSION = 1
SUPPORTED_VERSIONS = (1,)
#: Largest frame body accepted, in bytes.  A whole shuffled deck with its proofs fits many
#: times over; anything bigger is a broken or hostile peer.
MAX_FRAME = 1 << 20
#: Largest string field (names, reasons) accepted anywhere, in UTF-8 bytes.
MAX_STR = 4096
#: Largest display name, in characters.
MAX_NAME = 32

#: Largest ``sig`` frame body of each entry kind, in bytes (PROTOCOL.md section 2.1).
#: Measured honest maxima: genesis 588, ready 226 (its caps), turn 8194 (a shuffle with
#: its proof), done 189; the worst turn an honest deal can produce (a shuffle with its
#: proof, the cut, a whole step of shares, a reveal and the next key) stays under 10 KiB.
MAX_ENTRY = {"table": 4096, "ready": 1024, "turn": 16384, "done": 1024, "abort": 24576}
#: Any other kind (only ever sent under a table capability that announces it).
MAX_ENTRY_OTHER = 16384
#: Unknown fields (section 3) an entry may carry, in bytes of their msgpack encoding
#: (keys and values), summed over the ``sig`` message, the payload's top level, a
#: ``turn``'s action, the genesis ``rules`` map and its ``seats`` items.
MAX_UNKNOWN = 256
#: An ``abort`` repeats an offending entry up to this size; a bigger one is named by id.
MAX_EVIDENCE = MAX_ENTRY["turn"] + MAX_UNKNOWN + 256
#: Largest transcript: the chain entries' ``sig`` frame bodies, with their 4-byte
#: lengths, in bytes.  With the log header and a closing ``abort`` it stays under the
#: 64 MiB an auditor reads, so every log a conforming peer writes can be replayed.
MAX_TRANSCRIPT = 48 << 20
#: Largest handshake message (``host``, ``hello``, ``welcome``), in bytes: what an
#: unauthenticated connection may send.  Honest ones take about 500.
MAX_HELLO = 4096

ENTRY_DOMAIN = b"chkobba-p2p/v1/entry\x00"
CHAIN_DOMAIN = b"chkobba-p2p/v1/chain\x00"
#: Proofs of possession in the handshake: the joiner's (in ``hello``) and the host's (in
#: ``welcome``) use distinct domains, so neither can be replayed as the other.
POP_JOINER_DOMAIN = b"chkobba-p2p/v1/pop-joiner\x00"
POP_HOST_DOMAIN = b"chkobba-p2p/v1/pop-host\x00"
HANDSHAKE_DOMAIN = b"chkobba-p2p/v1/handshake\x00"
GENESIS_PREV = bytes(32)


class ErrorCode(enum.IntEnum):
    """Wire error codes.  Sent in an ``error`` message before a connection is closed, and
    in signed ``blame``/``abort`` records.  1xx: the link; 2xx: the handshake; 3xx: the
    signed transcript; 4xx: the game; 5xx: liveness."""

    FRAME_TOO_LARGE = 100
    MALFORMED = 101
    UNKNOWN_TYPE = 102
    BAD_FIELD = 103
    VERSION_MISMATCH = 200
    BAD_PROOF_OF_POSSESSION = 201
    TABLE_FULL = 202
    ALREADY_SEATED = 203
    UNKNOWN_GAME = 204
    HANDSHAKE_TIMEOUT = 205
    SPECTATORS_CLOSED = 206
    SEAT_REFUSED = 207
    READY_TIMEOUT = 208
    SECRET_REQUIRED = 209
    SECRET_WRONG = 210
    BAD_SIGNATURE = 300
    BAD_CHAIN = 301
    OUT_OF_TURN = 302
    BAD_SEQUENCE = 303
    WRONG_GAME = 304
    ENTRY_TOO_LARGE = 305
    TRANSCRIPT_TOO_LONG = 306
    ILLEGAL_MOVE = 400
    DEAL_FAILURE = 401
    RESULT_MISMATCH = 402
    PROTOCOL_VIOLATION = 403
    RESIGNED = 404
    TIMEOUT = 500
    PEER_LEFT = 501
    SHUTDOWN = 502
    CLOCK_DISPUTE = 503

    @property
    def sentence(self) -> str:
        return _SENTENCES[self]

    @classmethod
    def from_wire(cls, value: object) -> ErrorCode | None:
        """The code a peer sent (an integer), or None when ``value`` names no code."""
        if not isinstance(value, int):
            return None
        try:
            return cls(value)
        except ValueError:
            return None


_SENTENCES = {
    ErrorCode.FRAME_TOO_LARGE: "a frame longer than the maximum size was announced",
    ErrorCode.MALFORMED: "a frame did not hold exactly one valid msgpack map",
    ErrorCode.UNKNOWN_TYPE: "a message type this peer does not know, where none is allowed",
    ErrorCode.BAD_FIELD: "a required field is missing, has the wrong type or is too long",
    ErrorCode.VERSION_MISMATCH: "no protocol version in common",
    ErrorCode.BAD_PROOF_OF_POSSESSION: "the identity key's proof of possession is invalid",
    ErrorCode.TABLE_FULL: "every seat at this table is taken",
    ErrorCode.ALREADY_SEATED: "this identity is already connected at this table",
    ErrorCode.UNKNOWN_GAME: "the game to resume is not the one running here",
    ErrorCode.HANDSHAKE_TIMEOUT: "the handshake did not complete in time",
    ErrorCode.SPECTATORS_CLOSED: "this table admits no (more) spectators",
    ErrorCode.SEAT_REFUSED: "the host freed this seat and refuses this identity at its table",
    ErrorCode.READY_TIMEOUT: "this seat did not confirm the table within the ready check",
    ErrorCode.SECRET_REQUIRED: "this table seats only those who have the secret in its "
                               "join code, and the hello proved none",
    ErrorCode.SECRET_WRONG: "the hello's proof of the table's secret is wrong (another "
                            "secret, or a proof made for another connection)",
    ErrorCode.BAD_SIGNATURE: "a signed entry's signature does not verify",
    ErrorCode.BAD_CHAIN: "a signed entry does not extend the transcript (prev differs)",
    ErrorCode.OUT_OF_TURN: "a signed entry from a seat that does not hold the floor",
    ErrorCode.BAD_SEQUENCE: "a signed entry's sequence number is not the next one",
    ErrorCode.WRONG_GAME: "a signed entry belongs to another game",
    ErrorCode.ENTRY_TOO_LARGE: "a signed entry is larger than its kind allows, or carries "
                               "too many unknown fields",
    ErrorCode.TRANSCRIPT_TOO_LONG: "the transcript reached its maximum size",
    ErrorCode.ILLEGAL_MOVE: "a move the rules forbid",
    ErrorCode.DEAL_FAILURE: "a deal message failed its check (proof, share, commitment)",
    ErrorCode.RESULT_MISMATCH: "a peer reported a different match result",
    ErrorCode.PROTOCOL_VIOLATION: "a message is well formed but makes no sense here",
    ErrorCode.RESIGNED: "a player resigned: their side loses the match",
    ErrorCode.TIMEOUT: "a peer did not send in time",
    ErrorCode.PEER_LEFT: "a peer left (on purpose, or did not come back in time)",
    ErrorCode.SHUTDOWN: "the peer is shutting down",
    ErrorCode.CLOCK_DISPUTE: "a seat disputes a flag: its own clock showed time left",
}


class ProtocolError(RemoteError):
    """The remote end broke the wire protocol.  ``code`` is an :class:`ErrorCode`;
    ``detail`` English for developers, ``violation`` and ``facts`` the check's code and
    data for a client's words (:data:`~chkobba_p2p.errors.VIOLATIONS`)."""

    def __init__(self, code: ErrorCode, detail: str = "", *, blamed_seat: int | None = None,
                 evidence: object = None, violation: str | None = None,
                 facts: Mapping[str, str | int] | None = None) -> None:
        message = code.sentence + (f": {detail}" if detail else "")
        super().__init__(message, code=code.name.lower(), blamed_seat=blamed_seat,
                         evidence=evidence, violation=violation, facts=facts)
        self.error_code = code
        self.detail = detail


# --------------------------------------------------------------------------- framing


def frame(body: bytes) -> bytes:
    """One frame: 4-byte big-endian length, then ``body``."""
    if len(body) > MAX_FRAME:
        raise WireUsageError(f"message of {len(body)} bytes exceeds the {MAX_FRAME}-byte "
                             "maximum", code="frame_too_large",
                             data={"size": len(body), "max": MAX_FRAME})
    return len(body).to_bytes(4, "big") + body


class FrameDecoder:
    """Incremental frame reader: ``feed`` bytes, iterate complete frame bodies.

    Refuses an announced length above ``max_frame`` as soon as the 4 length bytes arrive,
    before buffering the body.  ``pending`` tells whether a frame is partly received (the
    transport's slow-loris timer runs while it is true).
    """

    def __init__(self, max_frame: int = MAX_FRAME, after: FrameDecoder | None = None) -> None:
        """``after``: a decoder whose buffered bytes this one takes over (a connection
        whose limit changes once it is authenticated)."""
        self._buf: bytearray = bytearray(after._buf) if after is not None else bytearray()
        self._max = max_frame

    @property
    def pending(self) -> bool:
        return bool(self._buf)

    def feed(self, data: bytes | bytearray) -> list[bytes]:
        self._buf += data
        out = []
        while len(self._buf) >= 4:
            n = int.from_bytes(self._buf[:4], "big")
            if n > self._max:
                raise ProtocolError(ErrorCode.FRAME_TOO_LARGE, f"{n} > {self._max} bytes",
                                    violation="frame_too_large",
                                    facts={"size": n, "max": self._max})
            if len(self._buf) < 4 + n:
                break
            out.append(bytes(self._buf[4:4 + n]))
            del self._buf[:4 + n]
        return out


# ----------------------------------------------------------------------------- codec


def encode(obj: Any) -> bytes:
    """msgpack with the bin type for bytes and str for text (the only encoding we send)."""
    return bytes(msgpack.packb(obj, use_bin_type=True))  # (bytes already: no copy)


def _no_ext(code: int, data: bytes) -> Any:
    raise ProtocolError(ErrorCode.MALFORMED, "extension types are not allowed",
                        violation="extension_type")


def _pairs(pairs: list[tuple[Any, Any]]) -> dict[str, Any]:
    """Build a map, refusing non-string and duplicate keys.  A duplicate key would let two
    implementations read different contents from the same signed bytes (one keeps the
    first value, another the last) and silently split the table."""
    out: dict[str, Any] = {}
    for k, v in pairs:
        if not isinstance(k, str):
            raise ProtocolError(ErrorCode.MALFORMED, "map keys must be strings",
                                violation="key_not_str")
        if k in out:
            raise ProtocolError(ErrorCode.MALFORMED, f"duplicate map key {k[:40]!r}",
                                violation="duplicate_key", facts={"field": k[:40]})
        out[k] = v
    return out


#: Deepest nesting of maps and arrays: the top-level map has depth 1.
MAX_DEPTH = 16

#: Most values the maps and arrays of one message may hold together (a map's keys count
#: too).  The largest message of a game holds about a hundred; a frame of a mebibyte of
#: one-byte integers would otherwise cost the receiver a second of checking.
MAX_ITEMS = 4096


def _check_str(s: str) -> None:
    # Characters are at most 4 UTF-8 bytes: only long strings need encoding to measure.
    if len(s) > MAX_STR // 4 and len(s.encode("utf-8", "surrogatepass")) > MAX_STR:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"string longer than {MAX_STR} bytes",
                            violation="string_too_long", facts={"max": MAX_STR})


def _check_value(obj: Any, depth: int = 1, left: list[int] | None = None) -> None:
    """``depth``: that of ``obj`` if it is a map or an array (the top level is 1);
    ``left``: how many more values the message may hold (:data:`MAX_ITEMS`)."""
    if isinstance(obj, float):
        raise ProtocolError(ErrorCode.MALFORMED, "floats are not allowed",
                            violation="float_value")
    if isinstance(obj, str):
        _check_str(obj)
    elif isinstance(obj, dict | list):
        if depth > MAX_DEPTH:
            raise ProtocolError(ErrorCode.MALFORMED, f"nested deeper than {MAX_DEPTH}",
                                violation="nested_too_deep", facts={"max": MAX_DEPTH})
        if left is None:
            left = [MAX_ITEMS]
        # Counted before any is looked at: a huge array costs one subtraction.
        left[0] -= 2 * len(obj) if isinstance(obj, dict) else len(obj)
        if left[0] < 0:
            raise ProtocolError(ErrorCode.MALFORMED,
                                f"more than {MAX_ITEMS} values in one message",
                                violation="too_many_values", facts={"max": MAX_ITEMS})
        for k in obj if isinstance(obj, dict) else ():
            _check_str(k)
        for v in obj.values() if isinstance(obj, dict) else obj:
            _check_value(v, depth + 1, left)


def _decode_failure(exc: Exception) -> str:
    """What msgpack's exception means, in words (its class names mean nothing to a user)."""
    if isinstance(exc, msgpack.ExtraData):
        return "bytes left over after the message"
    if isinstance(exc, UnicodeDecodeError):
        return "a string that is not valid UTF-8"
    if isinstance(exc, msgpack.StackError):
        return f"nested deeper than {MAX_DEPTH}"
    if isinstance(exc, ValueError) and "exceeds max" in str(exc):
        return f"more than {MAX_ITEMS} values in one message"
    # ValueError and OutOfData: the bytes end inside a value, or are no msgpack at all.
    return "not one complete msgpack value"


def decode(body: bytes, *, want_map: bool = True) -> Any:
    """Decode one msgpack message; :class:`ProtocolError` MALFORMED if it is not exactly
    one value, uses floats or extension types, has a map with a non-string or duplicate
    key, nests deeper than :data:`MAX_DEPTH`, or (by default) is not a map with a string
    ``"t"``; BAD_FIELD for a string longer than :data:`MAX_STR` bytes."""
    try:
        # One array or map over the budget stops the C decoder before it builds it.
        obj = msgpack.unpackb(body, raw=False, strict_map_key=False, ext_hook=_no_ext,
                              object_pairs_hook=_pairs, use_list=True,
                              max_array_len=MAX_ITEMS, max_map_len=MAX_ITEMS // 2)
    except ProtocolError:
        raise
    except Exception as exc:  # msgpack raises several unrelated types
        raise ProtocolError(ErrorCode.MALFORMED, _decode_failure(exc),
                            violation="not_msgpack") from None
    _check_value(obj)
    if want_map and (not isinstance(obj, dict) or not isinstance(obj.get("t"), str)):
        raise ProtocolError(ErrorCode.MALFORMED, "a message is a map with a string 't'",
                            violation="not_a_message")
    return obj


_TYPES: dict[str, type | tuple[type, ...]] = {
    "int": int, "str": str, "bytes": bytes, "bool": bool, "list": list, "map": dict,
}


def message_type(obj: object) -> str | None:
    """The type (``t``) a decoded message says it is; None when ``obj`` is not a map or its
    ``t`` is not a string.  The one read of ``t`` in the library: each layer's parser
    (link messages, deal items, turn actions, the log header) maps it to a class once, and
    the cores dispatch on classes."""
    if not isinstance(obj, dict):
        return None
    t = obj.get("t")
    return t if isinstance(t, str) else None


def get_field(msg: dict[str, Any], name: str, kind: str, *, optional: bool = False,
              size: int | None = None, max_len: int | None = None) -> Any:
    """Read a typed field, raising BAD_FIELD when missing or wrong (``bool`` is not an int
    here).  ``size`` fixes a bytes length, ``max_len`` bounds a str/bytes/list length."""
    if name not in msg or msg[name] is None:
        if optional:
            return None
        raise ProtocolError(ErrorCode.BAD_FIELD, f"missing {name!r}", violation="field_missing",
                            facts={"field": name})
    value = msg[name]
    if not isinstance(value, _TYPES[kind]) or (kind == "int" and isinstance(value, bool)):
        raise ProtocolError(ErrorCode.BAD_FIELD, f"{name!r} must be {kind}", violation="field_type",
                            facts={"field": name, "kind": kind})
    if isinstance(value, str | bytes | list | dict):
        if size is not None and len(value) != size:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"{name!r} must be {size} bytes",
                                violation="field_size", facts={"field": name, "size": size})
        if max_len is not None and len(value) > max_len:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"{name!r} longer than {max_len}",
                                violation="field_too_long",
                                facts={"field": name, "max": max_len})
    return value


# -------------------------------------------------------------------------- handshake


def handshake_hash(*bodies: bytes) -> bytes:
    """SHA-256 of the handshake so far: ``HANDSHAKE_DOMAIN`` then each message's frame body
    (exactly as sent or received) with its 4-byte big-endian length before it."""
    parts = [HANDSHAKE_DOMAIN]
    for b in bodies:
        parts += (len(b).to_bytes(4, "big"), b)
    return sha256(*parts)


_POP_TAIL = b"\xa3pop\xc4\x40"  # the key "pop", then a bin 8 of 64 bytes


def seal_pop(msg: dict[str, Any], sign: Any) -> dict[str, Any]:
    """``msg`` with a last field ``pop`` = ``sign(body)``, where ``body`` is the frame body
    of the message itself with the 64 signature bytes zeroed (a signature cannot cover
    itself).  The message must be sent encoded by :func:`encode` (it then ends with the
    signature)."""
    draft = {k: v for k, v in msg.items() if k != "pop"}
    draft["pop"] = bytes(64)
    zeroed = encode(draft)
    assert zeroed.endswith(_POP_TAIL + bytes(64))
    draft["pop"] = sign(zeroed)
    return draft


def unsealed(body: bytes, msg: dict[str, Any]) -> bytes:
    """The body a received ``pop`` signs: ``body`` with its last 64 bytes (the signature)
    zeroed.  BAD_FIELD unless ``pop`` is a bin 64 and the message's last field."""
    pop = msg.get("pop")
    if not isinstance(pop, bytes) or len(pop) != 64 or not body.endswith(_POP_TAIL + pop):
        raise ProtocolError(ErrorCode.BAD_FIELD, "pop must be the last field, a bin 64",
                            violation="pop_not_last")
    return body[:-64] + bytes(64)


# ------------------------------------------------------------------------- identities


def fingerprint(public_key: bytes) -> str:
    """A short human-checkable form of a public key: 4 groups of 4 hex digits of SHA-256."""
    h = sha256(public_key).hex()[:16]
    return "-".join(h[i:i + 4] for i in range(0, 16, 4))


class Identity:
    """An Ed25519 identity key pair.  ``public`` is the raw 32-byte public key."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        # The *_raw forms, not public_bytes(Encoding.Raw, ...): the same 32 bytes without
        # importing cryptography's serialization package (its SSH and PEM formats cost a
        # peer about 3 MB of memory, issue 44).
        self.public = private.public_key().public_bytes_raw()

    @classmethod
    def generate(cls) -> Identity:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, seed: bytes) -> Identity:
        """From the 32-byte private seed (test vectors, saved keys)."""
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    @property
    def seed(self) -> bytes:
        return self._private.private_bytes_raw()

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)

    def sign(self, domain: bytes, data: bytes) -> bytes:
        return self._private.sign(domain + data)

    def __repr__(self) -> str:
        return f"Identity({self.fingerprint})"


#: Signatures verified in this process (see :func:`verify_signature`): two generations
#: of at most this many digests each (some 50 KB; peers sharing a process check an entry
#: within moments of each other).
VERIFIED_LIMIT = 256
_verified_young: dict[bytes, None] = {}
_verified_old: dict[bytes, None] = {}
_verified_kept = True


def verify_signature(public_key: bytes, domain: bytes, data: bytes, signature: bytes) -> bool:
    """Ed25519 verification of ``signature`` over ``domain || data``.

    A process remembers the signatures it verified (a digest of key, domain, data and
    signature, as Bitcoin Core's signature cache does): where several peers share a
    process (the test kit's tables, an audit of a match played here), each signed entry
    is checked once, not once by every peer.  Any other byte is verified in full; a
    refusal is never kept; a peer alone in its process verifies each signature as it
    did.  Bounded (two generations of :data:`VERIFIED_LIMIT`), lock-free: a digest a race
    loses is only a verification done again.  :func:`keep_verified_signatures` turns it
    off (benchmarks that verify the same signatures again)."""
    global _verified_young, _verified_old
    if len(public_key) != 32 or len(signature) != 64:
        return False
    digest = sha256(SIGNATURE_MEMO_DOMAIN, public_key, signature,
                    len(domain).to_bytes(4, "big"), domain, data)
    if _verified_kept and (digest in _verified_young or digest in _verified_old):
        return True
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, domain + data)
    except (InvalidSignature, ValueError):
        return False
    if _verified_kept:
        _verified_young[digest] = None
        if len(_verified_young) >= VERIFIED_LIMIT:
            _verified_old, _verified_young = _verified_young, {}
    return True


#: The tag of a verified signature's digest (never on the wire).
SIGNATURE_MEMO_DOMAIN = b"chkobba-p2p/verified-signature/v1\x00"


def keep_verified_signatures(on: bool) -> None:
    """Remember verified signatures (the default) or not; switching forgets them."""
    global _verified_kept, _verified_young, _verified_old
    _verified_kept = on
    _verified_young, _verified_old = {}, {}


# ----------------------------------------------------------------- signed entries, chain


def entry_id(payload: bytes) -> bytes:
    """The id of an entry in the hash chain: SHA-256 over the domain and the payload."""
    return sha256(CHAIN_DOMAIN, payload)


@dataclass(frozen=True)
class Entry:
    """A signed entry as it travelled: the frame ``body`` (the whole ``sig`` message), its
    ``payload`` bytes, ``signature`` and the decoded payload ``fields``."""

    body: bytes
    payload: bytes
    signature: bytes
    fields: dict[str, Any] = field(compare=False, repr=False)

    @property
    def id(self) -> bytes:
        return entry_id(self.payload)

    @property
    def kind(self) -> str:
        return str(self.fields["k"])  # checked when opened

    @property
    def seat(self) -> int:
        return int(self.fields["seat"])  # checked when opened

    @property
    def seq(self) -> int:
        return int(self.fields["n"])  # checked when opened

    @property
    def prev(self) -> bytes:
        return bytes(self.fields["prev"])  # checked when opened

    @property
    def game(self) -> bytes:
        return bytes(self.fields["g"])  # checked when opened


def make_entry(identity: Identity, *, game: bytes, seat: int, seq: int, prev: bytes,
               kind: str, body: dict[str, Any] | None = None) -> Entry:
    """Build and sign an entry.  ``body`` holds the kind-specific fields."""
    fields = {"g": game, "seat": seat, "n": seq, "prev": prev, "k": kind}
    for k, v in (body or {}).items():
        if k in fields:
            raise WireUsageError(f"field {k!r} is reserved in a signed entry",
                                 code="reserved_field", data={"field": str(k)})
        fields[k] = v
    payload = encode(fields)
    signature = identity.sign(ENTRY_DOMAIN, payload)
    wire_body = encode({"t": "sig", "p": payload, "s": signature})
    if len(wire_body) > entry_limit(kind):
        raise WireUsageError(f"a {kind!r} entry of {len(wire_body)} bytes exceeds its "
                             f"{entry_limit(kind)}-byte maximum", code="entry_too_large",
                             data={"kind": kind, "size": len(wire_body),
                                   "max": entry_limit(kind)})
    entry = Entry(wire_body, payload, signature, decode(payload, want_map=False))
    check_entry_size(entry, {"t": "sig", "p": payload, "s": signature})
    return entry


def open_entry(body: bytes, msg: dict[str, Any] | None = None) -> Entry:
    """Parse a ``sig`` message from its exact frame body into an :class:`Entry` (``msg`` is
    its decoded form when the caller has it already).  Checks the shape only; signature
    and chain checks need the seat table (the session)."""
    body = bytes(body)
    if msg is None:
        msg = decode(body)
    if msg.get("t") != "sig":
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, "expected a signed entry",
                            violation="not_an_entry")
    payload = get_field(msg, "p", "bytes", max_len=MAX_FRAME)
    signature = get_field(msg, "s", "bytes", size=64)
    fields = decode(payload, want_map=False)
    if not isinstance(fields, dict):
        raise ProtocolError(ErrorCode.MALFORMED, "an entry payload is a map",
                            violation="payload_not_map")
    get_field(fields, "g", "bytes", size=16)
    seat = get_field(fields, "seat", "int")
    if not 0 <= seat < 8:
        raise ProtocolError(ErrorCode.BAD_FIELD, "seat out of range",
                            violation="seat_out_of_range")
    n = get_field(fields, "n", "int")
    if n < 0:
        raise ProtocolError(ErrorCode.BAD_FIELD, "negative sequence number",
                            violation="negative_sequence")
    get_field(fields, "prev", "bytes", size=32)
    get_field(fields, "k", "str", max_len=32)
    entry = Entry(body, payload, signature, fields)
    check_entry_size(entry, msg)
    return entry


def entry_limit(kind: str) -> int:
    """The largest ``sig`` frame body an entry of ``kind`` may have (:data:`MAX_ENTRY`)."""
    return MAX_ENTRY.get(kind, MAX_ENTRY_OTHER)


_SIG_FIELDS = frozenset(("t", "p", "s"))
_COMMON_FIELDS = frozenset(("g", "seat", "n", "prev", "k"))
_KIND_FIELDS = {
    "table": frozenset(("v", "players", "rules", "rules_hash", "seats", "caps")),
    "ready": frozenset(("caps",)),
    # p: shares-ride/v1; b: next-deck/v1; r: late-reveal/v1
    "turn": frozenset(("d", "a", "p", "b", "r")),
    "done": frozenset(("result",)),
    "abort": frozenset(("code", "blamed", "why", "evidence", "evidence_id", "flag",
                        "clock")),
}
_ACTION_FIELDS = {"play": frozenset(("t", "pos", "card", "take")),
                  "cut": frozenset(("t", "keep", "pos"))}
_SEAT_FIELDS = frozenset(("seat", "key", "name"))
_RULES_FIELDS = frozenset(("name", "opening", "redeal", "forced_capture", "scoring", "target",
                           "figures"))


def _unknown_size(m: object, known: frozenset[str]) -> int:
    if not isinstance(m, dict):
        return 0
    return sum(len(encode(k)) + len(encode(v)) for k, v in m.items() if k not in known)


def check_entry_size(entry: Entry, msg: dict[str, Any],
                     also_unknown: frozenset[str] = frozenset()) -> None:
    """ENTRY_TOO_LARGE unless the entry's frame body is within its kind's limit
    (:func:`entry_limit`) and its unknown fields take at most :data:`MAX_UNKNOWN` bytes
    (PROTOCOL.md section 2.1).  ``msg``: the decoded ``sig`` message.  ``also_unknown``:
    fields of the entry's kind that count as unknown here, as a capability's field does at
    a table where that capability is not in effect (a peer of before it counts them so)."""
    kind = entry.kind
    if len(entry.body) > entry_limit(kind):
        raise ProtocolError(ErrorCode.ENTRY_TOO_LARGE, f"a {kind[:32]!r} entry of "
                            f"{len(entry.body)} bytes (at most {entry_limit(kind)})",
                            violation="entry_too_large",
                            facts={"kind": kind[:32], "size": len(entry.body),
                                   "max": entry_limit(kind)})
    f = entry.fields
    known = _KIND_FIELDS.get(kind)
    unknown = _unknown_size(msg, _SIG_FIELDS)
    if known is not None:  # an unknown kind is refused by the game anyway
        unknown += _unknown_size(f, (_COMMON_FIELDS | known) - also_unknown)
    a = f.get("a") if kind == "turn" else None
    t = a.get("t") if isinstance(a, dict) else None
    if isinstance(t, str) and t in _ACTION_FIELDS:  # an action type is a str (a list is
        unknown += _unknown_size(a, _ACTION_FIELDS[t])  # not even hashable)
    if kind == "table":
        unknown += _unknown_size(f.get("rules"), _RULES_FIELDS)
        seats = f.get("seats")
        for s in seats if isinstance(seats, list) else ():
            unknown += _unknown_size(s, _SEAT_FIELDS)
    if unknown > MAX_UNKNOWN:
        raise ProtocolError(ErrorCode.ENTRY_TOO_LARGE, f"{unknown} bytes of unknown fields "
                            f"(at most {MAX_UNKNOWN})", violation="unknown_fields_too_large",
                            facts={"size": unknown, "max": MAX_UNKNOWN})


def same_value(a: Any, b: Any) -> bool:
    """Exact equality of decoded msgpack values: the same types (a bool is not an int,
    bytes are not a str) and the same contents, recursively.  Python's ``==`` says
    ``True == 1``; two implementations comparing a signed value must not differ."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_value(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def entry_id_of(body: bytes) -> bytes | None:
    """The id of the entry in a ``sig`` frame body, however large (an abort names an
    entry too big to repeat); None if ``body`` holds no entry payload."""
    try:
        msg = msgpack.unpackb(body, raw=False, strict_map_key=False, ext_hook=_no_ext)
    except Exception:
        return None
    p = msg.get("p") if isinstance(msg, dict) else None
    return entry_id(p) if isinstance(p, bytes) else None
