"""What export and import agree on: the format's name and versions, the limits of a file, and ``InvalidImport``,
the refusal of a file that cannot be taken as it is."""

from __future__ import annotations

from .. import matches
from ..games.base import RuleError

FORMAT = "referee-export"
VERSION = 2  # the version written; every version in VERSIONS is read
VERSIONS = (1, 2)  # 1: matches alone (no events, seasons nor confirmations)
DEAL_ACTIONS = ("entered", "corrected", "voided", "restored", "undone")  # a deal's last_action, a version's action
MAX_NUMBER = matches.MAX_NUMBER  # deal numbers and versions: far beyond any real match, well inside SQLite's integers
MAX_DEPTH = 64  # nesting of JSON values: deal entries are a few levels deep
MAX_UID = 100
MAX_PROBLEMS = 100  # a file that is wrong everywhere: reading stops after this many problems


class InvalidImport(RuleError):
    """An import file that cannot be taken as it is: every problem found, nothing stored."""
