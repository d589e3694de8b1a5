//! Reading program listings as printed in the sources.
//!
//! Three layouts are read:
//! - steps with their addresses, several to a line (seed 000):
//!   `00. В/О    01. П→X2    02. БП    03. 93`;
//! - a table of ten steps a row under a header of columns (seed 001):
//!   `10 \|  ×  −  x→П2 ...`;
//! - one step a line with its code (the crate's `data/programs/*.hex`):
//!   `07 AA КППa high  # note`.
//!
//! Mnemonics are matched after folding the usual variants: Latin and
//! Cyrillic look-alike letters, case, `->`/`→`, `<->`/`↔`, `^x`/`ˣ`,
//! `∣`/`|`, `−`/`-`, spaces.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::model::Model;
use crate::opcode::Opcode;
use crate::program::{Program, address_label};

/// A listing that cannot be read; names the line (1-based).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("listing line {line}: {reason}")]
pub struct ListingError {
    pub line: usize,
    pub reason: String,
}

fn error(line: usize, reason: impl Into<String>) -> ListingError {
    ListingError {
        line,
        reason: reason.into(),
    }
}

/// Folds a mnemonic to a spelling-independent key.
fn fold(text: &str) -> String {
    let mut text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    for (from, to) in [
        ("<->", "↔"),
        ("<>", "≠"),
        ("!=", "≠"),
        ("#", "≠"),
        (">=", "≥"),
        ("->", "→"),
        ("<-", "←"),
        ("^-1", "⁻¹"),
        ("^x", "ˣ"),
        ("^X", "ˣ"),
        ("^y", "ʸ"),
        ("^Y", "ʸ"),
        ("^2", "²"),
        ("∣", "|"),
        ("−", "-"),
        ("–", "-"),
        ("pi", "π"),
    ] {
        text = text.replace(from, to);
    }
    text.chars()
        .map(|c| match c {
            'К' | 'к' | 'K' | 'k' => 'k',
            'Х' | 'х' | 'X' | 'x' => 'x',
            'С' | 'с' | 'C' | 'c' => 'c',
            'В' | 'в' | 'B' | 'b' => 'b',
            'О' | 'о' | 'O' | 'o' => 'o',
            'Е' | 'е' | 'E' | 'e' => 'e',
            'Н' | 'н' | 'H' | 'h' => 'h',
            'М' | 'м' | 'M' | 'm' => 'm',
            'Т' | 'т' | 'T' | 't' => 't',
            'А' | 'а' | 'A' | 'a' => 'a',
            'П' | 'п' | 'P' | 'p' => 'п',
            'Р' | 'р' => 'п',
            other => other.to_lowercase().next().unwrap_or(other),
        })
        .collect()
}

/// Whole-word spellings not covered by folding.
const ALIASES: [(&str, u8); 6] = [
    ("/", 0x13),
    (":", 0x13),
    ("*", 0x12),
    ("x<>y", 0x14),
    ("xy", 0x14),
    ("F⟲", 0x25),
];

static BY_NAME: LazyLock<HashMap<String, u8>> = LazyLock::new(|| {
    let mut names = HashMap::new();
    for opcode in Opcode::all().iter().filter(|opcode| opcode.mnemonic != "-") {
        names.insert(fold(opcode.mnemonic), opcode.code);
    }
    for (alias, code) in ALIASES {
        names.insert(fold(alias), code);
    }
    names
});

/// The code of a mnemonic, in any of the accepted spellings.
pub fn code_of(mnemonic: &str) -> Option<u8> {
    BY_NAME.get(&fold(mnemonic)).copied()
}

/// An address operand as printed: two characters, e.g. `93` or `A0`.
fn operand(text: &str) -> Option<u8> {
    let text = text
        .trim_start_matches("(address")
        .trim_end_matches(')')
        .trim();
    let bytes = text.as_bytes();
    (bytes.len() == 2 && bytes[0].is_ascii_hexdigit() && bytes[1].is_ascii_digit())
        .then(|| u8::from_str_radix(text, 16).ok())
        .flatten()
}

/// Collects steps, knowing whether the next one is an address operand.
struct Steps {
    bytes: Vec<u8>,
    operand_next: bool,
    /// The calculator the listing is for: how many steps it holds.
    model: Model,
}

impl Steps {
    fn check_address(&self, line: usize, address: usize) -> Result<(), ListingError> {
        if address != self.bytes.len() {
            return Err(error(
                line,
                format!(
                    "step {} where step {} was expected",
                    address_label(address),
                    address_label(self.bytes.len())
                ),
            ));
        }
        let steps = self.model.program_steps();
        if address >= steps {
            return Err(error(
                line,
                format!(
                    "step {}: the {} holds steps 00-{}",
                    address_label(address),
                    self.model,
                    address_label(steps - 1)
                ),
            ));
        }
        Ok(())
    }

    fn push(&mut self, line: usize, address: usize, text: &str) -> Result<(), ListingError> {
        self.check_address(line, address)?;
        let code = if self.operand_next {
            operand(text).ok_or_else(|| {
                error(
                    line,
                    format!(
                        "step {}: {text:?} is not an address",
                        address_label(address)
                    ),
                )
            })?
        } else {
            code_of(text).ok_or_else(|| {
                error(
                    line,
                    format!("step {}: unknown mnemonic {text:?}", address_label(address)),
                )
            })?
        };
        self.operand_next = !self.operand_next && Opcode::get(code).length == 2;
        self.bytes.push(code);
        Ok(())
    }

    /// Checks a step whose code is printed with it (the hex layout).
    fn push_code(
        &mut self,
        line: usize,
        address: usize,
        code: u8,
        text: &str,
    ) -> Result<(), ListingError> {
        let before = self.bytes.len();
        if self.operand_next || text.starts_with('(') {
            self.push(line, address, &format!("{code:02X}"))?;
        } else if text == "-" && Opcode::get(code).mnemonic == "-" {
            // A code without a name (not keyable, e.g. 1F).
            self.check_address(line, address)?;
            self.bytes.push(code);
        } else {
            self.push(line, address, text)?;
            if self.bytes[before] != code {
                return Err(error(
                    line,
                    format!("code {code:02X} does not match mnemonic {text:?}"),
                ));
            }
        }
        Ok(())
    }
}

/// An address label `00`..`99`, `A0`..`A4` (any hex digit first).
fn address(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 || !bytes[1].is_ascii_digit() {
        return None;
    }
    let tens = (bytes[0] as char).to_digit(16)? as usize;
    Some(tens * 10 + (bytes[1] - b'0') as usize)
}

/// Reads a listing in any of the three layouts (they may not be mixed).
pub fn read_listing(text: &str) -> Result<Program, ListingError> {
    read_listing_for(text, Model::Mk61)
}

/// [`read_listing`] for a model: a step past the last the model holds is
/// an error that names it (`step 98: the MK-54 holds steps 00-97`).
pub fn read_listing_for(text: &str, model: Model) -> Result<Program, ListingError> {
    let mut steps = Steps {
        bytes: Vec::new(),
        operand_next: false,
        model,
    };
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = strip_comment(raw).trim();
        if content.is_empty() {
            continue;
        }
        let tokens: Vec<&str> = content.split_whitespace().collect();
        if let Some(row) = table_row(content) {
            let (label, cells) = row;
            let base =
                address(label).ok_or_else(|| error(line, format!("bad row label {label:?}")))?;
            for (column, cell) in cells.into_iter().enumerate() {
                steps.push(line, base + column, cell)?;
            }
        } else if tokens[0].ends_with('.') && address(tokens[0].trim_end_matches('.')).is_some() {
            read_addressed(&mut steps, line, &tokens)?;
        } else if tokens.len() >= 3 && address(tokens[0]).is_some() && tokens[1].len() == 2 {
            let code = u8::from_str_radix(tokens[1], 16)
                .map_err(|_| error(line, format!("bad code {:?}", tokens[1])))?;
            let at = address(tokens[0]).unwrap_or_default();
            // Mnemonic: up to the confidence word or the end.
            let rest: Vec<&str> = tokens[2..]
                .iter()
                .copied()
                .take_while(|word| !["high", "medium", "low"].contains(word))
                .collect();
            steps.push_code(line, at, code, &rest.join(" "))?;
        } else {
            return Err(error(line, format!("cannot read {content:?}")));
        }
    }
    if steps.bytes.is_empty() {
        return Err(error(text.lines().count().max(1), "no program steps"));
    }
    if steps.operand_next {
        return Err(error(
            text.lines().count(),
            "the last step lacks its address",
        ));
    }
    Program::new(steps.bytes).map_err(|e| error(text.lines().count(), e.to_string()))
}

/// A line without its comment: from a `#` that starts the line or follows
/// a blank (so `Fx#0` is kept). The table header of seed 001 is a comment.
fn strip_comment(line: &str) -> &str {
    let mut previous = ' ';
    for (at, c) in line.char_indices() {
        if c == '#' && previous.is_whitespace() {
            return &line[..at];
        }
        previous = c;
    }
    line
}

/// `NN \|` or `NN |` followed by cells (tab-separated if there are tabs).
fn table_row(content: &str) -> Option<(&str, Vec<&str>)> {
    let (label, rest) = content.split_once('|')?;
    let label = label.trim().trim_end_matches('\\').trim();
    address(label)?;
    let cells: Vec<&str> = if rest.contains('\t') {
        rest.split('\t')
            .map(str::trim)
            .filter(|cell| !cell.is_empty())
            .collect()
    } else {
        rest.split_whitespace().collect()
    };
    Some((label, cells))
}

/// `00. В/О 01. П→X2 ...`: an address token, then the words of the step.
fn read_addressed(steps: &mut Steps, line: usize, tokens: &[&str]) -> Result<(), ListingError> {
    let mut current: Option<(usize, Vec<&str>)> = None;
    for &token in tokens {
        let label = token.strip_suffix('.').and_then(address);
        match (label, &mut current) {
            (Some(at), _) => {
                if let Some((previous, words)) = current.take() {
                    finish(steps, line, previous, &words)?;
                }
                current = Some((at, Vec::new()));
            }
            (None, Some((_, words))) => words.push(token),
            (None, None) => return Err(error(line, format!("{token:?} has no address"))),
        }
    }
    if let Some((at, words)) = current {
        finish(steps, line, at, &words)?;
    }
    Ok(())
}

fn finish(steps: &mut Steps, line: usize, at: usize, words: &[&str]) -> Result<(), ListingError> {
    if words.is_empty() {
        return Err(error(line, format!("step {} is empty", address_label(at))));
    }
    steps.push(line, at, &words.concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_code_folds_to_itself() {
        for opcode in Opcode::all().iter().filter(|opcode| opcode.mnemonic != "-") {
            assert_eq!(
                code_of(opcode.mnemonic),
                Some(opcode.code),
                "{}",
                opcode.mnemonic
            );
        }
    }

    #[test]
    fn spelling_variants() {
        for (text, code) in [
            ("x→П0", 0x40),
            ("X->П0", 0x40),
            ("П→xa", 0x6A),
            ("P->Xa", 0x6A),
            ("<->", 0x14),
            ("↔", 0x14),
            ("F10^x", 0x15),
            ("F10ˣ", 0x15),
            ("FLg", 0x17),
            ("КП→X3", 0xD3),
            ("KП→X3", 0xD3),
            ("К∣x∣", 0x31),
            ("К|x|", 0x31),
            ("F x^2", 0x22),
            ("−", 0x11),
            ("-", 0x11),
            ("Кx≥0e", 0x9E),
            ("Fx#0", 0x57),
        ] {
            assert_eq!(code_of(text), Some(code), "{text}");
        }
        assert_eq!(code_of("Fxyz"), None);
    }

    #[test]
    fn errors_name_the_line() {
        let text = "00. В/О\t01. 1\n02. Fqq\n";
        let err = read_listing(text).unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.to_string().contains("Fqq"), "{err}");
        let err = read_listing("00. БП\n").unwrap_err();
        assert!(err.to_string().contains("address"), "{err}");
        let err = read_listing("00. В/О\n02. 1\n").unwrap_err();
        assert_eq!(err.line, 2);
        let err = read_listing("just words\n").unwrap_err();
        assert_eq!(err.line, 1);
        // Codes without a name are read from the hex layout.
        assert_eq!(
            read_listing("00 1F -\n01 50 С/П\n").unwrap().bytes(),
            [0x1F, 0x50]
        );
    }
}
