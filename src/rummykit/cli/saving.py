"""Where records are saved: :mod:`rummykit.session.files`, named here too for the command line's modules."""

from rummykit.session.files import (
    RECORDS_ENV,
    free_path,
    numbered,
    records_folder,
    save_new,
    save_text,
    user_folder,
)

__all__ = ["RECORDS_ENV", "free_path", "numbered", "records_folder", "save_new", "save_text", "user_folder"]
