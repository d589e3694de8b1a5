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
docs/tables.md). Syzygy counts the fifty-move rule and we do not: its cursed
win (+1) and blessed loss (-1) are a win and a loss here. One line per
material; the first disagreements are printed; exit status 1 if there is
any.
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("materials", nargs="+")
    parser.add_argument("--ours", required=True, help="the ajedrecista binary")
    parser.add_argument("--tables", required=True, help="our table folder")
    parser.add_argument("--syzygy", required=True, help="folder of Syzygy's .rtbw files")
    parser.add_argument("--positions", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1912)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    disagreements = 0
    with chess.syzygy.open_tablebase(args.syzygy) as syzygy:
        for material in args.materials:
            fens = random_positions(material, args.positions, rng)
            counts = Counter()
            shown = 0
            for fen, our in zip(fens, ours(args.ours, args.tables, fens)):
                theirs = sign(syzygy.probe_wdl(chess.Board(fen)))
                counts[our] += 1
                if our != theirs:
                    disagreements += 1
                    counts["differ"] += 1
                    if shown < 10:
                        print(f"  {fen}: ours {our}, Syzygy {theirs}")
                        shown += 1
            print(
                f"{material}: {len(fens)} positions, wins {counts[1]}, draws {counts[0]}, "
                f"losses {counts[-1]} for the side to move; {counts['differ']} differ"
            )
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()
