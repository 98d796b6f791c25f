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

/// Waypoints with `route`: the cheapest legal route between them, counted by hand.
#[test]
fn a_route_walks_round_a_wall_and_out_of_engagement() {
    // a wall along y = 100 under (0, 0): the staircase to (2, 2) starts down through it
    let wall = json!([{"a": [0, 100], "b": [100, 100]}]);
    let straight = priced(walk(
        json!([[1, 0], [1, 1], [2, 1], [2, 2]]),
        json!({"walls": wall}),
    ));
    assert_eq!(problems(&straight), [(0, Problem::Wall, Some(0))]);
    let routed = priced(walk(json!([[2, 2]]), json!({"walls": wall, "route": true})));
    assert_eq!(routed.cost, 4);
    assert!(routed.problems.is_empty());
    assert_eq!(routed.steps[0].to, [0, 1], "round the wall's end");
    assert_eq!(routed.steps.last().unwrap().to, [2, 2]);
    // along row 0 to (0, 6) past a foe at (1, 3): leaving (0, 2), (0, 3), (0, 4) costs 3 more
    // (9); the row above is 2 from the foe: 8 steps at 1 each
    let past = priced(walk(
        json!([[0, 6]]),
        json!({"others": [foe(1, 3)], "route": true}),
    ));
    assert_eq!(past.cost, 8);
    assert!(past.steps.iter().all(|s| !s.engaged));
    // dashing ignores engagement: the straight row, 6
    let dash = priced(walk(
        json!([[0, 6]]),
        json!({"others": [foe(1, 3)], "route": true, "mode": {"dash": true}}),
    ));
    assert_eq!(dash.cost, 6);
    assert!(dash.steps.iter().all(|s| s.to[0] == 0));
    // a Skirmisher's route to (3, 3) on open ground: 3 diagonal steps
    let sk = priced(walk(
        json!([[3, 3]]),
        json!({"route": true, "mode": {"skirmisher": true}}),
    ));
    assert_eq!(
        sk.steps.iter().map(|s| s.to).collect::<Vec<_>>(),
        [[1, 1], [2, 2], [3, 3]]
    );
    // two waypoints, the second back where it started: 2 + 2
    let back = priced(walk(json!([[0, 2], [0, 0]]), json!({"route": true})));
    assert_eq!(back.cost, 4);
}

#[test]
fn a_route_with_no_way_through_is_the_staircase_and_says_what_it_breaks() {
    // (2, 2) boxed in by four walls: no route, so the staircase, stopped by the box
    let boxed = json!([{"a": [200, 200], "b": [300, 200]}, {"a": [300, 200], "b": [300, 300]},
        {"a": [300, 300], "b": [200, 300]}, {"a": [200, 300], "b": [200, 200]}]);
    let p = priced(walk(
        json!([[2, 2]]),
        json!({"walls": boxed, "route": true}),
    ));
    assert_eq!(
        p.steps.iter().map(|s| s.to).collect::<Vec<_>>(),
        [[1, 0], [1, 1], [2, 1], [2, 2]]
    );
    assert_eq!(problems(&p).len(), 1);
    assert_eq!(p.problems[0].problem, Problem::Wall);
    // onto a foe: never routed into, so the staircase and its obstruction
    let onto = priced(walk(
        json!([[0, 2]]),
        json!({"others": [foe(0, 2)], "route": true}),
    ));
    assert_eq!(onto.steps.len(), 2);
    assert!(problems(&onto)
        .iter()
        .any(|(_, problem, by)| *problem == Problem::Obstructed && *by == Some(0)));
    // an immobile mover: the staircase and Immobile
    let stuck = priced(walk(
        json!([[1, 1]]),
        json!({"route": true, "mode": {"immobile": true}}),
    ));
    assert_eq!(problems(&stuck), [(0, Problem::Immobile, None)]);
    // longer than a path may be: refused before it is searched
    assert!(refused(walk(json!([[0, 401]]), json!({"route": true}))).contains("at most 400 spaces"));
    assert!(refused(walk(json!([[0, 2]]), json!({}))).contains("path[0] must be one step"));
}

/// The cost of the cheapest legal route from (0, 0) to `goal` inside the searched rectangle
/// (the two spaces' rectangle widened by `ROUTE_MARGIN`), by Bellman-Ford over one-step moves
/// each priced by the core on its own: a search independent of the core's.
fn cheapest(goal: [i64; 2], rest: &Value) -> Option<i64> {
    use icon_engine::rulesets::icon::movement::ROUTE_MARGIN;
    let (i0, i1) = (goal[0].min(0) - ROUTE_MARGIN, goal[0].max(0) + ROUTE_MARGIN);
    let (j0, j1) = (goal[1].min(0) - ROUTE_MARGIN, goal[1].max(0) + ROUTE_MARGIN);
    let cells: Vec<[i64; 2]> = (i0..=i1)
        .flat_map(|i| (j0..=j1).map(move |j| [i, j]))
        .collect();
    let mut edges = Vec::new();
    for &c in &cells {
        for (di, dj) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let n = [c[0] + di, c[1] + dj];
            if n[0] < i0 || n[0] > i1 || n[1] < j0 || n[1] > j1 {
                continue;
            }
            let mut v = rest.clone();
            v["grid"] = json!(100);
            v["mover"] = json!({"i": c[0], "j": c[1]});
            v["path"] = json!([n]);
            let p = priced(v);
            if p.problems
                .iter()
                .all(|b| b.problem == Problem::EndsOccupied)
            {
                edges.push((c, n, p.cost));
            }
        }
    }
    let mut best: std::collections::HashMap<[i64; 2], i64> = [([0, 0], 0)].into();
    for _ in 0..cells.len() {
        let mut changed = false;
        for &(a, b, w) in &edges {
            if let Some(&d) = best.get(&a) {
                if best.get(&b).is_none_or(|&e| d + w < e) {
                    best.insert(b, d + w);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    best.get(&goal).copied()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Among random foes and walls, a routed move costs what the independent search finds and
    /// breaks nothing; where that search finds no route, the core walks the staircase.
    #[test]
    fn a_route_is_the_cheapest_legal_one(gi in -3i64..=3, gj in -3i64..=3,
                                         foes in prop::collection::vec((-3i64..=3, -3i64..=3), 0..4),
                                         walls in prop::collection::vec((-3i64..=3, -3i64..=3, any::<bool>()), 0..6)) {
        prop_assume!([gi, gj] != [0, 0]);
        let others: Vec<Value> = foes.iter().filter(|&&f| f != (0, 0)).map(|&(i, j)| foe(i, j)).collect();
        // a wall one space long on a grid line: the top or the left edge of space (i, j)
        let walls: Vec<Value> = walls.iter().map(|&(i, j, top)| {
            let (x, y) = (100 * j, 100 * i);
            if top { json!({"a": [x, y], "b": [x + 100, y]}) } else { json!({"a": [x, y], "b": [x, y + 100]}) }
        }).collect();
        let rest = json!({"others": others, "walls": walls});
        let mut routed = rest.clone();
        routed["route"] = json!(true);
        let p = priced(walk(json!([[gi, gj]]), routed));
        match cheapest([gi, gj], &rest) {
            Some(cost) => {
                prop_assert_eq!(p.cost, cost);
                prop_assert!(p.problems.iter().all(|b| b.problem == Problem::EndsOccupied), "{:?}", p.problems);
                prop_assert_eq!(p.steps.last().map(|s| s.to), Some([gi, gj]));
            }
            None => prop_assert!(!p.problems.is_empty()),
        }
    }
}
