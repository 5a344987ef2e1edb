//! The lexer: Modelica source text to a flat list of tokens.
//!
//! The whole file is tokenised up front in one linear pass. Tokens carry only
//! their kind and byte range; the parser reads identifiers, numbers and
//! strings back from the text when it needs their value. Lexical errors are
//! reported here, once, and leave an [`Tok::Invalid`] token behind so that the
//! parser can drop the surrounding element without reporting it a second time.

use crate::diagnostic::Diagnostic;
use crate::source::{FileId, Span};

/// The kind of one token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A plain or quoted identifier.
    Ident,
    /// An unsigned integer literal that fits in an `i64`.
    Integer,
    /// An unsigned real literal with a finite value.
    Real,
    /// A string literal with valid escapes.
    String,
    Kw(Kw),
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Comma,
    Semi,
    Colon,
    Dot,
    /// `:=`
    Assign,
    /// `=`
    Equals,
    Plus,
    Minus,
    Star,
    Slash,
    Caret,
    DotPlus,
    DotMinus,
    DotStar,
    DotSlash,
    DotCaret,
    Lt,
    Le,
    Gt,
    Ge,
    /// `==`
    EqEq,
    /// `<>`
    NotEq,
    /// Text the lexer already reported as an error.
    Invalid,
    Eof,
}

/// Modelica's reserved words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kw {
    Algorithm,
    And,
    Annotation,
    Block,
    Break,
    Class,
    Connect,
    Connector,
    Constant,
    Constrainedby,
    Der,
    Discrete,
    Each,
    Else,
    Elseif,
    Elsewhen,
    Encapsulated,
    End,
    Enumeration,
    Equation,
    Expandable,
    Extends,
    External,
    False,
    Final,
    Flow,
    For,
    Function,
    If,
    Import,
    Impure,
    In,
    Initial,
    Inner,
    Input,
    Loop,
    Model,
    Not,
    Operator,
    Or,
    Outer,
    Output,
    Package,
    Parameter,
    Partial,
    Protected,
    Public,
    Pure,
    Record,
    Redeclare,
    Replaceable,
    Return,
    Stream,
    Then,
    True,
    Type,
    When,
    While,
    Within,
}

/// Whether `word` is a keyword of Modelica (an identifier may not be one).
pub fn is_keyword(word: &str) -> bool {
    Kw::from_word(word).is_some()
}

impl Kw {
    fn from_word(word: &str) -> Option<Kw> {
        let kw = match word {
            "algorithm" => Kw::Algorithm,
            "and" => Kw::And,
            "annotation" => Kw::Annotation,
            "block" => Kw::Block,
            "break" => Kw::Break,
            "class" => Kw::Class,
            "connect" => Kw::Connect,
            "connector" => Kw::Connector,
            "constant" => Kw::Constant,
            "constrainedby" => Kw::Constrainedby,
            "der" => Kw::Der,
            "discrete" => Kw::Discrete,
            "each" => Kw::Each,
            "else" => Kw::Else,
            "elseif" => Kw::Elseif,
            "elsewhen" => Kw::Elsewhen,
            "encapsulated" => Kw::Encapsulated,
            "end" => Kw::End,
            "enumeration" => Kw::Enumeration,
            "equation" => Kw::Equation,
            "expandable" => Kw::Expandable,
            "extends" => Kw::Extends,
            "external" => Kw::External,
            "false" => Kw::False,
            "final" => Kw::Final,
            "flow" => Kw::Flow,
            "for" => Kw::For,
            "function" => Kw::Function,
            "if" => Kw::If,
            "import" => Kw::Import,
            "impure" => Kw::Impure,
            "in" => Kw::In,
            "initial" => Kw::Initial,
            "inner" => Kw::Inner,
            "input" => Kw::Input,
            "loop" => Kw::Loop,
            "model" => Kw::Model,
            "not" => Kw::Not,
            "operator" => Kw::Operator,
            "or" => Kw::Or,
            "outer" => Kw::Outer,
            "output" => Kw::Output,
            "package" => Kw::Package,
            "parameter" => Kw::Parameter,
            "partial" => Kw::Partial,
            "protected" => Kw::Protected,
            "public" => Kw::Public,
            "pure" => Kw::Pure,
            "record" => Kw::Record,
            "redeclare" => Kw::Redeclare,
            "replaceable" => Kw::Replaceable,
            "return" => Kw::Return,
            "stream" => Kw::Stream,
            "then" => Kw::Then,
            "true" => Kw::True,
            "type" => Kw::Type,
            "when" => Kw::When,
            "while" => Kw::While,
            "within" => Kw::Within,
            _ => return None,
        };
        Some(kw)
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Kw::Algorithm => "algorithm",
            Kw::And => "and",
            Kw::Annotation => "annotation",
            Kw::Block => "block",
            Kw::Break => "break",
            Kw::Class => "class",
            Kw::Connect => "connect",
            Kw::Connector => "connector",
            Kw::Constant => "constant",
            Kw::Constrainedby => "constrainedby",
            Kw::Der => "der",
            Kw::Discrete => "discrete",
            Kw::Each => "each",
            Kw::Else => "else",
            Kw::Elseif => "elseif",
            Kw::Elsewhen => "elsewhen",
            Kw::Encapsulated => "encapsulated",
            Kw::End => "end",
            Kw::Enumeration => "enumeration",
            Kw::Equation => "equation",
            Kw::Expandable => "expandable",
            Kw::Extends => "extends",
            Kw::External => "external",
            Kw::False => "false",
            Kw::Final => "final",
            Kw::Flow => "flow",
            Kw::For => "for",
            Kw::Function => "function",
            Kw::If => "if",
            Kw::Import => "import",
            Kw::Impure => "impure",
            Kw::In => "in",
            Kw::Initial => "initial",
            Kw::Inner => "inner",
            Kw::Input => "input",
            Kw::Loop => "loop",
            Kw::Model => "model",
            Kw::Not => "not",
            Kw::Operator => "operator",
            Kw::Or => "or",
            Kw::Outer => "outer",
            Kw::Output => "output",
            Kw::Package => "package",
            Kw::Parameter => "parameter",
            Kw::Partial => "partial",
            Kw::Protected => "protected",
            Kw::Public => "public",
            Kw::Pure => "pure",
            Kw::Record => "record",
            Kw::Redeclare => "redeclare",
            Kw::Replaceable => "replaceable",
            Kw::Return => "return",
            Kw::Stream => "stream",
            Kw::Then => "then",
            Kw::True => "true",
            Kw::Type => "type",
            Kw::When => "when",
            Kw::While => "while",
            Kw::Within => "within",
        }
    }
}

impl Tok {
    /// How the token is named in "expected X, found Y" messages.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Tok::Ident => "an identifier",
            Tok::Integer => "an integer literal",
            Tok::Real => "a real literal",
            Tok::String => "a string",
            Tok::Kw(_) => "a keyword",
            Tok::LParen => "`(`",
            Tok::RParen => "`)`",
            Tok::LBrace => "`{`",
            Tok::RBrace => "`}`",
            Tok::LBracket => "`[`",
            Tok::RBracket => "`]`",
            Tok::Comma => "`,`",
            Tok::Semi => "`;`",
            Tok::Colon => "`:`",
            Tok::Dot => "`.`",
            Tok::Assign => "`:=`",
            Tok::Equals => "`=`",
            Tok::Plus => "`+`",
            Tok::Minus => "`-`",
            Tok::Star => "`*`",
            Tok::Slash => "`/`",
            Tok::Caret => "`^`",
            Tok::DotPlus => "`.+`",
            Tok::DotMinus => "`.-`",
            Tok::DotStar => "`.*`",
            Tok::DotSlash => "`./`",
            Tok::DotCaret => "`.^`",
            Tok::Lt => "`<`",
            Tok::Le => "`<=`",
            Tok::Gt => "`>`",
            Tok::Ge => "`>=`",
            Tok::EqEq => "`==`",
            Tok::NotEq => "`<>`",
            Tok::Invalid => "invalid text",
            Tok::Eof => "end of file",
        }
    }
}

/// One token: its kind and the byte range it covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub start: u32,
    pub end: u32,
}

/// The tokens of one file, always ending with exactly one [`Tok::Eof`].
pub(crate) struct Lexed {
    pub tokens: Vec<Token>,
    pub diagnostics: Vec<Diagnostic>,
    /// A string or comment ran to the end of the file and was reported, so
    /// the parser should not report the end of file again.
    pub reported_runaway: bool,
}

/// Split `text` into tokens, skipping whitespace and comments.
pub(crate) fn lex(file: FileId, text: &str) -> Lexed {
    let mut lexer = Lexer {
        file,
        text,
        bytes: text.as_bytes(),
        pos: 0,
        tokens: Vec::with_capacity(text.len() / 4 + 1),
        diagnostics: Vec::new(),
        reported_runaway: false,
    };
    lexer.run();
    let end = text.len() as u32;
    lexer.tokens.push(Token {
        tok: Tok::Eof,
        start: end,
        end,
    });
    Lexed {
        tokens: lexer.tokens,
        diagnostics: lexer.diagnostics,
        reported_runaway: lexer.reported_runaway,
    }
}

struct Lexer<'a> {
    file: FileId,
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    tokens: Vec<Token>,
    diagnostics: Vec<Diagnostic>,
    reported_runaway: bool,
}

impl Lexer<'_> {
    fn run(&mut self) {
        while self.pos < self.bytes.len() {
            let start = self.pos;
            let b = self.bytes[start];
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | 0x0c | 0x0b => self.pos += 1,
                b'/' if self.peek(1) == Some(b'/') => self.line_comment(),
                b'/' if self.peek(1) == Some(b'*') => self.block_comment(),
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => self.word(),
                b'0'..=b'9' => self.number(),
                b'.' if self.peek(1).is_some_and(|c| c.is_ascii_digit()) => self.number(),
                b'"' => self.string(),
                b'\'' => self.quoted_ident(),
                _ if b >= 0x80 || !b.is_ascii_graphic() => self.invalid_run(),
                _ => self.punctuation(b),
            }
        }
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.pos + ahead).copied()
    }

    fn push(&mut self, tok: Tok, start: usize) {
        self.tokens.push(Token {
            tok,
            start: start as u32,
            end: self.pos as u32,
        });
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    fn line_comment(&mut self) {
        while self.pos < self.bytes.len() && self.bytes[self.pos] != b'\n' {
            self.pos += 1;
        }
    }

    fn block_comment(&mut self) {
        let start = self.pos;
        self.pos += 2;
        while self.pos < self.bytes.len() {
            if self.bytes[self.pos] == b'*' && self.peek(1) == Some(b'/') {
                self.pos += 2;
                return;
            }
            self.pos += 1;
        }
        self.reported_runaway = true;
        self.diagnostics.push(
            Diagnostic::error(
                "MS003",
                self.span(start, start + 2),
                "unterminated block comment",
            )
            .with_label("this comment is never closed")
            .with_help("close the comment with `*/`"),
        );
    }

    fn word(&mut self) {
        let start = self.pos;
        while self
            .peek(0)
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            self.pos += 1;
        }
        let tok = match Kw::from_word(&self.text[start..self.pos]) {
            Some(kw) => Tok::Kw(kw),
            None => Tok::Ident,
        };
        self.push(tok, start);
    }

    fn digits(&mut self) -> usize {
        let from = self.pos;
        while self.peek(0).is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        self.pos - from
    }

    fn number(&mut self) {
        let start = self.pos;
        let mut is_real = false;
        self.digits();
        // A dot after the digits makes a real literal. Modelica reads `2.*x`
        // as `2. * x` (the grammar is ambiguous there), and so do we.
        if self.peek(0) == Some(b'.') {
            is_real = true;
            self.pos += 1;
            self.digits();
        }
        let mut malformed = false;
        if matches!(self.peek(0), Some(b'e' | b'E')) {
            is_real = true;
            self.pos += 1;
            if matches!(self.peek(0), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                malformed = true;
            }
        }
        // Letters glued to a number (`1e`, `3x`, `1.5e3m`) make the whole
        // word malformed rather than two tokens.
        while self
            .peek(0)
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            malformed = true;
            self.pos += 1;
        }
        let literal = &self.text[start..self.pos];
        if malformed {
            self.number_error(start, format!("malformed number literal `{literal}`"));
            return;
        }
        if is_real {
            match literal.parse::<f64>() {
                Ok(v) if v.is_finite() => self.push(Tok::Real, start),
                _ => self.number_error(start, format!("real literal `{literal}` is out of range")),
            }
        } else if literal.parse::<i64>().is_ok() {
            self.push(Tok::Integer, start);
        } else {
            self.number_error(
                start,
                format!("integer literal `{literal}` does not fit in 64 bits"),
            );
        }
    }

    fn number_error(&mut self, start: usize, message: String) {
        self.diagnostics.push(
            Diagnostic::error("MS005", self.span(start, self.pos), message)
                .with_label("invalid number")
                .with_help(
                    "write a number such as `3`, `2.5` or `1e-3`, within the range of a 64-bit value",
                ),
        );
        self.push(Tok::Invalid, start);
    }

    /// Scan a string or quoted identifier body after its opening quote.
    /// Returns whether the closing quote was found and the first bad escape.
    fn quoted_body(&mut self, quote: u8, stop_at_newline: bool) -> (bool, Option<usize>) {
        let mut bad_escape = None;
        while self.pos < self.bytes.len() {
            let c = self.bytes[self.pos];
            if c == quote {
                self.pos += 1;
                return (true, bad_escape);
            }
            if c == b'\n' && stop_at_newline {
                return (false, bad_escape);
            }
            if c == b'\\' {
                match self.peek(1) {
                    Some(
                        b'\'' | b'"' | b'?' | b'\\' | b'a' | b'b' | b'f' | b'n' | b'r' | b't'
                        | b'v',
                    ) => self.pos += 2,
                    _ => {
                        bad_escape.get_or_insert(self.pos);
                        self.pos += 1;
                    }
                }
                continue;
            }
            self.pos += 1;
        }
        (false, bad_escape)
    }

    fn escape_error(&mut self, at: usize) {
        // The character after the backslash may be multi-byte.
        let next_len = self.text[at + 1..].chars().next().map_or(0, char::len_utf8);
        self.diagnostics.push(
            Diagnostic::error(
                "MS009",
                self.span(at, at + 1 + next_len),
                "invalid escape sequence",
            )
            .with_label("unknown escape")
            .with_help(
                "use one of \\' \\\" \\? \\\\ \\a \\b \\f \\n \\r \\t \\v, or write \\\\ for a backslash",
            ),
        );
    }

    fn string(&mut self) {
        let start = self.pos;
        self.pos += 1;
        let (closed, bad_escape) = self.quoted_body(b'"', false);
        if !closed {
            self.reported_runaway = true;
            self.diagnostics.push(
                Diagnostic::error("MS002", self.span(start, start + 1), "unterminated string")
                    .with_label("this string is never closed")
                    .with_help("close the string with `\"`"),
            );
            self.push(Tok::Invalid, start);
        } else if let Some(at) = bad_escape {
            self.escape_error(at);
            self.push(Tok::Invalid, start);
        } else {
            self.push(Tok::String, start);
        }
    }

    fn quoted_ident(&mut self) {
        let start = self.pos;
        self.pos += 1;
        let (closed, bad_escape) = self.quoted_body(b'\'', true);
        if !closed {
            self.diagnostics.push(
                Diagnostic::error(
                    "MS002",
                    self.span(start, start + 1),
                    "unterminated quoted identifier",
                )
                .with_label("this quoted identifier is not closed on its line")
                .with_help("close the identifier with `'`"),
            );
            self.push(Tok::Invalid, start);
        } else if let Some(at) = bad_escape {
            self.escape_error(at);
            self.push(Tok::Invalid, start);
        } else if self.pos - start == 2 {
            self.diagnostics.push(
                Diagnostic::error(
                    "MS004",
                    self.span(start, self.pos),
                    "empty quoted identifier",
                )
                .with_label("a quoted identifier needs at least one character")
                .with_help("write a name between the quotes, such as `'x'`"),
            );
            self.push(Tok::Invalid, start);
        } else {
            self.push(Tok::Ident, start);
        }
    }

    /// A run of characters that cannot start any token becomes one
    /// diagnostic and one invalid token.
    fn invalid_run(&mut self) {
        let start = self.pos;
        while let Some(c) = self.text[self.pos..].chars().next() {
            let starts_token = c.is_ascii_graphic() || c.is_ascii_whitespace();
            if starts_token {
                break;
            }
            self.pos += c.len_utf8();
        }
        // A stray ASCII control or graphic character still counts as one.
        if self.pos == start {
            self.pos += 1;
        }
        let shown: String = self.text[start..self.pos].chars().take(8).collect();
        self.diagnostics.push(
            Diagnostic::error(
                "MS004",
                self.span(start, self.pos),
                format!("invalid character `{}`", shown.escape_debug()),
            )
            .with_label("not allowed here")
            .with_help("Modelica source outside strings and comments is plain ASCII; remove this text or put it in a string or comment"),
        );
        self.push(Tok::Invalid, start);
    }

    fn punctuation(&mut self, b: u8) {
        let start = self.pos;
        let next = self.peek(1);
        let (tok, len) = match (b, next) {
            (b'(', _) => (Tok::LParen, 1),
            (b')', _) => (Tok::RParen, 1),
            (b'{', _) => (Tok::LBrace, 1),
            (b'}', _) => (Tok::RBrace, 1),
            (b'[', _) => (Tok::LBracket, 1),
            (b']', _) => (Tok::RBracket, 1),
            (b',', _) => (Tok::Comma, 1),
            (b';', _) => (Tok::Semi, 1),
            (b':', Some(b'=')) => (Tok::Assign, 2),
            (b':', _) => (Tok::Colon, 1),
            (b'.', Some(b'+')) => (Tok::DotPlus, 2),
            (b'.', Some(b'-')) => (Tok::DotMinus, 2),
            (b'.', Some(b'*')) => (Tok::DotStar, 2),
            (b'.', Some(b'/')) => (Tok::DotSlash, 2),
            (b'.', Some(b'^')) => (Tok::DotCaret, 2),
            (b'.', _) => (Tok::Dot, 1),
            (b'=', Some(b'=')) => (Tok::EqEq, 2),
            (b'=', _) => (Tok::Equals, 1),
            (b'+', _) => (Tok::Plus, 1),
            (b'-', _) => (Tok::Minus, 1),
            (b'*', _) => (Tok::Star, 1),
            (b'/', _) => (Tok::Slash, 1),
            (b'^', _) => (Tok::Caret, 1),
            (b'<', Some(b'=')) => (Tok::Le, 2),
            (b'<', Some(b'>')) => (Tok::NotEq, 2),
            (b'<', _) => (Tok::Lt, 1),
            (b'>', Some(b'=')) => (Tok::Ge, 2),
            (b'>', _) => (Tok::Gt, 1),
            _ => {
                self.invalid_punctuation();
                return;
            }
        };
        self.pos += len;
        self.push(tok, start);
    }

    fn invalid_punctuation(&mut self) {
        let start = self.pos;
        self.pos += 1;
        let shown = &self.text[start..self.pos];
        self.diagnostics.push(
            Diagnostic::error(
                "MS004",
                self.span(start, self.pos),
                format!("invalid character `{}`", shown.escape_debug()),
            )
            .with_label("not a Modelica token")
            .with_help("remove this character, or put it inside a string or comment"),
        );
        self.push(Tok::Invalid, start);
    }
}
