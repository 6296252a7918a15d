"""Spaces (issue 48): what the operator makes and runs — a space made, renamed, listed, deleted; its API key made new;
its director links made, listed, revoked; its own passphrase. No Flask: the web layer and the commands call these.

Every secret (a key, a director link's token) is made here from ``secrets``, handed back once, and kept only as its
hash (``secret_hash``: SHA-256 — a random secret of 32 bytes needs no slow hash); a passphrase, which a person
chooses, is kept as a salted scrypt hash. A space's slug is its name made readable and a random tail
(``skatclub-nord-k3v9q2xa``): a club's space is not found by trying names."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import unicodedata
from dataclasses import dataclass

from .. import store
from ..games.base import N_, RuleError, Violation
from ..store import SpaceRow, Store
from .base import Conflict, InvalidMatch, NotFound

NAME_MAX = 80  # characters of a space's name, after trimming
SLUG_WORDS = 24  # characters of the readable part of a slug, at most
TAIL = 8  # random characters after it: 36^8, about 2.8 * 10^12
_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"


class BadName(RuleError):
    """A space's name that is empty or too long (``bad_name``, beside ``name``)."""

    def __init__(self) -> None:
        super().__init__([Violation.of("bad_name", "name", "A space's name has 1 to {most} characters.",
                                       most=str(NAME_MAX))])


class SpaceFull(InvalidMatch):
    """The space holds the most matches it may (REFEREE_SPACE_MAX_MATCHES): nothing was stored."""

    def __init__(self, count: int, limit: int) -> None:
        super().__init__([Violation.of(
            "space_full", None, "This Referee holds {count} matches, the most it keeps ({limit}): nothing was stored. "
            "Whoever runs it can raise the limit (REFEREE_SPACE_MAX_MATCHES).",
            count=f"{count:,}", limit=f"{limit:,}")])


def full(exc: store.SpaceFull) -> SpaceFull:
    """The store's refusal of one more match, said as the rules say theirs (a 422)."""
    return SpaceFull(exc.count, exc.limit)


def unknown_space(slug: str) -> NotFound:
    return NotFound("unknown_space", N_("There is no space {slug}."), slug=slug)


@dataclass(frozen=True, slots=True)
class NewSpace:
    """A space just made, with its secrets: shown once, kept nowhere in clear."""

    id: int
    slug: str
    name: str
    key: str
    director_token: str


def secret_hash(secret: str) -> str:
    """What is kept of a key or a director link's token."""
    return hashlib.sha256(secret.encode()).hexdigest()


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def space_name(raw: object) -> str:
    """A space's name, trimmed: 1 to ``NAME_MAX`` characters (BadName otherwise)."""
    name = raw.strip() if isinstance(raw, str) else ""
    if not 1 <= len(name) <= NAME_MAX or not name.isprintable():
        raise BadName()
    return name


def slug_for(name: str) -> str:
    """``Skatclub Nord`` → ``skatclub-nord-`` and ``TAIL`` random letters and digits (a name with no Latin letters:
    ``space-…``)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    words = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:SLUG_WORDS].strip("-") or "space"
    return f"{words}-{''.join(secrets.choice(_ALPHABET) for _ in range(TAIL))}"


def create_space(db: Store, raw_name: object) -> NewSpace:
    """A new space named ``raw_name``, with its first director link and its API key."""
    name = space_name(raw_name)
    while True:
        slug = slug_for(name)
        if db.space_by_slug(slug) is None:
            break
    space = db.add_space(slug, name)
    key, token = new_secret(), new_secret()
    with db.in_space(space), db.immediate():
        db.set_space_key(secret_hash(key))
        db.add_director_link(secret_hash(token))
    return NewSpace(space, slug, name, key, token)


def find_space(db: Store, slug: str) -> SpaceRow:
    space = db.space_by_slug(slug)
    if space is None:
        raise unknown_space(slug)
    return space


def list_spaces(db: Store) -> list[SpaceRow]:
    return db.all_spaces()


def rename_space(db: Store, slug: str, raw_name: object) -> SpaceRow:
    space = find_space(db, slug)
    name = space_name(raw_name)
    db.rename_space(space.id, name)
    return find_space(db, slug)


def delete_space(db: Store, slug: str) -> None:
    """Everything of the space, and the space: nothing is kept."""
    db.delete_space(find_space(db, slug).id)


def new_key(db: Store, slug: str) -> str:
    """A new API key for the space; the one before stops at once."""
    key = new_secret()
    with db.in_space(find_space(db, slug).id):
        db.set_space_key(secret_hash(key))
    return key


def space_of_key(db: Store, key: str) -> int | None:
    """The space this API key opens (None: none, or a key made new since)."""
    return db.space_of_key(secret_hash(key)) if key else None


def make_director_link(db: Store, slug: str) -> str:
    """A new director link's token for the space (a co-director's)."""
    token = new_secret()
    with db.in_space(find_space(db, slug).id):
        db.add_director_link(secret_hash(token))
    return token


def director_links(db: Store, slug: str) -> list[store.DirectorLink]:
    with db.in_space(find_space(db, slug).id):
        return db.director_links()


def revoke_director_link(db: Store, slug: str, ref: str) -> bool:
    with db.in_space(find_space(db, slug).id):
        return db.revoke_director_link(ref)


def no_director_link(ref: str) -> NotFound:
    return NotFound("not_found", N_("This space has no director link {ref}."), ref=ref)


def last_way_in() -> Conflict:
    """Revoking the last working director link, or removing the passphrase while no link works: the space would
    have no way in for a person (its key opens only the API)."""
    return Conflict("last_link", N_("This is the space's last way in: set a passphrase or make another director "
                                    "link first, then revoke this one."))


def revoke_link_of_space(db: Store, space: int, ref: str) -> store.DirectorLink:
    """A director's revoking of one of the space's director links (by its ``ref``): the link as it is now (revoked;
    one revoked before stays as it was). Unknown: ``not_found``; the last working link while no passphrase is set:
    ``last_link`` (nothing changes). Looking and revoking are one step: two directors revoking the last two links at
    once cannot both succeed."""
    with db.in_space(space), db.immediate():
        links = {link.ref: link for link in db.director_links()}
        link = links.get(ref)
        if link is None:
            raise no_director_link(ref)
        if link.revoked is not None:
            return link
        working = [other for other in links.values() if other.revoked is None]
        if len(working) == 1 and db.space_passphrase() is None:
            raise last_way_in()
        db.revoke_director_link(ref)
        return next(other for other in db.director_links() if other.ref == ref)


def link_ref(token: str) -> str:
    """What names a director link in the lists (and in the sessions it signed in): the start of its token's hash."""
    return secret_hash(token)[:store.DIRECTOR_LINK_REF]


def director_link_works(db: Store, slug: str, token: str) -> bool:
    with db.in_space(find_space(db, slug).id):
        return db.director_link_works(secret_hash(token))


# ---- a space's own passphrase: salted scrypt, as a person chooses it ----------------------------------------------

_SCRYPT = {"n": 2**14, "r": 8, "p": 1}


def passphrase_hash(phrase: str, salt: bytes | None = None) -> str:
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.scrypt(phrase.encode(), salt=salt, **_SCRYPT)
    return f"scrypt${salt.hex()}${digest.hex()}"


def set_passphrase(db: Store, slug: str, phrase: str | None) -> None:
    """The space's own passphrase (None or empty: none)."""
    with db.in_space(find_space(db, slug).id):
        db.set_space_passphrase(passphrase_hash(phrase) if phrase else None)


PASSPHRASE_MIN = 8  # characters of a space's own passphrase, at least
PASSPHRASE_MAX = 200  # ... and at most (scrypt hashes what it is given: a megabyte is no passphrase)


class BadPassphrase(RuleError):
    """A space's passphrase that is too short or too long (``bad_passphrase``, beside ``passphrase``)."""

    def __init__(self) -> None:
        super().__init__([Violation.of("bad_passphrase", "passphrase",
                                       "A passphrase has {least} to {most} characters.",
                                       least=str(PASSPHRASE_MIN), most=str(PASSPHRASE_MAX))])


def check_passphrase(raw: object) -> str:
    """A passphrase as a director sets it: a text of ``PASSPHRASE_MIN`` to ``PASSPHRASE_MAX`` characters, kept as
    typed (spaces too: it is compared as it is typed at the login page)."""
    if not isinstance(raw, str) or not PASSPHRASE_MIN <= len(raw) <= PASSPHRASE_MAX:
        raise BadPassphrase()
    try:
        raw.encode()
    except UnicodeEncodeError:  # half a character (a lone surrogate sent as JSON's \ud800): nothing one can type
        raise BadPassphrase() from None
    return raw


def change_passphrase(db: Store, space: int, raw: object) -> None:
    """A director's setting (``raw`` a passphrase: ``check_passphrase``) or removing (``raw`` None) of the space's
    own passphrase; the sessions signed in by the one before end (``web.sessions._passphrase_tag``). Removing it
    while no director link works is refused (``last_link``): the space would have no way in."""
    phrase = None if raw is None else check_passphrase(raw)
    with db.in_space(space), db.immediate():
        if phrase is None and not any(link.revoked is None for link in db.director_links()):
            raise last_way_in()
        db.set_space_passphrase(None if phrase is None else passphrase_hash(phrase))


def passphrase_matches(db: Store, slug: str, phrase: str) -> bool:
    with db.in_space(find_space(db, slug).id):
        kept = db.space_passphrase()
    if not kept or not phrase:
        return False
    _, salt, _digest = kept.split("$")
    return hmac.compare_digest(passphrase_hash(phrase, bytes.fromhex(salt)), kept)


# ---- the move from one Referee to spaces -------------------------------------------------------------------------

DEFAULT_NAME = "Club"  # space 1's name as migration 17 made it


def first_start(db: Store, name: str) -> NewSpace | None:
    """Spaces on, for the first time on this database: space 1 (the Referee as it was) takes ``name`` if it still
    has the default one, and gets its API key and a director link — handed back once (None: made before, at an
    earlier start)."""
    key, token = new_secret(), new_secret()
    with db.in_space(1), db.immediate():  # two processes starting at once: one of them makes them
        space = db.space_by_id(1)
        if space is None or db.space_has_key() or db.director_links():
            return None
        named = space_name(name) if space.name == DEFAULT_NAME else space.name
        db.rename_space(1, named)
        db.set_space_key(secret_hash(key))
        db.add_director_link(secret_hash(token))
    return NewSpace(1, space.slug, named, key, token)
