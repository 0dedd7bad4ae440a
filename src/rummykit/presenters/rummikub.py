"""The rummikub presenter."""
