//! The ability-text parser (issue 37) against its corpus: texts written for this project in the
//! grammar the rules reference's glossary states, each with the items it states
//! (`tests/fixtures/ability-texts/corpus.json`). At least 95% must parse to exactly those fields;
//! every item's description keeps its whole text, escaped; nothing not understood is dropped.

use icon_engine::packs::ability_text::{self, model::ItemType, ParseOptions};
use serde_json::{json, Value};

const CORPUS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/ability-texts/corpus.json"
);

fn corpus() -> Vec<Value> {
    let text = std::fs::read_to_string(CORPUS).expect("the corpus");
    serde_json::from_str::<Vec<Value>>(&text).expect("the corpus is JSON")
}

fn parse(text: &str) -> Value {
    let parsed = ability_text::parse(text, ParseOptions::default()).expect("parsed");
    serde_json::to_value(&parsed).unwrap()
}

/// The items without their descriptions (which keep the text itself, checked apart).
fn stated(items: &Value) -> Value {
    let mut items = items.clone();
    for item in items.as_array_mut().unwrap() {
        item["system"]
            .as_object_mut()
            .unwrap()
            .remove("description");
    }
    items
}

#[test]
fn the_corpus_parses_to_the_fields_it_states() {
    let corpus = corpus();
    assert!(corpus.len() >= 60, "at least 60 texts, {}", corpus.len());
    let dump = std::env::var_os("ICON_CORPUS_DUMP").is_some();
    let mut exact = 0;
    let mut misses = Vec::new();
    let mut drafted = Vec::new();
    for entry in &corpus {
        let text = entry["text"].as_str().unwrap();
        let got = parse(text);
        let items = stated(&got["items"]);
        if items == entry["items"] {
            exact += 1;
        } else {
            misses.push(format!(
                "{text}\n  stated: {}\n  parsed: {items}\n  unparsed: {}",
                entry["items"], got["unparsed"]
            ));
        }
        drafted.push(json!({"keywords": entry["keywords"], "text": text, "items": items, "unparsed": got["unparsed"]}));
    }
    if dump {
        std::fs::write(
            "/tmp/corpus-parsed.json",
            serde_json::to_string_pretty(&drafted).unwrap(),
        )
        .unwrap();
    }
    let share = exact as f64 / corpus.len() as f64;
    assert!(
        share >= 0.95,
        "{exact} of {} exact ({:.1}%):\n{}",
        corpus.len(),
        share * 100.0,
        misses.join("\n")
    );
}

#[test]
fn every_keyword_is_covered() {
    let corpus = corpus();
    let keywords: Vec<String> = corpus
        .iter()
        .flat_map(|e| {
            e["keywords"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| k.as_str().unwrap().to_lowercase())
        })
        .collect();
    for keyword in [
        "1 action",
        "2 actions",
        "free",
        "interrupt",
        "trigger",
        "attack",
        "area",
        "aura",
        "mark",
        "stance",
        "combo",
        "delay",
        "end turn",
        "summon",
        "terrain effect",
        "true strike",
        "auto-hit",
        "pierce",
        "divine",
        "melee",
        "range",
        "self",
        "blast",
        "burst",
        "line",
        "cross",
        "arc",
        "effect",
        "area effect",
        "on hit",
        "miss",
        "critical hit",
        "exceed",
        "charge",
        "comeback",
        "finishing blow",
        "slay",
        "gamble",
        "heroic",
        "collide",
        "[d]",
        "fray",
        "once per turn",
        "once per round",
        "once per combat",
        "ongoing",
        "cure",
        "turn",
        "save",
    ] {
        assert!(
            keywords.iter().any(|k| k == keyword),
            "the corpus covers {keyword}"
        );
    }
}

#[test]
fn descriptions_keep_the_whole_text_escaped() {
    for entry in corpus() {
        let text = entry["text"].as_str().unwrap();
        let got = parse(text);
        let mut all = String::new();
        for item in got["items"].as_array().unwrap() {
            all.push_str(item["system"]["description"].as_str().unwrap());
        }
        for u in got["unparsed"].as_array().unwrap() {
            if u["item"].is_null() {
                all.push_str(u["text"].as_str().unwrap());
            }
        }
        // every word of the text is in a description or an unparsed line (hyphenation joined)
        let flat = all.replace("<p>", " ").replace("</p>", " ");
        for word in text.replace("-\n", "").split_whitespace() {
            let word = word.trim_start_matches('•');
            let mut escaped = String::new();
            ability_text::words::escape(word, &mut escaped);
            assert!(flat.contains(&escaped), "{word:?} of {text:?} is kept");
        }
    }
}

#[test]
fn script_in_a_paste_is_escaped_in_descriptions() {
    // the description is HTML (enriched on sheets and cards): escaped here; every other field is
    // plain text, which the sheet, the card and the paste dialog show escaped
    let text = "<script>alert(1)</script>\nBad (1 action, Attack, Range 2): On hit: [D] + fray, and <img src=x onerror=alert(2)>. Miss: fray.";
    let got = parse(text);
    for item in got["items"].as_array().unwrap() {
        let description = item["system"]["description"].as_str().unwrap();
        assert!(
            !description.contains("<script") && !description.contains("<img"),
            "{description}"
        );
        assert!(
            description.contains("&lt;img src=x onerror=alert(2)&gt;"),
            "{description}"
        );
    }
    assert_eq!(got["items"][0]["name"], "Bad");
}

#[test]
fn unknown_parts_are_reported_not_dropped() {
    let got = parse("Odd Trick (1 action, Range 2, Sparkly): Effect: You gain dodge. Talent: Something else happens.");
    let unparsed = got["unparsed"].as_array().unwrap();
    let reasons: Vec<(&str, &str)> = unparsed
        .iter()
        .map(|u| (u["text"].as_str().unwrap(), u["reason"].as_str().unwrap()))
        .collect();
    assert!(reasons.contains(&("Sparkly", "unknownTag")), "{reasons:?}");
    assert!(
        reasons
            .iter()
            .any(|(t, r)| t.starts_with("Talent:") && *r == "unknownPart"),
        "{reasons:?}"
    );
    assert_eq!(
        got["items"][0]["system"]["effects"],
        json!([{"trigger": "use", "status": "dodge", "duration": "save", "to": "self"}])
    );
}

#[test]
fn numbers_past_the_bounds_are_reported() {
    let got = parse("Far Shot (1 action, Attack, Range 400, Blast 20): On hit: 9[D]. Miss: fray.");
    let system = &got["items"][0]["system"];
    assert!(
        system.get("range").is_none() && system.get("area").is_none(),
        "{system}"
    );
    let reasons: Vec<&str> = got["unparsed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["reason"].as_str().unwrap())
        .collect();
    assert_eq!(
        reasons.iter().filter(|r| **r == "outOfRange").count(),
        3,
        "{reasons:?}"
    );
}

#[test]
fn traits_and_relics() {
    let parsed = ability_text::parse(
        "Thick Hide: Attacks against this character take 1 curse.\nEagle Eye\nYou ignore the blinded status.",
        ParseOptions { kind: ItemType::Trait },
    )
    .unwrap();
    let items = serde_json::to_value(&parsed.items).unwrap();
    assert_eq!(items.as_array().unwrap().len(), 2, "{items}");
    assert_eq!(items[0]["name"], "Thick Hide");
    assert_eq!(items[1]["name"], "Eagle Eye");
    assert_eq!(items[1]["type"], "trait");
    let parsed = ability_text::parse(
        "Moonglass Lantern: Holds 3 charges. Recharges when you rest. Once per round, an ally in range 3 gains stealth.",
        ParseOptions { kind: ItemType::Relic },
    )
    .unwrap();
    let items = serde_json::to_value(&parsed.items).unwrap();
    assert_eq!(
        items[0]["system"]["charges"],
        json!({"value": 3, "max": 3, "recharge": "rest"})
    );
    assert_eq!(items[0]["system"]["limit"], json!({"per": "round"}));
}

#[test]
fn a_long_paste_is_linear_and_bounded() {
    let one = "Lantern Bolt (2 actions, Attack, Range 6): On hit: 2[D] + fray. Miss: fray.\n";
    let text = one.repeat(ability_text::MAX_ITEMS);
    let parsed = ability_text::parse(&text, ParseOptions::default()).unwrap();
    assert_eq!(parsed.items.len(), ability_text::MAX_ITEMS);
    let error = ability_text::parse(&(text + one), ParseOptions::default()).unwrap_err();
    assert!(
        error.message().contains("at most 2000"),
        "{}",
        error.message()
    );
}

/// Pieces of the grammar, so arbitrary texts reach deep into the parser, with characters whose
/// lowercase is longer or shorter than themselves ("İ", "ẞ", "K") and text from PDFs.
fn piece() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    prop_oneof![
        Just("Light attack (1 action): ".to_string()),
        Just("On a hit, ".to_string()),
        Just("ON A HİT, ".to_string()),
        Just("On hit: [D] + fray, ".to_string()),
        Just("Miss: fray. ".to_string()),
        Just("Gamble 5+: ".to_string()),
        Just("Trigger: ".to_string()),
        Just("İİİ ẞ K ".to_string()),
        Just("the target is dazed+ until the end of its next turn".to_string()),
        Just("shove it 2 spaces".to_string()),
        Just("While in this stance you gain sturdy".to_string()),
        Just("must save or be weakened".to_string()),
        Just("Once per round. Recharges each round. 2 charges".to_string()),
        Just("HP 64, Defense 8, Heavy Elite, d8".to_string()),
        Just("Traits\n".to_string()),
        Just("ROCK TOSS\n1 action, Attack, Range 4\n".to_string()),
        Just("tar-\nget ".to_string()),
        Just("\n\n".to_string()),
        "[ -~]{0,12}",
        "\\PC{0,6}",
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

    /// The parser never panics, whatever it is given, and every item's description is escaped.
    #[test]
    fn any_text_is_read_or_refused_never_a_panic(pieces in proptest::collection::vec(piece(), 0..24)) {
        let text: String = pieces.concat();
        for kind in [ItemType::Ability, ItemType::Trait, ItemType::Relic] {
            if let Ok(parsed) = ability_text::parse(&text, ParseOptions { kind }) {
                for item in &parsed.items {
                    proptest::prop_assert!(!item.system.description.contains('<') || item.system.description.starts_with("<p>"));
                    proptest::prop_assert!(item.system.effects.len() <= 12);
                }
            }
        }
        let _ = ability_text::foe::parse(&text);
    }
}
