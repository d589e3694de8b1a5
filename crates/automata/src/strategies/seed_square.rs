//! The seeds' squares as the calculator programs see them: the file digit
//! (a = 1) then the rank digit, 1-8 each; as a number 11 = a1 .. 88 = h8.
//! The one place where a square becomes digits and back.

use shakmaty::Square;

use crate::krk::square_at;

/// The file and rank digits of a square (1-8 each).
pub fn square_digits(square: Square) -> (i32, i32) {
    (
        square.file().to_u32() as i32 + 1,
        square.rank().to_u32() as i32 + 1,
    )
}

/// The square of a file and a rank digit, if both are 1-8.
pub fn square_of_digits(file: i32, rank: i32) -> Option<Square> {
    square_at(file - 1, rank - 1)
}

/// The seed's numeric square: file digit and rank digit (a1 = 11).
pub fn numeric_square(square: Square) -> i32 {
    let (file, rank) = square_digits(square);
    file * 10 + rank
}

/// The square of a seed number (`53` = e3), if both digits are 1-8.
pub fn square_of_number(number: i32) -> Option<Square> {
    (10..100)
        .contains(&number)
        .then(|| square_of_digits(number / 10, number % 10))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_file_then_rank_and_round_trip() {
        assert_eq!(square_digits(Square::A1), (1, 1));
        assert_eq!(numeric_square(Square::D2), 42);
        assert_eq!(numeric_square(Square::H8), 88);
        for square in Square::ALL {
            let (file, rank) = square_digits(square);
            assert_eq!(square_of_digits(file, rank), Some(square));
            assert_eq!(square_of_number(numeric_square(square)), Some(square));
        }
        assert_eq!(square_of_digits(0, 3), None);
        assert_eq!(square_of_digits(3, 9), None);
        assert_eq!(square_of_number(90), None);
        assert_eq!(square_of_number(5), None);
    }
}
