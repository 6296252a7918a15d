"""The commands Referee adds to ``flask --app referee``, registered by the app factory (``register_commands``):
``backup PATH [--force]``, and the operator's ``spaces list|create|key|export|delete|rename`` (issue 48).

They live apart from ``referee.cli`` (the ``referee`` command, which starts waitress and imports the app): the app
imports this module, never the command that serves it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import AppGroup

from . import store
from .games.base import RuleError
from .matches import NotFound, spaces
from .portable import export_text
from .portable.backup import backup


def register_commands(app: Flask) -> None:
    """Adds ``flask --app referee backup PATH [--force]`` (``referee.portable.backup``) and ``spaces …``."""
    app.cli.add_command(spaces_cli)

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


# ---- the operator's: spaces (issue 48) -------------------------------------------------------------------------------

spaces_cli = AppGroup("spaces", help="Spaces: one club's or one group's own Referee each (REFEREE_SPACES).")


@contextmanager
def _opened() -> Iterator[store.Store]:
    """A store of the command's own on the app's database (``store.connect``); a refusal of the service (an unknown
    slug, a bad name) said in one line, exit 1."""
    db = store.connect(current_app.config["DATABASE"])
    db.max_matches = int(current_app.config.get("SPACE_MAX_MATCHES") or store.DEFAULT_MAX_MATCHES)
    try:
        yield db
    except (NotFound, RuleError) as exc:
        raise click.ClickException(_said(exc)) from None
    finally:
        db.close()


def _home(slug: str) -> str:
    """A space's address, on REFEREE_PUBLIC_URL (the address the server prints when it is not set)."""
    return f"{str(current_app.config.get('PUBLIC_URL') or 'http://127.0.0.1:5000').rstrip('/')}/s/{slug}/"


def _said(exc: Exception) -> str:
    """A refusal of the service in one English line."""
    if isinstance(exc, RuleError):
        return " ".join(v.message for v in exc.violations)
    return str(exc)


@spaces_cli.command("list")
@click.option("--json", "as_json", is_flag=True, help="A JSON list of objects.")
def list_command(as_json: bool) -> None:
    """Every space: slug, name, matches, events, last used."""
    with _opened() as db:
        listed = spaces.list_spaces(db)
    rows = [{"slug": s.slug, "name": s.name, "matches": s.matches, "events": s.events, "last_used": s.last_used}
            for s in listed]
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    heads = {"slug": "slug", "name": "name", "matches": "matches", "events": "events", "last_used": "last used"}
    widths = {k: max([len(h)] + [len(str(r[k])) for r in rows]) for k, h in heads.items()}
    click.echo("  ".join(h.ljust(widths[k]) for k, h in heads.items()).rstrip())
    for r in rows:
        cells = [str(r[k]).rjust(widths[k]) if k in ("matches", "events") else str(r[k]).ljust(widths[k])
                 for k in heads]
        click.echo("  ".join(cells).rstrip())


@spaces_cli.command("create")
@click.argument("name")
def create_command(name: str) -> None:
    """Make a space named NAME: prints its address, director link and API key (shown this once)."""
    if (current_app.config.get("SPACES") or "off") == "off":
        raise click.ClickException("Spaces are off (REFEREE_SPACES=off): set REFEREE_SPACES to invite or open first "
                                   "(with more than one space, Referee does not start with them off).")
    with _opened() as db:
        made = spaces.create_space(db, name)
    home = _home(made.slug)
    click.echo(f"Made the space {made.name!r}: {home}")
    click.echo(f"Director link (signs a browser in as its director): {home}d/{made.director_token}")
    click.echo(f"API key (Authorization: Bearer <key>): {made.key}")
    click.echo("Both are shown this once: Referee keeps only their hashes.")


@spaces_cli.command("key")
@click.argument("slug")
def key_command(slug: str) -> None:
    """A new API key for the space SLUG, printed alone; the one before stops at once."""
    with _opened() as db:
        click.echo(spaces.new_key(db, slug))


@spaces_cli.command("export")
@click.argument("slug")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def export_command(slug: str, file: Path) -> None:
    """Write the space SLUG's archive (as GET /api/export gives it) to FILE."""
    with _opened() as db:
        space = spaces.find_space(db, slug)
        with db.in_space(space.id):
            try:
                with file.open("w", encoding="utf-8") as out:
                    for piece in export_text(db):
                        out.write(piece)
            except OSError as exc:
                raise click.ClickException(f"Cannot write {file}: {exc.strerror or exc}.") from None
    click.echo(f"Exported the space {slug} ({space.name!r}) to {file}.", err=True)


@spaces_cli.command("delete")
@click.argument("slug")
@click.option("--yes", is_flag=True, help="Do not ask.")
def delete_command(slug: str, yes: bool) -> None:
    """Delete the space SLUG and everything in it: nothing of it is kept."""
    with _opened() as db:
        space = next((s for s in spaces.list_spaces(db) if s.slug == slug), None) or spaces.find_space(db, slug)
        if not yes:
            click.confirm(f"Delete the space {space.name!r} ({slug}) and everything in it ({space.matches} matches, "
                          f"{space.events} events)?", abort=True)
        spaces.delete_space(db, slug)
    click.echo(f"Deleted the space {slug}.")


@spaces_cli.command("rename")
@click.argument("slug")
@click.argument("name")
def rename_command(slug: str, name: str) -> None:
    """Give the space SLUG the name NAME (its address stays)."""
    with _opened() as db:
        space = spaces.rename_space(db, slug, name)
    click.echo(f"The space {slug} is now named {space.name!r}.")
