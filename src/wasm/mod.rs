//! The wasm boundary: the only code that touches `JsValue`. Three modules are built from it, each
//! by its Cargo feature: the client core (`client`: dice, odds, rulesets and combat, which every
//! client loads), the pack importer (`importer`: the HTML scanner, NeDB, migration and the
//! glossary, which only an import loads) and the encounter forecast (`forecast`, which only a
//! GM's forecast loads). What the two share is here.
//!
//! JS checks every argument before wasm is entered (`module/core-arguments.mjs`: types, NaN,
//! cycles, depth, throwing getters and proxies, with the field's path in the message) and hands
//! over JSON text and plain numbers; answers come back as JSON text. A JS exception thrown while
//! wasm code is on the stack skips the epilogues that restore wasm's stack pointer, so nothing
//! here reads a JS object: the few calls into JS that remain (`crypto.getRandomValues`,
//! `JSON.stringify` of import options, building typed arrays) are ones the generated glue
//! catches and returns as errors.

#[cfg(any(feature = "client", feature = "importer"))]
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[cfg(feature = "client")]
mod client;
#[cfg(feature = "forecast")]
mod forecast;
#[cfg(feature = "importer")]
mod importer;

/// The crate version.
#[wasm_bindgen]
pub fn version() -> String {
    crate::version().to_string()
}

fn js_error(e: crate::Error) -> JsError {
    JsError::new(&crate::error::clip_quotes(e.message()))
}

#[cfg(feature = "client")]
/// A number from JS as a message shows it (JS's own spelling for NaN and the infinities).
/// Written without `f64`'s `Display`, whose float formatting would add ~20 KB to the wasm.
fn number(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        (if x > 0.0 { "Infinity" } else { "-Infinity" }).into()
    } else if x.fract() == 0.0 && x.abs() < 9.0e15 {
        (x as i64).to_string()
    } else {
        serde_json::to_string(&x).unwrap_or_default()
    }
}

/// A value as JSON text for JS to `JSON.parse` (every value the core returns is JSON: numbers are
/// JS-safe integers or finite floats, maps have string keys).
fn json<T: Serialize + ?Sized>(value: &T) -> Result<String, JsError> {
    let mut out = Text(Vec::with_capacity(256));
    serde_json::to_writer(&mut out, value)
        .map_err(|e| JsError::new(&format!("cannot hand the result to JavaScript: {e}")))?;
    // SAFETY: serde_json writes UTF-8
    Ok(unsafe { String::from_utf8_unchecked(out.0) })
}

/// The bytes serde_json writes. Most of its writes are a byte or two (quotes, colons, commas):
/// pushed here, they cost a store, where `Vec<u8>`'s own `Write` would call a bulk copy each
/// time (measured: a third of a roll's time in wasm).
struct Text(Vec<u8>);

impl std::io::Write for Text {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.write_all(bytes)?;
        Ok(bytes.len())
    }
    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        if let [byte] = bytes {
            self.0.push(*byte);
        } else {
            self.0.extend_from_slice(bytes);
        }
        Ok(())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(feature = "client")]
/// A core type from the JSON text JS checked and wrote (at most
/// [`crate::decode::MAX_REQUEST_JSON`] bytes); errors name the argument and the field.
fn decode<T: DeserializeOwned>(what: &str, text: &JsValue) -> Result<T, JsError> {
    let text = text_arg(what, text)?;
    crate::decode::from_json_text_within(what, &text, crate::decode::MAX_REQUEST_JSON)
        .map_err(js_error)
}

#[cfg(feature = "client")]
/// [`decode`] for a combat's state and events, which may be megabytes.
fn decode_large<T: DeserializeOwned>(what: &str, text: &JsValue) -> Result<T, JsError> {
    decode_str(what, &text_arg(what, text)?)
}

#[cfg(any(feature = "client", feature = "importer"))]
fn decode_str<T: DeserializeOwned>(what: &str, text: &str) -> Result<T, JsError> {
    crate::decode::from_json_text(what, text).map_err(js_error)
}

#[cfg(feature = "client")]
/// JSON text handed over as a JS string (module/core.mjs writes it). Taken as a `JsValue`, not
/// `&str`, so a long one is copied by [`long_string_arg`] in one native call.
#[cfg(feature = "client")]
fn text_arg(what: &str, value: &JsValue) -> Result<String, JsError> {
    match value.dyn_ref::<js_sys::JsString>() {
        Some(text) => long_string(what, value, text),
        None => Err(JsError::new(&format!(
            "invalid {what}: JSON text expected, not a {}",
            value.js_typeof().as_string().unwrap_or_default()
        ))),
    }
}

/// A string argument: wasm-bindgen's `&str` would read any other JS value as garbage memory.
fn string_arg(what: &str, value: &JsValue) -> Result<String, JsError> {
    value.as_string().ok_or_else(|| {
        JsError::new(&format!(
            "{what} must be a string, not a {}",
            value.js_typeof().as_string().unwrap_or_default()
        ))
    })
}

#[wasm_bindgen]
extern "C" {
    /// The platform's UTF-8 encoder (what the generated glue uses too).
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(
        this: &TextEncoder,
        source: &js_sys::JsString,
        into: &js_sys::Uint8Array,
    ) -> EncodeIntoResult;
    /// `{read, written}`: UTF-16 units read, bytes written.
    type EncodeIntoResult;
    #[wasm_bindgen(method, getter)]
    fn read(this: &EncodeIntoResult) -> u32;
    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodeIntoResult) -> u32;
}

/// Strings up to this many UTF-16 units go through the glue's copy: past it, the fixed cost of
/// `encodeInto` (a view of wasm memory, one native call) is less than the glue's per-character
/// loop (measured on a 15-combatant combat state of 2.4 KB: the call went from 57 to 32 µs).
const GLUE_STRING_UNITS: u32 = 256;

/// A string argument of kilobytes or megabytes (a whole pack, a large fight), as [`string_arg`]
/// but faster: the generated glue copies a string's ASCII prefix one `charCodeAt` at a time in JS
/// (about 100 ms for a 10 MB log), while `TextEncoder.encodeInto` writes all of it into wasm
/// memory natively. Lone surrogates become U+FFFD, as in the glue.
#[cfg(any(feature = "importer", feature = "forecast"))]
fn long_string_arg(what: &str, value: &JsValue) -> Result<String, JsError> {
    match value.dyn_ref::<js_sys::JsString>() {
        Some(text) => long_string(what, value, text),
        None => string_arg(what, value),
    }
}

/// [`long_string_arg`] of a value known to be a string.
fn long_string(what: &str, value: &JsValue, text: &js_sys::JsString) -> Result<String, JsError> {
    let units = text.length();
    if units <= GLUE_STRING_UNITS {
        return string_arg(what, value);
    }
    let encoder = TextEncoder::new();
    // ASCII takes one byte per unit; what does not fit is encoded again into room for the worst
    // case (3 bytes per unit). The encoder writes into the vector's spare capacity through a
    // view of wasm memory made from its address (no Rust reference to the unwritten bytes). A
    // view is cut off if the memory grows (a detached buffer takes nothing), so a round that
    // makes no progress is tried again, and after a few the glue's way is taken.
    let mut bytes: Vec<u8> = Vec::with_capacity(units as usize);
    let mut read = 0u32;
    for _ in 0..4 {
        let rest = if read == 0 {
            text.clone()
        } else {
            text.slice(read, units)
        };
        let room = bytes.capacity() - bytes.len();
        let (Ok(at), Ok(len)) = (
            u32::try_from(bytes.as_ptr() as usize + bytes.len()),
            u32::try_from(room),
        ) else {
            break;
        };
        let memory = wasm_bindgen::memory().unchecked_into::<js_sys::WebAssembly::Memory>();
        let view = js_sys::Uint8Array::new_with_byte_offset_and_length(&memory.buffer(), at, len);
        let done = encoder.encode_into(&rest, &view);
        let written = (done.written() as usize).min(room);
        // SAFETY: the encoder initialised `written` bytes (at most the spare capacity) right
        // after the vector's initialised ones
        unsafe { bytes.set_len(bytes.len() + written) };
        read = read.saturating_add(done.read()).min(units);
        if read == units {
            // SAFETY: `encodeInto` writes UTF-8 (whole code points, lone surrogates as U+FFFD),
            // and each round starts at a code point; wasm-bindgen's own string arguments rely on
            // the same (the glue's `encodeInto`, then `String::from_utf8_unchecked`)
            return Ok(unsafe { String::from_utf8_unchecked(bytes) });
        }
        bytes.reserve((units - read) as usize * 3);
    }
    string_arg(what, value)
}
