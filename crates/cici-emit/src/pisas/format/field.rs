//! A field read tolerantly: absent, null, of the type the format gives it,
//! or present with another shape. A task-family seed is imported part by
//! part (a rule or a variable that does not fit is left out with a
//! diagnostic, and the rest is read), so its types hold each part as a
//! [`Field`] and deserializing one never fails: the reader decides, part by
//! part, what a missing or misshapen value means and reports it.

use serde::de::{Deserialize, DeserializeOwned, Deserializer};
use serde_json::Value;

/// One value of a file, as read.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Field<T> {
    /// The key is not there.
    #[default]
    Missing,
    /// The key is there with `null`.
    Null,
    /// The value, of the type the format gives it.
    Ok(T),
    /// A value of another shape, kept for the reader to report.
    Bad(Value),
}

/// Which JSON values may be read as a type at all. serde reads a struct
/// from an array as well as from an object; the format writes its objects
/// as objects, so an array where an object belongs is of another shape.
pub trait Shape {
    fn fits(_: &Value) -> bool {
        true
    }
}

impl Shape for String {}
impl Shape for u64 {}
impl Shape for f64 {}
impl Shape for bool {}
impl<T> Shape for Vec<T> {}
impl<V> Shape for indexmap::IndexMap<String, V> {}
impl<T: Shape> Shape for Box<T> {
    fn fits(v: &Value) -> bool {
        T::fits(v)
    }
}

/// Types read from JSON objects only.
macro_rules! objects {
    ($($t:ty),* $(,)?) => {$(
        impl $crate::pisas::format::field::Shape for $t {
            fn fits(v: &serde_json::Value) -> bool {
                v.is_object()
            }
        }
    )*};
}
pub(crate) use objects;

impl<'de, T: DeserializeOwned + Shape> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(d)?;
        if value.is_null() {
            return Ok(Field::Null);
        }
        if !T::fits(&value) {
            return Ok(Field::Bad(value));
        }
        Ok(match T::deserialize(&value) {
            Ok(t) => Field::Ok(t),
            Err(_) => Field::Bad(value),
        })
    }
}

impl<T> Field<T> {
    /// The value, if it has the format's type.
    pub fn get(&self) -> Option<&T> {
        match self {
            Field::Ok(t) => Some(t),
            _ => None,
        }
    }

    /// Whether the key is there, even with `null`.
    pub fn is_present(&self) -> bool {
        !matches!(self, Field::Missing)
    }

    /// Whether the key is missing or `null`: nothing was said.
    pub fn is_absent(&self) -> bool {
        matches!(self, Field::Missing | Field::Null)
    }
}

impl<T: Default + Clone> Field<T> {
    /// The value; an empty one where the value is absent or of another
    /// shape, so that reading it reports each field it lacks.
    pub fn or_empty(&self) -> std::borrow::Cow<'_, T> {
        match self {
            Field::Ok(t) => std::borrow::Cow::Borrowed(t),
            _ => std::borrow::Cow::Owned(T::default()),
        }
    }
}

impl Field<String> {
    /// The text; empty where the value is not a string.
    pub fn text_or_empty(&self) -> &str {
        self.get().map_or("", String::as_str)
    }

    /// The value as JSON text (`"x"`, `3`, `null`), for a message that
    /// quotes what was given.
    pub fn as_json(&self) -> String {
        match self {
            Field::Ok(s) => Value::String(s.clone()).to_string(),
            Field::Bad(v) => v.to_string(),
            Field::Missing | Field::Null => "null".into(),
        }
    }
}
