"""Bots: ``choose(view, rng) -> action``. A bot only ever sees a view."""
