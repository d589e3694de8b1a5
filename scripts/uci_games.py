#!/usr/bin/env python3
"""Complete games of a real UCI client (python-chess) against `ajedrecista uci`.

For every strategy the engine offers (its Strategy combo), from several
start positions and with several seeded black defences, the client plays
Black until the game ends. Checked: every engine move is legal in the
client's position, and every game ends in checkmate.

Black plays a seeded random legal king move, never taking a white man when
it has another move (a rook left hanging would end the game in a draw, which
is not what is measured here); the engine plays White.

Usage: uci_games.py BINARY [--games-per-start N]
"""

import argparse
import os
import random
import sys
import tempfile

import chess
import chess.engine

# White to move, king and rook against king: El Ajedrecista's own start, seed
# 004's game, the MK-61 rook program's reference trace, and a few more.
STARTS = [
    "K7/1R6/3k4/8/8/8/8/8 w - - 0 1",
    "K7/1R6/8/8/8/8/8/7k w - - 0 1",
    "8/8/1k6/8/R7/8/5K2/8 w - - 0 1",
    "8/8/8/4k3/8/8/R7/4K3 w - - 0 1",
    "8/5k2/8/8/8/8/R7/4K3 w - - 0 1",
    "3k4/8/8/8/8/8/7R/K7 w - - 0 1",
]

# The queen program's men: white king c3 (it never moves), queen g7; the
# black king where the person places it.
QUEEN_STARTS = [
    "k7/6Q1/8/8/8/2K5/8/8 w - - 0 1",
    "4k3/6Q1/8/8/8/2K5/8/8 w - - 0 1",
    "8/6Q1/1k6/8/8/2K5/8/8 w - - 0 1",
    "8/6Q1/8/8/8/2K5/5k2/8 w - - 0 1",
    "8/6Q1/8/8/8/2K5/8/k7 w - - 0 1",
    "8/6Q1/8/8/8/2K5/8/7k w - - 0 1",
]

# The teaching methods take any start of their material: also the manuals'
# own starts, which the historic machines refuse. They must never need the
# tables' move.
METHOD_STARTS = {
    "rook-box": ["4k3/8/8/8/8/8/8/4K2R w - - 0 1", "8/8/8/8/8/5k2/8/3R3K w - - 0 1"],
    "queen-box": ["4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "8/8/8/8/3k4/8/8/K1Q5 w - - 0 1"],
    # Starts the minor-piece methods mate from whatever Black does
    # (docs/guide/src/results/audits.md): both mate from every start White can win, the
    # manuals' starts among them.
    "bishops": [
        "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1",
        "1k6/8/1B6/8/8/8/8/KB6 w - - 0 1",
        "7k/8/5K2/8/8/8/8/2B2B2 w - - 0 1",
        "6k1/8/5K2/8/8/8/8/2B2B2 w - - 0 1",
    ],
    "bishop-knight": [
        "4k3/8/8/8/8/8/8/1N2KB2 w - - 0 1",
        "8/8/k7/3N4/K7/8/8/1B6 w - - 0 1",
        "k7/8/1KN5/8/8/8/8/5B2 w - - 0 1",
        "1k6/8/1K6/2N5/8/8/8/5B2 w - - 0 1",
    ],
}

# Methods of four men play their own starts only.
OWN_STARTS_ONLY = {"bishops", "bishop-knight"}

MAX_PLIES = 400


def black_move(board, rng):
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    quiet = [m for m in moves if not board.is_capture(m)]
    return rng.choice(quiet or moves)


def play_game(engine, fen, seed, game, fallbacks, first_limit):
    """Plays one game; counts in fallbacks[0] the engine moves that came
    from the tables because the automaton could not answer. The first
    engine move may take `first_limit` seconds: a strategy's own table is
    built in the background once it is chosen, and a move asked for before
    it is ready would be the engine's quick move instead of the method's."""
    board = chess.Board(fen)
    rng = random.Random(seed)
    limit = first_limit
    while not board.is_game_over() and board.ply() < MAX_PLIES:
        if board.turn == chess.WHITE:
            result = engine.play(
                board, chess.engine.Limit(time=limit), game=game, info=chess.engine.INFO_ALL
            )
            limit = 1.0
            if "the tables' move" in result.info.get("string", ""):
                fallbacks[0] += 1
            move = result.move
            if move is None or move not in board.legal_moves:
                raise AssertionError(f"{fen}: illegal engine move {move} in {board.fen()}")
            board.push(move)
        else:
            board.push(black_move(board, rng))
    return board


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--games-per-start", type=int, default=5)
    args = parser.parse_args()

    env = dict(os.environ)
    env.setdefault("AJEDRECISTA_TABLES", tempfile.mkdtemp(prefix="ajedrecista-tables-"))
    # A minor-piece method's first move calculates its table of forcings
    # (about 5 s on two loaded cores, docs/guide/src/results/audits.md): more than
    # python-chess's default 10 s allows on a slow machine.
    engine = chess.engine.SimpleEngine.popen_uci([args.binary, "uci"], env=env, timeout=60)
    strategies = engine.options["Strategy"].var
    if not strategies or "torres" not in strategies:
        raise AssertionError(f"Strategy combo lists {strategies}")
    engine.configure({"IllegalMoveLimit": 3})
    failures = 0
    for strategy in strategies:
        engine.configure({"Strategy": strategy})
        games = moves = longest = 0
        failed_before = failures
        fallbacks = [0]
        # A strategy named for the queen plays the queen program's men.
        starts = QUEEN_STARTS if "queen" in strategy else STARTS
        if strategy in OWN_STARTS_ONLY:
            starts = []
        first_limit = 300.0
        for fen in starts + METHOD_STARTS.get(strategy, []):
            for seed in range(args.games_per_start):
                # A new game key makes python-chess send ucinewgame.
                board = play_game(engine, fen, seed, (strategy, fen, seed), fallbacks,
                                  first_limit)
                first_limit = 1.0
                games += 1
                white_moves = (board.ply() + 1) // 2
                moves += white_moves
                longest = max(longest, white_moves)
                if not board.is_checkmate():
                    failures += 1
                    print(f"FAIL {strategy} {fen} seed {seed}: {board.result()} "
                          f"{board.fen()}", file=sys.stderr)
        if strategy in METHOD_STARTS and fallbacks[0]:
            failures += 1
            print(f"FAIL {strategy}: {fallbacks[0]} moves from the tables", file=sys.stderr)
        print(f"{strategy:<24} {games:>3} games, {moves:>5} White moves, longest {longest:>3}, "
              f"{fallbacks[0]:>3} from the tables: "
              f"{'all mate' if failures == failed_before else 'FAILURES'}")
    engine.quit()
    if failures:
        print(f"{failures} games did not end in mate", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
