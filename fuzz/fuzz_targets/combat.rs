//! The combat reducer on arbitrary event sequences: refusals leave the state as it was, every
//! state round-trips through JSON, undo of an accepted event gives back the state before it,
//! and replaying the undo log from its checkpoint gives the state.
#![no_main]
use arbitrary::Arbitrary;
use icon_engine::combat::{apply, replay, CombatState, Event, MAX_HISTORY};
use libfuzzer_sys::fuzz_target;
use serde_json::json;

#[derive(Debug, Arbitrary)]
enum Ev {
    Start(Vec<(u8, bool, bool, u8, bool)>),
    BeginTurn(u8),
    EndTurn,
    GoSlow(u8),
    Delay(u8),
    Add(u8, bool, bool, u8, bool),
    Summon(u8, u8),
    Remove(u8),
    SetDefeated(u8, bool),
    Undo,
    EndCombat,
}

fn id(n: u8) -> String {
    format!("c{}", n % 12)
}

fn entry(n: u8, foe: bool, pc: bool, template: u8, can_slow: bool) -> serde_json::Value {
    let template = match template % 4 {
        0 => json!(null),
        1 => json!("elite"),
        2 => json!("legend"),
        _ => json!("mob"),
    };
    json!({"id": id(n), "side": if foe { "foes" } else { "party" }, "isPlayerCharacter": pc,
           "template": template, "canSlow": can_slow})
}

fn event(e: &Ev) -> serde_json::Value {
    match e {
        Ev::Start(list) => json!({"type": "start", "combatants":
            list.iter().take(16).map(|(n, f, pc, t, s)| entry(*n, *f, *pc, *t, *s)).collect::<Vec<_>>()}),
        Ev::BeginTurn(n) => json!({"type": "beginTurn", "id": id(*n)}),
        Ev::EndTurn => json!({"type": "endTurn"}),
        Ev::GoSlow(n) => json!({"type": "goSlow", "id": id(*n)}),
        Ev::Delay(n) => json!({"type": "delay", "id": id(*n)}),
        Ev::Add(n, f, pc, t, s) => {
            json!({"type": "addCombatant", "combatant": entry(*n, *f, *pc, *t, *s)})
        }
        Ev::Summon(n, by) => {
            json!({"type": "addCombatant", "combatant": {"id": id(*n), "side": "party", "summoner": id(*by)}})
        }
        Ev::Remove(n) => json!({"type": "removeCombatant", "id": id(*n)}),
        Ev::SetDefeated(n, d) => json!({"type": "setDefeated", "id": id(*n), "defeated": d}),
        Ev::Undo => json!({"type": "undo"}),
        Ev::EndCombat => json!({"type": "endCombat"}),
    }
}

fuzz_target!(|events: Vec<Ev>| {
    let mut state: Option<CombatState> = None;
    for e in events.iter().take(400) {
        let event: Event =
            serde_json::from_value(event(e)).expect("the fuzzer's events are valid JSON events");
        let Ok((next, _effects)) = apply(state.as_ref(), &event) else {
            continue;
        };
        if let Some(s) = &next {
            let text = serde_json::to_string(s).unwrap();
            let back: CombatState = serde_json::from_str(&text).unwrap();
            assert_eq!(&back, s, "the state round-trips");
            if let Some(turn) = &s.now.current {
                assert!(s.now.get(&turn.id).is_some(), "the open turn's combatant is in the fight");
            }
            // a delay already pending changes nothing and logs nothing to undo
            let undoable = !matches!(event, Event::Undo | Event::Upgrade) && next.as_ref() != state.as_ref();
            if let (true, Some(before)) = (undoable, &state) {
                let (undone, _) = apply(next.as_ref(), &Event::Undo).expect("undo of an accepted event");
                let undone = undone.expect("a state");
                assert_eq!(undone.now, before.now, "undo gives back the fight before");
                if before.log.len() < MAX_HISTORY {
                    assert_eq!(&undone, before, "undo gives back the state before");
                }
            }
            let checkpoint = s.checkpoint().expect("a checkpoint");
            let steps = s.log.steps().expect("the log decodes");
            assert_eq!(&replay(checkpoint, &steps).expect("a replay"), s, "replay from the checkpoint");
        }
        state = next;
    }
});
