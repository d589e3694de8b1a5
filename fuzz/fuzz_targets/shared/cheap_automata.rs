//! The automata a target may drive at fuzzing speed, on tables built in
//! memory on first use (the perfect automaton's KRvK) and kept for every
//! later input. The emulated calculators are left out: they take
//! milliseconds a reply.

use std::sync::{Arc, LazyLock};

use ajedrecista_automata::{Strategy, StrategyName};
use ajedrecista_tables::Tablebase;

pub static TABLES: LazyLock<Arc<Tablebase>> = LazyLock::new(|| Arc::new(Tablebase::in_memory()));

pub static CHEAP: LazyLock<Vec<StrategyName>> = LazyLock::new(|| {
    StrategyName::all()
        .filter(|name| !name.build(&TABLES).costly_replies())
        .collect()
});
