"""``referee``: start the app on the embedded database (created and migrated on first start)."""

from __future__ import annotations

import argparse
import os


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="referee", description="Serve Referee.")
    parser.add_argument("--host", default=os.environ.get("REFEREE_HOST", "127.0.0.1"),
                        help="address to listen on (default 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("REFEREE_PORT", "5000")))
    args = parser.parse_args(argv)

    from waitress import serve

    from . import create_app

    app = create_app()
    print(f"Referee is serving {app.config['DATABASE']} at http://{args.host}:{args.port}/", flush=True)
    serve(app, host=args.host, port=args.port, threads=8)


if __name__ == "__main__":
    main()
