//! Combat state version 3 is read and written exactly as the core of commit e44cd84 wrote it:
//! every event of the fights in tests/fixtures/combat-v3.json (captured from that core by
//! tests/fixtures/capture-v3.mjs) applied to the state before it gives the same JSON text, byte
//! for byte (the one fight past today's limit on combatants: the steps its log holds), and the
//! older stored shapes upgrade to the same text.

use icon_engine::combat::{apply_owned, CombatState, Event, Step, MAX_COMBATANTS};
use icon_engine::decode::from_json_text;
use serde_json::Value;

/// `{state, effects}` as the wasm boundary writes it.
fn answer(state: Option<&str>, event: &Value) -> Result<String, String> {
    let state: Option<CombatState> = state
        .map(|s| from_json_text("combat state", s))
        .transpose()
        .map_err(|e| e.to_string())?;
    let event: Event =
        from_json_text("combat event", &event.to_string()).map_err(|e| e.to_string())?;
    let (state, effects) = apply_owned(state, &event).map_err(|e| e.message().to_string())?;
    Ok(format!(
        "{{\"state\":{},\"effects\":{}}}",
        serde_json::to_string(&state).unwrap(),
        serde_json::to_string(&effects).unwrap()
    ))
}

fn fixture() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/combat-v3.json"
    ))
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Replays `steps` from no state: each answer (or refusal) must be the stored one, and the next
/// event applies to the state it gave.
fn replay(steps: &Value) -> usize {
    let mut state: Option<String> = None;
    let mut compared = 0;
    for (k, step) in steps.as_array().unwrap().iter().enumerate() {
        let event = &step["event"];
        match (answer(state.as_deref(), event), step.get("error")) {
            (Ok(text), None) => {
                if let Some(stored) = step.get("out") {
                    assert_eq!(text, stored.as_str().unwrap(), "step {k}: {event}");
                    compared += 1;
                }
                let out: Value = serde_json::from_str(&text).unwrap();
                state = Some(out["state"].to_string());
            }
            (Err(message), Some(stored)) => {
                assert_eq!(message, stored.as_str().unwrap(), "step {k}: {event}");
                compared += 1;
            }
            (got, stored) => panic!("step {k}: {event}: {got:?}, stored {stored:?}"),
        }
    }
    compared
}

#[test]
fn a_fight_of_every_event_kind_is_written_as_before() {
    let f = fixture();
    assert!(replay(&f["fight"]) > 200);
}

/// The fight of 2,044 combatants whose log filled with departures (three summoners leaving with
/// 680 summons each) is past today's limit on combatants: its start is refused, naming it. What
/// its log held is still read and written as before: every page of the states stored, each step
/// decoded and written again, is the same text.
#[test]
fn a_log_full_of_departures_is_written_as_before() {
    let heavy = fixture()["heavy"].as_array().unwrap().clone();
    let start = &heavy[0]["event"];
    assert!(start["combatants"].as_array().unwrap().len() > MAX_COMBATANTS);
    assert_eq!(
        answer(None, start).unwrap_err(),
        format!(
            "invalid combat event: `combatants`: a combat has at most {MAX_COMBATANTS} combatants"
        )
    );
    let mut pages = 0;
    let mut departures = 0;
    for stored in heavy.iter().filter_map(|step| step.get("out")) {
        let out: Value = serde_json::from_str(stored.as_str().unwrap()).unwrap();
        for page in out["state"]["log"].as_object().unwrap().values() {
            let text = page.as_str().unwrap();
            let steps: Vec<Step> = serde_json::from_str(text).unwrap();
            departures += steps.iter().map(Step::weight).sum::<usize>();
            assert_eq!(serde_json::to_string(&steps).unwrap(), text);
            pages += 1;
        }
    }
    assert!(
        pages >= 1 && departures >= 680,
        "{pages} pages, {departures} records"
    );
}

#[test]
fn older_shapes_upgrade_as_before() {
    let f = fixture();
    for old in f["older"].as_array().unwrap() {
        let name = old["from"].as_str().unwrap();
        let stored = std::fs::read_to_string(format!(
            "{}/tests/fixtures/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let upgrade = serde_json::json!({"type": "upgrade"});
        assert_eq!(
            answer(Some(&stored), &upgrade).unwrap(),
            old["out"].as_str().unwrap(),
            "{name}"
        );
    }
}
