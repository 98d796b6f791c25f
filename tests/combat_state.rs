//! The combat state as stored on the Combat document: its shape and size, its limits, and
//! reading the shape from before issue 18 (fixtures captured from that code by
//! tests/fixtures/capture-combat-v1.mjs).

use icon_engine::combat::{apply, CombatState, Event, Step, MAX_COMBATANTS, MAX_HISTORY};
use icon_engine::decode::from_json_text;
use serde_json::{json, Value};

fn ev(v: Value) -> Event {
    serde_json::from_value(v).unwrap()
}

fn ok(state: Option<&CombatState>, e: Value) -> Option<CombatState> {
    apply(state, &ev(e.clone()))
        .unwrap_or_else(|err| panic!("{e}: {err}"))
        .0
}

/// A Foundry-like 16-character id.
fn fid(name: &str) -> String {
    format!("{name:0<16}")
}

/// A stored combatant as named fields: version 3 stores `[id, side, flags, taken, slow, turns,
/// template?, summoner?]` (side 0/1, flags 1 player character, 2 may go slow, 4 defeated,
/// 8 delay), versions 1 and 2 an object.
fn as_fields(c: &Value) -> Value {
    let Value::Array(a) = c else {
        return c.clone();
    };
    let flags = a[2].as_u64().unwrap();
    let mut out = json!({
        "id": a[0], "side": if a[1] == json!(0) { "party" } else { "foes" },
        "isPlayerCharacter": flags & 1 != 0, "canSlow": flags & 2 != 0,
        "defeated": flags & 4 != 0, "delay": flags & 8 != 0,
        "taken": a[3], "slow": a[4], "turns": a[5],
    });
    if let Some(t) = a.get(6).filter(|t| **t != json!(0)) {
        out["template"] = t.clone();
    }
    if let Some(by) = a.get(7) {
        out["summoner"] = by.clone();
    }
    out
}

/// The fight a state shows, in one canonical form whatever its shape: the fight's fields and
/// every combatant by id with every field written out (version 2 leaves defaults out, version 1
/// listed combatants in an array). The undo log is not part of it.
fn view(state: &Value) -> Value {
    let list: Vec<Value> = match &state["combatants"] {
        Value::Array(a) => a.clone(),
        Value::Object(m) => m.values().cloned().collect(),
        other => panic!("combatants: {other}"),
    };
    let mut combatants = serde_json::Map::new();
    for c in list {
        let c = as_fields(&c);
        let f = |k: &str, d: Value| c.get(k).cloned().unwrap_or(d);
        combatants.insert(
            c["id"].as_str().unwrap().to_string(),
            json!({
                "side": c["side"], "isPlayerCharacter": f("isPlayerCharacter", json!(false)),
                "template": f("template", Value::Null), "canSlow": f("canSlow", json!(false)),
                "defeated": f("defeated", json!(false)), "taken": f("taken", json!(0)),
                "slow": f("slow", json!(0)), "delay": f("delay", json!(false)), "turns": c["turns"],
            }),
        );
    }
    let keys = [
        "round",
        "partyResolve",
        "regularSide",
        "slowSide",
        "lastSide",
        "current",
        "ended",
        "next",
    ];
    let mut out: serde_json::Map<String, Value> = keys
        .iter()
        .map(|k| (k.to_string(), state[*k].clone()))
        .collect();
    out.insert("combatants".into(), Value::Object(combatants));
    Value::Object(out)
}

fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A state stored before issue 18 reads as the same fight; undo walks back through every
/// snapshot it carried, exactly; and it goes on from there.
fn migrates(name: &str) -> (CombatState, Value) {
    let old = fixture(name);
    let state: CombatState = serde_json::from_value(old.clone()).unwrap();
    let new = serde_json::to_value(&state).unwrap();
    assert_eq!(new["v"], json!(3));
    assert!(new.get("history").is_none());
    assert_eq!(view(&new), view(&old), "the fight now");
    assert_eq!(new["forgotten"], old["forgotten"]);
    // written again, it reads back the same
    let again: CombatState = serde_json::from_value(new.clone()).unwrap();
    assert_eq!(again, state);
    let history = old["history"].as_array().unwrap();
    assert_eq!(state.log.len(), history.len());
    let mut s = Some(state.clone());
    for (i, snapshot) in history.iter().enumerate().rev() {
        s = ok(s.as_ref(), json!({"type": "undo"}));
        let shown = serde_json::to_value(s.as_ref().unwrap()).unwrap();
        assert_eq!(view(&shown), view(snapshot), "{name}: snapshot {i}");
    }
    (state, old)
}

#[test]
fn a_state_stored_before_issue_18_mid_fight_keeps_working() {
    let (state, old) = migrates("combat-v1-midfight.json");
    let old = old.clone();
    assert_eq!(old["history"].as_array().unwrap().len(), 41);
    // nothing was forgotten, so one more undo undoes the start
    let mut s = Some(state.clone());
    for _ in 0..41 {
        s = ok(s.as_ref(), json!({"type": "undo"}));
    }
    assert!(ok(s.as_ref(), json!({"type": "undo"})).is_none());
    // the fight goes on: the open turn ends, the foes go on, Mira's delayed slow turn waits
    let s = ok(Some(&state), json!({"type": "endTurn"}));
    let err = apply(
        s.as_ref(),
        &ev(json!({"type": "beginTurn", "id": fid("mira")})),
    )
    .unwrap_err();
    assert!(
        err.message().contains("foes side's turn"),
        "{}",
        err.message()
    );
    let s = ok(s.as_ref(), json!({"type": "beginTurn", "id": fid("ogre")}));
    let s = ok(s.as_ref(), json!({"type": "endTurn"}));
    let st = s.unwrap();
    assert_eq!(st.log.len(), 44, "the converted steps and the new ones");
    // the converted steps hold the snapshots' differences, so the state shrinks from the old
    // 55 KB to this at once, and under 4 KB as new steps push them out
    let size = serde_json::to_string(&st).unwrap().len();
    assert!(size < 16_000, "{size}");
    eprintln!(
        "mid-fight state converted: {size} bytes (was {})",
        old.to_string().len()
    );
}

#[test]
fn a_long_fight_stored_before_issue_18_keeps_its_100_steps_and_limit() {
    let (state, _) = migrates("combat-v1-long.json");
    assert_eq!((state.log.len(), state.forgotten()), (MAX_HISTORY, 31));
    let mut s = Some(state);
    for _ in 0..MAX_HISTORY {
        s = ok(s.as_ref(), json!({"type": "undo"}));
    }
    let err = apply(s.as_ref(), &ev(json!({"type": "undo"}))).unwrap_err();
    assert!(
        err.message().contains("at most 100 steps"),
        "{}",
        err.message()
    );
}

#[test]
fn upgrade_converts_without_logging_anything() {
    let old = fixture("combat-v1-midfight.json");
    let state: CombatState = serde_json::from_value(old).unwrap();
    let (up, fx) = apply(Some(&state), &ev(json!({"type": "upgrade"}))).unwrap();
    assert_eq!(up.as_ref(), Some(&state));
    assert!(fx.is_empty());
    assert!(apply(None, &ev(json!({"type": "upgrade"}))).is_err());
}

/// Fifteen combatants with Foundry ids: five characters, an Elite, a Legend, a foe that may go
/// slow, seven others.
fn fifteen() -> Vec<Value> {
    let mut v: Vec<Value> = (0..5)
        .map(|i| json!({"id": fid(&format!("pc{i}")), "side": "party", "isPlayerCharacter": true}))
        .collect();
    v.push(json!({"id": fid("elite"), "side": "foes", "template": "elite"}));
    v.push(json!({"id": fid("legend"), "side": "foes", "template": "legend"}));
    v.push(json!({"id": fid("sly"), "side": "foes", "canSlow": true}));
    v.extend((0..7).map(|i| json!({"id": fid(&format!("foe{i}")), "side": "foes"})));
    v
}

#[test]
fn a_fifteen_combatant_fight_stays_under_4_kb_however_long() {
    let mut s = ok(None, json!({"type": "start", "combatants": fifteen()}));
    let mut largest = 0;
    let mut events = 0;
    for round in 0..40u32 {
        // the tracker's moves, with a slow turn, a delay, a defeat and resolve now and then
        while s.as_ref().unwrap().now.round == round + 1 {
            let st = s.as_ref().unwrap();
            let e = if let Some(turn) = &st.now.current {
                if events % 9 == 0 {
                    let id = turn.id.clone();
                    s = ok(s.as_ref(), json!({"type": "delay", "id": id}));
                    events += 1;
                }
                json!({"type": "endTurn"})
            } else {
                let next = st.now.next.expect("someone acts");
                let (regular, side) =
                    (next.phase == icon_engine::combat::Phase::Regular, next.side);
                let c = st
                    .now
                    .combatants
                    .values()
                    .filter(|c| c.entry.side == side && !c.defeated)
                    .find(|c| {
                        if regular {
                            st.now.regular_left(c) > 0
                        } else {
                            c.slow > 0
                        }
                    })
                    .unwrap();
                let can_slow = c.entry.side == icon_engine::combat::Side::Party || c.entry.can_slow;
                if regular && (c.delay || (can_slow && events % 7 == 3)) {
                    json!({"type": "goSlow", "id": c.entry.id})
                } else {
                    json!({"type": "beginTurn", "id": c.entry.id})
                }
            };
            s = ok(s.as_ref(), e);
            events += 1;
            if events % 23 == 0 {
                let who = fid(&format!("foe{}", (events / 23) % 7));
                let defeated = (events / 23) % 2 == 0;
                s = ok(
                    s.as_ref(),
                    json!({"type": "setDefeated", "id": who, "defeated": defeated}),
                );
                let by = if s.as_ref().unwrap().now.party_resolve > 0 {
                    -1
                } else {
                    1
                };
                s = ok(s.as_ref(), json!({"type": "adjustResolve", "by": by}));
                events += 2;
            }
            let size = serde_json::to_string(s.as_ref().unwrap()).unwrap().len();
            largest = largest.max(size);
            assert!(size <= 4096, "{size} bytes after {events} events");
        }
    }
    let st = s.unwrap();
    assert_eq!(st.log.len(), MAX_HISTORY);
    assert!(st.forgotten() > 500, "{}", st.forgotten());
    eprintln!("largest stored state: {largest} bytes over {events} events");
}

#[test]
fn the_stored_shape_keys_what_changes() {
    let s = ok(None, json!({"type": "start", "combatants": fifteen()}));
    let s = ok(s.as_ref(), json!({"type": "beginTurn", "id": fid("pc0")}));
    let v = serde_json::to_value(s.as_ref().unwrap()).unwrap();
    // combatants by number, each [id, side, flags, taken, slow, turns]; the log by step number
    assert_eq!(v["combatants"]["0"], json!([fid("pc0"), 0, 1, 1, 0, 1]));
    assert_eq!(
        v["combatants"]["6"][5],
        json!(5),
        "the Legend: one per character"
    );
    // the log in pages of ten steps, each page the JSON text of its steps; no null anywhere
    assert_eq!(v["log"], json!({"0": r#"[[0,0]]"#}));
    assert_eq!(
        (v["logged"].clone(), v["forgotten"].clone()),
        (json!(1), json!(0))
    );
    assert_eq!(v["nextNumber"], json!(15));
    assert_eq!(v["current"], json!({"id": fid("pc0"), "slow": false}));
    assert!(v.get("next").is_none() && v.get("logWeight").is_none());
    let s = ok(s.as_ref(), json!({"type": "endTurn"}));
    let text = serde_json::to_string(s.as_ref().unwrap()).unwrap();
    assert!(!text.contains("null"), "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["log"], json!({"0": r#"[[0,0],[1,0,0,0,2]]"#}));
    assert!(v.get("current").is_none());
    // past ten steps a second page starts; past 100 the oldest page loses steps one by one
    let mut s = s;
    for _ in 0..108 {
        s = ok(s.as_ref(), json!({"type": "adjustResolve", "by": 1}));
    }
    let v = serde_json::to_value(s.as_ref().unwrap()).unwrap();
    assert_eq!(
        (v["logged"].clone(), v["forgotten"].clone()),
        (json!(110), json!(10))
    );
    let mut pages: Vec<u64> = v["log"]
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.parse().unwrap())
        .collect();
    pages.sort();
    assert_eq!(pages, (1..=10).collect::<Vec<_>>(), "steps 11 to 110");
    // every step kind reads back as written
    let steps: Vec<Step> = serde_json::from_value(json!([
        [0, 3, 1], [1, 2, 1, 0, 1, [1, 0, [[4, 0, 1]]]], [1, 0, 0, 0, 2], [2, 1, 1], [3, 0, 0],
        [4, {"id": "x", "side": "foes", "summoner": "y"}],
        [5, [[[7, {"id": "q", "side": "party", "turns": 1}]], [7, 0, 1, 2], [[6, 2]]], [0, 0, []]],
        [5, [[[7, {"id": "q", "side": "party", "turns": 1}]], 0, []]],
        [6, 2, 1, 0], [6, 2, 1, 0, 0, [0, 1, []]], [7, -2], [8, [1, 1], 4], [8, 0, 0],
        [9, [[2, 2, 0, 1, 2, 0, 0], []], [[2, 3, 0, 1, 0, [0, 0], 0], [[0, {"id": "a", "side": "party", "turns": 1}]]]]
    ]))
    .unwrap();
    let again = serde_json::to_value(&steps).unwrap();
    assert_eq!(serde_json::from_value::<Vec<Step>>(again).unwrap(), steps);
    for bad in [
        json!([10, 1]),
        json!([0]),
        json!([0, 1, 2]),
        json!([3, 1, 0, 9]),
        json!({}),
        json!([1, 0, 0, 0, 3]),
        json!([8, 5, 0]),
        json!(["b", 0]),
    ] {
        assert!(
            serde_json::from_value::<Step>(bad.clone()).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn bad_stored_states_are_refused_naming_the_field() {
    let s = ok(None, json!({"type": "start", "combatants": fifteen()}));
    let s = ok(s.as_ref(), json!({"type": "beginTurn", "id": fid("pc0")}));
    let good = serde_json::to_value(s.as_ref().unwrap()).unwrap();
    // read as the wasm boundary reads it, then used
    let refused = |mutate: &dyn Fn(&mut Value), words: &str| {
        let mut v = good.clone();
        mutate(&mut v);
        let err = match from_json_text::<CombatState>("combat state", &v.to_string()) {
            Err(e) => e.message().to_string(),
            Ok(st) => apply(Some(&st), &ev(json!({"type": "endTurn"})))
                .unwrap_err()
                .message()
                .to_string(),
        };
        assert!(
            err.contains(words) && err.starts_with("invalid combat state: "),
            "{err}"
        );
    };
    refused(&|v| v["v"] = json!(4), "`v`: version 4");
    refused(
        &|v| v["log"] = json!({"2": r#"[[0,0]]"#}),
        "invalid combat state: `log`: steps 1 to 1 are kept",
    );
    refused(
        &|v| v["logged"] = json!(120),
        "invalid combat state: `log`: it keeps at most 100 steps",
    );
    refused(&|v| v["logged"] = json!(0), "invalid combat state: `log`");
    refused(
        &|v| v["current"]["id"] = json!("nobody"),
        "invalid combat state: `current`",
    );
    refused(
        &|v| v["nextNumber"] = json!(3),
        "invalid combat state: `nextNumber`",
    );
    refused(
        &|v| v["combatants"]["1"][0] = json!(fid("pc0")),
        "`combatants`: pc00000000000000 is there twice",
    );
    refused(&|v| v["round"] = json!("one"), "`round`");
    // numbers far past anything a fight reaches: refused, never a wrap or a huge page list
    refused(
        &|v| {
            v["logged"] = json!(u64::MAX);
            v["forgotten"] = json!(u64::MAX - 5);
        },
        "`logged`: steps are numbered up to",
    );
    refused(
        &|v| v["logged"] = json!(u64::MAX),
        "invalid combat state: `logged`",
    );
    // a log that does not fit the fight is refused when undo reaches it, never a panic
    let mut v = good.clone();
    v["log"] = json!({"0": r#"[[0,9]]"#});
    let st: CombatState = serde_json::from_value(v).unwrap();
    let err = apply(Some(&st), &ev(json!({"type": "undo"}))).unwrap_err();
    assert!(
        err.message().contains("undo log does not match"),
        "{}",
        err.message()
    );
    let mut v = good.clone();
    v["log"] = json!({"0": r#"[[0,0],[0,0]]"#});
    let st: CombatState = serde_json::from_value(v).unwrap();
    let err = apply(Some(&st), &ev(json!({"type": "undo"}))).unwrap_err();
    assert!(
        err.message().contains("holds 2 steps, not 1"),
        "{}",
        err.message()
    );
}

#[test]
fn a_combat_has_at_most_max_combatants() {
    let many = |n: usize| -> Value {
        json!((0..n)
            .map(|i| json!({"id": format!("c{i}"), "side": if i % 2 == 0 {"party"} else {"foes"}}))
            .collect::<Vec<_>>())
    };
    let s = ok(
        None,
        json!({"type": "start", "combatants": many(MAX_COMBATANTS)}),
    );
    let err = apply(
        s.as_ref(),
        &ev(json!({"type": "addCombatant", "combatant": {"id": "one more", "side": "foes"}})),
    )
    .unwrap_err();
    assert!(
        err.message()
            .contains(&format!("at most {MAX_COMBATANTS} combatants")),
        "{}",
        err.message()
    );
    let text = json!({"type": "start", "combatants": many(MAX_COMBATANTS + 1)}).to_string();
    let err = serde_json::from_str::<Event>(&text)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&format!("at most {MAX_COMBATANTS} combatants")),
        "{err}"
    );
    // through the boundary's decoding: the field named, by the reader that refused (src/decode.rs
    // takes its located message instead of reading the list again to find the field)
    let err = from_json_text::<Event>("combat event", &text).unwrap_err();
    assert_eq!(
        err.message(),
        format!(
            "invalid combat event: `combatants`: a combat has at most {MAX_COMBATANTS} combatants"
        )
    );
    let mut stored = serde_json::to_value(s.as_ref().unwrap()).unwrap();
    let first = stored["combatants"]["0"].clone();
    stored["combatants"][MAX_COMBATANTS.to_string()] = first;
    stored["nextNumber"] = json!(MAX_COMBATANTS + 1);
    let err = from_json_text::<CombatState>("combat state", &stored.to_string()).unwrap_err();
    assert_eq!(
        err.message(),
        format!(
            "invalid combat state: `combatants`: a combat has at most {MAX_COMBATANTS} combatants"
        )
    );
    let long = "x".repeat(257);
    let err = apply(
        None,
        &ev(json!({"type": "start", "combatants": [{"id": long, "side": "party"}]})),
    )
    .unwrap_err();
    assert!(
        err.message().contains("at most 256 bytes"),
        "{}",
        err.message()
    );
}

#[test]
fn a_chain_of_summons_as_long_as_a_combat_leaves_with_its_first_summoner() {
    // each summoned by the one before: the summoner's defeat takes all of them, in one pass
    let mut roster = vec![
        json!({"id": "c0", "side": "party", "isPlayerCharacter": true}),
        json!({"id": "foe", "side": "foes"}),
    ];
    roster.extend((1..MAX_COMBATANTS - 1).map(
        |i| json!({"id": format!("c{i}"), "side": "party", "summoner": format!("c{}", i - 1)}),
    ));
    let s = ok(None, json!({"type": "start", "combatants": roster}));
    let (s, fx) = apply(
        s.as_ref(),
        &ev(json!({"type": "setDefeated", "id": "c0", "defeated": true})),
    )
    .unwrap();
    assert!(
        matches!(&fx[0], icon_engine::combat::Effect::SummonsLeft { ids, .. } if ids.len() == MAX_COMBATANTS - 2)
    );
    assert_eq!(s.as_ref().unwrap().now.combatants.len(), 2);
    let (s, _) = apply(s.as_ref(), &ev(json!({"type": "undo"}))).unwrap();
    assert_eq!(s.unwrap().now.combatants.len(), MAX_COMBATANTS);
}

/// A state stored in version 2 (stop 21: each combatant an object of named fields) reads as the
/// same fight, is written back in version 3 (each combatant an array), and goes on the same.
#[test]
fn a_version_2_state_reads_as_the_same_fight() {
    let old = fixture("combat-state-v2.json");
    assert_eq!(old["v"], json!(2));
    let state: CombatState = from_json_text("combat state", &old.to_string()).unwrap();
    let new = serde_json::to_value(&state).unwrap();
    assert_eq!(new["v"], json!(3));
    assert!(new["combatants"]["0"].is_array());
    assert_eq!(view(&new), view(&old), "the fight now");
    assert_eq!(
        (&new["log"], &new["logged"], &new["forgotten"]),
        (&old["log"], &old["logged"], &old["forgotten"])
    );
    let (a, b) = (
        apply(Some(&state), &ev(json!({"type": "endTurn"}))).unwrap(),
        apply(
            Some(&from_json_text::<CombatState>("combat state", &new.to_string()).unwrap()),
            &ev(json!({"type": "endTurn"})),
        )
        .unwrap(),
    );
    assert_eq!(a, b, "the same event gives the same fight from either");
    let undone = apply(a.0.as_ref(), &ev(json!({"type": "undo"}))).unwrap();
    // (the full log forgot its oldest step for the new one, so only the fight comes back whole)
    assert_eq!(
        undone.0.map(|s| s.now),
        Some(state.now),
        "and undo comes back to it"
    );
}
