"""Test-suite settings.

On CI (``CI`` set), Hypothesis runs derandomized: the same examples every run, so a red
build always reproduces; locally it explores new examples each run and remembers failures.
"""

import os

from hypothesis import settings

# Tests touch no network but loopback: no host started by a test (or by a process it
# starts) asks a real router to open a port, unless the test names its fake router.
os.environ["CHKOBBA_NO_UPNP"] = "1"

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
