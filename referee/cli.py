"""``referee``: start the app on the embedded database (created and migrated on first start).

Listens on this machine only (127.0.0.1) unless ``--lan`` opens it to the local network, so phones at
the table can reach it: then it prints the address to open and a QR code of it.

Waitress is told what to trust and how many connections to keep (``server_settings``): behind
``REFEREE_PROXIES`` proxies it reads the client's address, scheme and host from the ``X-Forwarded-*`` headers
of the proxy's connections only (``REFEREE_TRUSTED_PROXY``) and clears them from everyone else's; idle
connections cannot take every slot (``REFEREE_CONNECTION_LIMIT``, ``REFEREE_CHANNEL_TIMEOUT``).

The app (``referee.app``) is imported here when the server starts, and never imports this module: the commands of
``flask --app referee`` live in ``referee.commands``.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import ipaddress
import socket
import subprocess
import sys
from typing import TYPE_CHECKING, Any, NoReturn

from . import config
from .config import SettingError, Settings, _

if TYPE_CHECKING:
    from flask import Flask


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on the local network (read locally; no traffic is sent)."""
    found: set[str] = set()
    try:
        out = subprocess.run(
            ["ip", "-4", "-o", "addr", "show", "scope", "global"], capture_output=True, text=True, timeout=3
        ).stdout
        found.update(
            part.split("/")[0]
            for line in out.splitlines()
            for i, part in enumerate(line.split())
            if i and line.split()[i - 1] == "inet"
        )
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))  # an IPv4 (host, port) pair
    except OSError:
        pass
    return sorted(a for a in found if not ipaddress.ip_address(a).is_loopback)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("%(value)s is not a port number (1–65535)") % {"value": repr(text)}
        ) from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(_("%(value)s is not a port number (1–65535)") % {"value": port})
    return port


def _threads(text: str) -> int:
    try:
        threads = int(text)
    except ValueError:
        threads = 0
    if threads < 1:
        raise argparse.ArgumentTypeError(_("%(value)s is not a number of threads (1 or more)") % {"value": repr(text)})
    return threads


# Waitress's own defaults, 100 connections kept up to 120 s idle (checked every 30 s), let 100 idle sockets —
# opened on purpose, or left by phones — make the next request wait minutes. Phones on the live table ask every
# 1.5 s, so a connection silent for 30 s is not one of theirs.
CONNECTION_LIMIT = 1000
CHANNEL_TIMEOUT = 30
# Open files besides the connections: listening sockets, the threads' SQLite files (database, -wal, -shm), fonts,
# temporary files of large bodies.
SPARE_FILES = 64
SPARE_FILES_PER_THREAD = 4
PROXY_HEADERS = frozenset({"x-forwarded-for", "x-forwarded-proto", "x-forwarded-host", "x-forwarded-port"})


def open_files(wanted: int) -> int:
    """How many files this process may open (``ulimit -n``), its soft limit raised towards ``wanted`` first as far
    as the hard limit allows (waitress polls its sockets, so more than 1024 is safe)."""
    try:
        import resource
    except ImportError:  # no such limit here (Windows)
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    if soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    return soft


def _connection_limit(asked: int | None, threads: int) -> int:
    """REFEREE_CONNECTION_LIMIT, or 1000 when this process may open files enough for them (fewer otherwise)."""
    spare = SPARE_FILES + SPARE_FILES_PER_THREAD * threads
    allowed = open_files((asked or CONNECTION_LIMIT) + spare)
    if asked and asked + spare > allowed:
        raise SettingError(
            _("REFEREE_CONNECTION_LIMIT=%(value)s needs %(needed)s open files, but this process may open only "
              "%(allowed)s (ulimit -n): raise that limit or lower the setting")
            % {"value": asked, "needed": asked + spare, "allowed": allowed})
    return asked or max(10, min(CONNECTION_LIMIT, allowed - spare))


def _trusted_proxy(given: str | None, proxies: int, host: str) -> str | None:
    """The address the proxy connects from (waitress compares it with the peer's exactly), ``*`` for any peer;
    by default this machine's loopback address, in the family Referee listens on."""
    if proxies <= 0:
        if given:
            raise SettingError(_("REFEREE_TRUSTED_PROXY is set but REFEREE_PROXIES is not: set REFEREE_PROXIES to "
                                 "the number of proxies in front of Referee"))
        return None
    if given:
        return given  # an IP address in its short form, or * (config.Address)
    try:
        return "::1" if ipaddress.ip_address(host.split("%")[0]).version == 6 else "127.0.0.1"
    except ValueError:  # a host name
        return "127.0.0.1"


def server_settings(settings: Settings, *, host: str, threads: int, proxies: int) -> dict[str, Any]:
    """Waitress's adjustments from the settings: the proxies it trusts and the connections it keeps.

    Behind ``proxies`` proxies, waitress reads X-Forwarded-For/-Proto/-Host/-Port from the trusted proxy's
    connections (the ``proxies`` last entries of each) and clears them from every other peer's, so the app sees
    the client's address, scheme and host — and a client that connects directly forges none of them."""
    # the live pages' held requests (web.push) get threads of their own: the others never wait behind them
    adjustments: dict[str, Any] = {"threads": threads + settings.live_waiters}
    trusted = _trusted_proxy(settings.trusted_proxy, proxies, host)
    if trusted is not None:
        adjustments.update(trusted_proxy=trusted, trusted_proxy_count=proxies,
                           trusted_proxy_headers=set(PROXY_HEADERS))
    timeout = settings.channel_timeout
    adjustments.update(
        connection_limit=_connection_limit(settings.connection_limit, threads),
        channel_timeout=timeout,
        cleanup_interval=max(1, min(10, timeout // 3)),  # an idle connection closes within 1⅓ × the timeout
        asyncore_use_poll=True,  # select() fails on descriptors past 1024
    )
    return adjustments


def url_host(host: str) -> str:
    """A host as it goes into a URL: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host else host


def bound_addresses(server) -> list[tuple[str, int]]:
    """Every (host, port) the waitress server actually listens on (one per address a name resolved to)."""
    if hasattr(server, "effective_listen"):
        return [(host, port) for host, port in server.effective_listen]
    return [(server.effective_host, server.effective_port)]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not the usage block
        self.exit(2, "referee: " + _("%(problem)s (see referee --help)") % {"problem": message} + "\n")


def lan_names() -> list[str]:
    """This machine's host name, as phones may reach it (plain and with .local for mDNS)."""
    name = socket.gethostname().strip().lower()
    return [name, f"{name.split('.')[0]}.local"] if name else []


def _arguments(argv: list[str] | None, settings: Settings) -> argparse.Namespace:
    """The command line, its options' defaults from the settings (REFEREE_HOST, REFEREE_PORT, REFEREE_THREADS),
    read by the options' own parsers."""
    parser = _Parser(prog="referee", description=_("Serve Referee with waitress."))
    parser.add_argument("--host", default=settings.host,
                        help=_("address to listen on (default 127.0.0.1: this machine only)"))
    parser.add_argument("--port", type=_port, default=settings.port,
                        help=_("port to listen on, 1–65535 (default 5000)"))
    parser.add_argument(
        "--lan",
        action="store_true",
        help=_("listen on the local network too (0.0.0.0) so phones can reach it; prints the address and a QR code"),
    )
    parser.add_argument("--threads", type=_threads, default=settings.threads,
                        help=_("worker threads (default 8)"))
    return parser.parse_args(argv)


def _app_and_settings(args: argparse.Namespace, host: str, settings: Settings) -> tuple[Flask, dict[str, Any]]:
    """The app on its database and waitress's settings; a start that cannot be made ends here, in one line."""
    # Flask and the app are loaded only now, after the arguments: `referee --help` and a mistyped argument answer at
    # once (the same holds for waitress, segno and WeasyPrint below).
    from . import store
    from .app import create_app

    # waitress reads the proxies' headers (server_settings), not the app's ProxyFix as well
    given: dict[str, Any] = {"SERVER_READS_PROXY_HEADERS": True}
    if args.lan:  # the names phones use for this machine are allowed hosts too
        given["LAN_HOSTS"] = [*lan_addresses(), *lan_names()]
    try:
        app = create_app(given, settings=settings)
        adjustments = server_settings(settings, host=host, threads=args.threads, proxies=int(app.config["PROXIES"]))
    except store.CannotStart as exc:
        print(exc.format_message(), file=sys.stderr, flush=True)
        sys.exit(exc.exit_code)
    except SettingError as exc:
        print(f"referee: {exc}", file=sys.stderr, flush=True)
        sys.exit(2)
    app.config["THREADS"] = args.threads  # the sheet renders keep most of them free (referee.web.sheets)
    app.config["LIVE_WAITERS"] = settings.live_waiters  # held live pages: as many threads more (server_settings)
    return app, adjustments


def _listen(app: Flask, host: str, port: int, settings: dict[str, Any]) -> Any:
    """Waitress's server bound to ``host:port``; a port in use or an address that cannot be used ends here."""
    from waitress.server import create_server  # loaded when used (see _app_and_settings)

    try:
        return create_server(app, host=host, port=port, **settings)
    except OSError as exc:  # in use, not this machine's address, unknown name
        reason: object = exc.strerror or str(exc)
        if exc.errno == errno.EADDRINUSE:
            reason = _("the port is already in use (is Referee already running? pick another with --port)")
    except ValueError as exc:  # waitress refuses the address outright
        reason = exc
    address = f"{url_host(host)}:{port}"
    print("referee: " + _("cannot listen on %(address)s: %(reason)s") % {"address": address, "reason": reason},
          file=sys.stderr, flush=True)
    sys.exit(1)


def _announce(app: Flask, server: Any, settings: dict[str, Any]) -> None:
    """Where it listens and what to open: this machine's address, or the LAN's with a QR code (and a loud warning
    when the network may reach it without a passphrase)."""
    from .store.urls import shown  # the URL of a PostgreSQL database without its password

    print("Referee: " + _("database %(path)s") % {"path": shown(str(app.config["DATABASE"]))}, flush=True)
    if settings.get("trusted_proxy"):
        print("Referee: " + _("the client's address, scheme and host are read from the X-Forwarded-* headers of "
                              "connections from %(proxy)s") % {"proxy": settings["trusted_proxy"]}, flush=True)
    bound = bound_addresses(server)
    port = bound[0][1]
    local = [h for h, _ in bound if not ipaddress.ip_address(h.split("%")[0]).is_unspecified]
    if local and all(ipaddress.ip_address(h.split("%")[0]).is_loopback for h in local):
        for address in local:
            print(_("Open %(url)s on this machine.") % {"url": f"http://{url_host(address)}:{port}/"}, flush=True)
        return
    addresses = local or lan_addresses() or [_("<this machine's address>")]
    if local or lan_addresses():  # the links Referee gives away (table cards, share links) carry it, not 127.0.0.1
        app.config["LAN_URL"] = f"http://{url_host(addresses[0])}:{port}"
    for address in addresses:
        print(_("Open %(url)s on a phone on this network.") % {"url": f"http://{url_host(address)}:{port}/"},
              flush=True)
    try:
        import segno  # loaded when used (see _app_and_settings)

        segno.make(f"http://{url_host(addresses[0])}:{port}/").terminal(compact=True)
    except Exception:  # a terminal that cannot draw it: the address above is enough
        pass
    if not app.config.get("PASSPHRASE"):
        bar = "!" * 78
        warning = _("WARNING: Referee is open to the network WITHOUT a passphrase: anyone on it can change\n"
                    "every match. Set REFEREE_PASSPHRASE=... and start it again.")
        lines = "\n".join(f"!! {line}" for line in warning.splitlines())
        print(f"\n{bar}\n{lines}\n{bar}\n", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> None:
    try:
        settings = config.environment()  # every REFEREE_* setting, read once
    except SettingError as exc:
        print(f"referee: {exc}", file=sys.stderr, flush=True)
        sys.exit(2)
    args = _arguments(argv, settings)
    host = "0.0.0.0" if args.lan else args.host
    app, adjustments = _app_and_settings(args, host, settings)
    server = _listen(app, host, args.port, adjustments)  # a port in use or a host it cannot bind: said at once
    from .web.sheets import start_render_server  # loaded when used (see _app_and_settings)

    with contextlib.suppress(OSError):  # the first sheet starts it (and says what is wrong)
        start_render_server(app)  # WeasyPrint loads in the renders' fork server while the server starts
    _announce(app, server, adjustments)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()


if __name__ == "__main__":
    main()
