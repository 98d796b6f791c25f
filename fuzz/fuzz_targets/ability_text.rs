//! The ability-text parser (`packs::ability_text`, issue 37) on arbitrary text: abilities, traits,
//! relics and foe stat blocks are read or refused, never a panic; descriptions stay escaped and
//! effects within the data model's limit.
#![no_main]
use icon_engine::packs::ability_text::{foe, model::ItemType, parse, ParseOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for kind in [ItemType::Ability, ItemType::Trait, ItemType::Relic] {
        if let Ok(parsed) = parse(&text, ParseOptions { kind }) {
            for item in &parsed.items {
                let d = &item.system.description;
                assert!(!d.contains("<script") && !d.contains("<img"));
                assert!(item.system.effects.len() <= 12);
            }
        }
    }
    let _ = foe::parse(&text);
});
