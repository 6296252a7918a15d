"""Portable data: matches, events and seasons exported and imported as JSON, deals as CSV, and a consistent backup.

The export document (``"format": "referee-export", "version": 2``) holds what people entered and
when, exactly as stored: every deal with its earlier versions, the log of actions and the confirmations of each
match's result as it stands; then club play (RULES.md 5): every event with its players, rounds and tables (each
table naming its match by uid), and every season's settings. A match and an event are known by their ``uid``; the
local integer ids are not part of the format, nor are the table links' tokens (secrets: an import makes new ones).
``status``, ``winner`` and ``totals`` are written for people reading the file; an import recomputes them from the
deals. Version 1 (matches alone, without confirmations) is still read.

An import is checked completely before anything is written, then written in one ``BEGIN
IMMEDIATE`` transaction: all of it or nothing. A match or an event whose uid is already here is skipped; a season's
settings already here are kept.

The modules, each importing only those before it (none imports this one):
``base`` (the format's name, versions and limits; ``InvalidImport``) → ``problems`` (a value's kinds, the problems
found) → ``club_validation`` (events and seasons) → ``validation`` (the document and its matches) → ``importing``
(the database's checks, the writing); ``export`` → ``csvfiles``; ``backup`` on its own. This module hands every
public name on. The ``flask --app referee backup`` command is registered by ``referee.commands``.
"""

from __future__ import annotations

from .backup import BackupReport, DamagedDatabase, backup
from .base import (
    DEAL_ACTIONS,
    FORMAT,
    MAX_DEPTH,
    MAX_NUMBER,
    MAX_PROBLEMS,
    MAX_UID,
    VERSION,
    VERSIONS,
    InvalidImport,
)
from .csvfiles import CSV_HEADER, CSV_SEATS, CsvWords, deals_csv, deals_csv_text, standings_csv
from .export import CHUNK, export_archive, export_match, export_text, started
from .importing import ImportReport, import_data
from .validation import OPTIONS_BEFORE

__all__ = [
    "CHUNK",
    "CSV_HEADER",
    "CSV_SEATS",
    "DEAL_ACTIONS",
    "FORMAT",
    "MAX_DEPTH",
    "MAX_NUMBER",
    "MAX_PROBLEMS",
    "MAX_UID",
    "OPTIONS_BEFORE",
    "VERSION",
    "VERSIONS",
    "BackupReport",
    "CsvWords",
    "DamagedDatabase",
    "ImportReport",
    "InvalidImport",
    "backup",
    "deals_csv",
    "deals_csv_text",
    "export_archive",
    "export_match",
    "export_text",
    "import_data",
    "standings_csv",
    "started",
]
