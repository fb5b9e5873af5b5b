//! TLS 1.3 with staking certificates (`network/peer/tls_config.go`): each side presents its
//! self-signed certificate, any certificate is accepted (the identity is its hash, checked by the
//! caller), but the handshake signatures are verified with the presented key.

use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{
    CryptoProvider, WebPkiSupportedAlgorithms, verify_tls13_signature_with_raw_key,
};
use rustls::pki_types::{CertificateDer, ServerName, SubjectPublicKeyInfoDer, UnixTime};
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use rustls::sign::SingleCertAndKey;
use rustls::{
    ClientConfig, DigitallySignedStruct, DistinguishedName, ServerConfig, SignatureScheme,
};
use snowline_types::NodeId;

use crate::error::P2pError;
use crate::identity::StakingIdentity;

/// Largest staking certificate avalanchego parses (`staking.MaxCertificateLen`, 2 KiB).
pub const MAX_CERTIFICATE_LEN: usize = 2 * 1024;

/// The node id of a peer's DER certificate: `ripemd160(sha256(cert))`.
pub fn peer_node_id(cert_der: &[u8]) -> NodeId {
    NodeId::from_cert_der(cert_der)
}

/// Client side: presents `id`, accepts any staking certificate, TLS 1.3 only.
pub fn client_config(id: &StakingIdentity) -> Result<Arc<ClientConfig>, P2pError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = Arc::new(AnyStakingCert::new(&provider));
    let config = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_client_cert_resolver(resolver(id));
    Ok(Arc::new(config))
}

/// Server side: presents `id`, requires a client certificate (any staking certificate), TLS 1.3
/// only.
pub fn server_config(id: &StakingIdentity) -> Result<Arc<ServerConfig>, P2pError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = Arc::new(AnyStakingCert::new(&provider));
    let config = ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])?
        .with_client_cert_verifier(verifier)
        .with_cert_resolver(resolver(id));
    Ok(Arc::new(config))
}

/// The name a client connects with: the peer's IP (no SNI is sent for an address).
pub fn server_name(addr: std::net::SocketAddr) -> ServerName<'static> {
    ServerName::IpAddress(addr.ip().into())
}

/// Always presents `id`'s certificate and key.
fn resolver(id: &StakingIdentity) -> Arc<SingleCertAndKey> {
    Arc::new(SingleCertAndKey::from(id.certified_key()))
}

/// The subject public key info of a staking certificate (any X.509 version, as avalanchego reads
/// it).
fn spki<'a>(cert: &'a CertificateDer<'_>) -> Result<SubjectPublicKeyInfoDer<'a>, rustls::Error> {
    crate::cert::subject_public_key_info(cert)
        .ok_or_else(|| rustls::Error::General("unparseable staking certificate".into()))
}

/// Accepts any certificate up to [`MAX_CERTIFICATE_LEN`] whose public key parses (any X.509
/// version, as `staking.ParseCertificate`) and verifies TLS 1.3 signatures with that key.
#[derive(Debug)]
struct AnyStakingCert {
    algs: WebPkiSupportedAlgorithms,
}

impl AnyStakingCert {
    fn new(provider: &CryptoProvider) -> Self {
        Self {
            algs: provider.signature_verification_algorithms,
        }
    }

    fn check(cert: &CertificateDer<'_>) -> Result<(), rustls::Error> {
        if cert.len() > MAX_CERTIFICATE_LEN {
            return Err(rustls::Error::General(
                "staking certificate over 2 KiB".into(),
            ));
        }
        let spki = spki(cert)?;
        webpki::RawPublicKeyEntity::try_from(&spki)
            .map(|_| ())
            .map_err(|e| rustls::Error::General(format!("unparseable staking certificate: {e}")))
    }

    /// The TLS 1.3 `CertificateVerify` signature checked with the certificate's key.
    fn verify13(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature_with_raw_key(message, &spki(cert)?, dss, &self.algs)
    }

    fn tls12_refused() -> Result<HandshakeSignatureValid, rustls::Error> {
        Err(rustls::Error::General("TLS 1.2 is not accepted".into()))
    }
}

impl ServerCertVerifier for AnyStakingCert {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Self::check(end_entity)?;
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        _message: &[u8],
        _cert: &CertificateDer<'_>,
        _dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        Self::tls12_refused()
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.verify13(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algs.supported_schemes()
    }
}

impl ClientCertVerifier for AnyStakingCert {
    fn offer_client_auth(&self) -> bool {
        true
    }

    fn client_auth_mandatory(&self) -> bool {
        true
    }

    fn root_hint_subjects(&self) -> &[DistinguishedName] {
        &[]
    }

    fn verify_client_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _now: UnixTime,
    ) -> Result<ClientCertVerified, rustls::Error> {
        Self::check(end_entity)?;
        Ok(ClientCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        _message: &[u8],
        _cert: &CertificateDer<'_>,
        _dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        Self::tls12_refused()
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.verify13(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algs.supported_schemes()
    }
}
