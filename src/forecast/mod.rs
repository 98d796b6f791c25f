//! The encounter forecast (issue 39): how a fight is likely to go, found by playing it out many
//! times with the rules the table plays (see [`play`]), each combatant acting by its side's
//! stated policy ([`policy`]), from the running combat's state or a planned fight's start.
//!
//! Sampled figures (who wins, the rounds to the end, each fighter's chance to be bloodied,
//! defeated or fallen, each one's share of its side's damage) carry a 95% interval and the seed
//! that reproduces them; the expected damage a round each fighter and side deals is exact,
//! from the odds ([`expect`]). The GM-only `forecast` wasm module is the only caller
//! (`src/wasm/forecast.rs`); docs/rules.md, "The encounter forecast", states what is played.

pub mod dice;
pub mod expect;
pub mod input;
pub mod play;
pub mod policy;
pub mod prepare;
pub mod tally;
pub mod trace;

use crate::dice::rng::MAX_SEED;
use crate::error::{Error, Result};
use input::{Request, MAX_FORECAST_JSON};
use prepare::{prepare, Prepared};
use tally::{
    share, Chance, FighterReport, Mean, Report, RoundShare, Rounds, SideReport, Sides, Tally,
};

pub use dice::Roller;
pub use trace::Trace;

/// A forecast ready to play its fights (in batches, so a dialog can show its progress).
pub struct Forecast {
    prepared: Prepared,
    roller: Roller,
    seed: u64,
}

impl Forecast {
    /// Checks and prepares `request`; without a seed it takes a fresh one.
    pub fn new(request: Request) -> Result<Self> {
        let seed = match request.options.seed {
            Some(s) => s & MAX_SEED,
            None => crate::dice::rng::fresh_seed()?,
        };
        let (prepared, roller) = prepare(request)?;
        Ok(Self {
            prepared,
            roller,
            seed,
        })
    }

    /// From a request's JSON text, refused past [`MAX_FORECAST_JSON`] bytes before it is read.
    pub fn from_json(text: &str) -> Result<Self> {
        let request: Request =
            crate::decode::from_json_text_within("forecast request", text, MAX_FORECAST_JSON)?;
        Self::new(request)
    }

    /// The seed of fight 0.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The fights the request asks for.
    pub fn fights(&self) -> u32 {
        self.prepared.request.options.fights
    }

    /// An empty tally of this forecast.
    pub fn tally(&self) -> Tally {
        Tally::new(self.seed, self.prepared.request.fighters.len())
    }

    /// Plays up to `count` more fights onto `tally` (none past the fights asked for).
    pub fn play(&mut self, tally: &mut Tally, count: u32) -> Result<()> {
        let o = &self.prepared.request.options;
        tally.check(self.prepared.request.fighters.len(), o.max_rounds, o.fights)?;
        let end = tally.played.saturating_add(count).min(o.fights);
        while tally.played < end {
            let seed = fight_seed(tally.seed, tally.played);
            let fight = play::Play::new(&self.prepared, &mut self.roller, seed, false)?;
            let (result, _) = fight.run()?;
            tally.add(&result, &self.prepared.sides);
        }
        Ok(())
    }

    /// Fight `fight` of the forecast, step by step (its replay: the same seed plays it the
    /// same).
    pub fn trace(&mut self, fight: u32) -> Result<Trace> {
        if fight >= self.fights() {
            return Err(Error::request(format!(
                "the forecast plays fights 0 to {}: there is no fight {fight}",
                self.fights() - 1
            )));
        }
        let seed = fight_seed(self.seed, fight);
        let play = play::Play::new(&self.prepared, &mut self.roller, seed, true)?;
        let (_, trace) = play.run()?;
        let mut trace =
            trace.ok_or_else(|| Error::request("internal: a traced fight left no trace"))?;
        trace.fight = fight;
        Ok(trace)
    }

    /// Every fight played and reported.
    pub fn run(&mut self) -> Result<Report> {
        let mut tally = self.tally();
        self.play(&mut tally, self.fights())?;
        self.report(&tally)
    }

    /// The report of `tally`.
    pub fn report(&self, tally: &Tally) -> Result<Report> {
        let p = &self.prepared;
        let o = &p.request.options;
        tally.check(p.request.fighters.len(), o.max_rounds, o.fights)?;
        let n = tally.played;
        let ended = tally.party + tally.foes;
        let (mut sum, mut sum2) = (0.0, 0.0);
        for (i, &k) in tally.rounds.iter().enumerate() {
            let r = (i + 1) as f64;
            sum += r * f64::from(k);
            sum2 += r * r * f64::from(k);
        }
        let rounds = Rounds {
            distribution: tally
                .rounds
                .iter()
                .enumerate()
                .map(|(i, &k)| RoundShare {
                    round: i as u32 + 1,
                    chance: Chance::of(k, n),
                })
                .collect(),
            mean: (ended > 0).then(|| Mean::of(sum, sum2, u64::from(ended))),
            unfinished: Chance::of(tally.unfinished, n),
        };
        let fighters = p
            .request
            .fighters
            .iter()
            .zip(&tally.fighters)
            .enumerate()
            .map(|(i, (f, t))| {
                let s = p.sides[i];
                FighterReport {
                    id: f.id.clone(),
                    side: f.side,
                    bloodied: Chance::of(t.bloodied, n),
                    defeated: Chance::of(t.defeated, n),
                    fallen: Chance::of(t.fallen, n),
                    damage: Mean::of(t.dealt, t.dealt2, u64::from(n)),
                    share: share(t, tally.side_dealt[s], tally.side_dealt2[s], n),
                    per_round: p.per_round[i].into(),
                }
            })
            .collect();
        let side_sum = |s: usize| {
            (0..p.sides.len())
                .filter(|&i| p.sides[i] == s)
                .fold(expect::Exact::ZERO, |acc, i| acc.plus(p.per_round[i]))
        };
        Ok(Report {
            fights: n,
            seed: tally.seed,
            policy: o.policy,
            area_targets: o.area_targets,
            max_rounds: o.max_rounds,
            round: p.start.round,
            confidence: 0.95,
            party: Chance::of(tally.party, n),
            foes: Chance::of(tally.foes, n),
            unfinished: Chance::of(tally.unfinished, n),
            rounds,
            fighters,
            sides: Sides {
                party: SideReport {
                    per_round: side_sum(0).into(),
                },
                foes: SideReport {
                    per_round: side_sum(1).into(),
                },
            },
        })
    }
}

/// The seed fight `i` is played from: the forecast's and `i` mixed (SplitMix64's finaliser), so
/// the forecasts of nearby seeds share no fights, within the RNG's seeds.
pub fn fight_seed(seed: u64, i: u32) -> u64 {
    fn mix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    mix(mix(seed).wrapping_add(u64::from(i))) & MAX_SEED
}

/// The whole forecast of a request's JSON text: its report.
pub fn forecast_json(text: &str) -> Result<Report> {
    Forecast::from_json(text)?.run()
}
