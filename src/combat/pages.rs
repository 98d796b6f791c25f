//! The undo log as it is stored: pages of steps, each one string of JSON, decoded only when an
//! event touches it.

use super::log::{broken, Step};
use crate::error::{Error, Result};
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;

/// Steps per page of the stored log.
pub const LOG_PAGE: u64 = 10;

/// Step numbers stay JS-safe integers.
const MAX_STEP_NUMBER: u64 = (1 << 53) - 1;

/// The undo log: the last steps, oldest first, numbered from `forgotten + 1`.
///
/// Stored as pages of [`LOG_PAGE`] steps by page number (`(step number - 1) / LOG_PAGE`), each
/// the JSON text of its steps in one string. A page is decoded only when an event touches it (the
/// newest to add a step or undo one, the oldest to forget one), so an event reads and writes a
/// couple of pages however many steps the log holds, and a Combat update carries at most two.
#[derive(Debug, Clone, Default)]
pub struct Log {
    forgotten: u64,
    len: u64,
    /// The sum of the kept steps' [`Step::weight`].
    weight: u64,
    pages: BTreeMap<u64, Page>,
    /// What does not fit together in the log as stored (see [`Log::check`]).
    issue: Option<String>,
}

#[derive(Debug, Clone)]
enum Page {
    /// As stored: the JSON text of the page's steps.
    Text(String),
    Steps(Vec<Step>),
}

impl PartialEq for Log {
    fn eq(&self, other: &Self) -> bool {
        (self.forgotten, self.len, self.weight) == (other.forgotten, other.len, other.weight)
            && matches!((self.steps(), other.steps()), (Ok(a), Ok(b)) if a == b)
    }
}

impl Eq for Log {}

impl Log {
    /// An empty log after `forgotten` steps.
    pub fn new(forgotten: u64) -> Self {
        Self {
            forgotten,
            ..Self::default()
        }
    }

    /// A log as stored. Whether its pages are exactly those of steps `forgotten + 1 ..= logged`
    /// is [`Log::check`]ed when the state is used.
    pub(crate) fn stored(
        forgotten: u64,
        logged: u64,
        weight: u64,
        pages: BTreeMap<u64, String>,
    ) -> Self {
        let len = logged.saturating_sub(forgotten);
        // only a log of at most MAX_HISTORY steps has its pages listed (never a huge range)
        let expected: Vec<u64> = if len == 0 || len > super::MAX_HISTORY as u64 {
            Vec::new()
        } else {
            (forgotten / LOG_PAGE..=(logged - 1) / LOG_PAGE).collect()
        };
        let issue = if logged < forgotten {
            Some("`logged`: it is below `forgotten`".to_string())
        } else if logged > MAX_STEP_NUMBER {
            Some(format!(
                "`logged`: steps are numbered up to {MAX_STEP_NUMBER}"
            ))
        } else if len > super::MAX_HISTORY as u64 {
            Some(format!(
                "`log`: it keeps at most {} steps, not {len}",
                super::MAX_HISTORY
            ))
        } else if !pages.keys().copied().eq(expected.iter().copied()) {
            Some(format!(
                "`log`: steps {} to {logged} are kept, on pages {expected:?}",
                forgotten + 1
            ))
        } else {
            None
        };
        Self {
            forgotten,
            len,
            weight,
            pages: pages.into_iter().map(|(k, t)| (k, Page::Text(t))).collect(),
            issue,
        }
    }

    /// Whether the log as stored fits together.
    pub(crate) fn check(&self) -> Result<()> {
        match &self.issue {
            Some(why) => Err(Error::request(format!("invalid combat state: {why}"))),
            None => Ok(()),
        }
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Steps dropped before the first kept one.
    pub fn forgotten(&self) -> u64 {
        self.forgotten
    }

    /// The number of the newest step (`forgotten` + the steps kept).
    pub fn logged(&self) -> u64 {
        self.forgotten.saturating_add(self.len)
    }

    /// The combatants' records the kept steps hold (see [`Step::weight`]).
    pub fn weight(&self) -> u64 {
        self.weight
    }

    /// Every kept step, oldest first (decodes every page).
    pub fn steps(&self) -> Result<Vec<Step>> {
        let mut out = Vec::with_capacity(self.len());
        for (k, page) in &self.pages {
            match page {
                Page::Steps(steps) => out.extend(steps.iter().cloned()),
                Page::Text(text) => out.extend(self.decode(*k, text)?),
            }
        }
        Ok(out)
    }

    /// How many kept steps page `k` holds.
    fn count(&self, k: u64) -> u64 {
        let lo =
            (self.forgotten.saturating_add(1)).max(k.saturating_mul(LOG_PAGE).saturating_add(1));
        let hi = self
            .logged()
            .min(k.saturating_add(1).saturating_mul(LOG_PAGE));
        hi.saturating_add(1).saturating_sub(lo)
    }

    fn decode(&self, k: u64, text: &str) -> Result<Vec<Step>> {
        let parsed = serde_json::from_str::<serde_json::Value>(text)
            .map_err(|e| e.to_string())
            .and_then(|v| crate::decode::read::<Vec<Step>>(&v).map_err(|e| e.to_string()));
        let steps = match parsed {
            Ok(s) => s,
            Err(e) => return broken(format!("page {k} of the log: {e}")),
        };
        if steps.len() as u64 != self.count(k) {
            return broken(format!(
                "page {k} of the log holds {} steps, not {}",
                steps.len(),
                self.count(k)
            ));
        }
        Ok(steps)
    }

    /// Page `k`, decoded.
    fn page(&mut self, k: u64) -> Result<&mut Vec<Step>> {
        if let Some(Page::Text(text)) = self.pages.get(&k) {
            let steps = self.decode(k, text)?;
            self.pages.insert(k, Page::Steps(steps));
        }
        match self.pages.entry(k).or_insert(Page::Steps(Vec::new())) {
            Page::Steps(steps) => Ok(steps),
            Page::Text(_) => broken("a page of the log was not decoded"),
        }
    }

    /// Adds the newest step.
    pub(crate) fn push(&mut self, step: Step) -> Result<()> {
        let weight = step.weight() as u64;
        let k = self.logged() / LOG_PAGE;
        self.page(k)?.push(step);
        self.len += 1;
        self.weight = self.weight.saturating_add(weight);
        Ok(())
    }

    /// Takes the newest step off.
    pub(crate) fn pop(&mut self) -> Result<Option<Step>> {
        if self.len == 0 {
            return Ok(None);
        }
        let k = (self.logged() - 1) / LOG_PAGE;
        let page = self.page(k)?;
        let step = page.pop();
        if page.is_empty() {
            self.pages.remove(&k);
        }
        let Some(step) = step else {
            return broken(format!("page {k} of the log is empty"));
        };
        self.len -= 1;
        self.weight = self.weight.saturating_sub(step.weight() as u64);
        Ok(Some(step))
    }

    /// Forgets the oldest step.
    pub(crate) fn drop_oldest(&mut self) -> Result<()> {
        if self.len == 0 {
            return Ok(());
        }
        let k = self.forgotten / LOG_PAGE;
        let page = self.page(k)?;
        if page.is_empty() {
            return broken(format!("page {k} of the log is empty"));
        }
        let step = page.remove(0);
        if page.is_empty() {
            self.pages.remove(&k);
        }
        self.forgotten = self.forgotten.saturating_add(1);
        self.len -= 1;
        self.weight = self.weight.saturating_sub(step.weight() as u64);
        Ok(())
    }
}

impl Serialize for Log {
    /// The pages, by page number: each the JSON text of its steps.
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeMap};
        let mut map = s.serialize_map(Some(self.pages.len()))?;
        for (k, page) in &self.pages {
            match page {
                Page::Text(text) => map.serialize_entry(k, text)?,
                Page::Steps(steps) => {
                    let text = serde_json::to_string(steps).map_err(S::Error::custom)?;
                    map.serialize_entry(k, &text)?;
                }
            }
        }
        map.end()
    }
}
