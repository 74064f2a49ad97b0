"""The options the sub-commands declare, by concern: a peer's (names, seats, clocks, levels,
addresses), the rules' and Tor's.  Standard library only, and nothing imported here: a
sub-command's ``--help`` loads no library module (tests/client/test_cli_main.py)."""
