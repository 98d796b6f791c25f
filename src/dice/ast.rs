//! The parsed form of a dice formula, in Foundry VTT's notation.
//!
//! A [`Formula`] keeps its dice terms in one flat list (in the order their `d` appears in the text)
//! and an expression tree that refers to them by index. A term whose count is itself an expression
//! (`(2d4)d6`, Men & Supermen's "roll the first set, then the second die that many times") refers
//! to the inner terms the same way, so every term is one independent random variable.

use std::fmt;

/// At most this many dice in one term (`1000d6` is fine, `1001d6` is an error).
pub const MAX_DICE_PER_TERM: u32 = 1000;
/// At most this many dice in one roll, all terms, re-rolls and explosions together: the largest
/// roll, outcome included, is answered within a frame, 16 ms, on its first call (`npm run bench`).
pub const MAX_DICE_PER_ROLL: u64 = 10_000;
/// At most this many faces on one die.
pub const MAX_FACES: u32 = 1_000_000;
/// A single result explodes (or is re-rolled by `rr`) at most this many times in its lineage.
pub const MAX_CHAIN: u32 = 100;
/// Integer literals stay within this magnitude so that sums of them cannot overflow.
pub const MAX_LITERAL: i64 = 1_000_000_000_000;
/// Totals must stay JS-safe integers (2^53 − 1) to cross the wasm boundary unchanged.
pub const MAX_SAFE: i64 = (1 << 53) - 1;

/// The kind of die a term rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Die {
    /// A fair die with faces 1..=n.
    Standard(u32),
    /// `d%`: a d100.
    Percent,
    /// `dF`: a Fate die, faces −1, 0, +1.
    Fate,
}

impl Die {
    /// How many distinct faces the die has.
    pub fn faces(self) -> u32 {
        match self {
            Die::Standard(n) => n,
            Die::Percent => 100,
            Die::Fate => 3,
        }
    }
    /// The lowest face value.
    pub fn min(self) -> i64 {
        match self {
            Die::Fate => -1,
            _ => 1,
        }
    }
    /// What a face drawn from 1 to [`Die::faces`] is shifted by to read as this die's value (a
    /// Fate die's 1–3 read −1 to +1).
    pub fn shift(self) -> i64 {
        self.min() - 1
    }
    /// The highest face value.
    pub fn max(self) -> i64 {
        match self {
            Die::Fate => 1,
            d => i64::from(d.faces()),
        }
    }
    /// Whether `v` is a face of this die.
    pub fn has_face(self, v: i64) -> bool {
        (self.min()..=self.max()).contains(&v)
    }
    /// Foundry's denomination for the die (`d6`, `d100`, `dF`): the caller builds `${count}${notation}`.
    pub fn notation(self) -> String {
        match self {
            Die::Standard(n) => format!("d{n}"),
            Die::Percent => "d100".to_string(),
            Die::Fate => "dF".to_string(),
        }
    }
    /// The face values, lowest first.
    pub fn values(self) -> impl Iterator<Item = i64> {
        self.min()..=self.max()
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Die::Standard(n) => write!(f, "d{n}"),
            Die::Percent => f.write_str("d%"),
            Die::Fate => f.write_str("dF"),
        }
    }
}

/// A comparison in a modifier's condition (`r<3`, `cs>=5`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cmp {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    pub fn symbol(self) -> &'static str {
        match self {
            Cmp::Eq => "=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
        }
    }
}

/// `value <cmp> target`, as Foundry's `DiceTerm.compareResult`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Condition {
    pub cmp: Cmp,
    pub target: i64,
}

impl Condition {
    pub fn eq(target: i64) -> Self {
        Self {
            cmp: Cmp::Eq,
            target,
        }
    }
    pub fn test(self, value: i64) -> bool {
        match self.cmp {
            Cmp::Eq => value == self.target,
            Cmp::Lt => value < self.target,
            Cmp::Le => value <= self.target,
            Cmp::Gt => value > self.target,
            Cmp::Ge => value >= self.target,
        }
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.cmp.symbol(), self.target)
    }
}

/// Keep or drop, highest or lowest: the four reduce to "keep the `n` highest/lowest".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Selection {
    KeepHighest,
    KeepLowest,
    DropHighest,
    DropLowest,
}

/// A die modifier, applied in the order written (Foundry's `Die.MODIFIERS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Modifier {
    /// `r` (once: only the results present when it starts) or `rr` (recursive). Foundry defaults
    /// the condition to `=1`; `limit` is the optional total number of re-rolls (`r1=1`).
    Reroll {
        recursive: bool,
        limit: Option<u32>,
        cond: Condition,
    },
    /// `x` (recursive) or `xo` (once). Default condition `=max face`; `limit` as for re-rolls.
    Explode {
        recursive: bool,
        limit: Option<u32>,
        cond: Condition,
    },
    /// `k`/`kh`/`kl`/`d`/`dh`/`dl` with a count (default 1).
    Select { selection: Selection, n: u32 },
    /// `minN`: results below N count as N.
    Min(i64),
    /// `maxN`: results above N count as N.
    Max(i64),
    /// `cs`: each result counts 1 if it meets the condition, else 0 (default `=max face`).
    CountSuccess(Condition),
    /// `cf`: each result counts 1 if it meets the failure condition, else 0 (default `=1`).
    CountFailure(Condition),
    /// `df`: failures count −1 (failures: the condition, or results already marked unsuccessful).
    DeductFailure(Option<Condition>),
    /// `sf`: failures count minus their value.
    SubtractFailure(Option<Condition>),
}

impl fmt::Display for Modifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let limited =
            |f: &mut fmt::Formatter<'_>, name: &str, limit: &Option<u32>, c: &Condition| {
                f.write_str(name)?;
                if let Some(l) = limit {
                    write!(f, "{l}")?;
                }
                write!(f, "{c}")
            };
        match self {
            Modifier::Reroll {
                recursive,
                limit,
                cond,
            } => limited(f, if *recursive { "rr" } else { "r" }, limit, cond),
            Modifier::Explode {
                recursive,
                limit,
                cond,
            } => limited(f, if *recursive { "x" } else { "xo" }, limit, cond),
            Modifier::Select { selection, n } => {
                let name = match selection {
                    Selection::KeepHighest => "kh",
                    Selection::KeepLowest => "kl",
                    Selection::DropHighest => "dh",
                    Selection::DropLowest => "dl",
                };
                write!(f, "{name}{n}")
            }
            Modifier::Min(v) => write!(f, "min{v}"),
            Modifier::Max(v) => write!(f, "max{v}"),
            Modifier::CountSuccess(c) => write!(f, "cs{c}"),
            Modifier::CountFailure(c) => write!(f, "cf{c}"),
            Modifier::DeductFailure(c) => {
                f.write_str("df")?;
                c.map_or(Ok(()), |c| write!(f, "{c}"))
            }
            Modifier::SubtractFailure(c) => {
                f.write_str("sf")?;
                c.map_or(Ok(()), |c| write!(f, "{c}"))
            }
        }
    }
}

/// How many dice a term rolls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Count {
    Fixed(u32),
    /// `(expr)dX`: known only once the expression's own dice are rolled.
    Expr(Box<Expr>),
}

/// One dice term: `4d6kh3[fire]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceTerm {
    pub count: Count,
    pub die: Die,
    pub modifiers: Vec<Modifier>,
    pub flavor: Option<String>,
}

/// A binary operator; `/` is integer division rounding down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
        }
    }
    fn precedence(self) -> u8 {
        match self {
            BinOp::Add | BinOp::Sub => 1,
            BinOp::Mul | BinOp::Div => 2,
        }
    }
    /// Integer arithmetic; `None` on overflow or division by zero.
    pub fn apply(self, a: i64, b: i64) -> Option<i64> {
        match self {
            BinOp::Add => a.checked_add(b),
            BinOp::Sub => a.checked_sub(b),
            BinOp::Mul => a.checked_mul(b),
            BinOp::Div => {
                if b == 0 {
                    None
                } else {
                    // floor division, as `Math.floor(a / b)` for integers
                    let q = a.checked_div(b)?;
                    Some(if (a % b != 0) && ((a < 0) != (b < 0)) {
                        q - 1
                    } else {
                        q
                    })
                }
            }
        }
    }
}

/// The arithmetic around the dice terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    Const {
        value: i64,
        flavor: Option<String>,
    },
    /// The dice term with this index in [`Formula::terms`].
    Term(usize),
    Neg(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Group {
        inner: Box<Expr>,
        flavor: Option<String>,
    },
}

/// A parsed formula.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formula {
    pub expr: Expr,
    pub terms: Vec<DiceTerm>,
}

impl Formula {
    /// Writes `e` in normal form (single spaces around binary operators).
    fn write_expr(&self, e: &Expr, f: &mut fmt::Formatter<'_>, parent: u8) -> fmt::Result {
        match e {
            Expr::Const { value, flavor } => {
                write!(f, "{value}")?;
                write_flavor(f, flavor)
            }
            Expr::Term(i) => match self.terms.get(*i) {
                Some(t) => self.write_term(t, f),
                None => f.write_str("?"),
            },
            Expr::Neg(inner) => {
                f.write_str("-")?;
                self.write_expr(inner, f, 3)
            }
            Expr::Bin(op, a, b) => {
                let p = op.precedence();
                if p < parent {
                    f.write_str("(")?;
                }
                self.write_expr(a, f, p)?;
                write!(f, " {} ", op.symbol())?;
                self.write_expr(b, f, p + 1)?;
                if p < parent {
                    f.write_str(")")?;
                }
                Ok(())
            }
            Expr::Group { inner, flavor } => {
                f.write_str("(")?;
                self.write_expr(inner, f, 0)?;
                f.write_str(")")?;
                write_flavor(f, flavor)
            }
        }
    }

    fn write_term(&self, t: &DiceTerm, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &t.count {
            Count::Fixed(n) => write!(f, "{n}")?,
            Count::Expr(e) => {
                f.write_str("(")?;
                self.write_expr(e, f, 0)?;
                f.write_str(")")?;
            }
        }
        write!(f, "{}", t.die)?;
        for m in &t.modifiers {
            write!(f, "{m}")?;
        }
        write_flavor(f, &t.flavor)
    }

    /// The term's own notation (`4d6kh3`), as shown on a card.
    pub fn term_notation(&self, index: usize) -> String {
        struct T<'a>(&'a Formula, &'a DiceTerm);
        impl fmt::Display for T<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.write_term(self.1, f)
            }
        }
        match self.terms.get(index) {
            Some(t) => {
                let mut s = T(self, t).to_string();
                if let Some(fl) = &t.flavor {
                    s.truncate(s.len() - fl.len() - 2);
                }
                s
            }
            None => String::new(),
        }
    }
}

fn write_flavor(f: &mut fmt::Formatter<'_>, flavor: &Option<String>) -> fmt::Result {
    match flavor {
        Some(fl) => write!(f, "[{fl}]"),
        None => Ok(()),
    }
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_expr(&self.expr, f, 0)
    }
}
