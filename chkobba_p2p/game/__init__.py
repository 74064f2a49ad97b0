"""The rules model, pure and public: cards, the shape of the table, the rules engine,
and game records (JSON Lines, like PGN for chess).
"""
