"""Finding players and following them: the search, player pages, friends, completion badges."""
