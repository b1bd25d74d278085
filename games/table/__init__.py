"""The table as one seat (or a watcher) sees it, from that reader's ``player_view``.

``context`` builds what the regions of ``games/table.html`` render; ``status`` says whose turn
it is in words, ``moves`` what was played, ``hand`` draws the hand (in the player's order) and
the piles, ``results`` the end of a hand and of a match; ``regions`` decides which regions a change
touched and renders them as out-of-band swaps. Card, suit and level names: ``games.labels``.
"""
