#!/usr/bin/env python3
"""Popeye's answers on seeded positions, as test data for the coding crate.

For each condition and fairy unit of docs/guide/src/reference/popeye.md ("Agreement with
Popeye") this script places men at random (seeded), biased towards final positions
(the attacked royal near an edge, the attackers near it), asks Popeye
whether the side to move is mated, stalemated or neither, whether it is in
check and how many moves it has, and writes one row per position to
crates/coding/tests/data/popeye-differential.tsv. The test
crates/coding/tests/popeye_differential.rs compares every row with our
rules, without Popeye.

Popeye is built outside the repository (see docs/guide/src/reference/popeye.md):

    scripts/popeye_differential.py --popeye /work/peers/popeye/py

How Popeye is asked (many problems per call, joined by NextProblem):
  - the side to move X: `stipulation ~1` (`option HalfDuplex` when X is
    Black) prints one `1.` line per move X may play;
  - the other side Y to play: "the side to play can capture the king" means
    X is in check. The same message with X to play means Y is in check: the
    position is illegal with X to move.
The first question is asked of every position drawn; the positions kept
(most of them without a move for X) are then asked the second.
"""

import argparse
import os
import random
import re
import subprocess
import sys
from collections import Counter, defaultdict

FILES = "abcdefgh"
# Our extended-FEN letter -> Popeye's piece code (English).
POPEYE_CODE = {"K": "k", "P": "p", "N": "s", "B": "b", "R": "r", "Q": "q",
               "G": "g", "D": "dr", "S": "n"}
OUR_TO_POPEYE_CONDITION = {
    "circe": "Circe",
    "nocapture": "NoCapture",
    "grid": "GridChess",
    "ingul": "ShieldedKings",
    "blackmaximummer": "BlackMaximummer",
    "whitemaximummer": "WhiteMaximummer",
    "normalpawn": "NormalPawn",
}


class Category:
    """Positions of one kind: conditions, the attacked side's royal, and
    the pools the other men are drawn from."""

    def __init__(self, name, conditions, attackers, defenders, royal="K",
                 white_to_move=0.3, kings_close=False, first_rank=None):
        self.name = name
        self.conditions = conditions
        self.attackers = attackers      # letters of the attacking side
        self.defenders = defenders      # letters of the attacked side
        self.royal = royal              # the attacked side's royal letters
        self.white_to_move = white_to_move
        self.kings_close = kings_close  # Ingul: kings side by side
        self.first_rank = first_rank    # a letter often put on its first rank


ORTHODOX = "QRBNP"
CATEGORIES = [
    Category("orthodox", [], ORTHODOX, "PNBR"),
    Category("circe", ["circe"], ORTHODOX, "PNBRQ"),
    Category("nocapture", ["nocapture"], ORTHODOX, "PNBR"),
    Category("grid", ["grid"], ORTHODOX, "PNBR"),
    Category("blackmaximummer", ["blackmaximummer"], ORTHODOX, "PNBRQ",
             white_to_move=0.25),
    Category("whitemaximummer", ["whitemaximummer"], ORTHODOX, "PNBRQ",
             white_to_move=0.75),
    Category("circe-maximummer", ["circe", "blackmaximummer"], ORTHODOX, "PNBRQ",
             white_to_move=0.3),
    Category("grasshopper", [], "GGGQRBNP", "GPNB"),
    Category("dragon", [], "DDDRBNP", "DPNB", first_rank="D"),
    Category("dragon-normalpawn", ["normalpawn"], "DDDRBNP", "DPNB", first_rank="D"),
    Category("nightrider", [], "SSSRBNP", "SPNB"),
    Category("royal", [], ORTHODOX + "GS", "PNB", royal="NBRQGSD"),
    Category("fairy-circe", ["circe"], "GDSRBN", "GDSP", first_rank="D"),
    Category("fairy-nocapture", ["nocapture"], "GDSRBN", "GDSP", first_rank="D"),
    Category("fairy-grid", ["grid"], "GDSRBN", "GDSP", first_rank="D"),
    Category("royal-circe", ["circe"], ORTHODOX + "GD", "PNB", royal="NBRQGSD"),
    Category("fairy-maximummer", ["blackmaximummer"], "GDSRBN", "GDSP", first_rank="D"),
    Category("ingul-shieldedkings", ["ingul"], ORTHODOX, "PNBRQ", kings_close=True),
    Category("fairy-ingul", ["ingul"], "GDSQRBN", "GDSP", kings_close=True),
]

# The four minimal cases (a dragon on its first rank), by default
# and under NormalPawn.
MINIMAL = [
    "8/8/8/8/8/8/8/kDK5 b",
    "8/8/8/8/3B4/8/k1K5/1D6 b",
    "k3d3/3K4/8/8/8/8/8/8 b",
    "8/8/8/8/8/8/3k4/4D1K1 b",
]


def square_name(index):
    return FILES[index % 8] + str(index // 8 + 1)


def near(rng, centre, spread):
    """A square within `spread` files and ranks of `centre`."""
    while True:
        f = centre % 8 + rng.randint(-spread, spread)
        r = centre // 8 + rng.randint(-spread, spread)
        if 0 <= f < 8 and 0 <= r < 8:
            return r * 8 + f


def edge_square(rng):
    """Mostly an edge or corner square, sometimes anywhere."""
    if rng.random() < 0.75:
        side = rng.randrange(4)
        t = rng.randrange(8)
        depth = 0 if rng.random() < 0.8 else 1
        f, r = [(t, depth), (t, 7 - depth), (depth, t), (7 - depth, t)][side]
        return r * 8 + f
    return rng.randrange(64)


def may_stand(letter, square):
    """Pawns never stand on the first or last rank."""
    return letter != "P" or 1 <= square // 8 <= 6


def castling_possible(board):
    """Popeye assumes castling rights with king and rook at home; we never
    castle, so such positions are not drawn."""
    for king, rooks in (("e1", "a1 h1"), ("e8", "a8 h8")):
        k = board.get(king)
        if k and k[1] == "K" and not k[2]:
            for rook in rooks.split():
                r = board.get(rook)
                if r and r[1] == "R" and r[0] == k[0]:
                    return True
    return False


def draw_position(rng, category):
    """A board {square: (white, letter, royal)} and the side to move."""
    attacked_white = rng.random() < category.white_to_move
    board = {}

    def put(square, white, letter, royal=False):
        name = square_name(square)
        if name in board or not may_stand(letter, square):
            return False
        board[name] = (white, letter, royal)
        return True

    def first_rank_square(white):
        return rng.randrange(8) + (0 if white else 56)

    royal_square = edge_square(rng)
    royal_letter = rng.choice(category.royal)
    put(royal_square, attacked_white, royal_letter, royal_letter != "K")
    spread = 1 if category.kings_close else 2
    for _ in range(20):
        if put(near(rng, royal_square, spread), not attacked_white, "K"):
            break
    else:
        return None
    for _ in range(rng.randint(1, 4)):
        letter = rng.choice(category.attackers)
        white = not attacked_white
        if letter == category.first_rank and rng.random() < 0.4:
            square = first_rank_square(white)
        else:
            square = near(rng, royal_square, 2) if rng.random() < 0.8 else rng.randrange(64)
        put(square, white, letter)
    for _ in range(rng.choice([0, 0, 1, 1, 2])):
        letter = rng.choice(category.defenders)
        white = attacked_white
        if letter == category.first_rank and rng.random() < 0.4:
            square = first_rank_square(white)
        else:
            square = near(rng, royal_square, 2)
        put(square, white, letter)
    if castling_possible(board):
        return None
    return board, attacked_white


def fen_of(board, white_to_move):
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            unit = board.get(FILES[f] + str(rank + 1))
            if unit is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            white, letter, royal = unit
            row += ("*" if royal else "") + (letter if white else letter.lower())
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if white_to_move else " b")


def board_of_fen(fen):
    placement, turn = fen.split()[:2]
    board = {}
    for i, row in enumerate(placement.split("/")):
        rank, f, royal = 8 - i, 0, False
        for c in row:
            if c.isdigit():
                f += int(c)
            elif c == "*":
                royal = True
            else:
                board[FILES[f] + str(rank)] = (c.isupper(), c.upper(), royal)
                f, royal = f + 1, False
    return board, turn == "w"


def popeye_pieces(board, conditions):
    """The pieces and condition commands, one line; royal units come first,
    each colour's as a group of their own (`black royal sa3 black pb4`)."""
    words = ["pieces"]
    for royal in (True, False):
        for white in (True, False):
            units = [POPEYE_CODE[board[s][1]] + s
                     for s in sorted(board, key=lambda s: (s[1], s[0]))
                     if board[s][0] == white and board[s][2] == royal]
            if units:
                words += ["white" if white else "black"] + (["royal"] if royal else []) + units
    if conditions:
        words += ["condition"] + [OUR_TO_POPEYE_CONDITION[c] for c in conditions]
    return " ".join(words)


def problem(pieces, black_to_play):
    """The problem asking the side to play for its moves (the test reads
    the same text)."""
    text = pieces + " stipulation ~1"
    return text + (" option HalfDuplex" if black_to_play else "")


def run_popeye(popeye, problems):
    """Popeye's output for each problem: (move lines, can capture the king),
    or None where Popeye refused the problem."""
    parts = ["beginproblem"]
    for i, text in enumerate(problems):
        if i:
            parts.append("nextproblem")
        parts += [f"remark @@{i}@@", text, "option NoBoard"]
    parts.append("endproblem")
    result = subprocess.run(
        ["stdbuf", "-o0", "-e0", popeye],
        input="\n".join(parts) + "\n",
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    answers = [None] * len(problems)
    chunks = re.split(r"^@@(\d+)@@\s*$", result.stdout, flags=re.M)
    for number, body in zip(chunks[1::2], chunks[2::2]):
        if re.search(r"input-error|problem ignored|allowed|nonsense", body, re.I):
            continue
        if "solution finished" not in body:
            continue
        moves = len(re.findall(r"^\s+1\.\S", body, flags=re.M))
        answers[int(number)] = (moves, "can capture the king" in body)
    return answers


def verdict(x_answer, y_answer):
    """(verdict, check, moves) of the side to move X."""
    x_moves, y_in_check = x_answer
    _, x_in_check = y_answer
    if y_in_check:
        return "illegal", "-", "-"
    check = "yes" if x_in_check else "no"
    if x_moves == 0:
        return ("mate" if x_in_check else "stalemate"), check, 0
    return "none", check, x_moves


def ask(popeye, entries, batch, other_side=False):
    """Popeye's answer for the side to move of each (fen, conditions,
    pieces), or with `other_side` for the side not to move."""
    answers = []
    for start in range(0, len(entries), batch):
        chunk = entries[start:start + batch]
        answers += run_popeye(popeye, [problem(pieces, fen.endswith(" b") != other_side)
                                       for fen, _, pieces in chunk])
        print(f"  asked {start + len(chunk)}/{len(entries)}", file=sys.stderr)
    return answers


def select(rng, entries, answers, quota):
    """Up to `quota` entries with their first answers, biased towards final
    positions: those without a move first (at most 60 %), then illegal ones
    (at most a tenth), then the others."""
    answered = [(e, a) for e, a in zip(entries, answers) if a is not None]
    illegal = [x for x in answered if x[1][1]]
    immobile = [x for x in answered if not x[1][1] and x[1][0] == 0]
    others = [x for x in answered if not x[1][1] and x[1][0] > 0]
    for group in (immobile, illegal, others):
        rng.shuffle(group)
    chosen = immobile[:int(quota * 0.6)]
    chosen += illegal[:quota // 10]
    chosen += others[:quota - len(chosen)]
    return chosen


def verdicts(popeye, chosen, batch):
    """Asks the other side of each chosen entry; the rows of the file."""
    entries = [entry for entry, _ in chosen]
    second = ask(popeye, entries, batch, other_side=True)
    return [(entry, verdict(first, other))
            for (entry, first), other in zip(chosen, second) if other is not None]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--popeye", required=True, help="Popeye's binary (py)")
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--candidates", type=int, default=700,
                        help="positions drawn per category before selection")
    parser.add_argument("--quota", type=int, default=120,
                        help="positions kept per category")
    parser.add_argument("--batch", type=int, default=400)
    parser.add_argument("--out", default=os.path.normpath(os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "crates", "coding", "tests",
        "data", "popeye-differential.tsv")))
    args = parser.parse_args()
    rng = random.Random(args.seed)

    banner = subprocess.run([args.popeye], input="", capture_output=True, text=True,
                            check=False).stdout
    version = "Popeye " + re.search(r"v\d+\.\d+", banner).group(0)

    rows = []
    # The minimal cases, by default and under NormalPawn.
    minimal = []
    for fen in MINIMAL:
        for conditions in ([], ["normalpawn"]):
            board, _ = board_of_fen(fen)
            minimal.append((fen, conditions, popeye_pieces(board, conditions)))
    first = ask(args.popeye, minimal, args.batch)
    for (fen, conditions, pieces), answer in verdicts(args.popeye, list(zip(minimal, first)),
                                                      args.batch):
        rows.append(("minimal", fen, conditions, *answer, pieces))

    for category in CATEGORIES:
        print(f"{category.name}:", file=sys.stderr)
        seen, entries = set(), []
        while len(entries) < args.candidates:
            drawn = draw_position(rng, category)
            if drawn is None:
                continue
            fen = fen_of(*drawn)
            if fen in seen:
                continue
            seen.add(fen)
            entries.append((fen, category.conditions,
                            popeye_pieces(drawn[0], category.conditions)))
        chosen = select(rng, entries, ask(args.popeye, entries, args.batch), args.quota)
        for (fen, conditions, pieces), answer in verdicts(args.popeye, chosen, args.batch):
            rows.append((category.name, fen, conditions, *answer, pieces))

    with open(args.out, "w", encoding="utf-8") as out:
        out.write(
            "# Popeye's answers on seeded positions (" + version + "), written by\n"
            f"# scripts/popeye_differential.py --popeye PY --seed {args.seed}"
            f" --candidates {args.candidates} --quota {args.quota}\n"
            "# fen: our extended FEN, the side to move is the side asked about;\n"
            "# conditions: our names (\"-\" none); verdict: mate, stalemate, none, or\n"
            "# illegal (the side not to move is in check); check and moves of the side\n"
            "# to move (under a Maximummer of its colour, its longest moves; a\n"
            "# promotion once per piece); popeye: the pieces and conditions as Popeye\n"
            "# read them.\n")
        out.write("category\tfen\tconditions\tverdict\tcheck\tmoves\tpopeye\n")
        for category, fen, conditions, v, check, moves, pieces in rows:
            out.write("\t".join([category, fen, " ".join(conditions) or "-", v,
                                 check, str(moves), pieces]) + "\n")

    counts = Counter((r[0], r[3]) for r in rows)
    by_category = defaultdict(dict)
    for (category, v), n in counts.items():
        by_category[category][v] = n
    for category, kinds in by_category.items():
        print(f"{category:22} {sum(kinds.values()):5}  " +
              "  ".join(f"{k} {n}" for k, n in sorted(kinds.items())), file=sys.stderr)
    print(f"{len(rows)} positions written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
