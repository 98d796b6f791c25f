//! Movement on the map, as the glossary and the status pages state it:
//! - "Engagement: A character must spend +1 space of movement to exit a space adjacent to a foe."
//!   "Dash movement and Flying movement both ignore engagement." Unstoppable: "movement ignores
//!   engagement and rampart".
//! - "Difficult Terrain: Costs +1 space of movement to exit."
//! - "Obstruction: A character can't move through something that causes obstruction unless they
//!   have Phasing." "Phasing characters can ignore obstructions and pass through, but not end
//!   your turn in, characters, terrain or objects."
//! - "Flying: A flying character ignores all terrain, objects, and terrain effects other than
//!   impassable terrain, and ignores engagement and obstruction."
//! - "Immobile: Can't move, be moved, or be removed from the battlefield in any way."
//!   "Incapacitated: ... doesn't provide obstruction or engagement, can't move". Intangible:
//!   "Does not provide obstruction or engagement."
//! - Skirmisher: "Characters with the Skirmisher trait can move diagonally": a diagonal step is
//!   Skirmisher's (and a flyer's, who ignores the grid's terrain, not its geometry: read as not).
//!
//! A path is a list of the mover's top-left spaces, one step (to a neighbouring space) apart, or,
//! with `route`, a list of waypoints between which the core finds the cheapest legal route (a
//! non-Skirmisher dragged "diagonally" walks round what is in its way, as a player would).
//! Each step costs 1, +1 to leave a space engaged by a foe, +1 to leave difficult terrain. The
//! answer is the cost and what the move breaks; the table decides (a GM moves freely).

use crate::error::{Error, Result};
use crate::rulesets::check_range;
use crate::rulesets::icon::sight::{centre, crossing, Barrier, Body, Point, MAX_COORD};
use serde::{Deserialize, Serialize};

/// The most steps one path has.
pub const MAX_STEPS: usize = 400;
/// The most characters one request reads.
pub const MAX_CHARACTERS: usize = 1000;
/// The most spaces of difficult terrain one request reads.
pub const MAX_DIFFICULT: usize = 10_000;
/// The most walls one request reads.
pub const MAX_WALLS: usize = 4096;
/// The most wall tests one request makes (steps × the mover's spaces × walls).
pub const MAX_TESTS: u64 = 4_000_000;
/// The most spaces a route's search between two waypoints may visit; past it (or past
/// `MAX_TESTS` wall tests) the waypoints are joined by the staircase nearest their line.
pub const MAX_ROUTE_SPACES: i64 = 4096;
/// How far, in spaces, a route may stray outside the rectangle of its two waypoints.
pub const ROUTE_MARGIN: i64 = 3;

/// Another character on the map: a foe engages and obstructs; anyone's space is no place to end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Other {
    pub body: Body,
    /// Hostile to the mover.
    #[serde(default)]
    pub foe: bool,
    /// Provides obstruction and engagement (not incapacitated, not intangible).
    #[serde(default = "yes")]
    pub solid: bool,
}

fn yes() -> bool {
    true
}

/// How the mover moves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Mode {
    #[serde(default)]
    pub dash: bool,
    #[serde(default)]
    pub flying: bool,
    #[serde(default)]
    pub phasing: bool,
    #[serde(default)]
    pub skirmisher: bool,
    #[serde(default)]
    pub unstoppable: bool,
    /// Immobile, incapacitated, or otherwise unable to move.
    #[serde(default)]
    pub immobile: bool,
}

/// A move to check.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Movement {
    /// Pixels per space.
    pub grid: i64,
    /// The mover's size (its `i`, `j` are where the path starts).
    pub mover: Body,
    #[serde(default)]
    pub mode: Mode,
    /// The top-left space after each step.
    pub path: Vec<[i64; 2]>,
    #[serde(default)]
    pub others: Vec<Other>,
    /// Spaces of difficult terrain, as `[i, j]`.
    #[serde(default)]
    pub difficult: Vec<[i64; 2]>,
    /// Walls that block movement; one with a height is low terrain a flyer passes over.
    #[serde(default)]
    pub walls: Vec<Barrier>,
    /// `path` holds waypoints: each pair is joined by the cheapest route that breaks no rule
    /// (ties go to the route nearest the straight line), or, where none is found, by the
    /// staircase (or, for a Skirmisher, the line) nearest the straight line.
    #[serde(default)]
    pub route: bool,
}

/// What a move breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Problem {
    /// It cannot move at all.
    Immobile,
    /// A diagonal step without Skirmisher.
    Diagonal,
    /// Through a foe's space without Phasing or Flying.
    Obstructed,
    /// Through a wall (a flyer passes a low one; Phasing passes any).
    Wall,
    /// It ends in a character's space.
    EndsOccupied,
}

/// One step of the path as it is paid for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub to: [i64; 2],
    pub cost: i64,
    /// It left a space engaged by a foe, and paid for it.
    pub engaged: bool,
    /// It left difficult terrain, and paid for it.
    pub difficult: bool,
}

/// A problem at a step (its index in `steps`; the last step for `endsOccupied`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Breach {
    pub step: usize,
    pub problem: Problem,
    /// The character (index in `others`) or wall (index in `walls`) in the way, if any.
    pub by: Option<usize>,
}

/// The move as the rules price it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Priced {
    pub cost: i64,
    pub steps: Vec<Step>,
    pub problems: Vec<Breach>,
}

impl Movement {
    fn check(&self) -> Result<()> {
        check_range("grid", self.grid, 1, 10_000)?;
        self.mover.check("mover")?;
        for (what, len, max) in [
            ("path", self.path.len(), MAX_STEPS),
            ("others", self.others.len(), MAX_CHARACTERS),
            ("difficult", self.difficult.len(), MAX_DIFFICULT),
            ("walls", self.walls.len(), MAX_WALLS),
        ] {
            if len > max {
                return Err(Error::request(format!("{what}: at most {max}, not {len}")));
            }
        }
        for (k, o) in self.others.iter().enumerate() {
            o.body.check(&format!("others[{k}]"))?;
        }
        for (what, list) in [("path", &self.path), ("difficult", &self.difficult)] {
            for (k, [i, j]) in list.iter().enumerate() {
                check_range(&format!("{what}[{k}][0]"), *i, -MAX_COORD, MAX_COORD)?;
                check_range(&format!("{what}[{k}][1]"), *j, -MAX_COORD, MAX_COORD)?;
            }
        }
        let mut at = [self.mover.i, self.mover.j];
        let mut spaces = 0;
        for (k, next) in self.path.iter().enumerate() {
            let far = (next[0] - at[0]).abs().max((next[1] - at[1]).abs());
            spaces += far;
            if !self.route && (far != 1) {
                return Err(Error::request(format!(
                    "path[{k}] must be one step from the space before it"
                )));
            }
            at = *next;
        }
        if spaces > MAX_STEPS as i64 {
            return Err(Error::request(format!(
                "path: at most {MAX_STEPS} spaces long, not {spaces}"
            )));
        }
        for (k, w) in self.walls.iter().enumerate() {
            w.check(&format!("walls[{k}]"))?;
        }
        let tests =
            spaces as u64 * (self.mover.rows * self.mover.cols) as u64 * self.walls.len() as u64;
        if tests > MAX_TESTS {
            return Err(Error::request(format!(
                "{tests} wall tests (steps × the mover's spaces × walls); at most {MAX_TESTS}"
            )));
        }
        Ok(())
    }

    fn at(&self, [i, j]: [i64; 2]) -> Body {
        Body { i, j, ..self.mover }
    }

    /// The wall (its index) a step of one space crosses, if any: one crossed strictly, or walls
    /// meeting on the step with ends on both sides of it (two segments of one wall).
    fn wall_on(&self, p: Point, q: Point, among: &[usize]) -> Option<usize> {
        let mut sides: [Option<usize>; 2] = [None, None];
        for &k in among {
            let w = &self.walls[k];
            if w.height.is_some() && self.mode.flying {
                continue;
            }
            let a = (2 * i128::from(w.a[0]), 2 * i128::from(w.a[1]));
            let b = (2 * i128::from(w.b[0]), 2 * i128::from(w.b[1]));
            // a step is one space long: most walls lie wholly to one side of it
            if a.0.max(b.0) < p.0.min(q.0)
                || a.0.min(b.0) > p.0.max(q.0)
                || a.1.max(b.1) < p.1.min(q.1)
                || a.1.min(b.1) > p.1.max(q.1)
            {
                continue;
            }
            if crossing(p, q, a, b).is_some() {
                return Some(k);
            }
            // an end on the step: which side the other end lies on
            for (end, other) in [(a, b), (b, a)] {
                if on_segment(p, q, end) {
                    let side = cross(p, q, other);
                    if side != 0 {
                        sides[usize::from(side > 0)] = Some(k);
                    }
                }
            }
        }
        match sides {
            [Some(k), Some(_)] => Some(k),
            _ => None,
        }
    }

    /// The cost of the path (routed between waypoints with `route`) and what it breaks.
    pub fn apply(&self) -> Result<Priced> {
        self.check()?;
        let all: Vec<usize> = (0..self.walls.len()).collect();
        if !self.route {
            return Ok(self.price(&self.path, &all));
        }
        let mut path = Vec::new();
        let mut at = [self.mover.i, self.mover.j];
        for &next in &self.path {
            if next != at {
                match self.route_between(at, next) {
                    Some(leg) => path.extend(leg),
                    None => path.extend(self.straight(at, next)),
                }
            }
            at = next;
        }
        if path.len() > MAX_STEPS {
            return Err(Error::request(format!(
                "the routed path: at most {MAX_STEPS} steps, not {}",
                path.len()
            )));
        }
        Ok(self.price(&path, &all))
    }

    /// The steps from `a` to `b` nearest their straight line: diagonal steps for a Skirmisher,
    /// else the orthogonal staircase that takes, at each step, the axis whose next half-step
    /// lies nearer the line's start.
    fn straight(&self, a: [i64; 2], b: [i64; 2]) -> Vec<[i64; 2]> {
        let (di, dj) = (b[0] - a[0], b[1] - a[1]);
        let mut out = Vec::new();
        if self.mode.skirmisher {
            let n = di.abs().max(dj.abs());
            // x / n rounded half up
            let round = |x: i64, n: i64| (2 * x + n).div_euclid(2 * n);
            for k in 1..=n {
                out.push([a[0] + round(di * k, n), a[1] + round(dj * k, n)]);
            }
            return out;
        }
        let (si, sj, ni, nj) = (di.signum(), dj.signum(), di.abs(), dj.abs());
        let (mut mi, mut mj) = (0, 0);
        while mi < ni || mj < nj {
            if mj >= nj || (mi < ni && (2 * mi + 1) * nj <= (2 * mj + 1) * ni) {
                mi += 1;
            } else {
                mj += 1;
            }
            out.push([a[0] + si * mi, a[1] + sj * mj]);
        }
        out
    }

    /// What leaving `from` costs beyond the step's 1: engagement (a solid foe within a space,
    /// unless dashing, flying or Unstoppable) and difficult terrain (unless flying).
    fn leaving(&self, from: &Body) -> (bool, bool) {
        let mode = self.mode;
        let engaged = !(mode.dash || mode.flying || mode.unstoppable)
            && self
                .others
                .iter()
                .any(|o| o.foe && o.solid && from.distance(&o.body) <= 1);
        let difficult = !mode.flying && from.spaces().any(|s| self.difficult.contains(&[s.0, s.1]));
        (engaged, difficult)
    }

    /// The foe (its index) whose space a step into `to` goes through, without Phasing or Flying.
    fn obstruction(&self, to: &Body) -> Option<usize> {
        if self.mode.phasing || self.mode.flying {
            return None;
        }
        self.others
            .iter()
            .position(|o| o.foe && o.solid && overlap(to, &o.body))
    }

    /// The wall (its index, of `among`) a step from `from` to `to` crosses, without Phasing.
    fn wall_crossed(&self, from: &Body, to: &Body, among: &[usize]) -> Option<usize> {
        if self.mode.phasing {
            return None;
        }
        let grid = i128::from(self.grid);
        from.spaces()
            .zip(to.spaces())
            .find_map(|(s, t)| self.wall_on(centre(s, grid), centre(t, grid), among))
    }

    /// The cheapest route from `a` to `b` that breaks no rule (a step only to a neighbouring
    /// space, diagonal only for a Skirmisher; never into a foe's space without Phasing or
    /// Flying, never through a wall without Phasing), searched inside the rectangle of the two
    /// spaces widened by `ROUTE_MARGIN`; among the cheapest, the one nearest the straight line.
    /// None when there is none there, the mover cannot move, or the search would pass its
    /// bounds.
    fn route_between(&self, a: [i64; 2], b: [i64; 2]) -> Option<Vec<[i64; 2]>> {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        if self.mode.immobile {
            return None;
        }
        let (i0, j0) = (a[0].min(b[0]) - ROUTE_MARGIN, a[1].min(b[1]) - ROUTE_MARGIN);
        let h = (a[0] - b[0]).abs() + 2 * ROUTE_MARGIN + 1;
        let w = (a[1] - b[1]).abs() + 2 * ROUTE_MARGIN + 1;
        if h * w > MAX_ROUTE_SPACES {
            return None;
        }
        // only the walls that reach the searched rectangle (with the mover's size) can be crossed
        let (x0, y0) = (self.grid * j0, self.grid * i0);
        let (x1, y1) = (
            self.grid * (j0 + w + self.mover.cols),
            self.grid * (i0 + h + self.mover.rows),
        );
        let near: Vec<usize> = (0..self.walls.len())
            .filter(|&k| {
                let [a, b] = [self.walls[k].a, self.walls[k].b];
                a[0].max(b[0]) >= x0
                    && a[0].min(b[0]) <= x1
                    && a[1].max(b[1]) >= y0
                    && a[1].min(b[1]) <= y1
            })
            .collect();
        let moves = if self.mode.skirmisher { 8 } else { 4 };
        let spaces = (self.mover.rows * self.mover.cols) as u64;
        if (h * w) as u64 * moves * spaces * near.len() as u64 > MAX_TESTS {
            return None;
        }
        let cell = |k: usize| [i0 + k as i64 / w, j0 + k as i64 % w];
        let (li, lj) = (b[0] - a[0], b[1] - a[1]);
        // twice the area between the line and the space: its distance from the line, scaled
        let off = |[i, j]: [i64; 2]| ((i - a[0]) * lj - (j - a[1]) * li).abs();
        let (start, goal) = (
            ((a[0] - i0) * w + a[1] - j0) as usize,
            ((b[0] - i0) * w + b[1] - j0) as usize,
        );
        let mut best = vec![(i64::MAX, i64::MAX); (h * w) as usize];
        let mut back = vec![start; (h * w) as usize];
        let mut queue = BinaryHeap::new();
        best[start] = (0, 0);
        queue.push(Reverse((0, 0, start)));
        while let Some(Reverse((cost, dev, k))) = queue.pop() {
            if (cost, dev) > best[k] {
                continue;
            }
            if k == goal {
                let mut out = vec![b];
                let mut k = goal;
                while back[k] != start {
                    k = back[k];
                    out.push(cell(k));
                }
                out.reverse();
                return Some(out);
            }
            let at = cell(k);
            let from = self.at(at);
            let (engaged, difficult) = self.leaving(&from);
            let step = 1 + i64::from(engaged) + i64::from(difficult);
            // the 4 orthogonal neighbours, then the 4 diagonal ones
            for (di, dj) in [
                (1, 0),
                (-1, 0),
                (0, 1),
                (0, -1),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ]
            .into_iter()
            .take(moves as usize)
            {
                let next = [at[0] + di, at[1] + dj];
                if next[0] < i0 || next[0] >= i0 + h || next[1] < j0 || next[1] >= j0 + w {
                    continue;
                }
                let n = ((next[0] - i0) * w + next[1] - j0) as usize;
                let key = (cost + step, dev + off(next));
                if key >= best[n] {
                    continue;
                }
                let to = self.at(next);
                if self.obstruction(&to).is_some() || self.wall_crossed(&from, &to, &near).is_some()
                {
                    continue;
                }
                best[n] = key;
                back[n] = k;
                queue.push(Reverse((key.0, key.1, n)));
            }
        }
        None
    }

    /// The cost of one-step `path` and what it breaks.
    fn price(&self, path: &[[i64; 2]], walls: &[usize]) -> Priced {
        let mut problems = Vec::new();
        let mut breach = |step, problem, by| problems.push(Breach { step, problem, by });
        if self.mode.immobile && !path.is_empty() {
            breach(0, Problem::Immobile, None);
        }
        let mut steps = Vec::with_capacity(path.len());
        let mut from = self.at([self.mover.i, self.mover.j]);
        for (k, next) in path.iter().enumerate() {
            let to = self.at(*next);
            let (engaged, difficult) = self.leaving(&from);
            steps.push(Step {
                to: *next,
                cost: 1 + i64::from(engaged) + i64::from(difficult),
                engaged,
                difficult,
            });
            if next[0] != from.i && next[1] != from.j && !self.mode.skirmisher {
                breach(k, Problem::Diagonal, None);
            }
            if let Some(o) = self.obstruction(&to) {
                breach(k, Problem::Obstructed, Some(o));
            }
            if let Some(w) = self.wall_crossed(&from, &to, walls) {
                breach(k, Problem::Wall, Some(w));
            }
            from = to;
        }
        if let Some(o) = self.others.iter().position(|o| overlap(&from, &o.body)) {
            if !path.is_empty() {
                breach(path.len() - 1, Problem::EndsOccupied, Some(o));
            }
        }
        Priced {
            cost: steps.iter().map(|s| s.cost).sum(),
            steps,
            problems,
        }
    }
}

/// Whether two characters share a space.
fn overlap(a: &Body, b: &Body) -> bool {
    a.i < b.i + b.rows && b.i < a.i + a.rows && a.j < b.j + b.cols && b.j < a.j + a.cols
}

fn cross(o: Point, a: Point, b: Point) -> i128 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

/// Whether `x` lies on the segment `p`–`q` (ends excluded: a step's ends are space centres).
fn on_segment(p: Point, q: Point, x: Point) -> bool {
    cross(p, q, x) == 0
        && x != p
        && x != q
        && (x.0 - p.0) * (x.0 - q.0) <= 0
        && (x.1 - p.1) * (x.1 - q.1) <= 0
}
