//! The one error of reading a name: of a key, a switch position, a model.

/// A name that names no key, switch position or model (whichever was
/// asked for).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} {text:?}{known}")]
pub struct UnknownName {
    /// What the name was read as: `key`, `switch position`, `model`.
    pub kind: &'static str,
    /// The name as given.
    pub text: String,
    /// The names there are, where they are few: ` (RAD, GRD or DEG)`.
    known: &'static str,
}

impl UnknownName {
    pub(crate) fn new(kind: &'static str, text: &str, known: &'static str) -> UnknownName {
        UnknownName {
            kind,
            text: text.to_owned(),
            known,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{AngleUnit, Key, Model};

    #[test]
    fn each_name_says_what_it_was_read_as() {
        let message = |err: super::UnknownName| err.to_string();
        assert_eq!(
            message("ZZ".parse::<Key>().unwrap_err()),
            "unknown key \"ZZ\""
        );
        assert_eq!(
            message("rad2".parse::<AngleUnit>().unwrap_err()),
            "unknown switch position \"rad2\" (RAD, GRD or DEG)"
        );
        assert_eq!(
            message("MK-52".parse::<Model>().unwrap_err()),
            "unknown model \"MK-52\" (known: mk61, mk54)"
        );
    }
}
