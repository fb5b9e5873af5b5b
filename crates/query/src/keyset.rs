//! Keyset positions as typed values: a listing's position is a tuple of key parts (integers,
//! 20- and 32-byte ids), written and read back by one codec, so every listing's page token carries the
//! same layout as [`PositionWriter`] documents (integers as u64 big-endian, ids raw).

use snowline_types::Id;

use crate::position::{PositionReader, PositionWriter};

/// A part of a keyset position (or a whole one: a tuple of parts).
pub trait Keyset: Sized {
    /// Appends it to a position.
    fn write(&self, w: &mut PositionWriter);
    /// Reads it back; `None` when the bytes are short or the value does not fit.
    fn read(r: &mut PositionReader<'_>) -> Option<Self>;
}

impl Keyset for u64 {
    fn write(&self, w: &mut PositionWriter) {
        w.u64(*self);
    }
    fn read(r: &mut PositionReader<'_>) -> Option<Self> {
        r.u64().ok()
    }
}

/// Narrow integers are written as u64 and must fit when read back.
macro_rules! narrow {
    ($($t:ty),*) => {$(
        impl Keyset for $t {
            fn write(&self, w: &mut PositionWriter) {
                w.u64(u64::from(*self));
            }
            fn read(r: &mut PositionReader<'_>) -> Option<Self> {
                <$t>::try_from(r.u64().ok()?).ok()
            }
        }
    )*};
}
narrow!(u32, u8);

impl Keyset for [u8; 32] {
    fn write(&self, w: &mut PositionWriter) {
        w.bytes32(self);
    }
    fn read(r: &mut PositionReader<'_>) -> Option<Self> {
        r.bytes32().ok()
    }
}

impl Keyset for [u8; 20] {
    fn write(&self, w: &mut PositionWriter) {
        w.bytes20(self);
    }
    fn read(r: &mut PositionReader<'_>) -> Option<Self> {
        r.bytes20().ok()
    }
}

impl Keyset for Id {
    fn write(&self, w: &mut PositionWriter) {
        w.bytes32(&self.0);
    }
    fn read(r: &mut PositionReader<'_>) -> Option<Self> {
        r.bytes32().ok().map(Id)
    }
}

macro_rules! tuple {
    ($($p:ident),+) => {
        impl<$($p: Keyset),+> Keyset for ($($p,)+) {
            #[allow(non_snake_case)]
            fn write(&self, w: &mut PositionWriter) {
                let ($($p,)+) = self;
                $($p.write(w);)+
            }
            fn read(r: &mut PositionReader<'_>) -> Option<Self> {
                Some(($($p::read(r)?,)+))
            }
        }
    };
}
tuple!(A, B);
tuple!(A, B, C);
tuple!(A, B, C, D);

/// A position as page-token bytes.
pub fn encode_position<P: Keyset>(position: &P) -> Vec<u8> {
    let mut w = PositionWriter::new();
    position.write(&mut w);
    w.into_bytes()
}

/// Page-token bytes back to a position; `None` when they are not one of this shape (short,
/// long, or a part out of range): a token of another listing.
pub fn decode_position<P: Keyset>(bytes: &[u8]) -> Option<P> {
    let mut r = PositionReader::new(bytes);
    let p = P::read(&mut r)?;
    r.finish().ok()?;
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_is_the_writers() {
        let p = (7u64, Id([3; 32]));
        let mut w = PositionWriter::new();
        w.u64(7).bytes32(&[3; 32]);
        assert_eq!(encode_position(&p), w.into_bytes());
        assert_eq!(decode_position::<(u64, Id)>(&encode_position(&p)), Some(p));
    }

    #[test]
    fn narrow_parts_round_trip_and_refuse_what_does_not_fit() {
        let p = (9u64, 4u32, 2u8);
        assert_eq!(decode_position(&encode_position(&p)), Some(p));
        let wide = encode_position(&(9u64, u64::from(u32::MAX) + 1, 2u64));
        assert_eq!(decode_position::<(u64, u32, u8)>(&wide), None);
        let wide = encode_position(&(9u64, 4u64, 256u64));
        assert_eq!(decode_position::<(u64, u32, u8)>(&wide), None);
    }

    #[test]
    fn other_shapes_are_refused() {
        let p = encode_position(&(1u64, [5u8; 32]));
        assert_eq!(decode_position::<(u64, [u8; 32])>(&p), Some((1, [5; 32])));
        assert_eq!(decode_position::<u64>(&p), None);
        assert_eq!(decode_position::<(u64, [u8; 32], u64)>(&p), None);
        assert_eq!(decode_position::<(u64, u64)>(&[0; 7]), None);
    }
}
