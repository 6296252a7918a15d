"""Fill a SQLite file with a big, realistic archive: by default 10,000 matches and 300,000 deals.

Every deal is a valid entry of its game (the rules check each one while the match summaries are
rebuilt), spread over three years and a pool of 60 players, finished, in progress and abandoned.

    .venv/bin/python scripts/bench/generate_archive.py instance/big.sqlite [--matches 10000] [--deals 300000] [--seed 7]
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from referee import matches, store
from referee.games import find_game
from referee.games.base import Table
from referee.games.spitzer import points_bounds

NAMES = [
    "Ann", "Ben", "Cid", "Dee", "Eva", "Finn", "Gus", "Hana", "Ivo", "Jana", "Kai", "Lena", "Mia", "Nils", "Ola",
    "Pia", "Quinn", "Rosa", "Sam", "Tea", "Uli", "Vera", "Wim", "Xena", "Yuki", "Zoe", "Ante", "Branka", "Dario",
    "Ema", "Filip", "Goran", "Iva", "Josip", "Kata", "Luka", "Marta", "Nika", "Petar", "Sara", "Tomo", "Vesna",
    "山田", "佐藤", "鈴木", "高橋", "Jürgen", "Käthe", "Lotte", "Moritz", "Björn", "Søren", "Ines", "Mateo",
    "Lucía", "Noor", "Omar", "Priya", "Ravi", "Wen",
]
SUITS = ("clubs", "diamonds", "hearts", "spades")


def klaberjass_deal(rng: random.Random, players: list[str], dealer: str) -> dict:
    elder = players[1] if dealer == players[0] else players[0]
    roll = rng.random()
    if roll < 0.06:
        return {"upcard": rng.choice(SUITS), "calls": ["pass", "pass", "pass", "pass"]}
    calls = ["take"] if roll < 0.6 else ["pass", "take"]
    upcard = rng.choice(SUITS)
    a = rng.randint(0, 130)
    b = rng.randint(max(0, 18 - a), 146 - a)  # RULES.md 1.3: together at least 18
    a, b = (2 if a == 1 else a), (2 if b == 1 else b)
    if a + b > 146:
        b = 146 - a
    deal = {"upcard": upcard, "calls": calls, "points": {elder: a, dealer: b}, "last_trick": rng.choice(players)}
    if rng.random() < 0.3:
        deal["sequences"] = {
            rng.choice(players): [
                {"suit": rng.choice(SUITS), "top": rng.choice(["A", "K", "Q"]), "length": rng.choice([3, 3, 4])}
            ]
        }
    return deal


def spitzer_deal(rng: random.Random, players: list[str], dealer: str) -> dict:
    contract = rng.choices(
        ["normal", "schneider", "stiller", "zola", "zola_schneider", "zola_schwarz"], [70, 6, 8, 10, 4, 2]
    )[0]
    solo = contract not in ("normal", "schneider")
    declarers = rng.sample(players, 1 if solo else 2)
    low = 1 if contract in ("normal", "stiller") else 0
    tricks = rng.randint(low, 8)
    if tricks == 0:
        points = 0
    elif tricks == 8:
        points = 120
    else:
        least, most = points_bounds(tricks)
        points = rng.randint(least, most)
        if points in (1, 119):
            points = 2 if points == 1 else 118
            least, most = points_bounds(tricks)
            points = min(max(points, least), most)
    return {"contract": contract, "declarers": declarers, "points": points, "tricks": tricks}


def joker_judge_deal(rng: random.Random, players: list[str], dealer: str) -> dict:
    parent, child = rng.sample(players, 2)
    if rng.random() < 0.6:  # the parent makes a small bid with kings against jacks
        bid = rng.choice([2, 3])
        return {"bids": {parent: bid, child: bid - 1}, "joker_declaration": False,
                "tricks": [{"cards": {parent: "K", child: "J"}, "judge": None} for _ in range(bid)]}
    return {"bids": {parent: 5, child: 3}, "joker_declaration": False,  # RULES.md §4: a critical judge
            "tricks": [{"cards": {parent: "K", child: "J"}, "judge": {"by": child, "call": "K"}}]}


GENERATORS = {"klaberjass": (klaberjass_deal, 2, {"target": "none"}), "spitzer": (spitzer_deal, 4, {"target": 1000}),
              "joker-judge": (joker_judge_deal, 2, {"finish": "six-hands"})}
WEIGHTS = {"klaberjass": 0.5, "spitzer": 0.35, "joker-judge": 0.15}
AVERAGE = {"klaberjass": 40, "spitzer": 25, "joker-judge": 6}


def main() -> None:
    logging.getLogger("referee").setLevel(logging.WARNING)  # no change log lines between the figures
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database")
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--deals", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    path = Path(args.database)
    if path.exists():
        sys.exit(f"{path} exists: give a new file.")
    db = store.connect(path)
    scale = args.deals / sum(WEIGHTS[g] * AVERAGE[g] * args.matches for g in WEIGHTS)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    began = time.perf_counter()
    # Plan the games and deal counts first, then make the counts add up to exactly --deals.
    keys = [rng.choices(list(WEIGHTS), list(WEIGHTS.values()))[0] for _ in range(args.matches)]
    counts = [max(1, round(rng.randint(AVERAGE[k] // 2, AVERAGE[k] * 3 // 2) * scale)) for k in keys]
    while sum(counts) != args.deals:
        i = rng.randrange(args.matches)
        step = 1 if sum(counts) < args.deals else -1
        if counts[i] + step >= 1:
            counts[i] += step
    total_deals = 0
    with db.immediate():
        for n in range(args.matches):
            key = keys[n]
            game = find_game(key)
            make, seats, options = GENERATORS[key]
            players = rng.sample(NAMES, seats)
            created = start + timedelta(minutes=n * 150 + rng.randint(0, 100))
            stamp = created.isoformat(timespec="seconds")
            match_id = db.insert_match(key, players, game.options_to_json(game.parse_options(options)),
                                          players[0], uid=uuid.uuid4().hex, created=stamp,
                                          place=rng.choice(["", "", "Club", "Kitchen", "Café Wien"]))
            count = counts[n]
            dealer = players[0]
            rows = []
            for number in range(1, count + 1):
                deal = make(rng, players, dealer)
                rows.append((match_id, number, dealer, json.dumps(deal, ensure_ascii=False), stamp, stamp))
                dealer = game.next_dealer(Table(tuple(players), dealer))
            db.conn.executemany(
                "INSERT INTO deals (match_id, number, dealer, input, created, updated) VALUES (?, ?, ?, ?, ?, ?)", rows
            )
            db.conn.executemany(
                "INSERT INTO match_events (match_id, deal_number, action, at) VALUES (?, ?, 'entered', ?)",
                [(match_id, r[1], stamp) for r in rows],
            )
            total_deals += count
            fate = rng.random()
            if fate < 0.08:
                db.execute("UPDATE matches SET abandoned = 1 WHERE id = ?", [match_id])
            elif fate < 0.85 and key == "klaberjass":
                db.execute("UPDATE matches SET ended_by_hand = 1 WHERE id = ?", [match_id])
            matches.sync(db, match_id, touch=False)
            db.execute("UPDATE matches SET updated = ? WHERE id = ?", [stamp, match_id])
            if (n + 1) % 1000 == 0:
                print(f"{n + 1} matches, {total_deals} deals, {time.perf_counter() - began:.0f} s", flush=True)
    db.execute("ANALYZE")
    counts = db.execute("SELECT (SELECT COUNT(*) FROM matches), (SELECT COUNT(*) FROM deals)").fetchone()
    print(f"done: {counts[0]} matches, {counts[1]} deals in {path} ({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
