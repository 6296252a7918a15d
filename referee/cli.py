"""``referee``: start the app on the embedded database (created and migrated on first start).

Listens on this machine only (127.0.0.1) unless ``--lan`` opens it to the local network, so phones at
the table can reach it: then it prints the address to open and a QR code of it.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
import subprocess
import sys


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on the local network (read locally; no traffic is sent)."""
    found = set()
    try:
        out = subprocess.run(["ip", "-4", "-o", "addr", "show", "scope", "global"], capture_output=True, text=True, timeout=3).stdout
        found.update(part.split("/")[0] for line in out.splitlines() for i, part in enumerate(line.split()) if i and line.split()[i - 1] == "inet")
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(info[4][0])
    except OSError:
        pass
    return sorted(a for a in found if not ipaddress.ip_address(a).is_loopback)


def lan_names() -> list[str]:
    """This machine's host name, as phones may reach it (plain and with .local for mDNS)."""
    name = socket.gethostname().strip().lower()
    return [name, f"{name.split('.')[0]}.local"] if name else []


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="referee", description="Serve Referee with waitress.")
    parser.add_argument("--host", default=os.environ.get("REFEREE_HOST", "127.0.0.1"),
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("REFEREE_PORT", "5000")))
    parser.add_argument("--lan", action="store_true",
                        help="listen on the local network too (0.0.0.0) so phones can reach it; prints the address and a QR code")
    parser.add_argument("--threads", type=int, default=int(os.environ.get("REFEREE_THREADS", "8")))
    args = parser.parse_args(argv)

    from waitress import serve

    from . import create_app, store

    host = "0.0.0.0" if args.lan else args.host
    try:  # with --lan, the names phones use for this machine are allowed hosts too
        app = create_app({"LAN_HOSTS": [*lan_addresses(), *lan_names()]} if args.lan else None)
    except store.CannotStart as exc:
        print(exc.format_message(), file=sys.stderr, flush=True)
        sys.exit(exc.exit_code)
    print(f"Referee: database {app.config['DATABASE']}", flush=True)
    loopback = host in ("127.0.0.1", "localhost", "::1")
    if loopback:
        print(f"Open http://127.0.0.1:{args.port}/ on this machine.", flush=True)
    else:
        addresses = lan_addresses() or ["<this machine's address>"]
        for address in addresses:
            print(f"Open http://{address}:{args.port}/ on a phone on this network.", flush=True)
        try:
            import segno

            segno.make(f"http://{addresses[0]}:{args.port}/").terminal(compact=True)
        except Exception:  # a terminal that cannot draw it: the address above is enough
            pass
        if not app.config.get("PASSPHRASE"):
            bar = "!" * 78
            print(f"\n{bar}\n!! WARNING: Referee is open to the network WITHOUT a passphrase: anyone on it can change\n"
                  f"!! every match. Set REFEREE_PASSPHRASE=... and start it again.\n{bar}\n", file=sys.stderr, flush=True)
    serve(app, host=host, port=args.port, threads=args.threads)


if __name__ == "__main__":
    main()
