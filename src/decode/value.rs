//! Reading a type from a parsed JSON [`Value`]: the deserializer every decode goes through, with
//! an error type of the core's own.
//!
//! serde_json's own `&Value` deserializer reports a wrong type through `serde_json::Error`,
//! whose message falls back on serde's `Unexpected` `Display`; that one formats a float with
//! `f64`'s `Display`, which links all of core's float printing (Grisu and Dragon4, ~17 KB of
//! wasm) into the client core for an error message. This one reads the same values the same way
//! (each method takes the JSON types serde_json's takes and refuses the rest up front) and writes
//! the same messages (``invalid type: string "ten", expected i64``), a float's digits through
//! serde_json's own writer: the client core is ~8.7 KB smaller by gzip -9 (tests/decode.rs holds
//! the two to the same answers). One difference: a struct is read from an object only, where
//! serde_json also takes an array of its fields in order. Nothing sends the core a struct so, and
//! without it no struct's `visit_seq` is in the wasm (~11.8 KB gzip -9).

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, Expected, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};
use serde_json::{Map, Number, Value};
use std::fmt;

/// A decode error: serde's message, as serde_json would write it. Boxed, one pointer, as
/// serde_json's error is: every `Result` a deserializer passes up stays as small as its value
/// (a `String` here made the decoders' code ~10 KB larger).
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(clippy::box_collection)] // one pointer on purpose, above
pub struct DeError(Box<String>);

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError(Box::new(msg.to_string()))
    }
    #[cold]
    fn invalid_type(unexp: Unexpected, exp: &dyn Expected) -> Self {
        DeError(Box::new(format!(
            "invalid type: {}, expected {exp}",
            Shown(unexp)
        )))
    }
    #[cold]
    fn invalid_value(unexp: Unexpected, exp: &dyn Expected) -> Self {
        DeError(Box::new(format!(
            "invalid value: {}, expected {exp}",
            Shown(unexp)
        )))
    }
}

/// An [`Unexpected`] as serde writes it (`null` for a unit, as serde_json writes it), with no
/// `f64` `Display`.
struct Shown<'a>(Unexpected<'a>);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.0 {
            Unexpected::Bool(b) => write!(f, "boolean `{b}`"),
            Unexpected::Unsigned(n) => write!(f, "integer `{n}`"),
            Unexpected::Signed(n) => write!(f, "integer `{n}`"),
            Unexpected::Float(x) => write!(f, "floating point `{}`", float(x)),
            Unexpected::Char(c) => write!(f, "character `{c}`"),
            Unexpected::Str(s) => write!(f, "string {s:?}"),
            Unexpected::Bytes(_) => f.write_str("byte array"),
            Unexpected::Unit => f.write_str("null"),
            Unexpected::Option => f.write_str("Option value"),
            Unexpected::NewtypeStruct => f.write_str("newtype struct"),
            Unexpected::Seq => f.write_str("sequence"),
            Unexpected::Map => f.write_str("map"),
            Unexpected::Enum => f.write_str("enum"),
            Unexpected::UnitVariant => f.write_str("unit variant"),
            Unexpected::NewtypeVariant => f.write_str("newtype variant"),
            Unexpected::TupleVariant => f.write_str("tuple variant"),
            Unexpected::StructVariant => f.write_str("struct variant"),
            Unexpected::Other(other) => f.write_str(other),
        }
    }
}

/// A float's digits as serde_json writes them (a JSON value's floats are finite).
fn float(x: f64) -> String {
    serde_json::to_string(&x).unwrap_or_default()
}

/// What a value is, for a message.
fn unexpected(v: &Value) -> Unexpected<'_> {
    match v {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (None, Some(i)) => Unexpected::Signed(i),
            _ => Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// Reads a `T` from `value`.
pub fn read<'de, T: de::Deserialize<'de>>(value: &'de Value) -> Result<T, DeError> {
    T::deserialize(Read(value))
}

/// The deserializer of a borrowed JSON value.
#[derive(Clone, Copy)]
pub struct Read<'de>(pub &'de Value);

fn number<'de, V: Visitor<'de>>(n: &Number, visitor: V) -> Result<V::Value, DeError> {
    match (n.as_u64(), n.as_i64()) {
        (Some(u), _) => visitor.visit_u64(u),
        (None, Some(i)) => visitor.visit_i64(i),
        _ => visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
    }
}

/// The value's type does not fit the visitor's.
#[cold]
fn wrong<'de, V: Visitor<'de>>(v: &Value, visitor: &V) -> DeError {
    de::Error::invalid_type(unexpected(v), visitor)
}

fn array<'de, V: Visitor<'de>>(a: &'de [Value], visitor: V) -> Result<V::Value, DeError> {
    let mut seq = Seq(a.iter());
    let out = visitor.visit_seq(&mut seq)?;
    match seq.0.len() {
        0 => Ok(out),
        _ => Err(de::Error::invalid_length(
            a.len(),
            &"fewer elements in array",
        )),
    }
}

fn object<'de, V: Visitor<'de>>(
    m: &'de Map<String, Value>,
    visitor: V,
) -> Result<V::Value, DeError> {
    let mut map = Entries {
        entries: m.iter(),
        value: None,
    };
    let out = visitor.visit_map(&mut map)?;
    match map.entries.len() {
        0 => Ok(out),
        _ => Err(de::Error::invalid_length(m.len(), &"fewer elements in map")),
    }
}

/// Each method reads only the JSON types it can take and refuses the rest up front, as
/// serde_json's does: forwarding everything to `deserialize_any` would give every visitor the
/// code of every JSON type (measured: 22 KB more wasm).
macro_rules! read_numbers {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
                match self.0 {
                    Value::Number(n) => number(n, visitor),
                    other => Err(wrong(other, &visitor)),
                }
            }
        )*
    };
}

macro_rules! read_strings {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
                match self.0 {
                    Value::String(s) => visitor.visit_borrowed_str(s),
                    other => Err(wrong(other, &visitor)),
                }
            }
        )*
    };
}

macro_rules! read_arrays {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
                match self.0 {
                    Value::Array(a) => array(a, visitor),
                    other => Err(wrong(other, &visitor)),
                }
            }
        )*
    };
}

impl<'de> Deserializer<'de> for Read<'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => number(n, visitor),
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(a) => array(a, visitor),
            Value::Object(m) => object(m, visitor),
        }
    }

    read_numbers!(deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64);

    read_strings!(deserialize_char deserialize_str deserialize_string deserialize_identifier);

    read_arrays!(deserialize_seq);

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Value::Bool(b) => visitor.visit_bool(*b),
            other => Err(wrong(other, &visitor)),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            other => Err(wrong(other, &visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Value::Object(m) => object(m, visitor),
            other => Err(wrong(other, &visitor)),
        }
    }

    /// A struct is an object of its fields. (serde_json takes an array of the fields in order
    /// too; nothing the core reads is written so, and refusing it leaves every struct's
    /// `visit_seq` out of the wasm.)
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self.0 {
            Value::Object(m) => object(m, visitor),
            other => Err(wrong(other, &visitor)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    /// A unit variant is its name; any other variant a map of its name to its content.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self.0 {
            Value::String(name) => visitor.visit_enum(Variant { name, value: None }),
            Value::Object(m) => match single(m) {
                Some((name, value)) => visitor.visit_enum(Variant {
                    name,
                    value: Some(value),
                }),
                None => Err(de::Error::invalid_value(
                    Unexpected::Map,
                    &"map with a single key",
                )),
            },
            other => Err(de::Error::invalid_type(unexpected(other), &"string or map")),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(a) => array(a, visitor),
            other => Err(wrong(other, &visitor)),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_bytes(visitor)
    }
}

/// The one entry of a map that has exactly one.
fn single(m: &Map<String, Value>) -> Option<(&str, &Value)> {
    let mut entries = m.iter();
    match (entries.next(), entries.next()) {
        (Some((k, v)), None) => Some((k, v)),
        _ => None,
    }
}

struct Seq<'de>(std::slice::Iter<'de, Value>);

impl<'de> SeqAccess<'de> for Seq<'de> {
    type Error = DeError;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        self.0.next().map(|v| seed.deserialize(Read(v))).transpose()
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct Entries<'de> {
    entries: serde_json::map::Iter<'de>,
    value: Option<&'de Value>,
}

impl<'de> MapAccess<'de> for Entries<'de> {
    type Error = DeError;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        match self.entries.next() {
            Some((key, value)) => {
                self.value = Some(value);
                seed.deserialize(Key(key)).map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        match self.value.take() {
            Some(v) => seed.deserialize(Read(v)),
            None => Err(de::Error::custom("value is missing")),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// A map's key: a string, or a number written in one (`{"4": ...}` for a map keyed by numbers).
struct Key<'de>(&'de str);

impl Key<'_> {
    /// The key as JSON writes an integer: an optional `-`, then `0` or digits without a leading 0.
    fn integer(&self) -> Result<Number, DeError> {
        let digits = self.0.strip_prefix('-').unwrap_or(self.0);
        let well_formed = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'));
        let n = if !well_formed {
            None
        } else if self.0.starts_with('-') {
            self.0.parse::<i64>().ok().map(Number::from)
        } else {
            self.0.parse::<u64>().ok().map(Number::from)
        };
        n.ok_or_else(|| de::Error::custom("expected key to be a number in quotes"))
    }
}

macro_rules! numeric_keys {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
                number(&self.integer()?, visitor)
            }
        )*
    };
}

impl<'de> Deserializer<'de> for Key<'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_borrowed_str(self.0)
    }

    numeric_keys!(deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_u8
        deserialize_u16 deserialize_u32 deserialize_u64);

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        // a key is never null
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_enum(Variant {
            name: self.0,
            value: None,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i128 u128 f32 f64 char str string bytes byte_buf unit unit_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

/// An externally tagged enum's variant: its name, and its content unless it is a unit variant.
struct Variant<'de> {
    name: &'de str,
    value: Option<&'de Value>,
}

impl<'de> EnumAccess<'de> for Variant<'de> {
    type Error = DeError;
    type Variant = Content<'de>;
    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Content<'de>), DeError> {
        let name = de::value::BorrowedStrDeserializer::<DeError>::new(self.name);
        Ok((seed.deserialize(name)?, Content(self.value)))
    }
}

/// A variant's content, as [`VariantAccess`] reads it.
pub struct Content<'de>(Option<&'de Value>);

impl<'de> VariantAccess<'de> for Content<'de> {
    type Error = DeError;
    fn unit_variant(self) -> Result<(), DeError> {
        match self.0 {
            Some(v) => de::Deserialize::deserialize(Read(v)),
            None => Ok(()),
        }
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, DeError> {
        match self.0 {
            Some(v) => seed.deserialize(Read(v)),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"newtype variant",
            )),
        }
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Some(Value::Array(a)) => array(a, visitor),
            Some(other) => Err(de::Error::invalid_type(unexpected(other), &"tuple variant")),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"tuple variant",
            )),
        }
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self.0 {
            Some(Value::Object(m)) => object(m, visitor),
            Some(other) => Err(de::Error::invalid_type(
                unexpected(other),
                &"struct variant",
            )),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"struct variant",
            )),
        }
    }
}
