"""The `baraha` command: serve, replay, simulate, export and verify a hand's file; for
several processes, proxy-config and announce."""
from __future__ import annotations

import argparse
import json
import os
import sys

from .announce import MOST as ANNOUNCE_MOST


def replay(args: argparse.Namespace) -> int:
    from .engine.scenario import ScenarioError, load, play

    name = "<stdin>" if args.file == "-" else args.file
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        print(f"baraha replay: cannot read {name}: {e}", file=sys.stderr)
        return 2
    try:
        hand, actions = load(text)
    except ScenarioError as e:
        print(f"baraha replay: {name}: {e}", file=sys.stderr)
        return 2
    out, ok = play(hand, actions)
    print(json.dumps(out))
    return 0 if ok else 1


def export(args: argparse.Namespace) -> int:
    """A finished hand's file from the database (the same as the Hands panel's download);
    without a number, every finished hand of the table, one file a line."""
    import sqlite3

    from .tables.store import DamagedFile, Store
    from .tables.history import file_text, hand_file

    def fail(message: str) -> int:
        print(f"baraha export: {message}", file=sys.stderr)
        return 2

    if not os.path.isfile(args.db):
        return fail(f"there is no database at {args.db}")
    code = args.code.strip().upper()
    try:
        store = Store(args.db)
        table = store.table_of(code)
        if table is None:
            return fail(f"there is no table {code} in {args.db}")
        numbers = [args.number] if args.number is not None else \
            range(1, store.hand_count(code) + 1)
        docs = []
        for n in numbers:
            log = store.hand_log(code, n)
            doc = hand_file(table["game"], table["players"], log) if log else None
            if doc is None and args.number is not None:
                return fail(f"table {code} has no hand {n}" if log is None else
                            f"hand {n} of table {code} is not over: it has no file yet")
            if doc is not None:
                docs.append(doc)
        store.close()
    except (sqlite3.DatabaseError, DamagedFile) as e:
        return fail(f"{args.db} is not a Baraha database ({e})")
    if args.number is not None:
        sys.stdout.write(file_text(docs[0]))
    else:
        for doc in docs:
            print(json.dumps(doc))
    return 0


def verify(args: argparse.Namespace) -> int:
    from .tables.verify import findings

    try:
        with open(args.file, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, UnicodeDecodeError, ValueError) as e:
        print(f"baraha verify: cannot read {args.file}: {e}", file=sys.stderr)
        return 2
    if not isinstance(doc, dict):
        print(f"baraha verify: {args.file}: a hand's file is a JSON object", file=sys.stderr)
        return 2
    found = findings(doc)
    for line in found:
        print(f"{args.file}: {line}")
    if not found:
        print(f"{args.file}: ok: the deck matches its seal and the actions replay to the result")
    return 1 if found else 0


def serve(args: argparse.Namespace) -> int:
    from .serve import serve as run

    try:
        port = _port(args.port)
    except ValueError as e:
        print(f"baraha serve: --port: {e}", file=sys.stderr)    # one line, no usage
        return 2
    try:
        return run(args.host, port, args.db, cert=args.cert, key=args.key, https=args.https,
                   tls_hosts=args.tls_host, names=args.name, shard=args.shard,
                   proxies=args.proxies, message_queue=args.message_queue)
    except KeyboardInterrupt:   # Ctrl-C before gunicorn took over its signals: a stop too
        return 0


def proxy_config(args: argparse.Namespace) -> int:
    from .proxy_config import ConfigError, haproxy, nginx

    try:
        text = (haproxy if args.haproxy else nginx)(args.shards, args.ports, listen=args.listen)
    except ConfigError as e:
        print(f"baraha proxy-config: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


def announce(args: argparse.Namespace) -> int:
    from .announce import AnnounceError, announce as send

    try:
        heard = send(args.text, args.message_queue, filipino=args.fil)
    except AnnounceError as e:
        print(f"baraha announce: {e}", file=sys.stderr)
        return 2 if e.bad_input else 1
    print(f"announced to the pages of {heard} server process{'' if heard == 1 else 'es'} "
          "listening on the queue")
    return 0


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a port number (1 to 65535)") from None
    if not 0 <= port <= 65535:      # 0: any free port (the tests use it)
        raise ValueError(f"{port} is not a port number (1 to 65535)")
    return port


def simulate(args: argparse.Namespace) -> int:
    # Imported here, not at the top: the server never needs the simulator.
    from .bots.simulate import main as run_simulation

    return run_simulation(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="baraha", description="Tong-its and Tonk on the home Wi-Fi.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="play a scenario file and print its outcome as JSON")
    p.add_argument("file", help="scenario JSON file, or - for standard input")
    p.set_defaults(run=replay)

    p = sub.add_parser("export", help="write a finished hand's file (JSON) from the database")
    p.add_argument("--db", required=True, help="the server's SQLite file")
    p.add_argument("code", help="the table's code")
    p.add_argument("number", type=int, nargs="?",
                   help="the hand's number [every finished hand, one file a line]")
    p.set_defaults(run=export)

    p = sub.add_parser("verify", help="check a hand's file: its seal, and that it replays to "
                                      "its result")
    p.add_argument("file", help="a hand's file (JSON)")
    p.set_defaults(run=verify)

    p = sub.add_parser("serve", help="run the table server on this network")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on [0.0.0.0: every network]")
    p.add_argument("--port", default="8000", help="port, 1 to 65535 (0: any free one) [8000]")
    p.add_argument("--db", help="SQLite file for the tables [in your user data folder]")
    p.add_argument("--https", action="store_true",
                   help="serve HTTPS with a certificate made for this computer (phones trust it "
                        "once: see /help/https); lets phones install the app")
    p.add_argument("--cert", metavar="FILE", help="serve HTTPS with your own certificate (PEM)")
    p.add_argument("--key", metavar="FILE", help="the private key of --cert (PEM)")
    p.add_argument("--tls-host", metavar="NAME", action="append", default=[],
                   help="another local name or address for --https's certificate, like "
                        "laptop.lan (repeatable)")
    p.add_argument("--name", metavar="NAME", action="append", default=[],
                   help="another name the phones use for this computer, like games.lan "
                        "(repeatable); requests for names not ours are refused")
    p.add_argument("--shard", metavar="K/N",
                   help="one of N processes behind a proxy (0 <= K < N): make and serve only "
                        "the tables whose codes' first letters are K's (see proxy-config); "
                        "give each process its own --db and --port")
    p.add_argument("--proxies", metavar="N", type=int, default=0,
                   help="trust N proxies in front (X-Forwarded-For, X-Forwarded-Proto), so "
                        "the caps per address see the phone, not the proxy [0]")
    p.add_argument("--message-queue", metavar="URL",
                   help="join Flask-SocketIO's message queue, like redis://127.0.0.1:6379/0, "
                        "so `baraha announce` and other processes reach this one's pages")
    p.set_defaults(run=serve)

    p = sub.add_parser("proxy-config",
                       help="print an nginx site (or HAProxy's config) for N processes "
                            "started with --shard K/N")
    p.add_argument("--shards", type=int, required=True, help="how many processes (N)")
    p.add_argument("--ports", required=True,
                   help="their ports on 127.0.0.1, comma separated, process 0 first")
    p.add_argument("--listen", default="80",
                   help="what the proxy listens on: a port, or ADDRESS:PORT [80]")
    p.add_argument("--haproxy", action="store_true", help="HAProxy's configuration instead")
    p.set_defaults(run=proxy_config)

    p = sub.add_parser("announce", help="show a message on every table page of every process "
                                        "(through the message queue)")
    p.add_argument("text", help=f"the message, one line (at most {ANNOUNCE_MOST} characters)")
    p.add_argument("--fil", metavar="TEXT",
                   help="the same message in Filipino, for the pages shown in Filipino")
    p.add_argument("--message-queue", metavar="URL", default="redis://127.0.0.1:6379/0",
                   help="the queue the servers joined [redis://127.0.0.1:6379/0]")
    p.set_defaults(run=announce)

    p = sub.add_parser("simulate", help="bots play many hands; print each bot's chips as JSON")
    p.add_argument("--game", choices=("tongits", "tonk"), required=True)
    p.add_argument("--players", type=int, help="seats at the table (default: one per bot)")
    p.add_argument("--hands", type=int, default=300, help="hands to play in all [300]")
    p.add_argument("--seed", type=int, default=0, help="seed of the decks and the bots [0]")
    p.add_argument("--bots", required=True,
                   help="one level per seat, comma separated: easy, normal, hard, expert (hard,easy,easy)")
    p.add_argument("--options", help='house rules as JSON, like \'{"jackpot": 0}\'')
    p.add_argument("--duplicate", action="store_true",
                   help="deal k is dealt by seat k mod N in every rotation (the fair "
                        "measure; --hands a multiple of the players), not by the winner")
    p.add_argument("--quiet", action="store_true", help="no progress bar on standard error")
    p.set_defaults(run=simulate)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
