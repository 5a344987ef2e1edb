//! The parser's cursor over the tokens, the floor every grammar file
//! stands on: token access, spans, diagnostics, the nesting guard, and the
//! terminals every category reads (identifiers, names, description
//! strings).

use crate::diagnostic::Diagnostic;
use crate::source::{FileId, Span};
use crate::syntax::ast::*;
use crate::syntax::lexer::{Kw, Tok, Token};

/// How deeply expressions, modifications, equations and classes may nest.
/// Deeper input is reported (MS007) instead of exhausting the stack.
pub const MAX_NESTING: u32 = 256;

/// Stack the parser may use below `parse` before it reports MS007: well
/// inside the 2 MiB Rust gives a spawned thread, even in debug builds.
const STACK_BUDGET: usize = 1024 * 1024;

/// Marker: a diagnostic for this failure has already been recorded.
pub(crate) struct Reported;

pub(crate) type PResult<T> = Result<T, Reported>;

pub(crate) struct Parser<'a> {
    pub(crate) file: FileId,
    pub(crate) text: &'a str,
    pub(crate) tokens: Vec<Token>,
    pub(crate) pos: usize,
    /// End offset of the last consumed token.
    pub(crate) prev_end: u32,
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// The lexer reported a string or comment running to the end of the
    /// file; reaching the end of file is then not worth a second message.
    pub(crate) runaway_reported: bool,
    pub(crate) depth: u32,
    /// Address of a local of `parse`, to measure the stack used since.
    pub(crate) stack_base: usize,
    /// Inside `[...]` subscripts, where `end` is an expression.
    pub(crate) subscript_depth: u32,
    /// The `experiment` of the annotation of the class being parsed.
    pub(crate) experiment: Option<Experiment>,
}

/// Keywords that start a class definition (after element prefixes).
pub(crate) fn starts_class(tok: Tok) -> bool {
    matches!(
        tok,
        Tok::Kw(
            Kw::Encapsulated
                | Kw::Partial
                | Kw::Expandable
                | Kw::Pure
                | Kw::Impure
                | Kw::Operator
                | Kw::Class
                | Kw::Model
                | Kw::Block
                | Kw::Connector
                | Kw::Type
                | Kw::Package
                | Kw::Record
                | Kw::Function
        )
    )
}

pub(crate) fn class_kind(tok: Tok) -> Option<ClassKind> {
    let kind = match tok {
        Tok::Kw(Kw::Class) => ClassKind::Class,
        Tok::Kw(Kw::Model) => ClassKind::Model,
        Tok::Kw(Kw::Block) => ClassKind::Block,
        Tok::Kw(Kw::Connector) => ClassKind::Connector,
        Tok::Kw(Kw::Type) => ClassKind::Type,
        Tok::Kw(Kw::Package) => ClassKind::Package,
        Tok::Kw(Kw::Record) => ClassKind::Record,
        Tok::Kw(Kw::Function) => ClassKind::Function,
        Tok::Kw(Kw::Operator) => ClassKind::Operator,
        _ => return None,
    };
    Some(kind)
}

pub(crate) fn is_block_end_keyword(tok: Tok) -> bool {
    matches!(tok, Tok::Kw(Kw::For | Kw::If | Kw::When | Kw::While))
}

/// Decode the escapes of a string literal token's text (quotes included).
pub(crate) fn decode_string(raw: &str) -> String {
    let inner = raw
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(raw);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('a') => out.push('\u{7}'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('v') => out.push('\u{b}'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

impl Parser<'_> {
    pub(crate) fn current(&self) -> Token {
        self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    pub(crate) fn tok(&self) -> Tok {
        self.current().tok
    }

    pub(crate) fn nth(&self, ahead: usize) -> Tok {
        let index = (self.pos + ahead).min(self.tokens.len() - 1);
        self.tokens[index].tok
    }

    pub(crate) fn at(&self, tok: Tok) -> bool {
        self.tok() == tok
    }

    pub(crate) fn at_kw(&self, kw: Kw) -> bool {
        self.tok() == Tok::Kw(kw)
    }

    pub(crate) fn start(&self) -> u32 {
        self.current().start
    }

    pub(crate) fn span(&self, start: u32, end: u32) -> Span {
        Span {
            file: self.file,
            start,
            end: end.max(start),
        }
    }

    pub(crate) fn token_span(&self, token: Token) -> Span {
        self.span(token.start, token.end)
    }

    /// Span from `start` to the end of the last consumed token.
    pub(crate) fn span_from(&self, start: u32) -> Span {
        self.span(start, self.prev_end)
    }

    pub(crate) fn bump(&mut self) -> Token {
        let token = self.current();
        if token.tok != Tok::Eof {
            self.pos += 1;
            self.prev_end = token.end;
        }
        token
    }

    pub(crate) fn bump_span(&mut self) -> Span {
        let token = self.bump();
        self.token_span(token)
    }

    pub(crate) fn eat(&mut self, tok: Tok) -> Option<Token> {
        if self.at(tok) {
            Some(self.bump())
        } else {
            None
        }
    }

    pub(crate) fn eat_kw(&mut self, kw: Kw) -> Option<Span> {
        self.eat(Tok::Kw(kw)).map(|t| self.token_span(t))
    }

    pub(crate) fn expect(&mut self, tok: Tok, expected: &str) -> PResult<Token> {
        if self.at(tok) {
            Ok(self.bump())
        } else {
            Err(self.unexpected(expected))
        }
    }

    pub(crate) fn expect_kw(&mut self, kw: Kw, expected: &str) -> PResult<Token> {
        self.expect(Tok::Kw(kw), expected)
    }

    /// Move back to an earlier token (to skip a failed item as a whole).
    pub(crate) fn rewind(&mut self, pos: usize) {
        self.pos = pos;
        self.prev_end = if pos == 0 {
            0
        } else {
            self.tokens[pos - 1].end
        };
    }

    pub(crate) fn text_of(&self, token: Token) -> &str {
        // Token bounds are always character boundaries: the lexer only
        // stops at ASCII bytes or after whole characters.
        self.text
            .get(token.start as usize..token.end as usize)
            .unwrap_or("")
    }

    pub(crate) fn found(&self, token: Token) -> String {
        let text: String = self.text_of(token).chars().take(24).collect();
        match token.tok {
            Tok::Ident => format!("identifier `{text}`"),
            Tok::Kw(kw) => format!("keyword `{}`", kw.as_str()),
            Tok::Integer | Tok::Real => format!("number `{text}`"),
            other => other.describe().to_string(),
        }
    }

    pub(crate) fn push(&mut self, diagnostic: Diagnostic) -> Reported {
        self.diagnostics.push(diagnostic);
        Reported
    }

    /// MS001 at the current token, unless the lexer already reported it.
    pub(crate) fn unexpected(&mut self, expected: &str) -> Reported {
        let help = format!("write {expected} at this point, or remove what does not belong here");
        self.unexpected_with_help(expected, &help)
    }

    pub(crate) fn unexpected_with_help(&mut self, expected: &str, help: &str) -> Reported {
        let token = self.current();
        if token.tok == Tok::Invalid || (token.tok == Tok::Eof && self.runaway_reported) {
            return Reported;
        }
        if expected.starts_with("`;`") && self.pos > 0 && self.line_break_before_current() {
            // A `;` forgotten at the end of a line: the fault is on that
            // line, after its last token, not at the start of the next one.
            let previous = self.tokens[self.pos - 1];
            let after = self.text_of(previous).chars().take(24).collect::<String>();
            let span = self.token_span(previous);
            return self.push(
                Diagnostic::error(
                    "MS001",
                    span,
                    format!(
                        "expected {expected} after `{after}`, found {} on a later line",
                        self.found(token)
                    ),
                )
                .with_label(format!("{expected} missing after this"))
                .with_help("end the declaration or equation with `;`"),
            );
        }
        let found = self.found(token);
        let span = self.token_span(token);
        self.push(
            Diagnostic::error("MS001", span, format!("expected {expected}, found {found}"))
                .with_label(format!("expected {expected} here"))
                .with_help(help),
        )
    }

    pub(crate) fn unsupported(&mut self, span: Span, message: &str, help: &str) -> Reported {
        self.push(
            Diagnostic::error("MS008", span, message)
                .with_label("not supported")
                .with_help(help),
        )
    }

    /// Prefix keywords in any order, each at most once: `slot` names the
    /// field the current keyword sets (`None` ends the prefixes), and a
    /// keyword given twice is `duplicate`'s error, at its second place.
    pub(crate) fn prefixes<P: Default>(
        &mut self,
        slot: impl for<'p> Fn(&'p mut P, &Self) -> Option<&'p mut Option<Span>>,
        duplicate: impl FnOnce(&mut Self) -> Reported,
    ) -> PResult<P> {
        let mut prefixes = P::default();
        loop {
            let span = self.token_span(self.current());
            let Some(slot) = slot(&mut prefixes, self) else {
                return Ok(prefixes);
            };
            if slot.is_some() {
                return Err(duplicate(self));
            }
            *slot = Some(span);
            self.bump();
        }
    }

    /// Run `f` one nesting level deeper.
    pub(crate) fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.enter()?;
        let result = f(self);
        self.depth -= 1;
        result
    }

    /// Go one nesting level deeper, refusing to pass [`MAX_NESTING`] levels
    /// or [`STACK_BUDGET`] bytes of stack. Every successful call is paired
    /// with `self.depth -= 1`.
    pub(crate) fn enter(&mut self) -> PResult<()> {
        let probe = 0u8;
        let here = std::hint::black_box(&probe) as *const u8 as usize;
        if self.depth >= MAX_NESTING || here.abs_diff(self.stack_base) > STACK_BUDGET {
            return Err(self.too_deep());
        }
        self.depth += 1;
        Ok(())
    }

    #[cold]
    fn too_deep(&mut self) -> Reported {
        let span = self.token_span(self.current());
        self.push(
            Diagnostic::error("MS007", span, "nesting too deep")
                .with_label("nesting limit reached here")
                .with_help(format!(
                    "nest expressions, modifications, equations and classes at most {MAX_NESTING} levels deep; name intermediate results or split the class"
                )),
        )
    }

    /// Whether a line break separates the current token from the one
    /// before it.
    fn line_break_before_current(&self) -> bool {
        let from = self.prev_end as usize;
        let to = self.current().start as usize;
        self.text
            .get(from..to)
            .is_some_and(|gap| gap.contains('\n'))
    }

    /// `"text" + "more"`: a description string.
    pub(crate) fn string_comment(&mut self) -> PResult<Option<String>> {
        if !self.at(Tok::String) {
            return Ok(None);
        }
        let token = self.bump();
        let mut text = decode_string(self.text_of(token));
        while self.at(Tok::Plus) {
            self.bump();
            let token = self.expect(Tok::String, "a string after `+`")?;
            text.push_str(&decode_string(self.text_of(token)));
        }
        Ok(Some(text))
    }

    pub(crate) fn ident(&mut self, expected: &str) -> PResult<Ident> {
        let token = self.expect(Tok::Ident, expected)?;
        Ok(Ident {
            name: self.text_of(token).to_string(),
            span: self.token_span(token),
        })
    }

    /// `[.]A.B.C`
    pub(crate) fn name(&mut self, expected: &str) -> PResult<Name> {
        let start = self.start();
        let global = if self.at(Tok::Dot) && self.nth(1) == Tok::Ident {
            self.bump();
            true
        } else {
            false
        };
        let mut parts = vec![self.ident(expected)?];
        while self.at(Tok::Dot) && self.nth(1) == Tok::Ident {
            self.bump();
            parts.push(self.ident("an identifier")?);
        }
        Ok(Name {
            global,
            parts,
            span: self.span_from(start),
        })
    }
}
