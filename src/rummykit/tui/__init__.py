"""The full-screen terminal app (Textual): ``rummykit tui``.

Everything game-specific comes from the game's presenter (its screen, its
turn commands, its narrator, its help rows, and for the free-table games the
draft as data, :meth:`~rummykit.presenters.base.Turn.board`); who acts next is
the step driver's rule; the engine judges every action. Textual is imported
only by :mod:`rummykit.tui.app`, so ``rummykit play`` never loads it.
"""
