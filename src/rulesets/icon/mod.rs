//! ICON (Massif Press, playtest 1.5): the flagship ruleset. The seed `icon-rules-reference.db`
//! ("Rules Reference (Tactical Combat)" and "Rules Reference (Narrative Play)") is the spec.

pub mod ability;
pub mod boons;
pub mod effects;
pub mod health;
pub mod limit_break;
pub mod marks;
pub mod movement;
pub mod narrative;
pub mod sight;
pub mod situation;
pub mod strain;
pub mod tactical;
pub mod tokens;

pub use health::{ApplyDamage, Heal, HealOutcome, HealthOutcome, Target};
pub use narrative::{Action, ActionOutcome, Effect, Fortune, FortuneOutcome, Risk};
pub use tactical::{Attack, AttackOutcome, Damage, DamageOutcome, Save, SaveOutcome};
