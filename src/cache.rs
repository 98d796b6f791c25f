//! Bounded caches at the wasm boundary, so a question asked again (the same attack rolled, a
//! dialog's odds redrawn on every keystroke) is neither decoded nor parsed again. Decoding and
//! parsing are pure, so caching changes no result.

use crate::dice::{parse, Formula};
use crate::error::Result;
use crate::request::{Prepared, Request};
use rustc_hash::FxBuildHasher;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

/// Requests longer than this many bytes of JSON are decoded every time: the cache holds at most
/// its capacity times this (a character's request with its statuses is well under it).
pub const MAX_CACHED_REQUEST: usize = 4096;

/// A map of at most `capacity` entries that forgets its oldest beyond that. Hashed with FxHash:
/// the keys are short, and a map this small cannot be slowed much by keys chosen to collide.
#[derive(Debug)]
struct Fifo<V> {
    map: HashMap<String, V, FxBuildHasher>,
    order: VecDeque<String>,
    capacity: usize,
}

impl<V: Clone> Fifo<V> {
    fn new(capacity: usize) -> Self {
        Self {
            map: HashMap::default(),
            order: VecDeque::new(),
            capacity: capacity.max(1),
        }
    }
    fn get(&self, key: &str) -> Option<V> {
        self.map.get(key).cloned()
    }
    fn insert(&mut self, key: &str, value: V) {
        if self.map.len() >= self.capacity {
            if let Some(old) = self.order.pop_front() {
                self.map.remove(&old);
            }
        }
        self.map.insert(key.to_string(), value);
        self.order.push_back(key.to_string());
    }
}

/// Parsed formulas by source text, and prepared requests by their JSON text.
#[derive(Debug)]
pub struct FormulaCache {
    formulas: Fifo<Rc<Formula>>,
    requests: Fifo<Rc<Prepared>>,
    parses: u64,
    hits: u64,
}

/// Counters for tests and diagnostics: formulas parsed, questions answered from the cache (a
/// formula or a whole request found), formulas held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CacheStats {
    pub parses: u64,
    pub hits: u64,
    pub size: usize,
}

impl FormulaCache {
    pub fn new(capacity: usize) -> Self {
        Self {
            formulas: Fifo::new(capacity),
            requests: Fifo::new(capacity),
            parses: 0,
            hits: 0,
        }
    }

    /// The parsed formula for `source`, parsing it only if it is not cached. Errors are not cached.
    pub fn get(&mut self, source: &str) -> Result<Rc<Formula>> {
        if let Some(f) = self.formulas.get(source) {
            self.hits += 1;
            return Ok(f);
        }
        self.parses += 1;
        let f = Rc::new(parse(source)?);
        self.formulas.insert(source, f.clone());
        Ok(f)
    }

    /// The request whose JSON text is `json`, decoded by `decode` and prepared only if it is not
    /// cached. Errors are not cached.
    pub fn prepare(
        &mut self,
        json: &str,
        decode: impl FnOnce(&str) -> Result<Request>,
    ) -> Result<Rc<Prepared>> {
        if let Some(p) = self.requests.get(json) {
            self.hits += 1;
            return Ok(p);
        }
        let prepared = Rc::new(Prepared::from_cache(decode(json)?, self)?);
        if json.len() <= MAX_CACHED_REQUEST {
            self.requests.insert(json, prepared.clone());
        }
        Ok(prepared)
    }

    pub fn stats(&self) -> CacheStats {
        CacheStats {
            parses: self.parses,
            hits: self.hits,
            size: self.formulas.map.len(),
        }
    }
}

impl Default for FormulaCache {
    fn default() -> Self {
        Self::new(256)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_formulas_parse_once_and_evict_oldest() {
        let mut c = FormulaCache::new(2);
        let a = c.get("3d6").unwrap();
        let b = c.get("3d6").unwrap();
        assert!(Rc::ptr_eq(&a, &b));
        assert_eq!(
            c.stats(),
            CacheStats {
                parses: 1,
                hits: 1,
                size: 1
            }
        );
        c.get("1d20").unwrap();
        c.get("2d8").unwrap();
        assert_eq!(c.stats().size, 2);
        c.get("3d6").unwrap(); // evicted, parsed again
        assert_eq!(c.stats().parses, 4);
        assert!(c.get("2d6+").is_err());
        assert_eq!(c.stats().size, 2);
    }

    #[test]
    fn a_request_asked_again_is_not_decoded_again() {
        let mut c = FormulaCache::new(2);
        let decode = |json: &str| crate::decode::from_json_text::<Request>("request", json);
        let text = r#"{"kind":"dice","formula":"4d6kh3"}"#;
        let a = c.prepare(text, decode).unwrap();
        let b = c.prepare(text, |_| panic!("decoded again")).unwrap();
        assert!(Rc::ptr_eq(&a, &b));
        // another text with the same formula: decoded, the formula found
        let other = c
            .prepare(r#"{"formula":"4d6kh3","kind":"dice"}"#, decode)
            .unwrap();
        assert_eq!(other.request(), a.request());
        assert_eq!(
            c.stats(),
            CacheStats {
                parses: 1,
                hits: 2,
                size: 1
            }
        );
        // errors are not cached
        assert!(c.prepare(r#"{"kind":"dice"}"#, decode).is_err());
        assert!(c.prepare(r#"{"kind":"dice"}"#, decode).is_err());
    }
}
