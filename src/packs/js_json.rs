//! JSON as JavaScript's `JSON.parse` reads it, which is how NeDB (and Foundry) read packs:
//! `serde_json` refuses two things `JSON.parse` takes, so a pack holding them would be
//! refused or lose lines that Foundry itself keeps.
//!
//! - A lone UTF-16 surrogate escape (`"\ud83d"`, half of an emoji cut by a careless writer):
//!   `JSON.parse` keeps it in the string; a Rust string cannot hold it, so it becomes U+FFFD,
//!   as the wasm boundary reads one.
//! - A number beyond the `f64` range (`1e400`): `JSON.parse` reads `Infinity`, which Foundry
//!   writes back as `null` (`JSON.stringify`); it is read as `null`.
//!
//! The text is rewritten (in one pass, linear) only when `serde_json` refuses it and it holds
//! one of these.

use serde_json::Value;
use std::borrow::Cow;

/// Parses `text` as `JSON.parse` would (with the two readings above).
pub fn parse(text: &str) -> Result<Value, serde_json::Error> {
    match serde_json::from_str(text) {
        Ok(v) => Ok(v),
        Err(e) => match compatible(text) {
            // the first fault is read now; report the next (its column may be off by a few)
            Cow::Owned(fixed) => serde_json::from_str(&fixed),
            Cow::Borrowed(_) => Err(e),
        },
    }
}

/// `text` with lone surrogate escapes as `\ufffd` and out-of-range numbers as `null`
/// (borrowed when there are none). Other faults are left for the parser to report.
pub fn compatible(text: &str) -> Cow<'_, str> {
    let b = text.as_bytes();
    let mut out: Option<String> = None;
    // what is copied as is runs from `copied` to the current position
    let mut copied = 0;
    let mut i = 0;
    let mut in_string = false;
    let hex = |at: usize| -> Option<u32> {
        let h = text.get(at..at + 4)?;
        if h.bytes().all(|c| c.is_ascii_hexdigit()) {
            u32::from_str_radix(h, 16).ok()
        } else {
            None
        }
    };
    let replace =
        |out: &mut Option<String>, from: usize, to: usize, with: &str, copied: &mut usize| {
            let o = out.get_or_insert_with(|| String::with_capacity(text.len()));
            o.push_str(&text[*copied..from]);
            o.push_str(with);
            *copied = to;
        };
    while i < b.len() {
        let c = b[i];
        if in_string {
            match c {
                b'"' => {
                    in_string = false;
                    i += 1;
                }
                b'\\' if b.get(i + 1) == Some(&b'u') => {
                    let Some(unit) = hex(i + 2) else {
                        i += 2;
                        continue;
                    };
                    match unit {
                        0xD800..=0xDBFF => {
                            let pair = b.get(i + 6) == Some(&b'\\')
                                && b.get(i + 7) == Some(&b'u')
                                && hex(i + 8).is_some_and(|low| (0xDC00..=0xDFFF).contains(&low));
                            if pair {
                                i += 12;
                            } else {
                                replace(&mut out, i, i + 6, "\\ufffd", &mut copied);
                                i += 6;
                            }
                        }
                        0xDC00..=0xDFFF => {
                            replace(&mut out, i, i + 6, "\\ufffd", &mut copied);
                            i += 6;
                        }
                        _ => i += 6,
                    }
                }
                b'\\' => i += 2,
                _ => i += 1,
            }
            continue;
        }
        match c {
            b'"' => {
                in_string = true;
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                i += 1;
                while b.get(i).is_some_and(|c| {
                    c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-')
                }) {
                    i += 1;
                }
                let number = &text[start..i];
                if number.parse::<f64>().is_ok_and(f64::is_infinite) {
                    replace(&mut out, start, i, "null", &mut copied);
                }
            }
            _ => i += 1,
        }
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut o) => {
            o.push_str(&text[copied.min(text.len())..]);
            Cow::Owned(o)
        }
    }
}

/// A number as JavaScript's `String(n)` writes it (`5`, `1.5`, `1e+21`, `1e-7`): NeDB keys a
/// document by `String(_id)`, so `5` and `"5"` are the same document.
pub fn number_string(n: &serde_json::Number) -> String {
    // JavaScript holds every number as an f64
    let Some(f) = n.as_f64() else {
        return n.to_string();
    };
    if f == 0.0 {
        return "0".into();
    }
    if f.fract() == 0.0 && f.abs() < 1e21 {
        return format!("{f}");
    }
    // the shortest digits that read back as `f`, and the decimal exponent of the first
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let e: i32 = exp.parse().unwrap_or(0);
    let k = digits.len() as i32;
    // ECMA-262 Number::toString: n is the position of the decimal point
    let n = e + 1;
    let sign = if f < 0.0 { "-" } else { "" };
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let rest = if k > 1 {
            format!(".{}", &digits[1..])
        } else {
            String::new()
        };
        let sign = if n > 0 { "+" } else { "-" };
        format!("{}{rest}e{sign}{}", &digits[..1], (n - 1).abs())
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lone_surrogates_become_replacement_characters_and_pairs_stay() {
        assert_eq!(
            parse(r#"{"s":"a\ud83d"}"#).unwrap(),
            json!({"s": "a\u{fffd}"})
        );
        assert_eq!(
            parse(r#"{"s":"\udc00x\ud83d\u0041"}"#).unwrap(),
            json!({"s": "\u{fffd}x\u{fffd}A"})
        );
        assert_eq!(
            parse(r#"{"s":"\ud83d\ude00 \ud83d"}"#).unwrap(),
            json!({"s": "😀 \u{fffd}"})
        );
        // an escaped backslash before `u` is not an escape
        assert_eq!(
            parse(r#"{"s":"\\ud83d"}"#).unwrap(),
            json!({"s": "\\ud83d"})
        );
        assert_eq!(
            compatible(r#"{"s":"\ud83d\ude00"}"#),
            Cow::Borrowed(r#"{"s":"\ud83d\ude00"}"#)
        );
    }

    #[test]
    fn numbers_past_the_f64_range_are_null() {
        assert_eq!(
            parse(r#"{"a":1e400,"b":[-1E+999, 2],"c":"1e400"}"#).unwrap(),
            json!({"a": null, "b": [null, 2], "c": "1e400"})
        );
        assert_eq!(parse("1e-400").unwrap(), json!(0.0));
        // other faults are still faults, reported as serde_json reports them
        assert!(parse(r#"{"a":1e400,}"#)
            .unwrap_err()
            .to_string()
            .contains("trailing comma"));
    }

    #[test]
    fn numbers_are_written_as_javascript_writes_them() {
        let s = |v: Value| number_string(v.as_number().unwrap());
        assert_eq!(s(json!(5)), "5");
        assert_eq!(s(json!(-12)), "-12");
        assert_eq!(s(json!(1.5)), "1.5");
        assert_eq!(s(json!(1e21)), "1e+21");
        assert_eq!(s(json!(1e20)), "100000000000000000000");
        assert_eq!(s(json!(1.5e-7)), "1.5e-7");
        assert_eq!(s(json!(0.000001)), "0.000001");
        assert_eq!(s(json!(-2.5e300)), "-2.5e+300");
        assert_eq!(s(json!(123.456)), "123.456");
        assert_eq!(s(json!(18446744073709551615u64)), "18446744073709552000");
    }
}
