//! What a forecast is asked about: the fighters (each one's health, defense, damage die and fray,
//! statuses and abilities' structured data, as the module reads them from its actor and items),
//! the fight they start from (the running combat's stored state, or a planned fight that starts
//! now) and the options (how many fights, the seed, each side's policy). Every list and number is
//! bounded as it is read.

use crate::combat::{Side, Template};
use crate::decode::at_most;
use crate::rulesets::icon::ability::{Part, To, Trigger, MAX_PARTS};
use crate::rulesets::icon::effects::status_list;
use serde::de::Deserializer;
use serde::{Deserialize, Serialize};

/// A forecast has at most this many fighters (a large ICON fight has a dozen or two).
pub const MAX_FIGHTERS: usize = 64;
/// A fighter has at most this many abilities (the basic attacks besides).
pub const MAX_ABILITIES: usize = 32;
/// A forecast plays at most this many fights.
pub const MAX_FIGHTS: u32 = 100_000;
/// Fights times fighters, at most: the work grows with both (linearly), so a forecast of many
/// fighters plays fewer fights (64 fighters: 15,625 fights).
pub const MAX_FIGHTER_FIGHTS: u64 = 1_000_000;
/// A fight is played for at most this many rounds.
pub const MAX_ROUNDS: u32 = 50;
/// An area ability catches at most this many foes.
pub const MAX_AREA_TARGETS: u32 = 8;
/// The JSON text of a forecast request is at most this many bytes (a running combat's stored
/// state, itself at most 4 MiB, is most of a large one).
pub const MAX_FORECAST_JSON: usize = 6 << 20;

/// How many actions an ability takes ("Light attack (1 action)", "Heavy Attack (2 actions)"); a
/// free action and an interrupt are not played (see docs/rules.md, "The encounter forecast").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
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

impl Actions {
    /// The actions of a turn it takes, when it is played.
    pub fn cost(self) -> Option<u8> {
        match self {
            Actions::One => Some(1),
            Actions::Two => Some(2),
            Actions::Free | Actions::Interrupt => None,
        }
    }
}

/// An attack's roll data and rule options (an ability's `system.roll` and `system.attack`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AttackSpec {
    #[serde(default)]
    pub boons: u32,
    #[serde(default)]
    pub curses: u32,
    /// Damage dice on a hit ([D] each).
    #[serde(default = "one")]
    pub dice: u32,
    #[serde(default)]
    pub bonus_dice: u32,
    #[serde(default = "yes")]
    pub fray_on_miss: bool,
    #[serde(default)]
    pub pierce: bool,
    #[serde(default)]
    pub divine: bool,
    /// Its targets save for half damage.
    #[serde(default)]
    pub save_for_half: bool,
    #[serde(default)]
    pub true_strike: bool,
    #[serde(default)]
    pub auto_hit: bool,
    #[serde(default)]
    pub crit_again: bool,
    /// Its damage cannot bring HP below 1.
    #[serde(default)]
    pub floor: bool,
}

/// The save an ability calls for (10+ succeeds), with its boons and curses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SaveSpec {
    #[serde(default)]
    pub boons: u32,
    #[serde(default)]
    pub curses: u32,
}

/// How long a status a part inflicts lasts (the ability sheet's choice): until saved against,
/// ongoing (while its inflicter stands, here), to the end of the bearer's next turn, or until
/// cured (a blight).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Duration {
    #[default]
    Save,
    Ongoing,
    Turn,
    Cure,
}

/// One part of an ability: the core's `icon.ability` part (its mark is not played: a mark's
/// effect is the ability's own text), with how long its status lasts.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PartSpec {
    pub trigger: Trigger,
    #[serde(default)]
    pub gamble: Option<u8>,
    #[serde(default)]
    pub to: To,
    #[serde(default)]
    pub status: String,
    #[serde(default)]
    pub duration: Duration,
}

impl PartSpec {
    /// The core's part (no mark).
    pub fn part(&self) -> Part {
        Part {
            trigger: self.trigger,
            gamble: self.gamble,
            to: self.to,
            status: self.status.clone(),
            mark: false,
        }
    }
}

/// Charges: `max` 0 is unlimited; `recharge` as the ability sheet says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Charges {
    #[serde(default)]
    pub value: u32,
    #[serde(default)]
    pub max: u32,
    #[serde(default)]
    pub recharge: Recharge,
}

/// When spent charges come back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Recharge {
    #[default]
    #[serde(rename = "")]
    Never,
    Turn,
    Round,
    Combat,
    Rest,
}

/// Once per turn, round or combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Limit {
    #[serde(default)]
    pub per: Per,
    #[serde(default)]
    pub used: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Per {
    #[default]
    #[serde(rename = "")]
    Unlimited,
    Turn,
    Round,
    Combat,
}

/// An ability's tags (the core's own) that change how the forecast plays it.
pub use crate::rulesets::icon::ability::Tag;

/// An ability as the forecast plays it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AbilitySpec {
    /// Shown nowhere by the core; the module names the ability by its index.
    #[serde(default)]
    pub name: String,
    pub actions: Actions,
    #[serde(default, deserialize_with = "tags")]
    pub tags: Vec<Tag>,
    /// Its attack, when it makes one (the Attack tag).
    #[serde(default)]
    pub attack: Option<AttackSpec>,
    /// The save it calls for, when it does.
    #[serde(default)]
    pub save: Option<SaveSpec>,
    /// It has an area (or the Area tag): it catches `areaTargets` foes, and its damage is an
    /// area effect's (Dodge).
    #[serde(default)]
    pub area: bool,
    #[serde(default, deserialize_with = "parts")]
    pub parts: Vec<PartSpec>,
    #[serde(default)]
    pub charges: Charges,
    #[serde(default)]
    pub limit: Limit,
    /// A limit break's cost in resolve.
    #[serde(default)]
    pub resolve_cost: u32,
}

impl AbilitySpec {
    pub fn has(&self, tag: Tag) -> bool {
        self.tags.contains(&tag)
    }
    /// Light attack: "Make an attack roll. On hit: [D] + fray, Miss: fray" (1 action).
    pub fn light() -> Self {
        Self::basic("light", Actions::One, 1)
    }
    /// Heavy Attack: "On hit: 2[D] + fray, Miss: fray" (2 actions).
    pub fn heavy() -> Self {
        Self::basic("heavy", Actions::Two, 2)
    }
    fn basic(name: &str, actions: Actions, dice: u32) -> Self {
        Self {
            name: name.into(),
            actions,
            tags: vec![Tag::Attack],
            attack: Some(AttackSpec {
                boons: 0,
                curses: 0,
                dice,
                bonus_dice: 0,
                fray_on_miss: true,
                pierce: false,
                divine: false,
                save_for_half: false,
                true_strike: false,
                auto_hit: false,
                crit_again: false,
                floor: false,
            }),
            save: None,
            area: false,
            parts: Vec::new(),
            charges: Charges::default(),
            limit: Limit::default(),
            resolve_cost: 0,
        }
    }
}

/// A fighter: a combatant with what the rules need of its actor.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Fighter {
    /// The combatant's id in the running combat (or any unique id in a planned fight).
    pub id: String,
    pub side: Side,
    #[serde(default)]
    pub is_player_character: bool,
    #[serde(default)]
    pub template: Option<Template>,
    #[serde(default)]
    pub can_slow: bool,
    pub hp: i64,
    pub max_hp: i64,
    #[serde(default)]
    pub vigor: i64,
    #[serde(default)]
    pub armor: i64,
    #[serde(default)]
    pub wounds: u32,
    /// Personal resolve (a player character's).
    #[serde(default)]
    pub resolve: u32,
    /// Core status ids (`+` for ongoing ones and blights), as `iconEffectiveStatuses` takes them.
    #[serde(default, deserialize_with = "status_list")]
    pub statuses: Vec<String>,
    /// The statuses that end with the bearer's next turn.
    #[serde(default, deserialize_with = "status_list")]
    pub ends_at_turn_end: Vec<String>,
    pub defense: i64,
    /// The damage die [D].
    pub die: u32,
    pub fray: i64,
    /// A foe "cannot land critical hits unless noted otherwise".
    #[serde(default = "yes")]
    pub can_crit: bool,
    /// Light and Heavy Attack, which every character has.
    #[serde(default = "yes")]
    pub basic_attacks: bool,
    #[serde(default, deserialize_with = "abilities")]
    pub abilities: Vec<AbilitySpec>,
}

/// What a side's fighters do on their turns (docs/rules.md, "The encounter forecast").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Policy {
    /// The ability with the best expected damage this turn, against the foe it can take down
    /// soonest.
    #[default]
    Focus,
    /// The ability with the best expected damage this turn, against the foe that threatens the
    /// most damage a round.
    Threat,
    /// As `focus`, but a player character first rescues a defeated ally.
    Rescue,
    /// Any usable ability against any foe, at random.
    Random,
}

impl Policy {
    pub const ALL: [Policy; 4] = [
        Policy::Focus,
        Policy::Threat,
        Policy::Rescue,
        Policy::Random,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Policy::Focus => "focus",
            Policy::Threat => "threat",
            Policy::Rescue => "rescue",
            Policy::Random => "random",
        }
    }
}

/// Each side's policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Policies {
    #[serde(default)]
    pub party: Policy,
    #[serde(default)]
    pub foes: Policy,
}

impl Policies {
    pub fn of(&self, side: Side) -> Policy {
        match side {
            Side::Party => self.party,
            Side::Foes => self.foes,
        }
    }
}

/// How the forecast is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Options {
    /// Fights to play.
    #[serde(default = "default_fights")]
    pub fights: u32,
    /// The forecast's seed (fight `i` plays from `fight_seed(seed, i)`); none: a fresh one.
    #[serde(default)]
    pub seed: Option<u64>,
    #[serde(default)]
    pub policy: Policies,
    /// Foes an area ability catches.
    #[serde(default = "default_area_targets")]
    pub area_targets: u32,
    /// Rounds a fight is played for before it counts as unfinished.
    #[serde(default = "default_max_rounds")]
    pub max_rounds: u32,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            fights: default_fights(),
            seed: None,
            policy: Policies::default(),
            area_targets: default_area_targets(),
            max_rounds: default_max_rounds(),
        }
    }
}

fn default_fights() -> u32 {
    2000
}
fn default_area_targets() -> u32 {
    2
}
fn default_max_rounds() -> u32 {
    20
}

/// A forecast request: the fighters, the running combat's stored state (its JSON text, as the
/// Combat keeps it in `system.state`) or none for a planned fight, and the options.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Request {
    #[serde(deserialize_with = "fighters")]
    pub fighters: Vec<Fighter>,
    #[serde(default)]
    pub combat: Option<String>,
    #[serde(default)]
    pub options: Options,
}

fn one() -> u32 {
    1
}
fn yes() -> bool {
    true
}

fn fighters<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<Fighter>, D::Error> {
    at_most(d, MAX_FIGHTERS, "a forecast takes", "fighters")
}
fn abilities<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<AbilitySpec>, D::Error> {
    at_most(d, MAX_ABILITIES, "a forecast takes", "abilities a fighter")
}
fn parts<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<PartSpec>, D::Error> {
    at_most(d, MAX_PARTS, "a forecast takes", "parts an ability")
}
fn tags<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<Tag>, D::Error> {
    at_most(d, 16, "a forecast takes", "tags an ability")
}
