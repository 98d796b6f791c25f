//! What the parser answers: items in the system's own data model field names
//! (`module/data/ability-data.mjs`), holding only the fields the text states, so the data model
//! fills every other field with its default, and a comparison with what the text states is
//! exact. Every number is within the data model's bounds (`ABILITY_BOUNDS` in
//! `module/data/ability-rules.mjs`): a number past them is reported, never stored.

use serde::Serialize;

/// How many actions an ability takes (`system.actions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Actions {
    #[serde(rename = "1")]
    One,
    #[serde(rename = "2")]
    Two,
    #[serde(rename = "free")]
    Free,
    #[serde(rename = "interrupt")]
    Interrupt,
}

/// An ability tag: the core's own.
pub use crate::rulesets::icon::ability::Tag;

/// `system.range.kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RangeKind {
    #[serde(rename = "self")]
    Own,
    Melee,
    Range,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Range {
    pub kind: RangeKind,
    pub value: u8,
}

/// `system.area.shape` (`AREA_SHAPES` in `module/canvas/area-shapes.mjs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Shape {
    Blast,
    Burst,
    Line,
    Cross,
    Arc,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Area {
    pub shape: Shape,
    pub size: u8,
}

/// `system.roll`: only what the text states.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Roll {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boons: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub curses: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hit_dice: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fray_on_miss: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bonus_dice: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pierce: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divine: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub save_for_half: Option<bool>,
}

impl Roll {
    fn is_empty(&self) -> bool {
        *self == Roll::default()
    }
}

/// `system.attack`: the attack's rule options.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Attack {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub true_strike: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_hit: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unerring: Option<bool>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub mark: String,
}

impl Attack {
    fn is_empty(&self) -> bool {
        *self == Attack::default()
    }
}

/// `system.save`: its targets save (10+).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Save {
    pub enabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boons: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub curses: Option<u8>,
}

/// When an effect applies (`EFFECT_TRIGGERS` in `module/data/ability-rules.mjs`): the core's own.
pub use crate::rulesets::icon::ability::Trigger;

/// How long an inflicted status lasts (`EFFECT_DURATIONS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Duration {
    Save,
    Ongoing,
    Turn,
    Cure,
}

/// Movement an effect makes (`MOVE_KINDS`): forced movement of its targets, or its user's own
/// ("Teleport X: A teleport ability allows its user to instantly move to a free space within range
/// X"; "Rush X: Move X spaces. You are unstoppable and immune to all damage while moving").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum MoveKind {
    Shove,
    Pull,
    Move,
    Teleport,
    Rush,
}

impl MoveKind {
    /// Whether it moves the ability's user (its effect lands on the user, `USER_MOVES`).
    pub fn moves_user(self) -> bool {
        matches!(self, MoveKind::Teleport | MoveKind::Rush)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Move {
    pub kind: MoveKind,
    pub spaces: u8,
}

/// Whom an effect lands on: the targets (left out, the data model's default) or the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum To {
    #[serde(rename = "self")]
    User,
}

/// One of `system.effects`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Effect {
    pub trigger: Trigger,
    /// Gamble N+: only on a gamble effect.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gamble: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<To>,
    /// A status id of the system (`ICONENGINE.statuses` in `module/config.mjs`).
    #[serde(skip_serializing_if = "str::is_empty")]
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<Duration>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub mark: String,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub moves: Option<Move>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub text: String,
}

impl Effect {
    pub fn new(trigger: Trigger, gamble: Option<u8>) -> Self {
        Effect {
            trigger,
            gamble,
            to: None,
            status: "",
            duration: None,
            mark: String::new(),
            moves: None,
            text: String::new(),
        }
    }
}

/// When spent charges come back (`RECHARGES`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Recharge {
    Turn,
    Round,
    Combat,
    Rest,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Charges {
    pub value: u8,
    pub max: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recharge: Option<Recharge>,
}

/// Once per turn, round or combat (`LIMITS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Per {
    Turn,
    Round,
    Combat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Limit {
    pub per: Per,
}

/// An ability's (or a relic's, or a trait's) `system`, holding only what the text states.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemSystem {
    /// The item's whole text as pasted, escaped, one `<p>` per line.
    pub description: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub combo: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actions: Option<Actions>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupt: Option<u8>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub trigger: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<Tag>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolve_cost: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<Range>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub area: Option<Area>,
    #[serde(skip_serializing_if = "Roll::is_empty")]
    pub roll: Roll,
    #[serde(skip_serializing_if = "Attack::is_empty")]
    pub attack: Attack,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub save: Option<Save>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charges: Option<Charges>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<Limit>,
}

impl ItemSystem {
    /// Adds a tag once, keeping the tags in the data model's order.
    pub fn tag(&mut self, tag: Tag) {
        if let Err(at) = self.tags.binary_search(&tag) {
            self.tags.insert(at, tag);
        }
    }
    pub fn has(&self, tag: Tag) -> bool {
        self.tags.binary_search(&tag).is_ok()
    }
}

/// The item types a paste makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum ItemType {
    #[default]
    Ability,
    Trait,
    Relic,
}

/// One item found: `{name, type, system}`, as `Item.create` takes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Item {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: ItemType,
    pub system: ItemSystem,
}

/// Why a piece of the text was not understood: a stable code (the dialog's i18n key
/// `ICONENGINE.Paste.Reason.<code>` says it in words).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Reason {
    /// Text before the first item (a job's name and introduction, a page header).
    OutsideItem,
    /// A sentence that states no rule this parser reads (flavour text, an unusual rule).
    NotARule,
    /// An entry of a tag list that is no tag, cost, reach or area this system knows.
    UnknownTag,
    /// A part (`Label: text`) whose label is no trigger this system has (a collide effect, a
    /// talent).
    UnknownPart,
    /// A number past the data model's bounds (a range over 100, an area over 12, ...).
    OutOfRange,
    /// Text longer than its field holds (a trigger over 200 characters, an effect's text over
    /// 500): the field keeps the first part.
    TooLong,
    /// More effects than an ability holds (12).
    TooMany,
    /// A recharge roll ("recharge 5+"): the data model recharges charges at moments, not by a
    /// roll.
    RechargeRoll,
    /// A foe's number that does not fit the rest of its stat block (HP that no VIT gives).
    Mismatch,
}

/// A piece of the text the parser did not understand, never dropped: the text itself, why, and
/// the item it belongs to (its index in `items`), or none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unparsed {
    pub text: String,
    pub reason: Reason,
    pub item: Option<usize>,
}

/// `parseAbilityText`'s answer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Parsed {
    pub items: Vec<Item>,
    pub unparsed: Vec<Unparsed>,
}
