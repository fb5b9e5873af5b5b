//! Swagger UI's files, taken from the release archive the `utoipa-swagger-ui-vendored` crate
//! carries (no network at build or run time): the zip's central directory is read from memory
//! once, the few files the page needs are inflated, and each keeps its deflate stream so it can
//! also be sent gzip-encoded without compressing anything.

use bytes::{BufMut, Bytes, BytesMut};
use std::sync::OnceLock;

/// One file of Swagger UI's `dist/` folder.
pub(crate) struct Asset {
    /// The file name, as served under `/docs/`.
    pub(crate) name: &'static str,
    /// Its `content-type`.
    pub(crate) content_type: &'static str,
    /// The file.
    pub(crate) body: Bytes,
    /// The same file as a gzip member, when the archive holds it deflated.
    pub(crate) gzip: Option<Bytes>,
}

/// The files of `dist/` the page loads, with their content types.
const WANTED: [(&str, &str); 3] = [
    ("swagger-ui-bundle.js", "text/javascript; charset=utf-8"),
    ("swagger-ui.css", "text/css; charset=utf-8"),
    ("favicon-32x32.png", "image/png"),
];

/// Swagger UI's files and the archive's top folder (`swagger-ui-5.32.6`, its version), read on
/// first use.
pub(crate) fn assets() -> Result<&'static (String, Vec<Asset>), &'static str> {
    static ASSETS: OnceLock<Result<(String, Vec<Asset>), String>> = OnceLock::new();
    ASSETS
        .get_or_init(|| read(utoipa_swagger_ui_vendored::SWAGGER_UI_VENDORED))
        .as_ref()
        .map_err(String::as_str)
}

fn u16_at(b: &[u8], at: usize) -> Option<usize> {
    let s = b.get(at..at.checked_add(2)?)?;
    Some(usize::from(u16::from_le_bytes([s[0], s[1]])))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

fn usize_at(b: &[u8], at: usize) -> Option<usize> {
    u32_at(b, at).and_then(|v| usize::try_from(v).ok())
}

/// The wanted files of a zip archive (APPNOTE.TXT: the end-of-central-directory record, then
/// each central directory entry and its local header), and its first entry's top folder.
fn read(zip: &[u8]) -> Result<(String, Vec<Asset>), String> {
    const EOCD: [u8; 4] = [0x50, 0x4b, 0x05, 0x06];
    const CENTRAL: u32 = 0x0201_4b50;
    const LOCAL: u32 = 0x0403_4b50;
    let bad = |what: &str| format!("the Swagger UI archive is malformed: {what}");
    let eocd = (0..zip.len().saturating_sub(21))
        .rev()
        .find(|&i| zip.get(i..i + 4) == Some(&EOCD[..]))
        .ok_or_else(|| bad("no end of central directory"))?;
    let count = u16_at(zip, eocd + 10).ok_or_else(|| bad("entry count"))?;
    let mut at = usize_at(zip, eocd + 16).ok_or_else(|| bad("directory offset"))?;
    let mut top = None;
    let mut out = Vec::new();
    for _ in 0..count {
        if u32_at(zip, at) != Some(CENTRAL) {
            return Err(bad("a central directory entry"));
        }
        let field = |off: usize| u16_at(zip, at + off).ok_or_else(|| bad("a directory entry"));
        let field32 = |off: usize| usize_at(zip, at + off).ok_or_else(|| bad("a directory entry"));
        let (method, name_len, extra_len, comment_len) =
            (field(10)?, field(28)?, field(30)?, field(32)?);
        let crc = u32_at(zip, at + 16).ok_or_else(|| bad("a directory entry"))?;
        let (packed_len, size, local) = (field32(20)?, field32(24)?, field32(42)?);
        let name = zip
            .get(at + 46..at + 46 + name_len)
            .and_then(|n| std::str::from_utf8(n).ok())
            .ok_or_else(|| bad("an entry name"))?;
        at += 46 + name_len + extra_len + comment_len;
        if top.is_none() {
            top = name.split('/').next().map(str::to_owned);
        }
        let Some(&(file, content_type)) = WANTED.iter().find(|(file, _)| {
            name.strip_suffix(file)
                .is_some_and(|dir| dir.ends_with("/dist/") && dir.matches('/').count() == 2)
        }) else {
            continue;
        };
        if u32_at(zip, local) != Some(LOCAL) {
            return Err(bad("a local header"));
        }
        let start = local
            + 30
            + u16_at(zip, local + 26).ok_or_else(|| bad("a local header"))?
            + u16_at(zip, local + 28).ok_or_else(|| bad("a local header"))?;
        let packed = zip
            .get(start..start + packed_len)
            .ok_or_else(|| bad("an entry's data"))?;
        let (body, gzip) = match method {
            0 => (Bytes::copy_from_slice(packed), None),
            8 => {
                let body = miniz_oxide::inflate::decompress_to_vec_with_limit(packed, size)
                    .map_err(|e| bad(&format!("{file} does not inflate: {e}")))?;
                if body.len() != size {
                    return Err(bad(&format!("{file} inflates to the wrong size")));
                }
                (Bytes::from(body), Some(gzip_member(packed, crc, size)))
            }
            m => return Err(bad(&format!("{file} uses compression method {m}"))),
        };
        out.push(Asset {
            name: file,
            content_type,
            body,
            gzip,
        });
    }
    if out.len() != WANTED.len() {
        return Err(bad("a file of dist/ is missing"));
    }
    Ok((top.unwrap_or_default(), out))
}

/// A gzip member (RFC 1952) around a raw deflate stream whose CRC-32 and size are known.
fn gzip_member(deflate: &[u8], crc: u32, size: usize) -> Bytes {
    let mut g = BytesMut::with_capacity(deflate.len() + 18);
    // ID1 ID2, CM = deflate, no flags, no mtime, no extra flags, OS unknown.
    g.put_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
    g.put_slice(deflate);
    g.put_u32_le(crc);
    // ISIZE is the size modulo 2^32.
    g.put_u32_le(size as u32);
    g.freeze()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_vendored_archive_gives_swagger_ui_files() {
        let (top, files) = assets().unwrap();
        assert!(top.starts_with("swagger-ui-5."), "{top}");
        let bundle = files
            .iter()
            .find(|a| a.name == "swagger-ui-bundle.js")
            .unwrap();
        let text = std::str::from_utf8(&bundle.body).unwrap();
        assert!(text.contains("SwaggerUIBundle"));
        let png = files
            .iter()
            .find(|a| a.name == "favicon-32x32.png")
            .unwrap();
        assert_eq!(&png.body[..8], b"\x89PNG\r\n\x1a\n");
        // The gzip member holds the same deflate stream and the file's size.
        let gz = bundle.gzip.as_ref().unwrap();
        assert_eq!(&gz[..3], &[0x1f, 0x8b, 8]);
        let isize = u32::from_le_bytes(gz[gz.len() - 4..].try_into().unwrap());
        assert_eq!(isize as usize, bundle.body.len());
        let inflated = miniz_oxide::inflate::decompress_to_vec(&gz[10..gz.len() - 8]).unwrap();
        assert_eq!(inflated, bundle.body);
    }

    #[test]
    fn a_damaged_archive_is_an_error_not_a_panic() {
        let zip = utoipa_swagger_ui_vendored::SWAGGER_UI_VENDORED;
        // The archive ends with the directory, its end record and a comment (the commit id).
        for cut in [0, 21, zip.len() / 2, zip.len() - 100] {
            assert!(read(&zip[..cut]).is_err(), "{cut}");
        }
        let mut flipped = zip.to_vec();
        let eocd = zip.windows(4).rposition(|w| w == b"PK\x05\x06").unwrap();
        flipped[eocd + 16] ^= 0xff;
        assert!(read(&flipped).is_err());
    }
}
