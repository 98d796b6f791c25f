//! A serialisable value written as a flat run of numbers, for the wasm boundary: `roll` hands a
//! rule's outcome to JS this way, and `module/dice/flat-outcome.mjs` builds the object from the
//! numbers. Writing numbers and reading them back is several times quicker than JSON both ways
//! (formatting in wasm, `JSON.parse` in JS), which cost more than the roll itself.
//!
//! Every value starts with a tag: [`NULL`], [`FALSE`], [`TRUE`], [`NUM`] then the number,
//! [`STR`] then a string's number in the [`Strings`] table, [`TEXT`] then a length and that many
//! UTF-16 code units (a string the table has no room for), [`ARR`] then a length and the
//! elements, [`OBJ`] then a length and that many (key, value) pairs, each key a [`STR`] or
//! [`TEXT`]. Everything is JSON's data model, as `serde_json` would write it: unit variants as
//! their names, other variants as `{name: value}`, maps with string keys.

use crate::fxhash::FxBuild;
use serde::ser::{self, Serialize};
use std::collections::HashMap;
use std::fmt;

pub const NULL: f64 = 0.0;
pub const FALSE: f64 = 1.0;
pub const TRUE: f64 = 2.0;
pub const NUM: f64 = 3.0;
pub const STR: f64 = 4.0;
pub const ARR: f64 = 5.0;
pub const OBJ: f64 = 6.0;
pub const TEXT: f64 = 7.0;

/// At most this many strings are numbered; later ones are written out in full.
pub const MAX_STRINGS: usize = 4096;

/// The strings written so far, numbered in order: JS keeps the same list (it asks for the ones
/// it has not seen), so field names and the usual values cross once.
#[derive(Debug)]
pub struct Strings {
    ids: HashMap<Box<str>, u32, FxBuild>,
    list: Vec<Box<str>>,
    /// Field and variant names (`&'static str`) by address: the same name is the same address,
    /// so most strings are found without hashing their text. `(address, length, number)`.
    statics: [(usize, usize, u32); STATIC_SLOTS],
}

const STATIC_SLOTS: usize = 256;

impl Default for Strings {
    fn default() -> Self {
        Self {
            ids: HashMap::default(),
            list: Vec::new(),
            statics: [(0, 0, 0); STATIC_SLOTS],
        }
    }
}

impl Strings {
    /// How many strings are numbered.
    pub fn len(&self) -> usize {
        self.list.len()
    }
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
    /// The strings numbered from `from` on.
    pub fn since(&self, from: usize) -> &[Box<str>] {
        self.list.get(from..).unwrap_or(&[])
    }

    /// [`Strings::id`] of a name known for the whole run, looked up by its address first.
    fn static_id(&mut self, s: &'static str) -> Option<u32> {
        let (at, len) = (s.as_ptr() as usize, s.len());
        let slot = ((at >> 2) ^ (at >> 10)) % STATIC_SLOTS;
        let (a, l, id) = self.statics[slot];
        if a == at && l == len {
            return Some(id);
        }
        let id = self.id(s)?;
        self.statics[slot] = (at, len, id);
        Some(id)
    }

    fn id(&mut self, s: &str) -> Option<u32> {
        if let Some(id) = self.ids.get(s) {
            return Some(*id);
        }
        if self.list.len() >= MAX_STRINGS {
            return None;
        }
        let id = self.list.len() as u32;
        self.ids.insert(s.into(), id);
        self.list.push(s.into());
        Some(id)
    }
}

/// A value that cannot be written (only a map key that is not a string or number).
#[derive(Debug)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

/// Writes `value` onto the end of `out`.
pub fn write<T: Serialize + ?Sized>(
    value: &T,
    out: &mut Vec<f64>,
    strings: &mut Strings,
) -> Result<(), Error> {
    value.serialize(&mut Tape { out, strings })
}

/// The writer; `&mut Tape` is the serde serializer.
pub struct Tape<'a> {
    out: &'a mut Vec<f64>,
    strings: &'a mut Strings,
}

impl<'a> Tape<'a> {
    fn string(&mut self, s: &str) {
        let id = self.strings.id(s);
        self.numbered(s, id);
    }
    /// A field or variant name.
    fn name(&mut self, s: &'static str) {
        let id = self.strings.static_id(s);
        self.numbered(s, id);
    }
    fn numbered(&mut self, s: &str, id: Option<u32>) {
        match id {
            Some(id) => self.out.extend([STR, f64::from(id)]),
            None => {
                let at = self.out.len();
                self.out.extend([TEXT, 0.0]);
                self.out.extend(s.encode_utf16().map(f64::from));
                self.out[at + 1] = (self.out.len() - at - 2) as f64;
            }
        }
    }
    /// A container's tag and a length filled in by [`Open::end`].
    fn open<'t>(&'t mut self, tag: f64) -> Open<'t, 'a> {
        let at = self.out.len();
        self.out.extend([tag, 0.0]);
        Open {
            tape: self,
            at,
            len: 0,
        }
    }
    fn num(&mut self, v: f64) {
        self.out.extend([NUM, v]);
    }
}

/// An array or object being written.
pub struct Open<'t, 'a> {
    tape: &'t mut Tape<'a>,
    at: usize,
    len: usize,
}

impl Open<'_, '_> {
    fn end(self) {
        self.tape.out[self.at + 1] = self.len as f64;
    }
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.len += 1;
        value.serialize(&mut *self.tape)
    }
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        self.len += 1;
        self.tape.name(key);
        value.serialize(&mut *self.tape)
    }
}

/// `{variant: value}` around a non-unit enum variant, as JSON writes it.
pub struct Variant<'t, 'a> {
    outer: Open<'t, 'a>,
}

impl<'t, 'a> ser::Serializer for &'t mut Tape<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Open<'t, 'a>;
    type SerializeTuple = Open<'t, 'a>;
    type SerializeTupleStruct = Open<'t, 'a>;
    type SerializeTupleVariant = Variant<'t, 'a>;
    type SerializeMap = Open<'t, 'a>;
    type SerializeStruct = Open<'t, 'a>;
    type SerializeStructVariant = Variant<'t, 'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.out.push(if v { TRUE } else { FALSE });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.serialize_f64(v as f64)
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.serialize_f64(v as f64)
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        // JSON has no NaN or infinities: serde_json writes them as null
        if v.is_finite() {
            self.num(v);
        } else {
            self.out.push(NULL);
        }
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.string(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        let mut a = self.open(ARR);
        for b in v {
            a.element(b)?;
        }
        a.end();
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.out.push(NULL);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.push(NULL);
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.name(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        let mut o = self.open(OBJ);
        o.field(variant, value)?;
        o.end();
        Ok(())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Open<'t, 'a>, Error> {
        Ok(self.open(ARR))
    }
    fn serialize_tuple(self, _: usize) -> Result<Open<'t, 'a>, Error> {
        Ok(self.open(ARR))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Open<'t, 'a>, Error> {
        Ok(self.open(ARR))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Variant<'t, 'a>, Error> {
        Ok(Variant {
            outer: self.variant(variant, ARR),
        })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Open<'t, 'a>, Error> {
        Ok(self.open(OBJ))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Open<'t, 'a>, Error> {
        Ok(self.open(OBJ))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Variant<'t, 'a>, Error> {
        Ok(Variant {
            outer: self.variant(variant, OBJ),
        })
    }
}

impl<'a> Tape<'a> {
    /// `{variant: <tag> ...}`: the outer object, whose one value is the container opened here;
    /// [`Variant`] counts that container's entries in the outer record's place.
    fn variant<'t>(&'t mut self, variant: &'static str, tag: f64) -> Open<'t, 'a> {
        self.out.extend([OBJ, 1.0]);
        self.name(variant);
        self.open(tag)
    }
}

impl ser::SerializeSeq for Open<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        Open::end(self);
        Ok(())
    }
}

impl ser::SerializeTuple for Open<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        Open::end(self);
        Ok(())
    }
}

impl ser::SerializeTupleStruct for Open<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        Open::end(self);
        Ok(())
    }
}

impl ser::SerializeTupleVariant for Variant<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.outer.element(value)
    }
    fn end(self) -> Result<(), Error> {
        self.outer.end();
        Ok(())
    }
}

impl ser::SerializeMap for Open<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.len += 1;
        key.serialize(KeyWriter(&mut *self.tape))
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.tape)
    }
    fn end(self) -> Result<(), Error> {
        Open::end(self);
        Ok(())
    }
}

impl ser::SerializeStruct for Open<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), Error> {
        Open::end(self);
        Ok(())
    }
}

impl ser::SerializeStructVariant for Variant<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.outer.field(key, value)
    }
    fn end(self) -> Result<(), Error> {
        self.outer.end();
        Ok(())
    }
}

/// A map key: a string, or a number written as JSON writes it (as its decimal text).
struct KeyWriter<'t, 'a>(&'t mut Tape<'a>);

impl KeyWriter<'_, '_> {
    fn text(self, s: &str) -> Result<(), Error> {
        self.0.string(s);
        Ok(())
    }
    fn refuse(what: &str) -> Error {
        Error(format!("a map key must be a string, not {what}"))
    }
}

macro_rules! number_keys {
    ($($method:ident: $t:ty),*) => {
        $(fn $method(self, v: $t) -> Result<(), Error> {
            self.text(&v.to_string())
        })*
    };
}

impl ser::Serializer for KeyWriter<'_, '_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    number_keys!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64);

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.text(v)
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.text(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.text(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_bool(self, _: bool) -> Result<(), Error> {
        Err(Self::refuse("a boolean"))
    }
    fn serialize_f32(self, _: f32) -> Result<(), Error> {
        Err(Self::refuse("a float"))
    }
    fn serialize_f64(self, _: f64) -> Result<(), Error> {
        Err(Self::refuse("a float"))
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Error> {
        Err(Self::refuse("bytes"))
    }
    fn serialize_none(self) -> Result<(), Error> {
        Err(Self::refuse("null"))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Error> {
        Err(Self::refuse("an option"))
    }
    fn serialize_unit(self) -> Result<(), Error> {
        Err(Self::refuse("null"))
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        Err(Self::refuse("null"))
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(Self::refuse("an enum"))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(Self::refuse("an array"))
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Error> {
        Err(Self::refuse("an array"))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(Self::refuse("an array"))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(Self::refuse("an enum"))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(Self::refuse("an object"))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Error> {
        Err(Self::refuse("an object"))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(Self::refuse("an object"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use serde_json::{json, Map, Value};

    /// Reads a tape back the way module/dice/flat-outcome.mjs does.
    fn read(t: &[f64], i: &mut usize, strings: &Strings) -> Value {
        let tag = t[*i];
        *i += 1;
        let mut next = || {
            *i += 1;
            t[*i - 1]
        };
        match tag {
            NULL => Value::Null,
            FALSE => json!(false),
            TRUE => json!(true),
            NUM => {
                // as JS reads it back: one number type, integers printed as integers
                let v = next();
                if v.fract() == 0.0 {
                    json!(v as i64)
                } else {
                    json!(v)
                }
            }
            STR => json!(&*strings.list[next() as usize]),
            TEXT => {
                let n = next() as usize;
                let units: Vec<u16> = (0..n).map(|_| next() as u16).collect();
                json!(String::from_utf16_lossy(&units))
            }
            ARR => {
                let n = next() as usize;
                Value::Array((0..n).map(|_| read(t, i, strings)).collect())
            }
            OBJ => {
                let n = next() as usize;
                let mut m = Map::new();
                for _ in 0..n {
                    let Value::String(k) = read(t, i, strings) else {
                        panic!("a key that is not a string")
                    };
                    m.insert(k, read(t, i, strings));
                }
                Value::Object(m)
            }
            other => panic!("tag {other}"),
        }
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Inner {
        hit: Option<bool>,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<i64>,
        kept: Vec<i64>,
    }

    #[derive(Serialize)]
    enum Shape {
        Unit,
        New(i64),
        Tuple(i64, String),
        Fields { a: u8 },
    }

    #[derive(Serialize)]
    struct Outer {
        #[serde(flatten)]
        inner: Inner,
        text: String,
        shapes: Vec<Shape>,
        map: std::collections::BTreeMap<i64, f64>,
        nan: f64,
    }

    #[test]
    fn reads_back_as_serde_json_writes_it() {
        let value = Outer {
            inner: Inner {
                hit: None,
                skipped: None,
                kept: vec![3, -4, 1 << 52],
            },
            text: "Ærø 😀 \"q\"".into(),
            shapes: vec![
                Shape::Unit,
                Shape::New(7),
                Shape::Tuple(1, "x".into()),
                Shape::Fields { a: 9 },
            ],
            map: [(1, 0.5), (-2, 0.25)].into_iter().collect(),
            nan: f64::NAN,
        };
        let mut strings = Strings::default();
        for _ in 0..2 {
            let mut out = Vec::new();
            write(&value, &mut out, &mut strings).unwrap();
            let mut i = 0;
            assert_eq!(
                read(&out, &mut i, &strings),
                serde_json::to_value(&value).unwrap()
            );
            assert_eq!(i, out.len(), "every number read");
        }
        // the second time, every string was already numbered
        assert_eq!(strings.since(0).len(), strings.list.len());
    }

    #[test]
    fn strings_past_the_table_are_written_out() {
        let mut strings = Strings::default();
        let many: Vec<String> = (0..MAX_STRINGS + 10).map(|i| format!("s{i}")).collect();
        let mut out = Vec::new();
        write(&many, &mut out, &mut strings).unwrap();
        assert_eq!(strings.list.len(), MAX_STRINGS);
        let mut i = 0;
        assert_eq!(read(&out, &mut i, &strings), json!(many));
        assert!(strings.since(MAX_STRINGS).is_empty() && strings.since(MAX_STRINGS + 5).is_empty());
    }
}
