//! Who calls the Data API and what each request used: the records the REST edge produces and
//! the key and usage stores keep, defined once for both.

/// The spec's API-key header, read by the REST edge and by `node-rpc`.
pub const DATA_API_KEY_HEADER: &str = "x-data-api-key";
/// The real service's API-key header, accepted too (read after [`DATA_API_KEY_HEADER`]).
pub const GLACIER_API_KEY_HEADER: &str = "x-glacier-api-key";

/// Who made a request with a valid, active API key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Caller {
    /// The key's id (never the secret itself): rate-limit key and metering field.
    pub key_id: String,
    /// The organisation owning the key; usage is reported per organisation.
    pub org_id: String,
    /// The rate-limit tier name, e.g. `free` or `pro`.
    pub tier: String,
}

/// What a presented API key resolves to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyLookup {
    /// No key has this secret (or it is malformed): HTTP 401.
    Unknown,
    /// The key exists but is disabled: HTTP 403.
    Disabled,
    /// The key is valid.
    Active(Caller),
}

/// One metered request, as the usage-metrics API aggregates it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageEvent {
    /// When the request arrived, milliseconds since the Unix epoch.
    pub timestamp_ms: u64,
    /// The caller's organisation; empty for anonymous callers.
    pub org_id: String,
    /// The caller's API-key id; empty for anonymous callers.
    pub api_key_id: String,
    /// The route template (e.g. `/v1/chains/{chainId}`), never the concrete path, or `unknown`.
    pub request_path: String,
    /// The HTTP status answered.
    pub response_code: u16,
    /// The value of the route's chain parameter, if it has one (never empty).
    pub chain_id: Option<String>,
    /// The route's request type (`data` or `rpc`).
    pub request_type: String,
    /// Time from arrival to answer, microseconds.
    pub latency_us: u64,
    /// The route weight on success (status below 400), else 0.
    pub credits_used: u32,
    /// The route weight on a client error (4xx), else 0.
    pub credits_wasted: u32,
    /// The client's IP address as the server saw it (the connection's peer); empty if unknown.
    pub ip_address: String,
    /// The request's `Host` header; empty if absent.
    pub host: String,
    /// The request's `User-Agent` header (at most 256 bytes kept); empty if absent.
    pub user_agent: String,
}

/// [`UsageEvent`] with its strings borrowed: what the REST edge records (so recording copies
/// bytes into a queue and allocates nothing) and what aggregation reads from stored bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UsageEventRef<'a> {
    /// When the request arrived, milliseconds since the Unix epoch.
    pub timestamp_ms: u64,
    /// The caller's organisation; empty for anonymous callers.
    pub org_id: &'a str,
    /// The caller's API-key id; empty for anonymous callers.
    pub api_key_id: &'a str,
    /// The route template, never the concrete path, or `unknown`.
    pub request_path: &'a str,
    /// The HTTP status answered.
    pub response_code: u16,
    /// The value of the route's chain parameter, if it has one (never empty).
    pub chain_id: Option<&'a str>,
    /// The route's request type (`data` or `rpc`).
    pub request_type: &'a str,
    /// Time from arrival to answer, microseconds.
    pub latency_us: u64,
    /// The route weight on success (status below 400), else 0.
    pub credits_used: u32,
    /// The route weight on a client error (4xx), else 0.
    pub credits_wasted: u32,
    /// The client's IP address as the server saw it (the connection's peer); empty if unknown.
    pub ip_address: &'a str,
    /// The request's `Host` header; empty if absent.
    pub host: &'a str,
    /// The request's `User-Agent` header (at most 256 bytes kept); empty if absent.
    pub user_agent: &'a str,
}

impl UsageEvent {
    /// A borrowed view of this event.
    pub fn as_ref(&self) -> UsageEventRef<'_> {
        UsageEventRef {
            timestamp_ms: self.timestamp_ms,
            org_id: &self.org_id,
            api_key_id: &self.api_key_id,
            request_path: &self.request_path,
            response_code: self.response_code,
            chain_id: self.chain_id.as_deref(),
            request_type: &self.request_type,
            latency_us: self.latency_us,
            credits_used: self.credits_used,
            credits_wasted: self.credits_wasted,
            ip_address: &self.ip_address,
            host: &self.host,
            user_agent: &self.user_agent,
        }
    }
}

impl UsageEventRef<'_> {
    /// An owned copy.
    pub fn to_event(&self) -> UsageEvent {
        UsageEvent {
            timestamp_ms: self.timestamp_ms,
            org_id: self.org_id.to_owned(),
            api_key_id: self.api_key_id.to_owned(),
            request_path: self.request_path.to_owned(),
            response_code: self.response_code,
            chain_id: self.chain_id.map(str::to_owned),
            request_type: self.request_type.to_owned(),
            latency_us: self.latency_us,
            credits_used: self.credits_used,
            credits_wasted: self.credits_wasted,
            ip_address: self.ip_address.to_owned(),
            host: self.host.to_owned(),
            user_agent: self.user_agent.to_owned(),
        }
    }
}

/// How a metered JSON-RPC call ended: what a success rate and an invalid count are made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CallOutcome {
    /// Answered with a result.
    Success,
    /// Refused as the caller's mistake: a refused key, a malformed request, an unknown method
    /// or path, params that do not decode, or a method's own error.
    Invalid,
    /// The server failed: a timeout, or no capacity.
    Failed,
}
