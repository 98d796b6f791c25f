//! The encounter forecast held to exact answers: for small fights (one against one or two, a few
//! HP), the outcome distribution computed by a separate method, a Markov chain over the fight's
//! states (every fighter's HP, the turns taken this round, whose slot it is, the round), with
//! its own turn order written from the rules (the party first in round 1, sides alternating,
//! a side with no turns left passing, an elite's two turns, the next round opening with the
//! side that did not act last) and its own targeting. Only single rolls' odds come from the core
//! (`odds`: the attack's hit and critical hit, each result's damage), as the table's cards show
//! them. Each sampled figure must hold the exact one within its interval; a fight's trace must
//! replay through the reducer and `resolve` to the same turns and totals.

use icon_engine::combat::{self, Side, Template};
use icon_engine::forecast::input::AbilitySpec;
use icon_engine::forecast::input::{
    Actions, AttackSpec, Fighter, Options, Policies, Policy, Request,
};
use icon_engine::forecast::tally::{Chance, Outcome, Report};
use icon_engine::forecast::trace::{TraceRequest, TraceStep};
use icon_engine::forecast::{fight_seed, Forecast};
use icon_engine::request::{self, odds_parts, Prepared, Request as Roll};
use icon_engine::rulesets::icon::tactical::AttackResult;
use icon_engine::rulesets::icon::{Attack, Damage};
use std::collections::HashMap;

/// A fighter of the small fights: one 2-action attack of `dice` [D] + fray (fray on a miss),
/// no armor, vigor or statuses.
#[derive(Clone)]
struct Mini {
    id: &'static str,
    side: Side,
    pc: bool,
    elite: bool,
    hp: i64,
    defense: i64,
    die: u32,
    fray: i64,
    dice: u32,
}

fn strike(dice: u32) -> AbilitySpec {
    let mut a = AbilitySpec::heavy();
    a.name = "strike".into();
    a.actions = Actions::Two;
    a.attack = Some(AttackSpec {
        dice,
        ..a.attack.unwrap()
    });
    a
}

fn fighter(m: &Mini) -> Fighter {
    Fighter {
        id: m.id.into(),
        side: m.side,
        is_player_character: m.pc,
        template: m.elite.then_some(Template::Elite),
        can_slow: false,
        hp: m.hp,
        max_hp: m.hp,
        vigor: 0,
        armor: 0,
        wounds: 0,
        resolve: 0,
        statuses: Vec::new(),
        ends_at_turn_end: Vec::new(),
        defense: m.defense,
        die: m.die,
        fray: m.fray,
        can_crit: m.pc,
        basic_attacks: false,
        abilities: vec![strike(m.dice)],
    }
}

fn request(minis: &[Mini], fights: u32, seed: u64) -> Request {
    Request {
        fighters: minis.iter().map(fighter).collect(),
        combat: None,
        options: Options {
            fights,
            seed: Some(seed),
            policy: Policies {
                party: Policy::Focus,
                foes: Policy::Focus,
            },
            area_targets: 2,
            max_rounds: 20,
        },
    }
}

/// The exact distribution of the damage one use of `by`'s strike deals a target of `defense`:
/// P(hit, not crit) × hit damage + P(crit) × crit damage + P(miss) × fray.
fn strike_damage(by: &Mini, defense: i64) -> Vec<(i64, f64)> {
    let attack = Roll::IconAttack(Attack {
        boons: 0,
        curses: 0,
        bonus: 0,
        defense: Some(defense),
        can_crit: by.pc,
        true_strike: false,
        auto_hit: false,
        evasion: false,
    });
    let (_, labels) = odds_parts(&Prepared::new(&attack).unwrap()).unwrap();
    let p = |l: &str| {
        labels
            .iter()
            .find(|(n, _)| *n == l)
            .map_or(0.0, |(_, p)| p.p)
    };
    let (hit, crit) = (p("hit"), p("crit"));
    let mut out: HashMap<i64, f64> = HashMap::new();
    for (result, pr) in [
        (AttackResult::Hit, hit - crit),
        (AttackResult::Crit, crit),
        (AttackResult::Miss, 1.0 - hit),
    ] {
        if pr <= 0.0 {
            continue;
        }
        let damage = Roll::IconDamage(Damage {
            result,
            die: by.die,
            dice: by.dice,
            fray: by.fray,
            flat: 0,
            bonus_dice: 0,
            crit_again: false,
        });
        let (dist, _) = odds_parts(&Prepared::new(&damage).unwrap()).unwrap();
        for (v, q) in dist.totals {
            *out.entry(v.max(0)).or_default() += pr * q;
        }
    }
    let mut v: Vec<(i64, f64)> = out.into_iter().collect();
    v.sort_by_key(|x| x.0);
    v
}

/// A state of the chain: HP each, turns taken this round each, the side whose slot it is, the
/// side that acted last, the round.
#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    hp: Vec<i64>,
    taken: Vec<u32>,
    slot: u8,
    last: u8,
    round: u32,
    /// The round of the last turn taken (the round a decided fight ended in).
    acted_in: u32,
}

/// The exact figures of a small fight.
#[derive(Debug, Default)]
struct Exact {
    party: f64,
    foes: f64,
    unfinished: f64,
    rounds: Vec<f64>,
    defeated: Vec<f64>,
    bloodied: Vec<f64>,
}

fn side_no(s: Side) -> u8 {
    match s {
        Side::Party => 0,
        Side::Foes => 1,
    }
}

/// The Markov chain: every state a turn can lead to, with its probability, turn by turn.
fn exact(minis: &[Mini], max_rounds: u32) -> Exact {
    let n = minis.len();
    let turns = |i: usize| if minis[i].elite { 2 } else { 1 };
    let damage: Vec<Vec<Vec<(i64, f64)>>> = minis
        .iter()
        .map(|a| minis.iter().map(|t| strike_damage(a, t.defense)).collect())
        .collect();
    let mut out = Exact {
        rounds: vec![0.0; max_rounds as usize],
        defeated: vec![0.0; n],
        bloodied: vec![0.0; n],
        ..Exact::default()
    };
    let mut layer: HashMap<State, f64> = HashMap::new();
    layer.insert(
        State {
            hp: minis.iter().map(|m| m.hp).collect(),
            taken: vec![0; n],
            slot: 0,
            last: 1,
            round: 1,
            acted_in: 1,
        },
        1.0,
    );
    let finish = |out: &mut Exact, s: &State, p: f64, who: Option<u8>| {
        match who {
            Some(0) => out.party += p,
            Some(1) => out.foes += p,
            _ => out.unfinished += p,
        }
        if who.is_some() {
            out.rounds[s.acted_in as usize - 1] += p;
        }
        for (i, m) in minis.iter().enumerate() {
            if s.hp[i] == 0 {
                out.defeated[i] += p;
            }
            if 2 * s.hp[i] <= m.hp {
                out.bloodied[i] += p;
            }
        }
    };
    while !layer.is_empty() {
        let mut next: HashMap<State, f64> = HashMap::new();
        for (mut s, p) in layer {
            let standing =
                |s: &State, side: u8| (0..n).any(|i| side_no(minis[i].side) == side && s.hp[i] > 0);
            match (standing(&s, 0), standing(&s, 1)) {
                (true, false) => {
                    finish(&mut out, &s, p, Some(0));
                    continue;
                }
                (false, true) => {
                    finish(&mut out, &s, p, Some(1));
                    continue;
                }
                (false, false) => {
                    finish(&mut out, &s, p, None);
                    continue;
                }
                _ => {}
            }
            // who acts: the slot's side's first fighter with a turn left, else the other side's;
            // none: the next round, opened by the side that did not act last
            let has = |s: &State, i: usize| s.hp[i] > 0 && s.taken[i] < turns(i);
            let pick = |s: &State| {
                [s.slot, 1 - s.slot]
                    .into_iter()
                    .find_map(|side| (0..n).find(|&i| side_no(minis[i].side) == side && has(s, i)))
            };
            let actor = match pick(&s) {
                Some(a) => a,
                None => {
                    s.round += 1;
                    s.taken = vec![0; n];
                    s.slot = 1 - s.last;
                    pick(&s).expect("a standing fighter has a turn in a new round")
                }
            };
            if s.round > max_rounds {
                finish(&mut out, &s, p, None);
                continue;
            }
            // the target: the standing foe with the fewest HP (the first of equals), which the
            // `focus` policy picks among foes its strike does equally well against
            let side = side_no(minis[actor].side);
            let target = (0..n)
                .filter(|&t| side_no(minis[t].side) != side && s.hp[t] > 0)
                .min_by_key(|&t| (s.hp[t], t))
                .unwrap();
            s.taken[actor] += 1;
            s.slot = 1 - side;
            s.last = side;
            s.acted_in = s.round;
            for &(d, q) in &damage[actor][target] {
                let mut t = s.clone();
                t.hp[target] = (t.hp[target] - d).max(0);
                *next.entry(t).or_default() += p * q;
            }
        }
        layer = next;
    }
    out
}

/// `exact` lies within `c`'s interval widened to `z` standard errors' worth (Wilson's, as the
/// report's 95% one is at z = 1.96).
fn within(what: &str, c: Chance, exact: f64, n: u32, z: f64) {
    let widen = z / icon_engine::forecast::tally::Z95;
    let (lo, hi) = (
        c.p - (c.p - c.lo) * widen - 1e-9,
        c.p + (c.hi - c.p) * widen + 1e-9,
    );
    assert!(
        (lo..=hi).contains(&exact),
        "{what}: exact {exact:.5}, sampled {:.5} [{lo:.5}, {hi:.5}] over {n} fights",
        c.p
    );
}

fn check(name: &str, minis: &[Mini], fights: u32, seed: u64) -> (Report, Exact) {
    let ex = exact(minis, 20);
    let total = ex.party + ex.foes + ex.unfinished;
    assert!(
        (total - 1.0).abs() < 1e-9,
        "{name}: the chain's outcomes sum to {total}"
    );
    let report = Forecast::new(request(minis, fights, seed))
        .unwrap()
        .run()
        .unwrap();
    assert_eq!(report.fights, fights);
    assert_eq!(report.seed, seed);
    // the headline figure within the report's own 95% interval
    within(
        &format!("{name}: party wins"),
        report.party,
        ex.party,
        fights,
        1.96,
    );
    // every other figure within a 99.9% one (there are many of them)
    within(
        &format!("{name}: foes win"),
        report.foes,
        ex.foes,
        fights,
        3.29,
    );
    for (i, f) in report.fighters.iter().enumerate() {
        within(
            &format!("{name}: {} defeated", f.id),
            f.defeated,
            ex.defeated[i],
            fights,
            3.29,
        );
        within(
            &format!("{name}: {} bloodied", f.id),
            f.bloodied,
            ex.bloodied[i],
            fights,
            3.29,
        );
    }
    for r in &report.rounds.distribution {
        let e = ex.rounds[r.round as usize - 1];
        within(
            &format!("{name}: ends in round {}", r.round),
            r.chance,
            e,
            fights,
            3.29,
        );
    }
    for (i, &e) in ex.rounds.iter().enumerate() {
        if e > 0.01 {
            assert!(
                report
                    .rounds
                    .distribution
                    .iter()
                    .any(|r| r.round as usize == i + 1),
                "{name}: no fight ended in round {} (exact {e:.4})",
                i + 1
            );
        }
    }
    eprintln!(
        "{name}: party wins exact {:.4}, sampled {:.4} [{:.4}, {:.4}], {fights} fights, seed {seed}",
        ex.party, report.party.p, report.party.lo, report.party.hi
    );
    (report, ex)
}

fn pc(hp: i64) -> Mini {
    Mini {
        id: "hero",
        side: Side::Party,
        pc: true,
        elite: false,
        hp,
        defense: 10,
        die: 8,
        fray: 2,
        dice: 1,
    }
}

fn foe(id: &'static str, hp: i64) -> Mini {
    Mini {
        id,
        side: Side::Foes,
        pc: false,
        elite: false,
        hp,
        defense: 8,
        die: 6,
        fray: 1,
        dice: 1,
    }
}

#[test]
fn one_against_one_matches_the_markov_chain() {
    let mut brute = foe("brute", 16);
    brute.dice = 2;
    let (report, ex) = check("1v1", &[pc(14), brute], 4000, 7);
    // a close fight: both sides win often
    assert!(ex.party > 0.2 && ex.foes > 0.2, "{ex:?}");
    assert_eq!(report.rounds.unfinished.p, 0.0);
}

#[test]
fn one_against_an_elite_matches_the_markov_chain() {
    let mut e = foe("elite", 12);
    e.elite = true;
    let (_, ex) = check("1v elite", &[pc(20), e], 4000, 11);
    assert!(ex.party > 0.1 && ex.foes > 0.1, "{ex:?}");
}

#[test]
fn one_against_two_matches_the_markov_chain() {
    let (_, ex) = check("1v2", &[pc(24), foe("left", 8), foe("right", 10)], 4000, 23);
    assert!(ex.party > 0.1 && ex.foes > 0.1, "{ex:?}");
}

#[test]
fn the_chain_itself_knows_a_one_sided_fight() {
    // a hero that cannot miss... much, against a foe of 1 HP: the hero wins in round 1
    let ex = exact(&[pc(30), foe("minion", 1)], 20);
    assert!((ex.party - 1.0).abs() < 1e-12 && (ex.rounds[0] - 1.0).abs() < 1e-12);
}

#[test]
fn the_same_seed_plays_the_same_forecast_and_another_does_not() {
    let minis = [pc(14), foe("brute", 16)];
    let a = Forecast::new(request(&minis, 500, 99))
        .unwrap()
        .run()
        .unwrap();
    let b = Forecast::new(request(&minis, 500, 99))
        .unwrap()
        .run()
        .unwrap();
    let c = Forecast::new(request(&minis, 500, 100))
        .unwrap()
        .run()
        .unwrap();
    assert_eq!(a, b);
    assert_ne!(a.party.p, c.party.p);
}

#[test]
fn batches_add_up_to_the_whole() {
    let minis = [pc(24), foe("left", 8), foe("right", 10)];
    let mut whole = Forecast::new(request(&minis, 600, 5)).unwrap();
    let all = whole.run().unwrap();
    let mut f = Forecast::new(request(&minis, 600, 5)).unwrap();
    let mut tally = f.tally();
    for _ in 0..7 {
        f.play(&mut tally, 100).unwrap();
    }
    assert_eq!(tally.played, 600);
    assert_eq!(f.report(&tally).unwrap(), all);
}

#[test]
fn the_exact_damage_a_round_is_the_odds() {
    let hero = pc(14);
    let brute = foe("brute", 16);
    let report = Forecast::new(request(&[hero.clone(), brute.clone()], 10, 1))
        .unwrap()
        .run()
        .unwrap();
    let mean = |d: Vec<(i64, f64)>| d.iter().map(|(v, p)| *v as f64 * p).sum::<f64>();
    let h = mean(strike_damage(&hero, brute.defense));
    let b = mean(strike_damage(&brute, hero.defense));
    let party = &report.sides.party.per_round;
    assert!((party.value - h).abs() < 1e-12, "{} vs {h}", party.value);
    assert!(
        party.exact.is_some(),
        "a d8 strike's expectation is a fraction"
    );
    assert!((report.sides.foes.per_round.value - b).abs() < 1e-12);
    // an elite deals two turns' worth
    let mut e = brute.clone();
    e.elite = true;
    let r2 = Forecast::new(request(&[hero, e], 10, 1))
        .unwrap()
        .run()
        .unwrap();
    assert!((r2.sides.foes.per_round.value - 2.0 * b).abs() < 1e-12);
}

#[test]
fn a_trace_replays_through_the_reducer_and_the_rolls() {
    let minis = [pc(24), foe("left", 8), foe("right", 10)];
    let mut f = Forecast::new(request(&minis, 50, 42)).unwrap();
    for fight in [0u32, 17, 49] {
        let trace = f.trace(fight).unwrap();
        assert_eq!(trace.seed, fight_seed(42, fight));
        let mut state: Option<combat::CombatState> = None;
        let mut rolls = 0;
        for step in &trace.steps {
            match step {
                TraceStep::Combat { event } => {
                    let (s, _) = combat::apply(state.as_ref(), &event.event()).unwrap();
                    state = s;
                }
                TraceStep::Roll {
                    request: r,
                    faces,
                    total,
                    ..
                } => {
                    let roll = match r {
                        TraceRequest::Attack(a) => Roll::IconAttack(a.clone()),
                        TraceRequest::Damage(d) => Roll::IconDamage(d.clone()),
                        TraceRequest::Save(s) => Roll::IconSave(s.clone()),
                        TraceRequest::Dice { formula } => Roll::Dice {
                            formula: formula.clone(),
                        },
                        _ => unreachable!(),
                    };
                    let prepared = Prepared::new(&roll).unwrap();
                    let request::Resolution::Done(done) =
                        request::resolve(&prepared, faces).unwrap()
                    else {
                        panic!("a traced roll's faces do not finish it");
                    };
                    assert_eq!(done.total, *total);
                    rolls += 1;
                }
                TraceStep::Rule {
                    request: TraceRequest::ApplyDamage(a),
                    total,
                    ..
                } => {
                    assert_eq!(a.apply().unwrap().0, *total);
                }
                _ => {}
            }
        }
        assert!(rolls > 0);
        // the fight the reducer replayed ends as the trace says
        let state = state.unwrap();
        for tf in &trace.fighters {
            let c = state.now.get(&tf.id).unwrap();
            assert_eq!(c.defeated, tf.defeated, "{}", tf.id);
        }
        let standing = |side: Side| {
            trace
                .fighters
                .iter()
                .zip(&minis)
                .any(|(t, m)| m.side == side && !t.defeated)
        };
        let outcome = match (standing(Side::Party), standing(Side::Foes)) {
            (true, false) => Outcome::Party,
            (false, true) => Outcome::Foes,
            _ => Outcome::Unfinished,
        };
        assert_eq!(outcome, trace.outcome);
        let again = f.trace(fight).unwrap();
        assert_eq!(again, trace);
    }
}

#[test]
fn bounds_are_refused_with_a_clear_error() {
    let minis = [pc(14), foe("brute", 16)];
    let mut r = request(&minis, 100_001, 1);
    let e = Forecast::new(r.clone()).err().unwrap();
    assert!(
        e.message().contains("1 to 100000 fights"),
        "{}",
        e.message()
    );
    r.options.fights = 10;
    r.options.max_rounds = 51;
    assert!(Forecast::new(r.clone()).is_err());
    r.options.max_rounds = 20;
    r.fighters[1].side = Side::Party;
    let e = Forecast::new(r.clone()).err().unwrap();
    assert!(e.message().contains("each side"), "{}", e.message());
    let many = format!(
        "{{\"fighters\":[{}],\"options\":{{\"fights\":10}}}}",
        vec!["{\"id\":\"x\",\"side\":\"party\",\"hp\":1,\"maxHp\":1,\"defense\":1,\"die\":6,\"fray\":1}"; 65]
            .join(",")
    );
    let e = Forecast::from_json(&many).err().unwrap();
    assert!(
        e.message().contains("a forecast takes at most 64 fighters"),
        "{}",
        e.message()
    );
    let e = Forecast::from_json(&"x".repeat(7 << 20)).err().unwrap();
    assert!(!e.message().is_empty());
}
