//! Every mate (or stalemate) with given material, the attacked side (black)
//! to move, over all placements, then the model and ideal ones grouped by
//! etalon code.

use std::fmt;
use std::str::FromStr;

use rayon::prelude::*;
use shakmaty::{Bitboard, Board, Chess, Color, Piece, Role, Square, attacks};

use crate::fairy::{FairyError, FairyMaterial, Kind};
use crate::final_position::{AnalysedFinal, FinalKind, FinalRules};
use crate::retro::has_legal_last_move;
use crate::rules::{may_stand, position_from};

/// Orthodox material for the enumeration: one king a side and at most six
/// men in all, e.g. `KQvK`, `KBNvK`, `KQvKP`. It is read by the one parser
/// of material in this crate, [`FairyMaterial`]'s, and then restricted, so
/// `KRvK` means the same here, in [`FairyMaterial`] and in
/// `ajedrecista_tables::Material`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrthodoxMaterial {
    white: Vec<Role>,
    black: Vec<Role>,
}

/// Material that is not orthodox material of at most six men.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad material {text:?}: {reason} (expected e.g. KQvK, KBNvK, KQvKP)")]
pub struct BadMaterial {
    text: String,
    reason: NotOrthodox,
}

/// Why a material is no orthodox material of at most six men.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotOrthodox {
    /// Not even fairy material (the one material parser refused it).
    #[error(transparent)]
    Unreadable(#[from] FairyError),
    #[error("a fairy unit")]
    FairyUnit,
    #[error("each side needs exactly one king")]
    KingCount,
    #[error("at most six men in all")]
    TooManyMen,
}

impl FromStr for OrthodoxMaterial {
    type Err = BadMaterial;

    fn from_str(text: &str) -> Result<OrthodoxMaterial, BadMaterial> {
        let fairy: FairyMaterial = text.parse().map_err(|error: FairyError| BadMaterial {
            text: text.to_owned(),
            reason: error.into(),
        })?;
        OrthodoxMaterial::try_from(&fairy)
    }
}

impl TryFrom<&FairyMaterial> for OrthodoxMaterial {
    type Error = BadMaterial;

    fn try_from(fairy: &FairyMaterial) -> Result<OrthodoxMaterial, BadMaterial> {
        let bad = |reason: NotOrthodox| BadMaterial {
            text: fairy.to_string(),
            reason,
        };
        let side = |color: Color| -> Result<Vec<Role>, BadMaterial> {
            let units = fairy.units(color);
            let mut roles = Vec::new();
            for unit in units {
                let role = unit
                    .kind
                    .role()
                    .filter(|_| unit.royal == (unit.kind == Kind::King) && !unit.armoured)
                    .ok_or_else(|| bad(NotOrthodox::FairyUnit))?;
                roles.push(role);
            }
            if roles.iter().filter(|&&role| role == Role::King).count() != 1 {
                return Err(bad(NotOrthodox::KingCount));
            }
            roles.retain(|&role| role != Role::King);
            roles.sort_by_key(|&role| std::cmp::Reverse(role));
            Ok(roles)
        };
        let material = OrthodoxMaterial {
            white: side(Color::White)?,
            black: side(Color::Black)?,
        };
        if material.white.len() + material.black.len() > 4 {
            return Err(bad(NotOrthodox::TooManyMen));
        }
        Ok(material)
    }
}

impl OrthodoxMaterial {
    /// The men to place besides the black king, identical men adjacent.
    fn men(&self) -> Vec<Piece> {
        let white = std::iter::once(Role::King)
            .chain(self.white.iter().copied())
            .map(|role| Piece {
                color: Color::White,
                role,
            });
        let black = self.black.iter().map(|&role| Piece {
            color: Color::Black,
            role,
        });
        white.chain(black).collect()
    }
}

impl fmt::Display for OrthodoxMaterial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |roles: &[Role]| -> String {
            std::iter::once('K')
                .chain(roles.iter().map(|role| role.upper_char()))
                .collect()
        };
        write!(f, "{}v{}", side(&self.white), side(&self.black))
    }
}

/// Which positions count as legal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Legality {
    /// shakmaty's rules: kings apart, side not to move not in check, no
    /// pawns on the back ranks, no impossible check (more than two checkers,
    /// two checking knights or pawns, two aligned line checkers).
    #[default]
    Board,
    /// Also require a legal last move of White leading to the position
    /// (one ply of retrograde analysis, see [`crate::retro`]); a capture or
    /// a promotion may have been that move.
    LastMove,
    /// Also require a legal last move of White that was neither a capture
    /// nor a promotion: the mate arose within this material.
    LastMoveInMaterial,
}

/// Which final positions are grouped by etalon code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Selection {
    /// Model ones (ideal ones included).
    #[default]
    Model,
    /// Ideal ones only.
    Ideal,
}

/// One etalon code and the final positions that reach it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EtalonGroup {
    pub ep_code: String,
    pub count: u64,
    pub ideal: bool,
    /// The first final position with this code, in enumeration order.
    pub example_fen: String,
}

/// The result of an enumeration: orthodox material by default,
/// [`crate::fairy::FairyEnumeration`] under fairy rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enumeration<M = OrthodoxMaterial> {
    pub material: M,
    pub kind: FinalKind,
    pub total: u64,
    pub pure: u64,
    pub model: u64,
    pub ideal: u64,
    /// Selected positions whose etalon search failed (see [`crate::EtalonError`]).
    pub without_etalon: u64,
    /// Grouped by etalon code, most frequent first.
    pub by_ep_code: Vec<EtalonGroup>,
}

/// Counts over some final positions.
#[derive(Default)]
pub(crate) struct Tally {
    total: u64,
    pure: u64,
    model: u64,
    ideal: u64,
    without_etalon: u64,
    /// In order of first appearance.
    groups: Vec<EtalonGroup>,
}

impl Tally {
    /// Counts the final position `position`; its etalon is searched and
    /// grouped when `selected` says so.
    pub(crate) fn add<P: FinalRules>(
        &mut self,
        position: P,
        selected: impl Fn(&AnalysedFinal<P>) -> bool,
    ) {
        let fen = position.fen_text();
        let analysed = AnalysedFinal::analyse(position).expect("enumerated positions are final");
        self.total += 1;
        self.pure += u64::from(analysed.is_pure());
        self.model += u64::from(analysed.is_model());
        self.ideal += u64::from(analysed.is_ideal());
        if selected(&analysed) {
            match analysed.etalon() {
                Ok(etalon) => self.add_group(EtalonGroup {
                    ep_code: etalon.code().to_string(),
                    count: 1,
                    ideal: analysed.is_ideal(),
                    example_fen: fen,
                }),
                Err(_) => self.without_etalon += 1,
            }
        }
    }

    /// The counts of `tallies` together, groups in order of first
    /// appearance.
    pub(crate) fn sum(tallies: Vec<Tally>) -> Tally {
        tallies.into_iter().fold(Tally::default(), Tally::merge)
    }

    fn merge(mut self, other: Tally) -> Tally {
        self.total += other.total;
        self.pure += other.pure;
        self.model += other.model;
        self.ideal += other.ideal;
        self.without_etalon += other.without_etalon;
        for group in other.groups {
            self.add_group(group);
        }
        self
    }

    fn add_group(&mut self, group: EtalonGroup) {
        match self
            .groups
            .iter_mut()
            .find(|known| known.ep_code == group.ep_code)
        {
            Some(known) => known.count += group.count,
            None => self.groups.push(group),
        }
    }

    /// The enumeration these counts make, groups most frequent first.
    pub(crate) fn into_enumeration<M>(self, material: M, kind: FinalKind) -> Enumeration<M> {
        let mut by_ep_code = self.groups;
        by_ep_code.sort_by(|a, b| b.count.cmp(&a.count).then(a.ep_code.cmp(&b.ep_code)));
        Enumeration {
            material,
            kind,
            total: self.total,
            pure: self.pure,
            model: self.model,
            ideal: self.ideal,
            without_etalon: self.without_etalon,
            by_ep_code,
        }
    }
}

/// Enumerates every final position of `kind` with `material`, black to
/// move. `tick` is called once per square of the black king (64 times).
pub fn enumerate(
    material: &OrthodoxMaterial,
    kind: FinalKind,
    legality: Legality,
    selection: Selection,
    tick: &(dyn Fn() + Sync),
) -> Enumeration {
    let tallies: Vec<Tally> = Square::ALL
        .into_par_iter()
        .map(|black_king| {
            let mut tally = Tally::default();
            for position in final_positions_under(material, kind, legality, black_king) {
                tally.add(position, |analysed| match selection {
                    Selection::Model => analysed.is_model(),
                    Selection::Ideal => analysed.is_ideal(),
                });
            }
            tick();
            tally
        })
        .collect();
    Tally::sum(tallies).into_enumeration(material.clone(), kind)
}

/// Every final position of `kind` with `material`, black to move, in a
/// fixed order (by the square of the black king, then of the other men).
pub fn final_positions(
    material: &OrthodoxMaterial,
    kind: FinalKind,
    legality: Legality,
) -> Vec<Chess> {
    Square::ALL
        .into_par_iter()
        .flat_map_iter(|black_king| final_positions_under(material, kind, legality, black_king))
        .collect()
}

fn final_positions_under(
    material: &OrthodoxMaterial,
    kind: FinalKind,
    legality: Legality,
    black_king: Square,
) -> Vec<Chess> {
    let men = material.men();
    let mut walk = Walk {
        men: &men,
        kind,
        legality,
        board: Board::empty(),
        black_king,
        found: Vec::new(),
    };
    walk.board.set_piece_at(
        black_king,
        Piece {
            color: Color::Black,
            role: Role::King,
        },
    );
    walk.place(0, None);
    walk.found
}

/// The placements under one square of the black king.
struct Walk<'a> {
    men: &'a [Piece],
    kind: FinalKind,
    legality: Legality,
    board: Board,
    black_king: Square,
    found: Vec<Chess>,
}

impl Walk<'_> {
    /// Places man `index` and the rest; `after` is the square of the
    /// previous man when it is identical (identical men go in increasing
    /// square order, so each placement is counted once).
    fn place(&mut self, index: usize, after: Option<Square>) {
        if self.kind == FinalKind::Mate
            && self
                .men
                .get(index)
                .is_none_or(|man| man.color == Color::Black)
            && self
                .men
                .get(index.wrapping_sub(1))
                .is_some_and(|man| man.color == Color::White)
            && !self.check_possible()
        {
            // The white men stand and none reaches the black king even on
            // an empty board: no black man can make it a mate.
            return;
        }
        if index == self.men.len() {
            self.visit();
            return;
        }
        let piece = self.men[index];
        let next_same = self.men.get(index + 1) == Some(&piece);
        for square in Square::ALL {
            if after.is_some_and(|previous| square <= previous)
                || self.board.piece_at(square).is_some()
                || !may_stand(piece, square)
            {
                continue;
            }
            self.board.set_piece_at(square, piece);
            self.place(index + 1, next_same.then_some(square));
            self.board.discard_piece_at(square);
        }
    }

    fn visit(&mut self) {
        if !self.may_be_final() {
            return;
        }
        let Some(position) = position_from(self.board.clone(), Color::Black) else {
            return;
        };
        if self.kind.holds_in(&position) && self.reachable(&position) {
            self.found.push(position);
        }
    }

    fn reachable(&self, position: &Chess) -> bool {
        match self.legality {
            Legality::Board => true,
            Legality::LastMove => has_legal_last_move(position, false),
            Legality::LastMoveInMaterial => has_legal_last_move(position, true),
        }
    }

    fn check_possible(&self) -> bool {
        self.board
            .white()
            .into_iter()
            .filter_map(|square| Some((square, self.board.piece_at(square)?)))
            .any(|(square, piece)| {
                attacks::attacks(square, piece, Bitboard::EMPTY).contains(self.black_king)
            })
    }

    /// A cheap filter before the full legality test: the black king is in
    /// check exactly for a mate, and each of its flights is blocked or
    /// attacked.
    fn may_be_final(&self) -> bool {
        let occupied = self.board.occupied();
        let in_check = self
            .board
            .attacks_to(self.black_king, Color::White, occupied)
            .any();
        if in_check != (self.kind == FinalKind::Mate) {
            return false;
        }
        let seen = occupied.without(self.black_king);
        let flights = attacks::king_attacks(self.black_king) & !self.board.black();
        flights
            .into_iter()
            .all(|flight| self.board.attacks_to(flight, Color::White, seen).any())
    }
}
