//! Bytes → text: UTF-8 or a positioned error at the first bad byte; a BOM is dropped.

use super::error::{DocumentError, err};
use crate::model::text::{Encoding, LineIndex};

/// UTF-8 or a clear error at the first bad byte. A UTF-8 BOM is dropped.
pub fn decode(label: &str, bytes: Vec<u8>) -> Result<String, DocumentError> {
    match String::from_utf8(bytes) {
        Ok(mut s) => {
            if s.starts_with('\u{feff}') {
                s.drain(..3);
            }
            Ok(s)
        }
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let good = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
            let idx = LineIndex::new(&good);
            let pos = idx.position(&good, valid, Encoding::Utf16);
            Err(err(
                label,
                pos,
                format!("not valid UTF-8 (byte {valid}); byop reads UTF-8 text files"),
            ))
        }
    }
}
