//! Ability text as ICON's books print it, read into items of this system (issue 37, "Paste the
//! book"). The grammar is the one the rules reference's glossary states: "Light attack (1
//! action): Make an attack roll. On hit: [D] + fray, Miss: fray." — a name and a cost (1 or 2
//! actions, free, Interrupt N with a Trigger), tags ("Attack", "Area", "Aura X", "Mark", "Stance",
//! "Combo", "Delay", "End turn", "Summon", "Terrain effect", "True Strike", "Auto-Hit", "Pierce",
//! "Divine"), a reach ("Melee", "Range N", "Self") or an area ("Blast", "Burst", "Line",
//! "Cross", "Arc N"), and parts ("Effect", "Area effect", "On hit", "Miss", "Critical hit", and
//! the triggered effects "Exceed", "Charge", "Comeback", "Finishing Blow", "Slay", "Gamble N+",
//! "Heroic"), whose damage is "[D]" ("Stand-in for your class's damage die") and "fray", and
//! whose statuses last until saved against, "+" ("ongoing"), to the end of a turn or until cured.
//! docs/content-packs.md ("Pasting text") lists every form read.
//!
//! Text arrives from PDFs: [`clean`] makes its lines sentences again. A page may hold several
//! abilities, and text that is no ability (a job's introduction): every piece not understood is
//! in `unparsed` with the reason, and every item's description keeps its whole text. Pure and
//! linear in the text's length; the text is at most [`MAX_TEXT`] bytes.

pub mod block;
pub mod clean;
pub mod foe;
pub mod header;
pub mod model;
pub mod vocab;
pub mod words;

use crate::error::{Error, Result};
use model::{Item, ItemSystem, ItemType, Parsed, Reason, Unparsed};
use serde::Deserialize;

/// The longest text read at once: 1 MiB (a book's abilities are some 100 KB). Longer ones are
/// refused before any work, saying so.
pub const MAX_TEXT: usize = 1024 * 1024;

/// The most items one text makes.
pub const MAX_ITEMS: usize = 2000;

/// The error for a text of `len` bytes (or UTF-16 units) past [`MAX_TEXT`].
pub fn too_long(len: usize) -> Error {
    Error::request(format!(
        "the text is {:.1} MiB; at most {} MiB is read at once (paste a chapter at a time)",
        len as f64 / 1_048_576.0,
        MAX_TEXT / 1_048_576
    ))
}

/// `parseAbilityText`'s options.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ParseOptions {
    /// What the text holds: abilities (the default), traits or relics.
    #[serde(default, rename = "type")]
    pub kind: ItemType,
}

/// Reads ability (or trait, or relic) text into items.
pub fn parse(text: &str, options: ParseOptions) -> Result<Parsed> {
    if text.len() > MAX_TEXT {
        return Err(too_long(text.len()));
    }
    let lines: Vec<String> = clean::lines(text).into_iter().map(|l| l.text).collect();
    let parsed = match options.kind {
        ItemType::Ability => abilities(&lines, 0),
        kind => entries(&lines, kind, 0),
    };
    if parsed.items.len() > MAX_ITEMS {
        return Err(Error::request(format!(
            "the text holds {} items; at most {MAX_ITEMS} are read at once",
            parsed.items.len()
        )));
    }
    Ok(parsed)
}

/// [`parse`] as the JSON text the importer hands to JS.
pub fn parse_json(text: &str, options: ParseOptions) -> Result<String> {
    let parsed = parse(text, options)?;
    serde_json::to_string(&parsed)
        .map_err(|e| Error::request(format!("cannot write the answer: {e}")))
}

/// The abilities in `lines`, each from its header to the next; items numbered from `first`.
pub fn abilities(lines: &[String], first: usize) -> Parsed {
    let mut out = Parsed::default();
    let mut starts: Vec<(usize, header::Header, usize)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some((h, n)) = header::at(lines, i) {
            starts.push((i, h, n));
            i += n;
        } else {
            i += 1;
        }
    }
    let head = starts.first().map_or(lines.len(), |s| s.0);
    for line in &lines[..head] {
        out.unparsed.push(Unparsed {
            text: line.clone(),
            reason: Reason::OutsideItem,
            item: None,
        });
    }
    for (k, (at, h, n)) in starts.iter().enumerate() {
        let end = starts.get(k + 1).map_or(lines.len(), |s| s.0);
        let body: Vec<&str> = lines[at + n..end].iter().map(String::as_str).collect();
        let source: Vec<&str> = lines[*at..end].iter().map(String::as_str).collect();
        let index = first + out.items.len();
        let item = block::ability(h, &body, &source, index, &mut out.unparsed);
        out.items.push(item);
    }
    out
}

/// Traits or relics: each a name and its text, "Name: text" on one line or a name line above its
/// text. A relic's text may state its charges and its once-per limit, as an ability's.
pub fn entries(lines: &[String], kind: ItemType, first: usize) -> Parsed {
    let mut out = Parsed::default();
    let mut current: Option<(String, Vec<&str>)> = None;
    let finish = |current: &mut Option<(String, Vec<&str>)>, out: &mut Parsed| {
        if let Some((name, text)) = current.take() {
            let index = first + out.items.len();
            out.items
                .push(entry(&name, &text, kind, index, &mut out.unparsed));
        }
    };
    for (i, line) in lines.iter().enumerate() {
        if clean::is_section(line) {
            finish(&mut current, &mut out);
            out.unparsed.push(Unparsed {
                text: line.clone(),
                reason: Reason::OutsideItem,
                item: None,
            });
            continue;
        }
        let named = named_line(line);
        let title = header::is_name(line)
            && lines
                .get(i + 1)
                .is_some_and(|n| !header::is_name(n) && !clean::is_section(n));
        if let Some(name) = named.or_else(|| header::inline(line).map(|h| h.name)) {
            finish(&mut current, &mut out);
            current = Some((name, vec![line.as_str()]));
        } else if title {
            finish(&mut current, &mut out);
            current = Some((line.trim().to_string(), vec![line.as_str()]));
        } else if let Some((_, text)) = current.as_mut() {
            text.push(line);
        } else {
            out.unparsed.push(Unparsed {
                text: line.clone(),
                reason: Reason::OutsideItem,
                item: None,
            });
        }
    }
    finish(&mut current, &mut out);
    out
}

/// The name of a "Name: text" line (a title before the colon, no part's label).
fn named_line(line: &str) -> Option<String> {
    let colon = line.find(':')?;
    let name = line[..colon].trim();
    if vocab::label(line, true).is_some() || !header::is_name(name) {
        return None;
    }
    Some(name.to_string())
}

/// A trait or relic: its whole text its description; a relic's charges and limit read from it.
fn entry(
    name: &str,
    text: &[&str],
    kind: ItemType,
    index: usize,
    unparsed: &mut Vec<Unparsed>,
) -> Item {
    let mut system = ItemSystem {
        description: words::paragraphs(text.iter().copied()),
        ..ItemSystem::default()
    };
    if kind == ItemType::Relic {
        let lower = text.join(" ").to_ascii_lowercase();
        let w = words::words(&lower);
        for (i, word) in w.iter().enumerate() {
            if word == "once" && w.get(i + 1).is_some_and(|n| n == "per" || n == "a") {
                if let Some(per) = w.get(i + 2).and_then(|p| vocab::per(p)) {
                    system.limit = Some(model::Limit { per });
                }
            }
            if (word == "charge" || word == "charges") && i > 0 {
                if let Some(n) = words::number(&w[i - 1]) {
                    if (1..=20).contains(&n) {
                        system.charges = Some(model::Charges {
                            value: n as u8,
                            max: n as u8,
                            recharge: None,
                        });
                    } else {
                        unparsed.push(Unparsed {
                            text: format!("{} {word}", w[i - 1]),
                            reason: Reason::OutOfRange,
                            item: Some(index),
                        });
                    }
                }
            }
        }
        if let Some(at) =
            words::find(&lower, "recharge").or_else(|| words::find(&lower, "recharges"))
        {
            if let Some(moment) = vocab::recharge_moment(&lower[at..]) {
                let count = system.charges.map_or(1, |c| c.max);
                system.charges = Some(model::Charges {
                    value: count,
                    max: count,
                    recharge: Some(moment),
                });
            }
        }
    }
    Item {
        name: words::name_case(name),
        kind,
        system,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_glossary_light_attack() {
        let parsed = parse(
            "Light attack (1 action): Make an attack roll. On hit: [D] + fray, Miss: fray.",
            ParseOptions::default(),
        )
        .unwrap();
        assert_eq!(parsed.unparsed, vec![]);
        let json = serde_json::to_value(&parsed.items).unwrap();
        assert_eq!(
            json,
            serde_json::json!([{"name": "Light attack", "type": "ability", "system": {
                "description": "<p>Light attack (1 action): Make an attack roll. On hit: [D] + fray, Miss: fray.</p>",
                "actions": "1", "tags": ["attack"], "roll": {"hitDice": 1, "frayOnMiss": true}}}])
        );
    }

    #[test]
    fn too_long_is_refused() {
        let text = "a".repeat(MAX_TEXT + 1);
        let error = parse(&text, ParseOptions::default()).unwrap_err();
        assert!(
            error.message().contains("at most 1 MiB"),
            "{}",
            error.message()
        );
    }
}
