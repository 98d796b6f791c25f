//! Boons and curses on d20 rolls (tactical play): they cancel one for one; with N net boons roll
//! N d6 and add the highest, with N net curses roll N d6 and subtract the highest. No cap.

use crate::error::{Error, Result};

/// More than this many boons or curses on one roll is surely a typo.
pub const MAX_BOONS: u32 = 100;

/// The formula fragment for `boons` against `curses` (empty when they cancel).
pub fn fragment(boons: u32, curses: u32) -> Result<String> {
    for (name, n) in [("boons", boons), ("curses", curses)] {
        if n > MAX_BOONS {
            return Err(Error::request(format!(
                "{name} must be from 0 to {MAX_BOONS}, not {n}"
            )));
        }
    }
    Ok(match boons.cmp(&curses) {
        std::cmp::Ordering::Greater => format!(" + {}d6kh1[boon]", boons - curses),
        std::cmp::Ordering::Less => format!(" - {}d6kh1[curse]", curses - boons),
        std::cmp::Ordering::Equal => String::new(),
    })
}

/// ` + n` / ` - n` / nothing, for a flat bonus.
pub fn signed(n: i64) -> String {
    match n.cmp(&0) {
        std::cmp::Ordering::Greater => format!(" + {n}"),
        std::cmp::Ordering::Less => format!(" - {}", n.unsigned_abs()),
        std::cmp::Ordering::Equal => String::new(),
    }
}
