//! The TLS side of `https`: rustls (ring) speaking TLS 1.2 and 1.3, trusting Mozilla's roots
//! (`webpki-roots`) and whatever roots the operator adds (a private CA; the tests' own root).

use std::sync::Arc;

use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, RootCertStore};
use tokio_rustls::TlsConnector;

use crate::error::OutboundError;

/// A connector trusting Mozilla's roots and `extra` (DER certificates).
pub(crate) fn connector(extra: &[Vec<u8>]) -> Result<TlsConnector, String> {
    let mut roots = RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    for (i, der) in extra.iter().enumerate() {
        roots
            .add(CertificateDer::from(der.clone()))
            .map_err(|e| format!("trusted root {i} is not a usable certificate: {e}"))?;
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS configuration: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsConnector::from(Arc::new(config)))
}

/// The name a server's certificate must carry: `host` as a DNS name, or its IP address.
pub(crate) fn server_name(host: &str) -> Result<ServerName<'static>, OutboundError> {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    ServerName::try_from(bare.to_owned())
        .map_err(|_| OutboundError::Url(format!("{host:?} is not a name a certificate can carry")))
}
