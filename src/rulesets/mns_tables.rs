//! The tables Men & Supermen prints (seed `men-and-supermen.txt`), as lookups. Charts the seed
//! names but does not print (Sphere, Square, Doubles, Action) are not here: the system keeps them
//! as GM-editable tables, empty by default, never invented.

use crate::dice::odds::num::Ratio;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// An EP cost from the EP Use Chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EpCost {
    pub amount: u32,
    /// `"day"`, `"hour"`, `"tenMinutes"`, `"minute"` or `"round"`; `None` for row 0.
    pub per: Option<&'static str>,
}

/// EP Use Chart: row 0 no EP cost, 1 1/day, 2 1/hour, 3 1/ten minutes, 4 1/minute, 5 1/round,
/// 6 2/round … 10 6/round, "+1 +1/round". Quality lowers the row; rows below 0 cost nothing.
pub fn ep_cost(row: i64) -> EpCost {
    let per = |p| EpCost {
        amount: 1,
        per: Some(p),
    };
    match row {
        r if r <= 0 => EpCost {
            amount: 0,
            per: None,
        },
        1 => per("day"),
        2 => per("hour"),
        3 => per("tenMinutes"),
        4 => per("minute"),
        r => EpCost {
            amount: u32::try_from(r - 4).unwrap_or(u32::MAX),
            per: Some("round"),
        },
    }
}

/// Skin Temper by row: 0 → 1, 1 → 9/10, 2 → 4/5, 3 → 2/3, 4 → 1/2, 5 → 2/5, 6–7 → 1/3, 8–9 → 1/4,
/// 10–11 → 1/5, "+1 1/+1 (repeated)": every two rows the denominator grows by one. Below row 0
/// (only low DP or certain powers) the list runs back up reversed: −1 → 10/9, −2 → 5/4, −3 → 3/2.
pub fn skin_temper(row: i64) -> Result<Ratio> {
    if row.unsigned_abs() > 10_000 {
        return Err(Error::request(format!(
            "skin temper row {row} is out of range"
        )));
    }
    let r = |n: u128, d: u128| Ratio { num: n, den: d };
    let forward = |row: u64| match row {
        0 => r(1, 1),
        1 => r(9, 10),
        2 => r(4, 5),
        3 => r(2, 3),
        4 => r(1, 2),
        5 => r(2, 5),
        n => r(1, 3 + u128::from(n - 6) / 2),
    };
    let f = forward(row.unsigned_abs());
    Ok(if row < 0 { r(f.den, f.num) } else { f })
}

/// The learning modifier (multiply learning times by it): 3 → 3, 4–6 → 2, 7 → 1.5, 8–9 → 1.25,
/// 10–11 → 1, 12–13 → 1/1.25, 14 → 1/1.5, 15 → 1/2, 16 → 1/3, 17 → 1/4, 18 → 1/5, and "for
/// Learning greater than 18, divide learning time by Learning minus 13". Below 3 is not printed.
pub fn learning_modifier(learning: i64) -> Result<Ratio> {
    let r = |n: u128, d: u128| Ok(Ratio { num: n, den: d });
    match learning {
        3 => r(3, 1),
        4..=6 => r(2, 1),
        7 => r(3, 2),
        8 | 9 => r(5, 4),
        10 | 11 => r(1, 1),
        12 | 13 => r(4, 5),
        14 => r(2, 3),
        15..=18 => r(1, (learning - 13) as u128),
        l if (19..=1_000_000).contains(&l) => r(1, (l - 13) as u128),
        l => Err(Error::request(format!(
            "the seed's learning table starts at 3; there is no modifier for learning {l}"
        ))),
    }
}

/// A sight score's combat modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SightModifiers {
    pub close: i64,
    pub ranged: i64,
    pub defense: i64,
}

/// The sight table (0–24 as printed). Above 24 the seed says "+1 Every 10/+1 every 5 (at 29, 34,
/// 39, etc.)": we read it as close +1 per full 10 points above 24 and ranged +1 per full 5.
pub fn sight_modifiers(sight: i64) -> Result<SightModifiers> {
    const TABLE: [(i64, i64, i64); 25] = [
        (-5, -9, -2),
        (-4, -8, -1),
        (-3, -7, -1),
        (-2, -6, 0),
        (-1, -5, 0),
        (-1, -4, 0),
        (0, -3, 0),
        (0, -2, 0),
        (0, -1, 0),
        (0, 0, 0),
        (0, 0, 0),
        (0, 0, 0),
        (0, 0, 0),
        (0, 0, 0),
        (0, 0, 0),
        (0, 0, 0),
        (0, 0, 0),
        (0, 1, 0),
        (1, 1, 0),
        (1, 2, 0),
        (1, 2, 0),
        (1, 3, 0),
        (2, 3, 0),
        (2, 4, 0),
        (3, 5, 0),
    ];
    let (close, ranged, defense) = match sight {
        s if (0..=24).contains(&s) => TABLE[s as usize],
        s if (25..=1_000_000).contains(&s) => (3 + (s - 24) / 10, 5 + (s - 24) / 5, 0),
        s => {
            return Err(Error::request(format!(
                "sight {s} is below the table (0 and up)"
            )))
        }
    };
    Ok(SightModifiers {
        close,
        ranged,
        defense,
    })
}

/// Base height in millimetres by d100 roll (01–100, "00" being 100), male and female; add 2d100 mm.
pub fn base_height_mm(d100: i64, female: bool) -> Result<i64> {
    const ROWS: [(i64, i64, i64); 9] = [
        (1, 1217, 1166),
        (3, 1336, 1290),
        (6, 1455, 1414),
        (10, 1574, 1539),
        (90, 1693, 1663),
        (94, 1829, 1794),
        (97, 1965, 1925),
        (99, 2102, 2057),
        (100, 2239, 2188),
    ];
    if !(1..=100).contains(&d100) {
        return Err(Error::request(format!(
            "a d100 roll is 1 to 100 (00 reads 100), not {d100}"
        )));
    }
    let row = ROWS
        .iter()
        .find(|(top, _, _)| d100 <= *top)
        .copied()
        .unwrap_or(ROWS[8]);
    Ok(if female { row.2 } else { row.1 })
}

/// Base age by the (modified) 3d6 roll: 1–3 → −1, 4 → 9, 5–8 → 14, 9–14 → 19, 15–16 → 24, 17 → 29,
/// 18 → 34, 19 → 36, 20 → 40, 21 → 50, 22 → 60; add d10.
pub fn base_age(roll: i64) -> Result<i64> {
    Ok(match roll {
        1..=3 => -1,
        4 => 9,
        5..=8 => 14,
        9..=14 => 19,
        15 | 16 => 24,
        17 => 29,
        18 => 34,
        19 => 36,
        20 => 40,
        21 => 50,
        22 => 60,
        r => {
            return Err(Error::request(format!(
                "the age table covers rolls 1 to 22, not {r}"
            )))
        }
    })
}

/// A lookup in one of the printed tables (the module's sheets ask the core, never a copy).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(remote = "Self", rename_all = "camelCase", deny_unknown_fields)]
pub enum Lookup {
    EpCost {
        row: i64,
    },
    SkinTemper {
        row: i64,
    },
    LearningModifier {
        learning: i64,
    },
    SightModifiers {
        sight: i64,
    },
    BaseHeight {
        roll: i64,
        #[serde(default)]
        female: bool,
    },
    BaseAge {
        roll: i64,
    },
}

crate::deserialize_tagged!(Lookup, "table");

/// The answer of a [`Lookup`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Answer {
    EpCost(EpCost),
    /// A multiplier: exactly (`"9/10"`) and as a number.
    Ratio {
        fraction: String,
        value: f64,
    },
    Sight(SightModifiers),
    /// Base height in millimetres, base age in years.
    Number {
        value: i64,
    },
}

impl Lookup {
    pub fn answer(&self) -> Result<Answer> {
        let ratio = |r: Ratio| Answer::Ratio {
            fraction: r.to_string(),
            value: r.num as f64 / r.den as f64,
        };
        Ok(match *self {
            Lookup::EpCost { row } => Answer::EpCost(ep_cost(row)),
            Lookup::SkinTemper { row } => ratio(named("row", skin_temper(row))?),
            Lookup::LearningModifier { learning } => {
                ratio(named("learning", learning_modifier(learning))?)
            }
            Lookup::SightModifiers { sight } => {
                Answer::Sight(named("sight", sight_modifiers(sight))?)
            }
            Lookup::BaseHeight { roll, female } => Answer::Number {
                value: named("roll", base_height_mm(roll, female))?,
            },
            Lookup::BaseAge { roll } => Answer::Number {
                value: named("roll", base_age(roll))?,
            },
        })
    }
}

/// An off-table value's error, naming the lookup's field as decoding errors do.
fn named<T>(field: &str, result: Result<T>) -> Result<T> {
    result.map_err(|e| Error::request(format!("invalid table lookup: `{field}`: {e}")))
}
