"""The prime-order group the deal is built on: ristretto255, from libsodium via ``rbcl``.

No curve arithmetic is written here: every group operation is libsodium's.  This module
only fixes the representations the rest of the project shares:

* a **point** is its canonical 32-byte ristretto255 encoding (``bytes``);
* a **scalar** is a Python ``int`` in ``0..L-1`` (scalar algebra mod ``L`` is plain integer
  arithmetic; it becomes 32 little-endian bytes only when it meets a point).

Every point that arrives from outside (the network, a log file) must pass through
:func:`decode_point`, which refuses anything that is not a canonical encoding of a group
element.  libsodium's arithmetic functions do *not* check their inputs.
"""

from __future__ import annotations

import os
import sys

import rbcl
from cryptography.hazmat.primitives import hashes

# rbcl keeps the bytes of the libsodium it wrote to a file and loaded (2.8 MB) in a module
# global that nothing reads again: let them go (a peer's memory, issue 44).
_sodium_module = sys.modules.get("rbcl._sodium")
if isinstance(getattr(_sodium_module, "sodium_bs", None), bytes):
    setattr(_sodium_module, "sodium_bs", b"")  # noqa: B010 - not an attribute it declares
del _sodium_module

__all__ = [
    "L",
    "POINT_BYTES",
    "SCALAR_BYTES",
    "IDENTITY",
    "BASE",
    "InvalidGroupElement",
    "random_scalar",
    "scalar_to_bytes",
    "decode_scalar",
    "decode_point",
    "mul",
    "base_mul",
    "add",
    "sub",
    "hash_bytes",
    "hash_to_point",
    "hash_to_scalar",
]

#: Order of the ristretto255 group.
L = 2**252 + 27742317777372353535851937790883648493
POINT_BYTES = 32
SCALAR_BYTES = 32
#: Encoding of the neutral element.
IDENTITY = bytes(32)


class InvalidGroupElement(ValueError):
    """Bytes that are not a canonical point or scalar encoding."""


def random_scalar() -> int:
    """A uniform non-zero scalar from the operating system's CSPRNG."""
    while True:
        # 64 bytes reduced mod L: bias below 2**-250.
        k = int.from_bytes(os.urandom(64), "little") % L
        if k:
            return k


def scalar_to_bytes(k: int) -> bytes:
    return (k % L).to_bytes(32, "little")


def decode_scalar(data: object) -> int:
    """A received scalar: exactly 32 bytes, canonical (``< L``)."""
    if not isinstance(data, bytes | bytearray) or len(data) != SCALAR_BYTES:
        raise InvalidGroupElement("a scalar is 32 bytes")
    k = int.from_bytes(data, "little")
    if k >= L:
        raise InvalidGroupElement("scalar is not reduced modulo the group order")
    return k


def decode_point(data: object) -> bytes:
    """A received point: exactly 32 bytes and a canonical ristretto255 encoding."""
    if not isinstance(data, bytes | bytearray) or len(data) != POINT_BYTES:
        raise InvalidGroupElement("a point is 32 bytes")
    data = bytes(data)
    if not rbcl.crypto_core_ristretto255_is_valid_point(data):
        raise InvalidGroupElement("not a canonical ristretto255 point")
    return data


def mul(k: int, point: bytes) -> bytes:
    """``k * point``; zero scalars and the identity are allowed."""
    return bytes(rbcl.crypto_scalarmult_ristretto255_allow_scalar_zero(scalar_to_bytes(k), point))


def base_mul(k: int) -> bytes:
    """``k * BASE``."""
    return bytes(rbcl.crypto_scalarmult_ristretto255_base_allow_scalar_zero(scalar_to_bytes(k)))


def add(p: bytes, q: bytes) -> bytes:
    return bytes(rbcl.crypto_core_ristretto255_add(p, q))


def sub(p: bytes, q: bytes) -> bytes:
    return bytes(rbcl.crypto_core_ristretto255_sub(p, q))


#: The standard generator.
BASE = base_mul(1)


def hash_bytes(tag: bytes, *parts: bytes) -> bytes:
    """SHA-512 over a domain tag and length-prefixed parts (unambiguous concatenation).

    Encoding: ``len(tag) (2 bytes BE) || tag || for each part: len (4 bytes BE) || part``.
    """
    h = hashes.Hash(hashes.SHA512())
    h.update(len(tag).to_bytes(2, "big"))
    h.update(tag)
    for part in parts:
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return h.finalize()


def hash_to_point(tag: bytes, *parts: bytes) -> bytes:
    """A point nobody knows the discrete log of: ristretto255 from a 64-byte hash."""
    return bytes(rbcl.crypto_core_ristretto255_from_hash(hash_bytes(tag, *parts)))


def hash_to_scalar(tag: bytes, *parts: bytes) -> int:
    """A scalar from a hash (Fiat–Shamir challenges): 512 bits reduced mod L."""
    return int.from_bytes(hash_bytes(tag, *parts), "little") % L
