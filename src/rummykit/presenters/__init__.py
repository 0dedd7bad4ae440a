"""One presenter per game: the words, table drawing and turn commands every interface uses."""
