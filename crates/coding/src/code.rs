//! The code A-B-C of a final or etalon position (brochure 2.1 - 2.4, 3.3)
//! and the classification read from it.

use std::fmt;

use shakmaty::Square;

use crate::condition::SpecialMark;
use crate::symbol::{Mark, Symbol};
use crate::zone::numeric_symbol;

/// A code A-B-C.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Code {
    /// Part A before `/`: the participating attacking units, ascending.
    pub attacking: Vec<Symbol>,
    /// Part A after `/`: blockers and pinned units of the attacked side,
    /// ascending (the attacked king is not written).
    pub attacked: Vec<Symbol>,
    /// Part B: one mark per zone square in numbering order.
    pub marks: Vec<Mark>,
    /// Part B of the other attacked kings (2.3.7), each after a `/`.
    pub other_marks: Vec<Vec<Mark>>,
    /// Part C: the square of the king, `None` where the etalon omits it
    /// (a8, a5, d5; 3.3.2).
    pub square: Option<Square>,
    /// Part C: the squares of the other attacked kings (2.4.3).
    pub other_squares: Vec<Square>,
    /// Part C: pinned units outside the zone with their pinners, each a
    /// bracket (pinned, pinner), ascending (2.4.2).
    pub pins: Vec<Mark>,
    /// Part C: special marks (2.4.4 - 2.4.9); empty in orthodox chess.
    pub conditions: Vec<SpecialMark>,
}

fn concat<T: fmt::Display>(items: &[T]) -> String {
    items.iter().map(ToString::to_string).collect()
}

impl Code {
    /// Part A.
    pub fn a(&self) -> String {
        if self.attacked.is_empty() {
            concat(&self.attacking)
        } else {
            format!("{}/{}", concat(&self.attacking), concat(&self.attacked))
        }
    }

    /// Part B.
    pub fn b(&self) -> String {
        std::iter::once(&self.marks)
            .chain(&self.other_marks)
            .map(|marks| concat(marks))
            .collect::<Vec<_>>()
            .join("/")
    }

    /// Part C (possibly empty).
    pub fn c(&self) -> String {
        let square: String = self
            .square
            .iter()
            .chain(&self.other_squares)
            .map(|&square| numeric_symbol(square).to_string())
            .collect();
        format!("{square}{}{}", concat(&self.pins), concat(&self.conditions))
    }

    /// Everything but the square of the king: two final positions that
    /// differ by a shift agree on this.
    pub fn same_pattern(&self, other: &Code) -> bool {
        self.attacking == other.attacking
            && self.attacked == other.attacked
            && self.marks == other.marks
            && self.other_marks == other.other_marks
            && self.pins == other.pins
            && self.conditions == other.conditions
    }

    /// The classification of the brochure's last section.
    pub fn classification(&self) -> Classification {
        Classification {
            class: self.attacking.clone(),
            group: self.attacked.clone(),
            attacked_kings: 1 + self.other_marks.len(),
            subgroup: self
                .marks
                .first()
                .cloned()
                .unwrap_or(Mark::Group(Vec::new())),
            kind_b: std::iter::once(self.marks.clone())
                .chain(self.other_marks.iter().cloned())
                .collect(),
            kind_c: self.c(),
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.a(), self.b())?;
        let c = self.c();
        if !c.is_empty() {
            write!(f, "-{c}")?;
        }
        Ok(())
    }
}

/// Class, group, subgroup and kind (вид) of an etalon position, typed so
/// that they sort in the brochure's order of symbols (`K` < `(K…)` < `0` <
/// ... < `9` < letters < `+`), not in the order of their UTF-8 text. The
/// derived order compares class, then group, subgroup and kind.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Classification {
    /// The attacking units of part A.
    pub class: Vec<Symbol>,
    /// The attacked units of part A; empty when only ordinary kings are
    /// attacked (written `(K)`, `(KK)`).
    pub group: Vec<Symbol>,
    /// How many B the code has: the attacked kings of `(K)`, `(KK)`.
    pub attacked_kings: usize,
    /// The first mark of part B: the mating unit(s) or `П`.
    pub subgroup: Mark,
    /// Part B of the kind: one list of marks per attacked king.
    pub kind_b: Vec<Vec<Mark>>,
    /// Part C of the kind (possibly empty).
    pub kind_c: String,
}

impl Classification {
    pub fn class_text(&self) -> String {
        concat(&self.class)
    }

    /// The group, `(K)` (or `(KK)`) when only ordinary kings are attacked.
    pub fn group_text(&self) -> String {
        if self.group.is_empty() {
            format!("({})", "K".repeat(self.attacked_kings))
        } else {
            concat(&self.group)
        }
    }

    pub fn subgroup_text(&self) -> String {
        self.subgroup.to_string()
    }

    /// The kind: `B`, or `B-C` when C is not empty.
    pub fn kind_text(&self) -> String {
        let b = self
            .kind_b
            .iter()
            .map(|marks| concat(marks))
            .collect::<Vec<_>>()
            .join("/");
        if self.kind_c.is_empty() {
            b
        } else {
            format!("{b}-{}", self.kind_c)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbol::Man;
    use shakmaty::{Color, Role};

    fn man(color: Color, role: Role) -> Symbol {
        Symbol::Man(Man::new(color, role).unwrap())
    }

    fn code(attacking: Vec<Symbol>, attacked: Vec<Symbol>, marks: Vec<Mark>) -> Code {
        Code {
            attacking,
            attacked,
            marks,
            other_marks: Vec::new(),
            square: None,
            other_squares: Vec::new(),
            pins: Vec::new(),
            conditions: Vec::new(),
        }
    }

    /// Classifications sort by the brochure's symbols: `K03` before `K3`
    /// (K < 0 < 3), `(K)` before a group of men, `K` before the digits in
    /// the subgroup, which UTF-8 text puts after them.
    #[test]
    fn classifications_sort_in_the_brochures_order() {
        let king = Symbol::AttackingKing;
        let pawn = man(Color::White, Role::Pawn);
        let rook = man(Color::White, Role::Rook);
        let black_rook = man(Color::Black, Role::Rook);
        let single = |symbol| Mark::Single(symbol);
        let k03 = code(vec![king, pawn, rook], vec![], vec![single(pawn)]);
        let k3_checked_by_king = code(vec![king, rook], vec![], vec![single(king)]);
        let k3 = code(vec![king, rook], vec![], vec![single(rook)]);
        let k3_with_blocker = code(vec![king, rook], vec![black_rook], vec![single(rook)]);
        let classes: Vec<Classification> = [&k03, &k3_checked_by_king, &k3, &k3_with_blocker]
            .map(|code| code.classification())
            .to_vec();
        let mut sorted = classes.clone();
        sorted.sort();
        assert_eq!(sorted, classes);
        assert_eq!(classes[0].class_text(), "K03");
        assert_eq!(classes[1].group_text(), "(K)");
        assert_eq!(classes[1].subgroup_text(), "K");
        assert_eq!(classes[3].group_text(), "8");
        // Sorted as texts, the subgroup "3" would come before "K".
        let texts = |classes: &[Classification]| -> Vec<String> {
            classes
                .iter()
                .map(|c| {
                    format!(
                        "{} {} {}",
                        c.class_text(),
                        c.group_text(),
                        c.subgroup_text()
                    )
                })
                .collect()
        };
        let mut by_text = texts(&classes);
        by_text.sort();
        assert_ne!(by_text, texts(&classes));
    }
}
