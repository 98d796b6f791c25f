//! The proptest equivalents of the cargo-fuzz targets in fuzz/ (which CI does not run): request
//! decoding from arbitrary JSON of every kind, `resolve` with arbitrary faces for every kind, and
//! `importPack` on arbitrary bytes. None may panic; what decodes must plan, roll and replay.

use icon_engine::decode::from_json_text;
use icon_engine::packs::{import_pack, ImportOptions};
use icon_engine::request::{self, Prepared, Request, Resolution};
use proptest::prelude::*;
use serde_json::{json, Value};

const KINDS: &[&str] = &[
    "dice",
    "icon.attack",
    "icon.save",
    "icon.damage",
    "icon.action",
    "icon.fortune",
    "icon.applyDamage",
    "icon.heal",
    "icon.evasion",
    "icon.inflict",
    "icon.ability",
    "icon.hatred",
    "icon.marks",
    "icon.tokens",
    "icon.limitBreak",
    "icons.test",
    "tribute.test",
    "narrator.skill",
    "mns.action",
    "mns.save",
];

/// Field names the kinds use (and a few they do not).
const FIELDS: &[&str] = &[
    "formula",
    "parts",
    "trigger",
    "targets",
    "user",
    "gamble",
    "attack",
    "trueStrike",
    "autoHit",
    "evasion",
    "critAgain",
    "blessing",
    "floor",
    "effortPool",
    "marks",
    "event",
    "tokens",
    "cost",
    "personal",
    "boons",
    "curses",
    "bonus",
    "defense",
    "canCrit",
    "result",
    "die",
    "dice",
    "fray",
    "flat",
    "bonusDice",
    "rating",
    "burdenTicks",
    "push",
    "aid",
    "temptFate",
    "risk",
    "effect",
    "target",
    "amount",
    "source",
    "pierce",
    "healing",
    "ability",
    "difficulty",
    "penalty",
    "rank",
    "focus",
    "burden",
    "opposition",
    "effectRank",
    "skill",
    "modifiers",
    "use",
    "scale",
    "baseDamage",
    "special",
    "score",
    "hp",
    "maxHp",
    "vigor",
    "wounds",
    "boon",
];

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-30i64..30).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        prop::sample::select(vec![
            "hit",
            "crit",
            "miss",
            "risky",
            "desperate",
            "great",
            "3d6",
            "4d6kh3",
            "d100",
            "attack",
            "fine",
            "rest",
            "cure",
            "1d20+",
            "",
            "party",
            "sacrifice",
            "dangerousTerrain",
            "place",
            "useCombo",
            "self",
            "failedSave",
            "finishingBlow",
        ])
        .prop_map(Value::from),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(prop::sample::select(FIELDS), inner, 0..5).prop_map(|m| {
                Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }),
        ]
    })
}

fn request_json() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(KINDS),
        prop::collection::btree_map(prop::sample::select(FIELDS), value(), 0..6),
    )
        .prop_map(|(kind, fields)| {
            let mut m: serde_json::Map<String, Value> = fields
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect();
            m.insert("kind".into(), kind.into());
            Value::Object(m)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn requests_from_arbitrary_json_decode_or_name_the_problem(v in request_json(), seed in 0u64..1000) {
        let text = v.to_string();
        match from_json_text::<Request>("request", &text) {
            Err(e) => prop_assert!(e.message().starts_with("invalid request"), "{}", e.message()),
            Ok(req) => {
                if let Ok(p) = Prepared::new(&req) {
                    if let Ok(done) = request::roll(&p, seed) {
                        let again = request::resolve(&p, &done.faces).unwrap();
                        let Resolution::Done(again) = again else { panic!("a rolled outcome replays as done") };
                        prop_assert_eq!(again.total, done.total);
                    }
                    let _ = request::plan(&p);
                }
            }
        }
    }

    #[test]
    fn arbitrary_text_never_panics_the_decoder(text in ".{0,80}") {
        let _ = from_json_text::<Request>("request", &text);
    }

    #[test]
    fn resolve_takes_arbitrary_faces_for_every_kind(
        which in 0usize..16,
        faces in prop::collection::vec(prop::collection::vec(prop_oneof![-2i64..13, any::<i64>()], 0..8), 0..6),
    ) {
        let requests = [
            json!({"kind": "dice", "formula": "4d6kh3 + 1d8x - 2dF"}),
            json!({"kind": "icon.attack", "boons": 3, "defense": 10}),
            json!({"kind": "icon.save", "curses": 2}),
            json!({"kind": "icon.damage", "result": "crit", "die": 8, "dice": 2, "fray": 2}),
            json!({"kind": "icon.action", "rating": 2, "boons": 1}),
            json!({"kind": "icon.fortune", "dice": 0}),
            json!({"kind": "icon.evasion"}),
            json!({"kind": "icons.test", "ability": 5, "difficulty": 4}),
            json!({"kind": "tribute.test", "rank": 2, "focus": 1, "burden": 2, "die": 6, "opposition": {"rank": 1}}),
            json!({"kind": "narrator.skill", "skill": 12, "difficulty": 0}),
            json!({"kind": "mns.action", "target": 12}),
            json!({"kind": "mns.save", "score": 10}),
            json!({"kind": "dice", "formula": "(1d4)d6rr1cs>=4"}),
            json!({"kind": "icon.attack", "boons": 1, "defense": 10, "evasion": true}),
            json!({"kind": "icon.attack", "defense": 10, "evasion": true, "autoHit": true}),
            json!({"kind": "icon.save", "blessing": true}),
        ];
        let req: Request = serde_json::from_value(requests[which].clone()).unwrap();
        let p = Prepared::new(&req).unwrap();
        if let Ok(Resolution::Done(done)) = request::resolve(&p, &faces) {
            prop_assert_eq!(request::resolve(&p, &done.faces).unwrap(), Resolution::Done(done));
        }
    }

    #[test]
    fn import_pack_takes_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400), json_like in "[{}\\[\\]\":,_a-z0-9$\n ]{0,200}") {
        for text in [String::from_utf8_lossy(&bytes).into_owned(), json_like] {
            for options in [json!({}), json!({"format": "nedb", "force": true}), json!({"format": "json"})] {
                let options: ImportOptions = serde_json::from_value(options).unwrap();
                if let Ok(imported) = import_pack(&text, &options) {
                    prop_assert_eq!(imported.report.documents, imported.documents.len());
                }
            }
        }
    }
}
