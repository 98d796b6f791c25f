//! Regression pins of the encounter forecast: the figures of a few forecasts for fixed seeds, as
//! the code before its speed work (issue 39's speed floor) produced them, run on that code and
//! copied here. They are no answer of their own (tests/forecast.rs holds the forecast to exact
//! answers by a Markov chain, and its traces to their replays): they say that making the forecast
//! faster changed no choice, no roll and no figure. Each forecast's report and a few of its fights'
//! traces are pinned by the FNV-1a digest of their JSON text (every figure, to the last bit of
//! its float), and the bench's fight by its main figures as well, readable.
//!
//! If a change to the rules or the policy is meant to change what the forecast plays, these pins
//! change with it: run `cargo test --test forecast_pin -- --nocapture` and copy the printed values.

use icon_engine::forecast::tally::Report;
use icon_engine::forecast::Forecast;
use serde_json::{json, Value};

/// FNV-1a, 64 bits, of `text`.
fn digest(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn attack(dice: u32) -> Value {
    json!({ "dice": dice, "frayOnMiss": true })
}

fn ability(name: &str, actions: &str, extra: Value) -> Value {
    let mut a =
        json!({ "name": name, "actions": actions, "tags": ["attack"], "attack": attack(1) });
    for (k, v) in extra.as_object().expect("an object").iter() {
        a[k] = v.clone();
    }
    a
}

fn part(trigger: &str, to: &str, status: &str, duration: &str) -> Value {
    json!({ "trigger": trigger, "to": to, "status": status, "duration": duration })
}

/// The bench's fight (bench/forecast-request.mjs, as the module's fighterOf writes it): `party`
/// player characters against `foes` foes, every third an elite.
fn bench(party: usize, foes: usize, fights: u32, seed: u64) -> Value {
    let hero = vec![
        ability(
            "Cleave",
            "2",
            json!({ "attack": attack(2), "parts": [part("hit", "target", "vulnerable", "save")] }),
        ),
        ability(
            "Ember Wave",
            "1",
            json!({ "attack": { "dice": 1, "saveForHalf": true }, "save": { "boons": 0, "curses": 0 },
                "area": true, "charges": { "value": 1, "max": 1, "recharge": "round" } }),
        ),
        ability(
            "Lucky Shot",
            "1",
            json!({ "parts": [{ "trigger": "gamble", "gamble": 5, "to": "target", "status": "dazed", "duration": "turn" }] }),
        ),
    ];
    let claws = vec![ability(
        "Claws",
        "1",
        json!({ "parts": [part("hit", "target", "weakened", "save")] }),
    )];
    let dies = [6u32, 8, 10, 12];
    let mut fighters = Vec::new();
    for i in 0..party {
        fighters.push(
            json!({ "id": format!("pc{i}"), "side": "party", "isPlayerCharacter": true,
            "canSlow": true, "hp": 40, "maxHp": 40, "vigor": 4, "armor": i % 2, "resolve": 1,
            "defense": 9, "die": dies[i % 4], "fray": 3, "abilities": hero }),
        );
    }
    for i in 0..foes {
        let elite = i % 3 == 0;
        let hp = if elite { 50 } else { 24 };
        fighters.push(json!({ "id": format!("foe{i}"), "side": "foes",
            "template": if elite { json!("elite") } else { Value::Null },
            "hp": hp, "maxHp": hp, "defense": 8, "die": 6, "fray": 2, "canCrit": false,
            "abilities": claws }));
    }
    json!({ "fighters": fighters, "options": { "fights": fights, "seed": seed } })
}

/// A fight of many rules at once: statuses on the fighters (Evasion, Regeneration, Counter,
/// Resistant, Defiance, Stunned, Unstoppable), vigor and armor, a limit break, once-a-turn and
/// turn-recharge abilities, ongoing, cure and end-of-turn statuses, an auto-hit, a piercing and a
/// true-strike attack, a save without attack, an ally's and a user's status, a legend and a mob.
fn many_rules(policy: &str, foes_policy: &str, fights: u32, seed: u64) -> Value {
    let pc_abilities = json!([
        { "name": "Finisher", "actions": "2", "tags": ["attack", "limitBreak"],
          "attack": { "dice": 3, "critAgain": true, "pierce": true }, "resolveCost": 2 },
        { "name": "Jab", "actions": "1", "tags": ["attack"], "attack": { "dice": 1, "autoHit": true },
          "limit": { "per": "turn", "used": 0 } },
        { "name": "Hex", "actions": "1", "tags": [], "save": { "boons": 0, "curses": 1 },
          "parts": [{ "trigger": "failedSave", "to": "target", "status": "hatred", "duration": "ongoing" },
                    { "trigger": "use", "to": "target", "status": "shattered", "duration": "cure" }] },
        { "name": "Rally", "actions": "1", "tags": [],
          "parts": [{ "trigger": "use", "to": "target", "status": "pacified", "duration": "turn" }] },
        { "name": "Sure Shot", "actions": "1", "tags": ["attack"],
          "attack": { "dice": 1, "trueStrike": true, "boons": 1 },
          "charges": { "value": 1, "max": 1, "recharge": "turn" } },
    ]);
    let foe_abilities = json!([
        { "name": "Bite", "actions": "1", "tags": ["attack"], "attack": { "dice": 1, "curses": 1 },
          "parts": [{ "trigger": "hit", "to": "target", "status": "blind", "duration": "save" }] },
        { "name": "Roar", "actions": "2", "tags": ["attack", "area"],
          "attack": { "dice": 2, "saveForHalf": true, "floor": true }, "save": { "boons": 1, "curses": 0 },
          "parts": [{ "trigger": "use", "to": "self", "status": "stunned", "duration": "turn" }] },
        { "name": "Slash", "actions": "1", "tags": ["attack"], "attack": { "dice": 1, "frayOnMiss": false },
          "parts": [{ "trigger": "hit", "to": "target", "status": "slashed", "duration": "save" }] },
    ]);
    let pc = |id: &str, hp: i64, statuses: Value, die: u32| {
        json!({ "id": id, "side": "party", "isPlayerCharacter": true, "canSlow": true,
            "hp": hp, "maxHp": 30, "vigor": 3, "armor": 1, "resolve": 2, "statuses": statuses,
            "defense": 9, "die": die, "fray": 2, "abilities": pc_abilities })
    };
    let foe = |id: &str, template: Value, hp: i64, statuses: Value| {
        json!({ "id": id, "side": "foes", "template": template, "hp": hp, "maxHp": hp.max(20),
            "armor": 1, "statuses": statuses, "defense": 7, "die": 8, "fray": 2, "canCrit": false,
            "abilities": foe_abilities })
    };
    json!({
        "fighters": [
            pc("ana", 30, json!(["evasion", "regeneration"]), 8),
            pc("bo", 22, json!(["counter", "defiance"]), 10),
            pc("cy", 14, json!(["resistant"]), 6),
            foe("boss", json!("legend"), 60, json!(["unstoppable", "vulnerable"])),
            foe("grunt", json!("mob"), 12, json!([])),
            foe("brute", json!("elite"), 30, json!(["stunned", "dodge"])),
        ],
        "options": { "fights": fights, "seed": seed, "areaTargets": 3, "maxRounds": 12,
            "policy": { "party": policy, "foes": foes_policy } }
    })
}

/// The report's digest, the report, and the digests of the traces of fights `traced`.
fn run(request: &Value, traced: &[u32]) -> (u64, Report, Vec<u64>) {
    let mut f = Forecast::from_json(&request.to_string()).expect("the forecast runs");
    let report = f.run().expect("the forecast reports");
    let text = serde_json::to_string(&report).expect("the report serialises");
    let traces = traced
        .iter()
        .map(|&i| {
            let t = f.trace(i).expect("the fight traces");
            digest(&serde_json::to_string(&t).expect("the trace serialises"))
        })
        .collect();
    (digest(&text), report, traces)
}

/// Whether the forecast of `request` still gives the report and the traces (fights 0, 7, 14, ...)
/// pinned; prints what it gives.
fn pin(name: &str, request: Value, report: u64, traces: &[u64]) -> bool {
    let traced: Vec<u32> = (0..traces.len() as u32).map(|i| i * 7).collect();
    let (got, _, got_traces) = run(&request, &traced);
    println!("{name}: report {got:#018x}, traces {got_traces:#018x?}");
    got == report && got_traces == traces
}

#[test]
fn the_bench_fight_gives_the_figures_it_gave() {
    let (got, r, _) = run(&bench(4, 6, 2000, 1), &[]);
    let counts = |c: &icon_engine::forecast::tally::Chance| (c.p * 2000.0).round() as u32;
    let rounds: Vec<u32> = r
        .rounds
        .distribution
        .iter()
        .map(|s| counts(&s.chance))
        .collect();
    let fighters: Vec<(u32, u32, u32)> = r
        .fighters
        .iter()
        .map(|f| (counts(&f.bloodied), counts(&f.defeated), counts(&f.fallen)))
        .collect();
    let dealt: Vec<f64> = r.fighters.iter().map(|f| f.damage.mean).collect();
    println!(
        "bench: report {got:#018x}, party {}, foes {}, unfinished {}, rounds {rounds:?}, fighters {fighters:?}, dealt {dealt:?}",
        counts(&r.party),
        counts(&r.foes),
        counts(&r.unfinished)
    );
    assert_eq!(
        (counts(&r.party), counts(&r.foes), counts(&r.unfinished)),
        PARTY_FOES_UNFINISHED
    );
    assert_eq!(rounds, ROUNDS);
    assert_eq!(fighters, FIGHTERS);
    assert_eq!(dealt, DEALT);
    assert_eq!(got, BENCH_REPORT, "the bench fight's report changed");
}

// The bench fight's figures as the code before the speed work gave them (fights won by the
// party, by the foes, unfinished; fights ended in each round; each fighter's bloodied, defeated
// and fallen fights; each one's mean damage dealt).
const PARTY_FOES_UNFINISHED: (u32, u32, u32) = (928, 1072, 0);
const ROUNDS: [u32; 10] = [0, 0, 3, 115, 553, 622, 487, 196, 23, 1];
const FIGHTERS: [(u32, u32, u32); 10] = [
    (2000, 2000, 0),
    (1939, 1768, 0),
    (2000, 1996, 0),
    (1388, 1072, 0),
    (1995, 1830, 0),
    (2000, 2000, 0),
    (2000, 2000, 0),
    (1416, 955, 0),
    (1955, 1875, 0),
    (1604, 1391, 0),
];
const DEALT: [f64; 10] = [
    14.015, 48.408, 25.9005, 87.166, 42.4315, 0.93, 8.268, 70.583, 13.707, 25.087,
];
const BENCH_REPORT: u64 = 0x751a_aee0_6ba5_4f37;

#[test]
fn the_bench_fight_under_each_policy_plays_as_it_played() {
    let mut changed = Vec::new();
    for (policy, report, traces) in [
        (
            "focus",
            0xe18f_b8f2_5820_e5e7u64,
            [
                0x3ff2_8455_9ab1_8713u64,
                0x625a_d6aa_4109_725a,
                0x5357_963f_7ff8_09d1,
            ],
        ),
        (
            "threat",
            0x0d7c_8e54_5e18_d19e,
            [
                0x45e5_4312_6964_f764,
                0x71ad_2872_38d8_ea8d,
                0x9286_d8aa_b782_737a,
            ],
        ),
        (
            "rescue",
            0x4737_9b8a_7302_27c4,
            [
                0x3c92_5767_821e_8685,
                0x8201_b39e_86cd_7529,
                0x1541_39ef_968e_8642,
            ],
        ),
        (
            "random",
            0xda6b_1e89_4391_94fb,
            [
                0x333c_4b9d_df80_e65b,
                0x0e5a_6f4f_d9d2_a002,
                0x7c76_42d8_c072_9d53,
            ],
        ),
    ] {
        let mut request = bench(3, 4, 300, 77);
        request["options"]["policy"] = json!({ "party": policy, "foes": "random" });
        let ok = pin(&format!("bench 3 vs 4, {policy}"), request, report, &traces);
        changed.extend((!ok).then_some(policy));
    }
    assert!(changed.is_empty(), "the forecast changed under {changed:?}");
}

#[test]
fn a_fight_of_many_rules_plays_as_it_played() {
    let mut changed = Vec::new();
    for (party, foes, report, traces) in [
        (
            "focus",
            "threat",
            0x02f0_0285_6fb2_5b4cu64,
            [
                0x7b94_f41f_bb02_eeb7u64,
                0xa4e5_f749_3e4b_bb93,
                0xb317_adcb_020c_3479,
                0xa87d_5eea_1b4b_7cea,
            ],
        ),
        (
            "rescue",
            "focus",
            0x8a39_df1f_ebe5_c007,
            [
                0xedd8_3c54_a2e5_4664,
                0xa4e5_f749_3e4b_bb93,
                0x12cd_55ac_8022_9e91,
                0xa87d_5eea_1b4b_7cea,
            ],
        ),
        (
            "threat",
            "random",
            0xdd96_ea7e_5eba_73ed,
            [
                0xa6d7_3427_9f8f_43c3,
                0xb466_1732_00e9_29a2,
                0x74af_f378_c504_4956,
                0xf98b_ac68_3f9f_d57c,
            ],
        ),
        (
            "random",
            "rescue",
            0x5c9d_90f6_4e25_4b91,
            [
                0x0899_23e2_1d3d_a0a2,
                0x8919_c708_a337_8e4d,
                0x150d_e43d_cc68_0099,
                0x3164_a9f3_6829_0371,
            ],
        ),
    ] {
        let name = format!("many rules, {party} vs {foes}");
        if !pin(&name, many_rules(party, foes, 400, 2026), report, &traces) {
            changed.push(name);
        }
    }
    assert!(changed.is_empty(), "the forecast changed: {changed:?}");
}
