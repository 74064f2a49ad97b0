"""The I/O shell: the only folder of the library that imports trio, sockets or zeroconf.
Private: reach it through the faces, ``chkobba_p2p`` (playing at a table) and
``chkobba_p2p.lowlevel`` (the protocol's machines).
"""

import importlib
import sys
import types

# First of all (issue 44, a peer's peak memory): the deal's group library, rbcl, loads
# libsodium from a 5.6 MB hex string held in its bytecode, some 12 MB for a moment of its
# import.  Every peer needs it; imported before the rest of the shell (and before the
# deal is first used, mid-connection), the memory of that moment is reused by the modules
# that follow instead of adding to the peak.
from ..deal import group as _group  # noqa: E402,F401


def _remove_libsodium_copy() -> None:
    """rbcl writes its libsodium to a new file in the temporary folder at every import and
    never removes it (2.8 MB a process).  Once loaded the file is not needed (POSIX keeps
    the mapping; where a loaded library cannot be removed, it stays)."""
    import contextlib
    import os
    import sys
    import tempfile

    path = getattr(sys.modules.get("rbcl._sodium"), "lib_path", None)
    if not isinstance(path, str):
        return
    folder = os.path.realpath(tempfile.gettempdir())
    if os.path.dirname(os.path.realpath(path)) == folder and path.endswith((".so", ".pyd")):
        with contextlib.suppress(OSError):
            os.unlink(path)


_remove_libsodium_copy()


class _SslOnFirstUse(types.ModuleType):
    """Stands for :mod:`ssl` in trio's modules: the real module is imported the first time
    one of its names is read (trio reads them only when a TLS stream is made)."""

    def __getattr__(self, name: str) -> object:
        real = importlib.import_module("ssl")
        self.__dict__.update(vars(real))  # later reads find the names at once
        return getattr(real, name)


def _import_trio_without_ssl() -> None:
    """Import trio without :mod:`ssl` and the OpenSSL it loads (issue 44, a peer's memory:
    about 1 MB).  trio imports ``ssl`` for its TLS streams, which no peer uses (the link
    signs and checks its frames itself), and reads its names only inside the functions
    and methods of those streams.  While trio is first imported, ``ssl`` in
    :data:`sys.modules` is a module that imports the real one on the first name read
    from it, then it is removed, so that the next ``import ssl`` anywhere gets the real
    one.  When trio or ssl is already imported, nothing is changed."""
    if "trio" in sys.modules or "ssl" in sys.modules:
        return
    standin = _SslOnFirstUse("ssl", "imports the real ssl on first use (trio's TLS)")
    sys.modules["ssl"] = standin
    try:
        import trio  # noqa: F401
    finally:
        if sys.modules.get("ssl") is standin:
            del sys.modules["ssl"]


_import_trio_without_ssl()
