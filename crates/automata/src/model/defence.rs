//! Black's play in a demonstration game.

use std::str::FromStr;

use shakmaty::{Chess, Move, Position};

/// How Black defends in `selfplay`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefenceKind {
    /// The move that delays mate longest by the tables.
    Perfect,
    /// A uniformly random legal move from a seeded generator.
    Random { seed: u64 },
    /// The audit's defender: the longest resistance against this very
    /// automaton (a failure of the automaton if one can be forced).
    Longest,
}

/// A defence that is neither `perfect`, `random` nor `random:SEED`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown defence {0:?} (known: perfect, longest, random, random:SEED)")]
pub struct UnknownDefence(pub String);

impl FromStr for DefenceKind {
    type Err = UnknownDefence;

    fn from_str(text: &str) -> Result<DefenceKind, UnknownDefence> {
        match text.split_once(':') {
            None if text == "perfect" => Ok(DefenceKind::Perfect),
            None if text == "random" => Ok(DefenceKind::Random { seed: 0 }),
            None if text == "longest" => Ok(DefenceKind::Longest),
            Some(("random", seed)) => seed
                .parse()
                .map(|seed| DefenceKind::Random { seed })
                .map_err(|_| UnknownDefence(text.to_string())),
            _ => Err(UnknownDefence(text.to_string())),
        }
    }
}

/// Random legal moves, reproducible from the seed (SplitMix64).
#[derive(Debug, Clone)]
pub struct RandomDefence {
    state: u64,
}

impl RandomDefence {
    pub fn new(seed: u64) -> RandomDefence {
        RandomDefence { state: seed }
    }

    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// One of Black's legal moves (the position must have one).
    pub fn choose(&mut self, position: &Chess) -> Move {
        let moves = position.legal_moves();
        let index = (self.next() % moves.len() as u64) as usize;
        moves[index]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defences_parse() {
        assert_eq!("perfect".parse(), Ok(DefenceKind::Perfect));
        assert_eq!("random".parse(), Ok(DefenceKind::Random { seed: 0 }));
        assert_eq!("random:42".parse(), Ok(DefenceKind::Random { seed: 42 }));
        assert_eq!("longest".parse(), Ok(DefenceKind::Longest));
        assert!("random:x".parse::<DefenceKind>().is_err());
        assert!("best".parse::<DefenceKind>().is_err());
    }

    #[test]
    fn random_defence_repeats_with_its_seed() {
        let position = Chess::default();
        let picks = |seed| {
            let mut defence = RandomDefence::new(seed);
            (0..8)
                .map(|_| defence.choose(&position))
                .collect::<Vec<_>>()
        };
        assert_eq!(picks(7), picks(7));
        assert_ne!(picks(7), picks(8));
    }
}
