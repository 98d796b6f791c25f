//! Narrative play rolls ("Rules Reference (Narrative Play)": Action Rolls, Fortune Rolls, Risk and
//! Effect, Tempting Fate, Strain, Effort, Breaking, and Burdens).
//!
//! Roll d6s equal to the dots in the action; boons (+1 die) and curses (−1 die) change the pool
//! "by up to +2 or −2 total"; pick the highest. With 0 dice, roll 2d6 and pick the lowest.
//! 1–3 fail, 4–5 partial, 6 success, two 6s a critical.

use crate::dice::odds::num::{Num, Ratio};
use crate::dice::odds::Distribution;
use crate::dice::resolve::Evaluation;
use crate::error::{Error, Result};
use crate::rulesets::{check_range, term, DiceRule, Prob};
use serde::{Deserialize, Serialize};

/// The most dots an action can have.
pub const MAX_RATING: u32 = 4;
/// Net boons and curses change an action roll's pool by at most this much.
pub const MAX_SHIFT: i64 = 2;

/// How dangerous the consequences of an action are; strain taken on a fail or partial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Risk {
    Controlled,
    #[default]
    Risky,
    Desperate,
}

impl Risk {
    /// Strain on a fail or partial, and the price of resisting a consequence: 1, 2 or 4.
    pub fn strain(self) -> u32 {
        match self {
            Risk::Controlled => 1,
            Risk::Risky => 2,
            Risk::Desperate => 4,
        }
    }
}

/// How much a success achieves: clock segments filled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Effect {
    None,
    Weak,
    #[default]
    Normal,
    Powerful,
    Superpowered,
}

impl Effect {
    /// No effect 0, weak 1, normal 2, powerful 3, superpowered 5 segments.
    pub fn segments(self) -> u32 {
        match self {
            Effect::None => 0,
            Effect::Weak => 1,
            Effect::Normal => 2,
            Effect::Powerful => 3,
            Effect::Superpowered => 5,
        }
    }
    /// One step up ("Critical: successful and has increased effect"); superpowered is the top.
    pub fn raised(self) -> Self {
        match self {
            Effect::None => Effect::Weak,
            Effect::Weak => Effect::Normal,
            Effect::Normal => Effect::Powerful,
            Effect::Powerful | Effect::Superpowered => Effect::Superpowered,
        }
    }
}

/// An action or fortune roll's reading of its dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    Low,
    Middle,
    High,
    Top,
}

/// The dice of an action or fortune roll with `pool` dice.
fn pool_formula(pool: u32) -> String {
    if pool == 0 {
        "2d6kl1[action]".to_string()
    } else {
        format!("{pool}d6kh1[action]")
    }
}

/// The counted die and whether two or more 6s came up (impossible with 0 dice).
fn read(pool: u32, eval: &Evaluation) -> (i64, Vec<i64>, bool) {
    let dice: Vec<i64> = term(eval, "action")
        .map(|t| t.results.iter().map(|r| r.value).collect())
        .unwrap_or_default();
    let sixes = dice.iter().filter(|v| **v == 6).count();
    (eval.total, dice, pool > 0 && sixes >= 2)
}

fn tier(counted: i64, critical: bool) -> Tier {
    match counted {
        _ if critical => Tier::Top,
        6 => Tier::High,
        4 | 5 => Tier::Middle,
        _ => Tier::Low,
    }
}

/// P(1–3), P(4–5), P(a single counted 6), P(two or more 6s) for a pool.
fn tier_odds(pool: u32, dist: &Distribution) -> [Prob; 4] {
    let low = Prob::of(dist, |t| t <= 3);
    let middle = Prob::of(dist, |t| (4..=5).contains(&t));
    let six = Prob::of(dist, |t| t == 6);
    // P(at least two 6s among n) = 1 − (5/6)^n − n·(1/6)·(5/6)^(n−1); none with the 0-dice roll
    let n = pool;
    let crit_f = if n == 0 {
        0.0
    } else {
        1.0 - (5.0f64 / 6.0).powi(n as i32) - f64::from(n) / 6.0 * (5.0f64 / 6.0).powi(n as i32 - 1)
    };
    let crit_exact = if n == 0 {
        Some(Ratio::zero())
    } else {
        (|| {
            let five = Ratio::ratio(5, 6)?;
            let mut none = Ratio::one();
            for _ in 0..n - 1 {
                none = none.mul(five)?;
            }
            let one_six = none.mul(Ratio::ratio(u64::from(n), 6)?)?;
            let none = none.mul(five)?;
            Ratio::one().sub(none)?.sub(one_six)
        })()
    };
    let top = Prob::closed(crit_f, crit_exact.filter(|_| six.exact.is_some()));
    let high = Prob::closed(
        six.p - crit_f,
        six.exact.zip(top.exact).and_then(|(s, c)| s.sub(c)),
    );
    [low, middle, high, top]
}

/// `icon.action`: an action roll from an action's dots.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Action {
    pub rating: u32,
    #[serde(default)]
    pub boons: u32,
    #[serde(default)]
    pub curses: u32,
    /// Burden ticks on this action: each is −1d.
    #[serde(default)]
    pub burden_ticks: u32,
    /// Push: spend 1 effort for +1 boon.
    #[serde(default)]
    pub push: bool,
    /// Allies aiding: each spends 1 effort to grant +1 boon.
    #[serde(default)]
    pub aid: u32,
    /// Tempting fate: +1 die "as if you had pushed", the suggested consequence becomes true.
    #[serde(default)]
    pub tempt_fate: bool,
    /// A broken character "must spend 1 effort to take any action" (Breaking).
    #[serde(default)]
    pub broken: bool,
    /// A nearby character pays the broken character's 1 effort: "Nearby characters can also
    /// spend effort for you."
    #[serde(default)]
    pub broken_paid_by_ally: bool,
    /// The effort the roller has, when the caller tracks it: the roll is refused when its own
    /// share costs more, and the outcome says what is left (`effortLeft`).
    #[serde(default)]
    pub effort_pool: Option<u32>,
    #[serde(default)]
    pub risk: Risk,
    #[serde(default)]
    pub effect: Effect,
}

/// Checks an action's dots, burden ticks, boons and curses.
fn check_dice(rating: u32, burden_ticks: u32, boons: u32, curses: u32) -> Result<()> {
    check_range("rating", i64::from(rating), 0, i64::from(MAX_RATING))?;
    // "This can be done up to twice per action" (Burdens).
    check_range(
        "burdenTicks",
        i64::from(burden_ticks),
        0,
        super::strain::MAX_TICKS as i64,
    )?;
    check_range("boons", i64::from(boons), 0, 20)?;
    check_range("curses", i64::from(curses), 0, 20)?;
    Ok(())
}

/// Net boons (minus curses) clamped to the ±2 the seed allows.
fn shift(net: i64) -> i64 {
    net.clamp(-MAX_SHIFT, MAX_SHIFT)
}

/// Dice rolled: dots − burden ticks + the clamped net boons, at least 0.
fn dice_pool(rating: u32, burden_ticks: u32, net: i64) -> u32 {
    (i64::from(rating) - i64::from(burden_ticks) + shift(net)).max(0) as u32
}

/// The effort an action roll costs, and who pays it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paid {
    /// What the roller pays: 1 for a push, 1 to act while broken (unless an ally pays it).
    pub roller: u32,
    /// What the aiding allies (and an ally paying for a broken character) pay.
    pub helpers: u32,
}

impl Paid {
    pub fn total(self) -> u32 {
        self.roller + self.helpers
    }
}

impl Action {
    fn free_net(&self) -> i64 {
        // Tempting fate gives its die "without spending any effort".
        i64::from(self.boons) + i64::from(self.tempt_fate) - i64::from(self.curses)
    }

    /// Dice rolled: rating − burden ticks + (boons − curses clamped to ±2), at least 0.
    pub fn pool(&self) -> Result<u32> {
        check_dice(self.rating, self.burden_ticks, self.boons, self.curses)?;
        check_range("aid", i64::from(self.aid), 0, 20)?;
        if self.broken_paid_by_ally && !self.broken {
            return Err(Error::request(
                "brokenPaidByAlly is for a broken character's effort: send broken true",
            ));
        }
        let paid = self.paid();
        if let Some(pool) = self.effort_pool {
            check_range("effortPool", i64::from(pool), 0, 1000)?;
            if paid.roller > pool {
                return Err(Error::request(format!(
                    "not enough effort: this roll costs the character {}, and it has {pool}",
                    paid.roller
                )));
            }
        }
        let net = self.free_net() + i64::from(self.push) + i64::from(self.aid);
        Ok(dice_pool(self.rating, self.burden_ticks, net))
    }

    /// The effort the roll costs. "When you push yourself during your action roll, you spend 1
    /// effort to gain +1 boon on your roll"; "When you aid an ally during their action roll, you
    /// spend 1 effort to grant them +1 boon": every push and aid asked for is paid, whether or
    /// not the ±2 cap lets its boon change the dice (the cap limits the dice, not the spending).
    /// Acting while broken costs 1 more.
    pub fn paid(&self) -> Paid {
        let broken = u32::from(self.broken);
        let (own_broken, ally_broken) = if self.broken_paid_by_ally {
            (0, broken)
        } else {
            (broken, 0)
        };
        Paid {
            roller: u32::from(self.push) + own_broken,
            helpers: self.aid + ally_broken,
        }
    }
}

/// `fail` / `partial` / `success` / `critical`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ActionResult {
    Fail,
    Partial,
    Success,
    Critical,
}

/// What an action roll came to and its consequences.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActionOutcome {
    pub pool: u32,
    pub dice: Vec<i64>,
    pub result: ActionResult,
    /// Strain to take (on a fail or partial, by risk).
    pub strain: u32,
    /// The effect after a critical's raise.
    pub effect: Effect,
    /// Clock segments (on a partial, success or critical, by effect).
    pub segments: u32,
    /// Effort spent: 1 for a push, 1 per aiding ally (paid by the helpers) and 1 to act while
    /// broken.
    pub effort: u32,
    /// The part of `effort` the aiding allies (and an ally paying for a broken character) pay.
    pub effort_helpers: u32,
    /// The roller's effort after paying its share, when `effortPool` was given.
    pub effort_left: Option<u32>,
}

impl DiceRule for Action {
    type Outcome = ActionOutcome;
    fn formula(&self) -> Result<String> {
        Ok(pool_formula(self.pool()?))
    }
    fn outcome(&self, eval: &Evaluation) -> Result<ActionOutcome> {
        let pool = self.pool()?;
        let (counted, dice, critical) = read(pool, eval);
        let result = match tier(counted, critical) {
            Tier::Low => ActionResult::Fail,
            Tier::Middle => ActionResult::Partial,
            Tier::High => ActionResult::Success,
            Tier::Top => ActionResult::Critical,
        };
        let effect = if result == ActionResult::Critical {
            self.effect.raised()
        } else {
            self.effect
        };
        Ok(ActionOutcome {
            pool,
            dice,
            result,
            strain: match result {
                ActionResult::Fail | ActionResult::Partial => self.risk.strain(),
                _ => 0,
            },
            effect,
            segments: match result {
                ActionResult::Fail => 0,
                _ => effect.segments(),
            },
            effort: self.paid().total(),
            effort_helpers: self.paid().helpers,
            effort_left: self
                .effort_pool
                .map(|p| p.saturating_sub(self.paid().roller)),
        })
    }
    fn outcomes(&self, dist: &Distribution) -> Result<Vec<(&'static str, Prob)>> {
        let [low, middle, high, top] = tier_odds(self.pool()?, dist);
        Ok(vec![
            ("fail", low),
            ("partial", middle),
            ("success", high),
            ("critical", top),
        ])
    }
}

/// `icon.fortune`: "the same as a regular action roll, except the table of outcomes is
/// different", read as poor / average / good / excellent. A character's fortune roll takes the
/// action's `rating` (with its boons, curses and burden ticks, as an action roll); `dice` is a
/// pool given outright (a roll no character's action backs). Exactly one of the two.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Fortune {
    #[serde(default)]
    pub dice: Option<u32>,
    /// The dots of the action rolled ("making a fortune roll using the most appropriate action").
    #[serde(default)]
    pub rating: Option<u32>,
    #[serde(default)]
    pub boons: u32,
    #[serde(default)]
    pub curses: u32,
    #[serde(default)]
    pub burden_ticks: u32,
}

impl Fortune {
    /// The dice rolled: `dice` as given, or the action's pool from `rating`.
    pub fn pool(&self) -> Result<u32> {
        match (self.dice, self.rating) {
            (Some(dice), None) => {
                if self.boons + self.curses + self.burden_ticks > 0 {
                    return Err(Error::request(
                        "boons, curses and burdenTicks go with rating, not with dice",
                    ));
                }
                check_range("dice", i64::from(dice), 0, 20)?;
                Ok(dice)
            }
            (None, Some(rating)) => {
                check_dice(rating, self.burden_ticks, self.boons, self.curses)?;
                let net = i64::from(self.boons) - i64::from(self.curses);
                Ok(dice_pool(rating, self.burden_ticks, net))
            }
            _ => Err(Error::request(
                "a fortune roll takes either rating (an action's dots) or dice, not both or neither",
            )),
        }
    }
}

/// `poor` / `average` / `good` / `excellent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FortuneResult {
    Poor,
    Average,
    Good,
    Excellent,
}

/// What a fortune roll came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FortuneOutcome {
    pub pool: u32,
    pub dice: Vec<i64>,
    pub result: FortuneResult,
}

impl DiceRule for Fortune {
    type Outcome = FortuneOutcome;
    fn formula(&self) -> Result<String> {
        Ok(pool_formula(self.pool()?))
    }
    fn outcome(&self, eval: &Evaluation) -> Result<FortuneOutcome> {
        let pool = self.pool()?;
        let (counted, dice, critical) = read(pool, eval);
        Ok(FortuneOutcome {
            pool,
            dice,
            result: match tier(counted, critical) {
                Tier::Low => FortuneResult::Poor,
                Tier::Middle => FortuneResult::Average,
                Tier::High => FortuneResult::Good,
                Tier::Top => FortuneResult::Excellent,
            },
        })
    }
    fn outcomes(&self, dist: &Distribution) -> Result<Vec<(&'static str, Prob)>> {
        let [low, middle, high, top] = tier_odds(self.pool()?, dist);
        Ok(vec![
            ("poor", low),
            ("average", middle),
            ("good", high),
            ("excellent", top),
        ])
    }
}
