"""The domino_rummikub presenter."""
