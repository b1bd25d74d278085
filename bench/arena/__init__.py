"""Arena benchmark: bots play one arena on a site it starts while open pages watch it."""
