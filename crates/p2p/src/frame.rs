//! Message framing: a 4-byte big-endian length then the message (`network/peer/msg_length.go`).

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// Largest message either side accepts (`constants.DefaultMaxMessageSize`, 2 MiB).
pub const MAX_MESSAGE_SIZE: usize = 2 * 1024 * 1024;

/// Why a frame could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// The length prefix is over [`MAX_MESSAGE_SIZE`]; nothing of the body was read.
    #[error("message length {0} over the maximum {MAX_MESSAGE_SIZE}")]
    TooLarge(u64),
    /// The stream failed or ended mid-frame.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
}

/// The body length a prefix announces, refused past [`MAX_MESSAGE_SIZE`].
pub fn frame_len(prefix: [u8; 4]) -> Result<usize, FrameError> {
    let len = u32::from_be_bytes(prefix);
    if len as usize > MAX_MESSAGE_SIZE {
        return Err(FrameError::TooLarge(u64::from(len)));
    }
    Ok(len as usize)
}

/// Reads one frame's body; the length is checked before any allocation.
pub async fn read_frame<R: AsyncRead + Unpin>(r: &mut R) -> Result<Vec<u8>, FrameError> {
    let mut prefix = [0u8; 4];
    r.read_exact(&mut prefix).await?;
    let len = frame_len(prefix)?;
    let mut body = vec![0u8; len];
    r.read_exact(&mut body).await?;
    Ok(body)
}

/// Writes one frame (prefix and body) and flushes.
pub async fn write_frame<W: AsyncWrite + Unpin>(w: &mut W, body: &[u8]) -> Result<(), FrameError> {
    if body.len() > MAX_MESSAGE_SIZE {
        return Err(FrameError::TooLarge(body.len() as u64));
    }
    w.write_all(&(body.len() as u32).to_be_bytes()).await?;
    w.write_all(body).await?;
    w.flush().await?;
    Ok(())
}

/// Splits `buf` into its complete frames' bodies, the synchronous twin of [`read_frame`]
/// (tests and fuzzing); a trailing partial frame is left out.
pub fn split_frames(mut buf: &[u8]) -> Result<Vec<&[u8]>, FrameError> {
    let mut out = Vec::new();
    while let Some((prefix, rest)) = buf.split_first_chunk::<4>() {
        let len = frame_len(*prefix)?;
        if rest.len() < len {
            break;
        }
        let (body, tail) = rest.split_at(len);
        out.push(body);
        buf = tail;
    }
    Ok(out)
}
