//! Games kept in memory, with a cap and an expiry, so that a flood of new
//! games cannot exhaust memory.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::str::FromStr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::error::ApiError;

/// Locks state that requests share (a game, a calculator, the store, the
/// audit cache), whatever an earlier request left: a panic in one
/// request's blocking work while it held the lock (which axum turns into
/// a 500 for that request) must not make every later request for the same
/// game panic too. *Choice*: the state is taken as the panic left it and
/// the lock cleared; a session changes its state only once a turn is
/// whole, so a game goes on from its last whole turn.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| {
        mutex.clear_poison();
        poisoned.into_inner()
    })
}

/// A game's id: 64 unguessable bits, written as 16 hex digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameId(u64);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// Text that is no game id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a game id (16 hex digits)")]
pub struct BadGameId(pub String);

impl FromStr for GameId {
    type Err = BadGameId;

    fn from_str(text: &str) -> Result<GameId, BadGameId> {
        if text.len() != 16 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(BadGameId(text.chars().take(40).collect()));
        }
        u64::from_str_radix(text, 16)
            .map(GameId)
            .map_err(|_| BadGameId(text.to_string()))
    }
}

/// How many games are kept, and for how long without a request.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_games: usize,
    pub idle: Duration,
}

impl Default for Limits {
    /// 4096 games of a few kilobytes each; an hour without a move ends one.
    fn default() -> Limits {
        Limits {
            max_games: 4096,
            idle: Duration::from_secs(3600),
        }
    }
}

struct Entry<G> {
    game: Arc<Mutex<G>>,
    last_used: Instant,
}

struct Inner<G> {
    games: HashMap<GameId, Entry<G>>,
    ids: RandomState,
    counter: u64,
}

/// Games by id. Each game has its own lock, so one slow reply does not hold
/// up the others.
pub struct GameStore<G> {
    inner: Mutex<Inner<G>>,
    limits: Limits,
}

impl<G> GameStore<G> {
    pub fn new(limits: Limits) -> GameStore<G> {
        GameStore {
            inner: Mutex::new(Inner {
                games: HashMap::new(),
                ids: RandomState::new(),
                counter: 0,
            }),
            limits,
        }
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Keeps `game` under a new id. When the store is full, games idle for
    /// longer than the limit are dropped, then the game idle the longest:
    /// a visitor is never turned away. *Choice*: a game someone is playing
    /// is used at every move, so the one dropped is the one left longest.
    pub fn insert(&self, game: G) -> GameId {
        let mut inner = lock(&self.inner);
        let now = Instant::now();
        if inner.games.len() >= self.limits.max_games {
            let idle = self.limits.idle;
            inner
                .games
                .retain(|_, entry| now.duration_since(entry.last_used) < idle);
        }
        while inner.games.len() >= self.limits.max_games {
            let oldest = inner
                .games
                .iter()
                .min_by_key(|(_, entry)| entry.last_used)
                .map(|(id, _)| *id);
            match oldest {
                Some(id) => inner.games.remove(&id),
                None => break,
            };
        }
        let id = loop {
            inner.counter += 1;
            let mut hasher = inner.ids.build_hasher();
            hasher.write_u64(inner.counter);
            let id = GameId(hasher.finish());
            if !inner.games.contains_key(&id) {
                break id;
            }
        };
        inner.games.insert(
            id,
            Entry {
                game: Arc::new(Mutex::new(game)),
                last_used: now,
            },
        );
        id
    }

    /// The game of this id, unless it has expired; the request counts as a
    /// use.
    pub fn get(&self, id: GameId) -> Option<Arc<Mutex<G>>> {
        let mut inner = lock(&self.inner);
        let now = Instant::now();
        let expired = now.duration_since(inner.games.get(&id)?.last_used) >= self.limits.idle;
        if expired {
            inner.games.remove(&id);
            return None;
        }
        let entry = inner.games.get_mut(&id)?;
        entry.last_used = now;
        Some(Arc::clone(&entry.game))
    }

    /// The entry of the id in a request's path, `what` naming it in the
    /// errors: a 400 if the text is no id, a 404 if the id is unknown or
    /// expired.
    pub fn find(&self, id: &str, what: &str) -> Result<(GameId, Arc<Mutex<G>>), ApiError> {
        // Named as the path names it: a calculator's id is no game id.
        let id: GameId = id.parse().map_err(|BadGameId(text)| {
            ApiError::bad_request(format!("{text:?} is not a {what} id (16 hex digits)"))
        })?;
        let game = self
            .get(id)
            .ok_or_else(|| ApiError::not_found(format!("no {what} {id} (unknown, or expired)")))?;
        Ok((id, game))
    }

    /// Number of games kept (expired ones included until they are swept).
    pub fn len(&self) -> usize {
        lock(&self.inner).games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A store of games that are plain numbers.
    fn store_of(max_games: usize, idle: Duration) -> GameStore<i32> {
        GameStore::new(Limits { max_games, idle })
    }

    #[test]
    fn ids_round_trip_and_bad_ids_are_refused() {
        let store = GameStore::new(Limits::default());
        let id = store.insert(7);
        assert_eq!(id.to_string().parse::<GameId>(), Ok(id));
        assert_eq!(*store.get(id).unwrap().lock().unwrap(), 7);
        for bad in [
            "",
            "12",
            "zzzzzzzzzzzzzzzz",
            "00000000000000000",
            "+000000000000000",
        ] {
            assert!(bad.parse::<GameId>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_panic_while_a_game_is_locked_does_not_take_the_game_down() {
        let store = GameStore::new(Limits::default());
        let id = store.insert(7);
        let game = store.get(id).unwrap();
        let panicked = std::thread::spawn(move || {
            let mut held = lock(&game);
            *held = 8;
            panic!("a request's work fails");
        })
        .join();
        assert!(panicked.is_err());
        let game = store.get(id).unwrap();
        assert_eq!(*lock(&game), 8);
        assert!(
            !game.is_poisoned(),
            "the lock is cleared for later requests"
        );
    }

    #[test]
    fn a_full_store_drops_the_game_idle_longest_and_never_refuses() {
        let store = store_of(3, Duration::from_secs(3600));
        let first = store.insert(1);
        let second = store.insert(2);
        let third = store.insert(3);
        // Used last, so it is kept over the second.
        store.get(first).unwrap();
        store.insert(4);
        assert!(store.get(second).is_none());
        assert!(store.get(first).is_some() && store.get(third).is_some());
        for game in 5..20 {
            store.insert(game);
            assert_eq!(store.len(), 3);
        }
    }

    #[test]
    fn idle_games_expire() {
        let store = store_of(2, Duration::from_millis(50));
        let first = store.insert(1);
        assert!(store.get(first).is_some());
        std::thread::sleep(Duration::from_millis(60));
        assert!(store.get(first).is_none(), "expired");
        store.insert(4);
        store.insert(5);
        assert_eq!(store.len(), 2);
    }
}
