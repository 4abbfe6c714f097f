"""Storage: aiosqlite behind a small repository API. All SQL of the project lives here."""

from storage.database import Database, database_path
from storage.models import RatingPoint, Result, Seat, Standing, Table, TableStatus

__all__ = [
    "Database",
    "RatingPoint",
    "Result",
    "Seat",
    "Standing",
    "Table",
    "TableStatus",
    "database_path",
]
