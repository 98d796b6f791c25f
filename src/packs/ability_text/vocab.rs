//! The words of the grammar, as the rules reference's glossary gives them ("Basic Combat Concepts
//! & Glossary", "Positive Effects/Statuses/Blights/States"): costs, tags, reach and areas, the
//! labels of an ability's parts, and the statuses.

use super::model::{Actions, Area, Per, Range, RangeKind, Recharge, Shape, Tag, Trigger};
use super::words::{number, words};

/// A cost: "Light attack (1 action)", "Heavy Attack (2 actions)", a free action, or "Interrupt
/// N" (uses between its owner's turns).
pub fn cost(item: &str) -> Option<(Actions, Option<u32>)> {
    let w = words(item);
    let w: Vec<&str> = w.iter().map(String::as_str).collect();
    match w.as_slice() {
        ["1" | "one", "action"] | ["action"] => Some((Actions::One, None)),
        ["2" | "two", "actions" | "action"] => Some((Actions::Two, None)),
        ["free"] | ["free", "action"] | ["0" | "zero", "actions" | "action"] => {
            Some((Actions::Free, None))
        }
        ["interrupt"] => Some((Actions::Interrupt, Some(1))),
        ["interrupt", n] | [n, "interrupt" | "interrupts"] => {
            number(n).map(|n| (Actions::Interrupt, Some(n)))
        }
        _ => None,
    }
}

/// What one entry of a tag list states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagItem {
    Cost(Actions, Option<u32>),
    Tag(Tag),
    /// Aura X: the aura tag and its range X ("affects all characters specified within range X").
    Aura(Option<u32>),
    /// Resolve N: a limit break's cost.
    Resolve(u32),
    Range(RangeKind, u32),
    Area(Shape, u32),
    TrueStrike,
    AutoHit,
    Unerring,
    Pierce,
    Divine,
    BonusDamage,
    Boons(u32),
    Curses(u32),
    Once(Per),
    Charges(u32),
    Recharge(Recharge),
    /// "Recharge 5+": a roll this system does not model.
    RechargeRoll,
    Save,
}

/// An entry of a tag list ("Attack", "Range 5", "Blast 2", "Once per round", "2 charges"), or
/// None when it is none of them.
pub fn tag_item(item: &str) -> Option<TagItem> {
    if let Some((actions, n)) = cost(item) {
        return Some(TagItem::Cost(actions, n));
    }
    let w = words(item);
    let w: Vec<&str> = w.iter().map(String::as_str).collect();
    let n = |s: &str| number(s);
    use TagItem as T;
    Some(match w.as_slice() {
        ["attack"] | ["attack", "roll"] => T::Tag(Tag::Attack),
        ["area"] | ["area", "ability"] | ["area", "attack"] => T::Tag(Tag::Area),
        ["aura"] => T::Aura(None),
        ["aura", x] | ["aura", "range", x] => T::Aura(Some(n(x)?)),
        ["mark"] => T::Tag(Tag::Mark),
        ["stance"] => T::Tag(Tag::Stance),
        ["combo"] => T::Tag(Tag::Combo),
        ["delay"] => T::Tag(Tag::Delay),
        ["end", "turn"] | ["end", "your", "turn"] | ["ends", "turn"] => T::Tag(Tag::EndTurn),
        ["summon"] => T::Tag(Tag::Summon),
        ["terrain"] | ["terrain", "effect"] => T::Tag(Tag::Terrain),
        ["limit", "break"] => T::Tag(Tag::LimitBreak),
        ["resolve", x] | [x, "resolve"] => T::Resolve(n(x)?),
        ["true", "strike"] | ["truestrike"] => T::TrueStrike,
        ["auto", "hit"] | ["autohit"] => T::AutoHit,
        ["unerring"] => T::Unerring,
        ["pierce"] | ["piercing"] => T::Pierce,
        ["divine"] => T::Divine,
        ["bonus", "damage"] => T::BonusDamage,
        ["self"] | ["yourself"] | ["personal"] => T::Range(RangeKind::Own, 0),
        ["melee"] | ["adjacent"] => T::Range(RangeKind::Melee, 1),
        ["melee", x] | ["reach", x] => T::Range(RangeKind::Melee, n(x)?),
        ["range", x] | ["ranged", x] => T::Range(RangeKind::Range, n(x)?),
        ["blast", x] => T::Area(Shape::Blast, n(x)?),
        ["burst", x] => T::Area(Shape::Burst, n(x)?),
        ["line", x] => T::Area(Shape::Line, n(x)?),
        ["cross", x] => T::Area(Shape::Cross, n(x)?),
        ["arc", x] => T::Area(Shape::Arc, n(x)?),
        [x, "boon" | "boons"] | ["boon" | "boons", x] => T::Boons(n(x)?),
        [x, "curse" | "curses"] | ["curse" | "curses", x] => T::Curses(n(x)?),
        ["once", "per", p] | ["1", "per", p] | ["once", "a", p] => T::Once(per(p)?),
        [x, "charge" | "charges"] | ["charges", x] => T::Charges(n(x)?),
        ["recharge", x] | ["recharge", x, "6"] => {
            n(x)?;
            T::RechargeRoll
        }
        ["save"] | ["saves"] | ["save", "ends"] => T::Save,
        _ => return None,
    })
}

/// "turn", "round" or "combat" (of "once per ...").
pub fn per(word: &str) -> Option<Per> {
    match word {
        "turn" => Some(Per::Turn),
        "round" => Some(Per::Round),
        "combat" | "fight" | "battle" | "encounter" => Some(Per::Combat),
        _ => None,
    }
}

/// A range or area as the data model stores it, or the bound it is past.
pub fn range(kind: RangeKind, value: u32) -> Result<Range, u32> {
    if value > 100 {
        return Err(100);
    }
    Ok(Range {
        kind,
        value: value as u8,
    })
}

pub fn area(shape: Shape, size: u32) -> Result<Area, u32> {
    if !(1..=12).contains(&size) {
        return Err(12);
    }
    Ok(Area {
        shape,
        size: size as u8,
    })
}

/// What a part's label ("On hit:", "Gamble 4+:") says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Label {
    /// An effect that fires on this trigger (a gamble's face with it).
    Part(Trigger, Option<u32>),
    /// "Area effect": applied to every character in the area, a roll to none (an effect on use).
    AreaEffect,
    /// An interrupt's trigger.
    Trigger,
    /// The Combo version's text.
    Combo,
    /// "Failed save:" — an effect of a failed save, and the ability calls for saves.
    FailedSave,
    /// A part named for a tag: "Mark:", "Stance:", "Aura:", "Delay:", "Summon:", "Terrain
    /// effect:" (an effect on use, and the tag).
    Tagged(Tag),
    /// A part this system has no trigger for ("Collide:", "Talent:", "Special:").
    Unknown,
}

/// The label of a part at the start of `text` ("On hit: ...", "gamble 5+: ..."), and where its
/// text starts, or None when `text` does not start with one. `strict`: only the labels this
/// grammar knows (in the middle of a line a colon after unknown words is ordinary text).
pub fn label(text: &str, strict: bool) -> Option<(Label, usize)> {
    // a label is short: only its first bytes are read, so finding one is constant time
    let mut end = text.len().min(40);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let colon = text[..end].find(':')?;
    let head = &text[..colon];
    if head.is_empty() || head.len() > 32 || head.contains(['.', ',', ';', '(', ')', '\n']) {
        return None;
    }
    let w = words(head);
    let w: Vec<&str> = w.iter().map(String::as_str).collect();
    use Label as L;
    use Trigger as T;
    let label = match w.as_slice() {
        ["effect"] | ["effects"] => L::Part(T::Use, None),
        ["area", "effect"] | ["area", "effects"] => L::AreaEffect,
        ["hit"] | ["on", "hit"] | ["on", "a", "hit"] => L::Part(T::Hit, None),
        ["miss"] | ["on", "miss"] | ["on", "a", "miss"] => L::Part(T::Miss, None),
        ["critical", "hit"] | ["crit"] | ["critical"] | ["on", "a", "critical", "hit"] => {
            L::Part(T::Crit, None)
        }
        ["exceed"] => L::Part(T::Exceed, None),
        ["charge"] => L::Part(T::Charge, None),
        ["comeback"] => L::Part(T::Comeback, None),
        ["finishing", "blow"] => L::Part(T::FinishingBlow, None),
        ["slay"] => L::Part(T::Slay, None),
        ["heroic"] | ["heroic", _] | ["heroic", _, _] => L::Part(T::Heroic, None),
        ["gamble", n] | ["gamble", n, "6"] => L::Part(T::Gamble, Some(number(n)?)),
        ["gamble"] => L::Part(T::Gamble, Some(4)),
        ["trigger"] => L::Trigger,
        ["combo"] => L::Combo,
        ["failed", "save"] | ["on", "a", "failed", "save"] | ["fail"] | ["save", "failed"] => {
            L::FailedSave
        }
        ["mark"] => L::Tagged(Tag::Mark),
        ["stance"] => L::Tagged(Tag::Stance),
        ["aura"] => L::Tagged(Tag::Aura),
        ["delay"] => L::Tagged(Tag::Delay),
        ["summon"] => L::Tagged(Tag::Summon),
        ["terrain", "effect"] => L::Tagged(Tag::Terrain),
        ["collide"] | ["special"] | ["talent"] | ["mastery"] => L::Unknown,
        _ if !strict && !w.is_empty() && w.len() <= 3 => L::Unknown,
        _ => return None,
    };
    let rest = text[colon + 1..].trim_start();
    Some((label, text.len() - rest.len()))
}

/// The statuses an effect may inflict, by the words that name them: the system's status ids
/// (`ICONENGINE.statuses`, module/config.mjs) but `bloodied` and `defeated`, which follow from
/// HP.
pub const STATUS_WORDS: &[(&str, &str)] = &[
    ("blinded", "blind"),
    ("blind", "blind"),
    ("dazed", "dazed"),
    ("hatred", "hatred"),
    ("pacified", "pacified"),
    ("sealed", "sealed"),
    ("shattered", "shattered"),
    ("slashed", "slashed"),
    ("stunned", "stunned"),
    ("vulnerable", "vulnerable"),
    ("weakened", "weakened"),
    ("immobilized", "immobile"),
    ("immobile", "immobile"),
    ("incapacitated", "incapacitated"),
    ("counter", "counter"),
    ("defiance", "defiance"),
    ("dodge", "dodge"),
    ("evasion", "evasion"),
    ("flying", "flying"),
    ("intangible", "intangible"),
    ("phasing", "phasing"),
    ("stealthed", "stealth"),
    ("stealth", "stealth"),
    ("sturdy", "sturdy"),
    ("unstoppable", "unstoppable"),
    ("regeneration", "regeneration"),
    ("vigilance", "vigilance"),
];

/// Recharge moments: "recharges at the end of your turn", "each round", "after combat", "at a
/// rest".
pub fn recharge_moment(lower: &str) -> Option<Recharge> {
    use super::words::has_any;
    if has_any(
        lower,
        &["end of your turn", "end of each of your turns", "each turn"],
    ) {
        Some(Recharge::Turn)
    } else if has_any(
        lower,
        &[
            "each round",
            "every round",
            "start of each round",
            "start of the round",
        ],
    ) {
        Some(Recharge::Round)
    } else if has_any(
        lower,
        &[
            "end of combat",
            "after combat",
            "each combat",
            "end of the combat",
            "after each combat",
        ],
    ) {
        Some(Recharge::Combat)
    } else if has_any(lower, &["rest", "camp", "a rest", "you rest", "you camp"]) {
        Some(Recharge::Rest)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn costs() {
        assert_eq!(cost("1 action"), Some((Actions::One, None)));
        assert_eq!(cost("Two Actions"), Some((Actions::Two, None)));
        assert_eq!(cost("free action"), Some((Actions::Free, None)));
        assert_eq!(cost("Interrupt 2"), Some((Actions::Interrupt, Some(2))));
        assert_eq!(cost("interrupt"), Some((Actions::Interrupt, Some(1))));
        assert_eq!(cost("round action"), None);
    }

    #[test]
    fn tags() {
        assert_eq!(
            tag_item("Range 5"),
            Some(TagItem::Range(RangeKind::Range, 5))
        );
        assert_eq!(tag_item("blast 2"), Some(TagItem::Area(Shape::Blast, 2)));
        assert_eq!(tag_item("True Strike"), Some(TagItem::TrueStrike));
        assert_eq!(tag_item("Auto-hit"), Some(TagItem::AutoHit));
        assert_eq!(tag_item("once per round"), Some(TagItem::Once(Per::Round)));
        assert_eq!(tag_item("recharge 6"), Some(TagItem::RechargeRoll));
        assert_eq!(tag_item("End Turn"), Some(TagItem::Tag(Tag::EndTurn)));
        assert_eq!(tag_item("Aura 2"), Some(TagItem::Aura(Some(2))));
        assert_eq!(tag_item("Sparkly"), None);
    }

    #[test]
    fn labels() {
        assert_eq!(
            label("On hit: [D]", true),
            Some((Label::Part(Trigger::Hit, None), 8))
        );
        assert_eq!(
            label("Gamble 5+: x", true),
            Some((Label::Part(Trigger::Gamble, Some(5)), 11))
        );
        assert_eq!(label("Collide: x", true), Some((Label::Unknown, 9)));
        assert_eq!(label("Choose one: x", true), None);
        assert_eq!(label("Choose one: x", false), Some((Label::Unknown, 12)));
        assert_eq!(label("Make an attack, then: x", false), None);
    }
}
