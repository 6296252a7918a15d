"""The commands Referee adds to ``flask --app referee``, registered by the app factory (``register_commands``):
``backup PATH [--force]``.

They live apart from ``referee.cli`` (the ``referee`` command, which starts waitress and imports the app): the app
imports this module, never the command that serves it.
"""

from __future__ import annotations

from pathlib import Path

import click
from flask import Flask

from . import store
from .portable.backup import backup


def register_commands(app: Flask) -> None:
    """Adds ``flask --app referee backup PATH [--force]`` (``referee.portable.backup``)."""

    @app.cli.command("backup")
    @click.argument("path", type=click.Path(path_type=Path))
    @click.option("--force", is_flag=True, help="Overwrite PATH if it exists.")
    def backup_command(path: Path, force: bool) -> None:
        """Copy the database (consistently, while the app runs) to PATH."""
        try:
            report = backup(app.config["DATABASE"], path, force=force)
        except OSError as exc:
            raise click.ClickException(str(exc)) from None
        except Exception as exc:  # the database's own errors (SQLite's, PostgreSQL's): said in one line
            problem = store.problem_of(app.config["DATABASE"], exc)
            if problem is None:
                raise
            raise click.ClickException(problem) from None
        click.echo(
            f"Backed up {report.source} to {report.target}: {report.matches} matches, {report.deals} deals, "
            f"{report.size:,} bytes."
        )
