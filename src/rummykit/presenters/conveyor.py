"""The conveyor presenter."""
