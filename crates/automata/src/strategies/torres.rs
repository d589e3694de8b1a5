//! El Ajedrecista, Torres y Quevedo's 1912 automaton: the decision list of
//! ../shared/specs/torres.md, in either orientation of the board.

use shakmaty::{Board, Chess, Color, File, Move, Position, Rank, Role, Square};

use crate::krk::{Krk, file_of, rank_of, square_at};
use crate::strategy::{Cause, Precondition, Refusal, Reply, Strategy, Undefined, legal_move};

/// El Ajedrecista. It remembers nothing: each move follows from the board.
#[derive(Debug, Clone, Copy, Default)]
pub struct Torres;

/// The machine's two halves of the board; files d and e belong to neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Zone {
    /// Files a-c.
    Left,
    /// Files f-h.
    Right,
}

fn zone(file: i32) -> Option<Zone> {
    match file {
        0..=2 => Some(Zone::Left),
        5..=7 => Some(Zone::Right),
        _ => None,
    }
}

/// Which way is "down": the machine speaks of the white king above the rook
/// and the black king below it. Decided from the men themselves, so both the
/// original set-up (white king a8, "down" towards rank 1) and its mirror (the
/// seed's game, "down" towards rank 8) are the same automaton.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Frame {
    /// The rank step that goes down: -1 or +1.
    down: i32,
}

impl Frame {
    fn of(krk: &Krk) -> Option<Frame> {
        let (k, r, b) = (
            rank_of(krk.white_king),
            rank_of(krk.rook),
            rank_of(krk.black_king),
        );
        if k > r && r > b {
            Some(Frame { down: -1 })
        } else if k < r && r < b {
            Some(Frame { down: 1 })
        } else {
            None
        }
    }

    /// How many ranks `upper` stands above `lower`.
    fn height(self, upper: Square, lower: Square) -> i32 {
        (rank_of(lower) - rank_of(upper)) * self.down
    }

    fn one_down(self, square: Square) -> Square {
        square_at(file_of(square), rank_of(square) + self.down)
            .expect("a man with another man below it is not on the bottom edge")
    }
}

/// The men and their frame, if they meet the machine's preconditions.
fn read(board: &Board) -> Result<(Krk, Frame), Refusal> {
    let krk = Krk::from_board(board).ok_or(Refusal::Precondition(Precondition::NotKrk(
        "El Ajedrecista",
    )))?;
    if ![File::A, File::B, File::G, File::H].contains(&krk.rook.file()) {
        return Err(Refusal::Precondition(Precondition::RookFile(krk.rook)));
    }
    let frame = Frame::of(&krk).ok_or(Refusal::Precondition(Precondition::RookRankApart))?;
    Ok((krk, frame))
}

impl Strategy for Torres {
    type Memory = ();

    fn name(&self) -> &'static str {
        "torres"
    }

    fn precondition(&self, board: &Board) -> Result<(), Refusal> {
        read(board).map(|_| ())
    }

    /// White king a8, rook b7, black king on ranks 1-6.
    fn is_machine_start(&self, board: &Board) -> bool {
        Krk::from_board(board).is_some_and(|krk| {
            krk.white_king == Square::A8
                && krk.rook == Square::B7
                && krk.black_king.rank() <= Rank::Sixth
        })
    }

    fn start(&self, _start: &Chess) {}

    fn reply(&self, position: &Chess, _memory: &()) -> Result<(Reply, ()), Refusal> {
        let (krk, frame) = read(position.board())?;
        let (from, to, reason) = decide(&krk, frame)?;
        let mv = legal_move(position, from, to, Cause::Rule(reason))?;
        let reply = Reply {
            mv,
            reason,
            display: None,
        };
        Ok((reply, ()))
    }
}

/// The decision list: the man that moves, where to, and the rule that fired.
fn decide(krk: &Krk, frame: Frame) -> Result<(Square, Square, &'static str), Refusal> {
    let rook_file = file_of(krk.rook);
    let rook_zone = zone(rook_file);
    if rook_zone.is_some() && zone(file_of(krk.black_king)) == rook_zone {
        let file = if rook_zone == Some(Zone::Left) { 7 } else { 0 };
        let to = square_at(file, rank_of(krk.rook)).expect("file and rank on the board");
        return Ok((
            krk.rook,
            to,
            "rule 1: black king in the rook's zone, rook to the far edge",
        ));
    }
    if frame.height(krk.rook, krk.black_king) > 1 {
        return Ok((
            krk.rook,
            frame.one_down(krk.rook),
            "rule 2: rook one rank down",
        ));
    }
    if frame.height(krk.white_king, krk.black_king) > 2 {
        return Ok((
            krk.white_king,
            frame.one_down(krk.white_king),
            "rule 3: king one rank down",
        ));
    }
    let file_distance = (file_of(krk.white_king) - file_of(krk.black_king)).abs();
    if file_distance % 2 == 1 {
        let file = match rook_file {
            0 => 1,
            1 => 0,
            6 => 7,
            7 => 6,
            _ => {
                return Err(Refusal::RuleUndefined(Undefined::TempoFile(krk.rook)));
            }
        };
        let to = square_at(file, rank_of(krk.rook)).expect("file and rank on the board");
        return Ok((krk.rook, to, "rule 4: tempo"));
    }
    if file_distance > 0 {
        let step = (file_of(krk.black_king) - file_of(krk.white_king)).signum();
        let to = square_at(file_of(krk.white_king) + step, rank_of(krk.white_king))
            .expect("a step towards the other king stays on the board");
        return Ok((
            krk.white_king,
            to,
            "rule 5: king sideways towards the black king",
        ));
    }
    Ok((
        krk.rook,
        frame.one_down(krk.rook),
        "rule 6: rook one rank down, check",
    ))
}

/// A lamp of the 1912 machine's board that shows White's move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Lamp {
    RookAFile,
    RookHFile,
    RookDown,
    RookLeft,
    RookRight,
    KingDown,
    KingLeft,
    KingRight,
}

impl Lamp {
    /// The eight lamps, in the order the machine's panel shows them.
    pub const ALL: [Lamp; 8] = [
        Lamp::RookAFile,
        Lamp::RookHFile,
        Lamp::RookDown,
        Lamp::RookLeft,
        Lamp::RookRight,
        Lamp::KingDown,
        Lamp::KingLeft,
        Lamp::KingRight,
    ];

    /// What the lamp says, for people.
    pub fn label(self) -> &'static str {
        match self {
            Lamp::RookAFile => "Rook to the a-file",
            Lamp::RookHFile => "Rook to the h-file",
            Lamp::RookDown => "Rook one down",
            Lamp::RookLeft => "Rook one left",
            Lamp::RookRight => "Rook one right",
            Lamp::KingDown => "King one down",
            Lamp::KingLeft => "King one left",
            Lamp::KingRight => "King one right",
        }
    }
}

/// The lamps that show White's move `mv`: the rook to the a- or h-file,
/// the rook or the king one square down, left or right. "Down" is towards
/// the black king's side of the white king (rank 1 in the 1912 machine's
/// own orientation), as in the decision list; left is towards the a-file.
pub fn lamps(mv: Move, board_after: &Board) -> Vec<Lamp> {
    let (Some(from), to) = (mv.from(), mv.to()) else {
        return Vec::new();
    };
    let down = match (
        board_after.king_of(Color::White),
        board_after.king_of(Color::Black),
    ) {
        (Some(white), Some(black)) => (rank_of(black) - rank_of(white)).signum(),
        _ => -1,
    };
    let (files, ranks) = (file_of(to) - file_of(from), rank_of(to) - rank_of(from));
    let mut lamps = Vec::new();
    match mv.role() {
        Role::Rook if files != 0 && (file_of(to) == 0 || file_of(to) == 7) && files.abs() > 1 => {
            lamps.push(if file_of(to) == 0 {
                Lamp::RookAFile
            } else {
                Lamp::RookHFile
            });
        }
        Role::Rook if files == 0 && ranks == down => lamps.push(Lamp::RookDown),
        Role::Rook if ranks == 0 && files == -1 => lamps.push(Lamp::RookLeft),
        Role::Rook if ranks == 0 && files == 1 => lamps.push(Lamp::RookRight),
        Role::King => {
            if ranks != 0 && ranks == down {
                lamps.push(Lamp::KingDown);
            }
            if files == -1 {
                lamps.push(Lamp::KingLeft);
            }
            if files == 1 {
                lamps.push(Lamp::KingRight);
            }
        }
        _ => {}
    }
    lamps
}

#[cfg(test)]
mod tests {
    use shakmaty::Position;
    use shakmaty::san::San;

    use super::*;
    use crate::test_support::position;

    /// Torres' move in SAN and the rule that fired.
    fn reply(fen: &str) -> (String, &'static str) {
        let position = position(fen);
        let (reply, ()) = Torres.reply(&position, &()).expect("torres moves");
        (
            San::from_move(&position, reply.mv).to_string(),
            reply.reason,
        )
    }

    #[test]
    fn black_king_on_the_d_file_is_in_no_zone() {
        // Rook in zone L, black king on d: no rule 1; kings three files
        // apart: tempo.
        assert_eq!(
            reply("K7/1R6/3k4/8/8/8/8/8 w - - 0 1"),
            ("Ra7".into(), "rule 4: tempo")
        );
    }

    #[test]
    fn black_king_on_the_e_file_is_in_no_zone() {
        let (san, reason) = reply("7K/6R1/4k3/8/8/8/8/8 w - - 0 1");
        assert_eq!((san.as_str(), reason), ("Rh7", "rule 4: tempo"));
    }

    #[test]
    fn black_king_in_the_rook_zone_sends_the_rook_across() {
        let (san, reason) = reply("K7/1R6/2k5/8/8/8/8/8 w - - 0 1");
        assert_eq!(san, "Rh7");
        assert!(reason.starts_with("rule 1"));
        let (san, _) = reply("7K/6R1/5k2/8/8/8/8/8 w - - 0 1");
        assert_eq!(san, "Ra7");
    }

    #[test]
    fn rook_and_king_come_down() {
        assert_eq!(reply("K7/1R6/8/8/4k3/8/8/8 w - - 0 1").0, "Rb6");
        assert_eq!(reply("K7/8/8/8/8/1R6/4k3/8 w - - 0 1").0, "Ka7");
    }

    #[test]
    fn king_steps_sideways_on_an_even_file_distance() {
        let (san, reason) = reply("8/8/8/8/8/2K5/7R/k7 w - - 0 1");
        assert_eq!(
            (san.as_str(), reason),
            ("Kb3", "rule 5: king sideways towards the black king")
        );
    }

    #[test]
    fn opposition_gives_check_and_the_king_must_go_down() {
        let position_before = position("8/8/8/8/3K4/7R/3k4/8 w - - 0 1");
        let (reply, ()) = Torres.reply(&position_before, &()).expect("torres moves");
        assert_eq!(reply.reason, "rule 6: rook one rank down, check");
        let mut after = position_before.clone();
        after.play_unchecked(reply.mv);
        assert!(after.is_check() && !after.is_checkmate());
        assert!(
            after
                .legal_moves()
                .iter()
                .all(|mv| mv.to().rank() == Rank::First)
        );
    }

    #[test]
    fn opposition_on_the_edge_is_mate_in_the_corner() {
        let position_before = position("8/8/8/8/8/1K6/7R/1k6 w - - 0 1");
        let (reply, ()) = Torres.reply(&position_before, &()).expect("torres moves");
        let mut after = position_before;
        after.play_unchecked(reply.mv);
        assert!(after.is_checkmate());
        assert_eq!(reply.mv.to(), Square::H1);
    }

    #[test]
    fn positions_outside_the_preconditions_are_refused() {
        let refusals = [
            "K7/2R5/3k4/8/8/8/8/8 w - - 0 1", // rook on the c-file
            "8/1R6/K7/3k4/8/8/8/8 w - - 0 1", // white king below the rook
            "K7/8/8/3k4/8/8/8/1R6 w - - 0 1", // black king above the rook
        ];
        for fen in refusals {
            assert!(
                matches!(
                    Torres.reply(&position(fen), &()),
                    Err(Refusal::Precondition(_))
                ),
                "{fen}"
            );
            assert!(Torres.precondition(position(fen).board()).is_err());
        }
    }

    #[test]
    fn machine_start_set_is_a8_b7_and_ranks_one_to_six() {
        assert!(Torres.is_machine_start(position("K7/1R6/8/8/8/8/8/7k w - - 0 1").board()));
        assert!(Torres.is_machine_start(position("K7/1R6/3k4/8/8/8/8/8 w - - 0 1").board()));
        assert!(!Torres.is_machine_start(position("K7/R7/3k4/8/8/8/8/8 w - - 0 1").board()));
    }

    fn board(fen: &str) -> Board {
        fen.parse().unwrap()
    }

    fn normal(role: Role, from: Square, to: Square) -> Move {
        Move::Normal {
            role,
            from,
            capture: None,
            to,
            promotion: None,
        }
    }

    #[test]
    fn lamps_follow_the_orientation_of_the_kings() {
        // 1912 orientation: white king above, black king below ("down" is
        // towards rank 1).
        let after = board("K7/8/8/8/8/1R6/8/3k4");
        let rook_down = normal(Role::Rook, Square::B4, Square::B3);
        assert_eq!(lamps(rook_down, &after), [Lamp::RookDown]);
        let rook_far = normal(Role::Rook, Square::B3, Square::H3);
        assert_eq!(lamps(rook_far, &after), [Lamp::RookHFile]);
        let king_down = normal(Role::King, Square::A8, Square::A7);
        assert_eq!(
            lamps(king_down, &board("8/K7/8/8/8/1R6/8/3k4")),
            [Lamp::KingDown]
        );
        // Mirrored (seed 004's game): the black king above, so a king step
        // towards rank 8 is "down".
        let mirrored = board("8/8/1k6/8/R7/5K2/8/8");
        let king_up = normal(Role::King, Square::F2, Square::F3);
        assert_eq!(lamps(king_up, &mirrored), [Lamp::KingDown]);
        let rook_left = normal(Role::Rook, Square::B4, Square::A4);
        assert_eq!(lamps(rook_left, &mirrored), [Lamp::RookLeft]);
        assert_eq!(
            serde_json::to_string(&Lamp::RookAFile).unwrap(),
            "\"rook_a_file\""
        );
    }
}
