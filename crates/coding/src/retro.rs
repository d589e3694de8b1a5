//! One ply of retrograde analysis: could the side that just moved have made
//! a legal last move to reach this position?
//!
//! A position with the attacked side to move is reachable by a last move if
//! some man of the other side can be taken back to a square it came from
//! (possibly restoring a captured man, possibly un-promoting a pawn) so that
//! before the move the side to move then was the only one that could be in
//! check. En passant and castling are not taken back: with the materials
//! this is used for (a bare king or a few pieces against a king) they never
//! decide.

use shakmaty::{Bitboard, Board, Chess, Color, Piece, Position, Rank, Role, Square, attacks};

use crate::rules::may_stand;

/// Men a capture may have removed.
const CAPTURABLE: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// Whether the side that just moved had a legal move leading here; with
/// `same_material`, a move that was neither a capture nor a promotion.
pub fn has_legal_last_move(position: &Chess, same_material: bool) -> bool {
    let board = position.board();
    let mover = !position.turn();
    board
        .by_color(mover)
        .into_iter()
        .any(|to| un_moves(board, mover, to, same_material).any(|before| was_legal(&before, mover)))
}

/// Every board before a move of the man on `to` by `mover`.
fn un_moves(
    board: &Board,
    mover: Color,
    to: Square,
    same_material: bool,
) -> impl Iterator<Item = Board> + '_ {
    let piece = board.piece_at(to).expect("a man stands on `to`");
    let empty = !board.occupied();
    let forward = mover.fold_wb(8, -8);
    let pawn = Piece {
        color: mover,
        role: Role::Pawn,
    };
    // (from, man before the move, whether the move must have captured)
    let mut origins: Vec<(Square, Piece, bool)> = Vec::new();
    match piece.role {
        Role::Pawn => {
            if let Some(from) = to.offset(-forward).filter(|&f| empty.contains(f)) {
                if from.rank() != mover.backrank() {
                    origins.push((from, pawn, false));
                }
                let double_from = from.offset(-forward);
                if to.rank() == mover.relative_rank(Rank::Fourth)
                    && let Some(start) = double_from.filter(|&f| empty.contains(f))
                {
                    origins.push((start, pawn, false));
                }
            }
            for from in pawn_capture_origins(to, mover) & empty {
                if from.rank() != mover.backrank() {
                    origins.push((from, pawn, true));
                }
            }
        }
        _ => {
            for from in attacks::attacks(to, piece, board.occupied()) & empty {
                origins.push((from, piece, false));
            }
            if !same_material
                && piece.role != Role::King
                && to.rank() == mover.relative_rank(Rank::Eighth)
            {
                if let Some(from) = to.offset(-forward).filter(|&f| empty.contains(f)) {
                    origins.push((from, pawn, false));
                }
                for from in pawn_capture_origins(to, mover) & empty {
                    origins.push((from, pawn, true));
                }
            }
        }
    }
    origins
        .into_iter()
        .flat_map(move |(from, before, must_capture)| {
            let mut boards = Vec::new();
            let mut moved = board.clone();
            moved.discard_piece_at(to);
            moved.set_piece_at(from, before);
            if !must_capture {
                boards.push(moved.clone());
            }
            if !same_material {
                for role in CAPTURABLE {
                    let taken = Piece {
                        color: !mover,
                        role,
                    };
                    if may_stand(taken, to) {
                        let mut captured = moved.clone();
                        captured.set_piece_at(to, taken);
                        boards.push(captured);
                    }
                }
            }
            boards
        })
}

/// Squares from which a pawn of `mover` captures onto `to`.
fn pawn_capture_origins(to: Square, mover: Color) -> Bitboard {
    // A pawn of `mover` on `from` attacks `to` exactly when a pawn of the
    // other colour on `to` attacks `from`.
    attacks::pawn_attacks(!mover, to)
}

/// Before the move, `mover` was to move: the other side must not have been
/// in check and the kings must not have touched.
fn was_legal(before: &Board, mover: Color) -> bool {
    let (Some(own), Some(their)) = (before.king_of(mover), before.king_of(!mover)) else {
        return false;
    };
    !attacks::king_attacks(own).contains(their)
        && before
            .attacks_to(their, mover, before.occupied())
            .is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_position;

    fn reachable(fen: &str) -> bool {
        has_legal_last_move(&parse_position(fen).unwrap(), false)
    }

    #[test]
    fn corner_bishop_checks() {
        // Ba1 checks h8 along its only diagonal and nothing left the line.
        assert!(!reachable("7k/8/7K/8/8/8/8/B7 b - - 0 1"));
        // The white king stepped off the diagonal (b2-c2): discovered check.
        assert!(reachable("7k/8/8/8/8/8/2K5/B7 b - - 0 1"));
        assert!(!reachable("7k/8/8/8/8/8/8/B6K b - - 0 1"));
    }

    #[test]
    fn two_bishop_double_check_is_unreachable() {
        assert!(!reachable("4k3/8/8/1B5B/8/8/8/K7 b - - 0 1"));
        assert!(reachable("4k3/8/8/1B6/8/8/8/K7 b - - 0 1"));
    }

    #[test]
    fn promotion_and_capture() {
        // Rook-and-rook double check after e7xd8=R (a black man was taken).
        assert!(reachable("3Rk3/8/8/8/8/8/8/K3R3 b - - 0 1"));
        // Kings in opposition with nothing else: the white king's every
        // origin touches the black king or is off the board except b1/a2/b2.
        assert!(reachable("7k/8/8/8/8/8/8/K7 b - - 0 1"));
    }
}
