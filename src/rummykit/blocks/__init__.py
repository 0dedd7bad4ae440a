"""Building blocks shared by games: the free-rearrangement table (more to come)."""
