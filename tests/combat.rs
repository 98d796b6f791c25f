//! The ICON turn-order reducer: worked fights, the undo log and its limits, the stored shape and
//! its size, reading states stored before issue 18, and properties over random event sequences.

use icon_engine::combat::{
    apply, replay, CombatState, Combatant, Effect, Event, Phase, Side, MAX_COMBATANTS, MAX_HISTORY,
    MAX_HISTORY_COMBATANTS,
};
use proptest::prelude::*;
use serde_json::json;
use std::collections::BTreeMap;

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
    /// The `next` the state carries, checked against the reducer's own computation.
    fn next(&self) -> Option<(Phase, Side)> {
        let s = &self.state.as_ref().unwrap().now;
        let stored = s.next.map(|n| (n.phase, n.side));
        if s.current.is_none() {
            assert_eq!(stored, s.next(), "the stored next is up to date");
        }
        stored
    }
    fn c(&self, id: &str) -> &Combatant {
        self.state.as_ref().unwrap().now.get(id).unwrap()
    }
    fn turns_of(&self, id: &str) -> u32 {
        let s = &self.state.as_ref().unwrap().now;
        let c = s.get(id).unwrap();
        assert_eq!(
            c.turns,
            s.turns_per_round(c),
            "the stored turns are up to date"
        );
        c.turns
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
    assert_eq!(f.turns_of("elite"), 2);
    assert_eq!(f.turns_of("grunt"), 1);
    f.turn("c");
    f.ok(json!({"type": "beginTurn", "id": "grunt"}));
    // the foes took the last turn: the round ends with it
    let fx = f.ok(json!({"type": "endTurn"}));
    assert_eq!(
        serde_json::to_value(&fx).unwrap(),
        json!([{"type": "turnEnded", "id": "grunt"}, {"type": "roundStarted", "round": 2},
            {"type": "resolveChanged", "partyResolve": 2}])
    );
    assert_eq!((f.round(), f.resolve()), (2, 2));
    assert_eq!(f.next(), Some((Phase::Regular, Side::Party)));
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
    // a delayed foe must go slow even if it cannot choose to
    f.ok(json!({"type": "delay", "id": "t"}));
    f.turn("a");
    f.refused(json!({"type": "beginTurn", "id": "t"}), "must go slow");
    f.ok(json!({"type": "goSlow", "id": "t"}));
    f.turn("s");
    let fx = f.ok(json!({"type": "beginTurn", "id": "t"}));
    assert_eq!(fx[0], Effect::DelayFired { id: "t".into() });
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
    assert_eq!(st.now.turns_per_round(f.c("dragon")), 3);
    f.turn("a");
    f.turn("dragon");
    f.turn("b");
    f.turn("dragon");
    f.refused(json!({"type": "beginTurn", "id": "c"}), "defeated");
    f.turn("dragon");
    assert_eq!(f.round(), 2);
}

#[test]
fn the_next_round_starts_with_the_side_opposite_the_last_turn() {
    // the party takes the last (slow) turn: round 2 starts with the foes
    let mut f = Fight::start(json!([pc("a"), pc("b"), foe("f", None)]));
    f.turn("a");
    f.turn("f");
    f.ok(json!({"type": "goSlow", "id": "b"}));
    assert_eq!(f.next(), Some((Phase::Slow, Side::Party)));
    f.turn("b");
    assert_eq!(f.round(), 2);
    assert_eq!(f.next(), Some((Phase::Regular, Side::Foes)));
    f.refused(json!({"type": "beginTurn", "id": "a"}), "foes side's turn");
    // round 2: the foe goes first, the party takes the last turn again: round 3 starts with foes
    f.turn("f");
    f.turn("a");
    f.turn("b");
    assert_eq!((f.round(), f.resolve()), (3, 3));
    assert_eq!(f.next(), Some((Phase::Regular, Side::Foes)));
    f.turn("f");
    f.ok(json!({"type": "goSlow", "id": "a"}));
    f.turn("b");
    f.turn("a");
    assert_eq!(
        f.next(),
        Some((Phase::Regular, Side::Foes)),
        "a's slow turn was last"
    );
    // and with a slow foe taking the last turn, the party opens the next round
    let mut g = Fight::start(json!([pc("a"), {"id": "s", "side": "foes", "canSlow": true}]));
    g.ok(json!({"type": "goSlow", "id": "a"}));
    g.ok(json!({"type": "goSlow", "id": "s"}));
    // slow phase: party first, then the foe takes the last turn
    g.refused(json!({"type": "beginTurn", "id": "s"}), "party side's turn");
    g.turn("a");
    g.turn("s");
    assert_eq!(g.round(), 2);
    assert_eq!(g.next(), Some((Phase::Regular, Side::Party)));
}

#[test]
fn legends_count_player_characters_joining_and_leaving() {
    let mut f = Fight::start(json!([
        pc("a"),
        foe("dragon", Some("legend")),
        foe("m", Some("mob"))
    ]));
    assert_eq!(f.turns_of("dragon"), 1);
    assert_eq!(f.turns_of("m"), 1, "a mob acts as one foe");
    f.ok(json!({"type": "addCombatant", "combatant": pc("b")}));
    assert_eq!(f.turns_of("dragon"), 2);
    // an allied NPC fights with the party but is no player character
    f.ok(json!({"type": "addCombatant", "combatant": {"id": "ally", "side": "party"}}));
    assert_eq!(f.turns_of("dragon"), 2);
    f.turn("a");
    f.turn("dragon");
    f.turn("b");
    f.turn("dragon");
    f.turn("ally");
    f.refused(
        json!({"type": "beginTurn", "id": "dragon"}),
        "no turns left",
    );
    f.turn("m");
    assert_eq!(f.round(), 2);
    f.ok(json!({"type": "removeCombatant", "id": "b"}));
    assert_eq!(f.turns_of("dragon"), 1);
    // a legend with no player character in the fight still acts once
    let g = Fight::start(json!([{"id": "ally", "side": "party"}, foe("dragon", Some("legend"))]));
    assert_eq!(g.turns_of("dragon"), 1);
}

#[test]
fn removing_the_acting_combatant_ends_its_turn() {
    let mut f = Fight::start(json!([pc("a"), pc("b"), foe("f", None), foe("g", None)]));
    f.ok(json!({"type": "beginTurn", "id": "a"}));
    assert_eq!(f.next(), None, "no next while a turn is open");
    f.ok(json!({"type": "removeCombatant", "id": "a"}));
    assert_eq!(f.state.as_ref().unwrap().now.current, None);
    assert_eq!(f.next(), Some((Phase::Regular, Side::Foes)));
    f.turn("f");
    f.turn("b");
    f.turn("g");
    assert_eq!(f.round(), 2);
}

#[test]
fn party_resolve_by_hand() {
    let mut f = Fight::start(json!([pc("a"), foe("f", None)]));
    let fx = f.ok(json!({"type": "adjustResolve", "by": 2}));
    assert_eq!(fx, vec![Effect::ResolveChanged { party_resolve: 3 }]);
    f.ok(json!({"type": "adjustResolve", "by": -3}));
    assert_eq!(f.resolve(), 0);
    let before = f.state.clone();
    f.refused(
        json!({"type": "adjustResolve", "by": -1}),
        "cannot go below 0",
    );
    assert_eq!(f.state, before);
    f.turn("a");
    f.turn("f");
    assert_eq!(f.resolve(), 1, "+1 at the start of round 2");
}

#[test]
fn end_of_combat_and_undo_of_every_event_kind() {
    let events = [
        json!({"type": "beginTurn", "id": "a"}),
        json!({"type": "delay", "id": "a"}),
        json!({"type": "endTurn"}),
        json!({"type": "goSlow", "id": "x"}),
        json!({"type": "addCombatant", "combatant": pc("n")}),
        json!({"type": "beginTurn", "id": "n"}),
        json!({"type": "removeCombatant", "id": "n"}),
        json!({"type": "setDefeated", "id": "x", "defeated": true}),
        json!({"type": "adjustResolve", "by": 1}),
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
    f.refused(json!({"type": "endCombat"}), "has ended");
    // undo walks back through every state exactly, then to no combat at all
    for expected in states.iter().rev().skip(1) {
        let resolve = f.resolve();
        let fx = f.ok(json!({"type": "undo"}));
        assert_eq!(&f.state, expected);
        // undo reports a resolve change so Foundry can follow it
        let now = f.resolve();
        assert_eq!(
            fx,
            if now == resolve {
                vec![]
            } else {
                vec![Effect::ResolveChanged { party_resolve: now }]
            }
        );
    }
    f.ok(json!({"type": "undo"}));
    assert!(f.state.is_none());
    f.refused(json!({"type": "undo"}), "must be start");
    // and the state round-trips through JSON exactly
    let f = Fight::start(json!([pc("a"), foe("b", Some("elite"))]));
    let text = serde_json::to_string(&f.state).unwrap();
    let back: Option<CombatState> = serde_json::from_str(&text).unwrap();
    assert_eq!(back, f.state);
}

#[test]
fn the_slow_phase_follows_the_order_of_its_round() {
    // "If multiple characters take slow turns, initiative takes the same order as during
    // regular turns": in a round the foes open, a foe's slow turn comes before the party's
    let mut f =
        Fight::start(json!([pc("a"), pc("b"), {"id": "s", "side": "foes", "canSlow": true}]));
    f.turn("a");
    f.turn("s");
    f.turn("b");
    assert_eq!(
        f.round(),
        2,
        "the party took the last turn, so the foes open round 2"
    );
    assert_eq!(f.next(), Some((Phase::Regular, Side::Foes)));
    f.ok(json!({"type": "goSlow", "id": "s"}));
    f.ok(json!({"type": "goSlow", "id": "a"}));
    f.turn("b");
    assert_eq!(
        f.next(),
        Some((Phase::Slow, Side::Foes)),
        "the round's opener first"
    );
    f.refused(json!({"type": "beginTurn", "id": "a"}), "foes side's turn");
    f.turn("s");
    assert_eq!(f.next(), Some((Phase::Slow, Side::Party)));
    f.turn("a");
    // the party took the last turn again: round 3 opens with the foes, and so does its slow phase
    assert_eq!(f.round(), 3);
    assert_eq!(f.state.as_ref().unwrap().now.slow_side, Side::Foes);
    // in a round the party opens, the party's slow turn comes first
    let mut g = Fight::start(json!([pc("a"), {"id": "s", "side": "foes", "canSlow": true}]));
    g.ok(json!({"type": "goSlow", "id": "a"}));
    g.ok(json!({"type": "goSlow", "id": "s"}));
    assert_eq!(g.next(), Some((Phase::Slow, Side::Party)));
}

#[test]
fn summons_take_no_turns_and_leave_with_their_summoner() {
    let summon = |id: &str, by: &str| json!({"id": id, "side": "party", "summoner": by});
    let mut f = Fight::start(json!([
        pc("a"),
        pc("b"),
        summon("wolf", "a"),
        foe("f", None),
        foe("g", None)
    ]));
    assert_eq!(f.turns_of("wolf"), 0, "summons do not take turns");
    f.refused(
        json!({"type": "beginTurn", "id": "wolf"}),
        "summon and takes no turns",
    );
    f.refused(json!({"type": "goSlow", "id": "wolf"}), "no turns left");
    // a summon of a summon leaves with its summoner too
    f.ok(json!({"type": "addCombatant", "combatant": summon("pup", "wolf")}));
    f.refused(
        json!({"type": "addCombatant", "combatant": summon("imp", "nobody")}),
        "summoner nobody is not in this combat",
    );
    f.turn("a");
    f.turn("f");
    f.turn("b");
    f.turn("g");
    assert_eq!(f.round(), 2, "the summons held nothing up");
    let before = f.state.clone();
    let fx = f.ok(json!({"type": "setDefeated", "id": "a", "defeated": true}));
    assert_eq!(
        fx,
        vec![Effect::SummonsLeft {
            summoner: "a".into(),
            ids: vec!["wolf".into(), "pup".into()]
        }]
    );
    let now = &f.state.as_ref().unwrap().now;
    assert!(now.get("wolf").is_none() && now.get("pup").is_none());
    assert!(now.get("a").unwrap().defeated);
    f.refused(
        json!({"type": "addCombatant", "combatant": summon("imp", "a")}),
        "summoner a is defeated",
    );
    // undo brings them back exactly
    f.ok(json!({"type": "undo"}));
    assert_eq!(f.state, before);
    // a summoner that leaves the fight takes its summons along
    let fx = f.ok(json!({"type": "removeCombatant", "id": "a"}));
    assert!(matches!(&fx[0], Effect::SummonsLeft { ids, .. } if ids.len() == 2));
    assert_eq!(f.state.as_ref().unwrap().now.combatants.len(), 3);
    f.ok(json!({"type": "undo"}));
    assert_eq!(f.state, before);
}

#[test]
fn undo_goes_back_100_steps_and_the_refusal_names_that_limit() {
    let mut f = Fight::start(json!([pc("a"), foe("f", None)]));
    for _ in 0..(MAX_HISTORY + 5) {
        f.ok(json!({"type": "adjustResolve", "by": 1}));
    }
    let st = f.state.as_ref().unwrap();
    assert_eq!((st.log.len(), st.forgotten()), (MAX_HISTORY, 5));
    for _ in 0..MAX_HISTORY {
        f.ok(json!({"type": "undo"}));
    }
    f.refused(
        json!({"type": "undo"}),
        "nothing more to undo: undo goes back at most 100 steps",
    );
    assert!(f.state.is_some());
}

#[test]
fn the_log_keeps_at_most_2000_combatants_records_and_the_refusal_names_that_limit() {
    // a fight of at most MAX_COMBATANTS records fewer within the steps undo keeps; a version 1
    // state's snapshot history can hold more: each snapshot becomes a step that records every
    // combatant that differs, before and after (here all 599 foes, defeated and back in turn)
    let n = 600;
    assert!(n <= MAX_COMBATANTS && 2 * (2 * (n - 1)) > MAX_HISTORY_COMBATANTS);
    let combatant = |i: usize, defeated: bool| {
        json!({"id": format!("c{i}"), "side": if i == 0 {"party"} else {"foes"},
            "isPlayerCharacter": i == 0, "template": null, "canSlow": false,
            "defeated": defeated && i > 0, "taken": 0, "slow": 0, "delay": false, "turns": 1})
    };
    let snapshot = |k: usize| {
        json!({"round": 1, "combatants": (0..n).map(|i| combatant(i, k % 2 == 1)).collect::<Vec<_>>(),
            "regularSide": "party", "slowSide": "party", "current": null, "lastSide": null,
            "partyResolve": 1, "ended": false})
    };
    let mut stored = snapshot(4);
    stored["history"] = json!((0..4).map(snapshot).collect::<Vec<_>>());
    stored["forgotten"] = json!(0);
    let mut f = Fight {
        state: Some(serde_json::from_value(stored).unwrap()),
        log: Vec::new(),
    };
    let st = f.state.as_ref().unwrap();
    assert_eq!(
        (st.log.len(), st.forgotten()),
        (1, 3),
        "two steps would hold {} records",
        4 * (n - 1)
    );
    assert_eq!(st.log.weight(), 2 * (n as u64 - 1));
    f.ok(json!({"type": "undo"}));
    assert!(f.c("c1").defeated, "back to the snapshot before the last");
    f.refused(
        json!({"type": "undo"}),
        "nothing more to undo: the undo log holds at most 2000 combatants' records across its steps",
    );
}

#[test]
fn bad_events_are_refused_with_reasons_and_change_nothing() {
    let none = apply(None, &ev(json!({"type": "endTurn"}))).unwrap_err();
    assert!(none.message().contains("must be start"));
    let dup = apply(
        None,
        &ev(json!({"type": "start", "combatants": [pc("a"), pc("a")]})),
    )
    .unwrap_err();
    assert!(dup.message().contains("already in this combat"));
    let empty = apply(None, &ev(json!({"type": "start", "combatants": []}))).unwrap_err();
    assert!(empty.message().contains("at least one combatant"));
    let pc_foe = apply(
        None,
        &ev(json!({"type": "start", "combatants": [{"id": "p", "side": "foes", "isPlayerCharacter": true}]})),
    )
    .unwrap_err();
    assert!(pc_foe.message().contains("fights with the party"));
    let mut f = Fight::start(json!([pc("a"), foe("f", None)]));
    f.refused(json!({"type": "beginTurn", "id": "zz"}), "no combatant zz");
    f.refused(json!({"type": "endTurn"}), "no turn is open");
    f.refused(
        json!({"type": "start", "combatants": [pc("b")]}),
        "already started",
    );
    f.refused(
        json!({"type": "addCombatant", "combatant": pc("a")}),
        "already in",
    );
    f.refused(
        json!({"type": "removeCombatant", "id": "zz"}),
        "no combatant zz",
    );
    f.ok(json!({"type": "setDefeated", "id": "f", "defeated": true}));
    f.refused(json!({"type": "goSlow", "id": "f"}), "defeated");
    f.ok(json!({"type": "beginTurn", "id": "a"}));
    f.refused(json!({"type": "goSlow", "id": "a"}), "still open");
    // the wasm boundary parses events with serde: unknown types and missing fields are errors too
    assert!(serde_json::from_value::<Event>(json!({"type": "nextTurn"})).is_err());
    assert!(serde_json::from_value::<Event>(json!({"type": "beginTurn"})).is_err());
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
        .values()
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
        if kinds[0] == 0 {
            v.push(json!({"id": "ally", "side": "party"}));
        }
        v
    })
}

/// Applies `e`, checking what every accepted event must satisfy: undo restores the exact
/// previous state, the state round-trips through JSON, and its display fields are up to date.
fn checked(
    st: &CombatState,
    e: &Event,
) -> Result<(Option<CombatState>, Vec<Effect>), TestCaseError> {
    let Ok((s, fx)) = apply(Some(st), e) else {
        return Err(TestCaseError::fail(format!("{e:?} refused")));
    };
    // an event that changes nothing (a delay already pending) logs nothing to undo
    if s.as_ref() == Some(st) {
        prop_assert!(
            fx.is_empty() && matches!(e, Event::Delay { .. }),
            "{:?} changed nothing",
            e
        );
        return Ok((s, fx));
    }
    let (back, _) = apply(s.as_ref(), &Event::Undo).unwrap();
    let back = back.unwrap();
    prop_assert!(back.now == st.now, "undo after {:?}", e);
    // exact, log included, unless the oldest step had to be forgotten
    prop_assert!(
        st.log.len() == MAX_HISTORY || back == *st,
        "undo after {:?}",
        e
    );
    let text = serde_json::to_string(&s).unwrap();
    let parsed: Option<CombatState> = serde_json::from_str(&text).unwrap();
    prop_assert_eq!(&parsed, &s);
    if let Some(s) = &s {
        let now = &s.now;
        for c in now.combatants.values() {
            prop_assert_eq!(c.turns, now.turns_per_round(c));
        }
        let expected = if now.current.is_some() || now.ended {
            None
        } else {
            now.next()
        };
        prop_assert_eq!(now.next.map(|n| (n.phase, n.side)), expected);
    }
    Ok((s, fx))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Every combatant gets exactly its turns each round; none is lost or duplicated; sides
    /// alternate while both have regular turns; slow turns alternate in the round's order (its
    /// opener first); the next round opens with the side opposite the last turn; undo always
    /// restores.
    #[test]
    fn every_combatant_gets_exactly_its_turns(
        roster in roster(),
        picks in prop::collection::vec((0usize..7, any::<bool>(), 0u8..10), 1..120),
    ) {
        let mut f = Fight::start(json!(roster));
        let sides: BTreeMap<String, Side> = f.state.as_ref().unwrap().now.combatants.values()
            .map(|c| (c.entry.id.clone(), c.entry.side)).collect();
        // this test's own bookkeeping, independent of the reducer's counters
        let expected: BTreeMap<String, u32> = {
            let pcs = roster.iter().filter(|c| c["isPlayerCharacter"] == json!(true)).count() as u32;
            roster.iter().map(|c| {
                let n = match c["template"].as_str() { Some("elite") => 2, Some("legend") => pcs.max(1), _ => 1 };
                (c["id"].as_str().unwrap().to_string(), n)
            }).collect()
        };
        let mut taken: BTreeMap<String, u32> = BTreeMap::new();
        let mut slowed: BTreeMap<String, u32> = BTreeMap::new();
        let mut last_regular: Option<Side> = None;
        let mut last_slow: Option<Side> = None;
        let mut last_turn: Option<Side> = None;
        // the side that opened this round: the party in round 1
        let mut opener = Side::Party;
        let regular_left = |taken: &BTreeMap<String, u32>, slowed: &BTreeMap<String, u32>, side: Side| {
            expected.iter().any(|(id, n)| sides[id] == side
                && taken.get(id).copied().unwrap_or(0) + slowed.get(id).copied().unwrap_or(0) < *n)
        };
        for (pick, slow, delay) in picks {
            let st = f.state.clone().unwrap();
            if delay == 0 && st.now.current.is_some() {
                // an ability with delay used during the open turn
                let id = st.now.current.clone().unwrap().id;
                let (s, _) = checked(&st, &Event::Delay { id })?;
                f.state = s;
                continue;
            }
            let Some(e) = step(&st, pick, slow) else { break };
            let round = f.round();
            let regular_before = [Side::Party, Side::Foes].map(|s| regular_left(&taken, &slowed, s));
            let (s, fx) = checked(&st, &e)?;
            f.state = s;
            if let Event::GoSlow { id } = &e {
                *slowed.entry(id.clone()).or_default() += 1;
                let side = sides[id];
                if last_regular == Some(side) {
                    prop_assert!(!regular_before[(side == Side::Party) as usize], "alternation");
                }
                last_regular = Some(side);
            }
            for effect in &fx {
                match effect {
                    Effect::TurnStarted { id, slow } => {
                        let side = sides[id];
                        if *slow {
                            let waiting = |s: Side| slowed.iter().any(|(id, n)| sides[id] == s && *n > 0);
                            // the slow phase follows the round's order: its opener first, then
                            // the sides alternate while both have slow turns waiting
                            let due = last_slow.map_or(opener, Side::other);
                            if side != due {
                                prop_assert!(!waiting(due), "slow turns: {:?} was due", due);
                            }
                            *slowed.get_mut(id).unwrap() -= 1;
                            last_slow = Some(side);
                        } else {
                            // the other side had no regular turns left, or it is its slot now
                            if last_regular == Some(side) {
                                prop_assert!(!regular_before[(side == Side::Party) as usize], "alternation");
                            }
                            last_regular = Some(side);
                        }
                        *taken.entry(id.clone()).or_default() += 1;
                        prop_assert!(taken[id] <= expected[id], "{} took too many turns", id);
                        last_turn = Some(side);
                    }
                    Effect::RoundStarted { round: r } => {
                        prop_assert_eq!(*r, round + 1);
                        prop_assert_eq!(&taken, &expected, "round {} turns", round);
                        prop_assert!(slowed.values().all(|n| *n == 0), "no slow turn lost");
                        opener = last_turn.unwrap().other();
                        let now = &f.state.as_ref().unwrap().now;
                        prop_assert_eq!(now.next.map(|n| (n.phase, n.side)), Some((Phase::Regular, opener)));
                        taken.clear();
                        slowed.clear();
                        last_regular = None;
                        last_slow = None;
                    }
                    _ => {}
                }
            }
        }
    }

    /// Any mix of events, valid or not: an accepted one can be undone exactly and round-trips
    /// through JSON; a refused one has a reason.
    #[test]
    fn any_event_is_refused_with_a_reason_or_undoable(
        roster in roster(),
        moves in prop::collection::vec((0u8..12, 0usize..8, any::<bool>(), -2i32..3), 1..120),
    ) {
        let mut f = Fight::start(json!(roster));
        for m in moves {
            let st = f.state.clone().unwrap();
            let e = random_event(&st, m);
            match apply(Some(&st), &e) {
                Err(err) => prop_assert!(!err.message().is_empty()),
                Ok((None, _)) => prop_assert!(matches!(e, Event::Undo)),
                Ok(_) if matches!(e, Event::Undo) => f.state = apply(Some(&st), &e).unwrap().0,
                Ok(_) => {
                    let (s, _) = checked(&st, &e)?;
                    let now = &s.as_ref().unwrap().now;
                    // nobody is ever owed more turns than it has
                    for c in now.combatants.values() {
                        prop_assert!(c.slow <= now.turns_per_round(c).saturating_sub(c.taken));
                    }
                    f.state = s;
                }
            }
            if f.state.as_ref().is_none_or(|s| s.now.ended) {
                break;
            }
        }
    }

    /// The undo log restores exactly: any k accepted events followed by k undos give back the
    /// state they started from, log included (while nothing had to be forgotten).
    #[test]
    fn k_events_then_k_undos_give_back_the_start(
        roster in roster(),
        prefix in prop::collection::vec((0u8..11, 0usize..8, any::<bool>(), -2i32..3), 0..30),
        moves in prop::collection::vec((0u8..11, 0usize..8, any::<bool>(), -2i32..3), 1..60),
    ) {
        let mut f = Fight::start(json!(roster));
        for m in prefix {
            let st = f.state.clone().unwrap();
            if let Ok((Some(s), _)) = apply(Some(&st), &random_event(&st, m)) {
                f.state = Some(s);
            }
        }
        let start = f.state.clone().unwrap();
        let mut k = 0;
        for m in moves {
            let st = f.state.clone().unwrap();
            if let Ok((Some(s), _)) = apply(Some(&st), &random_event(&st, m)) {
                // a delay already pending changes nothing and logs nothing
                k += usize::from(s != st);
                f.state = Some(s);
            }
        }
        prop_assume!(start.log.len() + k <= MAX_HISTORY);
        for _ in 0..k {
            f.ok(json!({"type": "undo"}));
        }
        prop_assert_eq!(f.state.as_ref().unwrap(), &start);
    }

    /// Replaying the log's events from its checkpoint (the fight before its first step) gives
    /// exactly the state now, also once the oldest steps are forgotten; every state round-trips
    /// through its JSON.
    #[test]
    fn replaying_the_log_from_the_checkpoint_gives_the_state(
        roster in roster(),
        moves in prop::collection::vec((0u8..11, 0usize..8, any::<bool>(), -2i32..3), 1..160),
    ) {
        let mut f = Fight::start(json!(roster));
        for m in moves {
            let st = f.state.clone().unwrap();
            if let Ok((Some(s), _)) = apply(Some(&st), &random_event(&st, m)) {
                let text = serde_json::to_string(&s).unwrap();
                prop_assert_eq!(&serde_json::from_str::<CombatState>(&text).unwrap(), &s);
                f.state = Some(s);
            }
        }
        let now = f.state.unwrap();
        let checkpoint = now.checkpoint().unwrap();
        prop_assert!(checkpoint.log.is_empty());
        prop_assert_eq!(replay(checkpoint, &now.log.steps().unwrap()).unwrap(), now);
    }
}

/// A random event, valid or not: mostly the moves a tracker offers, then any kind with any
/// combatant (or nobody), joining combatants (Legends, player characters, summons), resolve.
fn random_event(st: &CombatState, (kind, pick, flag, by): (u8, usize, bool, i32)) -> Event {
    let ids: Vec<String> = st
        .now
        .combatants
        .values()
        .map(|c| c.entry.id.clone())
        .chain(["nobody".to_string()])
        .collect();
    let id = ids[pick % ids.len()].clone();
    match kind {
        0..=2 => step(st, pick, flag).unwrap_or(Event::EndTurn),
        3 => Event::BeginTurn { id },
        4 => Event::GoSlow { id },
        5 => Event::EndTurn,
        6 => Event::Delay { id },
        7 => Event::SetDefeated { id, defeated: flag },
        8 => Event::AddCombatant {
            combatant: ev_entry(pick, flag, (pick % 4 == 1).then_some(id)),
        },
        9 => Event::RemoveCombatant { id },
        10 => Event::AdjustResolve { by },
        _ => {
            if flag {
                Event::Undo
            } else {
                Event::EndCombat
            }
        }
    }
}

fn ev_entry(pick: usize, party: bool, summoner: Option<String>) -> icon_engine::combat::Entry {
    serde_json::from_value(json!({
        "id": format!("new{pick}"),
        "side": if party { "party" } else { "foes" },
        "isPlayerCharacter": party && pick % 2 == 0,
        "template": if pick % 3 == 0 { json!("legend") } else { json!(null) },
        "summoner": summoner,
    }))
    .unwrap()
}

/// The state as stored, edited, read back (issue 25: stored states are the GM's, but one cut
/// short or edited by hand must not wipe or corrupt a fight).
fn edited(state: &CombatState, edit: impl FnOnce(&mut serde_json::Value)) -> CombatState {
    let mut v = serde_json::to_value(state).unwrap();
    edit(&mut v);
    serde_json::from_value(v).unwrap()
}

#[test]
fn undo_on_an_empty_log_ends_only_a_fight_exactly_as_start_left_it() {
    let mut f = Fight::start(json!([pc("a"), foe("f", None)]));
    // right after start, undo takes the combat back to none
    assert!(apply(f.state.as_ref(), &Event::Undo).unwrap().0.is_none());
    f.ok(json!({"type": "beginTurn", "id": "a"}));
    // a running fight whose log is empty (a version-3 state stored without its steps)
    let cut = edited(f.state.as_ref().unwrap(), |v| {
        v["log"] = json!({});
        v["logged"] = json!(0);
        v["forgotten"] = json!(0);
    });
    let err = apply(Some(&cut), &Event::Undo).unwrap_err();
    assert!(
        err.message()
            .contains("not as it started (a's turn is open)"),
        "{}",
        err.message()
    );
    // each way a fight moves on is named
    f.ok(json!({"type": "endTurn"}));
    f.turn("f");
    let cut = edited(f.state.as_ref().unwrap(), |v| {
        v["log"] = json!({});
        v["logged"] = json!(0);
        v["forgotten"] = json!(0);
    });
    let err = apply(Some(&cut), &Event::Undo).unwrap_err();
    assert!(err.message().contains("it is round 2"), "{}", err.message());
    // a version-1 state (before issue 18) with no history: the fight it stores is not wiped
    let v1 = json!({"round": 1, "partyResolve": 1, "regularSide": "foes", "slowSide": "party",
        "lastSide": "party", "ended": false, "combatants": [
            {"id": "a", "side": "party", "isPlayerCharacter": true, "taken": 1, "turns": 1},
            {"id": "f", "side": "foes", "turns": 1}]});
    let st: CombatState = serde_json::from_value(v1).unwrap();
    let err = apply(Some(&st), &Event::Undo).unwrap_err();
    assert!(
        err.message().contains("turns have been taken"),
        "{}",
        err.message()
    );
    // the fight goes on from it
    assert!(apply(Some(&st), &ev(json!({"type": "beginTurn", "id": "f"}))).is_ok());
}

#[test]
fn a_repeated_pending_delay_adds_no_step() {
    let mut f = Fight::start(json!([pc("a"), foe("f", None)]));
    f.ok(json!({"type": "adjustResolve", "by": 2}));
    f.ok(json!({"type": "delay", "id": "a"}));
    let once = f.state.clone();
    for _ in 0..101 {
        let fx = f.ok(json!({"type": "delay", "id": "a"}));
        assert!(fx.is_empty());
    }
    assert_eq!(f.state, once, "nothing changed and nothing was logged");
    assert_eq!(f.state.as_ref().unwrap().log.len(), 2);
    // the GM's earlier steps are still there to undo
    f.ok(json!({"type": "undo"}));
    assert!(!f.c("a").delay);
    f.ok(json!({"type": "undo"}));
    assert_eq!(f.resolve(), 1);
    // once the delay has fired, a new one is a step again
    f.ok(json!({"type": "delay", "id": "a"}));
    f.ok(json!({"type": "goSlow", "id": "a"}));
    f.turn("f");
    f.ok(json!({"type": "beginTurn", "id": "a"}));
    f.ok(json!({"type": "delay", "id": "a"}));
    assert!(f.c("a").delay);
}

#[test]
fn a_stored_state_is_validated_whole_relations_between_combatants_included() {
    let mut f = Fight::start(json!([pc("a"), foe("f", None),
        {"id": "s", "side": "foes", "summoner": "f"}]));
    f.ok(json!({"type": "delay", "id": "a"}));
    let good = f.state.clone().unwrap();
    let refused = |edit: &dyn Fn(&mut serde_json::Value), words: &str| {
        let st = edited(&good, edit);
        for e in [
            json!({"type": "endCombat"}),
            json!({"type": "undo"}),
            json!({"type": "adjustResolve", "by": 1}),
        ] {
            let err = apply(Some(&st), &ev(e)).unwrap_err();
            assert!(
                err.message().starts_with("invalid combat state: "),
                "{}",
                err.message()
            );
            assert!(err.message().contains(words), "{}", err.message());
        }
    };
    // the combatants: 0 a, 1 f, 2 s (summoned by f)
    refused(
        &|v| v["combatants"]["2"][7] = json!("nobody"),
        "s's summoner nobody is not in the combat",
    );
    refused(
        &|v| v["combatants"]["2"][7] = json!("s"),
        "s is its own summoner",
    );
    refused(
        &|v| {
            v["combatants"]["1"] = json!(["f", 1, 0, 0, 0, 1, 0, "s"]);
        },
        "summoners come back to it",
    );
    // a summon of a defeated summoner has left the fight with it
    refused(
        &|v| v["combatants"]["1"][2] = json!(4),
        "s's summoner f is defeated",
    );
    refused(
        &|v| v["combatants"]["0"][4] = json!(2),
        "a has 2 slow turns waiting",
    );
    refused(
        &|v| v["combatants"]["1"][0] = json!(""),
        "a combatant needs an id",
    );
    refused(
        &|v| v["combatants"]["1"][2] = json!(1),
        "f is a player character and fights with the party",
    );
    refused(
        &|v| {
            v["current"] = json!({"id": "s", "slow": false});
            v.as_object_mut().unwrap().remove("next");
        },
        "a summon, and summons take no turns",
    );
    refused(
        &|v| {
            v["current"] = json!({"id": "a", "slow": false});
            v["ended"] = json!(true);
        },
        "an ended combat has no open turn",
    );
    refused(&|v| v["round"] = json!(0), "round 1 or later");
    // the good state itself is fine
    assert!(apply(Some(&good), &ev(json!({"type": "beginTurn", "id": "a"}))).is_err());
    assert!(apply(Some(&good), &ev(json!({"type": "goSlow", "id": "a"}))).is_ok());
}
