"""Export, import and CSV downloads (to be written)."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("portable", __name__)
