//! The 12-position indicator: mantissa sign, eight mantissa digits,
//! exponent sign and two exponent digits, each with a decimal point.

use std::fmt;

/// Positions on the indicator.
pub const POSITIONS: usize = 12;

/// One lit position: the glyph the ИК1302 sends for a nibble value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Glyph {
    Digit(u8),
    Minus,
    L,
    C,
    G,
    E,
    Blank,
}

impl Glyph {
    /// The glyph of a display nibble (0-9 digits, A-F letters).
    pub fn from_nibble(nibble: u8) -> Glyph {
        match nibble {
            0..=9 => Glyph::Digit(nibble),
            0xA => Glyph::Minus,
            0xB => Glyph::L,
            0xC => Glyph::C,
            0xD => Glyph::G,
            0xE => Glyph::E,
            _ => Glyph::Blank,
        }
    }

    /// The character the traces use for this glyph.
    pub fn to_char(self) -> char {
        match self {
            Glyph::Digit(d) => char::from(b'0' + d),
            Glyph::Minus => '-',
            Glyph::L => 'L',
            Glyph::C => 'C',
            Glyph::G => 'Г',
            Glyph::E => 'E',
            Glyph::Blank => ' ',
        }
    }

    fn from_char(c: char) -> Option<Glyph> {
        Some(match c {
            '0'..='9' => Glyph::Digit(c as u8 - b'0'),
            '-' => Glyph::Minus,
            'L' => Glyph::L,
            'C' => Glyph::C,
            'Г' => Glyph::G,
            'E' => Glyph::E,
            ' ' => Glyph::Blank,
            _ => return None,
        })
    }
}

/// What the indicator shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Display {
    pub glyphs: [Glyph; POSITIONS],
    pub points: [bool; POSITIONS],
}

impl Default for Display {
    fn default() -> Self {
        Display {
            glyphs: [Glyph::Blank; POSITIONS],
            points: [false; POSITIONS],
        }
    }
}

impl fmt::Display for Display {
    /// The traces' notation: each glyph, then "." if its point is lit.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (glyph, &point) in self.glyphs.iter().zip(&self.points) {
            write!(f, "{}", glyph.to_char())?;
            if point {
                f.write_str(".")?;
            }
        }
        Ok(())
    }
}

/// A string that is not a display in the traces' notation.
#[derive(Debug, thiserror::Error)]
#[error("not a 12-position display: {0:?}")]
pub struct DisplayParseError(pub String);

impl std::str::FromStr for Display {
    type Err = DisplayParseError;

    fn from_str(text: &str) -> Result<Display, DisplayParseError> {
        let error = || DisplayParseError(text.to_owned());
        let mut display = Display::default();
        let mut position = 0;
        for c in text.chars() {
            if c == '.' && position > 0 && !display.points[position - 1] {
                display.points[position - 1] = true;
                continue;
            }
            let glyph = Glyph::from_char(c).ok_or_else(error)?;
            *display.glyphs.get_mut(position).ok_or_else(error)? = glyph;
            position += 1;
        }
        if position != POSITIONS {
            return Err(error());
        }
        Ok(display)
    }
}

impl Glyph {
    /// The nibble the ИК1302 sent for this glyph.
    pub fn nibble(self) -> u8 {
        match self {
            Glyph::Digit(d) => d,
            Glyph::Minus => 0xA,
            Glyph::L => 0xB,
            Glyph::C => 0xC,
            Glyph::G => 0xD,
            Glyph::E => 0xE,
            Glyph::Blank => 0xF,
        }
    }
}

/// The programming-mode display: the codes of the three steps before the
/// program counter (nearest first) and the counter itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgramView {
    pub codes: [u8; 3],
    /// 0..=104 for 00..A4 (the counter shows A0..A4 as `-0`..`-4`).
    pub address: usize,
}

impl Display {
    /// Reads the display as programming mode shows it, if it has that
    /// shape (no decimal points, blanks at positions 0, 3, 6 and 9).
    pub fn program_view(&self) -> Option<ProgramView> {
        let g = |position: usize| self.glyphs[position].nibble();
        if self.points.iter().any(|&point| point) || [0, 3, 6, 9].iter().any(|&p| g(p) != 0xF) {
            return None;
        }
        let code = |position: usize| g(position) << 4 | g(position + 1);
        let (tens, units) = (g(10), g(11));
        if units > 9 || tens > 0xA {
            return None;
        }
        Some(ProgramView {
            codes: [code(1), code(4), code(7)],
            address: usize::from(tens) * 10 + usize::from(units),
        })
    }

    /// The mantissa positions as text without blanks, sign included
    /// (`-14.`, `5.2`, `77.`); the exponent positions are left out.
    pub fn mantissa_text(&self) -> String {
        let mut text = String::new();
        for position in 0..9 {
            let glyph = self.glyphs[position];
            if glyph != Glyph::Blank || position == 0 {
                text.push(glyph.to_char());
            }
            if self.points[position] {
                text.push('.');
            }
        }
        text.trim().to_owned()
    }

    /// The two exponent digits, if both are lit digits.
    pub fn exponent(&self) -> Option<(bool, u8)> {
        match (self.glyphs[9], self.glyphs[10], self.glyphs[11]) {
            (sign, Glyph::Digit(tens), Glyph::Digit(units)) => {
                Some((sign == Glyph::Minus, tens * 10 + units))
            }
            _ => None,
        }
    }
}
