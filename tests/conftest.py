"""Test-suite settings.

On CI (``CI`` set), Hypothesis runs derandomized: the same examples every run, so a red
build always reproduces; locally it explores new examples each run and remembers failures.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
