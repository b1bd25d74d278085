"""Ratings: Glicko-2, one rating per rules preset, for lobby matches played "rated".

``glicko`` (the computation, through the ``glicko2`` package), ``models`` (ratings, rated
matches, the changes), ``results`` (a rated match's result applied once, in the transaction
that ends it: a subscriber of games' ``match_changed``), ``reads`` (what pages and the API
show: ``ratings_of(user)``, the history, the leaderboards) and ``chart`` (the profile's SVG).
Import from the module you need (``from lobby.ratings.reads import ratings_of``): this package
is imported by ``lobby.models`` and so imports nothing itself.
"""
