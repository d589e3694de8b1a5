//! What probes keep in memory, under one budget of bytes: the chunks of
//! opened table files, the slices read from journals, and the tables read
//! whole or built. When a new entry would pass the budget, the entries
//! used longest ago are let go, whatever their kind. A table whose only
//! copy is in memory (no file to read it from again) is never let go: it
//! counts against the budget, and pushes the others out.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use crate::{material::Material, pawns::PawnTable, sync::lock, table::Table, variant::Variant};

/// What an entry is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    /// A chunk of an opened table file (`file`: the opening's number).
    Chunk { file: u64, chunk: usize },
    /// A slice of a table with pawns read from its journal.
    Part { material: Material, slice: usize },
    /// A table without pawns.
    Table(Material, Variant),
    /// A table with pawns, by canonical material.
    Pawns(Material),
}

impl Key {
    /// The key of the table of `material` (canonical, with pawns) in
    /// `variant`.
    pub(crate) fn of_table(material: Material, variant: Variant) -> Key {
        if material.has_pawns() {
            Key::Pawns(material)
        } else {
            Key::Table(material, variant)
        }
    }
}

/// An entry's value.
#[derive(Clone)]
pub(crate) enum Entry {
    Chunk(Arc<[u8]>),
    Table(Arc<Table>),
    Pawns(Arc<PawnTable>),
}

impl Entry {
    fn bytes(&self) -> usize {
        match self {
            Entry::Chunk(bytes) => bytes.len(),
            Entry::Table(table) => table.held_bytes(),
            Entry::Pawns(table) => table.table().held_bytes(),
        }
    }
}

/// Whether an entry may be let go: it can be read again from a file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Copies {
    /// It can be read again.
    OnDisk,
    /// Its only copy is this one.
    OnlyInMemory,
}

struct Kept {
    entry: Entry,
    bytes: usize,
    used: u64,
    copies: Copies,
}

#[derive(Default)]
struct Entries {
    kept: HashMap<Key, Kept>,
    clock: u64,
    bytes: usize,
}

/// The entries kept, with their budget.
pub(crate) struct Recent {
    entries: Mutex<Entries>,
    budget: usize,
}

impl Recent {
    pub(crate) fn new(budget: usize) -> Recent {
        Recent {
            entries: Mutex::new(Entries::default()),
            budget,
        }
    }

    /// A store of 64 MiB for tests that open files.
    #[cfg(test)]
    pub(crate) fn for_tests() -> Arc<Recent> {
        Arc::new(Recent::new(64 << 20))
    }

    /// The entry of `key`, now the last used.
    pub(crate) fn get(&self, key: &Key) -> Option<Entry> {
        let mut entries = lock(&self.entries);
        entries.clock += 1;
        let clock = entries.clock;
        let kept = entries.kept.get_mut(key)?;
        kept.used = clock;
        Some(kept.entry.clone())
    }

    /// Whether `key` is kept (it is not counted as a use).
    pub(crate) fn contains(&self, key: &Key) -> bool {
        lock(&self.entries).kept.contains_key(key)
    }

    /// Keeps `entry` under `key`, letting go of the entries used longest
    /// ago, not `OnlyInMemory`, while the budget would be passed. An entry
    /// larger than the whole budget is still kept, until the next one.
    pub(crate) fn put(&self, key: Key, entry: Entry, copies: Copies) {
        let bytes = entry.bytes();
        let mut entries = lock(&self.entries);
        if let Some(replaced) = entries.kept.remove(&key) {
            entries.bytes -= replaced.bytes;
        }
        while entries.bytes + bytes > self.budget {
            let oldest = entries
                .kept
                .iter()
                .filter(|(_, kept)| kept.copies == Copies::OnDisk)
                .min_by_key(|(_, kept)| kept.used)
                .map(|(key, _)| key.clone());
            let Some(oldest) = oldest else { break };
            let gone = entries.kept.remove(&oldest).expect("a kept entry");
            entries.bytes -= gone.bytes;
        }
        entries.clock += 1;
        entries.bytes += bytes;
        let used = entries.clock;
        entries.kept.insert(
            key,
            Kept {
                entry,
                bytes,
                used,
                copies,
            },
        );
    }

    /// The bytes kept now.
    pub(crate) fn bytes(&self) -> usize {
        lock(&self.entries).bytes
    }

    /// The table without pawns of `material` in `variant`, if kept.
    pub(crate) fn table(&self, material: &Material, variant: Variant) -> Option<Arc<Table>> {
        match self.get(&Key::Table(material.clone(), variant))? {
            Entry::Table(table) => Some(table),
            _ => None,
        }
    }

    /// The table with pawns of `material` (canonical), if kept.
    pub(crate) fn pawn_table(&self, material: &Material) -> Option<Arc<PawnTable>> {
        match self.get(&Key::Pawns(material.clone()))? {
            Entry::Pawns(table) => Some(table),
            _ => None,
        }
    }

    /// A chunk, if kept.
    pub(crate) fn chunk(&self, key: &Key) -> Option<Arc<[u8]>> {
        match self.get(key)? {
            Entry::Chunk(bytes) => Some(bytes),
            _ => None,
        }
    }

    /// A slice read from a journal, if kept.
    pub(crate) fn part(&self, material: &Material, slice: usize) -> Option<Arc<Table>> {
        let key = Key::Part {
            material: material.clone(),
            slice,
        };
        match self.get(&key)? {
            Entry::Table(table) => Some(table),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(file: u64) -> Key {
        Key::Chunk { file, chunk: 0 }
    }

    fn bytes(n: usize) -> Entry {
        Entry::Chunk(vec![0; n].into())
    }

    #[test]
    fn the_entries_used_longest_ago_go_first_whatever_their_kind() {
        let recent = Recent::new(300);
        recent.put(chunk(1), bytes(100), Copies::OnDisk);
        recent.put(chunk(2), bytes(100), Copies::OnDisk);
        recent.put(chunk(3), bytes(100), Copies::OnDisk);
        assert!(recent.chunk(&chunk(1)).is_some()); // now the last used
        recent.put(chunk(4), bytes(100), Copies::OnDisk);
        assert!(!recent.contains(&chunk(2)));
        assert!([1, 3, 4].iter().all(|&f| recent.contains(&chunk(f))));
        assert_eq!(recent.bytes(), 300);
    }

    #[test]
    fn an_only_copy_is_never_let_go_but_counts() {
        let recent = Recent::new(250);
        recent.put(chunk(1), bytes(200), Copies::OnlyInMemory);
        recent.put(chunk(2), bytes(100), Copies::OnDisk);
        recent.put(chunk(3), bytes(100), Copies::OnDisk);
        assert!(recent.contains(&chunk(1)));
        assert!(!recent.contains(&chunk(2)));
        assert_eq!(recent.bytes(), 300);
    }

    #[test]
    fn an_entry_over_the_budget_stays_until_the_next() {
        let recent = Recent::new(100);
        recent.put(chunk(1), bytes(50), Copies::OnDisk);
        recent.put(chunk(2), bytes(500), Copies::OnDisk);
        assert!(recent.contains(&chunk(2)) && !recent.contains(&chunk(1)));
        recent.put(chunk(3), bytes(50), Copies::OnDisk);
        assert!(!recent.contains(&chunk(2)));
        assert_eq!(recent.bytes(), 50);
    }

    #[test]
    fn a_key_put_again_is_counted_once() {
        let recent = Recent::new(1000);
        recent.put(chunk(1), bytes(100), Copies::OnDisk);
        recent.put(chunk(1), bytes(200), Copies::OnDisk);
        assert_eq!(recent.bytes(), 200);
    }
}
