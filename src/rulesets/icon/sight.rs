//! Line of sight, cover and height from the map ("Cover/Line of Sight", "Targeting/Range"):
//! "All terrain, characters, and objects in ICON have height, from 1-3." "If character is behind
//! and adjacent to a space of terrain or an object the same height as it, it can draw line of
//! sight to other characters past that terrain, and other characters can draw line of sight to
//! it, but it gains cover from them." "If a character is behind and adjacent to terrain or an
//! object that is higher than it, it cannot draw line of sight to any characters past that
//! terrain, and those characters can't draw line of sight to it." "Characters do NOT grant cover
//! by default."
//!
//! The map is a square grid of spaces; what stands in the way is a list of barriers, each a
//! segment in pixels (a wall, or an edge of a space of terrain) with a height in levels, or none
//! for a barrier nothing sees past (a wall that blocks vision). All arithmetic is on integers:
//! every answer is exact.

use crate::error::{Error, Result};
use crate::rulesets::check_range;
use serde::{Deserialize, Serialize};

/// The most targets one request measures.
pub const MAX_TARGETS: usize = 64;
/// The most barriers one request reads.
pub const MAX_BARRIERS: usize = 4096;
/// The most spaces a side of a character has.
pub const MAX_SIZE: i64 = 10;
/// The most barrier tests one request makes (sightlines × barriers): a frame's work.
pub const MAX_TESTS: u64 = 4_000_000;
/// The farthest coordinate, in pixels or spaces.
pub(crate) const MAX_COORD: i64 = 10_000_000;

/// A character on the grid: its top-left space (row `i`, column `j`), its size in spaces, the
/// level it stands on and its own height ("Player characters are size 1").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Body {
    pub i: i64,
    pub j: i64,
    #[serde(default = "one")]
    pub rows: i64,
    #[serde(default = "one")]
    pub cols: i64,
    #[serde(default)]
    pub level: i64,
    #[serde(default = "one")]
    pub height: i64,
}

fn one() -> i64 {
    1
}

/// Something in the way: a segment from `a` to `b` in pixels, `height` levels tall, or `null`:
/// nothing sees past it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Barrier {
    pub a: [i64; 2],
    pub b: [i64; 2],
    #[serde(default)]
    pub height: Option<i64>,
}

/// What one attacker sees of its targets.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Sightlines {
    /// Pixels per space.
    pub grid: i64,
    pub from: Body,
    pub targets: Vec<Body>,
    #[serde(default)]
    pub barriers: Vec<Barrier>,
}

/// One target as the attacker sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sight {
    /// Some space of the target can be seen from some space of the attacker.
    pub sight: bool,
    /// Every line the attacker can see it by passes terrain of its height adjacent to it.
    pub cover: bool,
    /// The barrier (its index) that gives the cover, when it has cover.
    pub cover_by: Option<usize>,
    /// The barrier that blocks the nearest line, when nothing is seen.
    pub blocked_by: Option<usize>,
    /// Some space of the target touches some space of the attacker.
    pub adjacent: bool,
    /// The attacker's level minus the target's ("Target lower than you: +1 boon per level
    /// difference"), at most 3 either way as `iconSituation` takes it.
    pub height_difference: i64,
    /// The fewest spaces between them (a diagonal step counts 1).
    pub distance: i64,
}

/// A point in half-pixels, so that a space's centre is whole whatever the grid.
pub(crate) type Point = (i128, i128);

/// What a line meets, as the rule reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    Clear,
    Cover(usize),
    Blocked(usize),
}

impl Barrier {
    /// Its ends within the map's coordinates, its height 0 to 100 levels.
    pub(crate) fn check(&self, what: &str) -> Result<()> {
        for (field, v) in [("a", self.a), ("b", self.b)] {
            for c in v {
                check_range(&format!("{what}.{field}"), c, -MAX_COORD, MAX_COORD)?;
            }
        }
        if let Some(h) = self.height {
            check_range(&format!("{what}.height"), h, 0, 100)?;
        }
        Ok(())
    }
}

impl Body {
    pub(crate) fn check(&self, what: &str) -> Result<()> {
        for (field, v, lo, hi) in [
            ("i", self.i, -MAX_COORD, MAX_COORD),
            ("j", self.j, -MAX_COORD, MAX_COORD),
            ("rows", self.rows, 1, MAX_SIZE),
            ("cols", self.cols, 1, MAX_SIZE),
            ("level", self.level, -100, 100),
            ("height", self.height, 1, 3),
        ] {
            check_range(&format!("{what}.{field}"), v, lo, hi)?;
        }
        Ok(())
    }

    fn top(&self) -> i64 {
        self.level + self.height
    }

    pub(crate) fn spaces(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        (self.i..self.i + self.rows)
            .flat_map(move |i| (self.j..self.j + self.cols).map(move |j| (i, j)))
    }

    /// Spaces between two characters' nearest spaces (0 when they overlap).
    pub(crate) fn distance(&self, other: &Body) -> i64 {
        let gap = |a0: i64, an: i64, b0: i64, bn: i64| {
            (b0 - (a0 + an - 1)).max(a0 - (b0 + bn - 1)).max(0)
        };
        gap(self.i, self.rows, other.i, other.rows).max(gap(self.j, self.cols, other.j, other.cols))
    }

    /// The rectangle of its spaces and the spaces around them, in half-pixels: a barrier crossed
    /// inside it is "adjacent" to the character.
    fn around(&self, grid: i128) -> (Point, Point) {
        let (i, j) = (i128::from(self.i), i128::from(self.j));
        let (rows, cols) = (i128::from(self.rows), i128::from(self.cols));
        (
            (2 * (j - 1) * grid, 2 * (i - 1) * grid),
            (2 * (j + cols + 1) * grid, 2 * (i + rows + 1) * grid),
        )
    }
}

/// The centre of space (i, j), in half-pixels.
pub(crate) fn centre((i, j): (i64, i64), grid: i128) -> Point {
    (
        (2 * i128::from(j) + 1) * grid,
        (2 * i128::from(i) + 1) * grid,
    )
}

fn cross(o: Point, a: Point, b: Point) -> i128 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

/// Where the line `p`→`q` crosses the barrier `a`–`b`, as the fraction `num / den` of the way
/// from `p` (den > 0), or None. A barrier is crossed when its ends lie strictly on either side of
/// the line (sight slips past a barrier's end) and the line's ends on either side of it, or on it.
pub(crate) fn crossing(p: Point, q: Point, a: Point, b: Point) -> Option<(i128, i128)> {
    let (da, db) = (cross(p, q, a), cross(p, q, b));
    if da == 0 || db == 0 || (da > 0) == (db > 0) {
        return None;
    }
    let (dp, dq) = (cross(a, b, p), cross(a, b, q));
    if dp != 0 && dq != 0 && (dp > 0) == (dq > 0) {
        return None;
    }
    // p + t (q - p) is on the barrier's line: t = dp / (dp - dq)
    let (num, den) = (dp, dp - dq);
    Some(if den < 0 { (-num, -den) } else { (num, den) })
}

/// Whether the point `num / den` of the way from `p` to `q` is inside the rectangle `r`.
fn inside(p: Point, q: Point, (num, den): (i128, i128), r: (Point, Point)) -> bool {
    let x = p.0 * den + num * (q.0 - p.0);
    let y = p.1 * den + num * (q.1 - p.1);
    r.0 .0 * den <= x && x <= r.1 .0 * den && r.0 .1 * den <= y && y <= r.1 .1 * den
}

impl Sightlines {
    fn check(&self) -> Result<()> {
        check_range("grid", self.grid, 1, 10_000)?;
        self.from.check("from")?;
        if self.targets.len() > MAX_TARGETS {
            return Err(Error::request(format!(
                "at most {MAX_TARGETS} targets, not {}",
                self.targets.len()
            )));
        }
        if self.barriers.len() > MAX_BARRIERS {
            return Err(Error::request(format!(
                "at most {MAX_BARRIERS} barriers, not {}",
                self.barriers.len()
            )));
        }
        for (k, t) in self.targets.iter().enumerate() {
            t.check(&format!("targets[{k}]"))?;
        }
        for (k, b) in self.barriers.iter().enumerate() {
            b.check(&format!("barriers[{k}]"))?;
        }
        let from = (self.from.rows * self.from.cols) as u64;
        let to: u64 = self.targets.iter().map(|t| (t.rows * t.cols) as u64).sum();
        let tests = from * to * self.barriers.len() as u64;
        if tests > MAX_TESTS {
            return Err(Error::request(format!(
                "{tests} sightline tests (spaces of the attacker × spaces of the targets × barriers); \
                 at most {MAX_TESTS}"
            )));
        }
        Ok(())
    }

    /// What one line from a space of the attacker to a space of `target` meets: the barrier that
    /// blocks it first (by index), else the barrier adjacent to the target that gives cover.
    fn line(&self, p: Point, q: Point, target: &Body) -> Line {
        let grid = i128::from(self.grid);
        let (near_target, near_from) = (target.around(grid), self.from.around(grid));
        let mut seen = Line::Clear;
        for (k, b) in self.barriers.iter().enumerate() {
            let a = (2 * i128::from(b.a[0]), 2 * i128::from(b.a[1]));
            let e = (2 * i128::from(b.b[0]), 2 * i128::from(b.b[1]));
            let Some(t) = crossing(p, q, a, e) else {
                continue;
            };
            let Some(h) = b.height else {
                return Line::Blocked(k);
            };
            let by_target = inside(p, q, t, near_target);
            let by_from = inside(p, q, t, near_from);
            // "higher than it": no line of sight past it, either way
            let blocks = (by_target && h > target.top())
                || (by_from && h > self.from.top())
                // adjacent to neither: read as blocking only what is higher than both
                || (!by_target && !by_from && h > target.top().max(self.from.top()));
            if blocks {
                return Line::Blocked(k);
            }
            // "the same height as it ... it gains cover from them"
            if by_target && h == target.top() && seen == Line::Clear {
                seen = Line::Cover(k);
            }
        }
        seen
    }

    /// Each target as the attacker sees it, in order.
    pub fn apply(&self) -> Result<Vec<Sight>> {
        self.check()?;
        let grid = i128::from(self.grid);
        Ok(self
            .targets
            .iter()
            .map(|target| {
                // the attacker picks its best line: clear, else with cover, else none; among
                // blocked lines the shortest names what blocks
                let mut best: Option<(Line, i128)> = None;
                for s in self.from.spaces() {
                    for t in target.spaces() {
                        let (p, q) = (centre(s, grid), centre(t, grid));
                        let line = self.line(p, q, target);
                        let length = (q.0 - p.0).pow(2) + (q.1 - p.1).pow(2);
                        let rank = |l: &Line| match l {
                            Line::Clear => 0,
                            Line::Cover(_) => 1,
                            Line::Blocked(_) => 2,
                        };
                        if best.is_none_or(|(b, len)| (rank(&line), length) < (rank(&b), len)) {
                            best = Some((line, length));
                        }
                    }
                }
                let line = best.map_or(Line::Clear, |(l, _)| l);
                let distance = self.from.distance(target);
                Sight {
                    sight: !matches!(line, Line::Blocked(_)),
                    cover: matches!(line, Line::Cover(_)),
                    cover_by: match line {
                        Line::Cover(k) => Some(k),
                        _ => None,
                    },
                    blocked_by: match line {
                        Line::Blocked(k) => Some(k),
                        _ => None,
                    },
                    adjacent: distance <= 1,
                    height_difference: (self.from.level - target.level).clamp(-3, 3),
                    distance,
                }
            })
            .collect())
    }
}
