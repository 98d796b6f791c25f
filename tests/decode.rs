//! Decoding requests and reducer events from JSON: every refusal names the offending field.

use icon_engine::combat::{CombatState, Event};
use icon_engine::decode::{
    from_json_text, from_json_text_within, MAX_JSON_BYTES, MAX_REQUEST_JSON,
};
use icon_engine::request::Request;

fn request_error(json: &str) -> String {
    from_json_text::<Request>("request", json)
        .unwrap_err()
        .message()
        .to_string()
}

#[test]
fn wrong_types_and_values_name_the_field() {
    for (json, field, words) in [
        (
            r#"{"kind":"icon.attack","boons":1.5,"defense":10}"#,
            "`boons`",
            "1.5",
        ),
        (
            r#"{"kind":"icon.attack","boons":2,"curses":"x","defense":10}"#,
            "`curses`",
            "string",
        ),
        (r#"{"kind":"icon.fortune","dice":-1}"#, "`dice`", "-1"),
        (
            r#"{"kind":"icon.attack","defense":1e300}"#,
            "`defense`",
            "1e+300",
        ),
        (r#"{"kind":"dice","formula":7}"#, "`formula`", "integer"),
        (
            r#"{"kind":"icon.attack","canCrit":null}"#,
            "`canCrit`",
            "null",
        ),
        (
            r#"{"kind":"icon.applyDamage","amount":3,"source":"hit","target":{"hp":"ten","maxHp":20}}"#,
            "`target.hp`",
            "string",
        ),
    ] {
        let m = request_error(json);
        assert!(m.contains(field) && m.contains(words), "{json}: {m}");
        assert!(m.starts_with("invalid request"), "{m}");
    }
}

#[test]
fn missing_and_unknown_fields_say_which() {
    assert!(request_error(r#"{"kind":"dice"}"#).contains("missing field `formula`"));
    assert!(request_error(r#"{"kind":"icon.attack","boon":1}"#).contains("unknown field `boon`"));
    assert!(request_error(r#"{"kind":"nope"}"#).contains("unknown variant `nope`"));
    assert!(request_error(r#"{"formula":"1d6"}"#).contains("missing field `kind`"));
    assert!(request_error(r#"[1,2]"#).starts_with("invalid request"));
    assert!(request_error("not json").starts_with("invalid request"));
}

#[test]
fn combat_events_and_states_name_the_field() {
    let m = from_json_text::<Event>(
        "combat event",
        r#"{"type":"start","combatants":[{"id":"a","side":"party"},{"id":"b","side":"sideways"}]}"#,
    )
    .unwrap_err()
    .message()
    .to_string();
    assert!(
        m.contains("`combatants[1].side`") && m.contains("sideways"),
        "{m}"
    );
    let m = from_json_text::<CombatState>("combat state", r#"{"round":-1}"#)
        .unwrap_err()
        .message()
        .to_string();
    assert!(m.contains("`round`"), "{m}");
}

#[test]
fn oversized_json_is_refused_with_the_limit() {
    let big = format!(
        r#"{{"kind":"dice","formula":"{}"}}"#,
        "1".repeat(MAX_JSON_BYTES)
    );
    let m = request_error(&big);
    assert!(m.contains(&MAX_JSON_BYTES.to_string()), "{m}");
}

/// Found by the `formula` fuzz target: a Fate die's default failure condition printed as
/// `cf=-1`, which the parser refused, so the normalised formula of `dfcf` could not be read back.
#[test]
fn printed_formulas_with_negative_targets_read_back() {
    use icon_engine::dice::parse;
    for src in ["dfcf", "4dFcs>=-1", "4dFcf=-1 + 1", "3dFx1>=-1"] {
        let printed = parse(src).unwrap().to_string();
        let again = parse(&printed).unwrap_or_else(|e| panic!("{src} printed as {printed}: {e}"));
        assert_eq!(again.to_string(), printed);
    }
    assert_eq!(parse("dfcf").unwrap().to_string(), "1dFcf=-1");
    // a minus without a number is still an error
    assert!(parse("4dFcs>=-").is_err());
}

/// `JSON.stringify` escapes a lone surrogate (`"\ud800"`); it is read as U+FFFD, pairs as the
/// character they make, and an escaped backslash before `ud800` as the text it is.
#[test]
fn lone_surrogates_from_json_stringify_read_as_the_replacement_character() {
    let read = |text: &str| from_json_text::<Vec<String>>("names", text).unwrap();
    assert_eq!(read(r#"["a\ud800b"]"#), ["a\u{fffd}b"]);
    assert_eq!(
        read(r#"["\udc00", "end \ud83d"]"#),
        ["\u{fffd}", "end \u{fffd}"]
    );
    assert_eq!(
        read(r#"["\ud83d\ude00 \ud83d\ud83d\ude00"]"#),
        ["😀 \u{fffd}😀"]
    );
    assert_eq!(
        read(r#"["\\ud800", "\"\ud800"]"#),
        ["\\ud800", "\"\u{fffd}"]
    );
    assert_eq!(read(r#"["\u00e9\uD800"]"#), ["é\u{fffd}"]);
    // a request's strings too, and other errors still name their field
    let req: icon_engine::request::Request =
        from_json_text("request", r#"{"kind":"dice","formula":"1d6[fire \ud83d]"}"#).unwrap();
    assert_eq!(req.formula().unwrap(), "1d6[fire \u{fffd}]");
    let e = from_json_text::<icon_engine::request::Request>(
        "request",
        r#"{"kind":"icon.attack","boons":"\ud800"}"#,
    )
    .unwrap_err();
    assert!(e.message().contains("`boons`"), "{}", e.message());
}

/// Issue 16, point 9: a wrong-typed tag, a too-deep value, an off-table lookup and a bad
/// opposition all name their field.
#[test]
fn tags_depth_lookups_and_opposition_name_their_field() {
    for (json, expected) in [
        (r#"{"kind":5}"#, "invalid request: `kind`: invalid type: integer `5`"),
        (r#"{"kind":null,"boons":1}"#, "invalid request: `kind`: invalid type: null"),
        (r#"{"kind":{"a":1}}"#, "invalid request: `kind`: invalid type: map"),
        (r#"{"kind":"icon.atack"}"#, "invalid request: `kind`: unknown variant `icon.atack`"),
        (
            r#"{"kind":"tribute.test","rank":1,"die":6,"opposition":"x"}"#,
            "invalid request: `opposition`: expected a number or an opposing side {rank, focus, burden}",
        ),
        (
            r#"{"kind":"tribute.test","rank":1,"die":6,"opposition":{"rank":"x"}}"#,
            "invalid request: `opposition`: expected a number or an opposing side",
        ),
    ] {
        let m = request_error(json);
        assert!(m.starts_with(expected), "{json}: {m}");
    }
    let event = |json: &str| {
        from_json_text::<Event>("combat event", json)
            .unwrap_err()
            .message()
            .to_string()
    };
    assert!(
        event(r#"{"type":5}"#).starts_with("invalid combat event: `type`: invalid type: integer")
    );
    assert!(
        event(r#"{"type":[]}"#).starts_with("invalid combat event: `type`: invalid type: sequence")
    );
    // deeper than serde_json reads (128 levels): the field is still named
    let deep = format!(
        r#"{{"kind":"icon.attack","boons":{}1{}}}"#,
        "[".repeat(300),
        "]".repeat(300)
    );
    let m = request_error(&deep);
    let at_64 = format!("`boons{}`", "[0]".repeat(63));
    assert!(m.starts_with("invalid request: `boons[0][0]"), "{m}");
    assert!(m.ends_with("`: nested more than 64 levels deep"), "{m}");
    assert!(
        at_64.len() > 100 && m.len() < 200,
        "the path is cut short: {m}"
    );
    let m = request_error(&format!(
        r#"{{"kind":"icon.attack","a":[1,{{"b\"c":2,"d":{}1{}}}]}}"#,
        "[".repeat(200),
        "]".repeat(200)
    ));
    assert!(m.starts_with(r#"invalid request: `a[1].d[0][0]"#), "{m}");
    // an off-table row names the lookup's field
    use icon_engine::rulesets::mns_tables::Lookup;
    let lookup = |json: &str| {
        from_json_text::<Lookup>("table lookup", json)
            .and_then(|l| l.answer().map(|_| ()))
            .unwrap_err()
            .message()
            .to_string()
    };
    assert!(lookup(r#"{"table":"baseAge","roll":0}"#)
        .starts_with("invalid table lookup: `roll`: the age table covers rolls 1 to 22, not 0"));
    assert!(lookup(r#"{"table":"baseHeight","roll":1000}"#)
        .starts_with("invalid table lookup: `roll`: a d100 roll"));
    assert!(lookup(r#"{"table":"learningModifier","learning":2}"#)
        .starts_with("invalid table lookup: `learning`:"));
    assert!(lookup(r#"{"table":"epCost","row":"x"}"#)
        .starts_with("invalid table lookup: `row`: invalid type: string"));
    assert!(lookup(r#"{"table":5}"#)
        .starts_with("invalid table lookup: `table`: invalid type: integer"));
}

/// A message quotes at most ~100 characters of the input (issue 16, point 9), at the boundary.
#[test]
fn messages_quote_at_most_a_hundred_characters() {
    let long = "b".repeat(100_000);
    for json in [
        format!(r#"{{"kind":"icon.attack","boons":"{long}"}}"#),
        format!(r#"{{"kind":"{long}"}}"#),
        format!(r#"{{"kind":"icon.attack","{long}":1}}"#),
        format!(r#"{{"kind":"dice","formula":"1d6+{long}"}}"#),
    ] {
        let e = match from_json_text::<Request>("request", &json) {
            Err(e) => e,
            Ok(r) => icon_engine::request::Prepared::new(&r).unwrap_err(),
        };
        let m = icon_engine::error::clip_quotes(e.message());
        assert!(m.len() < 600, "{}", &m[..600.min(m.len())]);
        assert!(
            m.contains(&"b".repeat(90)) && !m.contains(&"b".repeat(101)),
            "{m}"
        );
    }
}

/// Requests and the other small arguments are at most 256 KiB of JSON (issue 16, point 8: a
/// request of the largest legal size is answered within a frame), refused up front saying so.
#[test]
fn requests_past_their_limit_are_refused_with_it() {
    let big = format!(
        r#"{{"kind":"icon.save","note":"{}"}}"#,
        "x".repeat(MAX_REQUEST_JSON)
    );
    let m = from_json_text_within::<Request>("request", &big, MAX_REQUEST_JSON)
        .unwrap_err()
        .message()
        .to_string();
    assert_eq!(
        m,
        format!(
            "invalid request: it is {} bytes of JSON; the limit is {MAX_REQUEST_JSON}",
            big.len()
        )
    );
    // under it, the usual decoding (and its unknown-field message)
    let small = r#"{"kind":"icon.save","note":"x"}"#;
    let m = from_json_text_within::<Request>("request", small, MAX_REQUEST_JSON)
        .unwrap_err()
        .message()
        .to_string();
    assert!(m.contains("unknown field `note`"), "{m}");
}

/// Every status list is refused past its limit as it is read, naming the field and the limit; at
/// the limit it is answered.
#[test]
fn status_lists_past_their_limit_are_refused_with_it() {
    use icon_engine::rulesets::icon::effects::{Statuses, MAX_STATUSES, MAX_STATUS_BYTES};
    let ids = |n: usize| -> Vec<String> { (0..n).map(|i| format!("status-{i}")).collect() };
    let target =
        |statuses: Vec<String>| serde_json::json!({"hp": 10, "maxHp": 10, "statuses": statuses});
    let requests = |statuses: Vec<String>| -> Vec<(serde_json::Value, &'static str)> {
        vec![
            (
                serde_json::json!({"kind": "icon.applyDamage", "target": target(statuses.clone()), "amount": 3, "source": "hit"}),
                "target.statuses",
            ),
            (
                serde_json::json!({"kind": "icon.heal", "target": target(statuses.clone()), "healing": "rest"}),
                "target.statuses",
            ),
            (
                serde_json::json!({"kind": "icon.inflict", "status": "dazed", "inflicter": statuses.clone()}),
                "inflicter",
            ),
            (
                serde_json::json!({"kind": "icon.inflict", "status": "dazed", "target": statuses.clone()}),
                "target",
            ),
            (
                serde_json::json!({"kind": "icon.hatred", "foe": statuses}),
                "foe",
            ),
        ]
    };
    for (json, _) in requests(ids(MAX_STATUSES)) {
        let r = from_json_text::<Request>("request", &json.to_string());
        assert!(r.is_ok(), "{json}: {:?}", r.err());
    }
    for (json, field) in requests(ids(MAX_STATUSES + 1)) {
        assert_eq!(
            request_error(&json.to_string()),
            format!("invalid request: `{field}`: a list of statuses holds at most {MAX_STATUSES}")
        );
    }
    // an id one byte past its limit, at index 2, is named there
    let mut long = ids(3);
    long[2] = "x".repeat(MAX_STATUS_BYTES + 1);
    for (json, field) in requests(long) {
        assert_eq!(
            request_error(&json.to_string()),
            format!(
                "invalid request: `{field}[2]`: a status id is at most {MAX_STATUS_BYTES} bytes"
            )
        );
    }
    let mut longest = ids(3);
    longest[2] = "x".repeat(MAX_STATUS_BYTES);
    for (json, _) in requests(longest) {
        assert!(from_json_text::<Request>("request", &json.to_string()).is_ok());
    }
    // the list as an argument of its own
    let list = |n: usize| serde_json::to_string(&ids(n)).unwrap();
    assert_eq!(
        from_json_text::<Statuses>("statuses", &list(MAX_STATUSES))
            .unwrap()
            .0
            .len(),
        MAX_STATUSES
    );
    assert_eq!(
        from_json_text::<Statuses>("statuses", &list(MAX_STATUSES + 1))
            .unwrap_err()
            .message(),
        format!("invalid statuses: a list of statuses holds at most {MAX_STATUSES}")
    );
}

/// The core reads values with a deserializer of its own (src/decode/value.rs, so that no float is
/// printed with `f64`'s `Display`): it must accept and refuse exactly what serde_json's `&Value`
/// deserializer does, with the same words. Each case is decoded by both, independently.
#[test]
fn the_core_reads_values_as_serde_json_does() {
    use icon_engine::decode::read;
    use serde::de::DeserializeOwned;
    use serde::Deserialize;
    use serde_json::{json, Value};
    use std::collections::BTreeMap;
    use std::fmt::Debug;

    fn same<T: DeserializeOwned + Debug + PartialEq>(v: Value) {
        let ours = read::<T>(&v).map_err(|e| e.to_string());
        let theirs = T::deserialize(&v).map_err(|e| e.to_string());
        assert_eq!(ours, theirs, "{v} as {}", std::any::type_name::<T>());
    }
    /// A struct: as serde_json reads it, but from an object only (serde_json also takes an
    /// array of its fields in order, which nothing sends the core; src/decode/value.rs).
    fn same_struct<T: DeserializeOwned + Debug + PartialEq>(v: Value, name: &str) {
        if v.is_array() {
            let ours = read::<T>(&v).map_err(|e| e.to_string());
            assert_eq!(
                ours,
                Err(format!("invalid type: sequence, expected struct {name}")),
                "{v}"
            );
        } else {
            same::<T>(v);
        }
    }
    /// A map keyed by numbers: serde_json reads each key with its text parser, whose refusals
    /// word the key's syntax its own way ("invalid number ... at line 1 column 2"); the same
    /// maps must be read, and the same refused.
    fn same_keys<T: DeserializeOwned + Debug + PartialEq>(v: Value) {
        let ours = read::<T>(&v);
        let theirs = T::deserialize(&v);
        assert_eq!(ours.is_ok(), theirs.is_ok(), "{v}: {ours:?} {theirs:?}");
        assert_eq!(ours.ok(), theirs.ok(), "{v}");
    }
    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct S {
        a: u32,
        #[serde(default)]
        b: Option<i64>,
        #[serde(default)]
        c: Vec<String>,
        #[serde(default)]
        d: Option<E>,
    }
    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "camelCase")]
    enum E {
        Unit,
        Newtype(u8),
        Tuple(u8, bool),
        Struct { x: i32 },
    }
    #[derive(Debug, PartialEq, Deserialize)]
    struct Pair(u8, String);

    for v in [
        json!(1),
        json!(-1),
        json!(1.5),
        json!(1e300),
        json!(-0.25),
        json!(4294967296u64),
        json!("ten"),
        json!("a \"quoted\"\nline"),
        json!(null),
        json!(true),
        json!([1]),
        json!({"a": 1}),
    ] {
        same::<u32>(v.clone());
        same::<i64>(v.clone());
        same::<u8>(v.clone());
        same::<f64>(v.clone());
        same::<bool>(v.clone());
        same::<String>(v.clone());
        same::<Option<u32>>(v.clone());
        same::<Vec<u32>>(v.clone());
        same::<()>(v.clone());
        same::<char>(v.clone());
        same::<E>(v.clone());
        same_struct::<S>(v.clone(), "S");
        same::<Pair>(v.clone());
        same::<BTreeMap<String, u32>>(v.clone());
    }
    for v in [
        json!({"a": 1, "b": -2, "c": ["x"], "d": "unit"}),
        json!({"a": 1, "d": {"newtype": 3}}),
        json!({"a": 1, "d": {"tuple": [3, true]}}),
        json!({"a": 1, "d": {"tuple": [3]}}),
        json!({"a": 1, "d": {"tuple": [3, true, 4]}}),
        json!({"a": 1, "d": {"struct": {"x": -5}}}),
        json!({"a": 1, "d": {"struct": [-5]}}),
        json!({"a": 1, "d": {"struct": 5}}),
        json!({"a": 1, "d": {"newtype": 3, "unit": null}}),
        json!({"a": 1, "d": {"nope": 3}}),
        json!({"a": 1, "d": "newtype"}),
        json!({"a": 1, "d": {"unit": null}}),
        json!({"a": 1, "d": {"unit": 5}}),
        json!({"a": 1, "d": 7}),
        json!({"a": 1.5}),
        json!({"a": 1, "z": 0}),
        json!({"b": 1}),
        json!({"a": 1, "a": 2}),
        json!([1, 2, ["c"], null]),
        json!([1, 2, [], null, 5]),
        json!({"a": 1, "c": [1]}),
    ] {
        same_struct::<S>(v, "S");
    }
    for v in [
        json!([1, "x"]),
        json!([1]),
        json!([1, "x", 2]),
        json!([300, "x"]),
    ] {
        same::<Pair>(v.clone());
        same::<(u8, String)>(v);
    }
    // maps keyed by numbers are written with the numbers as strings
    for v in [
        json!({"0": 1, "17": 2}),
        json!({"-3": 1}),
        json!({"01": 1}),
        json!({"1.5": 1}),
        json!({"x": 1}),
        json!({"": 1}),
        json!({"-": 1}),
        json!({"18446744073709551616": 1}),
        json!({"4294967296": 1}),
    ] {
        same_keys::<BTreeMap<u32, u8>>(v.clone());
        same_keys::<BTreeMap<u64, u8>>(v.clone());
        same_keys::<BTreeMap<i64, u8>>(v.clone());
        same::<BTreeMap<String, u8>>(v);
    }
}
