//! What the fights came to, counted, and the report made of the counts: each sampled figure with
//! its 95% interval (Wilson's for a chance, the normal one for a mean, the delta method's for a
//! share), each exact figure as a fraction. A tally is plain data: the module plays a forecast in
//! batches (a progress bar between them), handing each batch the tally so far.

use super::expect::Figure;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// How a fight ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Outcome {
    /// Every foe defeated, a party fighter standing.
    Party,
    /// Every party fighter defeated, a foe standing.
    Foes,
    /// Neither, within the rounds played (or both sides fell at once).
    Unfinished,
}

/// One fighter's part in one fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FighterResult {
    /// Bloodied at some point (at the start included).
    pub bloodied: bool,
    /// Brought to 0 HP during the fight.
    pub defeated: bool,
    /// Fallen (four wounds) at the end.
    pub fallen: bool,
    /// Damage its abilities dealt its foes (vigor and HP they lost).
    pub dealt: i64,
}

/// One fight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FightResult {
    pub outcome: Outcome,
    /// The round it ended in (the last round played when unfinished).
    pub rounds: u32,
    pub fighters: Vec<FighterResult>,
}

/// A fighter's counts over the fights played.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FighterTally {
    pub bloodied: u32,
    pub defeated: u32,
    pub fallen: u32,
    /// Σ damage dealt, Σ its squares, Σ its products with its side's damage that fight.
    pub dealt: f64,
    pub dealt2: f64,
    pub dealt_side: f64,
}

/// The counts of the fights played so far.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Tally {
    /// The seed of fight 0.
    pub seed: u64,
    /// Fights played: the next batch starts with fight `played`.
    pub played: u32,
    pub party: u32,
    pub foes: u32,
    pub unfinished: u32,
    /// Fights won by either side, by the round they ended in (`[0]` is round 1).
    pub rounds: Vec<u32>,
    pub fighters: Vec<FighterTally>,
    /// Σ each side's damage a fight (party, foes), and Σ its squares.
    pub side_dealt: [f64; 2],
    pub side_dealt2: [f64; 2],
}

impl Tally {
    pub fn new(seed: u64, fighters: usize) -> Self {
        Self {
            seed,
            played: 0,
            party: 0,
            foes: 0,
            unfinished: 0,
            rounds: Vec::new(),
            fighters: vec![FighterTally::default(); fighters],
            side_dealt: [0.0; 2],
            side_dealt2: [0.0; 2],
        }
    }

    /// Refuses a tally that is not this forecast's (another fighter count, counts that do not
    /// add up, more rounds than are played).
    pub fn check(&self, fighters: usize, max_rounds: u32, max_fights: u32) -> Result<()> {
        let bad = |why: &str| Err(Error::request(format!("invalid forecast tally: {why}")));
        if self.fighters.len() != fighters {
            return bad(&format!(
                "it counts {} fighters, the forecast has {fighters}",
                self.fighters.len()
            ));
        }
        if self.played > max_fights {
            return bad(&format!(
                "{} fights played, more than the {max_fights} asked",
                self.played
            ));
        }
        let ended = u64::from(self.party) + u64::from(self.foes) + u64::from(self.unfinished);
        let by_round: u64 = self.rounds.iter().map(|&n| u64::from(n)).sum();
        if ended != u64::from(self.played)
            || by_round != u64::from(self.party) + u64::from(self.foes)
        {
            return bad("its counts do not add up to the fights played");
        }
        if self.rounds.len() > max_rounds as usize {
            return bad("it counts more rounds than are played");
        }
        if self
            .fighters
            .iter()
            .any(|f| f.bloodied > self.played || f.defeated > self.played || f.fallen > self.played)
        {
            return bad("a fighter is counted in more fights than were played");
        }
        Ok(())
    }

    /// Adds one fight; `sides[i]` is fighter `i`'s side (0 party, 1 foes).
    pub fn add(&mut self, fight: &FightResult, sides: &[usize]) {
        self.played += 1;
        match fight.outcome {
            Outcome::Party => self.party += 1,
            Outcome::Foes => self.foes += 1,
            Outcome::Unfinished => self.unfinished += 1,
        }
        if fight.outcome != Outcome::Unfinished {
            let r = fight.rounds.max(1) as usize;
            if self.rounds.len() < r {
                self.rounds.resize(r, 0);
            }
            self.rounds[r - 1] += 1;
        }
        let mut side = [0.0f64; 2];
        for (f, s) in fight.fighters.iter().zip(sides) {
            side[*s] += f.dealt as f64;
        }
        for ((f, t), s) in fight.fighters.iter().zip(&mut self.fighters).zip(sides) {
            t.bloodied += u32::from(f.bloodied);
            t.defeated += u32::from(f.defeated);
            t.fallen += u32::from(f.fallen);
            let x = f.dealt as f64;
            t.dealt += x;
            t.dealt2 += x * x;
            t.dealt_side += x * side[*s];
        }
        for ((sum, sum2), x) in self
            .side_dealt
            .iter_mut()
            .zip(&mut self.side_dealt2)
            .zip(side)
        {
            *sum += x;
            *sum2 += x * x;
        }
    }
}

/// The normal quantile of a 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A sampled chance with its 95% interval (Wilson's score interval, which stays inside [0, 1]
/// and is sound for chances near 0 or 1).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Chance {
    pub p: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Chance {
    pub fn of(k: u32, n: u32) -> Self {
        if n == 0 {
            return Chance {
                p: 0.0,
                lo: 0.0,
                hi: 1.0,
            };
        }
        let (k, n) = (f64::from(k), f64::from(n));
        let p = k / n;
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        Chance {
            p,
            lo: (centre - half).max(0.0),
            hi: (centre + half).min(1.0),
        }
    }
}

/// A sampled mean with its 95% interval (the normal interval of the sample mean).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Mean {
    pub mean: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Mean {
    /// From `n` values' sum and sum of squares.
    pub fn of(sum: f64, sum2: f64, n: u64) -> Self {
        if n == 0 {
            return Mean {
                mean: 0.0,
                lo: 0.0,
                hi: 0.0,
            };
        }
        let nf = n as f64;
        let mean = sum / nf;
        let var = if n > 1 {
            ((sum2 - nf * mean * mean) / (nf - 1.0)).max(0.0)
        } else {
            0.0
        };
        let half = Z95 * (var / nf).sqrt();
        Mean {
            mean,
            lo: mean - half,
            hi: mean + half,
        }
    }
}

/// A round's share of the fights.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundShare {
    pub round: u32,
    #[serde(flatten)]
    pub chance: Chance,
}

/// How long the fights lasted.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rounds {
    /// Each round a fight ended in, with its chance (over all fights).
    pub distribution: Vec<RoundShare>,
    /// The mean round of the fights that ended (`null` when none did).
    pub mean: Option<Mean>,
    /// Fights that did not end within the rounds played.
    pub unfinished: Chance,
}

/// A fighter's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FighterReport {
    pub id: String,
    pub side: crate::combat::Side,
    pub bloodied: Chance,
    pub defeated: Chance,
    pub fallen: Chance,
    /// Damage it dealt a fight.
    pub damage: Mean,
    /// Its share of the damage its side dealt (`null` when its side dealt none).
    pub share: Option<Chance>,
    /// The damage it is expected to deal a round as the forecast starts (exact).
    pub per_round: Figure,
}

/// A side's exact figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SideReport {
    /// The damage it is expected to deal a round as the forecast starts: its fighters' sum.
    pub per_round: Figure,
}

/// The forecast.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub fights: u32,
    pub seed: u64,
    pub policy: super::input::Policies,
    pub area_targets: u32,
    pub max_rounds: u32,
    /// The round the forecast starts in.
    pub round: u32,
    /// The sampled figures' interval: 0.95.
    pub confidence: f64,
    /// The party wins, the foes win, neither.
    pub party: Chance,
    pub foes: Chance,
    pub unfinished: Chance,
    pub rounds: Rounds,
    pub fighters: Vec<FighterReport>,
    pub sides: Sides,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sides {
    pub party: SideReport,
    pub foes: SideReport,
}

/// A fighter's share of its side's damage: ΣX / ΣT, its interval by the delta method
/// (Var ≈ Σ(X − R·T)² / (n(n−1)·T̄²)).
pub fn share(t: &FighterTally, side: f64, side2: f64, n: u32) -> Option<Chance> {
    if side <= 0.0 || n == 0 {
        return None;
    }
    let r = t.dealt / side;
    let nf = f64::from(n);
    let mean_t = side / nf;
    let ss = (t.dealt2 - 2.0 * r * t.dealt_side + r * r * side2).max(0.0);
    let var = if n > 1 {
        ss / (nf * (nf - 1.0) * mean_t * mean_t)
    } else {
        0.0
    };
    let half = Z95 * var.sqrt();
    Some(Chance {
        p: r,
        lo: (r - half).max(0.0),
        hi: (r + half).min(1.0),
    })
}
