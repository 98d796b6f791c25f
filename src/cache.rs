//! A bounded cache of parsed formulas, so a formula asked about repeatedly (a dialog updating its
//! odds on every keystroke) is parsed once. Parsing is pure, so caching changes no result.

use crate::dice::{parse, Formula};
use crate::error::Result;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

/// Parsed formulas by source text, evicting the oldest beyond `capacity`.
#[derive(Debug)]
pub struct FormulaCache {
    map: HashMap<String, Rc<Formula>>,
    order: VecDeque<String>,
    capacity: usize,
    parses: u64,
    hits: u64,
}

/// Counters for tests and diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CacheStats {
    pub parses: u64,
    pub hits: u64,
    pub size: usize,
}

impl FormulaCache {
    pub fn new(capacity: usize) -> Self {
        Self {
            map: HashMap::new(),
            order: VecDeque::new(),
            capacity: capacity.max(1),
            parses: 0,
            hits: 0,
        }
    }

    /// The parsed formula for `source`, parsing it only if it is not cached. Errors are not cached.
    pub fn get(&mut self, source: &str) -> Result<Rc<Formula>> {
        if let Some(f) = self.map.get(source) {
            self.hits += 1;
            return Ok(f.clone());
        }
        self.parses += 1;
        let f = Rc::new(parse(source)?);
        if self.map.len() >= self.capacity {
            if let Some(old) = self.order.pop_front() {
                self.map.remove(&old);
            }
        }
        self.map.insert(source.to_string(), f.clone());
        self.order.push_back(source.to_string());
        Ok(f)
    }

    pub fn stats(&self) -> CacheStats {
        CacheStats {
            parses: self.parses,
            hits: self.hits,
            size: self.map.len(),
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
}
