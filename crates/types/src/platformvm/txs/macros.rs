//! A declarative helper for P-Chain structs whose fields encode in declaration order.

/// Declares a struct and its linear-codec `Decode`/`Encode`: each field in order, nothing else.
macro_rules! codec_struct {
    (
        $(#[$m:meta])*
        pub struct $name:ident {
            $( $(#[$fm:meta])* pub $f:ident : $t:ty, )+
        }
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name {
            $( $(#[$fm])* pub $f: $t, )+
        }

        impl $crate::codec::Decode for $name {
            fn decode(
                r: &mut $crate::codec::Reader<'_>,
            ) -> Result<Self, $crate::codec::CodecError> {
                Ok(Self { $( $f: <$t as $crate::codec::Decode>::decode(r)?, )+ })
            }
        }

        impl $crate::codec::Encode for $name {
            fn encode(&self, w: &mut $crate::codec::Writer) {
                $( $crate::codec::Encode::encode(&self.$f, w); )+
            }
        }
    };
}
pub(crate) use codec_struct;
