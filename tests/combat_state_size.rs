//! A stored combat state is refused by its length before it is parsed (issue 36): a state of
//! megabytes costs no parse, while the largest state this core writes is far below the limit.

use icon_engine::combat::{apply, CombatState, Event, MAX_COMBATANTS, MAX_HISTORY, MAX_STATE_JSON};
use serde_json::{json, Value};

fn ev(v: Value) -> Event {
    serde_json::from_value(v).unwrap()
}

fn ok(state: Option<&CombatState>, e: Value) -> CombatState {
    apply(state, &ev(e.clone()))
        .unwrap_or_else(|err| panic!("{e}: {err}"))
        .0
        .unwrap()
}

/// A combatant id of the longest kind (256 bytes), numbered.
fn long_id(n: usize) -> String {
    format!("{n:x<256}")
}

#[test]
fn the_largest_state_this_core_writes_is_far_below_the_limit() {
    // a thousand combatants with the longest ids: a hundred summoners with nine summons each;
    // each of the hundred kept steps is a summoner leaving, which records ten combatants in full
    let summoners = MAX_COMBATANTS / 10;
    let combatants: Vec<Value> = (0..MAX_COMBATANTS)
        .map(|n| {
            let summoner = (n >= summoners).then(|| long_id(n % summoners));
            json!({"id": long_id(n), "side": if n % 2 == 0 { "party" } else { "foes" },
                "isPlayerCharacter": false, "summoner": summoner})
        })
        .collect();
    let mut state = ok(None, json!({"type": "start", "combatants": combatants}));
    for n in 0..summoners {
        state = ok(
            Some(&state),
            json!({"type": "removeCombatant", "id": long_id(n)}),
        );
    }
    assert_eq!(state.log.len(), MAX_HISTORY);
    assert_eq!(state.log.weight(), MAX_COMBATANTS as u64);
    let text = serde_json::to_string(&state).unwrap();
    assert!(text.len() < MAX_STATE_JSON / 4, "{} bytes", text.len());
    assert_eq!(CombatState::from_json_text(&text).unwrap(), state);
}

#[test]
fn a_state_past_the_limit_is_refused_by_its_length() {
    let state = ok(
        None,
        json!({"type": "start", "combatants": [{"id": "pc", "side": "party", "isPlayerCharacter": true}]}),
    );
    let text = serde_json::to_string(&state).unwrap();
    // the same state padded to the limit exactly reads; one byte more is refused unread
    let at_limit = format!("{text}{}", " ".repeat(MAX_STATE_JSON - text.len()));
    assert_eq!(CombatState::from_json_text(&at_limit).unwrap(), state);
    let past = format!("{at_limit} ");
    let err = CombatState::from_json_text(&past).unwrap_err().to_string();
    assert_eq!(
        err,
        format!(
            "invalid combat state: it is {} bytes of JSON; the limit is {MAX_STATE_JSON}",
            MAX_STATE_JSON + 1
        )
    );
    // thirty megabytes that are not even JSON are refused the same way
    let junk = "[".repeat(30 << 20);
    let err = CombatState::from_json_text(&junk).unwrap_err().to_string();
    assert!(err.contains("the limit is"), "{err}");
}
