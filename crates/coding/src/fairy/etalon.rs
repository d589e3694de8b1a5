//! The etalon position under fairy rules (3.1 - 3.3): the whole position
//! turned, reflected and shifted so that B is smallest, realised by a
//! position that is legal and final under the same conditions.
//!
//! A candidate maps the first attacked royal to a target square by one of
//! the 8 symmetries; every other royal goes along, and each must find a
//! zone of the same shape (its walk's reach) at its image. Units in a zone
//! stay on the images of their squares; the others are placed depth first
//! outside the zones (units that take part first, each reaching at least
//! the images of the zone squares it reached; then the others greedily).
//! A realisation counts when it is legal, final of the same kind under the
//! same conditions and codes the same as the candidate: rebirth squares,
//! grid cells and double guards are all checked by that code.

use shakmaty::{Bitboard, Square};

use super::Unit;
use super::analysis::{FairyFinal, zone_of};
use super::position::FairyPosition;
use crate::Symmetry;
use crate::code::Code;
use crate::etalon::{Etalon, EtalonError, SEARCH_LIMIT, cosmetic_order, marks_at_image, spend};
use crate::final_position::squares_of;
use crate::symbol::Mark;
use crate::zone::{Offset, numeric_symbol, offset_between, shifted};

/// The etalon position of a fairy final position.
pub type FairyEtalon = Etalon<FairyPosition>;

/// One image of the whole position's zones.
struct Candidate {
    symmetry: Symmetry,
    /// The image of the first royal.
    target: Square,
    /// B of each royal (in the FP's order of royals) read at its image.
    marks: Vec<Vec<Mark>>,
    key: (Vec<Vec<Mark>>, bool, Vec<u32>),
}

/// A unit outside the zones and what it must reach.
struct Mover {
    unit: Unit,
    /// Images are taken of these zone squares (offsets from the first
    /// royal); empty for a unit that takes no part.
    duty: Vec<Offset>,
    takes_part: bool,
}

impl FairyFinal {
    /// Searches the etalon position (see the module's doc).
    pub(crate) fn fairy_etalon(&self) -> Result<FairyEtalon, EtalonError> {
        let mut budget = SEARCH_LIMIT;
        for candidate in self.fairy_candidates() {
            match self.realise(&candidate, &mut budget) {
                Ok(Some(found)) => {
                    let code = found.etalon_code();
                    return Ok(Etalon::new(found, candidate.symmetry, code));
                }
                Ok(None) => {}
                Err(error) => return Err(error),
            }
        }
        Err(EtalonError::NotRealised)
    }

    fn origin(&self) -> Square {
        self.zones()[0].zone.king()
    }

    fn image(&self, symmetry: Symmetry, target: Square, square: Square) -> Option<Square> {
        shifted(
            target,
            symmetry.apply_offset(offset_between(self.origin(), square)),
        )
    }

    fn fairy_candidates(&self) -> Vec<Candidate> {
        let position = self.position();
        let mut candidates = Vec::new();
        for symmetry in Symmetry::ALL {
            'target: for target in Square::ALL {
                let mut all_marks = Vec::new();
                let mut images = Vec::new();
                for royal_zone in self.zones() {
                    let royal = royal_zone.zone.king();
                    let Some(image) = self.image(symmetry, target, royal) else {
                        continue 'target;
                    };
                    let unit = position.unit_at(royal).expect("royal");
                    let Some(marks) = marks_at_image(
                        &royal_zone.zone.offsets(),
                        &royal_zone.marks,
                        symmetry,
                        &zone_of(unit, image, position.rules()).offsets(),
                    ) else {
                        continue 'target;
                    };
                    all_marks.push(marks);
                    images.push(image);
                }
                let mut order: Vec<usize> = (0..images.len()).collect();
                order.sort_by(|&a, &b| {
                    all_marks[a][1..]
                        .cmp(&all_marks[b][1..])
                        .then(all_marks[a][0].cmp(&all_marks[b][0]))
                        .then(numeric_symbol(images[a]).cmp(&numeric_symbol(images[b])))
                });
                let key = (
                    order.iter().map(|&i| all_marks[i][1..].to_vec()).collect(),
                    !FairyFinal::preferred(images[order[0]]),
                    order.iter().map(|&i| numeric_symbol(images[i])).collect(),
                );
                candidates.push(Candidate {
                    symmetry,
                    target,
                    marks: all_marks,
                    key,
                });
            }
        }
        candidates.sort_by(|a, b| a.key.cmp(&b.key).then(a.symmetry.cmp(&b.symmetry)));
        candidates
    }

    /// A realisation of `candidate`, if the search finds one.
    fn realise(
        &self,
        candidate: &Candidate,
        budget: &mut u64,
    ) -> Result<Option<FairyFinal>, EtalonError> {
        let position = self.position();
        let image = |square| self.image(candidate.symmetry, candidate.target, square);
        let in_zone = squares_of(self.zones());
        let mut board = FairyPosition::empty(position.turn(), position.rules().clone());
        let mut zone_images = Bitboard::EMPTY;
        for square in in_zone {
            let target = image(square).expect("zones map onto zones");
            zone_images.add(target);
            if let Some(unit) = position.unit_at(square) {
                if !unit.may_stand_on(target) {
                    return Ok(None);
                }
                board.set(target, Some(unit));
            }
        }
        let mut seen = position.occupied();
        for zone in self.zones() {
            seen.discard(zone.zone.king());
        }
        let mut movers: Vec<Mover> = (position.occupied() & !in_zone)
            .into_iter()
            .map(|square| {
                let unit = position.unit_at(square).expect("occupied");
                let takes_part = self.participants().contains(square);
                let duty = if takes_part {
                    (position.attacks(square, unit, seen) & in_zone)
                        .into_iter()
                        .map(|target| offset_between(self.origin(), target))
                        .collect()
                } else {
                    Vec::new()
                };
                Mover {
                    unit,
                    duty,
                    takes_part,
                }
            })
            .collect();
        movers.sort_by_key(|mover| {
            (
                !mover.takes_part,
                mover.unit.kind.is_hopper(),
                mover.unit.kind,
                mover.unit.color.is_white(),
            )
        });
        let mut expected = self.etalon_code();
        let mut order: Vec<usize> = (0..candidate.marks.len()).collect();
        order.sort_by(|&a, &b| {
            candidate.marks[a][1..]
                .cmp(&candidate.marks[b][1..])
                .then(candidate.marks[a][0].cmp(&candidate.marks[b][0]))
        });
        expected.marks = candidate.marks[order[0]].clone();
        expected.other_marks = order[1..]
            .iter()
            .map(|&i| candidate.marks[i].clone())
            .collect();
        let mut search = Search {
            final_kind: self.kind(),
            movers: &movers,
            origin_image: candidate.target,
            symmetry: candidate.symmetry,
            zone_images,
            royal_images: self
                .zones()
                .iter()
                .filter_map(|zone| image(zone.zone.king()))
                .collect(),
            expected,
            budget,
            placed: Vec::new(),
        };
        search.place(0, &mut board)
    }
}

struct Search<'a> {
    final_kind: crate::FinalKind,
    movers: &'a [Mover],
    origin_image: Square,
    symmetry: Symmetry,
    zone_images: Bitboard,
    royal_images: Bitboard,
    expected: Code,
    budget: &'a mut u64,
    /// Squares of the movers placed so far, in order.
    placed: Vec<Square>,
}

impl Search<'_> {
    fn duty_image(&self, offset: Offset) -> Option<Square> {
        shifted(self.origin_image, self.symmetry.apply_offset(offset))
    }

    /// Every placed mover that is not a hopper still reaches its duty
    /// (more men only block riders; hoppers are checked at the end).
    fn duties_hold(&self, board: &FairyPosition, upto: usize) -> bool {
        let seen = board.occupied() & !self.royal_images;
        (0..upto).all(|i| {
            let mover = &self.movers[i];
            if mover.unit.kind.is_hopper() && upto < self.movers.len() {
                return true;
            }
            let square = self.placed[i];
            let reach = board.attacks(square, mover.unit, seen);
            mover
                .duty
                .iter()
                .all(|&offset| self.duty_image(offset).is_some_and(|t| reach.contains(t)))
        })
    }

    /// Whether `unit` on `square` would reach a zone square.
    fn reaches_a_zone(&self, board: &FairyPosition, square: Square, unit: Unit) -> bool {
        let seen = board.occupied() & !self.royal_images;
        (board.attacks(square, unit, seen) & self.zone_images).any()
    }

    fn squares(&self, board: &FairyPosition, unit: Unit) -> Vec<Square> {
        let free = !board.occupied() & !self.zone_images;
        let mut squares: Vec<Square> = free
            .into_iter()
            .filter(|&square| unit.may_stand_on(square))
            .collect();
        let line_piece = unit.kind.is_line_piece();
        squares.sort_by_key(|&square| cosmetic_order(square, self.origin_image, line_piece));
        squares
    }

    fn place(
        &mut self,
        step: usize,
        board: &mut FairyPosition,
    ) -> Result<Option<FairyFinal>, EtalonError> {
        if step == self.movers.len() {
            return Ok(self.check(board));
        }
        let mover = &self.movers[step];
        let passive = !mover.takes_part;
        for square in self.squares(board, mover.unit) {
            if passive && self.reaches_a_zone(board, square, mover.unit) {
                continue;
            }
            spend(self.budget)?;
            board.set(square, Some(mover.unit));
            self.placed.push(square);
            if self.duties_hold(board, step + 1) {
                let found = self.place(step + 1, board)?;
                if found.is_some() {
                    return Ok(found);
                }
                if passive {
                    // Units that take no part are placed greedily.
                    board.set(square, None);
                    self.placed.pop();
                    return Ok(None);
                }
            }
            board.set(square, None);
            self.placed.pop();
        }
        Ok(None)
    }

    fn check(&self, board: &FairyPosition) -> Option<FairyFinal> {
        board.legality().ok()?;
        if board.final_kind()? != self.final_kind {
            return None;
        }
        let analysed = FairyFinal::analyse(board.clone()).ok()?;
        analysed
            .etalon_code()
            .same_pattern(&self.expected)
            .then_some(analysed)
    }
}
