//! The one lexer: the only code besides the grammar that knows where
//! strings and comments begin and end. The nesting guard, the formatter's
//! comment finder and the language server's token scanner all read text
//! through it, so none of them can take a string for code.
//!
//! It never fails: an unterminated plain string ends at its line break, an
//! unterminated triple-quoted string at the end of the text, and anything
//! else is one character of punctuation.
//!
//! A line ends at `\n`, at `\r\n` and at a lone `\r`, as the language
//! server protocol has it: a comment or a plain string ends at any of them,
//! and every line and column cici reports counts them alike
//! ([`line_starts`], [`line_start`], [`line_end`]).

/// What a lexeme is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `# ...` up to (not including) the line break (`\n` or `\r`).
    Comment,
    /// `"..."` (escapes skipped) or `"""..."""`, quotes included.
    String,
    /// Letters, digits, `_` and `:`, with a time range `10:00-11:00` as one.
    Word,
    /// `->`, or one character that is none of the above.
    Punct,
    /// A run of whitespace.
    Space,
}

/// One lexeme: its kind and byte range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lexeme {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

/// The lexemes of `text`, in order, covering every byte.
pub fn lex(text: &str) -> Lexer<'_> {
    Lexer { text, at: 0 }
}

/// The iterator [`lex`] returns.
pub struct Lexer<'t> {
    text: &'t str,
    at: usize,
}

const TRIPLE: &str = "\"\"\"";

fn word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b':')
}

impl Lexer<'_> {
    /// The end of the lexeme of `kind` that starts at `i`.
    fn end_of(&self, kind: Kind, i: usize) -> usize {
        let text = self.text;
        let bytes = text.as_bytes();
        match kind {
            Kind::Comment => line_end(text, i),
            Kind::String if text[i..].starts_with(TRIPLE) => text[i + 3..]
                .find(TRIPLE)
                .map_or(text.len(), |n| i + 3 + n + 3),
            Kind::String => {
                let mut chars = text[i + 1..].char_indices();
                while let Some((j, c)) = chars.next() {
                    match c {
                        '"' => return i + 1 + j + 1,
                        '\n' | '\r' => return i + 1 + j,
                        '\\' => {
                            chars.next();
                        }
                        _ => {}
                    }
                }
                text.len()
            }
            Kind::Word => {
                let mut j = i;
                while j < bytes.len() && word_byte(bytes[j]) {
                    j += 1;
                }
                if bytes.get(j) == Some(&b'-') && bytes.get(j + 1).is_some_and(u8::is_ascii_digit) {
                    j += 1;
                    while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b':')
                    {
                        j += 1;
                    }
                }
                j
            }
            Kind::Space => {
                let rest = &text[i..];
                i + rest
                    .find(|c: char| !c.is_ascii_whitespace())
                    .unwrap_or(rest.len())
            }
            Kind::Punct if text[i..].starts_with("->") => i + 2,
            Kind::Punct => i + text[i..].chars().next().map_or(1, char::len_utf8),
        }
    }
}

impl Iterator for Lexer<'_> {
    type Item = Lexeme;

    fn next(&mut self) -> Option<Lexeme> {
        let i = self.at;
        let c = self.text[i..].chars().next()?;
        let kind = match c {
            '#' => Kind::Comment,
            '"' => Kind::String,
            c if c.is_ascii_alphanumeric() || c == '_' => Kind::Word,
            c if c.is_ascii_whitespace() => Kind::Space,
            _ => Kind::Punct,
        };
        let end = self.end_of(kind, i);
        self.at = end;
        Some(Lexeme {
            kind,
            start: i,
            end,
        })
    }
}

/// Whether `c` breaks a line: `\n`, or `\r` alone or before `\n`.
pub fn is_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r')
}

/// Where each line starts, counted in `span`, the layer below.
pub use crate::span::line_starts;

/// The number of line breaks in `text`, a `\r\n` counted once.
pub fn line_breaks(text: &str) -> usize {
    let bytes = text.as_bytes();
    bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
        .count()
}

/// Where the line that holds byte `offset` starts. The `\n` of a `\r\n`
/// belongs to the line the `\r` ends.
pub fn line_start(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    if text[..offset].ends_with('\r') && text[offset..].starts_with('\n') {
        offset -= 1;
    }
    text.as_bytes()[..offset]
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map_or(0, |i| i + 1)
}

/// Where the line that holds byte `offset` ends: its line break, or the
/// end of the text.
pub fn line_end(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[offset..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or(text.len(), |i| offset + i)
}

/// The line break at byte `at`, as its length: 2 for `\r\n`, 1 for `\n`
/// or a lone `\r`, 0 when none starts there.
pub fn break_len(text: &str, at: usize) -> usize {
    match text.as_bytes().get(at..).unwrap_or_default() {
        [b'\r', b'\n', ..] => 2,
        [b'\n' | b'\r', ..] => 1,
        _ => 0,
    }
}

/// The lines of `text`, each with its line break, and where it starts.
pub fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let starts = line_starts(text);
    let ends: Vec<usize> = starts.iter().skip(1).copied().chain([text.len()]).collect();
    starts
        .into_iter()
        .zip(ends)
        .filter(|(s, e)| s < e)
        .map(move |(s, e)| (s, &text[s..e]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Kind, &str)> {
        lex(text).map(|l| (l.kind, &text[l.start..l.end])).collect()
    }

    #[test]
    fn a_triple_quoted_string_holds_single_quotes() {
        let text = r#"title """a"b""" (x)"#;
        let k = kinds(text);
        assert_eq!(k[2], (Kind::String, r#""""a"b""""#));
        assert_eq!(k[4], (Kind::Punct, "("));
    }

    #[test]
    fn strings_and_comments_hide_what_they_hold() {
        let text = "raw \"a \\\" # (\" # \"not a string\n-> 10:00-11:00 é";
        let k: Vec<Kind> = kinds(text).into_iter().map(|(k, _)| k).collect();
        use Kind::*;
        assert_eq!(
            k,
            [Word, Space, String, Space, Comment, Space, Punct, Space, Word, Space, Punct]
        );
    }

    #[test]
    fn unterminated_strings_end_where_the_grammar_gives_up() {
        assert_eq!(kinds("\"open\nnext")[1], (Kind::Space, "\n"));
        assert_eq!(kinds("\"\"\"open\n(")[0].1, "\"\"\"open\n(");
        assert_eq!(kinds("\"ends in \\").len(), 1);
    }

    #[test]
    fn the_lexemes_cover_every_byte() {
        let text = "scenario s { # c\n  raw \"\"\"x\"\"\" [a, b] -> é }\"";
        let mut at = 0;
        for l in lex(text) {
            assert_eq!(l.start, at);
            at = l.end;
        }
        assert_eq!(at, text.len());
    }

    #[test]
    fn cr_crlf_and_lf_end_comments_plain_strings_and_lines_alike() {
        for nl in ["\n", "\r\n", "\r"] {
            let text = format!("# c{nl}fact \"open{nl}x");
            let k = kinds(&text);
            assert_eq!(k[0], (Kind::Comment, "# c"), "{nl:?}");
            assert_eq!(k[1], (Kind::Space, nl), "{nl:?}");
            assert_eq!(k[4], (Kind::String, "\"open"), "{nl:?}");
            assert_eq!(line_starts(&text).len(), 3, "{nl:?}");
            let x = text.len() - 1;
            assert_eq!(line_start(&text, x), x, "{nl:?}");
            assert_eq!(line_end(&text, 0), 3, "{nl:?}");
            assert_eq!(break_len(&text, 3), nl.len(), "{nl:?}");
            let got: Vec<&str> = lines(&text).map(|(_, l)| l).collect();
            assert_eq!(
                got,
                [format!("# c{nl}"), format!("fact \"open{nl}"), "x".into()]
            );
        }
        // The `\n` of a `\r\n` is on the line its `\r` ends.
        assert_eq!(line_start("ab\r\ncd", 3), 0);
        assert_eq!(line_start("ab\r\ncd", 4), 4);
        assert_eq!(line_breaks("a\rb\r\nc\nd\r"), 4);
    }

    proptest::proptest! {
        #[test]
        fn any_text_lexes_into_lexemes_that_tile_it(text in "[a-z0-9 :#\"\\\n\r(){}\\[\\],>-é]{0,80}") {
            let mut at = 0;
            for l in lex(&text) {
                proptest::prop_assert_eq!(l.start, at);
                proptest::prop_assert!(l.end > l.start);
                at = l.end;
            }
            proptest::prop_assert_eq!(at, text.len());
        }
    }
}
