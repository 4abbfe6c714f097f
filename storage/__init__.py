"""Storage: a repository API over SQLite (aiosqlite) or PostgreSQL (asyncpg). All SQL of the
project lives here."""

from storage.backends import DEFAULT_POOL_SIZE
from storage.database import Database, database_path, parse_database_url
from storage.errors import StoreUnavailable
from storage.models import Place, PlaceKind, RatingPoint, Result, Seat, Standing, Table, TableStatus

__all__ = [
    "DEFAULT_POOL_SIZE",
    "Database",
    "Place",
    "PlaceKind",
    "RatingPoint",
    "Result",
    "Seat",
    "Standing",
    "StoreUnavailable",
    "Table",
    "TableStatus",
    "database_path",
    "parse_database_url",
]
