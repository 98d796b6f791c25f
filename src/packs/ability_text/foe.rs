//! A foe's stat block: its name, its class and template ("Skirmisher Elite"), its numbers (HP,
//! VIT, defense, speed, dash, fray, damage die, armor, size, chapter), its traits and its actions
//! (abilities in the grammar of [`super::block`]), as `parseFoeText` answers it.

use super::model::{Item, Parsed, Reason, Unparsed};
use super::words::{escape, name_case, number, words};
use super::{abilities, clean, entries, header, model::ItemType, too_long, MAX_ITEMS, MAX_TEXT};
use crate::error::{Error, Result};
use serde::Serialize;

/// A foe's `system`, holding only what the stat block states (the sheet's presets fill the rest
/// from its class and template).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FoeSystem {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub foe_class: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chapter: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vit: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub defense: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dash: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fray: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage_die: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub armor: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u8>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub biography: String,
}

/// The foe: `{name, type: "foe", system}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Foe {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub system: FoeSystem,
}

/// `parseFoeText`'s answer: the foe, its items (traits, then abilities), what was not understood.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ParsedFoe {
    pub foe: Foe,
    pub items: Vec<Item>,
    pub unparsed: Vec<Unparsed>,
}

const CLASSES: &[&str] = &["heavy", "skirmisher", "leader", "artillery"];
const TEMPLATES: &[(&str, &str)] = &[
    ("elite", "elite"),
    ("legend", "legend"),
    ("mob", "mob"),
    ("normal", ""),
    ("standard", ""),
];

/// Reads a stat block.
pub fn parse(text: &str) -> Result<ParsedFoe> {
    if text.len() > MAX_TEXT {
        return Err(too_long(text.len()));
    }
    let lines: Vec<String> = clean::lines(text).into_iter().map(|l| l.text).collect();
    let mut unparsed = Vec::new();
    let Some(name) = lines.first() else {
        return Err(Error::request(
            "the stat block is empty: its first line is the foe's name",
        ));
    };
    let mut system = FoeSystem::default();
    let mut hp: Option<(u32, String)> = None;
    let mut biography: Vec<&str> = Vec::new();
    // the stat lines: from the name to the first section heading, trait or ability
    let mut i = 1;
    while i < lines.len() {
        let line = &lines[i];
        if clean::is_section(line) || header::at(&lines, i).is_some() || trait_line(line) {
            break;
        }
        if !stats(line, &mut system, &mut hp, &mut unparsed) {
            biography.push(line);
            unparsed.push(Unparsed {
                text: line.clone(),
                reason: Reason::NotARule,
                item: None,
            });
        }
        i += 1;
    }
    // the traits: sections named so, or "Name: text" lines before the first ability
    let mut items: Vec<Item> = Vec::new();
    let mut section = "";
    let mut start = i;
    let flush = |from: usize,
                 to: usize,
                 section: &str,
                 items: &mut Vec<Item>,
                 unparsed: &mut Vec<Unparsed>| {
        if from >= to {
            return;
        }
        let part = &lines[from..to];
        let parsed: Parsed = if section == "traits"
            || (section.is_empty()
                && !part
                    .iter()
                    .enumerate()
                    .any(|(k, _)| header::at(part, k).is_some()))
        {
            entries(part, ItemType::Trait, items.len())
        } else {
            mixed(part, items.len())
        };
        items.extend(parsed.items);
        unparsed.extend(parsed.unparsed);
    };
    while i < lines.len() {
        if clean::is_section(&lines[i]) {
            flush(start, i, section, &mut items, &mut unparsed);
            section = if lines[i].to_ascii_lowercase().starts_with("trait") {
                "traits"
            } else {
                "actions"
            };
            start = i + 1;
        }
        i += 1;
    }
    flush(start, lines.len(), section, &mut items, &mut unparsed);
    if items.len() > MAX_ITEMS {
        return Err(Error::request(format!(
            "the stat block holds {} items; at most {MAX_ITEMS} are read",
            items.len()
        )));
    }
    if let Some((hp, source)) = hp {
        vit_from_hp(hp, &source, &mut system, &mut unparsed);
    }
    let mut bio = String::new();
    for line in biography {
        bio.push_str("<p>");
        escape(line, &mut bio);
        bio.push_str("</p>");
    }
    system.biography = bio;
    Ok(ParsedFoe {
        foe: Foe {
            name: name_case(name.trim()),
            kind: "foe",
            system,
        },
        items,
        unparsed,
    })
}

/// Traits ("Name: text") up to the first ability, then abilities.
fn mixed(lines: &[String], first: usize) -> Parsed {
    let at = (0..lines.len())
        .find(|&k| header::at(lines, k).is_some())
        .unwrap_or(lines.len());
    let mut out = entries(&lines[..at], ItemType::Trait, first);
    let rest = abilities(&lines[at..], first + out.items.len());
    out.items.extend(rest.items);
    out.unparsed.extend(rest.unparsed);
    out
}

/// A "Name: text" trait line.
fn trait_line(line: &str) -> bool {
    line.find(':').is_some_and(|c| {
        header::is_name(&line[..c])
            && super::vocab::label(line, true).is_none()
            && !is_stat_word(&line[..c])
    })
}

fn is_stat_word(head: &str) -> bool {
    let w = words(head);
    w.len() <= 2 && w.iter().all(|w| STAT_WORDS.contains(&w.as_str()))
}

const STAT_WORDS: &[&str] = &[
    "hp", "hit", "points", "vit", "vitality", "defense", "defence", "def", "speed", "dash", "fray",
    "damage", "die", "armor", "armour", "size", "chapter", "class", "template",
];

/// The numbers of a stat line ("HP 56, Defense 10, Speed 4"; "Skirmisher Elite"; "Chapter 2"),
/// applied; false when the line states none.
fn stats(
    line: &str,
    system: &mut FoeSystem,
    hp: &mut Option<(u32, String)>,
    unparsed: &mut Vec<Unparsed>,
) -> bool {
    let lower = line.to_ascii_lowercase();
    let w = words(&lower);
    let mut any = false;
    let bad = |what: &str, unparsed: &mut Vec<Unparsed>| {
        unparsed.push(Unparsed {
            text: what.to_string(),
            reason: Reason::OutOfRange,
            item: None,
        })
    };
    let value = |i: usize| -> Option<u32> {
        // the number after the word (past "damage", ":"), or before it ("56 HP")
        w.iter()
            .skip(i + 1)
            .take(2)
            .find_map(|x| number(x.trim_start_matches('d')))
            .or_else(|| i.checked_sub(1).and_then(|p| number(&w[p])))
    };
    let roman = |s: &str| match s {
        "i" => Some(1),
        "ii" => Some(2),
        "iii" => Some(3),
        _ => number(s),
    };
    for (i, word) in w.iter().enumerate() {
        match word.as_str() {
            c if CLASSES.contains(&c) => {
                system.foe_class = CLASSES.iter().copied().find(|x| *x == c);
                any = true;
            }
            t if TEMPLATES.iter().any(|(n, _)| *n == t) => {
                system.template = TEMPLATES.iter().find(|(n, _)| *n == t).map(|(_, id)| *id);
                any = true;
            }
            "chapter" => match w.get(i + 1).and_then(|n| roman(n)) {
                Some(n @ 1..=3) => {
                    system.chapter = Some(n as u8);
                    any = true;
                }
                Some(_) => {
                    bad(line, unparsed);
                    any = true;
                }
                None => {}
            },
            "hp" | "points" => {
                if let Some(n) = value(i) {
                    *hp = Some((n, line.to_string()));
                    any = true;
                }
            }
            "vit" | "vitality" => {
                if let Some(n) = value(i) {
                    if (1..=99).contains(&n) {
                        system.vit = Some(n as u8)
                    } else {
                        bad(line, unparsed)
                    }
                    any = true;
                }
            }
            "defense" | "defence" | "def" => {
                if let Some(n) = value(i) {
                    if n <= 100 {
                        system.defense = Some(n as u8)
                    } else {
                        bad(line, unparsed)
                    }
                    any = true;
                }
            }
            "speed" => {
                if let Some(n) = value(i) {
                    if n <= 99 {
                        system.speed = Some(n as u8)
                    } else {
                        bad(line, unparsed)
                    }
                    any = true;
                }
            }
            "dash" => {
                if let Some(n) = value(i) {
                    if n <= 99 {
                        system.dash = Some(n as u8)
                    } else {
                        bad(line, unparsed)
                    }
                    any = true;
                }
            }
            "fray" => {
                if let Some(n) = value(i) {
                    if n <= 1000 {
                        system.fray = Some(n as u16)
                    } else {
                        bad(line, unparsed)
                    }
                    any = true;
                }
            }
            "armor" | "armour" => {
                if let Some(n) = value(i) {
                    if n <= 1000 {
                        system.armor = Some(n as u16)
                    } else {
                        bad(line, unparsed)
                    }
                    any = true;
                }
            }
            "size" => {
                if let Some(n) = value(i) {
                    if (1..=3).contains(&n) {
                        system.size = Some(n as u8)
                    } else {
                        bad(line, unparsed)
                    }
                    any = true;
                }
            }
            d if d.len() >= 2
                && d.starts_with('d')
                && number(&d[1..]).is_some()
                && (i == 0 || matches!(w[i - 1].as_str(), "die" | "damage" | "d")) =>
            {
                match number(&d[1..]) {
                    Some(n @ (6 | 8 | 10 | 12)) => system.damage_die = Some(n as u8),
                    _ => bad(line, unparsed),
                }
                any = true;
            }
            _ => {}
        }
    }
    any
}

/// A foe's VIT from the HP its stat block prints: 4 × VIT, 8 × VIT for an Elite (a Legend's and
/// a mob's HP follow from the party's size, so their HP is not a VIT). HP that no VIT gives, or
/// that disagrees with the VIT printed, is reported.
fn vit_from_hp(hp: u32, source: &str, system: &mut FoeSystem, unparsed: &mut Vec<Unparsed>) {
    let per = match system.template.unwrap_or("") {
        "" => 4,
        "elite" => 8,
        _ => {
            unparsed.push(Unparsed {
                text: source.to_string(),
                reason: Reason::Mismatch,
                item: None,
            });
            return;
        }
    };
    let vit = hp / per;
    let fits = hp % per == 0 && (1..=99).contains(&vit);
    match system.vit {
        Some(v) if fits && u32::from(v) == vit => {}
        None if fits => system.vit = Some(vit as u8),
        _ => unparsed.push(Unparsed {
            text: source.to_string(),
            reason: Reason::Mismatch,
            item: None,
        }),
    }
}

/// [`parse`] as JSON text.
pub fn parse_json(text: &str) -> Result<String> {
    serde_json::to_string(&parse(text)?)
        .map_err(|e| Error::request(format!("cannot write the answer: {e}")))
}
