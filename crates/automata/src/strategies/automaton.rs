//! An automaton of the catalog with its memory's type erased, so that one
//! value can stand for any of them: a session keeps it, the audit and
//! selfplay run it, a front end lists it. The erased memory is still
//! `Clone + Eq + Hash`, so [`Automaton`] is itself a [`Strategy`].

use std::any::Any;
use std::fmt;
use std::hash::{Hash, Hasher};

use ajedrecista_tables::Variant;
use shakmaty::{Board, Chess, Role};

use crate::catalog::StrategyName;
use crate::strategy::{Refusal, Reply, Strategy};

/// What an automaton remembers, of whichever type its strategy keeps.
pub struct Memory(Box<dyn MemoryObject>);

/// The object-safe face of a strategy's memory.
trait MemoryObject: fmt::Debug + Send + Sync {
    fn boxed_clone(&self) -> Box<dyn MemoryObject>;
    fn equals(&self, other: &dyn Any) -> bool;
    fn hash_into(&self, state: &mut dyn Hasher);
    fn as_any(&self) -> &dyn Any;
}

impl<T: Clone + Eq + Hash + fmt::Debug + Send + Sync + 'static> MemoryObject for T {
    fn boxed_clone(&self) -> Box<dyn MemoryObject> {
        Box::new(self.clone())
    }

    fn equals(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<T>() == Some(self)
    }

    fn hash_into(&self, mut state: &mut dyn Hasher) {
        self.hash(&mut state);
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Memory {
    fn new<T: Clone + Eq + Hash + fmt::Debug + Send + Sync + 'static>(memory: T) -> Memory {
        Memory(Box::new(memory))
    }

    /// The memory as `T`: always so, since one automaton makes and reads
    /// its own memories.
    fn of<T: 'static>(&self) -> &T {
        self.0
            .as_any()
            .downcast_ref()
            .expect("an automaton reads only its own memory")
    }
}

impl Clone for Memory {
    fn clone(&self) -> Memory {
        Memory(self.0.boxed_clone())
    }
}

impl PartialEq for Memory {
    fn eq(&self, other: &Memory) -> bool {
        self.0.equals(other.0.as_any())
    }
}

impl Eq for Memory {}

impl Hash for Memory {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash_into(state);
    }
}

impl fmt::Debug for Memory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The object-safe face of a strategy.
trait ErasedStrategy: Sync {
    fn name(&self) -> &'static str;
    fn white_pieces(&self) -> &'static [Role];
    fn symmetric(&self) -> bool;
    fn variant(&self) -> Variant;
    fn precondition(&self, board: &Board) -> Result<(), Refusal>;
    fn is_machine_start(&self, board: &Board) -> bool;
    fn start(&self, start: &Chess) -> Memory;
    fn reply(&self, position: &Chess, memory: &Memory) -> Result<(Reply, Memory), Refusal>;
    fn costly_replies(&self) -> bool;
}

impl<S: Strategy> ErasedStrategy for S {
    fn name(&self) -> &'static str {
        Strategy::name(self)
    }
    fn white_pieces(&self) -> &'static [Role] {
        Strategy::white_pieces(self)
    }
    fn symmetric(&self) -> bool {
        Strategy::symmetric(self)
    }
    fn variant(&self) -> Variant {
        Strategy::variant(self)
    }
    fn precondition(&self, board: &Board) -> Result<(), Refusal> {
        Strategy::precondition(self, board)
    }
    fn is_machine_start(&self, board: &Board) -> bool {
        Strategy::is_machine_start(self, board)
    }
    fn start(&self, start: &Chess) -> Memory {
        Memory::new(Strategy::start(self, start))
    }
    fn reply(&self, position: &Chess, memory: &Memory) -> Result<(Reply, Memory), Refusal> {
        let (reply, memory) = Strategy::reply(self, position, memory.of::<S::Memory>())?;
        Ok((reply, Memory::new(memory)))
    }
    fn costly_replies(&self) -> bool {
        Strategy::costly_replies(self)
    }
}

/// An automaton of the catalog, built by [`StrategyName::build`].
pub struct Automaton {
    name: StrategyName,
    strategy: Box<dyn ErasedStrategy + Send>,
}

impl Automaton {
    /// `strategy` as the catalog's automaton `name`.
    pub fn new<S: Strategy + Send + 'static>(name: StrategyName, strategy: S) -> Automaton {
        Automaton {
            name,
            strategy: Box::new(strategy),
        }
    }

    /// Its name in the catalog.
    pub fn catalog_name(&self) -> StrategyName {
        self.name
    }
}

impl fmt::Debug for Automaton {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Automaton").field(&self.name).finish()
    }
}

impl Strategy for Automaton {
    type Memory = Memory;

    fn name(&self) -> &'static str {
        self.strategy.name()
    }
    fn white_pieces(&self) -> &'static [Role] {
        self.strategy.white_pieces()
    }
    fn symmetric(&self) -> bool {
        self.strategy.symmetric()
    }
    fn variant(&self) -> Variant {
        self.strategy.variant()
    }
    fn precondition(&self, board: &Board) -> Result<(), Refusal> {
        self.strategy.precondition(board)
    }
    fn is_machine_start(&self, board: &Board) -> bool {
        self.strategy.is_machine_start(board)
    }
    fn start(&self, start: &Chess) -> Memory {
        self.strategy.start(start)
    }
    fn reply(&self, position: &Chess, memory: &Memory) -> Result<(Reply, Memory), Refusal> {
        self.strategy.reply(position, memory)
    }
    fn costly_replies(&self) -> bool {
        self.strategy.costly_replies()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;

    fn hash_of(memory: &Memory) -> u64 {
        let mut hasher = DefaultHasher::new();
        memory.hash(&mut hasher);
        hasher.finish()
    }

    #[test]
    fn erased_memories_compare_and_hash_as_their_values() {
        let (one, also_one, two) = (Memory::new(1u8), Memory::new(1u8), Memory::new(2u8));
        assert_eq!(one, also_one);
        assert_ne!(one, two);
        assert_eq!(hash_of(&one), hash_of(&also_one));
        assert_ne!(hash_of(&one), hash_of(&two));
        // Equal bits of another type are another memory.
        assert_ne!(one, Memory::new(1i8));
        assert_eq!(one.clone(), one);
        assert_eq!(*one.clone().of::<u8>(), 1);
    }
}
