//! The claimed IP a node signs in its handshake (`network/peer/ip.go`): 16-byte IPv6 (IPv4
//! mapped), 2-byte port, 8-byte timestamp, signed with the TLS key and the BLS key.

use std::net::{IpAddr, Ipv6Addr};

use crate::error::HandshakeError;
use crate::identity::StakingIdentity;

/// An IP claim before signing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnsignedIp {
    /// The address.
    pub ip: IpAddr,
    /// The port.
    pub port: u16,
    /// Signing time, unix seconds.
    pub timestamp: u64,
}

impl UnsignedIp {
    /// The 26 signed bytes.
    pub fn bytes(&self) -> [u8; 26] {
        let mut out = [0u8; 26];
        let v6: Ipv6Addr = match self.ip {
            IpAddr::V4(v4) => v4.to_ipv6_mapped(),
            IpAddr::V6(v6) => v6,
        };
        out[..16].copy_from_slice(&v6.octets());
        out[16..18].copy_from_slice(&self.port.to_be_bytes());
        out[18..].copy_from_slice(&self.timestamp.to_be_bytes());
        out
    }

    /// The TLS-key and BLS signatures of the claim.
    pub fn sign(&self, id: &StakingIdentity) -> Result<SignedIp, crate::error::P2pError> {
        let bytes = self.bytes();
        Ok(SignedIp {
            unsigned: *self,
            tls_signature: id.tls_sign(&bytes)?,
            bls_signature: id.bls_sign_pop(&bytes),
        })
    }
}

/// An IP claim with its signatures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedIp {
    /// The claim.
    pub unsigned: UnsignedIp,
    /// ECDSA/RSA signature of `sha256(bytes)` with the staking key.
    pub tls_signature: Vec<u8>,
    /// Compressed BLS signature of the bytes (proof-of-possession DST).
    pub bls_signature: [u8; 96],
}

/// The address in a handshake's `ip_addr`: 4 or 16 bytes (`ips.AddrFromSlice`).
pub fn ip_from_slice(b: &[u8]) -> Option<IpAddr> {
    if let Ok(v4) = <[u8; 4]>::try_from(b) {
        return Some(IpAddr::from(v4));
    }
    <[u8; 16]>::try_from(b).ok().map(IpAddr::from)
}

/// Checks `signature` over `msg` with the certificate's public key (`staking.CheckSignature`:
/// ECDSA P-256 ASN.1 or RSA PKCS#1 v1.5, both over SHA-256).
pub fn check_tls_signature(
    cert_der: &[u8],
    msg: &[u8],
    signature: &[u8],
) -> Result<(), HandshakeError> {
    let spki = crate::cert::subject_public_key_info(cert_der)
        .ok_or_else(|| HandshakeError::BadCertificate("not a certificate".to_owned()))?;
    let key = webpki::RawPublicKeyEntity::try_from(&spki)
        .map_err(|e| HandshakeError::BadCertificate(e.to_string()))?;
    let algs: [&dyn rustls::pki_types::SignatureVerificationAlgorithm; 2] = [
        webpki::ring::ECDSA_P256_SHA256,
        webpki::ring::RSA_PKCS1_2048_8192_SHA256,
    ];
    if algs
        .iter()
        .any(|alg| key.verify_signature(*alg, msg, signature).is_ok())
    {
        Ok(())
    } else {
        Err(HandshakeError::BadIpSignature)
    }
}
