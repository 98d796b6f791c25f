//! The pack importer's exports (the `importer` feature): only the import worker and the GM's
//! main-thread fallback load this module, never a player's client. They take JS values (the
//! import worker calls `importPack` directly with what it was posted, which structured cloning has
//! made plain data); every call into JS they make is one the glue catches, or a `typeof` test.

use super::{decode_str, js_error, json, long_string_arg, string_arg};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** A glossary term: `key` is the lowercase term without its placeholder, for matching status ids. */
export interface GlossaryTerm { term: string; key: string; definition: string; page: string; section: string | null }
"#;

/// Results cross as one JSON string that `JSON.parse` builds natively.
fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsError> {
    parsed(&json(value)?)
}

fn parsed(json: &str) -> Result<JsValue, JsError> {
    js_sys::JSON::parse(json)
        .map_err(|_| JsError::new("cannot hand the result to JavaScript: JSON.parse refused it"))
}

/// `importPack`'s and `glossary`'s options: absent means the defaults. Read as their JSON text
/// (`JSON.stringify`, which the glue catches: a throwing getter, proxy or `toJSON` comes back as
/// an error here), which shows every field, so `deny_unknown_fields` sees a typo.
fn import_options(options: JsValue) -> Result<crate::packs::ImportOptions, JsError> {
    const WHAT: &str = "import options";
    if options.is_undefined() || options.is_null() {
        return Ok(crate::packs::ImportOptions::default());
    }
    let Ok(text) = js_sys::JSON::stringify(&options) else {
        return Err(JsError::new(&format!(
            "invalid {WHAT}: JSON.stringify refused it (a BigInt, a cycle, or a getter, proxy or toJSON that threw)"
        )));
    };
    let text: JsValue = text.into();
    if !text.is_string() {
        return Err(JsError::new(&format!(
            "invalid {WHAT}: a {} is not a JSON value",
            options.js_typeof().as_string().unwrap_or_default()
        )));
    }
    decode_str(WHAT, &long_string_arg(WHAT, &text)?)
}

/// Imports an exported journal pack (NeDB log or JSON): `{documents, report}`.
#[wasm_bindgen(js_name = importPack, unchecked_return_type = "{documents: object[], report: object}")]
pub fn import_pack(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(
        unchecked_param_type = "{format?: \"auto\" | \"nedb\" | \"json\", force?: boolean} | undefined"
    )]
    options: JsValue,
) -> Result<JsValue, JsError> {
    let options = import_options(options)?;
    refuse_long_pack(&text)?;
    let text = long_string_arg("text", &text)?;
    // the result's JSON text is written entry by entry as the import goes
    let json = crate::packs::import_pack_json(&text, &options).map_err(js_error)?;
    drop(text);
    parsed(&json)
}

/// Refuses a pack longer than [`crate::packs::MAX_TEXT`] (counted in UTF-16 units, at most its
/// UTF-8 bytes) before it is copied into wasm memory.
fn refuse_long_pack(text: &JsValue) -> Result<(), JsError> {
    match text
        .dyn_ref::<js_sys::JsString>()
        .map(|s| s.length() as usize)
    {
        Some(units) if units > crate::packs::MAX_TEXT => {
            Err(js_error(crate::packs::too_long(units)))
        }
        _ => Ok(()),
    }
}

/// The glossary terms a page's HTML defines: `[{term, key, definition, page, section}]`.
#[wasm_bindgen(js_name = glossaryTerms, unchecked_return_type = "GlossaryTerm[]")]
pub fn glossary_terms(
    #[wasm_bindgen(unchecked_param_type = "string")] html: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] page: JsValue,
) -> Result<JsValue, JsError> {
    if let Some(units) = html
        .dyn_ref::<js_sys::JsString>()
        .map(|s| s.length() as usize)
    {
        // UTF-8 takes at least a byte per UTF-16 unit: refused before it is copied
        if units > crate::packs::glossary::MAX_PAGE {
            let page = page.as_string().unwrap_or_default();
            return Err(js_error(crate::packs::glossary::too_long(units, &page)));
        }
    }
    let (html, page) = (string_arg("html", &html)?, string_arg("page", &page)?);
    to_js(&crate::packs::glossary::page_terms(&html, &page).map_err(js_error)?)
}

/// The glossary of a whole pack (any text `importPack` reads, e.g. `JSON.stringify` of the
/// entries): the terms of every text page, a key's first definition winning.
#[wasm_bindgen(unchecked_return_type = "GlossaryTerm[]")]
pub fn glossary(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(
        unchecked_param_type = "{format?: \"auto\" | \"nedb\" | \"json\", force?: boolean} | undefined"
    )]
    options: JsValue,
) -> Result<JsValue, JsError> {
    let options = import_options(options)?;
    refuse_long_pack(&text)?;
    let text = string_arg("text", &text)?;
    to_js(&crate::packs::glossary(&text, &options).map_err(js_error)?)
}

/// Refuses a pasted text longer than [`crate::packs::ability_text::MAX_TEXT`] (counted in UTF-16
/// units, at most its UTF-8 bytes) before it is copied into wasm memory, naming the limit.
fn refuse_long_paste(text: &JsValue) -> Result<(), JsError> {
    match text
        .dyn_ref::<js_sys::JsString>()
        .map(|s| s.length() as usize)
    {
        Some(units) if units > crate::packs::ability_text::MAX_TEXT => {
            Err(js_error(crate::packs::ability_text::too_long(units)))
        }
        _ => Ok(()),
    }
}

/// Ability (or trait, or relic) text as a book prints it, read into items: `{items, unparsed}`
/// (docs/content-packs.md, "Pasting text").
#[wasm_bindgen(
    js_name = parseAbilityText,
    unchecked_return_type = "{items: {name: string, type: string, system: object}[], unparsed: {text: string, reason: string, item: number | null}[]}"
)]
pub fn parse_ability_text(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(
        unchecked_param_type = "{type?: \"ability\" | \"trait\" | \"relic\"} | undefined"
    )]
    options: JsValue,
) -> Result<JsValue, JsError> {
    const WHAT: &str = "paste options";
    let options = if options.is_undefined() || options.is_null() {
        crate::packs::ability_text::ParseOptions::default()
    } else {
        let Ok(json) = js_sys::JSON::stringify(&options) else {
            return Err(JsError::new(&format!(
                "invalid {WHAT}: JSON.stringify refused it"
            )));
        };
        decode_str(WHAT, &string_arg(WHAT, &json.into())?)?
    };
    refuse_long_paste(&text)?;
    let text = long_string_arg("text", &text)?;
    parsed(&crate::packs::ability_text::parse_json(&text, options).map_err(js_error)?)
}

/// A foe's stat block read into a foe and its items: `{foe, items, unparsed}`.
#[wasm_bindgen(
    js_name = parseFoeText,
    unchecked_return_type = "{foe: {name: string, type: \"foe\", system: object}, items: {name: string, type: string, system: object}[], unparsed: {text: string, reason: string, item: number | null}[]}"
)]
pub fn parse_foe_text(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<JsValue, JsError> {
    refuse_long_paste(&text)?;
    let text = long_string_arg("text", &text)?;
    parsed(&crate::packs::ability_text::foe::parse_json(&text).map_err(js_error)?)
}
