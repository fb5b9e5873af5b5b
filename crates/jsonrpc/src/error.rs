//! The JSON-RPC error object and the codes and messages avalanchego uses.

/// `-32700`: the body is not JSON or not a JSON object (gorilla `E_PARSE`).
pub const PARSE_ERROR: i32 = -32700;
/// `-32600`: `jsonrpc` is not `"2.0"` (gorilla `E_INVALID_REQ`).
pub const INVALID_REQUEST: i32 = -32600;
/// `-32000`: every other failure (gorilla `E_SERVER`), including unknown methods and bad params.
pub const SERVER_ERROR: i32 = -32000;

/// avalanchego's message for params that fail to decode (`utils/json/codec.go` `errInvalidArg`).
pub const INVALID_ARG_MESSAGE: &str = "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";
/// avalanchego's message for a method part starting upper-case (`errUppercaseMethod`).
pub const UPPERCASE_METHOD_MESSAGE: &str = "method must start with a non-uppercase letter";

/// An error a method returns; rendered as `{"code":C,"message":M,"data":D}`.
///
/// Handlers normally build it with [`RpcError::server`] (code -32000, `data` null),
/// which is what every avalanchego service error looks like on the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcError {
    /// JSON-RPC error code.
    pub code: i32,
    /// Human-readable message, sent verbatim.
    pub message: String,
    /// Raw JSON for the `data` member; `None` renders as `null`.
    pub data: Option<Vec<u8>>,
    /// Set when the error arose before the method ran (param decoding): gorilla then
    /// omits the `X-Content-Type-Options` header.
    pub(crate) before_call: bool,
}

impl RpcError {
    /// A service error (code -32000, `data` null), as avalanchego returns for every method failure.
    pub fn server(message: impl std::fmt::Display) -> Self {
        Self {
            code: SERVER_ERROR,
            message: message.to_string(),
            data: None,
            before_call: false,
        }
    }

    /// An error with an explicit code and optional raw JSON `data`.
    pub fn with_code(code: i32, message: impl Into<String>, data: Option<Vec<u8>>) -> Self {
        Self {
            code,
            message: message.into(),
            data,
            before_call: false,
        }
    }

    /// avalanchego's error for params that do not decode into the method's arguments.
    pub fn invalid_args() -> Self {
        Self {
            before_call: true,
            ..Self::server(INVALID_ARG_MESSAGE)
        }
    }
}

impl std::fmt::Display for RpcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rpc error {}: {}", self.code, self.message)
    }
}

impl std::error::Error for RpcError {}
