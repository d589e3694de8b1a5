#!/usr/bin/env python3
"""python-chess's reading of Syzygy files, recorded for a Rust test.

    scripts/syzygy_reference.py --syzygy DIR --out FILE [--positions N] [--seed S] MATERIAL...

For each material (white's men first, e.g. KRvKP) the script draws random
legal placements, either side to move, and keeps the first N that
python-chess answers (a position whose probe needs a table DIR lacks, such
as a promotion's, is skipped). For materials with a pawn on each side it
also draws N positions with an en passant capture on the board (the last
move a double step). Each kept position is written as FEN, WDL (-2 to 2,
the fifty-move counter ignored) and DTZ, tab-separated, a line each.

crates/tables/tests/syzygy.rs compares the tables crate's reading of the
same files with FILE, so the test needs no Python (`pip install chess` to
run this script).
"""

import argparse
import random

import chess
import chess.syzygy


def piece(letter, color):
    return chess.Piece.from_symbol(letter if color == chess.WHITE else letter.lower())


def place(board, men, rng):
    """Puts `men` ((letter, colour) pairs) on free squares, pawns off the back ranks."""
    for letter, color in men:
        while True:
            square = rng.randrange(64)
            if board.piece_at(square) is None and not (
                letter == "P" and chess.square_rank(square) in (0, 7)
            ):
                board.set_piece_at(square, piece(letter, color))
                break


def men_of(material):
    white, black = material.split("v")
    return [(m, chess.WHITE) for m in white] + [(m, chess.BLACK) for m in black]


def random_board(material, rng):
    board = chess.Board(None)
    place(board, men_of(material), rng)
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    return board


def en_passant_board(material, rng):
    """A position of `material` whose side to move may capture en passant:
    one of the mover's pawns beside an enemy pawn that has just stepped two
    squares."""
    turn = rng.choice([chess.WHITE, chess.BLACK])
    rank = 4 if turn == chess.WHITE else 3  # the enemy pawn's rank after its double step
    step = 1 if turn == chess.WHITE else -1  # towards where it came from
    file = rng.randrange(8)
    beside = file + rng.choice([-1, 1])
    if not 0 <= beside < 8:
        return None
    board = chess.Board(None)
    pushed = chess.square(file, rank)
    board.set_piece_at(pushed, piece("P", not turn))
    board.set_piece_at(chess.square(beside, rank), piece("P", turn))
    men = men_of(material)
    men.remove(("P", not turn))
    men.remove(("P", turn))
    # The squares the pawn passed and left stay empty.
    passed, left = chess.square(file, rank + step), chess.square(file, rank + 2 * step)
    blockers = [sq for sq in (passed, left) if board.piece_at(sq) is None]
    for sq in blockers:
        board.set_piece_at(sq, chess.Piece(chess.KING, chess.WHITE))  # held for a moment
    place(board, men, rng)
    for sq in blockers:
        board.remove_piece_at(sq)
    board.turn = turn
    board.ep_square = passed
    return board


def answer(tablebase, board):
    """(WDL, DTZ) of a legal position, or None where a table is missing."""
    if not board.is_valid():
        return None
    try:
        return tablebase.probe_wdl(board), tablebase.probe_dtz(board)
    except chess.syzygy.MissingTableError:
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--syzygy", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("materials", nargs="+")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows = []
    with chess.syzygy.open_tablebase(args.syzygy) as tablebase:
        for material in args.materials:
            draws = [random_board]
            white, black = material.split("v")
            if "P" in white and "P" in black:
                draws.append(en_passant_board)
            for draw in draws:
                kept = 0
                while kept < args.positions:
                    board = draw(material, rng)
                    found = board and answer(tablebase, board)
                    if found:
                        rows.append((board.fen(), *found))
                        kept += 1
    with open(args.out, "w", encoding="utf-8") as out:
        out.write("# FEN\tWDL\tDTZ: python-chess's Syzygy probe (scripts/syzygy_reference.py)\n")
        for fen, wdl, dtz in rows:
            out.write(f"{fen}\t{wdl}\t{dtz}\n")


if __name__ == "__main__":
    main()
