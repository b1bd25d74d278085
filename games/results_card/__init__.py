"""The results card of a finished match (issue 41): who played, the final score, every hand's
result and what the match did to the ratings, on a page of its own that a player shares as a
link. The link carries a signed token, not the match's id: only a player who chose to share it
hands it out, and it shows nothing a finished match still hides (no card of any hand)."""
