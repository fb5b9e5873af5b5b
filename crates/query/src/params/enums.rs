//! The Data API's enumerated parameters, with their exact wire spellings (the OpenAPI enum lists).

use std::fmt;

use crate::error::ParamError;

/// Defines an enum of wire values with `PARAM`, `ALL`, `as_str`, `parse`, `parse_or`, `Display`.
macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        $name:ident, param = $param:literal,
        { $( $(#[$vmeta:meta])* $variant:ident => $wire:literal ),+ $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// The query parameter this enum is read from.
            pub const PARAM: &'static str = $param;
            /// Every value, in the OpenAPI's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The wire spelling.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $wire, )+
                }
            }

            /// Parses the exact (case-sensitive) wire spelling.
            pub fn parse(raw: &str) -> Result<Self, ParamError> {
                Self::ALL
                    .iter()
                    .copied()
                    .find(|v| v.as_str() == raw)
                    .ok_or_else(|| ParamError::invalid(Self::PARAM, one_of(Self::ALL.iter().map(|v| v.as_str())), raw))
            }

            /// Parses the value when given, `default` when not.
            pub fn parse_or(raw: Option<&str>, default: Self) -> Result<Self, ParamError> {
                raw.map_or(Ok(default), Self::parse)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

/// `must be one of a, b, c`.
pub(crate) fn one_of<'a>(values: impl Iterator<Item = &'a str>) -> String {
    let list: Vec<&str> = values.collect();
    format!("must be one of {}", list.join(", "))
}

wire_enum!(
    /// `sortOrder`: ascending or descending by the endpoint's sort key.
    SortOrder, param = "sortOrder",
    {
        /// Oldest / smallest first.
        Asc => "asc",
        /// Newest / largest first.
        Desc => "desc",
    }
);

impl SortOrder {
    /// The other order.
    pub const fn reverse(self) -> SortOrder {
        match self {
            SortOrder::Asc => SortOrder::Desc,
            SortOrder::Desc => SortOrder::Asc,
        }
    }
}

wire_enum!(
    /// `timeInterval` of the usage metrics (`TimeIntervalGranularityExtended`); bucket arithmetic
    /// in `interval.rs`.
    TimeInterval, param = "timeInterval",
    {
        /// One-minute buckets.
        Minute => "minute",
        /// One-hour buckets.
        Hourly => "hourly",
        /// UTC days.
        Daily => "daily",
        /// Weeks starting Monday 00:00 UTC.
        Weekly => "weekly",
        /// Calendar months, UTC.
        Monthly => "monthly",
    }
);

wire_enum!(
    /// `groupBy` of the usage metrics (`UsageMetricsGroupByEnum`).
    UsageGroupBy, param = "groupBy",
    {
        /// By request path.
        RequestPath => "requestPath",
        /// By HTTP status.
        ResponseCode => "responseCode",
        /// By chain id.
        ChainId => "chainId",
        /// By API key.
        ApiKeyId => "apiKeyId",
        /// By request type (data or rpc).
        RequestType => "requestType",
    }
);

wire_enum!(
    /// `timeInterval` of the RPC usage metrics (`SubnetRpcTimeIntervalGranularity`,
    /// `PrimaryNetworkRpcTimeIntervalGranularity`: the same four values).
    RpcTimeInterval, param = "timeInterval",
    {
        /// One-hour buckets.
        Hourly => "hourly",
        /// UTC days.
        Daily => "daily",
        /// Weeks starting Monday 00:00 UTC.
        Weekly => "weekly",
        /// Calendar months, UTC.
        Monthly => "monthly",
    }
);

wire_enum!(
    /// `groupBy` of the subnet RPC usage metrics (`RpcUsageMetricsGroupByEnum`).
    SubnetRpcGroupBy, param = "groupBy",
    {
        /// By JSON-RPC method.
        RpcMethod => "rpcMethod",
        /// By response code.
        ResponseCode => "responseCode",
        /// By rate-limit bypass token (the API key).
        RlBypassToken => "rlBypassToken",
    }
);

wire_enum!(
    /// `groupBy` of the primary network RPC usage metrics (`PrimaryNetworkRpcMetricsGroupByEnum`).
    PrimaryRpcGroupBy, param = "groupBy",
    {
        /// By JSON-RPC method.
        RpcMethod => "rpcMethod",
        /// By request path.
        RequestPath => "requestPath",
        /// By response code.
        ResponseCode => "responseCode",
        /// By country.
        Country => "country",
        /// By continent.
        Continent => "continent",
        /// By user agent.
        UserAgent => "userAgent",
    }
);

wire_enum!(
    /// `requestType` of the usage metrics (`RequestType`).
    RequestType, param = "requestType",
    {
        /// Data API requests.
        Data => "data",
        /// RPC requests.
        Rpc => "rpc",
    }
);

wire_enum!(
    /// `currency` of prices (`CurrencyCode`).
    Currency, param = "currency",
    {
        /// US dollar (the default).
        Usd => "usd",
        /// Euro.
        Eur => "eur",
        /// Australian dollar.
        Aud => "aud",
        /// Canadian dollar.
        Cad => "cad",
        /// Swiss franc.
        Chf => "chf",
        /// Chilean peso.
        Clp => "clp",
        /// Chinese yuan.
        Cny => "cny",
        /// Czech koruna.
        Czk => "czk",
        /// Danish krone.
        Dkk => "dkk",
        /// Pound sterling.
        Gbp => "gbp",
        /// Hong Kong dollar.
        Hkd => "hkd",
        /// Hungarian forint.
        Huf => "huf",
        /// Japanese yen.
        Jpy => "jpy",
        /// New Zealand dollar.
        Nzd => "nzd",
    }
);

wire_enum!(
    /// `sortBy` of the UTXO listings (`UtxosSortByOption`).
    UtxoSortBy, param = "sortBy",
    {
        /// By creation time.
        Timestamp => "timestamp",
        /// By amount.
        Amount => "amount",
    }
);

wire_enum!(
    /// `feature` of the chain listing (`ApiFeature`).
    ApiFeature, param = "feature",
    {
        /// NFT metadata indexing.
        NftIndexing => "nftIndexing",
        /// Webhooks.
        Webhooks => "webhooks",
        /// Teleporter (ICM) indexing.
        Teleporter => "teleporter",
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks every value round-trips, the spellings are distinct, and near misses fail.
    fn check<T: Copy + PartialEq + fmt::Debug>(
        all: &[T],
        as_str: fn(T) -> &'static str,
        parse: fn(&str) -> Result<T, ParamError>,
    ) {
        let mut seen = std::collections::HashSet::new();
        for &v in all {
            assert_eq!(parse(as_str(v)).unwrap(), v);
            assert!(seen.insert(as_str(v)));
            let upper = as_str(v).to_uppercase();
            assert!(parse(&upper).is_err(), "{upper} accepted");
            assert!(parse(&format!(" {}", as_str(v))).is_err());
        }
        assert!(parse("").is_err());
    }

    #[test]
    fn every_enum_round_trips_its_wire_spellings() {
        check(SortOrder::ALL, SortOrder::as_str, SortOrder::parse);
        check(TimeInterval::ALL, TimeInterval::as_str, TimeInterval::parse);
        check(UsageGroupBy::ALL, UsageGroupBy::as_str, UsageGroupBy::parse);
        check(
            RpcTimeInterval::ALL,
            RpcTimeInterval::as_str,
            RpcTimeInterval::parse,
        );
        check(
            SubnetRpcGroupBy::ALL,
            SubnetRpcGroupBy::as_str,
            SubnetRpcGroupBy::parse,
        );
        check(
            PrimaryRpcGroupBy::ALL,
            PrimaryRpcGroupBy::as_str,
            PrimaryRpcGroupBy::parse,
        );
        check(RequestType::ALL, RequestType::as_str, RequestType::parse);
        check(Currency::ALL, Currency::as_str, Currency::parse);
        check(UtxoSortBy::ALL, UtxoSortBy::as_str, UtxoSortBy::parse);
        check(ApiFeature::ALL, ApiFeature::as_str, ApiFeature::parse);
    }

    #[test]
    fn wire_lists_match_the_openapi() {
        let strs = |all: &[&'static str]| all.join(",");
        assert_eq!(
            strs(&Currency::ALL.iter().map(|c| c.as_str()).collect::<Vec<_>>()),
            "usd,eur,aud,cad,chf,clp,cny,czk,dkk,gbp,hkd,huf,jpy,nzd"
        );
        assert_eq!(
            strs(
                &UsageGroupBy::ALL
                    .iter()
                    .map(|c| c.as_str())
                    .collect::<Vec<_>>()
            ),
            "requestPath,responseCode,chainId,apiKeyId,requestType"
        );
        assert_eq!(
            strs(
                &TimeInterval::ALL
                    .iter()
                    .map(|c| c.as_str())
                    .collect::<Vec<_>>()
            ),
            "minute,hourly,daily,weekly,monthly"
        );
    }

    #[test]
    fn errors_name_the_parameter_and_the_allowed_values() {
        assert_eq!(
            SortOrder::parse("up").unwrap_err().to_string(),
            r#"Invalid sortOrder: must be one of asc, desc, got "up""#
        );
        assert_eq!(
            SortOrder::parse_or(None, SortOrder::Desc),
            Ok(SortOrder::Desc)
        );
        assert_eq!(
            SortOrder::parse_or(Some("asc"), SortOrder::Desc),
            Ok(SortOrder::Asc)
        );
        assert_eq!(SortOrder::Asc.reverse(), SortOrder::Desc);
        assert_eq!(ApiFeature::parse("nft").unwrap_err().param, "feature");
    }
}
