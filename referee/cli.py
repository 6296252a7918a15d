"""``referee``: start the app on the embedded database (created and migrated on first start).

Listens on this machine only (127.0.0.1) unless ``--lan`` opens it to the local network, so phones at
the table can reach it: then it prints the address to open and a QR code of it.
"""

from __future__ import annotations

import argparse
import errno
import gettext
import ipaddress
import os
import socket
import subprocess
import sys
from pathlib import Path

TRANSLATIONS = Path(__file__).resolve().parent / "translations"


def _(text: str) -> str:
    """``text`` in the language of the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), English by default
    or when the catalogues are not compiled."""
    return gettext.translation("messages", TRANSLATIONS, fallback=True).gettext(text)


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


def url_host(host: str) -> str:
    """A host as it goes into a URL: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host else host


def bound_addresses(server) -> list[tuple[str, int]]:
    """Every (host, port) the waitress server actually listens on (one per address a name resolved to)."""
    if hasattr(server, "effective_listen"):
        return [(host, port) for host, port in server.effective_listen]
    return [(server.effective_host, server.effective_port)]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, not the usage block
        self.exit(2, "referee: " + _("%(problem)s (see referee --help)") % {"problem": message} + "\n")


def lan_names() -> list[str]:
    """This machine's host name, as phones may reach it (plain and with .local for mDNS)."""
    name = socket.gethostname().strip().lower()
    return [name, f"{name.split('.')[0]}.local"] if name else []


def main(argv: list[str] | None = None) -> None:
    parser = _Parser(prog="referee", description=_("Serve Referee with waitress."))
    parser.add_argument("--host", default=os.environ.get("REFEREE_HOST", "127.0.0.1"),
                        help=_("address to listen on (default 127.0.0.1: this machine only)"))
    parser.add_argument("--port", type=_port, default=os.environ.get("REFEREE_PORT", "5000"),
                        help=_("port to listen on, 1–65535 (default 5000)"))
    parser.add_argument(
        "--lan",
        action="store_true",
        help=_("listen on the local network too (0.0.0.0) so phones can reach it; prints the address and a QR code"),
    )
    parser.add_argument("--threads", type=_threads, default=os.environ.get("REFEREE_THREADS", "8"),
                        help=_("worker threads (default 8)"))
    args = parser.parse_args(argv)

    from waitress.server import create_server

    from . import store
    from .app import create_app

    host = "0.0.0.0" if args.lan else args.host
    try:  # with --lan, the names phones use for this machine are allowed hosts too
        app = create_app({"LAN_HOSTS": [*lan_addresses(), *lan_names()]} if args.lan else None)
    except store.CannotStart as exc:
        print(exc.format_message(), file=sys.stderr, flush=True)
        sys.exit(exc.exit_code)
    app.config["THREADS"] = args.threads  # the sheet renders keep most of them free (referee.web.sheets)
    from .web.sheets import start_render_server

    try:
        start_render_server(app)  # WeasyPrint loads in the renders' fork server while the server starts
    except OSError:  # the first sheet starts it (and says what is wrong)
        pass
    try:
        server = create_server(app, host=host, port=args.port, threads=args.threads)
    except OSError as exc:  # in use, not this machine's address, unknown name
        reason = exc.strerror or str(exc)
        if exc.errno == errno.EADDRINUSE:
            reason = _("the port is already in use (is Referee already running? pick another with --port)")
        address = f"{url_host(host)}:{args.port}"
        print("referee: " + _("cannot listen on %(address)s: %(reason)s") % {"address": address, "reason": reason},
              file=sys.stderr, flush=True)
        sys.exit(1)
    except ValueError as exc:  # waitress refuses the address outright
        address = f"{url_host(host)}:{args.port}"
        print("referee: " + _("cannot listen on %(address)s: %(reason)s") % {"address": address, "reason": exc},
              file=sys.stderr, flush=True)
        sys.exit(1)
    print("Referee: " + _("database %(path)s") % {"path": app.config["DATABASE"]}, flush=True)
    bound = bound_addresses(server)
    port = bound[0][1]
    local = [h for h, _ in bound if not ipaddress.ip_address(h.split("%")[0]).is_unspecified]
    if local and all(ipaddress.ip_address(h.split("%")[0]).is_loopback for h in local):
        for address in local:
            print(_("Open %(url)s on this machine.") % {"url": f"http://{url_host(address)}:{port}/"}, flush=True)
    else:
        addresses = local or lan_addresses() or [_("<this machine's address>")]
        for address in addresses:
            print(
                _("Open %(url)s on a phone on this network.") % {"url": f"http://{url_host(address)}:{port}/"},
                flush=True,
            )
        try:
            import segno

            segno.make(f"http://{url_host(addresses[0])}:{port}/").terminal(compact=True)
        except Exception:  # a terminal that cannot draw it: the address above is enough
            pass
        if not app.config.get("PASSPHRASE"):
            bar = "!" * 78
            warning = _("WARNING: Referee is open to the network WITHOUT a passphrase: anyone on it can change\n"
                        "every match. Set REFEREE_PASSPHRASE=... and start it again.")
            lines = "\n".join(f"!! {line}" for line in warning.splitlines())
            print(f"\n{bar}\n{lines}\n{bar}\n", file=sys.stderr, flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
