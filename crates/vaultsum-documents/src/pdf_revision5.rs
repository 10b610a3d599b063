//! PDFs encrypted with revision 5 of the standard security handler (Adobe's AES-256 draft,
//! written by Acrobat 9) read through pdf_oxide's revision-6 path.
//!
//! pdf_oxide 0.3.78 derives the wrong file key for revision 5: it takes SHA-256(password ‖ key
//! salt), which is the key that *unwraps* `/UE`, as the file key itself, so every page decrypts to
//! nothing (`encryption/algorithms.rs: authenticate_user_password_r5_r6`). Its revision-6 branch
//! unwraps `/UE` correctly. The two revisions differ only in how a password is hashed (one SHA-256
//! against ISO 32000-2's Algorithm 2.B), so a revision-5 dictionary that the empty password opens
//! can be restated as a revision-6 one holding the same file key: `/R 6`, with `/U` and `/UE`
//! recomputed by Algorithm 2.B. Every value is written in place and padded with spaces, so every
//! byte offset (the cross-reference table's) stays true. Remove this once pdf_oxide is fixed.

use std::ops::Range;

use pdf_oxide::crypto::{active, AesKeySize, HashAlgorithm, Padding};
use pdf_oxide::lexer::{token, Token};
use pdf_oxide::object::Object;
use pdf_oxide::parser::parse_object;
use pdf_oxide::PdfDocument;

/// `bytes` with its revision-5 encryption dictionary restated as revision 6, when the empty
/// password opens it (as the user's or the owner's password). `None` when the file is not
/// revision 5, needs a real password (pdf_oxide checks that part correctly), or its dictionary
/// cannot be rewritten in place: pdf_oxide's own reading then stands, and an unreadable result
/// is reported as such.
pub(super) fn restated_as_revision_6(bytes: &[u8], doc: &PdfDocument) -> Option<Vec<u8>> {
    let Some(Object::Reference(encrypt)) = doc.trailer().as_dict()?.get("Encrypt") else {
        return None;
    };
    let start = object_body_start(bytes, encrypt.id, encrypt.gen)?;
    let entries = dictionary_entries(bytes, start)?;
    let entry = |key: &str| entries.iter().find(|entry| entry.key == key);
    if entry("Filter")?.value.as_name() != Some("Standard") {
        return None;
    }
    let revision = entry("R")?;
    let (user, user_key) = (entry("U")?, entry("UE")?);
    let (Some(5), Some(u), Some(ue)) = (
        revision.value.as_integer(),
        user.value.as_string(),
        user_key.value.as_string(),
    ) else {
        return None;
    };
    if u.len() < 48 || ue.len() < 32 || bytes[revision.span.clone()] != *b"5" {
        return None;
    }
    let u = &u[..48];
    let file_key = file_key_for_empty_password(u, &ue[..32], &entries)?;

    // The salts are free to choose: opening with the empty password needs nothing else that
    // depends on them. (The owner's /O and /OE mix in /U and stop matching; this copy lives in
    // memory only, and is never opened with an owner password.) The file's own come first;
    // others are tried when the new values, written as literal strings (which Acrobat uses,
    // with no space to spare), need more escapes than the old ones had room for.
    let salts = std::iter::once(Some(u[32..48].to_vec()))
        .chain((1..=64u8).map(|attempt| Some(sha256(&[u, &[attempt]])?[..16].to_vec())));
    let (new_u, new_ue) = salts.flatten().find_map(|salts| {
        let (validation_salt, key_salt) = salts.split_at(8);
        let mut new_u = algorithm_2b(b"", validation_salt)?;
        new_u.extend_from_slice(validation_salt);
        new_u.extend_from_slice(key_salt);
        let new_ue = aes_cbc(
            AesKeySize::Aes256,
            &algorithm_2b(b"", key_salt)?,
            &file_key,
            Direction::Encrypt,
        )?;
        Some((
            pdf_string_within(&new_u, user.span.len())?,
            pdf_string_within(&new_ue, user_key.span.len())?,
        ))
    })?;

    let mut restated = bytes.to_vec();
    restated[revision.span.clone()].copy_from_slice(b"6");
    restated[user.span.clone()].copy_from_slice(&new_u);
    restated[user_key.span.clone()].copy_from_slice(&new_ue);
    Some(restated)
}

/// The file key, unwrapped the revision-5 way, when the empty password is the user's password
/// or the owner's; `None` when it is neither.
fn file_key_for_empty_password(u: &[u8], ue: &[u8], entries: &[Entry]) -> Option<Vec<u8>> {
    let wrapped_key = |hash_input_salt: &[u8], extra: &[u8], wrapped: &[u8]| {
        let unwrapping_key = sha256(&[b"", hash_input_salt, extra])?;
        aes_cbc(
            AesKeySize::Aes256,
            &unwrapping_key,
            wrapped,
            Direction::Decrypt,
        )
    };
    if sha256(&[b"", &u[32..40]])? == u[..32] {
        return wrapped_key(&u[40..48], b"", ue);
    }
    // The owner's hashes mix in the 48 bytes of /U.
    let entry = |key: &str| entries.iter().find(|entry| entry.key == key);
    let o = entry("O")?.value.as_string().filter(|o| o.len() >= 48)?;
    let oe = entry("OE")?.value.as_string().filter(|oe| oe.len() >= 32)?;
    if sha256(&[b"", &o[32..40], u])? == o[..32] {
        return wrapped_key(&o[40..48], u, &oe[..32]);
    }
    None
}

/// Where the body of indirect object `id gen` begins: just after its last `id gen obj` header
/// (an incremental update appends a newer version after the older one).
fn object_body_start(bytes: &[u8], id: u32, gen: u16) -> Option<usize> {
    let header = format!("{id} {gen} obj");
    let mut before = bytes.len();
    loop {
        let at = memchr::memmem::rfind(&bytes[..before], header.as_bytes())?;
        // `15 0 obj` must not be the end of `115 0 obj`.
        if at == 0 || !bytes[at - 1].is_ascii_alphanumeric() {
            return Some(at + header.len());
        }
        before = at;
    }
}

/// One top-level entry of a dictionary in the file: its key, its parsed value and the bytes
/// the value occupies.
struct Entry {
    key: String,
    value: Object,
    span: Range<usize>,
}

/// The top-level entries of the dictionary that begins at or after `start`.
fn dictionary_entries(bytes: &[u8], start: usize) -> Option<Vec<Entry>> {
    let offset_of = |rest: &[u8]| bytes.len() - rest.len();
    let (mut rest, Token::DictStart) = token(&bytes[start..]).ok()? else {
        return None;
    };
    let mut entries = Vec::new();
    loop {
        let (after_key, key) = token(rest).ok()?;
        let key = match key {
            Token::DictEnd => return Some(entries),
            Token::Name(key) => key,
            _ => return None,
        };
        let value_start = offset_of(after_key)
            + after_key
                .iter()
                .position(|&byte| !is_pdf_whitespace(byte))?;
        if bytes[value_start] == b'%' {
            return None; // a comment before a value: not worth the parsing it would take
        }
        let (after_value, value) = parse_object(after_key).ok()?;
        let mut value_end = offset_of(after_value);
        while value_end > value_start && is_pdf_whitespace(bytes[value_end - 1]) {
            value_end -= 1;
        }
        entries.push(Entry {
            key,
            value,
            span: value_start..value_end,
        });
        rest = after_value;
    }
}

fn is_pdf_whitespace(byte: u8) -> bool {
    matches!(byte, b'\0' | b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// `value` as a PDF string exactly `room` bytes long, padded with spaces: hex when it fits, else
/// a literal string; `None` when neither fits.
fn pdf_string_within(value: &[u8], room: usize) -> Option<Vec<u8>> {
    let mut written = Vec::with_capacity(room);
    if 2 + 2 * value.len() <= room {
        written.push(b'<');
        for byte in value {
            written.extend_from_slice(format!("{byte:02x}").as_bytes());
        }
        written.push(b'>');
    } else {
        written.push(b'(');
        for &byte in value {
            match byte {
                b'(' | b')' | b'\\' => written.extend_from_slice(&[b'\\', byte]),
                // A raw end of line in a literal string is read back as a line feed.
                b'\r' => written.extend_from_slice(b"\\r"),
                b'\n' => written.extend_from_slice(b"\\n"),
                _ => written.push(byte),
            }
        }
        written.push(b')');
    }
    if written.len() > room {
        return None;
    }
    written.resize(room, b' ');
    Some(written)
}

/// SHA-256 over `parts` in turn.
fn sha256(parts: &[&[u8]]) -> Option<Vec<u8>> {
    hash(HashAlgorithm::Sha256, parts)
}

fn hash(algorithm: HashAlgorithm, parts: &[&[u8]]) -> Option<Vec<u8>> {
    let mut hasher = active().hasher(algorithm).ok()?;
    for part in parts {
        hasher.update(part);
    }
    Some(hasher.finalize())
}

enum Direction {
    Encrypt,
    Decrypt,
}

/// AES-CBC without padding and with a zero IV, as the encryption dictionary's key wrapping uses.
fn aes_cbc(size: AesKeySize, key: &[u8], data: &[u8], direction: Direction) -> Option<Vec<u8>> {
    aes_cbc_with_iv(size, key, &[0; 16], data, direction)
}

fn aes_cbc_with_iv(
    size: AesKeySize,
    key: &[u8],
    iv: &[u8],
    data: &[u8],
    direction: Direction,
) -> Option<Vec<u8>> {
    let cipher = active().symmetric();
    match direction {
        Direction::Encrypt => cipher.aes_cbc_encrypt(size, key, iv, data, Padding::None),
        Direction::Decrypt => cipher.aes_cbc_decrypt(size, key, iv, data, Padding::None),
    }
    .ok()
}

/// ISO 32000-2 Algorithm 2.B, the revision-6 password hash, for a user password (no `/U`
/// mixed in): rounds of AES-128 and SHA-2 until the last byte of a round's output allows a stop.
fn algorithm_2b(password: &[u8], salt: &[u8]) -> Option<Vec<u8>> {
    let mut k = sha256(&[password, salt])?;
    let mut round = 0usize;
    loop {
        let unit: Vec<u8> = [password, &k].concat();
        let k1 = unit.repeat(64);
        let e = aes_cbc_with_iv(
            AesKeySize::Aes128,
            &k[..16],
            &k[16..32],
            &k1,
            Direction::Encrypt,
        )?;
        let algorithm = match e[..16].iter().map(|&byte| u32::from(byte)).sum::<u32>() % 3 {
            0 => HashAlgorithm::Sha256,
            1 => HashAlgorithm::Sha384,
            _ => HashAlgorithm::Sha512,
        };
        k = hash(algorithm, &[&e])?;
        round += 1;
        if round >= 64 && usize::from(*e.last()?) <= round - 32 {
            k.truncate(32);
            return Some(k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_written_to_fill_its_place_exactly_or_not_at_all() {
        assert_eq!(pdf_string_within(b"x", 4).unwrap(), b"<78>");
        assert_eq!(pdf_string_within(b"x", 6).unwrap(), b"<78>  ");
        assert_eq!(pdf_string_within(b"xy", 4).unwrap(), b"(xy)");
        assert_eq!(pdf_string_within(b"x)", 5).unwrap(), b"(x\\))");
        assert_eq!(pdf_string_within(b"a\rb\n", 8).unwrap(), b"(a\\rb\\n)");
        assert_eq!(pdf_string_within(b"x)", 4), None);
    }

    #[test]
    fn an_object_is_found_by_its_last_header_and_never_inside_another_number() {
        let bytes = b"15 0 obj<<>>endobj 115 0 obj<<>>endobj 15 0 obj<</New 1>>endobj 215 0 obj";
        let start = object_body_start(bytes, 15, 0).unwrap();
        assert!(bytes[start..].starts_with(b"<</New 1>>"));
        assert_eq!(object_body_start(b"115 0 obj<<>>", 15, 0), None);
    }

    #[test]
    fn algorithm_2b_matches_a_revision_6_file_the_empty_password_opens() {
        // pypdf's r6-empty-password.pdf: its /U is Algorithm 2.B of "" and the validation salt
        // (bytes 32..40), then the two salts.
        let u = hex(concat!(
            "a30407a84184545e6e19dbd7230a266995c516e4c52dc6d8086d58e07ea44e0c",
            "08f14f2a39a75756",
            "05528ad412e14ff6",
        ));
        assert_eq!(algorithm_2b(b"", &u[32..40]).unwrap(), u[..32]);
        assert_ne!(algorithm_2b(b"", &u[40..48]).unwrap(), u[..32]);
    }

    fn hex(text: &str) -> Vec<u8> {
        (0..text.len())
            .step_by(2)
            .map(|at| u8::from_str_radix(&text[at..at + 2], 16).unwrap())
            .collect()
    }
}
