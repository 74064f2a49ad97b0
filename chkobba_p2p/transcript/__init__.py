"""The signed game, pure: one peer's view of the transcript (``session``: Session), the
table the genesis fixes (``table``), the capabilities (``caps``), the clocks and flags
(``clocks``), the game inside the transcript (``driver``), its events (``events``), the
matches a host ended (``ended``).
"""
