//! `iconMovement`: a move priced by ICON's rules (glossary: Engagement, Difficult Terrain,
//! Obstruction, Dash; status pages: Flying, Phasing, Immobile, Intangible, Incapacitated,
//! Unstoppable, Skirmisher). The grid is 100 pixels a space; space (i, j) spans x 100j..100j+100
//! and y 100i..100i+100. Each case is counted by hand in its comment.

use icon_engine::rulesets::icon::movement::{Movement, Priced, Problem};
use proptest::prelude::*;
use serde_json::{json, Value};

fn priced(v: Value) -> Priced {
    let text = v.to_string();
    let m: Movement = icon_engine::decode::from_json_text("movement", &text)
        .unwrap_or_else(|e| panic!("{v}: {}", e.message()));
    m.apply().unwrap_or_else(|e| panic!("{v}: {}", e.message()))
}

fn refused(v: Value) -> String {
    let text = v.to_string();
    match icon_engine::decode::from_json_text::<Movement>("movement", &text) {
        Err(e) => e.message().to_string(),
        Ok(m) => m
            .apply()
            .expect_err(&format!("{v} should be refused"))
            .message()
            .to_string(),
    }
}

/// A size-1 mover at (0, 0) walking `path`, with the rest of the request.
fn walk(path: Value, rest: Value) -> Value {
    let mut v = json!({"grid": 100, "mover": {"i": 0, "j": 0}, "path": path});
    for (k, x) in rest.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

fn problems(p: &Priced) -> Vec<(usize, Problem, Option<usize>)> {
    p.problems
        .iter()
        .map(|b| (b.step, b.problem, b.by))
        .collect()
}

fn foe(i: i64, j: i64) -> Value {
    json!({"body": {"i": i, "j": j}, "foe": true})
}

#[test]
fn open_ground_costs_a_space_a_step() {
    let p = priced(walk(json!([[1, 0], [2, 0], [2, 1]]), json!({})));
    assert_eq!(p.cost, 3);
    assert!(p.problems.is_empty());
    assert!(p
        .steps
        .iter()
        .all(|s| s.cost == 1 && !s.engaged && !s.difficult));
}

#[test]
fn leaving_a_space_adjacent_to_a_foe_costs_one_more() {
    // foe at (0, 1). (0,0) → (1,0): leaves a space beside it: 2. (1,0) is diagonal to the foe,
    // still adjacent: → (2,0) costs 2. (2,0) is 2 away: → (3,0) costs 1. Total 5.
    let path = json!([[1, 0], [2, 0], [3, 0]]);
    let p = priced(walk(path.clone(), json!({"others": [foe(0, 1)]})));
    assert_eq!(
        p.steps.iter().map(|s| s.cost).collect::<Vec<_>>(),
        [2, 2, 1]
    );
    assert_eq!(p.cost, 5);
    assert!(p.steps[0].engaged && p.steps[1].engaged && !p.steps[2].engaged);
    // "Dash movement and Flying movement both ignore engagement"; Unstoppable's "movement ignores
    // engagement"
    for mode in ["dash", "flying", "unstoppable"] {
        let p = priced(walk(
            path.clone(),
            json!({"others": [foe(0, 1)], "mode": {mode: true}}),
        ));
        assert_eq!(p.cost, 3, "{mode}");
    }
    // an ally does not engage; an incapacitated or intangible foe "doesn't provide ... engagement"
    let ally = json!({"body": {"i": 0, "j": 1}, "foe": false});
    let limp = json!({"body": {"i": 0, "j": 1}, "foe": true, "solid": false});
    for other in [ally, limp] {
        assert_eq!(
            priced(walk(path.clone(), json!({"others": [other]}))).cost,
            3
        );
    }
}

#[test]
fn leaving_difficult_terrain_costs_one_more_and_entering_it_nothing() {
    // (0,1) is difficult: entering it costs 1, leaving it 2; a flyer ignores terrain effects
    let path = json!([[0, 1], [0, 2], [0, 3]]);
    let p = priced(walk(path.clone(), json!({"difficult": [[0, 1]]})));
    assert_eq!(
        p.steps.iter().map(|s| s.cost).collect::<Vec<_>>(),
        [1, 2, 1]
    );
    assert!(p.steps[1].difficult);
    let flying = priced(walk(
        path,
        json!({"difficult": [[0, 1]], "mode": {"flying": true}}),
    ));
    assert_eq!(flying.cost, 3);
    // engaged and in difficult terrain at once: +1 each
    let both = priced(walk(
        json!([[1, 0]]),
        json!({"difficult": [[0, 0]], "others": [foe(0, 1)]}),
    ));
    assert_eq!(both.cost, 3);
}

#[test]
fn a_diagonal_step_is_skirmishers() {
    let p = priced(walk(json!([[1, 1], [2, 1]]), json!({})));
    assert_eq!(problems(&p), [(0, Problem::Diagonal, None)]);
    assert_eq!(
        p.cost, 2,
        "priced all the same: a diagonal step is one space"
    );
    let s = priced(walk(
        json!([[1, 1], [2, 1]]),
        json!({"mode": {"skirmisher": true}}),
    ));
    assert!(s.problems.is_empty());
}

#[test]
fn foes_obstruct_unless_phasing_or_flying_and_no_one_ends_in_a_character() {
    // through the foe at (0,1) to (0,2)
    let path = json!([[0, 1], [0, 2]]);
    let p = priced(walk(
        path.clone(),
        json!({"others": [foe(5, 5), foe(0, 1)]}),
    ));
    assert_eq!(problems(&p), [(0, Problem::Obstructed, Some(1))]);
    for mode in ["phasing", "flying"] {
        let p = priced(walk(
            path.clone(),
            json!({"others": [foe(0, 1)], "mode": {mode: true}}),
        ));
        assert!(p.problems.is_empty(), "{mode}");
    }
    // an ally is passed through, but not ended in; Phasing "not end your turn in, characters"
    let ally = json!({"body": {"i": 0, "j": 1}});
    assert!(priced(walk(path, json!({"others": [ally.clone()]})))
        .problems
        .is_empty());
    let stop = priced(walk(
        json!([[0, 1]]),
        json!({"others": [ally], "mode": {"phasing": true}}),
    ));
    assert_eq!(problems(&stop), [(0, Problem::EndsOccupied, Some(0))]);
    // a 2×2 foe at (0,2)–(1,3) obstructs a step into (1,2)
    let big = json!({"body": {"i": 0, "j": 2, "rows": 2, "cols": 2}, "foe": true});
    let p = priced(walk(
        json!([[1, 0], [1, 1], [1, 2], [1, 3], [1, 4]]),
        json!({"others": [big]}),
    ));
    assert_eq!(
        problems(&p)
            .iter()
            .filter(|x| x.1 == Problem::Obstructed)
            .count(),
        2
    );
}

#[test]
fn walls_stop_a_walker_a_flyer_passes_low_ones_phasing_passes_all() {
    // a wall on the line x = 100 between (0,0) and (0,1)
    let wall = json!({"a": [100, 0], "b": [100, 100]});
    let low = json!({"a": [100, 0], "b": [100, 100], "height": 1});
    let path = json!([[0, 1]]);
    let p = priced(walk(
        path.clone(),
        json!({"walls": [low.clone(), wall.clone()]}),
    ));
    assert_eq!(problems(&p), [(0, Problem::Wall, Some(0))]);
    let flying = priced(walk(
        path.clone(),
        json!({"walls": [low.clone(), wall.clone()], "mode": {"flying": true}}),
    ));
    assert_eq!(
        problems(&flying),
        [(0, Problem::Wall, Some(1))],
        "impassable to a flyer"
    );
    let phasing = priced(walk(
        path,
        json!({"walls": [wall], "mode": {"phasing": true}}),
    ));
    assert!(phasing.problems.is_empty());
    // a wall along y = 100 in two segments meeting at (100, 100): a diagonal through the joint is
    // stopped; past the end of one segment alone it slips by
    let halves = json!([{"a": [0, 100], "b": [100, 100]}, {"a": [100, 100], "b": [200, 100]}]);
    let sk = json!({"skirmisher": true});
    let joint = priced(walk(json!([[1, 1]]), json!({"walls": halves, "mode": sk})));
    assert_eq!(problems(&joint).len(), 1);
    assert_eq!(joint.problems[0].problem, Problem::Wall);
    let end = priced(walk(
        json!([[1, 1]]),
        json!({"walls": [{"a": [0, 100], "b": [100, 100]}], "mode": sk}),
    ));
    assert!(end.problems.is_empty());
    // a 2×1 mover's lower space hits a wall its upper space misses
    let tall = json!({"grid": 100, "mover": {"i": 0, "j": 0, "rows": 2}, "path": [[0, 1]],
        "walls": [{"a": [100, 100], "b": [100, 200]}]});
    assert_eq!(problems(&priced(tall)), [(0, Problem::Wall, Some(0))]);
}

#[test]
fn an_immobile_character_cannot_move() {
    let p = priced(walk(json!([[0, 1]]), json!({"mode": {"immobile": true}})));
    assert_eq!(problems(&p), [(0, Problem::Immobile, None)]);
    assert!(priced(walk(json!([]), json!({"mode": {"immobile": true}})))
        .problems
        .is_empty());
}

#[test]
fn bad_requests_are_refused_by_name() {
    assert!(refused(walk(json!([[0, 2]]), json!({}))).contains("path[0] must be one step"));
    assert!(refused(walk(json!([[0, 0]]), json!({}))).contains("path[0] must be one step"));
    let long: Vec<[i64; 2]> = (1..=401).map(|j| [0, j]).collect();
    assert!(refused(walk(json!(long), json!({}))).contains("path: at most 400"));
    assert!(refused(json!({"grid": 0, "mover": {"i": 0, "j": 0}, "path": []})).contains("grid"));
    assert!(refused(walk(json!([]), json!({"speed": 4}))).contains("speed"));
    let far = json!({"walls": [{"a": [0, 0], "b": [0, 20_000_000]}]});
    assert!(refused(walk(json!([[0, 1]]), far)).contains("walls[0].b"));
    let tall = json!({"walls": [{"a": [0, 0], "b": [0, 100], "height": 101}]});
    assert!(refused(walk(json!([[0, 1]]), tall)).contains("walls[0].height"));
}

proptest! {
    /// On open ground a Skirmisher's walk costs its length and breaks nothing; with a foe the cost
    /// is its length plus the steps that leave a space within 1 of the foe, counted here apart.
    #[test]
    fn cost_is_steps_plus_engaged_leavings(moves in prop::collection::vec((-1i64..=1, -1i64..=1), 1..40),
                                           fi in -5i64..5, fj in -5i64..5) {
        let mut at = (0i64, 0i64);
        let mut path = Vec::new();
        let mut engaged = 0;
        for (di, dj) in moves {
            if (di, dj) == (0, 0) { continue; }
            if (at.0 - fi).abs().max((at.1 - fj).abs()) <= 1 { engaged += 1; }
            at = (at.0 + di, at.1 + dj);
            path.push([at.0, at.1]);
        }
        let open = priced(walk(json!(path), json!({"mode": {"skirmisher": true}})));
        prop_assert_eq!(open.cost, path.len() as i64);
        prop_assert!(open.problems.is_empty());
        let p = priced(walk(json!(path), json!({"mode": {"skirmisher": true, "phasing": true}, "others": [foe(fi, fj)]})));
        prop_assert_eq!(p.cost, path.len() as i64 + engaged);
    }
}
