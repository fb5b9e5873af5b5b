//! `typed_enum!`: an interface value of the linear codec, `u32 type id | body`, as a Rust enum that
//! accepts only the listed type ids at that position (so hostile nesting cannot recurse). Both
//! VMs declare their enums with it, each with its own type ids.

/// Declares `enum $name { $var($ty), ... }` with `type_id()`, `Decode` (an unknown id is
/// `CodecError::UnknownTypeId` naming `$what`), `Encode` and `MinSize` (4: the type id).
macro_rules! typed_enum {
    (
        $(#[$m:meta])* $name:ident, $what:literal,
        { $( $(#[$vm:meta])* $var:ident($ty:ty) = $id:path; )+ }
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vm])* $var($ty), )+
        }

        impl $name {
            /// The codec type id of this value.
            pub fn type_id(&self) -> u32 {
                match self { $( Self::$var(_) => $id, )+ }
            }
        }

        impl $crate::codec::Decode for $name {
            fn decode(
                r: &mut $crate::codec::Reader<'_>,
            ) -> Result<Self, $crate::codec::CodecError> {
                match r.u32()? {
                    $( $id => Ok(Self::$var(<$ty as $crate::codec::Decode>::decode(r)?)), )+
                    type_id => Err($crate::codec::CodecError::UnknownTypeId {
                        type_id,
                        context: $what,
                    }),
                }
            }
        }

        impl $crate::codec::Encode for $name {
            fn encode(&self, w: &mut $crate::codec::Writer) {
                w.u32(self.type_id());
                match self { $( Self::$var(v) => $crate::codec::Encode::encode(v, w), )+ }
            }
        }

        impl $crate::codec::MinSize for $name {
            const MIN_SIZE: usize = 4;
        }
    };
}

pub(crate) use typed_enum;
