//! The rolls a forecast makes, each the request the table makes (`icon.attack`, `icon.damage`,
//! `icon.save`, a Gamble's `1d6`), prepared once per distinct request and rolled from the fight's
//! ChaCha20 stream by the core's own `roll` (its plan, faces by rejection sampling, resolution):
//! a fight's faces replay through `resolve` to the same outcomes (tests/forecast.rs,
//! test/node/forecast.test.mjs).

use crate::dice::rng::DiceRng;
use crate::error::Result;
use crate::request::{odds_parts, roll_detail, Detail, OddsParts, Prepared, Request, Scratch};
use crate::rulesets::icon::tactical::{AttackOutcome, AttackResult};
use crate::rulesets::icon::{Attack, Damage, Save};
/// Keys are a few small numbers: Fx hashes them in a few instructions (SipHash was a few percent
/// of a forecast's time).
type HashMap<K, V> = std::collections::HashMap<K, V, rustc_hash::FxBuildHasher>;
use std::rc::Rc;

/// A roll's outcome: its total and the kind's detail, and the faces it drew.
#[derive(Debug, Clone)]
pub struct Rolled {
    pub total: i64,
    pub detail: Detail,
}

/// Distinct requests, prepared once each, with their scratch space.
#[derive(Debug, Default)]
pub struct Roller {
    slots: Vec<(Prepared, Scratch)>,
    attacks: HashMap<AttackKey, usize>,
    damages: HashMap<DamageKey, usize>,
    saves: HashMap<(u32, u32), usize>,
    gamble: Option<usize>,
    odds: HashMap<usize, Rc<OddsParts>>,
}

/// An `icon.attack` request's fields.
type AttackKey = (u32, u32, i64, bool, bool, bool, bool);
/// An `icon.damage` request's fields (the result as 0 hit, 1 crit, 2 miss).
type DamageKey = (u8, u32, u32, i64, u32, bool);

fn attack_key(a: &Attack) -> AttackKey {
    (
        a.boons,
        a.curses,
        a.defense.unwrap_or(-1),
        a.can_crit,
        a.true_strike,
        a.auto_hit,
        a.evasion,
    )
}

fn damage_key(d: &Damage) -> DamageKey {
    let result = match d.result {
        AttackResult::Hit => 0,
        AttackResult::Crit => 1,
        AttackResult::Miss => 2,
    };
    (result, d.die, d.dice, d.fray, d.bonus_dice, d.crit_again)
}

impl Roller {
    fn slot(&mut self, request: Request) -> Result<usize> {
        let prepared = Prepared::new(&request)?;
        let scratch = Scratch::new(&prepared)?;
        self.slots.push((prepared, scratch));
        Ok(self.slots.len() - 1)
    }

    /// The slot of an attack request (prepared the first time it is asked for).
    pub fn attack(&mut self, a: &Attack) -> Result<usize> {
        let key = attack_key(a);
        if let Some(&i) = self.attacks.get(&key) {
            return Ok(i);
        }
        let i = self.slot(Request::IconAttack(a.clone()))?;
        self.attacks.insert(key, i);
        Ok(i)
    }

    pub fn damage(&mut self, d: &Damage) -> Result<usize> {
        let key = damage_key(d);
        if let Some(&i) = self.damages.get(&key) {
            return Ok(i);
        }
        let i = self.slot(Request::IconDamage(d.clone()))?;
        self.damages.insert(key, i);
        Ok(i)
    }

    pub fn save(&mut self, s: &Save) -> Result<usize> {
        let key = (s.boons, s.curses);
        if let Some(&i) = self.saves.get(&key) {
            return Ok(i);
        }
        let i = self.slot(Request::IconSave(s.clone()))?;
        self.saves.insert(key, i);
        Ok(i)
    }

    /// "Gamble: Roll 1d6, then trigger an effect on a certain result or higher."
    pub fn gamble(&mut self) -> Result<usize> {
        if let Some(i) = self.gamble {
            return Ok(i);
        }
        let i = self.slot(Request::Dice {
            formula: GAMBLE_FORMULA.into(),
        })?;
        self.gamble = Some(i);
        Ok(i)
    }

    /// Rolls the request in `slot` from `rng`, as `roll` does.
    pub fn roll(&mut self, slot: usize, rng: &mut DiceRng) -> Result<Rolled> {
        let (prepared, scratch) = &mut self.slots[slot];
        let (total, detail) = roll_detail(prepared, rng, scratch)?;
        Ok(Rolled { total, detail })
    }

    /// The faces the last roll of `slot` drew.
    pub fn faces(&self, slot: usize) -> &[Vec<i64>] {
        &self.slots[slot].1.faces
    }

    /// The request in `slot`.
    pub fn request(&self, slot: usize) -> &Request {
        self.slots[slot].0.request()
    }

    /// The exact odds of the request in `slot` (the distribution of its total and its labelled
    /// outcomes), computed once.
    pub fn odds(&mut self, slot: usize) -> Result<Rc<OddsParts>> {
        if let Some(odds) = self.odds.get(&slot) {
            return Ok(odds.clone());
        }
        let odds = Rc::new(odds_parts(&self.slots[slot].0)?);
        self.odds.insert(slot, odds.clone());
        Ok(odds)
    }
}

/// The Gamble d6 as the card rolls it.
pub const GAMBLE_FORMULA: &str = "1d6[gamble]";

/// How an attack landed, as the attack dialog reads the core's outcome (`attackResult` in
/// module/dice/tactical-requests.mjs): a miss when evaded or short of the defense, a crit when
/// the core says so.
pub fn attack_result(outcome: &AttackOutcome) -> AttackResult {
    if outcome.evaded || outcome.hit == Some(false) {
        AttackResult::Miss
    } else if outcome.crit {
        AttackResult::Crit
    } else {
        AttackResult::Hit
    }
}
