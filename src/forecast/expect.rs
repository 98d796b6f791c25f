//! Expected damage, exactly: an ability's attack against a target, from the exact distribution
//! of the attack roll (`icon.attack`'s odds: hit, critical hit, Evasion) and of each result's
//! damage roll (`icon.damage`'s odds), each total through `icon.applyDamage` against the target
//! as the fight starts (its armor, resistance, vulnerability, Dodge, immunity), and a save for
//! half through `icon.save`'s odds. Nothing here is sampled. The policies rank their choices by
//! these figures, and the report's damage a round is their sum.

use super::dice::Roller;
use super::input::{AttackSpec, Fighter, SaveSpec};
use crate::combat::Side;
use crate::dice::odds::num::{Num, Ratio};
use crate::error::Result;
use crate::rulesets::icon::effects::affects;
use crate::rulesets::icon::health::{ApplyDamage, HpFloor, Source, Target};
use crate::rulesets::icon::tactical::AttackResult;
use crate::rulesets::icon::{Attack, Damage, Save};
use crate::rulesets::Prob;
use serde::Serialize;

/// A figure in floats and, while every step fits `u128` fractions, exactly.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Exact {
    pub value: f64,
    pub exact: Option<Ratio>,
}

impl Exact {
    pub const ZERO: Exact = Exact {
        value: 0.0,
        exact: Some(Ratio { num: 0, den: 1 }),
    };

    pub fn of(p: Prob) -> Exact {
        Exact {
            value: p.p,
            exact: p.exact,
        }
    }
    pub fn int(n: i64) -> Exact {
        Exact {
            value: n as f64,
            exact: u128::try_from(n).ok().and_then(|n| Ratio::ratio_u128(n, 1)),
        }
    }
    pub fn plus(self, o: Exact) -> Exact {
        Exact {
            value: self.value + o.value,
            exact: self.exact.zip(o.exact).and_then(|(a, b)| a.add(b)),
        }
    }
    pub fn times(self, o: Exact) -> Exact {
        Exact {
            value: self.value * o.value,
            exact: self.exact.zip(o.exact).and_then(|(a, b)| a.mul(b)),
        }
    }
    /// `1 - self` (a probability's complement; `None` exactly if it would be negative).
    pub fn complement(self) -> Exact {
        Exact {
            value: 1.0 - self.value,
            exact: self.exact.and_then(|e| Ratio::one().sub(e)),
        }
    }
    /// `self - o`, for probabilities where `o` is part of `self`.
    pub fn minus(self, o: Exact) -> Exact {
        Exact {
            value: self.value - o.value,
            exact: self.exact.zip(o.exact).and_then(|(a, b)| a.sub(b)),
        }
    }
    /// `self / n`.
    pub fn over(self, n: u64) -> Exact {
        let n = n.max(1);
        Exact {
            value: self.value / n as f64,
            exact: self
                .exact
                .and_then(|e| Ratio::ratio(1, n).and_then(|d| e.mul(d))),
        }
    }
    pub fn is_positive(self) -> bool {
        self.value > 0.0
    }
}

/// A figure as the report gives it: its value, and its exact fraction (`"n/d"`) when it is one.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Figure {
    pub value: f64,
    pub exact: Option<String>,
}

impl From<Exact> for Figure {
    fn from(e: Exact) -> Self {
        Figure {
            value: e.exact.map_or(e.value, |r| r.to_f64()),
            exact: e.exact.map(|r| r.to_string()),
        }
    }
}

/// What an attacker brings to an attack (its own numbers and the statuses that take effect on
/// it, Unstoppable considered).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attacker {
    pub side: Side,
    pub die: u32,
    pub fray: i64,
    pub can_crit: bool,
    pub dazed: bool,
    pub weakened: bool,
    pub pacified: bool,
    pub hatred: bool,
}

impl Attacker {
    pub fn of(f: &Fighter, statuses: &[String]) -> Self {
        Self {
            side: f.side,
            die: f.die,
            fray: f.fray,
            can_crit: f.can_crit,
            dazed: affects(statuses, "dazed"),
            weakened: affects(statuses, "weakened"),
            pacified: affects(statuses, "pacified"),
            hatred: affects(statuses, "hatred"),
        }
    }
}

/// The `icon.attack` request of `spec` by `by` against a target of `defense`, with Evasion or
/// not (the attack dialog's `attackRequest`: a dazed attacker's +1 curse; an auto-hit takes no
/// boons or curses; no height, cover or adjacency, which the forecast does not place).
pub fn attack_request(by: &Attacker, spec: &AttackSpec, defense: i64, evasion: bool) -> Attack {
    let (boons, curses) = if spec.auto_hit {
        (0, 0)
    } else {
        (spec.boons, spec.curses + u32::from(by.dazed))
    };
    Attack {
        boons,
        curses,
        bonus: 0,
        defense: Some(defense),
        can_crit: by.can_crit,
        true_strike: spec.true_strike,
        auto_hit: spec.auto_hit,
        evasion,
    }
}

/// The `icon.damage` request of a result (`damageRequest`), or `None` when a miss deals nothing.
pub fn damage_request(by: &Attacker, spec: &AttackSpec, result: AttackResult) -> Option<Damage> {
    if result == AttackResult::Miss && !spec.fray_on_miss {
        return None;
    }
    Some(Damage {
        result,
        die: by.die,
        dice: spec.dice,
        fray: by.fray,
        flat: 0,
        bonus_dice: spec.bonus_dice,
        crit_again: result == AttackResult::Crit && spec.crit_again,
    })
}

/// The `icon.save` request of an ability's save.
pub fn save_request(save: Option<SaveSpec>) -> Save {
    let s = save.unwrap_or(SaveSpec {
        boons: 0,
        curses: 0,
    });
    Save {
        boons: s.boons,
        curses: s.curses,
        bonus: 0,
        blessing: false,
    }
}

/// The `icon.applyDamage` request of an attack's damage into `target` (`damageOptions`, and
/// `savedOptions` when the target saved against a save-for-half attack). `hated`: the target is
/// the attacker's Hatred's foe X (full damage).
#[allow(clippy::too_many_arguments)]
pub fn apply_request(
    by: &Attacker,
    spec: &AttackSpec,
    result: AttackResult,
    area: bool,
    target: Target,
    target_side: Side,
    amount: i64,
    saved: bool,
    hated: bool,
) -> ApplyDamage {
    let source = if saved {
        Source::Save
    } else if area {
        Source::Area
    } else if result == AttackResult::Miss {
        Source::Miss
    } else {
        Source::Hit
    };
    ApplyDamage {
        target,
        amount,
        source,
        pierce: spec.pierce,
        divine: spec.divine,
        attacker_weakened: by.weakened,
        attacker_pacified: by.pacified,
        attacker_hatred: by.hatred && !hated,
        cover: false,
        from_foe: by.side != target_side,
        ability: true,
        saved_half: saved,
        vigilance: 0,
        floor: if spec.floor {
            HpFloor::One
        } else {
            HpFloor::Zero
        },
        true_strike: spec.true_strike,
        terrain_taken_this_turn: false,
    }
}

/// The target as the expectation sees it: its armor, statuses and kind, with HP enough that no
/// damage is cut short (the expected damage counts overkill) and no vigor (which takes damage as
/// HP does).
fn probe(t: &Fighter) -> Target {
    Target {
        hp: 100_000,
        max_hp: 100_000,
        vigor: 0,
        armor: t.armor,
        wounds: 0,
        is_player_character: t.is_player_character,
        statuses: t.statuses.clone(),
        resolve: None,
        defeated: false,
        fallen: false,
        bloodied: false,
    }
}

/// The exact expected damage `target` takes from one use of `spec` by `by` (see the module's
/// doc). `save` is the ability's save (a save-for-half attack's boons and curses).
pub fn expected(
    roller: &mut Roller,
    by: &Attacker,
    spec: &AttackSpec,
    save: Option<SaveSpec>,
    area: bool,
    target: &Fighter,
) -> Result<Exact> {
    let evasion = target
        .statuses
        .iter()
        .any(|s| s.trim_end_matches('+') == "evasion");
    let attack = attack_request(by, spec, target.defense, evasion);
    let slot = roller.attack(&attack)?;
    let odds = roller.odds(slot)?;
    let label = |name: &str| {
        odds.1
            .iter()
            .find(|(l, _)| *l == name)
            .map_or(Exact::ZERO, |(_, p)| Exact::of(*p))
    };
    let (hit, crit) = (label("hit"), label("crit"));
    let saved = if spec.save_for_half {
        let slot = roller.save(&save_request(save))?;
        let odds = roller.odds(slot)?;
        odds.1
            .iter()
            .find(|(l, _)| *l == "success")
            .map_or(Exact::ZERO, |(_, p)| Exact::of(*p))
    } else {
        Exact::ZERO
    };
    let mut sum = Exact::ZERO;
    for (result, p) in [
        (AttackResult::Hit, hit.minus(crit)),
        (AttackResult::Crit, crit),
        (AttackResult::Miss, hit.complement()),
    ] {
        if !p.is_positive() {
            continue;
        }
        let Some(damage) = damage_request(by, spec, result) else {
            continue;
        };
        let slot = roller.damage(&damage)?;
        let odds = roller.odds(slot)?;
        let dist = &odds.0;
        let mut given = Exact::ZERO;
        let totals: Vec<(i64, Exact)> = match &dist.exact {
            Some(e) => e
                .iter()
                .map(|(v, p)| {
                    (
                        *v,
                        Exact {
                            value: p.to_f64(),
                            exact: Some(*p),
                        },
                    )
                })
                .collect(),
            None => dist
                .totals
                .iter()
                .map(|(v, p)| {
                    (
                        *v,
                        Exact {
                            value: *p,
                            exact: None,
                        },
                    )
                })
                .collect(),
        };
        for (amount, pt) in totals {
            let taken = |saved_half: bool| -> Result<i64> {
                let request = apply_request(
                    by,
                    spec,
                    result,
                    area,
                    probe(target),
                    target.side,
                    amount.max(0),
                    saved_half,
                    false,
                );
                Ok(request.apply()?.0)
            };
            let mut each = Exact::int(taken(false)?);
            if spec.save_for_half {
                each = saved
                    .complement()
                    .times(each)
                    .plus(saved.times(Exact::int(taken(true)?)));
            }
            given = given.plus(pt.times(each));
        }
        sum = sum.plus(p.times(given));
    }
    Ok(sum)
}
