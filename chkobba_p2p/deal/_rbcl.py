"""rbcl (the group's libsodium) imported without the test tools it imports for itself.

``rbcl.rbcl`` starts with ``import doctest`` (to run its own examples when executed as a
script), and doctest brings unittest, pdb, difflib, argparse and more: about 1.4 MB of a
peer's memory for tools no peer runs (issue 44).  While rbcl is first imported,
``doctest`` in :data:`sys.modules` is a placeholder module, then removed, so that the
next ``import doctest`` anywhere gets the real one.  rbcl reads ``doctest`` only under
``if __name__ == "__main__"``.  When doctest is already imported (pytest, a REPL), or rbcl
is, nothing is changed.
"""

from __future__ import annotations

import sys
import types


def import_rbcl() -> None:
    """Import rbcl once, without doctest (see the module's docstring)."""
    if "rbcl" in sys.modules or "doctest" in sys.modules:
        import rbcl  # noqa: F401 - already imported, or doctest is there anyway
        return
    placeholder = types.ModuleType("doctest", "stands for doctest while rbcl is imported")
    sys.modules["doctest"] = placeholder
    try:
        import rbcl  # noqa: F401
    finally:
        if sys.modules.get("doctest") is placeholder:
            del sys.modules["doctest"]


import_rbcl()
