"""``python -m rummykit``: the same as the ``rummykit`` command."""

from rummykit.cli.main import main

if __name__ == "__main__":
    raise SystemExit(main())
