//! Places in a text as the protocol counts them: lines and UTF-16 code
//! units. And the identifiers of a text, found by a small scanner that
//! skips comments and strings (navigation needs names and their places,
//! nothing of the grammar).

use lsp_types::{Position, Range};

/// The byte offsets where the lines of `text` start.
pub fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    starts
}

/// The protocol position of byte `offset` (clamped to the text, moved back
/// to a character boundary).
pub fn position(text: &str, starts: &[usize], offset: usize) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line = match starts.binary_search(&offset) {
        Ok(i) => i,
        Err(i) => i - 1,
    };
    let character: usize = text[starts[line]..offset]
        .chars()
        .map(char::len_utf16)
        .sum();
    Position::new(line as u32, character as u32)
}

/// The byte offset of a protocol position: past the end of a line is its
/// end, past the last line the end of the text.
pub fn offset(text: &str, starts: &[usize], pos: Position) -> usize {
    let Some(&start) = starts.get(pos.line as usize) else {
        return text.len();
    };
    let end = starts
        .get(pos.line as usize + 1)
        .map_or(text.len(), |&next| next - 1);
    let mut units = 0u32;
    for (i, c) in text[start..end].char_indices() {
        if units >= pos.character {
            return start + i;
        }
        units += c.len_utf16() as u32;
    }
    end
}

/// The range of bytes `start..end`.
pub fn range(text: &str, starts: &[usize], start: usize, end: usize) -> Range {
    Range::new(position(text, starts, start), position(text, starts, end))
}

/// One identifier of a text: its byte range and whether a `.` stands
/// right before it (a member or a later part of a dotted name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ident {
    pub start: usize,
    pub end: usize,
    pub dotted: bool,
}

impl Ident {
    pub fn text<'t>(&self, text: &'t str) -> &'t str {
        &text[self.start..self.end]
    }
}

/// Every identifier of `text` (quoted identifiers `'a b'` included), in
/// order; comments and strings are skipped. Keywords are identifiers here:
/// callers compare names.
pub fn identifiers(text: &str) -> Vec<Ident> {
    let mut out = Vec::new();
    let mut last = ' ';
    for t in tokens(text) {
        if t.kind == 'a' {
            out.push(Ident {
                start: t.start,
                end: t.end,
                dotted: last == '.',
            });
        }
        last = t.kind;
    }
    out
}

/// One token of a text for the editor's scans: an identifier, a number,
/// or one character of punctuation; comments and strings are skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub start: usize,
    pub end: usize,
    /// `'a'` for an identifier (quoted ones included), `'0'` for a number,
    /// else the punctuation character.
    pub kind: char,
}

/// The tokens of `text` (see [`Token`]), in order.
pub fn tokens(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'/' && bytes.get(i + 1) == Some(&b'/') {
            i = memchr(bytes, i, b'\n');
        } else if b == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i = text[i + 2..]
                .find("*/")
                .map_or(bytes.len(), |k| i + 2 + k + 2);
        } else if b == b'"' || b == b'\'' {
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i] != b {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(bytes.len());
            if b == b'\'' {
                out.push(Token {
                    start,
                    end: i,
                    kind: 'a',
                });
            }
        } else if b.is_ascii_alphabetic() || b == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push(Token {
                start,
                end: i,
                kind: 'a',
            });
        } else if b.is_ascii_digit() {
            // A number with its exponent: `1e3` holds no identifier.
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                i += 1;
            }
            out.push(Token {
                start,
                end: i,
                kind: '0',
            });
        } else {
            if b.is_ascii() && !b.is_ascii_whitespace() {
                out.push(Token {
                    start: i,
                    end: i + 1,
                    kind: b as char,
                });
            }
            i += 1;
        }
    }
    out
}

fn memchr(bytes: &[u8], from: usize, needle: u8) -> usize {
    bytes[from..]
        .iter()
        .position(|&b| b == needle)
        .map_or(bytes.len(), |k| from + k)
}

/// The identifier at byte `offset` (touching it from either side).
pub fn ident_at(idents: &[Ident], offset: usize) -> Option<Ident> {
    let i = idents.partition_point(|id| id.end < offset);
    idents
        .get(i)
        .copied()
        .filter(|id| id.start <= offset && offset <= id.end)
}

/// The dotted name that ends with the identifier `at` (`a.b.c` when `at`
/// is `c`): its parts from the first.
pub fn dotted_name<'t>(text: &'t str, idents: &[Ident], at: Ident) -> Vec<&'t str> {
    let Some(mut i) = idents.iter().position(|id| *id == at) else {
        return vec![at.text(text)];
    };
    let mut parts = vec![idents[i].text(text)];
    while idents[i].dotted && i > 0 {
        let between = &text[idents[i - 1].end..idents[i].start];
        if between.trim() != "." {
            break;
        }
        i -= 1;
        parts.push(idents[i].text(text));
    }
    parts.reverse();
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_positions_round_trip() {
        let text = "a\n// é𝄞\nx = 1;";
        let starts = line_starts(text);
        let x = text.find('x').unwrap();
        assert_eq!(position(text, &starts, x), Position::new(2, 0));
        // `𝄞` is two UTF-16 units, `é` one.
        let end = text.find('\n').unwrap() + 1 + "// é𝄞".len();
        assert_eq!(position(text, &starts, end), Position::new(1, 6));
        assert_eq!(offset(text, &starts, Position::new(1, 6)), end);
        assert_eq!(offset(text, &starts, Position::new(9, 0)), text.len());
    }

    #[test]
    fn identifiers_skip_comments_strings_and_numbers() {
        let text = "Real x \"a y\"; // z\n/* w */ b.c = 1e3;";
        let names: Vec<&str> = identifiers(text).iter().map(|i| i.text(text)).collect();
        assert_eq!(names, ["Real", "x", "b", "c"]);
        let ids = identifiers(text);
        assert!(ids[3].dotted && !ids[2].dotted);
        assert_eq!(dotted_name(text, &ids, ids[3]), ["b", "c"]);
    }
}
