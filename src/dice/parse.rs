//! A recursive-descent parser for Foundry's dice notation.
//!
//! ```text
//! expr     := product (("+" | "-") product)*
//! product  := unary (("*" | "/") unary)*
//! unary    := ("-" | "+") unary | primary
//! primary  := INT [dice] [flavor] | dice [flavor] | "(" expr ")" [dice] [flavor]
//! dice     := ("d" | "D") (INT | "%" | "F") modifier*
//! modifier := ("r" | "rr" | "x" | "xo") [INT] [CMP] [INT] | ("k" | "kh" | "kl" | "d" | "dh" | "dl") [INT]
//!           | ("min" | "max") INT | ("cs" | "cf") [CMP] [INT] | ("df" | "sf") [CMP INT]
//! flavor   := "[" text "]"
//! ```
//! Errors name the 1-based character position and what was expected there.

use super::ast::*;
use crate::error::{Error, ErrorKind, Result};

/// Parses `source` into a [`Formula`], or explains where and why it cannot.
pub fn parse(source: &str) -> Result<Formula> {
    let mut p = Parser {
        src: source.chars().collect(),
        pos: 0,
        terms: Vec::new(),
        depth: 0,
        operators: 0,
    };
    p.skip_ws();
    if p.at_end() {
        return Err(p.error("a dice formula", "an empty formula"));
    }
    let expr = p.expr()?;
    p.skip_ws();
    if !p.at_end() {
        return Err(p.error(
            "an operator (+ - * /) or the end of the formula",
            &p.found(),
        ));
    }
    Ok(Formula {
        expr,
        terms: p.terms,
    })
}

/// Nesting deeper than this is refused, so hostile input cannot exhaust the stack.
const MAX_DEPTH: usize = 64;
/// Operators chain left-deep in the tree (`1+1+…`), so their number is bounded for the same
/// reason, and so that the odds of the longest formula (101 terms) are answered within a frame on
/// their first call; no table writes a formula near it.
pub const MAX_OPERATORS: usize = 100;

struct Parser {
    src: Vec<char>,
    pos: usize,
    terms: Vec<DiceTerm>,
    depth: usize,
    operators: usize,
}

const MODIFIER_NAMES: [&str; 16] = [
    "min", "max", "rr", "xo", "kh", "kl", "dh", "dl", "cs", "cf", "df", "sf", "r", "x", "k", "d",
];

impl Parser {
    fn at_end(&self) -> bool {
        self.pos >= self.src.len()
    }
    fn peek(&self) -> Option<char> {
        self.src.get(self.pos).copied()
    }
    fn peek_at(&self, offset: usize) -> Option<char> {
        self.src.get(self.pos + offset).copied()
    }
    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }
    fn found(&self) -> String {
        match self.peek() {
            Some(c) => format!("'{c}'"),
            None => "the end of the formula".to_string(),
        }
    }
    fn error(&self, expected: &str, found: &str) -> Error {
        self.error_at(self.pos, expected, found)
    }
    fn error_at(&self, pos: usize, expected: &str, found: &str) -> Error {
        let source: String = self.src.iter().collect();
        Error::new(
            ErrorKind::Parse,
            format!(
                "cannot read the dice formula \"{source}\": at position {}, expected {expected} but found {found}",
                pos + 1
            ),
        )
    }
    fn limit_error(&self, pos: usize, what: String) -> Error {
        let source: String = self.src.iter().collect();
        Error::new(
            ErrorKind::Parse,
            format!(
                "cannot read the dice formula \"{source}\": at position {}, {what}",
                pos + 1
            ),
        )
    }

    fn operator(&mut self) -> Result<()> {
        self.operators += 1;
        if self.operators > MAX_OPERATORS {
            return Err(self.limit_error(
                self.pos,
                format!("the formula has more than {MAX_OPERATORS} operators"),
            ));
        }
        Ok(())
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.limit_error(
                self.pos,
                format!("the formula nests deeper than {MAX_DEPTH} levels"),
            ));
        }
        Ok(())
    }

    fn expr(&mut self) -> Result<Expr> {
        self.enter()?;
        let mut lhs = self.product()?;
        loop {
            self.skip_ws();
            let op = match self.peek() {
                Some('+') => BinOp::Add,
                Some('-') => BinOp::Sub,
                _ => break,
            };
            self.operator()?;
            self.pos += 1;
            let rhs = self.product()?;
            lhs = Expr::Bin(op, Box::new(lhs), Box::new(rhs));
        }
        self.depth -= 1;
        Ok(lhs)
    }

    fn product(&mut self) -> Result<Expr> {
        let mut lhs = self.unary()?;
        loop {
            self.skip_ws();
            let op = match self.peek() {
                Some('*') => BinOp::Mul,
                Some('/') => BinOp::Div,
                _ => break,
            };
            self.operator()?;
            self.pos += 1;
            let rhs = self.unary()?;
            lhs = Expr::Bin(op, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Expr> {
        self.skip_ws();
        match self.peek() {
            Some('-') => {
                self.pos += 1;
                self.enter()?;
                let inner = self.unary()?;
                self.depth -= 1;
                Ok(Expr::Neg(Box::new(inner)))
            }
            Some('+') => {
                self.pos += 1;
                self.enter()?;
                let inner = self.unary();
                self.depth -= 1;
                inner
            }
            _ => self.primary(),
        }
    }

    fn primary(&mut self) -> Result<Expr> {
        self.skip_ws();
        let start = self.pos;
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                let n = self.integer()?;
                if self.at_die() {
                    let count = self.dice_count(n, start)?;
                    self.dice(Count::Fixed(count))
                } else {
                    if n > MAX_LITERAL as u64 {
                        return Err(self.limit_error(
                            start,
                            format!("the number {n} is larger than {MAX_LITERAL}"),
                        ));
                    }
                    let flavor = self.flavor()?;
                    Ok(Expr::Const {
                        value: n as i64,
                        flavor,
                    })
                }
            }
            Some('d' | 'D') => self.dice(Count::Fixed(1)),
            Some('(') => {
                self.pos += 1;
                let inner = self.expr()?;
                self.skip_ws();
                if self.peek() != Some(')') {
                    let expected = format!("')' to close the '(' at position {}", start + 1);
                    return Err(self.error(&expected, &self.found()));
                }
                self.pos += 1;
                if self.at_die() {
                    self.dice(Count::Expr(Box::new(inner)))
                } else {
                    let flavor = self.flavor()?;
                    Ok(Expr::Group {
                        inner: Box::new(inner),
                        flavor,
                    })
                }
            }
            _ => Err(self.error("a number, a die (such as d6) or '('", &self.found())),
        }
    }

    /// Whether a die denomination starts here (`d6`, `d%`, `dF`), as opposed to the end of input.
    fn at_die(&self) -> bool {
        matches!(self.peek(), Some('d' | 'D'))
    }

    fn dice_count(&self, n: u64, start: usize) -> Result<u32> {
        if n > u64::from(MAX_DICE_PER_TERM) {
            return Err(self.limit_error(
                start,
                format!("{n} dice is more than the {MAX_DICE_PER_TERM} allowed in one term"),
            ));
        }
        Ok(n as u32)
    }

    fn integer(&mut self) -> Result<u64> {
        let start = self.pos;
        let mut n: u64 = 0;
        let mut big = false;
        while let Some(c) = self.peek().filter(char::is_ascii_digit) {
            let digit = u64::from(c as u8 - b'0');
            match n.checked_mul(10).and_then(|v| v.checked_add(digit)) {
                Some(v) => n = v,
                None => big = true,
            }
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.error("a number", &self.found()));
        }
        if big {
            let digits: String = self.src[start..self.pos].iter().collect();
            return Err(self.limit_error(start, format!("the number {digits} is too large")));
        }
        Ok(n)
    }

    fn dice(&mut self, count: Count) -> Result<Expr> {
        // at 'd' or 'D'
        self.pos += 1;
        let faces_at = self.pos;
        let die = match self.peek() {
            Some('%') => {
                self.pos += 1;
                Die::Percent
            }
            Some('F' | 'f') => {
                self.pos += 1;
                Die::Fate
            }
            Some(c) if c.is_ascii_digit() => {
                let n = self.integer()?;
                if n == 0 {
                    return Err(
                        self.limit_error(faces_at, "a die needs at least 1 face (d0)".to_string())
                    );
                }
                if n > u64::from(MAX_FACES) {
                    return Err(self.limit_error(
                        faces_at,
                        format!("a d{n} has more than the {MAX_FACES} faces allowed"),
                    ));
                }
                Die::Standard(n as u32)
            }
            _ => {
                return Err(self.error(
                    "the number of faces after 'd' (such as d6, d%, dF)",
                    &self.found(),
                ))
            }
        };
        let mut modifiers = Vec::new();
        while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            modifiers.push(self.modifier(die)?);
        }
        let flavor = self.flavor()?;
        self.terms.push(DiceTerm {
            count,
            die,
            modifiers,
            flavor,
        });
        Ok(Expr::Term(self.terms.len() - 1))
    }

    fn modifier(&mut self, die: Die) -> Result<Modifier> {
        let word: String = self.src[self.pos..]
            .iter()
            .take(3)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let Some(name) = MODIFIER_NAMES.iter().find(|m| word.starts_with(**m)) else {
            let letters: String = self.src[self.pos..]
                .iter()
                .take_while(|c| c.is_ascii_alphabetic())
                .collect();
            return Err(self.error(
                "a modifier (r, rr, x, xo, k, kh, kl, d, dh, dl, min, max, cs, cf, df, sf), an operator or the end",
                &format!("'{letters}'"),
            ));
        };
        self.pos += name.len();
        let m = match *name {
            "r" | "rr" | "x" | "xo" => {
                let (limit, cond) = self.limited_condition()?;
                let explode = name.starts_with('x');
                let default = if explode { die.max() } else { die.min() };
                let cond = cond.unwrap_or(Condition::eq(default));
                let recursive = matches!(*name, "rr" | "x");
                if explode {
                    Modifier::Explode {
                        recursive,
                        limit,
                        cond,
                    }
                } else {
                    Modifier::Reroll {
                        recursive,
                        limit,
                        cond,
                    }
                }
            }
            "k" | "kh" | "kl" | "d" | "dh" | "dl" => {
                let n = if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    let at = self.pos;
                    let n = self.integer()?;
                    u32::try_from(n).map_err(|_| {
                        self.limit_error(at, format!("cannot keep or drop {n} dice"))
                    })?
                } else {
                    1
                };
                let selection = match *name {
                    "k" | "kh" => Selection::KeepHighest,
                    "kl" => Selection::KeepLowest,
                    "dh" => Selection::DropHighest,
                    _ => Selection::DropLowest,
                };
                Modifier::Select { selection, n }
            }
            "min" | "max" => {
                let at = self.pos;
                let n = self.integer()?;
                let v = i64::try_from(n)
                    .ok()
                    .filter(|v| *v <= MAX_LITERAL)
                    .ok_or_else(|| self.limit_error(at, format!("the bound {n} is too large")))?;
                if *name == "min" {
                    Modifier::Min(v)
                } else {
                    Modifier::Max(v)
                }
            }
            _ => {
                let cond = self.condition()?;
                match *name {
                    "cs" => Modifier::CountSuccess(cond.unwrap_or(Condition::eq(die.max()))),
                    "cf" => Modifier::CountFailure(cond.unwrap_or(Condition::eq(die.min()))),
                    "df" => Modifier::DeductFailure(cond),
                    _ => Modifier::SubtractFailure(cond),
                }
            }
        };
        Ok(m)
    }

    fn cmp(&mut self) -> Option<Cmp> {
        let (cmp, len) = match (self.peek(), self.peek_at(1)) {
            (Some('<'), Some('=')) => (Cmp::Le, 2),
            (Some('>'), Some('=')) => (Cmp::Ge, 2),
            (Some('<'), _) => (Cmp::Lt, 1),
            (Some('>'), _) => (Cmp::Gt, 1),
            (Some('='), _) => (Cmp::Eq, 1),
            _ => return None,
        };
        self.pos += len;
        Some(cmp)
    }

    fn target(&mut self) -> Result<i64> {
        let at = self.pos;
        let n = self.integer()?;
        i64::try_from(n)
            .ok()
            .filter(|v| *v <= MAX_LITERAL)
            .ok_or_else(|| self.limit_error(at, format!("the target {n} is too large")))
    }

    /// The target after a comparison, which may be negative: a Fate die's faces are −1, 0, 1,
    /// and its default conditions print as `cf=-1`, so the printed formula must read back.
    fn compared_target(&mut self) -> Result<i64> {
        let negative =
            self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit());
        if negative {
            self.pos += 1;
        }
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.error("a number after the comparison", &self.found()));
        }
        let target = self.target()?;
        Ok(if negative { -target } else { target })
    }

    /// `[CMP] [INT]` with `=` implied when only a number is given.
    fn condition(&mut self) -> Result<Option<Condition>> {
        match self.cmp() {
            Some(cmp) => Ok(Some(Condition {
                cmp,
                target: self.compared_target()?,
            })),
            None if self.peek().is_some_and(|c| c.is_ascii_digit()) => {
                Ok(Some(Condition::eq(self.target()?)))
            }
            None => Ok(None),
        }
    }

    /// `[INT] [CMP] [INT]`: a lone number is the target; `N<cmp>T` limits the count to N.
    fn limited_condition(&mut self) -> Result<(Option<u32>, Option<Condition>)> {
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Ok((None, self.condition()?));
        }
        let at = self.pos;
        let first = self.target()?;
        match self.cmp() {
            None => Ok((None, Some(Condition::eq(first)))),
            Some(cmp) => {
                let target = self.compared_target()?;
                let limit = u32::try_from(first)
                    .map_err(|_| self.limit_error(at, format!("the limit {first} is too large")))?;
                Ok((Some(limit), Some(Condition { cmp, target })))
            }
        }
    }

    fn flavor(&mut self) -> Result<Option<String>> {
        if self.peek() != Some('[') {
            return Ok(None);
        }
        let open = self.pos;
        self.pos += 1;
        let start = self.pos;
        while let Some(c) = self.peek() {
            if c == ']' {
                let text: String = self.src[start..self.pos].iter().collect();
                self.pos += 1;
                return Ok(Some(text));
            }
            if c == '[' {
                break;
            }
            self.pos += 1;
        }
        Err(self.error_at(
            self.pos,
            &format!(
                "']' to close the flavor text opened at position {}",
                open + 1
            ),
            &self.found(),
        ))
    }
}
