//! `iconSightlines`: line of sight, cover, adjacency and height from the map. Each case quotes the
//! seed sentence it holds the rule to (icon-rules-reference.db, "Cover/Line of Sight",
//! "Targeting/Range"); the grid is 100 pixels a space, space (i, j) spanning x 100j..100j+100 and
//! y 100i..100i+100. The property test holds line of sight past vision walls to a floating-point
//! segment test written here on its own.

use icon_engine::rulesets::icon::sight::{Sight, Sightlines};
use proptest::prelude::*;
use serde_json::{json, Value};

fn sights(v: Value) -> Vec<Sight> {
    let text = v.to_string();
    let s: Sightlines = icon_engine::decode::from_json_text("sightlines", &text)
        .unwrap_or_else(|e| panic!("{v}: {}", e.message()));
    s.apply().unwrap_or_else(|e| panic!("{v}: {}", e.message()))
}

fn one(v: Value) -> Sight {
    sights(v)[0]
}

fn refused(v: Value) -> String {
    let text = v.to_string();
    match icon_engine::decode::from_json_text::<Sightlines>("sightlines", &text) {
        Err(e) => e.message().to_string(),
        Ok(s) => s
            .apply()
            .expect_err(&format!("{v} should be refused"))
            .message()
            .to_string(),
    }
}

/// An attacker in space (0, 0) and one target in space (0, 5), with these barriers.
fn across(barriers: Value) -> Value {
    json!({"grid": 100, "from": {"i": 0, "j": 0}, "targets": [{"i": 0, "j": 5}], "barriers": barriers})
}

/// A vertical barrier at x from y0 to y1.
fn wall(x: i64, y0: i64, y1: i64, height: Option<i64>) -> Value {
    json!({"a": [x, y0], "b": [x, y1], "height": height})
}

#[test]
fn open_ground_is_seen_without_cover() {
    let s = one(across(json!([])));
    assert!(s.sight && !s.cover && !s.adjacent);
    assert_eq!(
        (s.distance, s.height_difference, s.cover_by, s.blocked_by),
        (5, 0, None, None)
    );
}

#[test]
fn terrain_of_the_targets_height_adjacent_to_it_gives_cover() {
    // "behind and adjacent to ... terrain ... the same height as it ... it gains cover from them"
    let s = one(across(json!([wall(500, 0, 100, Some(1))])));
    assert!(s.sight, "it can still be seen past terrain of its height");
    assert!(s.cover);
    assert_eq!(s.cover_by, Some(0));
    // the same terrain one space off the target's side is still adjacent to it (a space of terrain)
    assert!(one(across(json!([wall(400, 0, 100, Some(1))]))).cover);
}

#[test]
fn terrain_lower_than_the_target_gives_nothing() {
    // a size-2 foe (height 2) behind a 1-high wall: not "the same height as it"
    let big = json!({"grid": 100, "from": {"i": 0, "j": 0}, "targets": [{"i": 0, "j": 5, "rows": 2, "cols": 2, "height": 2}],
        "barriers": [wall(500, -100, 300, Some(1))]});
    let s = one(big);
    assert!(s.sight && !s.cover);
    // a target standing a level up, behind a 1-high wall on the ground: it stands above it
    let raised = json!({"grid": 100, "from": {"i": 0, "j": 0, "level": 1}, "targets": [{"i": 0, "j": 5, "level": 1}],
        "barriers": [wall(500, 0, 100, Some(1))]});
    let s = one(raised);
    assert!(s.sight && !s.cover);
}

#[test]
fn terrain_higher_than_the_target_adjacent_to_it_blocks_sight() {
    // "behind and adjacent to terrain ... higher than it, ... those characters can't draw line of sight to it"
    let s = one(across(json!([wall(500, 0, 100, Some(2))])));
    assert!(!s.sight && !s.cover);
    assert_eq!(s.blocked_by, Some(0));
}

#[test]
fn a_wall_nothing_sees_past_blocks_wherever_it_stands() {
    for x in [100, 300, 500] {
        let s = one(across(json!([wall(x, -100, 200, None)])));
        assert!(!s.sight, "a vision wall at x {x}");
    }
}

#[test]
fn terrain_adjacent_to_the_attacker() {
    // of its own height: the attacker has cover, and sees
    let s = one(across(json!([wall(100, 0, 100, Some(1))])));
    assert!(
        s.sight && !s.cover,
        "cover is the target's, not the attacker's"
    );
    // higher than the attacker: "it cannot draw line of sight to any characters past that terrain"
    assert!(!one(across(json!([wall(100, 0, 100, Some(2))]))).sight);
}

#[test]
fn terrain_adjacent_to_neither_blocks_only_what_is_higher_than_both() {
    // the page says nothing of it; read as: seen over unless it stands above both characters
    assert!(one(across(json!([wall(300, 0, 100, Some(1))]))).sight);
    assert!(!one(across(json!([wall(300, 0, 100, Some(2))]))).sight);
    let tall = json!({"grid": 100, "from": {"i": 0, "j": 0, "height": 2}, "targets": [{"i": 0, "j": 5}], "barriers": [wall(300, 0, 100, Some(2))]});
    assert!(
        one(tall).sight,
        "a 2-high attacker sees over 2-high terrain"
    );
}

#[test]
fn sight_slips_past_a_barriers_end() {
    // a wall ending exactly on the line between the centres does not cut it
    assert!(one(across(json!([wall(300, -100, 50, None)]))).sight);
    assert!(!one(across(json!([wall(300, -100, 51, None)]))).sight);
}

#[test]
fn one_space_of_a_large_target_in_sight_is_enough() {
    // a 3x3 foe in rows -1..1, columns 5..7; a vision wall hides all but its lowest row
    let foe = |y1: i64| {
        json!({"grid": 100, "from": {"i": 0, "j": 0}, "targets": [{"i": -1, "j": 5, "rows": 3, "cols": 3, "height": 3}],
        "barriers": [wall(500, -200, y1, None)]})
    };
    assert!(
        one(foe(100)).sight,
        "the line to space (1, 5), centre y 150, crosses x 500 at y 140, under the wall's end"
    );
    assert!(!one(foe(400)).sight);
    assert_eq!(one(foe(400)).distance, 5, "to its nearest space");
}

#[test]
fn the_attacker_picks_its_clearest_line() {
    // a 2x2 attacker: its lower spaces' lines pass below a low wall next to the target
    let v = json!({"grid": 100, "from": {"i": 0, "j": 0, "rows": 2, "cols": 2, "height": 2}, "targets": [{"i": 0, "j": 5}],
        "barriers": [{"a": [500, 0], "b": [500, 100], "height": 1}, {"a": [400, 100], "b": [500, 100], "height": 1}]});
    let s = one(v);
    assert!(s.sight);
    assert!(
        s.cover,
        "every line into its space passes the wall on its side or the one under it"
    );
    let open = json!({"grid": 100, "from": {"i": 0, "j": 0, "rows": 2, "cols": 2, "height": 2}, "targets": [{"i": 0, "j": 5}],
        "barriers": [{"a": [500, 0], "b": [500, 60], "height": 1}]});
    assert!(!one(open).cover, "a line below the wall's end is clear");
}

#[test]
fn height_and_adjacency() {
    // "Target lower than you: +1 boon per level difference"
    let v = json!({"grid": 100, "from": {"i": 0, "j": 0, "level": 2}, "targets": [{"i": 1, "j": 1}, {"i": 0, "j": 2, "level": 7}, {"i": 5, "j": 5}]});
    let s = sights(v);
    assert_eq!(
        s.iter().map(|s| s.height_difference).collect::<Vec<_>>(),
        vec![2, -3, 2],
        "at most 3 either way"
    );
    assert_eq!(
        s.iter().map(|s| s.adjacent).collect::<Vec<_>>(),
        vec![true, false, false],
        "a diagonal neighbour is adjacent"
    );
    assert_eq!(
        s.iter().map(|s| s.distance).collect::<Vec<_>>(),
        vec![1, 2, 5]
    );
}

#[test]
fn bad_input_is_refused_with_its_field() {
    assert!(refused(json!({"grid": 0, "from": {"i": 0, "j": 0}, "targets": []})).contains("grid"));
    assert!(
        refused(json!({"grid": 100, "from": {"i": 0, "j": 0, "height": 4}, "targets": []}))
            .contains("from.height")
    );
    assert!(refused(
        json!({"grid": 100, "from": {"i": 0, "j": 0}, "targets": [{"i": 0, "j": 0, "cols": 11}]})
    )
    .contains("targets[0].cols"));
    assert!(refused(json!({"grid": 100, "from": {"i": 0, "j": 0}, "targets": [], "barriers": [{"a": [0, 0], "b": [1, 1e9]}]})).contains("barriers[0]"));
    assert!(
        refused(json!({"grid": 100, "from": {"i": 0, "j": 0}, "targets": [], "elevation": 3}))
            .contains("elevation")
    );
    let many = vec![json!({"i": 0, "j": 1}); 65];
    assert!(
        refused(json!({"grid": 100, "from": {"i": 0, "j": 0}, "targets": many}))
            .contains("at most 64 targets")
    );
    // the work is bounded: 100 x 100 spaces x 4,096 barriers is past a frame's
    let barriers = vec![wall(5000, 0, 100, Some(1)); 4096];
    let big = json!({"grid": 100, "from": {"i": 0, "j": 0, "rows": 10, "cols": 10}, "targets": [{"i": 0, "j": 20, "rows": 10, "cols": 10}], "barriers": barriers});
    assert!(refused(big).contains("sightline tests"));
}

/// Whether the segment p-q properly crosses a-b, in floating point, by solving for both
/// parameters (the ends of a-b on the line do not count).
fn crosses_f(p: (f64, f64), q: (f64, f64), a: (f64, f64), b: (f64, f64)) -> Option<bool> {
    let r = (q.0 - p.0, q.1 - p.1);
    let s = (b.0 - a.0, b.1 - a.1);
    let den = r.0 * s.1 - r.1 * s.0;
    if den.abs() < 1e-9 {
        return Some(false);
    }
    let t = ((a.0 - p.0) * s.1 - (a.1 - p.1) * s.0) / den;
    let u = ((a.0 - p.0) * r.1 - (a.1 - p.1) * r.0) / den;
    // too near an end to call in floating point
    if [t, u]
        .iter()
        .any(|v| v.abs() < 1e-6 || (v - 1.0).abs() < 1e-6)
    {
        return None;
    }
    Some((0.0..=1.0).contains(&t) && u > 0.0 && u < 1.0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn vision_walls_block_exactly_the_lines_they_cross(
        ti in -6i64..6, tj in -6i64..6,
        walls in proptest::collection::vec((-700i64..700, -700i64..700, -700i64..700, -700i64..700), 0..6)
    ) {
        prop_assume!(ti != 0 || tj != 0);
        let barriers: Vec<Value> = walls.iter().map(|&(x0, y0, x1, y1)| json!({"a": [x0, y0], "b": [x1, y1], "height": null})).collect();
        let s = one(json!({"grid": 100, "from": {"i": 0, "j": 0}, "targets": [{"i": ti, "j": tj}], "barriers": barriers}));
        let (p, q) = ((50.0, 50.0), (tj as f64 * 100.0 + 50.0, ti as f64 * 100.0 + 50.0));
        let mut blocked = false;
        for &(x0, y0, x1, y1) in &walls {
            match crosses_f(p, q, (x0 as f64, y0 as f64), (x1 as f64, y1 as f64)) {
                None => return Ok(()),
                Some(c) => blocked |= c,
            }
        }
        prop_assert_eq!(s.sight, !blocked);
    }
}
