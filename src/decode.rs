//! Decoding the JSON text of a value from JavaScript (`JSON.stringify` at the wasm boundary) into
//! the core's types, with errors that name the offending field.
//!
//! Text is parsed once into a [`Value`] and every type is read from that: one JSON parser in the
//! wasm for all of them, and each type's deserializer made once, for `&Value` (reading each
//! straight from the text would give each type its own copy of the parser). Internally tagged
//! enums are read through [`tagged`], not serde's `Content` buffer, for the same reason.
//!
//! serde's messages say what was wrong (``invalid type: floating point `1.5`, expected u32``) but
//! not where. On failure the field is found by elimination: the value is decoded again without
//! each field in turn, and the field whose removal makes that error go away is the one named.
//! This runs only on the error path.

use crate::error::{Error, Result};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, SeqAccess, VariantAccess,
    Visitor,
};
use serde::Deserialize;
use serde_json::{Map, Value};

mod value;
pub use value::{read, DeError, Read};

/// At most this many bytes of JSON in one argument (a combat's state, which in version 1 kept up
/// to 100 whole snapshots of its fight).
pub const MAX_JSON_BYTES: usize = 64 << 20;
/// At most this many bytes of JSON in a request, its faces, and the other small arguments
/// (everything but a combat's state and events and a pack's text): a request of the largest
/// legal size is still answered within a frame (bench/run.mjs `limits`), while no real one comes
/// near it (an ICON character with every status is under 1 KB).
pub const MAX_REQUEST_JSON: usize = 1 << 18;
/// Re-decodes tried when looking for the offending field.
const MAX_PROBES: usize = 256;
/// Array elements looked at when looking for the offending field.
const MAX_PROBED_ELEMENTS: usize = 64;

/// Decodes `text` as a `T`; `what` names the argument in errors (`"request"`, `"combat event"`).
pub fn from_json_text<T: DeserializeOwned>(what: &str, text: &str) -> Result<T> {
    from_json_text_within(what, text, MAX_JSON_BYTES)
}

/// [`from_json_text`] of at most `limit` bytes (refused up front, saying the limit).
pub fn from_json_text_within<T: DeserializeOwned>(
    what: &str,
    text: &str,
    limit: usize,
) -> Result<T> {
    if text.len() > limit {
        return Err(Error::request(format!(
            "invalid {what}: it is {} bytes of JSON; the limit is {limit}",
            text.len()
        )));
    }
    from_value(what, &parse(what, text)?)
}

/// `text` as a JSON value: errors say why it is not one.
pub fn parse(what: &str, text: &str) -> Result<Value> {
    let first = match serde_json::from_str::<Value>(text) {
        Ok(v) => return Ok(v),
        Err(e) => e,
    };
    // `JSON.stringify` writes a lone UTF-16 surrogate (half of a cut emoji) as `\udXXX`, which
    // no Rust string holds: it is read as U+FFFD, as `importPack` reads one in a pack's text
    if let Some(mended) = lone_surrogates_replaced(text) {
        return parse(what, &mended);
    }
    // deeper than serde_json reads: say where, as module/core.mjs does for 64 levels
    if first.to_string().starts_with("recursion limit exceeded") {
        if let Some(path) = too_deep(text.as_bytes(), MAX_DEPTH) {
            return Err(Error::request(format!(
                "invalid {what}: `{}`: nested more than {MAX_DEPTH} levels deep",
                crate::error::clip(&render(&path))
            )));
        }
    }
    // not even JSON (the boundary always hands JSON over, so this is a native caller's text)
    Err(Error::request(format!("invalid {what}: {first}")))
}

/// Reads a `T` from a JSON value; `what` names the argument in errors.
pub fn from_value<T: DeserializeOwned>(what: &str, value: &Value) -> Result<T> {
    let message = match read::<T>(value) {
        Ok(v) => return Ok(v),
        Err(e) => e.to_string(),
    };
    // a message that starts with its path was located by the deserializer that refused (a limit
    // on a list at the root): looking for the field again would cost a list past the limit
    // twice over (seconds for 100,000 combatants)
    if message.starts_with('`') {
        return Err(Error::request(format!("invalid {what}: {message}")));
    }
    let decode = |v: &Value| read::<T>(v).err().map(|e| e.to_string());
    Err(Error::request(describe(what, value, &message, &decode)))
}

/// Reads an internally tagged enum (`tag` names the variant) with the deserializer serde derives
/// for it as externally tagged (`#[serde(remote = "Self")]`, which makes it an inherent
/// `deserialize`): the tag is taken out of the map and the enum's visitor sees the variant's
/// name and the other fields as one map. serde's own `#[serde(tag = ...)]` buffers the value in
/// its private `Content` type, which gives every type reachable from the enum a second
/// deserializer. Messages are serde's: ``missing field `type` ``, ``unknown variant `x`, expected
/// one of ...``.
pub fn tagged<'de, D, T>(
    d: D,
    tag: &'static str,
    read: impl FnOnce(Tagged<'_>) -> std::result::Result<T, DeError>,
) -> std::result::Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    let mut fields = Map::deserialize(d)?;
    let Some(name) = fields.remove(tag) else {
        return Err(de::Error::missing_field(tag));
    };
    let fields = Value::Object(fields);
    read(Tagged {
        name: &name,
        fields: &fields,
    })
    .map_err(de::Error::custom)
}

/// An internally tagged value as an externally tagged enum: the tag's value names the variant,
/// the other fields are its content (see [`tagged`]).
pub struct Tagged<'a> {
    name: &'a Value,
    fields: &'a Value,
}

impl<'de> Deserializer<'de> for Tagged<'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, DeError> {
        visitor.visit_enum(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

impl<'a> EnumAccess<'a> for Tagged<'a> {
    type Error = DeError;
    type Variant = Fields<'a>;

    fn variant_seed<V: DeserializeSeed<'a>>(
        self,
        seed: V,
    ) -> std::result::Result<(V::Value, Fields<'a>), DeError> {
        Ok((seed.deserialize(Read(self.name))?, Fields(self.fields)))
    }
}

/// The content of a tagged variant: the fields beside the tag.
pub struct Fields<'a>(&'a Value);

impl<'a> VariantAccess<'a> for Fields<'a> {
    type Error = DeError;

    /// A unit variant ignores the other fields, as serde's internally tagged enums do.
    fn unit_variant(self) -> std::result::Result<(), DeError> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'a>>(
        self,
        seed: T,
    ) -> std::result::Result<T::Value, DeError> {
        seed.deserialize(Read(self.0))
    }
    fn tuple_variant<V: Visitor<'a>>(
        self,
        _len: usize,
        visitor: V,
    ) -> std::result::Result<V::Value, DeError> {
        Read(self.0).deserialize_seq(visitor)
    }
    fn struct_variant<V: Visitor<'a>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> std::result::Result<V::Value, DeError> {
        Read(self.0).deserialize_struct("", fields, visitor)
    }
}

/// Values nest at most this deep in a message's account (module/core.mjs refuses deeper ones).
pub const MAX_DEPTH: usize = 64;

/// A list of at most `max` `what`, refused as soon as it is known to be longer (from its length
/// when the reader knows it, else at the first element past the limit), saying "{holder} at most
/// {max} {what}" (`holder` such as "an ability has").
pub fn at_most<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
    max: usize,
    holder: &'static str,
    what: &'static str,
) -> std::result::Result<Vec<T>, D::Error> {
    struct Bounded<T> {
        max: usize,
        holder: &'static str,
        what: &'static str,
        items: std::marker::PhantomData<T>,
    }
    impl<'de, T: Deserialize<'de>> Visitor<'de> for Bounded<T> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "a list of {}", self.what)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Vec<T>, A::Error> {
            let too_many = || {
                de::Error::custom(format!(
                    "{} at most {} {}",
                    self.holder, self.max, self.what
                ))
            };
            if seq.size_hint().is_some_and(|n| n > self.max) {
                return Err(too_many());
            }
            let mut out = Vec::new();
            while let Some(item) = seq.next_element()? {
                if out.len() >= self.max {
                    return Err(too_many());
                }
                out.push(item);
            }
            Ok(out)
        }
    }
    d.deserialize_seq(Bounded {
        max,
        holder,
        what,
        items: std::marker::PhantomData,
    })
}

/// The path to the first value nested deeper than `limit` in JSON `text`, if any: a scan that
/// tracks each open container's current key or index (keys as written, escapes and all).
fn too_deep(text: &[u8], limit: usize) -> Option<Vec<Step>> {
    let mut open: Vec<Step> = Vec::new();
    // inside an object, the next string is a key
    let mut key_next = false;
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'"' => {
                let start = i + 1;
                i = start;
                while i < text.len() && text[i] != b'"' {
                    i += if text[i] == b'\\' { 2 } else { 1 };
                }
                if key_next {
                    let key = String::from_utf8_lossy(&text[start..i.min(text.len())]);
                    if let Some(Step::Key(k)) = open.last_mut() {
                        *k = key.into_owned();
                    }
                }
            }
            c @ (b'{' | b'[') => {
                if open.len() >= limit {
                    return Some(open);
                }
                open.push(if c == b'{' {
                    Step::Key(String::new())
                } else {
                    Step::Index(0)
                });
                key_next = c == b'{';
            }
            b'}' | b']' => {
                open.pop();
                key_next = false;
            }
            b',' => match open.last_mut() {
                Some(Step::Index(n)) => *n += 1,
                Some(Step::Key(_)) => key_next = true,
                None => {}
            },
            b':' => key_next = false,
            _ => {}
        }
        i += 1;
    }
    None
}

/// `text` with every `\uXXXX` escape of a lone surrogate written as `\ufffd`, or `None` when it
/// has none.
fn lone_surrogates_replaced(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let unit = |at: usize| -> Option<u16> {
        let hex = bytes.get(at..at + 6)?;
        if hex[0] != b'\\' || hex[1] != b'u' {
            return None;
        }
        u16::from_str_radix(std::str::from_utf8(&hex[2..]).ok()?, 16).ok()
    };
    let mut out: Option<String> = None;
    let (mut i, mut copied) = (0, 0);
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let Some(u) = unit(i) else {
            i += 2; // another escape (`\\`, `\"`, ...), never the start of one
            continue;
        };
        let paired = (0xD800..0xDC00).contains(&u)
            && unit(i + 6).is_some_and(|low| (0xDC00..0xE000).contains(&low));
        if paired {
            i += 12;
        } else if (0xD800..0xE000).contains(&u) {
            let o = out.get_or_insert_with(|| String::with_capacity(text.len()));
            o.push_str(&text[copied..i]);
            o.push_str("\\ufffd");
            i += 6;
            copied = i;
        } else {
            i += 6;
        }
    }
    let mut o = out?;
    o.push_str(&text[copied..]);
    Some(o)
}

/// `invalid {what}: `field`: {serde's message}`.
fn describe(what: &str, value: &Value, message: &str, decode: Decode) -> String {
    // these name their field (or variant) themselves
    let named = ["missing field", "unknown field", "duplicate field"];
    if named.iter().any(|n| message.starts_with(n)) {
        return format!("invalid {what}: {message}");
    }
    let mut probes = 0;
    let mut path = locate(value, &mut Vec::new(), message, decode, &mut probes);
    // the container itself is wrong: when it is about a variant, its tag is (`{"kind": 5}`)
    if message.contains("variant") {
        if let Some(Value::Object(m)) = at(value, &path) {
            if let Some(tag) = TAGS.iter().find(|t| m.contains_key(**t)) {
                path.push(Step::Key(tag.to_string()));
            }
        }
    }
    match path {
        path if !path.is_empty() => format!(
            "invalid {what}: `{}`: {message}",
            crate::error::clip(&render(&path))
        ),
        _ => format!("invalid {what}: {message}"),
    }
}

/// The fields that tag the core's internally tagged enums (requests, reducer events, table
/// lookups): always kept while eliminating, since without them nothing else can be read.
const TAGS: [&str; 3] = ["kind", "type", "table"];

fn is_tag(key: &str) -> bool {
    TAGS.contains(&key)
}

/// Decodes a value as the type being decoded: its error message, or `None` when it decodes. The
/// elimination below is written once against this, not once per type.
type Decode<'a> = &'a dyn Fn(&Value) -> Option<String>;

#[derive(Debug, Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn render(path: &[Step]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(k) if out.is_empty() => out.push_str(k),
            Step::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

fn at<'a>(value: &'a Value, path: &[Step]) -> Option<&'a Value> {
    let mut v = value;
    for step in path {
        v = match (step, v) {
            (Step::Key(k), Value::Object(m)) => m.get(k)?,
            (Step::Index(i), Value::Array(a)) => a.get(*i)?,
            _ => return None,
        };
    }
    Some(v)
}

/// Whether the value with the container at `path` cut down to its first `keep` children (tags
/// always kept) still fails with `message`. serde reads a map's entries and an array's elements
/// in order and stops at the first bad one, so the first `keep` that reproduces the message ends
/// with the offending child.
fn reproduces(root: &Value, path: &[Step], keep: usize, message: &str, decode: Decode) -> bool {
    pruned(root, path, keep).is_some_and(|probe| decode(&probe).is_some_and(|m| m == message))
}

/// A copy of `value` with the container at `path` cut to its first `keep` children, and each
/// container on the way cut after the child the path goes through ([`locate`] only goes into a
/// child once the children up to it reproduce the message). Only what is kept is copied: a probe
/// into a list of 100,000 combatants copies a few elements, not the list.
fn pruned(value: &Value, path: &[Step], keep: usize) -> Option<Value> {
    // the tags and the first `keep` other entries, in order; `through`'s value replaced
    let entries =
        |m: &serde_json::Map<String, Value>, keep: usize, mut through: Option<(&str, Value)>| {
            let mut seen = 0;
            let mut out = serde_json::Map::new();
            for (k, v) in m {
                if !is_tag(k) {
                    if seen == keep {
                        continue;
                    }
                    seen += 1;
                }
                let v = match through.take_if(|(key, _)| key == k) {
                    Some((_, child)) => child,
                    None => v.clone(),
                };
                out.insert(k.clone(), v);
            }
            out
        };
    let Some((step, rest)) = path.split_first() else {
        return match value {
            Value::Object(m) => Some(Value::Object(entries(m, keep, None))),
            Value::Array(a) => Some(Value::Array(a[..keep.min(a.len())].to_vec())),
            _ => None,
        };
    };
    match (step, value) {
        (Step::Key(k), Value::Object(m)) => {
            let child = pruned(m.get(k)?, rest, keep)?;
            let upto = m
                .keys()
                .filter(|key| !is_tag(key))
                .position(|key| key == k)?
                + 1;
            Some(Value::Object(entries(m, upto, Some((k, child)))))
        }
        (Step::Index(i), Value::Array(a)) => {
            let child = pruned(a.get(*i)?, rest, keep)?;
            let mut out = a[..*i].to_vec();
            out.push(child);
            Some(Value::Array(out))
        }
        _ => None,
    }
}

/// The path of the field that `message` is about, as deep as elimination can tell.
fn locate(
    root: &Value,
    path: &mut Vec<Step>,
    message: &str,
    decode: Decode,
    probes: &mut usize,
) -> Vec<Step> {
    let children: Vec<Step> = match at(root, path) {
        Some(Value::Object(m)) => m
            .keys()
            .filter(|k| !is_tag(k))
            .map(|k| Step::Key(k.clone()))
            .collect(),
        Some(Value::Array(a)) => (0..a.len()).map(Step::Index).collect(),
        _ => return path.clone(),
    };
    // the container itself is wrong (an unknown `kind`): its tags alone fail the same way
    if reproduces(root, path, 0, message, decode) {
        return path.clone();
    }
    for (i, step) in children.into_iter().enumerate() {
        if *probes >= MAX_PROBES || i >= MAX_PROBED_ELEMENTS {
            break;
        }
        *probes += 1;
        if reproduces(root, path, i + 1, message, decode) {
            path.push(step);
            return locate(root, path, message, decode, probes);
        }
    }
    path.clone()
}

/// `impl Deserialize` for an internally tagged enum whose derive says `#[serde(remote = "Self")]`
/// instead of `tag = "..."`, read through [`tagged`].
#[macro_export]
macro_rules! deserialize_tagged {
    ($ty:ty, $tag:literal) => {
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(
                d: D,
            ) -> std::result::Result<Self, D::Error> {
                $crate::decode::tagged(d, $tag, |t| <$ty>::deserialize(t))
            }
        }
    };
}
