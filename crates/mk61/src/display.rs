//! The 12-position indicator: mantissa sign, eight mantissa digits,
//! exponent sign and two exponent digits, each with a decimal point.

use std::fmt;

/// Positions on the indicator.
pub const POSITIONS: usize = 12;

/// One lit position: the glyph the ИК1302 sends for a nibble value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
