//! The ICON turn-order reducer: worked fights and properties over random valid event sequences.

use icon_engine::combat::{apply, CombatState, Effect, Event, Phase, Side};
use proptest::prelude::*;
use serde_json::json;

fn ev(v: serde_json::Value) -> Event {
    serde_json::from_value(v).unwrap()
}

struct Fight {
    state: Option<CombatState>,
    log: Vec<Effect>,
}

impl Fight {
    fn start(combatants: serde_json::Value) -> Self {
        let mut f = Fight {
            state: None,
            log: Vec::new(),
        };
        f.ok(json!({"type": "start", "combatants": combatants}));
        f
    }
    fn ok(&mut self, e: serde_json::Value) -> Vec<Effect> {
        let (s, fx) =
            apply(self.state.as_ref(), &ev(e.clone())).unwrap_or_else(|err| panic!("{e}: {err}"));
        self.state = s;
        self.log.extend(fx.clone());
        fx
    }
    fn refused(&self, e: serde_json::Value, words: &str) {
        let err = apply(self.state.as_ref(), &ev(e.clone())).unwrap_err();
        assert!(err.message().contains(words), "{e}: {}", err.message());
    }
    fn turn(&mut self, id: &str) {
        self.ok(json!({"type": "beginTurn", "id": id}));
        self.ok(json!({"type": "endTurn"}));
    }
    fn round(&self) -> u32 {
        self.state.as_ref().unwrap().now.round
    }
    fn resolve(&self) -> u32 {
        self.state.as_ref().unwrap().now.party_resolve
    }
}

fn pc(id: &str) -> serde_json::Value {
    json!({"id": id, "side": "party", "isPlayerCharacter": true})
}

fn foe(id: &str, template: Option<&str>) -> serde_json::Value {
    json!({"id": id, "side": "foes", "template": template})
}

#[test]
fn three_characters_against_two_foes_with_an_elite() {
    let mut f = Fight::start(json!([
        pc("a"),
        pc("b"),
        pc("c"),
        foe("elite", Some("elite")),
        foe("grunt", None)
    ]));
    assert_eq!(
        (f.round(), f.resolve()),
        (1, 1),
        "party resolve +1 in round 1 too"
    );
    // round 1 starts with the party
    f.refused(
        json!({"type": "beginTurn", "id": "grunt"}),
        "party side's turn",
    );
    f.turn("b");
    f.refused(json!({"type": "beginTurn", "id": "c"}), "foes side's turn");
    f.turn("elite");
    f.turn("a");
    f.turn("elite"); // the elite's second turn
    f.refused(
        json!({"type": "beginTurn", "id": "elite"}),
        "party side's turn",
    );
    f.turn("c");
    f.turn("grunt"); // the foes took the last turn
    assert_eq!((f.round(), f.resolve()), (2, 2));
    // the next round starts with the side opposite the last turn: the party
    f.refused(
        json!({"type": "beginTurn", "id": "grunt"}),
        "party side's turn",
    );
    f.turn("a");
    // a turn must be ended before another begins; a finished combatant cannot go again
    f.ok(json!({"type": "beginTurn", "id": "elite"}));
    f.refused(json!({"type": "beginTurn", "id": "b"}), "still open");
    f.ok(json!({"type": "endTurn"}));
    f.refused(json!({"type": "beginTurn", "id": "a"}), "no turns left");
}

#[test]
fn when_one_side_runs_out_the_other_takes_its_turns_in_a_row() {
    let mut f = Fight::start(json!([pc("a"), pc("b"), pc("c"), foe("f", None)]));
    f.turn("a");
    f.turn("f");
    f.turn("b");
    f.turn("c"); // the foes have no turns left, so the party goes again
    assert_eq!(f.round(), 2);
    // the party took the last turn, so round 2 starts with the foes
    f.refused(json!({"type": "beginTurn", "id": "a"}), "foes side's turn");
    f.turn("f");
}

#[test]
fn slow_turns_and_delays() {
    let mut f = Fight::start(json!([pc("a"), pc("b"), foe("f", None), foe("g", None)]));
    // a foe cannot go slow unless flagged
    f.ok(json!({"type": "goSlow", "id": "a"})); // the party's slot passes on
    f.refused(json!({"type": "goSlow", "id": "f"}), "cannot go slow");
    f.turn("f");
    f.ok(json!({"type": "delay", "id": "b"}));
    f.refused(json!({"type": "beginTurn", "id": "b"}), "must go slow");
    f.ok(json!({"type": "goSlow", "id": "b"}));
    f.turn("g");
    // all regular turns done: slow turns alternate, party first
    let fx = f.ok(json!({"type": "beginTurn", "id": "b"}));
    assert_eq!(
        serde_json::to_value(&fx).unwrap(),
        json!([{"type": "delayFired", "id": "b"}, {"type": "turnStarted", "id": "b", "slow": true}])
    );
    f.ok(json!({"type": "endTurn"}));
    f.turn("a");
    assert_eq!(f.round(), 2);
    // a slow foe
    let mut f = Fight::start(
        json!([pc("a"), {"id": "s", "side": "foes", "canSlow": true}, foe("t", None)]),
    );
    f.turn("a");
    f.ok(json!({"type": "goSlow", "id": "s"}));
    f.refused(json!({"type": "beginTurn", "id": "s"}), "no turns left");
    let st = f.state.as_ref().unwrap();
    assert_eq!(
        st.now.next(),
        Some((Phase::Regular, Side::Foes)),
        "party has none left, foes take theirs"
    );
    f.turn("t");
    f.turn("s");
    assert_eq!(f.round(), 2);
}

#[test]
fn legends_take_one_turn_per_player_character_even_defeated_ones() {
    let mut f = Fight::start(json!([
        pc("a"),
        pc("b"),
        pc("c"),
        foe("dragon", Some("legend"))
    ]));
    f.ok(json!({"type": "setDefeated", "id": "c", "defeated": true}));
    let st = f.state.as_ref().unwrap();
    assert_eq!(st.now.turns_per_round(&st.now.combatants[3]), 3);
    f.turn("a");
    f.turn("dragon");
    f.turn("b");
    f.turn("dragon");
    f.refused(json!({"type": "beginTurn", "id": "c"}), "defeated");
    f.turn("dragon");
    assert_eq!(f.round(), 2);
}

#[test]
fn end_of_combat_and_undo_of_every_event_kind() {
    let events = [
        json!({"type": "beginTurn", "id": "a"}),
        json!({"type": "endTurn"}),
        json!({"type": "goSlow", "id": "x"}),
        json!({"type": "delay", "id": "a"}),
        json!({"type": "addCombatant", "combatant": pc("n")}),
        json!({"type": "removeCombatant", "id": "n"}),
        json!({"type": "setDefeated", "id": "x", "defeated": true}),
        json!({"type": "endCombat"}),
    ];
    let mut f = Fight::start(json!([pc("a"), {"id": "x", "side": "foes", "canSlow": true}]));
    let mut states = vec![f.state.clone()];
    for e in &events {
        f.ok(e.clone());
        states.push(f.state.clone());
    }
    // the last effects: end-of-combat rules and party resolve back to 0
    assert!(f.log.contains(&Effect::CombatEnded {
        personal_resolve: vec!["a".into()]
    }));
    assert_eq!(f.resolve(), 0);
    f.refused(json!({"type": "beginTurn", "id": "a"}), "has ended");
    // undo walks back through every state exactly, then to no combat at all
    for expected in states.iter().rev().skip(1) {
        f.ok(json!({"type": "undo"}));
        assert_eq!(&f.state, expected);
    }
    f.ok(json!({"type": "undo"}));
    assert!(f.state.is_none());
    // and the state round-trips through JSON exactly
    let f = Fight::start(json!([pc("a"), foe("b", Some("elite"))]));
    let text = serde_json::to_string(&f.state).unwrap();
    let back: Option<CombatState> = serde_json::from_str(&text).unwrap();
    assert_eq!(back, f.state);
}

#[test]
fn bad_events_are_refused_with_reasons() {
    let none = apply(None, &ev(json!({"type": "endTurn"}))).unwrap_err();
    assert!(none.message().contains("must be start"));
    let dup = apply(
        None,
        &ev(json!({"type": "start", "combatants": [pc("a"), pc("a")]})),
    )
    .unwrap_err();
    assert!(dup.message().contains("already in this combat"));
    let f = Fight::start(json!([pc("a")]));
    f.refused(json!({"type": "beginTurn", "id": "zz"}), "no combatant zz");
    f.refused(json!({"type": "endTurn"}), "no turn is open");
    f.refused(
        json!({"type": "start", "combatants": [pc("b")]}),
        "already started",
    );
}

// ---------------------------------------------------------------- properties

/// One random valid move: begin a turn for an eligible combatant, end the open turn, or go slow.
fn step(state: &CombatState, pick: usize, slow_roll: bool) -> Option<Event> {
    let s = &state.now;
    if s.current.is_some() {
        return Some(Event::EndTurn);
    }
    let (phase, side) = s.next()?;
    let eligible: Vec<_> = s
        .combatants
        .iter()
        .filter(|c| c.entry.side == side && !c.defeated)
        .filter(|c| match phase {
            Phase::Regular => s.regular_left(c) > 0,
            Phase::Slow => c.slow > 0,
        })
        .collect();
    let c = eligible[pick % eligible.len()];
    let can_slow = c.entry.side == Side::Party || c.entry.can_slow;
    if phase == Phase::Regular && (c.delay || (slow_roll && can_slow)) {
        return Some(Event::GoSlow {
            id: c.entry.id.clone(),
        });
    }
    Some(Event::BeginTurn {
        id: c.entry.id.clone(),
    })
}

fn roster() -> impl Strategy<Value = Vec<serde_json::Value>> {
    (1usize..4, 1usize..4, prop::collection::vec(0u8..4, 3)).prop_map(|(pcs, foes, kinds)| {
        let mut v: Vec<_> = (0..pcs).map(|i| pc(&format!("p{i}"))).collect();
        for i in 0..foes {
            let template = match kinds[i % 3] {
                1 => json!("elite"),
                2 => json!("legend"),
                3 => json!("mob"),
                _ => json!(null),
            };
            v.push(json!({"id": format!("f{i}"), "side": "foes", "template": template, "canSlow": i == 0}));
        }
        v
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Every combatant gets exactly its turns each round; none is lost or duplicated.
    #[test]
    fn every_combatant_gets_exactly_its_turns(
        roster in roster(),
        picks in prop::collection::vec((0usize..7, any::<bool>(), 0u8..10), 1..120),
    ) {
        let mut f = Fight::start(json!(roster));
        let expected: std::collections::BTreeMap<String, u32> = {
            let s = &f.state.as_ref().unwrap().now;
            s.combatants.iter().map(|c| (c.entry.id.clone(), s.turns_per_round(c))).collect()
        };
        let mut taken: std::collections::BTreeMap<String, u32> = Default::default();
        for (pick, slow, delay) in picks {
            let st = f.state.clone().unwrap();
            if delay == 0 {
                let id = st.now.combatants[pick % st.now.combatants.len()].entry.id.clone();
                if st.now.combatants.iter().any(|c| c.entry.id == id && c.entry.side == Side::Party) {
                    f.ok(json!({"type": "delay", "id": id}));
                    continue;
                }
            }
            let Some(e) = step(&st, pick, slow) else { break };
            let round = f.round();
            let (s, fx) = apply(Some(&st), &e).unwrap();
            // undo restores the exact previous state
            let (back, _) = apply(s.as_ref(), &Event::Undo).unwrap();
            prop_assert_eq!(back.as_ref(), Some(&st));
            f.state = s;
            for effect in &fx {
                if let Effect::TurnStarted { id, .. } = effect {
                    *taken.entry(id.clone()).or_default() += 1;
                }
            }
            if f.round() != round {
                prop_assert_eq!(&taken, &expected, "round {} turns", round);
                taken.clear();
            }
        }
    }
}
