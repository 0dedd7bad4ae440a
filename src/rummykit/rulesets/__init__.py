"""One package per game; the catalogue (``rummykit.catalogue``) registers them."""
