"""A game from no seat, pure and public: the observer, audits, the coach's review,
the history of a folder of logs and its ratings.
"""
