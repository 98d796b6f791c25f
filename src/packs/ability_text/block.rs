//! One ability: its header's cost and tags, its first sentences (more tags, and what happens on
//! use), and its parts, each a label and what happens then ("On hit: [D] + fray, and the target is
//! dazed."). What a part says beyond its damage, statuses, forced movement and mark stays its
//! effect's text, which the card shows as written; a sentence or part that states nothing this
//! grammar reads is reported, never dropped (the whole text is the item's description anyway).

use super::header::Header;
use super::model::*;
use super::vocab::{self, label, per, recharge_moment, tag_item, Label, TagItem, STATUS_WORDS};
use super::words::{
    self, cut, find, find_from, has_any, name_case, number, number_after, paragraphs,
};

/// The most effects an ability holds (the data model's `effects` validation).
pub const MAX_EFFECTS: usize = 12;
/// The longest trigger and effect text the data model holds.
pub const MAX_TRIGGER: usize = 200;
pub const MAX_EFFECT_TEXT: usize = 500;

/// What is being built for one ability.
struct Build<'a> {
    name: String,
    index: usize,
    sys: ItemSystem,
    unparsed: &'a mut Vec<Unparsed>,
    /// Whether the text has a hit, a miss part (for fray on a miss).
    hit_part: bool,
    miss_part: bool,
    /// Effects with the text they came from (for the report when there are too many).
    sources: Vec<String>,
}

impl Build<'_> {
    fn report(&mut self, text: &str, reason: Reason) {
        self.unparsed.push(Unparsed {
            text: text.trim().to_string(),
            reason,
            item: Some(self.index),
        });
    }

    fn effect(&mut self, effect: Effect, source: &str) {
        self.sys.effects.push(effect);
        self.sources.push(source.to_string());
    }

    /// A number within `[min, max]`, or reported as out of range.
    fn bounded(&mut self, value: u32, min: u32, max: u32, source: &str) -> Option<u8> {
        if (min..=max).contains(&value) {
            Some(value as u8)
        } else {
            self.report(source, Reason::OutOfRange);
            None
        }
    }

    /// One entry of a tag list.
    fn tag_item(&mut self, item: TagItem, source: &str) {
        use TagItem as T;
        match item {
            T::Cost(actions, n) => {
                self.sys.actions = Some(actions);
                if let Some(n) = n {
                    self.sys.interrupt = self.bounded(n, 1, 10, source);
                }
            }
            T::Tag(tag) => self.sys.tag(tag),
            T::Aura(range) => {
                self.sys.tag(Tag::Aura);
                if let Some(x) = range {
                    self.range(RangeKind::Range, x, source);
                }
            }
            T::Resolve(n) => self.sys.resolve_cost = self.bounded(n, 0, 10, source),
            T::Range(kind, value) => self.range(kind, value, source),
            T::Area(shape, size) => match vocab::area(shape, size) {
                Ok(area) => self.sys.area = Some(area),
                Err(_) => self.report(source, Reason::OutOfRange),
            },
            T::TrueStrike => self.sys.attack.true_strike = Some(true),
            T::AutoHit => self.sys.attack.auto_hit = Some(true),
            T::Unerring => self.sys.attack.unerring = Some(true),
            T::Pierce => self.sys.roll.pierce = Some(true),
            T::Divine => self.sys.roll.divine = Some(true),
            T::BonusDamage => self.sys.roll.bonus_dice = Some(1),
            T::Boons(n) => self.sys.roll.boons = self.bounded(n, 0, 6, source),
            T::Curses(n) => self.sys.roll.curses = self.bounded(n, 0, 6, source),
            T::Once(per) => self.sys.limit = Some(Limit { per }),
            T::Charges(n) => self.charges(n, source),
            T::Recharge(moment) => self.recharge(moment),
            T::RechargeRoll => self.report(source, Reason::RechargeRoll),
            T::Save => self.save(),
        }
    }

    fn range(&mut self, kind: RangeKind, value: u32, source: &str) {
        match vocab::range(kind, value) {
            Ok(range) => self.sys.range = Some(range),
            Err(_) => self.report(source, Reason::OutOfRange),
        }
    }

    fn charges(&mut self, n: u32, source: &str) {
        if let Some(n) = self.bounded(n, 1, 20, source) {
            let recharge = self.sys.charges.and_then(|c| c.recharge);
            self.sys.charges = Some(Charges {
                value: n,
                max: n,
                recharge,
            });
        }
    }

    /// Charges come back at a moment; a recharge without a count is one charge.
    fn recharge(&mut self, moment: Recharge) {
        let count = self.sys.charges.map_or(1, |c| c.max);
        self.sys.charges = Some(Charges {
            value: count,
            max: count,
            recharge: Some(moment),
        });
    }

    fn save(&mut self) {
        if self.sys.save.is_none() {
            self.sys.save = Some(Save {
                enabled: true,
                boons: None,
                curses: None,
            });
        }
    }
}

/// The ability whose header is `header`, its text `body` (the logical lines after the header's
/// own), and `source` all its lines as pasted (its description). Reports what it does not
/// understand into `unparsed`, as item `index`.
pub fn ability(
    header: &Header,
    body: &[&str],
    source: &[&str],
    index: usize,
    unparsed: &mut Vec<Unparsed>,
) -> Item {
    let mut b = Build {
        name: name_case(&header.name),
        index,
        sys: ItemSystem::default(),
        unparsed,
        hit_part: false,
        miss_part: false,
        sources: Vec::new(),
    };
    b.sys.description = paragraphs(source.iter().copied());
    for item in &header.items {
        match tag_item(item) {
            Some(tag) => b.tag_item(tag, item),
            None => b.report(item, Reason::UnknownTag),
        }
    }
    // The rest of the header's line and the lines after it, cut at the parts' labels.
    let mut text = String::new();
    for line in std::iter::once(header.rest.as_str()).chain(body.iter().copied()) {
        if line.is_empty() {
            continue;
        }
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(line);
    }
    let segments = segments(&text);
    let mut first = true;
    for (label, body) in segments {
        match label {
            None => preamble(&mut b, body, first),
            Some((label, head)) => part(&mut b, label, head, body),
        }
        first = false;
    }
    finish(&mut b);
    Item {
        name: b.name,
        kind: ItemType::Ability,
        system: b.sys,
    }
}

/// Where labels may start: the text's start, a line's start, a sentence's start.
fn label_starts(text: &str) -> Vec<(usize, bool)> {
    let bytes = text.as_bytes();
    let mut out = vec![(0, true)];
    for i in 1..bytes.len() {
        let line_start = bytes[i - 1] == b'\n';
        let sentence_start = i >= 2
            && bytes[i - 1] == b' '
            && matches!(bytes[i - 2], b'.' | b';' | b'!' | b'?' | b')' | b',');
        if (line_start || sentence_start) && bytes[i] != b' ' {
            out.push((i, line_start));
        }
    }
    out
}

/// The text cut into its preamble (no label) and its labelled parts: `(label and the label's
/// own words, the part's text)`.
type Segment<'a> = (Option<(Label, &'a str)>, &'a str);

fn segments(text: &str) -> Vec<Segment<'_>> {
    let mut found: Vec<(usize, usize, Label)> = Vec::new();
    for (at, line_start) in label_starts(text) {
        // a label starts after the one before it ends (its words and colon)
        if found.last().is_some_and(|f| at < f.1) {
            continue;
        }
        if let Some((label, skip)) = label(&text[at..], !line_start) {
            found.push((at, at + skip, label));
        }
    }
    let mut out: Vec<Segment<'_>> = Vec::new();
    let first = found.first().map_or(text.len(), |f| f.0);
    if !text[..first].trim().is_empty() {
        out.push((None, text[..first].trim()));
    }
    for (n, &(at, body, label)) in found.iter().enumerate() {
        let end = found.get(n + 1).map_or(text.len(), |f| f.0);
        out.push((Some((label, text[at..body].trim())), text[body..end].trim()));
    }
    out
}

/// Sentences: cut at `.`, `!`, `?` and `;` followed by a space or the end, and at line breaks.
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for i in 0..bytes.len() {
        let end = match bytes[i] {
            b'\n' => true,
            b'.' | b'!' | b'?' | b';' => {
                i + 1 == bytes.len() || bytes[i + 1] == b' ' || bytes[i + 1] == b'\n'
            }
            _ => false,
        };
        if end {
            let s = text[start..i + 1].trim();
            if !s.is_empty() && s != "." {
                out.push(s);
            }
            start = i + 1;
        }
    }
    let s = text[start..].trim();
    if !s.is_empty() {
        out.push(s);
    }
    out
}

/// The text before the first part: tag lists, then sentences of what happens on use.
fn preamble(b: &mut Build, text: &str, _first: bool) {
    for sentence in sentences(text) {
        if tag_list(b, sentence) {
            continue;
        }
        if !sentence_rules(b, sentence) {
            b.report(sentence, Reason::NotARule);
        }
    }
}

/// A sentence that is a list of tags ("Range 5, Attack."): applied, true. Its entries that are
/// no tag are reported when most entries are tags.
fn tag_list(b: &mut Build, sentence: &str) -> bool {
    let items = super::header::items(sentence.trim_end_matches(['.', ';']));
    if items.is_empty() {
        return false;
    }
    let known: Vec<Option<TagItem>> = items.iter().map(|i| tag_item(i)).collect();
    let hits = known.iter().filter(|k| k.is_some()).count();
    let short = items.iter().all(|i| i.split_whitespace().count() <= 3);
    if hits == 0 || !(hits == items.len() || (short && hits * 2 >= items.len() && items.len() >= 2))
    {
        return false;
    }
    for (item, tag) in items.iter().zip(known) {
        match tag {
            Some(tag) => b.tag_item(tag, item),
            None => b.report(item, Reason::UnknownTag),
        }
    }
    true
}

/// Sentence openings that are labels in prose ("On a hit, the target is dazed").
const PROSE_LABELS: &[(&str, Trigger)] = &[
    ("on a hit,", Trigger::Hit),
    ("on hit,", Trigger::Hit),
    ("on a miss,", Trigger::Miss),
    ("on a critical hit,", Trigger::Crit),
    ("on a crit,", Trigger::Crit),
    ("on a failed save,", Trigger::FailedSave),
];

/// What a sentence of the preamble states, applied; false when it states nothing this grammar
/// reads.
fn sentence_rules(b: &mut Build, sentence: &str) -> bool {
    let lower = sentence.to_ascii_lowercase();
    for (opening, trigger) in PROSE_LABELS {
        if let Some(rest) = lower.strip_prefix(opening) {
            let rest = &sentence[sentence.len() - rest.len()..];
            let label = if *trigger == Trigger::FailedSave {
                Label::FailedSave
            } else {
                Label::Part(*trigger, None)
            };
            part(b, label, &sentence[..opening.len()], rest.trim());
            return true;
        }
    }
    let mut understood = false;
    if has_any(
        &lower,
        &[
            "make an attack roll",
            "make an attack",
            "make a melee attack",
            "make a ranged attack",
            "attack roll against",
        ],
    ) {
        b.sys.tag(Tag::Attack);
        understood = true;
    }
    understood |= roll_rules(b, &lower, sentence);
    understood |= use_rules(b, &lower, sentence);
    let stated = clause_effects(b, Trigger::Use, None, sentence, true);
    understood |= stated.understood;
    for e in stated.effects {
        b.effect(e, sentence);
    }
    if understood {
        // what the sentence says besides: reported clause by clause
        for clause in stated.leftover {
            b.report(clause, Reason::NotARule);
        }
    }
    understood
}

/// Phrases that set a rule option, and how.
type Flag = (&'static [&'static str], fn(&mut ItemSystem));

/// The rules a sentence may state about the attack and the save: boons and curses, true strike,
/// auto-hit, unerring, pierce, divine, bonus damage, save for half, calls for saves.
fn roll_rules(b: &mut Build, lower: &str, source: &str) -> bool {
    let mut understood = false;
    let w = words::words(lower);
    let about_save = has_any(lower, &["save", "saves"]) && !has_any(lower, &["attack"]);
    for (i, word) in w.iter().enumerate() {
        let count = || -> Option<u32> {
            let prev = i.checked_sub(1).and_then(|p| w.get(p));
            prev.and_then(|p| {
                if p == "a" || p == "an" {
                    Some(1)
                } else {
                    number(p)
                }
            })
        };
        match word.as_str() {
            "boon" | "boons" => {
                if let Some(n) = count() {
                    let n = b.bounded(n, 0, 6, source);
                    if about_save {
                        b.save();
                        if let Some(save) = b.sys.save.as_mut() {
                            save.boons = n;
                        }
                    } else {
                        b.sys.roll.boons = n;
                    }
                    understood = true;
                }
            }
            "curse" | "curses" => {
                if let Some(n) = count() {
                    let n = b.bounded(n, 0, 6, source);
                    if about_save {
                        b.save();
                        if let Some(save) = b.sys.save.as_mut() {
                            save.curses = n;
                        }
                    } else {
                        b.sys.roll.curses = n;
                    }
                    understood = true;
                }
            }
            _ => {}
        }
    }
    let flags: [Flag; 6] = [
        (&["true strike"], |s| s.attack.true_strike = Some(true)),
        (
            &["auto-hit", "autohit", "auto hit", "automatically hits"],
            |s| s.attack.auto_hit = Some(true),
        ),
        (&["unerring"], |s| s.attack.unerring = Some(true)),
        (&["pierce", "piercing"], |s| s.roll.pierce = Some(true)),
        (&["divine"], |s| s.roll.divine = Some(true)),
        (&["bonus damage"], |s| s.roll.bonus_dice = Some(1)),
    ];
    for (phrases, set) in flags {
        if has_any(lower, phrases) {
            set(&mut b.sys);
            understood = true;
        }
    }
    if has_any(lower, HALF) {
        b.sys.roll.save_for_half = Some(true);
        understood = true;
    } else if has_any(
        lower,
        &[
            "must save",
            "make a save",
            "makes a save",
            "targets save",
            "target saves",
            "each target saves",
            "save against",
            "must make a save",
            "saves or",
            "save or",
            "character in it saves",
            "save ends the",
        ],
    ) {
        b.save();
        understood = true;
    }
    understood
}

/// The rules a sentence may state about using the ability: once per turn, round or combat,
/// charges and when they come back, ending the turn, a resolve cost.
fn use_rules(b: &mut Build, lower: &str, source: &str) -> bool {
    let mut understood = false;
    let w = words::words(lower);
    for (i, word) in w.iter().enumerate() {
        match word.as_str() {
            "once" if w.get(i + 1).is_some_and(|n| n == "per" || n == "a") => {
                if let Some(p) = w.get(i + 2).and_then(|p| per(p)) {
                    b.sys.limit = Some(Limit { per: p });
                    understood = true;
                }
            }
            "charge" | "charges" if i > 0 => {
                if let Some(n) = number(&w[i - 1]) {
                    b.charges(n, source);
                    understood = true;
                }
            }
            "resolve" if i > 0 && has_any(lower, &["cost", "costs", "spend", "spends"]) => {
                if let Some(n) = number(&w[i - 1]) {
                    b.sys.resolve_cost = b.bounded(n, 0, 10, source);
                    understood = true;
                }
            }
            _ => {}
        }
    }
    if let Some(at) = find(lower, "recharge").or_else(|| find(lower, "recharges")) {
        let after = &lower[at..];
        if words::words(after).get(1).and_then(|n| number(n)).is_some() && has_any(after, &["+"])
            || after.contains('+')
        {
            b.report(source, Reason::RechargeRoll);
            understood = true;
        } else if let Some(moment) = recharge_moment(after) {
            b.recharge(moment);
            understood = true;
        }
    }
    if has_any(
        lower,
        &["ends your turn", "end your turn", "your turn ends"],
    ) {
        b.sys.tag(Tag::EndTurn);
        understood = true;
    }
    if has_any(lower, &["limit break"]) {
        b.sys.tag(Tag::LimitBreak);
        understood = true;
    }
    understood
}

/// A labelled part.
fn part(b: &mut Build, label: Label, head: &str, text: &str) {
    let whole = if head.is_empty() {
        text.to_string()
    } else {
        format!("{head} {text}")
    };
    match label {
        Label::Trigger => {
            let trigger = cut(text.trim_end_matches('.'), MAX_TRIGGER);
            if trigger.len() < text.trim_end_matches('.').len() {
                b.report(&whole, Reason::TooLong);
            }
            b.sys.trigger = trigger.to_string();
            if b.sys.actions.is_none() {
                b.sys.actions = Some(Actions::Interrupt);
            }
        }
        Label::Combo => {
            b.sys.tag(Tag::Combo);
            b.sys.combo = paragraphs([text]);
        }
        Label::Unknown => b.report(&whole, Reason::UnknownPart),
        Label::Tagged(Tag::Mark) => {
            b.sys.tag(Tag::Mark);
            let first = b.sys.effects.len();
            trigger_part(b, Trigger::Use, None, text, &whole);
            if first == b.sys.effects.len() {
                b.effect(Effect::new(Trigger::Use, None), &whole);
            }
            b.sys.effects[first].mark = b.name.clone();
        }
        Label::Tagged(tag) => {
            b.sys.tag(tag);
            trigger_part(b, Trigger::Use, None, text, &whole);
        }
        Label::AreaEffect => trigger_part(b, Trigger::Use, None, text, &whole),
        Label::FailedSave => {
            b.save();
            trigger_part(b, Trigger::FailedSave, None, text, &whole);
        }
        Label::Part(Trigger::Gamble, Some(n)) => {
            if let Some(n) = b.bounded(n, 1, 6, &whole) {
                trigger_part(b, Trigger::Gamble, Some(n), text, &whole);
            }
        }
        Label::Part(trigger, _) => {
            match trigger {
                Trigger::Hit => b.hit_part = true,
                Trigger::Miss => b.miss_part = true,
                _ => {}
            }
            if matches!(
                trigger,
                Trigger::Hit | Trigger::Miss | Trigger::Crit | Trigger::Exceed
            ) {
                b.sys.tag(Tag::Attack);
            }
            trigger_part(b, trigger, None, text, &whole);
        }
    }
}

/// A triggered part: its damage (a hit's dice, a miss's fray), its effects.
fn trigger_part(b: &mut Build, trigger: Trigger, gamble: Option<u8>, text: &str, whole: &str) {
    // bonus damage on a hit or on use is the roll's bonus die; boons and the like in a part are
    // about something else (the target's next roll), so they stay its text
    if matches!(trigger, Trigger::Hit | Trigger::Use)
        && has_any(&text.to_ascii_lowercase(), &["bonus damage"])
    {
        b.sys.roll.bonus_dice = Some(1);
    }
    // sentences that state how the ability is used ("Once per round.", "Recharges each round.")
    // or that its targets save for half are applied to those fields, not kept as effect text
    let mut kept: Vec<&str> = Vec::new();
    for sentence in sentences(text) {
        let lower = sentence.to_ascii_lowercase();
        if has_any(&lower, HALF) {
            b.sys.roll.save_for_half = Some(true);
        } else if !(is_use_rule(&lower) && use_rules(b, &lower, sentence)) {
            kept.push(sentence);
        }
    }
    let kept = kept.join(" ");
    let text = if kept.len() == text.trim().len() {
        text
    } else {
        kept.as_str()
    };
    let stated = clause_effects(b, trigger, gamble, text, false);
    for e in stated.effects {
        b.effect(e, whole);
    }
}

/// Phrases by which targets that save take half damage.
const HALF: &[&str] = &[
    "save for half",
    "saves for half",
    "half damage on a successful save",
    "half damage on a save",
    "that save take half",
    "that saves takes half",
    "who save take half",
    "on a successful save, half",
];

/// Whether a sentence is only about using the ability: once per, charges, recharging.
fn is_use_rule(lower: &str) -> bool {
    let w = words::words(lower);
    w.len() <= 8
        && (w.first().is_some_and(|f| {
            matches!(
                f.as_str(),
                "once" | "recharges" | "recharge" | "holds" | "has"
            )
        }) || w.iter().any(|x| x == "charges" || x == "charge"))
}

/// Whether a clause calls for its targets' save ("foes in the area save", "makes a save").
fn calls_save(lower: &str) -> bool {
    let w = words::words(lower);
    w.last().is_some_and(|l| l == "save" || l == "saves")
        || has_any(
            lower,
            &[
                "must save",
                "make a save",
                "makes a save",
                "must make a save",
                "save against",
            ],
        )
}

/// A clause's damage: `(dice, fray)` for "[D] + fray", "2[D]+fray", "fray", "deals [D]".
fn damage(clause: &str) -> Option<(u32, bool)> {
    let mut s: String = clause
        .to_ascii_lowercase()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    for prefix in [
        "thetargettakes",
        "ittakes",
        "theytake",
        "takes",
        "take",
        "deals",
        "deal",
        "itdeals",
    ] {
        if let Some(rest) = s.strip_prefix(prefix) {
            s = rest.to_string();
            break;
        }
    }
    for suffix in ["damage", "."] {
        if let Some(rest) = s.strip_suffix(suffix) {
            s = rest.to_string();
        }
    }
    if s == "fray" {
        return Some((0, true));
    }
    let open = s.find("[d]")?;
    let dice = if open == 0 {
        1
    } else {
        s[..open].parse::<u32>().ok()?
    };
    match &s[open + 3..] {
        "" => Some((dice, false)),
        "+fray" => Some((dice, true)),
        _ => None,
    }
}

/// Words that make a status in their clause a condition, not something inflicted ("if the
/// target is dazed", "ignores dodge").
const NOT_INFLICTED: &[&str] = &[
    "if", "while", "when", "whenever", "unless", "ignore", "ignores", "ignoring", "immune",
    "against", "remove", "removes", "end", "ends", "cure", "cures", "clear", "clears", "already",
    "without", "not", "can't", "cannot", "break", "breaks", "lose", "loses", "instead", "except",
];

/// Nouns a status word may describe instead ("a dazed target").
const DESCRIBED: &[&str] = &[
    "target",
    "targets",
    "foe",
    "foes",
    "character",
    "characters",
    "ally",
    "allies",
    "enemy",
    "enemies",
    "creature",
];

/// The statuses a clause inflicts, with how long and on whom.
fn statuses(clause: &str, self_subject: bool) -> Vec<(&'static str, Duration, bool)> {
    let lower = clause.to_ascii_lowercase();
    // a stance grants its statuses as long as it lasts
    let stance = [
        "while in this stance",
        "while in stance",
        "while this stance lasts",
    ]
    .iter()
    .find_map(|p| lower.strip_prefix(p));
    let lower = stance.map_or(lower.clone(), |rest| {
        rest.trim_start_matches([',', ' ']).to_string()
    });
    let mut w = words::words(&lower);
    // a clause cut at "and" or "then" may keep the word
    if w.first()
        .is_some_and(|f| matches!(f.as_str(), "and" | "then" | "also"))
    {
        w.remove(0);
    }
    let mut out: Vec<(&'static str, Duration, bool)> = Vec::new();
    for (i, word) in w.iter().enumerate() {
        let Some(&(_, id)) = STATUS_WORDS.iter().find(|(form, _)| form == word) else {
            continue;
        };
        if w[..i].iter().any(|p| NOT_INFLICTED.contains(&p.as_str())) {
            continue;
        }
        if w.get(i + 1)
            .is_some_and(|n| DESCRIBED.contains(&n.as_str()))
        {
            continue;
        }
        if out.iter().any(|(s, _, _)| *s == id) {
            continue;
        }
        // "+" right after the word: ongoing
        let at = find(&lower, word).unwrap_or(0);
        let after = lower[at + word.len()..].trim_start();
        let duration =
            if stance.is_some() || after.starts_with('+') || has_any(&lower, &["ongoing"]) {
                Duration::Ongoing
            } else if find(&lower, "next turn").is_some() && has_any(&lower, &["end of", "until"]) {
                Duration::Turn
            } else if has_any(&lower, &["blight", "until cured", "(cure)", "cure to end"]) {
                Duration::Cure
            } else {
                Duration::Save
            };
        // the clause's subject: you, or none ("and counter") after a clause whose subject was you
        let to_self = matches!(
            w.first().map(String::as_str),
            Some("you" | "gain" | "become" | "yourself")
        ) || has_any(&lower, &["yourself"])
            || (self_subject
                && STATUS_WORDS
                    .iter()
                    .any(|(form, _)| Some(*form) == w.first().map(String::as_str)));
        out.push((id, duration, to_self));
    }
    out
}

/// Movement in a clause: shove (or push), pull, or move the target, N spaces; or the user's own
/// teleport ("Teleport 3", "teleport up to 4 spaces") or rush ("Rush 2").
fn movement(clause: &str) -> Option<(MoveKind, u32)> {
    let lower = clause.to_ascii_lowercase();
    let w = words::words(&lower);
    for (i, word) in w.iter().enumerate() {
        let kind = match word.as_str() {
            "teleport" | "teleports" => MoveKind::Teleport,
            "rush" | "rushes" => MoveKind::Rush,
            "shove" | "shoves" | "shoved" | "push" | "pushes" | "pushed" | "knock" => {
                MoveKind::Shove
            }
            "pull" | "pulls" | "pulled" => MoveKind::Pull,
            "move" | "moves" | "slide" | "slides"
                if w.get(i + 1).is_some_and(|n| {
                    matches!(
                        n.as_str(),
                        "the"
                            | "it"
                            | "them"
                            | "that"
                            | "each"
                            | "target"
                            | "one"
                            | "an"
                            | "a"
                            | "any"
                            | "up"
                    )
                }) =>
            {
                MoveKind::Move
            }
            _ => continue,
        };
        if i > 0 && NOT_INFLICTED.contains(&w[i - 1].as_str()) {
            return None;
        }
        // the number before "space(s)" within the next words, else the first number after
        let spaces = w
            .iter()
            .enumerate()
            .skip(i + 1)
            .take(10)
            .find(|(_, x)| *x == "space" || *x == "spaces");
        return match spaces {
            Some((at, _)) if at > i + 1 => number(&w[at - 1]).map(|n| (kind, n)),
            _ => number_after(&w, i, 5).map(|n| (kind, n)),
        };
    }
    None
}

/// Whether a clause places the ability's mark.
fn marks(clause: &str) -> bool {
    let lower = clause.to_ascii_lowercase();
    has_any(
        &lower,
        &[
            "mark the target",
            "marks the target",
            "mark it",
            "mark them",
            "is marked",
            "are marked",
            "place your mark",
            "place a mark",
            "apply your mark",
            "becomes marked",
            "mark that",
            "mark a",
            "mark each",
        ],
    )
}

/// Cuts a part into clauses: sentences, then at "and", "then" and commas.
fn clauses(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for sentence in sentences(text) {
        let mut rest = sentence;
        loop {
            let lower = rest.to_ascii_lowercase();
            let cut = [", and ", " and ", ", then ", " then ", ", "]
                .iter()
                .filter_map(|sep| find_from(&lower, sep.trim(), 0).map(|at| (at, sep)))
                .filter_map(|(at, sep)| {
                    // the separator as it stands in the text (with its spaces)
                    let start = lower[..at]
                        .rfind(|c: char| c != ' ')
                        .map_or(at, |p| words::after_char(&lower, p));
                    let sep_start = if sep.starts_with(',') {
                        lower[..at + 1].rfind(',')?
                    } else {
                        start
                    };
                    Some((sep_start, at + sep.trim().len()))
                })
                .min();
            match cut {
                Some((from, to)) if from > 0 => {
                    out.push(rest[..from].trim());
                    rest = rest[to..].trim_start();
                }
                _ => {
                    out.push(rest.trim());
                    break;
                }
            }
        }
    }
    out.retain(|c| !c.is_empty() && *c != "." && *c != ",");
    out
}

/// What a part's (or a sentence's) clauses state.
struct Stated<'t> {
    effects: Vec<Effect>,
    /// Clauses that state nothing this grammar reads.
    leftover: Vec<&'t str>,
    /// Whether any clause stated something.
    understood: bool,
}

/// The effects a part's (or sentence's) text makes with `trigger`: one per status it inflicts,
/// the first with its forced movement and mark. Its damage goes to the roll (a hit's dice, a
/// miss's fray). For a part (`prose` false), words that state anything else make the effect's
/// text, as written but for its damage; a sentence of the preamble (`prose`) answers them as
/// leftover, for the caller to report.
fn clause_effects<'t>(
    b: &mut Build,
    trigger: Trigger,
    gamble: Option<u8>,
    text: &'t str,
    prose: bool,
) -> Stated<'t> {
    let mut effects: Vec<Effect> = Vec::new();
    let mut moves: Option<Move> = None;
    // a teleport or a rush: an effect of its own, on the user
    let mut user_moves: Vec<Effect> = Vec::new();
    let mut mark = false;
    let mut leftover: Vec<&'t str> = Vec::new();
    let mut damage_first: Option<&'t str> = None;
    let mut understood = false;
    // whether the clause before had its user as subject ("You gain defiance and counter")
    let mut self_subject = false;
    for (n, clause) in clauses(text).into_iter().enumerate() {
        let lower = clause.to_ascii_lowercase();
        if let Some((dice, fray)) = damage(clause) {
            let roll = match trigger {
                Trigger::Hit => {
                    if let Some(d) = b.bounded(dice, 0, 6, clause) {
                        b.sys.roll.hit_dice = Some(d);
                    }
                    true
                }
                Trigger::Miss if dice == 0 && fray => {
                    b.sys.roll.fray_on_miss = Some(true);
                    true
                }
                _ => false,
            };
            if roll {
                if n == 0 {
                    damage_first = Some(clause);
                }
                understood = true;
            } else {
                leftover.push(clause);
            }
            continue;
        }
        let mut this = false;
        let or_else = trigger == Trigger::Use && has_any(&lower, &["save or", "saves or"]);
        if or_else || (!prose && calls_save(&lower)) {
            b.save();
            this = true;
        }
        let statuses = statuses(clause, self_subject);
        if let Some(&(_, _, to_self)) = statuses.first() {
            self_subject = to_self;
        }
        for (status, duration, to_self) in statuses {
            let mut e = Effect::new(
                if or_else {
                    Trigger::FailedSave
                } else {
                    trigger
                },
                gamble,
            );
            e.status = status;
            e.duration = Some(duration);
            e.to = to_self.then_some(To::User);
            effects.push(e);
            this = true;
        }
        if let Some((kind, spaces)) = movement(clause) {
            if let Some(spaces) = b.bounded(spaces, 0, 10, clause) {
                if kind.moves_user() {
                    let mut e = Effect::new(trigger, gamble);
                    e.to = Some(To::User);
                    e.moves = Some(Move { kind, spaces });
                    user_moves.push(e);
                } else {
                    moves = Some(Move { kind, spaces });
                }
            }
            this = true;
        }
        if marks(clause) {
            mark = true;
            b.sys.tag(Tag::Mark);
            this = true;
        }
        if !this
            && matches!(trigger, Trigger::Hit | Trigger::Use)
            && has_any(&lower, &["bonus damage"])
        {
            this = true;
        }
        if !this && prose && has_any(&lower, PROSE_RULES) {
            this = true;
        }
        understood |= this;
        if !this {
            leftover.push(clause);
        }
    }
    if !effects.is_empty() || moves.is_some() || mark || (!prose && !leftover.is_empty()) {
        if effects.is_empty() {
            effects.push(Effect::new(trigger, gamble));
        }
        effects[0].moves = moves;
        if mark {
            effects[0].mark = b.name.clone();
        }
        if !prose && !leftover.is_empty() {
            let whole = text.trim();
            let rest = match damage_first {
                // the text after its damage (the roll): "[D] + fray, and the target ..." → "the target ..."
                Some(first) => whole
                    .get(first.len()..)
                    .unwrap_or("")
                    .trim_start_matches([',', ';', ' ', '.']),
                None => whole,
            };
            let rest = rest.strip_prefix("and ").unwrap_or(rest);
            let kept = cut(rest, MAX_EFFECT_TEXT).to_string();
            if kept.len() < rest.len() {
                b.report(text, Reason::TooLong);
            }
            effects[0].text = kept;
            leftover.clear();
        }
    }
    effects.extend(user_moves);
    Stated {
        effects,
        leftover,
        understood,
    }
}

/// Words that make a clause of the preamble a rule the sentence's other readers applied.
const PROSE_RULES: &[&str] = &[
    "make an attack",
    "attack roll",
    "make a melee attack",
    "make a ranged attack",
    "once per",
    "charges",
    "charge",
    "recharge",
    "recharges",
    "save",
    "saves",
    "true strike",
    "auto-hit",
    "automatically hits",
    "boon",
    "boons",
    "curse",
    "curses",
    "pierce",
    "piercing",
    "divine",
    "unerring",
    "ends your turn",
    "end your turn",
    "resolve",
    "limit break",
    "bonus damage",
];

/// After every part: an attack's fray on a miss, the mark's name, the limit on effects.
fn finish(b: &mut Build) {
    if b.sys.has(Tag::Attack) && b.hit_part && !b.miss_part {
        b.sys.roll.fray_on_miss = Some(false);
    }
    if b.sys.has(Tag::Mark) {
        if b.sys.has(Tag::Attack) {
            b.sys.attack.mark = b.name.clone();
            // the attack places it on each target: an effect that only marks says it again
            let name = b.name.clone();
            let mut k = 0;
            while k < b.sys.effects.len() {
                let e = &b.sys.effects[k];
                if e.mark == name && e.status.is_empty() && e.moves.is_none() && e.text.is_empty() {
                    b.sys.effects.remove(k);
                    b.sources.remove(k);
                } else {
                    k += 1;
                }
            }
        } else if !b.sys.effects.iter().any(|e| !e.mark.is_empty()) {
            let mut e = Effect::new(Trigger::Use, None);
            e.mark = b.name.clone();
            b.effect(e, "");
        }
    }
    if b.sys.effects.len() > MAX_EFFECTS {
        let extra: Vec<String> = b.sources.drain(MAX_EFFECTS..).collect();
        b.sys.effects.truncate(MAX_EFFECTS);
        let mut last = "";
        for source in &extra {
            if source != last {
                b.report(source, Reason::TooMany);
            }
            last = source;
        }
    }
}
