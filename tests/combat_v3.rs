//! Combat state version 3 is read and written exactly as the core of commit e44cd84 wrote it:
//! every event of the fights in tests/fixtures/combat-v3.json (captured from that core by
//! tests/fixtures/capture-v3.mjs) applied to the state before it gives the same JSON text, byte
//! for byte, and the older stored shapes upgrade to the same text.

use icon_engine::combat::{apply_owned, CombatState, Event};
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

#[test]
fn a_log_full_of_departures_is_written_as_before() {
    assert_eq!(replay(&fixture()["heavy"]), 3);
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
