#!/usr/bin/env python3
"""Our tables' win, draw or loss against Syzygy's WDL tables, position by
position, on random legal positions (seeded).

    scripts/syzygy_wdl.py --ours target/release/ajedrecista --tables DIR \
        --syzygy SYZYGY_DIR KRRvKRP [MATERIAL...] [--positions N] [--seed S]

For each material (white's men first, as `ajedrecista solve` takes it) the
script draws N placements of its men at random, pawns on ranks 2-7, with a
side to move at random, and keeps the legal ones (the side not to move not
in check); no castling, no en passant square. Each is probed by `ajedrecista
probe --epd - --json` (the table must be in DIR: a six-man table is not
built on demand) and by python-chess's Syzygy probe (the material's .rtbw
file, and those it needs, in SYZYGY_DIR; Syzygy's generator makes them,
docs/guide/src/reference/checks.md). Syzygy counts the fifty-move rule and we do not: its cursed
win (+1) and blessed loss (-1) are a win and a loss here. One line per
material; the first disagreements are printed; exit status 1 if there is
any.

Syzygy's files of a six-man material take hours to make, and ours as
many, more than one machine here keeps. So the two halves can be run apart:

    scripts/syzygy_wdl.py --syzygy SYZYGY_DIR --record FILE KRRvKRP ...
    scripts/syzygy_wdl.py --ours BINARY --tables DIR --against FILE

`--record` writes Syzygy's answers (material, FEN, its WDL from -2 to 2, a
line each, tab-separated) without asking ours; `--against` compares ours
with the answers in FILE instead of Syzygy's files.
"""

import argparse
import json
import random
import subprocess
import sys
from collections import Counter

import chess
import chess.syzygy

WDL_OF_RESULT = {"win": 1, "draw": 0, "loss": -1}


def sign(wdl):
    return (wdl > 0) - (wdl < 0)


def random_positions(material, count, rng):
    """`count` legal positions of `material` (e.g. KRRvKRP), as FEN."""
    white, black = material.split("v")
    men = [(letter, chess.WHITE) for letter in white] + [(letter, chess.BLACK) for letter in black]
    found = []
    while len(found) < count:
        board = chess.Board(None)
        for letter, color in men:
            piece = chess.Piece.from_symbol(letter if color == chess.WHITE else letter.lower())
            while True:
                square = rng.randrange(64)
                if board.piece_at(square) is not None:
                    continue
                if letter == "P" and chess.square_rank(square) in (0, 7):
                    continue
                board.set_piece_at(square, piece)
                break
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if not board.was_into_check():
            found.append(board.fen())
    return found


def ours(binary, tables, fens):
    """Our win (1), draw (0) or loss (-1) of each FEN, in order."""
    answer = subprocess.run(
        [binary, "probe", "--epd", "-", "--json", "--tables", tables],
        input="\n".join(fens) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    values = []
    for line in answer.stdout.splitlines():
        row = json.loads(line)
        if "error" in row:
            sys.exit(f"ajedrecista could not probe {row.get('fen', row['line'])}: {row['error']}")
        values.append(WDL_OF_RESULT[row["result"]])
    if len(values) != len(fens):
        sys.exit(f"ajedrecista answered {len(values)} of {len(fens)} positions: {answer.stderr.strip()}")
    return values


def syzygy_answers(folder, materials, count, rng):
    """(material, FEN, Syzygy's WDL) of `count` random positions a material."""
    rows = []
    with chess.syzygy.open_tablebase(folder) as syzygy:
        for material in materials:
            for fen in random_positions(material, count, rng):
                rows.append((material, fen, syzygy.probe_wdl(chess.Board(fen))))
    return rows


def read_answers(path):
    """The rows `--record` wrote."""
    rows = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 3 or fields[2] not in ("-2", "-1", "0", "1", "2"):
                sys.exit(f"{path}:{number}: expected MATERIAL<tab>FEN<tab>WDL (-2 to 2)")
            rows.append((fields[0], fields[1], int(fields[2])))
    return rows


def compare(binary, tables, rows):
    """Prints a line a material; returns how many positions differ."""
    disagreements = 0
    for material in dict.fromkeys(row[0] for row in rows):
        fens = [fen for row_material, fen, _ in rows if row_material == material]
        theirs = [sign(wdl) for row_material, _, wdl in rows if row_material == material]
        counts = Counter()
        shown = 0
        for fen, our, their in zip(fens, ours(binary, tables, fens), theirs):
            counts[our] += 1
            if our != their:
                disagreements += 1
                counts["differ"] += 1
                if shown < 10:
                    print(f"  {fen}: ours {our}, Syzygy {their}")
                    shown += 1
        print(
            f"{material}: {len(fens)} positions, wins {counts[1]}, draws {counts[0]}, "
            f"losses {counts[-1]} for the side to move; {counts['differ']} differ"
        )
    return disagreements


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("materials", nargs="*")
    parser.add_argument("--ours", help="the ajedrecista binary")
    parser.add_argument("--tables", help="our table folder")
    parser.add_argument("--syzygy", help="folder of Syzygy's .rtbw files")
    parser.add_argument("--record", metavar="FILE", help="write Syzygy's answers to FILE, ask not ours")
    parser.add_argument("--against", metavar="FILE", help="Syzygy's answers, as --record wrote them")
    parser.add_argument("--positions", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1912)
    args = parser.parse_args()

    if args.against:
        if args.materials or args.syzygy or args.record:
            parser.error("--against takes no materials, --syzygy or --record")
        rows = read_answers(args.against)
    elif args.materials and args.syzygy:
        rows = syzygy_answers(args.syzygy, args.materials, args.positions, random.Random(args.seed))
    else:
        parser.error("give the materials and --syzygy, or --against FILE")
    if args.record:
        with open(args.record, "w", encoding="utf-8") as out:
            out.write(f"# Syzygy's WDL, -2 to 2: scripts/syzygy_wdl.py --record, seed {args.seed}\n")
            out.writelines(f"{material}\t{fen}\t{wdl}\n" for material, fen, wdl in rows)
        print(f"{len(rows)} answers written to {args.record}")
        return
    if not (args.ours and args.tables):
        parser.error("--ours and --tables are needed to compare")
    sys.exit(1 if compare(args.ours, args.tables, rows) else 0)

if __name__ == "__main__":
    main()
