//! Helpers for the rows chain crates store as [`Linear`](crate::Linear) values: the linear
//! codec has no optional values, strings read as owned, or stored enumeration codes, so rows
//! write them with these (an option as a `bool` flag, then the value when present).

use snowline_types::codec::{CodecError, Reader, Writer};

/// Writes `v` as a presence flag, then the value with `f` when present.
pub fn put_opt<T>(w: &mut Writer, v: &Option<T>, f: impl FnOnce(&mut Writer, &T)) {
    match v {
        Some(v) => {
            w.bool(true);
            f(w, v);
        }
        None => w.bool(false),
    }
}

/// Reads what [`put_opt`] wrote, the value with `f`.
pub fn get_opt<T>(
    r: &mut Reader<'_>,
    f: impl FnOnce(&mut Reader<'_>) -> Result<T, CodecError>,
) -> Result<Option<T>, CodecError> {
    if r.bool()? { f(r).map(Some) } else { Ok(None) }
}

/// Reads a string, owned.
pub fn get_string(r: &mut Reader<'_>) -> Result<String, CodecError> {
    r.str().map(str::to_owned)
}

/// Reads a byte string, owned.
pub fn get_bytes(r: &mut Reader<'_>) -> Result<Vec<u8>, CodecError> {
    r.bytes().map(<[u8]>::to_vec)
}

/// The error of a stored code outside its enumeration (`what` names the enumeration).
pub fn bad_code(what: &'static str, code: u8) -> CodecError {
    CodecError::UnknownTypeId {
        type_id: u32::from(code),
        context: what,
    }
}
