"""Private tables: a match between two friends reached by an invitation link."""
