//! Strain, breaking and burdens as a reducer, clocks and session XP (Narrative Play seed).

use icon_engine::rulesets::icon::strain::*;
use icon_engine::rulesets::icon::Risk;
use serde_json::json;

fn character() -> NarrativeState {
    serde_json::from_value(json!({
        "strain": 4,
        "ratings": {"smash": 3, "tinker": 2, "charm": 1, "study": 1, "endure": 2, "sneak": 0}
    }))
    .unwrap()
}

fn ev(v: serde_json::Value) -> NarrativeEvent {
    serde_json::from_value(v).unwrap()
}

fn burden(s: &NarrativeState, name: &str, a: &str, b: &str) -> NarrativeState {
    s.apply(&ev(
        json!({"type": "takeBurden", "name": name, "actions": [a, b], "clock": 6}),
    ))
    .unwrap()
    .0
}

#[test]
fn strain_past_the_maximum_breaks_and_asks_for_a_burden() {
    let s = character();
    assert_eq!(s.max_strain, 5);
    // reaching the maximum is not breaking
    let (s1, fx) = s
        .apply(&ev(json!({"type": "takeStrain", "amount": 1})))
        .unwrap();
    assert_eq!((s1.strain, s1.broken, fx.len()), (5, false, 0));
    // one above it is
    let (s2, fx) = s1
        .apply(&ev(json!({"type": "takeStrain", "amount": 2})))
        .unwrap();
    assert_eq!((s2.strain, s2.broken, s2.burden_pending), (0, true, true));
    assert_eq!(
        serde_json::to_value(&fx).unwrap(),
        json!([{"type": "broke"}, {"type": "chooseBurden"}])
    );
    // critical strain breaks at once
    let (s3, _) = character()
        .apply(&ev(
            json!({"type": "takeStrain", "amount": 0, "critical": true}),
        ))
        .unwrap();
    assert!(s3.broken);
    // resisting costs strain by risk
    let (s4, _) = character()
        .apply(&NarrativeEvent::Resist {
            risk: Risk::Controlled,
        })
        .unwrap();
    assert_eq!(s4.strain, 5);
    let (s5, _) = character()
        .apply(&NarrativeEvent::Resist {
            risk: Risk::Desperate,
        })
        .unwrap();
    assert!(s5.broken);
}

#[test]
fn burdens_tick_two_actions_with_dots_at_most_twice_each() {
    let (broken, _) = character()
        .apply(&ev(json!({"type": "takeStrain", "amount": 9})))
        .unwrap();
    let refused = |s: &NarrativeState, a: &str, b: &str, clock: u32, words: &str| {
        let e = s
            .apply(&ev(json!({"type": "takeBurden", "name": "broken arm", "actions": [a, b], "clock": clock})))
            .unwrap_err();
        assert!(e.message().contains(words), "{}", e.message());
    };
    refused(&character(), "smash", "tinker", 6, "only when breaking");
    refused(&broken, "smash", "sneak", 6, "sneak is at 0d");
    refused(&broken, "smash", "smash", 6, "two different actions");
    refused(&broken, "smash", "tinker", 8, "4, 6 or 10");
    refused(&broken, "smash", "juggle", 6, "juggle is not an action");
    let s = burden(&broken, "broken arm", "smash", "tinker");
    assert_eq!(
        (s.ticks("smash"), s.ticks("tinker"), s.burden_pending),
        (1, 1, false)
    );
    assert_eq!(s.burdens[0].filled, 6);
    // second break (a later scene), second burden on smash
    let (s, _) = s
        .apply(&NarrativeEvent::EndScene)
        .unwrap()
        .0
        .apply(&ev(json!({"type": "takeStrain", "amount": 6})))
        .unwrap();
    let s = burden(&s, "fear", "smash", "charm");
    assert_eq!(s.ticks("smash"), 2);
    // third break: smash is already ticked twice
    let (s, _) = s
        .apply(&NarrativeEvent::EndScene)
        .unwrap()
        .0
        .apply(&ev(json!({"type": "takeStrain", "amount": 6})))
        .unwrap();
    refused(&s, "smash", "study", 4, "already ticked twice");
    let s = burden(&s, "poisoned", "endure", "study");
    assert_eq!(s.burdens.len(), 3);
    // the pool of a smash roll now loses 2 dice
    let action = json!({"kind": "icon.action", "rating": 3, "burdenTicks": s.ticks("smash")});
    let req: icon_engine::request::Request = serde_json::from_value(action).unwrap();
    let p = icon_engine::request::Prepared::new(&req).unwrap();
    assert_eq!(icon_engine::request::plan(&p).unwrap()[0].count, 1);
}

#[test]
fn with_three_burdens_a_break_lasts_the_expedition() {
    let mut s = character();
    for name in ["a", "b", "c"] {
        s = s
            .apply(&ev(json!({"type": "takeStrain", "amount": 9})))
            .unwrap()
            .0;
        let pair = match name {
            "a" => ("smash", "tinker"),
            "b" => ("charm", "study"),
            _ => ("endure", "smash"),
        };
        s = burden(&s, name, pair.0, pair.1);
        s = s.apply(&NarrativeEvent::EndScene).unwrap().0;
        assert!(!s.broken);
    }
    let (s, fx) = s
        .apply(&ev(json!({"type": "takeStrain", "amount": 9})))
        .unwrap();
    assert_eq!(
        serde_json::to_value(&fx).unwrap(),
        json!([{"type": "broke"}, {"type": "brokenForExpedition"}])
    );
    assert_eq!((s.burdens.len(), s.burden_pending, s.strain), (3, false, 0));
    let (s, fx) = s.apply(&NarrativeEvent::EndScene).unwrap();
    assert!(
        s.broken && fx.is_empty(),
        "stays broken at the end of the scene"
    );
    let (s, _) = s.apply(&NarrativeEvent::EndExpedition).unwrap();
    assert!(!s.broken && !s.broken_for_expedition);
}

#[test]
fn burdens_heal_by_unticking_and_strain_clears_at_camp() {
    let (s, _) = character()
        .apply(&ev(json!({"type": "takeStrain", "amount": 9})))
        .unwrap();
    let s = burden(&s, "tired", "charm", "study");
    let (s, fx) = s
        .apply(&NarrativeEvent::HealBurden {
            index: 0,
            segments: 4,
        })
        .unwrap();
    assert_eq!((s.burdens[0].filled, fx.len()), (2, 0));
    let (s, fx) = s
        .apply(&NarrativeEvent::HealBurden {
            index: 0,
            segments: 4,
        })
        .unwrap();
    assert!(s.burdens.is_empty());
    assert_eq!(
        serde_json::to_value(&fx).unwrap(),
        json!([{"type": "burdenHealed", "name": "tired"}])
    );
    assert!(s
        .apply(&NarrativeEvent::HealBurden {
            index: 0,
            segments: 1
        })
        .is_err());
    let (s, _) = character().apply(&NarrativeEvent::ClearStrain).unwrap();
    assert_eq!(s.strain, 0);
}

#[test]
fn clocks_and_session_xp() {
    let c = Clock::new(6).unwrap();
    let c = c.tick(2).unwrap().tick(5).unwrap();
    assert_eq!((c.filled, c.complete()), (6, true));
    assert_eq!(c.tick(-10).unwrap().filled, 0);
    assert!(Clock::new(5).is_err());
    let xp = SessionXp {
        ideals: 3,
        challenged: 1,
        ambition: 2,
        burden_invoked: true,
    };
    assert_eq!(xp.total(), 2 + 1 + 2 + 1);
    assert_eq!(SessionXp::default().total(), 0);
}

#[test]
fn clocks_of_every_size_tick_by_effect_segments() {
    use icon_engine::rulesets::icon::Effect;
    for size in [4u32, 6, 8, 10, 12] {
        let clock = Clock::new(size).unwrap();
        // a normal effect fills 2 segments per success, so a clock of n takes ceil(n/2) successes
        let mut c = clock;
        let mut successes = 0;
        while !c.complete() {
            c = c.tick(i64::from(Effect::Normal.segments())).unwrap();
            successes += 1;
        }
        assert_eq!(successes, size.div_ceil(2), "clock of {size}");
        assert_eq!(c.filled, size, "never past the last segment");
        assert_eq!(
            c.view(),
            ClockView {
                segments: size,
                filled: size,
                complete: true
            }
        );
        // superpowered (5) on an empty clock
        let s = clock
            .tick(i64::from(Effect::Superpowered.segments()))
            .unwrap();
        assert_eq!((s.filled, s.complete()), (5.min(size), size == 4));
    }
    for bad in [0u32, 3, 5, 7, 9, 11, 14] {
        let e = Clock::new(bad).unwrap_err();
        assert!(e.message().contains("4, 6, 8, 10 or 12"), "{}", e.message());
        let stored = Clock {
            segments: bad,
            filled: 0,
        };
        assert!(
            stored.tick(1).is_err(),
            "a stored clock of {bad} is refused"
        );
    }
}

#[test]
fn session_xp_checklist_from_the_seed() {
    let xp = |v: serde_json::Value| serde_json::from_value::<SessionXp>(v).unwrap().total();
    // "1 xp for one, 2 xp for two or more"
    assert_eq!(xp(json!({"ideals": 1})), 1);
    assert_eq!(xp(json!({"ideals": 2})), 2);
    assert_eq!(xp(json!({"ideals": 4})), 2);
    // challenged: 1, "if multiple times, 2 xp"
    assert_eq!(xp(json!({"challenged": 1})), 1);
    assert_eq!(xp(json!({"challenged": 3})), 2);
    // an ambition: 1–3 by difficulty
    for a in 0..=3 {
        assert_eq!(xp(json!({"ambition": a})), a);
    }
    // invoked burdens at least once: 1 xp
    assert_eq!(xp(json!({"burdenInvoked": true})), 1);
    // everything at once: 2 + 2 + 3 + 1
    assert_eq!(
        xp(json!({"ideals": 2, "challenged": 2, "ambition": 3, "burdenInvoked": true})),
        8
    );
    assert_eq!(xp(json!({})), 0, "every item is optional");
    let typo = serde_json::from_value::<SessionXp>(json!({"ideal": 1})).unwrap_err();
    assert!(typo.to_string().contains("unknown field `ideal`"));
}

#[test]
fn breaking_transitions_step_by_step() {
    // the strain track: 0 → 2 (risky partial) → 4 (resist, risky) → 5 (controlled fail) stays,
    // → +1 breaks
    let mut s: NarrativeState = serde_json::from_value(json!({
        "maxStrain": 5,
        "ratings": {"smash": 2, "tinker": 1, "charm": 2}
    }))
    .unwrap();
    let steps = [
        (json!({"type": "takeStrain", "amount": 2}), 2, false),
        (json!({"type": "resist", "risk": "risky"}), 4, false),
        (json!({"type": "takeStrain", "amount": 1}), 5, false),
        (json!({"type": "resist", "risk": "controlled"}), 0, true),
    ];
    for (event, strain, broken) in steps {
        s = s.apply(&ev(event.clone())).unwrap().0;
        assert_eq!((s.strain, s.broken), (strain, broken), "{event}");
    }
    assert!(s.burden_pending);
    // a refused burden leaves the state as it was
    let before = s.clone();
    assert!(s
        .apply(&ev(
            json!({"type": "takeBurden", "name": "  ", "actions": ["smash", "charm"], "clock": 4})
        ))
        .is_err());
    assert_eq!(s, before);
    // resisting past the maximum with little strain left is allowed and breaks (a character
    // not broken yet)
    let (t, _) = NarrativeState {
        strain: 4,
        broken: false,
        burden_pending: false,
        ..before.clone()
    }
    .apply(&NarrativeEvent::Resist {
        risk: Risk::Desperate,
    })
    .unwrap();
    assert!(t.broken && t.strain == 0);
    // camp clears strain but not burdens or the broken state
    let s = burden(&s, "scarred", "smash", "charm");
    let s = s
        .apply(&ev(json!({"type": "takeStrain", "amount": 3})))
        .unwrap()
        .0;
    let (s, fx) = s.apply(&NarrativeEvent::ClearStrain).unwrap();
    assert_eq!(
        (s.strain, s.burdens.len(), s.broken, fx.len()),
        (0, 1, true, 0)
    );
    let (s, fx) = s.apply(&NarrativeEvent::EndScene).unwrap();
    assert!(!s.broken);
    assert_eq!(
        serde_json::to_value(&fx).unwrap(),
        json!([{"type": "recovered"}])
    );
}

#[test]
fn burdens_tick_only_actions_that_still_roll_dice() {
    // "tick two actions which have more than 0d": charm has 1 dot; once a burden ticks it, it is at
    // 0d and a second burden cannot tick it, though it is ticked only once
    let (s, _) = character()
        .apply(&ev(json!({"type": "takeStrain", "amount": 9})))
        .unwrap();
    let s = burden(&s, "tiredness", "charm", "smash");
    assert_eq!(s.ticks("charm"), 1);
    let (s, _) = s
        .apply(&NarrativeEvent::EndScene)
        .unwrap()
        .0
        .apply(&ev(json!({"type": "takeStrain", "amount": 6})))
        .unwrap();
    let e = s
        .apply(&ev(json!({"type": "takeBurden", "name": "fear", "actions": ["charm", "tinker"], "clock": 4})))
        .unwrap_err();
    assert!(e.message().contains("charm is at 0d"), "{}", e.message());
    // tinker (2 dots, no ticks) and smash (3 dots, one tick) still roll dice: allowed
    let s = burden(&s, "fear", "tinker", "smash");
    assert_eq!((s.ticks("tinker"), s.ticks("smash")), (1, 2));
    // a rejected event leaves the state as it was: the burden is still pending there
    assert!(s.burdens.len() == 2 && !s.burden_pending);
}

// ---------------------------------------------------------------- issue 27: breaking, expeditions

/// Seed (Narrative Play, Breaking): "you break and become too hurt or overwhelmed to continue in
/// the current scene ... You cease to be broken at the end of the scene." A broken character does
/// not break again (nor take a second burden) before the scene ends.
#[test]
fn a_broken_character_does_not_break_again_in_the_same_scene() {
    let (s, _) = character()
        .apply(&ev(json!({"type": "takeStrain", "amount": 9})))
        .unwrap();
    let s = burden(&s, "broken arm", "smash", "tinker");
    assert!(s.broken && !s.burden_pending);
    // more strain past the maximum, and critical strain, in the same scene
    let (t, fx) = s
        .apply(&ev(json!({"type": "takeStrain", "amount": 7})))
        .unwrap();
    assert_eq!(
        (t.broken, t.burden_pending, t.strain, fx.len()),
        (true, false, 5, 0),
        "strain fills the boxes up to the maximum, and nothing breaks"
    );
    let (t, fx) = t
        .apply(&ev(
            json!({"type": "takeStrain", "amount": 1, "critical": true}),
        ))
        .unwrap();
    assert_eq!((t.burden_pending, fx.len()), (false, 0));
    let (t, _) = t
        .apply(&NarrativeEvent::Resist {
            risk: Risk::Desperate,
        })
        .unwrap();
    assert!(!t.burden_pending);
    assert!(t
        .apply(&ev(
            json!({"type": "takeBurden", "name": "fear", "actions": ["charm", "study"], "clock": 4})
        ))
        .is_err());
    // the next scene: recovered, and strain past the maximum breaks again
    let (t, _) = t.apply(&NarrativeEvent::EndScene).unwrap();
    assert!(!t.broken);
    let (t, fx) = t
        .apply(&ev(json!({"type": "takeStrain", "amount": 1})))
        .unwrap();
    assert!(t.broken && t.burden_pending);
    assert_eq!(
        serde_json::to_value(&fx).unwrap(),
        json!([{"type": "broke"}, {"type": "chooseBurden"}])
    );
}

/// Whether the stored state says the character sits out the next expedition.
fn sits_out(s: &NarrativeState) -> bool {
    serde_json::to_value(s).unwrap()["sitsOutNextExpedition"] == json!(true)
}

/// Seed (Narrative Play, 3 burdens): "After the expedition is over, any character that broke this
/// way must take their leave from adventuring for a while and cannot embark on the next
/// expedition. They can still heal burdens during the interludes and pursue ambitions normally,
/// then return the following expedition if they so choose."
#[test]
fn a_character_broken_for_the_expedition_sits_out_the_next_one() {
    let mut s = character();
    for (name, a, b) in [
        ("a", "smash", "tinker"),
        ("b", "charm", "study"),
        ("c", "endure", "smash"),
    ] {
        s = s
            .apply(&ev(json!({"type": "takeStrain", "amount": 9})))
            .unwrap()
            .0;
        s = burden(&s, name, a, b);
        s = s.apply(&NarrativeEvent::EndScene).unwrap().0;
    }
    let (s, _) = s
        .apply(&ev(json!({"type": "takeStrain", "amount": 9})))
        .unwrap();
    assert!(s.broken_for_expedition);
    let (s, fx) = s.apply(&NarrativeEvent::EndExpedition).unwrap();
    assert!(!s.broken && !s.broken_for_expedition);
    assert!(sits_out(&s), "remembered past the expedition");
    assert_eq!(
        serde_json::to_value(&fx).unwrap(),
        json!([{"type": "recovered"}, {"type": "sitsOutNextExpedition"}])
    );
    // the state round-trips through JSON with the flag (the sheet stores it)
    let stored = serde_json::to_value(&s).unwrap();
    assert_eq!(stored["sitsOutNextExpedition"], true);
    // burdens still heal in the interlude
    let (s, _) = s
        .apply(&ev(
            json!({"type": "healBurden", "index": 0, "segments": 6}),
        ))
        .unwrap();
    assert_eq!(s.burdens.len(), 2);
    // the expedition it sat out ends: it may embark on the following one
    let (s, fx) = s.apply(&NarrativeEvent::EndExpedition).unwrap();
    assert!(!sits_out(&s));
    assert_eq!(
        serde_json::to_value(&fx).unwrap(),
        json!([{"type": "mayEmbark"}])
    );
    // a character that never broke this way never sits out
    let (s, fx) = character().apply(&NarrativeEvent::EndExpedition).unwrap();
    assert!(!sits_out(&s) && fx.is_empty());
}

/// Seed (Resolve): "you can give 1 personal resolve as part of the activation to another character
/// who hasn't used a limit break this expedition": the mark of a used limit break lasts the
/// expedition.
#[test]
fn a_used_limit_break_is_forgotten_when_the_expedition_ends() {
    let mut s = character();
    s.limit_break_used = true;
    let (s, _) = s.apply(&NarrativeEvent::EndScene).unwrap();
    assert!(s.limit_break_used, "a scene is not an expedition");
    let (s, _) = s.apply(&NarrativeEvent::EndExpedition).unwrap();
    assert!(!s.limit_break_used);
}
