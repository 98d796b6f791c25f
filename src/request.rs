//! The one tagged request type and the three verbs over it (plus `roll`, which combines them).
//!
//! A request names its rule by `kind`; each kind plans its dice, resolves faces into an outcome
//! and computes exact odds. This module only dispatches: the rules live in their own modules.

use crate::cache::FormulaCache;
use crate::dice::odds::{self, num::Ratio};
use crate::dice::resolve::{self, DiceNeed, Evaluation, Step, TermOutcome};
use crate::dice::rng::DiceRng;
use crate::dice::{parse, Formula};
use crate::error::{Error, Result};
use crate::rulesets::{icon, icons, mns, narrator, tribute, DiceRule, Prob};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::rc::Rc;

/// Every request the core understands, tagged by `kind`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub enum Request {
    /// A Foundry dice formula: `{"kind": "dice", "formula": "4d6kh3 + 2"}`.
    #[serde(rename = "dice")]
    Dice { formula: String },
    #[serde(rename = "icon.attack")]
    IconAttack(icon::Attack),
    #[serde(rename = "icon.save")]
    IconSave(icon::Save),
    #[serde(rename = "icon.damage")]
    IconDamage(icon::Damage),
    #[serde(rename = "icon.action")]
    IconAction(icon::Action),
    #[serde(rename = "icon.fortune")]
    IconFortune(icon::Fortune),
    #[serde(rename = "icon.applyDamage")]
    IconApplyDamage(icon::ApplyDamage),
    #[serde(rename = "icon.heal")]
    IconHeal(icon::Heal),
    #[serde(rename = "icon.evasion")]
    IconEvasion(icon::situation::Evasion),
    #[serde(rename = "icon.inflict")]
    IconInflict(icon::effects::Inflict),
    #[serde(rename = "icon.ability")]
    IconAbility(icon::ability::Ability),
    #[serde(rename = "icon.hatred")]
    IconHatred(icon::effects::Hatred),
    #[serde(rename = "icon.marks")]
    IconMarks(icon::marks::Marks),
    #[serde(rename = "icon.tokens")]
    IconTokens(icon::tokens::TokensRule),
    #[serde(rename = "icon.limitBreak")]
    IconLimitBreak(icon::limit_break::LimitBreak),
    #[serde(rename = "icons.test")]
    IconsTest(icons::Test),
    #[serde(rename = "tribute.test")]
    TributeTest(tribute::Test),
    #[serde(rename = "narrator.skill")]
    NarratorSkill(narrator::Skill),
    #[serde(rename = "mns.action")]
    MnsAction(mns::Action),
    #[serde(rename = "mns.save")]
    MnsSave(mns::Save),
    #[serde(rename = "mns.dice")]
    MnsDice(mns::SpecialRoll),
}

crate::deserialize_tagged!(Request, "kind");

/// Runs `$body` with `$rule` bound to the request's [`DiceRule`], and `$wrap` naming the matching
/// [`Detail`] variant; `$dice` handles the plain formula. The one place that lists every rule.
macro_rules! dispatch {
    ($request:expr, |$formula:pat_param| $dice:expr, |$rule:ident, $wrap:ident| $body:expr) => {
        match $request {
            Request::Dice { formula: $formula } => $dice,
            Request::IconAttack($rule) => {
                let $wrap = Detail::IconAttack;
                $body
            }
            Request::IconSave($rule) => {
                let $wrap = Detail::IconSave;
                $body
            }
            Request::IconDamage($rule) => {
                let $wrap = Detail::IconDamage;
                $body
            }
            Request::IconAction($rule) => {
                let $wrap = Detail::IconAction;
                $body
            }
            Request::IconFortune($rule) => {
                let $wrap = Detail::IconFortune;
                $body
            }
            Request::IconApplyDamage($rule) => {
                let $wrap = Detail::IconApplyDamage;
                $body
            }
            Request::IconHeal($rule) => {
                let $wrap = Detail::IconHeal;
                $body
            }
            Request::IconEvasion($rule) => {
                let $wrap = Detail::IconEvasion;
                $body
            }
            Request::IconInflict($rule) => {
                let $wrap = Detail::IconInflict;
                $body
            }
            Request::IconAbility($rule) => {
                let $wrap = Detail::IconAbility;
                $body
            }
            Request::IconHatred($rule) => {
                let $wrap = Detail::IconHatred;
                $body
            }
            Request::IconMarks($rule) => {
                let $wrap = Detail::IconMarks;
                $body
            }
            Request::IconTokens($rule) => {
                let $wrap = Detail::IconTokens;
                $body
            }
            Request::IconLimitBreak($rule) => {
                let $wrap = Detail::IconLimitBreak;
                $body
            }
            Request::IconsTest($rule) => {
                let $wrap = Detail::IconsTest;
                $body
            }
            Request::TributeTest($rule) => {
                let $wrap = Detail::TributeTest;
                $body
            }
            Request::NarratorSkill($rule) => {
                let $wrap = Detail::NarratorSkill;
                $body
            }
            Request::MnsAction($rule) => {
                let $wrap = Detail::MnsAction;
                $body
            }
            Request::MnsSave($rule) => {
                let $wrap = Detail::MnsSave;
                $body
            }
            Request::MnsDice($rule) => {
                let $wrap = Detail::MnsDice;
                $body
            }
        }
    };
}

impl Request {
    /// The `kind` tag.
    pub fn kind(&self) -> &'static str {
        match self {
            Request::Dice { .. } => "dice",
            Request::IconAttack(_) => "icon.attack",
            Request::IconSave(_) => "icon.save",
            Request::IconDamage(_) => "icon.damage",
            Request::IconAction(_) => "icon.action",
            Request::IconFortune(_) => "icon.fortune",
            Request::IconApplyDamage(_) => "icon.applyDamage",
            Request::IconHeal(_) => "icon.heal",
            Request::IconEvasion(_) => "icon.evasion",
            Request::IconInflict(_) => "icon.inflict",
            Request::IconAbility(_) => "icon.ability",
            Request::IconHatred(_) => "icon.hatred",
            Request::IconMarks(_) => "icon.marks",
            Request::IconTokens(_) => "icon.tokens",
            Request::IconLimitBreak(_) => "icon.limitBreak",
            Request::IconsTest(_) => "icons.test",
            Request::TributeTest(_) => "tribute.test",
            Request::NarratorSkill(_) => "narrator.skill",
            Request::MnsAction(_) => "mns.action",
            Request::MnsSave(_) => "mns.save",
            Request::MnsDice(_) => "mns.dice",
        }
    }
    /// The request's dice as a formula string (validating the request's fields).
    pub fn formula(&self) -> Result<String> {
        dispatch!(self, |formula| Ok(formula.clone()), |rule, _wrap| rule
            .formula())
    }
}

/// A request with its dice parsed, ready for the verbs, and the formula's normal form and term
/// notations written once for the outcomes that show them.
#[derive(Debug, Clone)]
pub struct Prepared {
    request: Request,
    formula: Rc<Formula>,
    text: String,
    notations: Vec<String>,
}

impl Prepared {
    /// Validates the request and parses its dice.
    pub fn new(request: &Request) -> Result<Self> {
        Ok(Self::with(
            request.clone(),
            Rc::new(parse(&request.formula()?)?),
        ))
    }
    /// As [`Prepared::new`], parsing each distinct formula only once.
    pub fn from_cache(request: Request, cache: &mut FormulaCache) -> Result<Self> {
        let formula = cache.get(&request.formula()?)?;
        Ok(Self::with(request, formula))
    }
    fn with(request: Request, formula: Rc<Formula>) -> Self {
        Self {
            text: formula.to_string(),
            notations: (0..formula.terms.len())
                .map(|i| formula.term_notation(i))
                .collect(),
            request,
            formula,
        }
    }
    /// The formula in normal form.
    pub fn text(&self) -> &str {
        &self.text
    }
    pub fn request(&self) -> &Request {
        &self.request
    }
    pub fn formula(&self) -> &Formula {
        &self.formula
    }
}

/// Dice to roll: `count` dice of `faces` faces, for `role`; `notation` is Foundry's denomination.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanDie {
    pub faces: u32,
    pub count: u32,
    pub role: String,
    pub notation: String,
    /// Which entry of the outcome's `terms` these dice belong to (for writing kept/dropped flags
    /// back onto Foundry's dice).
    pub term: usize,
}

impl From<&DiceNeed> for PlanDie {
    fn from(n: &DiceNeed) -> Self {
        Self {
            faces: n.die.faces(),
            count: n.count,
            role: n.role.label().to_string(),
            notation: n.die.notation(),
            term: n.term,
        }
    }
}

/// The outcome of `resolve`: finished, or more dice needed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status")]
pub enum Resolution {
    #[serde(rename = "done")]
    Done(Done),
    #[serde(rename = "more")]
    More { dice: Vec<PlanDie> },
}

/// A finished outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Done {
    pub kind: &'static str,
    pub total: i64,
    pub faces: Vec<Vec<i64>>,
    /// The seed that reproduces this roll (set by `roll`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(flatten)]
    pub detail: Detail,
}

/// What each kind adds to a finished outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Detail {
    Dice {
        formula: String,
        terms: Vec<TermOutcome>,
    },
    IconAttack(icon::AttackOutcome),
    IconSave(icon::SaveOutcome),
    IconDamage(icon::DamageOutcome),
    IconAction(icon::ActionOutcome),
    IconFortune(icon::FortuneOutcome),
    IconApplyDamage(icon::HealthOutcome),
    IconHeal(icon::HealOutcome),
    IconEvasion(icon::situation::EvasionOutcome),
    IconInflict(icon::effects::InflictOutcome),
    IconAbility(icon::ability::AbilityOutcome),
    IconHatred(icon::effects::HatredOutcome),
    IconMarks(icon::marks::MarksOutcome),
    IconTokens(icon::tokens::TokensOutcome),
    IconLimitBreak(icon::limit_break::LimitBreakOutcome),
    IconsTest(icons::TestOutcome),
    TributeTest(tribute::TestOutcome),
    NarratorSkill(narrator::SkillOutcome),
    MnsAction(mns::ActionOutcome),
    MnsSave(mns::SaveOutcome),
    MnsDice(mns::SpecialOutcome),
}

/// Exact odds: the distribution of the total and P(each outcome label).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OddsReport {
    /// The normalised dice formula the odds are of.
    pub formula: String,
    pub totals: Vec<(i64, f64)>,
    pub mean: f64,
    pub sd: f64,
    pub outcomes: BTreeMap<String, f64>,
    pub exact: Option<ExactOdds>,
    /// `tribute.test`: the joint distribution of profit and waste (both 0 on a fail).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profit_waste: Option<Vec<tribute::ProfitWaste>>,
}

/// The same odds as reduced fractions, when they fit in `u128`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExactOdds {
    pub totals: Vec<(i64, String)>,
    pub mean: String,
    pub outcomes: BTreeMap<String, String>,
}

/// The dice to roll first, in order.
pub fn plan(request: &Prepared) -> Result<Vec<PlanDie>> {
    Ok(resolve::plan(&request.formula)?
        .iter()
        .map(PlanDie::from)
        .collect())
}

/// Decides the outcome from `faces` (one array per planned or requested batch, in order).
pub fn resolve(request: &Prepared, faces: &[Vec<i64>]) -> Result<Resolution> {
    let (step, used) = resolve::resolve_prefix(&request.formula, faces)?;
    let eval = match step {
        Step::More(needs) => {
            return Ok(Resolution::More {
                dice: needs.iter().map(PlanDie::from).collect(),
            })
        }
        Step::Done(eval) => eval,
    };
    let rest = &faces[used..];
    let too_many = |wanted: usize| {
        Error::faces(format!(
            "{} arrays of faces were given but the roll used only {wanted}",
            faces.len()
        ))
    };
    let (detail, total) = dispatch!(
        &request.request,
        |_| {
            if !rest.is_empty() {
                return Err(too_many(used));
            }
            let detail = Detail::Dice {
                formula: request.text.clone(),
                terms: eval.terms.clone(),
            };
            (detail, eval.total)
        },
        |rule, wrap| {
            let follow_up = rule.follow_up(&eval);
            let wanted = used + usize::from(follow_up.is_some());
            let extra: &[i64] = match (follow_up, rest) {
                (None, []) => &[],
                (Some(need), []) => {
                    return Ok(Resolution::More {
                        dice: vec![PlanDie::from(&need)],
                    })
                }
                (Some(need), [one]) => {
                    resolve::check_faces(used, &need, one)?;
                    one
                }
                _ => return Err(too_many(wanted)),
            };
            (
                wrap(rule.outcome_with(&eval, extra)?),
                rule.total_with(&eval, extra),
            )
        }
    );
    Ok(Resolution::Done(Done {
        kind: request.request.kind(),
        total,
        faces: faces.to_vec(),
        seed: None,
        detail,
    }))
}

/// Rolls with the core's RNG from `seed` and resolves, including every `more` round.
pub fn roll(request: &Prepared, seed: u64) -> Result<Done> {
    let mut rng = DiceRng::from_seed(seed)?;
    let mut done = roll_with(request, &mut rng)?;
    done.seed = Some(seed);
    Ok(done)
}

/// As [`roll`], drawing from a stream the caller owns (batches draw many rolls from one).
pub fn roll_with(request: &Prepared, rng: &mut DiceRng) -> Result<Done> {
    let mut scratch = Scratch::new(request)?;
    let (total, detail) = roll_detail(request, rng, &mut scratch)?;
    Ok(Done {
        kind: request.request.kind(),
        total,
        faces: scratch.faces,
        seed: None,
        detail,
    })
}

/// What one request's rolls reuse from roll to roll, so that rolling it again allocates only
/// what its outcome holds.
#[derive(Debug, Clone)]
pub struct Scratch {
    /// The first round of dice, planned once, when every term rolls its fixed number (≥ 1) of
    /// dice once, in term order, with no modifier that asks for more: such a roll needs none of
    /// resolution's rounds.
    simple: Option<Vec<DiceNeed>>,
    /// The faces of the last roll, one array per batch.
    pub faces: Vec<Vec<i64>>,
    eval: Evaluation,
    totals: Vec<Option<i64>>,
}

impl Scratch {
    pub fn new(request: &Prepared) -> Result<Self> {
        let formula = &request.formula;
        let plan = resolve::plan(formula)?;
        let simple = crate::batch::is_simple(formula)
            && plan.len() == formula.terms.len()
            && plan
                .iter()
                .enumerate()
                .all(|(i, n)| n.term == i && n.count > 0);
        Ok(Self {
            simple: simple.then_some(plan),
            faces: Vec::new(),
            eval: Evaluation {
                total: 0,
                terms: blank_terms(formula),
            },
            totals: Vec::new(),
        })
    }

    /// Draws the formula's dice into `faces` and evaluates them (term notations left empty).
    fn draw(&mut self, formula: &Formula, rng: &mut DiceRng) -> Result<()> {
        let Some(plan) = &self.simple else {
            (self.eval, self.faces) = roll_formula(formula, rng)?;
            return Ok(());
        };
        self.faces.resize_with(plan.len(), Vec::new);
        if self.eval.terms.len() != formula.terms.len() {
            // a `dice` outcome took them
            self.eval.terms = blank_terms(formula);
        }
        self.totals.clear();
        for ((need, batch), (term, out)) in plan
            .iter()
            .zip(&mut self.faces)
            .zip(formula.terms.iter().zip(&mut self.eval.terms))
        {
            batch.clear();
            batch.extend((0..need.count).map(|_| rng.die(need.die)));
            // each term's faces, then its modifiers in order, as resolution settles them
            out.results.clear();
            out.results
                .extend(batch.iter().map(|&v| resolve::DieResult::new(v, 0)));
            out.total = resolve::settle(&mut out.results, &term.modifiers);
            self.totals.push(Some(out.total));
        }
        let total = resolve::eval(&formula.expr, &self.totals)?
            .ok_or_else(|| Error::request("the formula could not be completed"))?;
        self.eval.total = resolve::check_safe(total)?;
        Ok(())
    }
}

/// One empty outcome per term of `formula`.
fn blank_terms(formula: &Formula) -> Vec<TermOutcome> {
    formula
        .terms
        .iter()
        .map(|t| TermOutcome {
            notation: String::new(),
            flavor: t.flavor.clone(),
            total: 0,
            results: Vec::new(),
        })
        .collect()
}

/// Rolls `request`: its faces land in `scratch.faces`; returns the total and the kind's outcome
/// fields. The formula's dice are drawn in one pass (every round as resolution asks for it), then
/// the rule's follow-up batch, if it has one, and the outcome is read from that one evaluation:
/// the outcome [`resolve`] gives for the same faces (tests/dice.rs holds them equal).
pub fn roll_detail(
    request: &Prepared,
    rng: &mut DiceRng,
    scratch: &mut Scratch,
) -> Result<(i64, Detail)> {
    scratch.draw(&request.formula, rng)?;
    let names = dispatch!(&request.request, |_| false, |rule, _wrap| rule
        .names_terms());
    if names {
        for (i, term) in scratch.eval.terms.iter_mut().enumerate() {
            term.notation.clone_from(&request.notations[i]);
        }
    }
    Ok(dispatch!(
        &request.request,
        |_| {
            // the outcome takes the terms; the next draw makes them again
            let mut terms = std::mem::take(&mut scratch.eval.terms);
            for (term, notation) in terms.iter_mut().zip(&request.notations) {
                term.notation.clone_from(notation);
            }
            let detail = Detail::Dice {
                formula: request.text.clone(),
                terms,
            };
            (scratch.eval.total, detail)
        },
        |rule, wrap| {
            let eval = &scratch.eval;
            let extra: Vec<i64> = match rule.follow_up(eval) {
                None => Vec::new(),
                Some(need) => {
                    let drawn: Vec<i64> = (0..need.count).map(|_| rng.die(need.die)).collect();
                    scratch.faces.push(drawn.clone());
                    drawn
                }
            };
            (
                rule.total_with(eval, &extra),
                wrap(rule.outcome_with(eval, &extra)?),
            )
        }
    ))
}

/// Rolls a plain formula from `rng`, every round, in one pass: the evaluation (term notations
/// left empty) and the faces drawn, in the order [`roll_with`] draws them for a `dice` request,
/// so the same stream gives the same roll.
pub fn roll_formula(formula: &Formula, rng: &mut DiceRng) -> Result<(Evaluation, Vec<Vec<i64>>)> {
    /// Draws each batch as resolution asks for it, keeping the faces for the outcome.
    struct Drawn<'r> {
        rng: &'r mut DiceRng,
        faces: Vec<Vec<i64>>,
    }
    impl resolve::FaceSource for Drawn<'_> {
        fn supply(&mut self, need: &DiceNeed, take: &mut dyn FnMut(&[i64])) -> Result<bool> {
            let values: Vec<i64> = (0..need.count).map(|_| self.rng.die(need.die)).collect();
            take(&values);
            self.faces.push(values);
            Ok(true)
        }
    }
    let mut drawn = Drawn {
        rng,
        faces: Vec::new(),
    };
    match resolve::resolve_from(formula, &mut drawn, false)? {
        Step::Done(eval) => Ok((eval, drawn.faces)),
        // a drawing source never runs out
        Step::More(_) => Err(Error::request("the roll kept asking for more dice")),
    }
}

/// The exact probabilities of the request's totals and outcomes.
pub fn odds(request: &Prepared) -> Result<OddsReport> {
    let (d, outcomes) = odds_parts(request)?;
    let mut report = report(request.text.clone(), &d, &outcomes);
    if let Request::TributeTest(t) = &request.request {
        report.profit_waste = Some(t.joint()?);
    }
    Ok(report)
}

/// The distribution of a request's total and its labelled outcome probabilities.
pub type OddsParts = (odds::Distribution, Vec<(&'static str, Prob)>);

/// The distribution of the request's total and its labelled outcome probabilities.
pub fn odds_parts(request: &Prepared) -> Result<OddsParts> {
    let custom = dispatch!(&request.request, |_| None, |rule, _wrap| rule
        .distribution());
    let d = match custom {
        Some(d) => d?,
        None => odds::distribution(&request.formula)?,
    };
    if d.totals.len() > odds::dist::MAX_TOTALS {
        return Err(odds::dist::too_many_totals(d.totals.len()));
    }
    let outcomes = dispatch!(&request.request, |_| Vec::new(), |rule, _wrap| rule
        .outcomes(&d)?);
    Ok((d, outcomes))
}

/// Builds the report from the distribution and the labelled outcome probabilities.
fn report(formula: String, d: &odds::Distribution, labels: &[(&'static str, Prob)]) -> OddsReport {
    let outcomes = labels.iter().map(|(l, p)| (l.to_string(), p.p)).collect();
    let exact_outcomes: Option<BTreeMap<String, String>> = labels
        .iter()
        .map(|(l, p)| p.exact.map(|e| (l.to_string(), e.to_string())))
        .collect();
    let exact = match (&d.exact, d.exact_mean(), exact_outcomes) {
        (Some(e), Some(mean), Some(outcomes)) => Some(ExactOdds {
            totals: e
                .iter()
                .map(|(v, p): &(i64, Ratio)| (*v, p.to_string()))
                .collect(),
            mean,
            outcomes,
        }),
        _ => None,
    };
    OddsReport {
        formula,
        mean: d.mean(),
        sd: d.sd(),
        totals: d.totals.clone(),
        outcomes,
        exact,
        profit_waste: None,
    }
}
