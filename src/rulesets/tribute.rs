//! Tribute's FOCUS and BURDEN dice (seed `tribute-focus-burden-dice.txt`).
//!
//! Roll 1 white FOCUS die plus up to 5 more, and 1 black BURDEN die plus up to 5 more, all of the
//! campaign's reality-level size (d4 mundane … d12 over-the-top). Result = attribute rank + the
//! highest FOCUS − the highest BURDEN; higher than the opposition's result wins, equal matches,
//! lower fails. On a match or win, "any FOCUS dice other than the first one that meet or exceed
//! the highest BURDEN die are Profit", and "any BURDEN dice other than the first one that meet or
//! exceed the highest FOCUS die are Waste"; both happen when the highest dice are equal. Profit
//! can't raise an effect above rank 5, waste can't lower it below 0.

use crate::dice::odds::num::{binomial_coefficient, Num, Ratio};
use crate::dice::odds::{distribution, Distribution};
use crate::dice::parse;
use crate::dice::resolve::Evaluation;
use crate::error::{Error, Result};
use crate::rulesets::{check_range, kept, term, DiceRule, Prob};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The reality levels by die: "d4s- Mundane ... d12s- Over-the-top Reality Level".
pub const REALITY_LEVELS: [(u32, &str, &str); 5] = [
    (4, "mundane", "Mundane"),
    (6, "heroic", "Heroic"),
    (8, "pulpy", "Pulpy"),
    (10, "cinematic", "Cinematic"),
    (12, "overTheTop", "Over-the-top"),
];

/// Extra FOCUS or BURDEN dice: "up to 5 additional".
pub const MAX_EXTRA: u32 = 5;
/// Effect ranks run from 0 (non-existent) to 5 (total).
pub const MAX_EFFECT: i64 = 5;

/// An opposing side that rolls its own dice (same reality level).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Opponent {
    pub rank: i64,
    #[serde(default)]
    pub focus: u32,
    #[serde(default)]
    pub burden: u32,
}

/// The opposition's result: a number, or a side that rolls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Opposition {
    Fixed(i64),
    Roll(Opponent),
}

impl<'de> Deserialize<'de> for Opposition {
    /// A number or an object, read from its JSON value (serde's `untagged` would buffer it).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let expected = || {
            serde::de::Error::custom("expected a number or an opposing side {rank, focus, burden}")
        };
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::Number(n) => n.as_i64().map(Opposition::Fixed).ok_or_else(expected),
            side @ serde_json::Value::Object(_) => crate::decode::read::<Opponent>(&side)
                .map(Opposition::Roll)
                .map_err(|_| expected()),
            _ => Err(expected()),
        }
    }
}

/// `tribute.test`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Test {
    pub rank: i64,
    #[serde(default)]
    pub focus: u32,
    #[serde(default)]
    pub burden: u32,
    /// The reality level's die: 4, 6, 8, 10 or 12.
    pub die: u32,
    pub opposition: Opposition,
    /// The effect's rank before profit and waste, if the test delivers one.
    #[serde(default)]
    pub effect_rank: Option<i64>,
}

/// win / match / fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TestResult {
    Win,
    Match,
    Fail,
}

/// What a test came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TestOutcome {
    pub focus_dice: Vec<i64>,
    pub burden_dice: Vec<i64>,
    /// rank + highest FOCUS − highest BURDEN.
    pub value: i64,
    pub opposition: i64,
    pub result: TestResult,
    /// 0 on a fail ("Waste is irrelevant- nothing happens").
    pub profit: u32,
    pub waste: u32,
    /// The effect rank after profit and waste (0–5), on a match or win when one was given.
    pub effect_rank: Option<i64>,
}

/// Profit (or, with the sides swapped, waste): the dice of `mine` other than the counted highest
/// that meet or exceed the highest of `theirs`.
pub fn extra_dice(mine: &[i64], theirs: &[i64]) -> u32 {
    let (Some(&top), Some(&their_top)) = (mine.iter().max(), theirs.iter().max()) else {
        return 0;
    };
    let meeting = mine.iter().filter(|v| **v >= their_top).count() as u32;
    meeting.saturating_sub(u32::from(top >= their_top))
}

impl Test {
    fn check(&self) -> Result<()> {
        if ![4, 6, 8, 10, 12].contains(&self.die) {
            return Err(Error::request(format!(
                "the reality level's die must be 4, 6, 8, 10 or 12, not {}",
                self.die
            )));
        }
        check_range("rank", self.rank, -100, 100)?;
        check_range("focus", i64::from(self.focus), 0, i64::from(MAX_EXTRA))?;
        check_range("burden", i64::from(self.burden), 0, i64::from(MAX_EXTRA))?;
        if let Some(e) = self.effect_rank {
            check_range("effectRank", e, 0, MAX_EFFECT)?;
        }
        match &self.opposition {
            Opposition::Fixed(v) => {
                check_range("opposition", *v, -200, 200)?;
            }
            Opposition::Roll(o) => {
                check_range("opposition.rank", o.rank, -100, 100)?;
                check_range(
                    "opposition.focus",
                    i64::from(o.focus),
                    0,
                    i64::from(MAX_EXTRA),
                )?;
                check_range(
                    "opposition.burden",
                    i64::from(o.burden),
                    0,
                    i64::from(MAX_EXTRA),
                )?;
            }
        }
        Ok(())
    }

    fn side(rank: i64, focus: u32, burden: u32, die: u32, prefix: &str) -> String {
        let f = if prefix.is_empty() {
            "focus"
        } else {
            "oppFocus"
        };
        let b = if prefix.is_empty() {
            "burden"
        } else {
            "oppBurden"
        };
        format!(
            "{rank} + {}d{die}kh1[{f}] - {}d{die}kh1[{b}]",
            focus + 1,
            burden + 1
        )
    }

    /// The distribution of the opposition's result.
    fn opposition_dist(&self) -> Result<Distribution> {
        let formula = match &self.opposition {
            Opposition::Fixed(v) => v.to_string(),
            Opposition::Roll(o) => Self::side(o.rank, o.focus, o.burden, self.die, "opp"),
        };
        distribution(&parse(&formula)?)
    }

    /// The FOCUS×BURDEN rolls counted by margin and (profit, waste), computed combinatorially
    /// over the highest FOCUS `a` and highest BURDEN `b`: with `n` dice of `x` faces, the number
    /// of rolls whose highest is `a` and that have exactly `k` dice in `[t, a]` is
    /// `C(n, k)·((a−t+1)^k − (a−t)^k)·(t−1)^(n−k)`. The opposition only sees `a − b`, so the
    /// probabilities later take one multiplication per (`a − b`, cell), not one per roll class.
    fn rolls_by_margin(&self) -> Option<RollCounts> {
        let x = i64::from(self.die);
        let (nf, nb) = (self.focus + 1, self.burden + 1);
        let pow = |base: i64, e: u32| -> Option<u64> { u64::try_from(base).ok()?.checked_pow(e) };
        let choose: Vec<Vec<u64>> = (0..=nf.max(nb))
            .map(|n| {
                (0..=n)
                    .map(|k| u64::try_from(binomial_coefficient(n, k)?).ok())
                    .collect::<Option<Vec<u64>>>()
            })
            .collect::<Option<_>>()?;
        // rolls of n dice with highest a and exactly k (1..=n) of them in [t, a]
        let ways = |n: u32, a: i64, t: i64| -> Option<Vec<u64>> {
            (1..=n)
                .map(|k| {
                    let inside = pow(a - t + 1, k)?.checked_sub(pow(a - t, k)?)?;
                    choose[n as usize][k as usize]
                        .checked_mul(inside)?
                        .checked_mul(pow(t - 1, n - k)?)
                })
                .collect()
        };
        let cells = (nf * nb) as usize;
        let mut counts = vec![0u64; (2 * x - 1) as usize * cells];
        for a in 1..=x {
            for b in 1..=x {
                let row = (a - b + x - 1) as usize * cells;
                // the counted die is one of the k; the others are profit or waste
                let (wf, wb) = (ways(nf, a, b.min(a))?, ways(nb, b, a.min(b))?);
                for (kf, wf) in (1..=nf).zip(wf).filter(|(_, w)| *w != 0) {
                    for (kb, wb) in (1..=nb).zip(&wb).filter(|(_, w)| **w != 0) {
                        let profit = if a >= b { kf - 1 } else { 0 };
                        let waste = if b >= a { kb - 1 } else { 0 };
                        let slot = &mut counts[row + (profit * nb + waste) as usize];
                        *slot = slot.checked_add(wf.checked_mul(*wb)?)?;
                    }
                }
            }
        }
        Some(RollCounts {
            counts,
            burden_dice: nb,
            all: pow(x, nf)?.checked_mul(pow(x, nb)?)?,
        })
    }

    /// P(profit, waste) jointly, where both are 0 on a fail.
    fn profit_waste<N: Num>(
        &self,
        rolls: &RollCounts,
        opp: &[(i64, N)],
    ) -> Option<BTreeMap<(u32, u32), N>> {
        let x = i64::from(self.die);
        let nb = rolls.burden_dice;
        let cells = rolls.counts.len() / (2 * x - 1) as usize;
        // P(opposition ≤ v), from its ascending totals
        let mut at_most: Vec<(i64, N)> = Vec::with_capacity(opp.len());
        let mut run = N::zero();
        for (o, p) in opp {
            run = run.add(*p)?;
            at_most.push((*o, run));
        }
        let mut out: BTreeMap<(u32, u32), N> = BTreeMap::new();
        let mut add = |key: (u32, u32), p: N| -> Option<()> {
            let slot = out.entry(key).or_insert(N::zero());
            *slot = slot.add(p)?;
            Some(())
        };
        for (d, row) in (1 - x..x).zip(rolls.counts.chunks_exact(cells)) {
            // P(opposition ≤ our value): a match or a win
            let value = self.rank + d;
            let success = match at_most.partition_point(|(o, _)| *o <= value) {
                0 => N::zero(),
                i => at_most[i - 1].1,
            };
            let failure = N::one().sub(success)?;
            let mut all = 0u64;
            for (i, w) in row.iter().enumerate().filter(|(_, w)| **w != 0) {
                all += w;
                let key = (i as u32 / nb, i as u32 % nb);
                add(key, N::ratio(*w, rolls.all)?.mul(success)?)?;
            }
            if all != 0 {
                add((0, 0), N::ratio(all, rolls.all)?.mul(failure)?)?;
            }
        }
        Some(out)
    }

    /// The joint distribution of profit and waste, exactly when it fits.
    pub fn joint(&self) -> Result<Vec<ProfitWaste>> {
        self.check()?;
        let opp = self.opposition_dist()?;
        let rolls = self
            .rolls_by_margin()
            .ok_or_else(|| Error::odds("the profit and waste odds are out of range"))?;
        let floats = self
            .profit_waste::<f64>(&rolls, &opp.totals)
            .ok_or_else(|| Error::odds("the profit and waste odds are out of range"))?;
        let exact = opp
            .exact
            .as_ref()
            .and_then(|e| self.profit_waste::<Ratio>(&rolls, e));
        Ok(floats
            .into_iter()
            .filter(|(_, p)| *p > 0.0)
            .map(|((profit, waste), p)| ProfitWaste {
                profit,
                waste,
                p,
                exact: exact
                    .as_ref()
                    .and_then(|e| e.get(&(profit, waste)))
                    .map(|r| r.to_string()),
            })
            .collect())
    }
}

/// FOCUS×BURDEN rolls by margin `a − b` (rows from `1 − die`) and (profit, waste) cell
/// (`profit · burden_dice + waste`), out of `all`.
struct RollCounts {
    counts: Vec<u64>,
    burden_dice: u32,
    all: u64,
}

/// One cell of the joint distribution of profit and waste.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfitWaste {
    pub profit: u32,
    pub waste: u32,
    pub p: f64,
    pub exact: Option<String>,
}

impl DiceRule for Test {
    type Outcome = TestOutcome;
    /// The total is the margin: our result minus the opposition's. FOCUS dice are planned first,
    /// then BURDEN, then the opposition's.
    fn formula(&self) -> Result<String> {
        self.check()?;
        let mine = Self::side(self.rank, self.focus, self.burden, self.die, "");
        Ok(match &self.opposition {
            Opposition::Fixed(v) => format!("{mine} - ({v})"),
            Opposition::Roll(o) => format!(
                "{mine} - ({})",
                Self::side(o.rank, o.focus, o.burden, self.die, "opp")
            ),
        })
    }
    fn outcome(&self, eval: &Evaluation) -> Result<TestOutcome> {
        let all = |role: &str| -> Vec<i64> {
            term(eval, role)
                .map(|t| t.results.iter().map(|r| r.value).collect())
                .unwrap_or_default()
        };
        let (focus, burden) = (all("focus"), all("burden"));
        let top = |role: &str| kept(eval, role).first().copied().unwrap_or(0);
        let value = self.rank + top("focus") - top("burden");
        let result = match eval.total {
            m if m > 0 => TestResult::Win,
            0 => TestResult::Match,
            _ => TestResult::Fail,
        };
        let success = result != TestResult::Fail;
        let profit = if success {
            extra_dice(&focus, &burden)
        } else {
            0
        };
        let waste = if success {
            extra_dice(&burden, &focus)
        } else {
            0
        };
        Ok(TestOutcome {
            value,
            opposition: value - eval.total,
            result,
            profit,
            waste,
            effect_rank: self
                .effect_rank
                .filter(|_| success)
                .map(|e| (e + i64::from(profit) - i64::from(waste)).clamp(0, MAX_EFFECT)),
            focus_dice: focus,
            burden_dice: burden,
        })
    }
    fn outcomes(&self, dist: &Distribution) -> Result<Vec<(&'static str, Prob)>> {
        Ok(vec![
            ("win", Prob::of(dist, |m| m > 0)),
            ("match", Prob::of(dist, |m| m == 0)),
            ("fail", Prob::of(dist, |m| m < 0)),
        ])
    }
}
