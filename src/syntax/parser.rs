//! The recursive-descent parser: tokens to [`StoredDefinition`].
//!
//! Every parsing function returns `Err(Reported)` once it has pushed a
//! diagnostic (or met a token the lexer already reported). The error travels
//! up to the nearest list of elements, equations or statements, which
//! rewinds to the start of the failed item, skips it as a whole and goes on
//! with the next one. So each broken item costs exactly one diagnostic and
//! independent errors further down the file are still found.

use crate::diagnostic::Diagnostic;
use crate::source::{FileId, Span};
use crate::syntax::ast::*;
use crate::syntax::lexer::{lex, Kw, Tok, Token};

/// Parse one file. Never panics; syntax errors come back as diagnostics,
/// ordered by where they start.
pub fn parse(file: FileId, text: &str) -> (StoredDefinition, Vec<Diagnostic>) {
    let lexed = lex(file, text);
    let probe = 0u8;
    let stack_base = std::hint::black_box(&probe) as *const u8 as usize;
    let mut parser = Parser {
        stack_base,
        file,
        text,
        tokens: lexed.tokens,
        pos: 0,
        prev_end: 0,
        diagnostics: lexed.diagnostics,
        runaway_reported: lexed.reported_runaway,
        depth: 0,
        subscript_depth: 0,
        experiment: None,
    };
    let definition = parser.stored_definition();
    let mut diagnostics = parser.diagnostics;
    diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    (definition, diagnostics)
}

/// How deeply expressions, modifications, equations and classes may nest.
/// Deeper input is reported (MS007) instead of exhausting the stack.
pub const MAX_NESTING: u32 = 256;

/// Stack the parser may use below [`parse`] before it reports MS007: well
/// inside the 2 MiB Rust gives a spawned thread, even in debug builds.
const STACK_BUDGET: usize = 1024 * 1024;

/// Marker: a diagnostic for this failure has already been recorded.
struct Reported;

type PResult<T> = Result<T, Reported>;

struct Parser<'a> {
    file: FileId,
    text: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    /// End offset of the last consumed token.
    prev_end: u32,
    diagnostics: Vec<Diagnostic>,
    /// The lexer reported a string or comment running to the end of the
    /// file; reaching the end of file is then not worth a second message.
    runaway_reported: bool,
    depth: u32,
    /// Address of a local of [`parse`], to measure the stack used since.
    stack_base: usize,
    /// Inside `[...]` subscripts, where `end` is an expression.
    subscript_depth: u32,
    /// The `experiment` of the annotation of the class being parsed.
    experiment: Option<Experiment>,
}

/// Keywords that start a class definition (after element prefixes).
fn starts_class(tok: Tok) -> bool {
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

fn class_kind(tok: Tok) -> Option<ClassKind> {
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

fn is_block_end_keyword(tok: Tok) -> bool {
    matches!(tok, Tok::Kw(Kw::For | Kw::If | Kw::When | Kw::While))
}

/// The `experiment(...)` among the arguments of a class annotation: its
/// number-literal values by name.
fn experiment_of(arguments: &[Argument]) -> Option<Experiment> {
    let (arguments, span) = arguments.iter().find_map(|a| match a {
        Argument::Modify {
            name,
            modification: Some(m),
            span,
            ..
        } if name.parts.len() == 1 && name.parts[0].name == "experiment" => {
            Some((&m.arguments, *span))
        }
        _ => None,
    })?;
    let mut experiment = Experiment {
        start_time: None,
        stop_time: None,
        tolerance: None,
        interval: None,
        span,
    };
    for argument in arguments {
        let Argument::Modify {
            name,
            modification:
                Some(Modification {
                    binding: Some(value),
                    ..
                }),
            ..
        } = argument
        else {
            continue;
        };
        let slot = match name.parts.as_slice() {
            [part] if part.name == "StartTime" => &mut experiment.start_time,
            [part] if part.name == "StopTime" => &mut experiment.stop_time,
            [part] if part.name == "Tolerance" => &mut experiment.tolerance,
            [part] if part.name == "Interval" => &mut experiment.interval,
            _ => continue,
        };
        *slot = number_literal(value);
    }
    Some(experiment)
}

/// A number literal with an optional sign.
fn number_literal(e: &Expr) -> Option<f64> {
    match &e.kind {
        ExprKind::Real(x) => Some(*x),
        ExprKind::Integer(i) => Some(*i as f64),
        ExprKind::Unary(UnOp::Neg, inner) => number_literal(inner).map(|x| -x),
        ExprKind::Unary(UnOp::Plus, inner) => number_literal(inner),
        _ => None,
    }
}

/// Decode the escapes of a string literal token's text (quotes included).
fn decode_string(raw: &str) -> String {
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

// ---------------------------------------------------------------------------
// Token access, diagnostics and recovery.
// ---------------------------------------------------------------------------

impl Parser<'_> {
    fn current(&self) -> Token {
        self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn tok(&self) -> Tok {
        self.current().tok
    }

    fn nth(&self, ahead: usize) -> Tok {
        let index = (self.pos + ahead).min(self.tokens.len() - 1);
        self.tokens[index].tok
    }

    fn at(&self, tok: Tok) -> bool {
        self.tok() == tok
    }

    fn at_kw(&self, kw: Kw) -> bool {
        self.tok() == Tok::Kw(kw)
    }

    fn start(&self) -> u32 {
        self.current().start
    }

    fn span(&self, start: u32, end: u32) -> Span {
        Span {
            file: self.file,
            start,
            end: end.max(start),
        }
    }

    fn token_span(&self, token: Token) -> Span {
        self.span(token.start, token.end)
    }

    /// Span from `start` to the end of the last consumed token.
    fn span_from(&self, start: u32) -> Span {
        self.span(start, self.prev_end)
    }

    fn bump(&mut self) -> Token {
        let token = self.current();
        if token.tok != Tok::Eof {
            self.pos += 1;
            self.prev_end = token.end;
        }
        token
    }

    fn bump_span(&mut self) -> Span {
        let token = self.bump();
        self.token_span(token)
    }

    fn eat(&mut self, tok: Tok) -> Option<Token> {
        if self.at(tok) {
            Some(self.bump())
        } else {
            None
        }
    }

    fn eat_kw(&mut self, kw: Kw) -> Option<Span> {
        self.eat(Tok::Kw(kw)).map(|t| self.token_span(t))
    }

    fn expect(&mut self, tok: Tok, expected: &str) -> PResult<Token> {
        if self.at(tok) {
            Ok(self.bump())
        } else {
            Err(self.unexpected(expected))
        }
    }

    fn expect_kw(&mut self, kw: Kw, expected: &str) -> PResult<Token> {
        self.expect(Tok::Kw(kw), expected)
    }

    /// Move back to an earlier token (to skip a failed item as a whole).
    fn rewind(&mut self, pos: usize) {
        self.pos = pos;
        self.prev_end = if pos == 0 {
            0
        } else {
            self.tokens[pos - 1].end
        };
    }

    fn text_of(&self, token: Token) -> &str {
        // Token bounds are always character boundaries: the lexer only
        // stops at ASCII bytes or after whole characters.
        self.text
            .get(token.start as usize..token.end as usize)
            .unwrap_or("")
    }

    fn found(&self, token: Token) -> String {
        let text: String = self.text_of(token).chars().take(24).collect();
        match token.tok {
            Tok::Ident => format!("identifier `{text}`"),
            Tok::Kw(kw) => format!("keyword `{}`", kw.as_str()),
            Tok::Integer | Tok::Real => format!("number `{text}`"),
            other => other.describe().to_string(),
        }
    }

    fn push(&mut self, diagnostic: Diagnostic) -> Reported {
        self.diagnostics.push(diagnostic);
        Reported
    }

    /// MS001 at the current token, unless the lexer already reported it.
    fn unexpected(&mut self, expected: &str) -> Reported {
        let help = format!("write {expected} at this point, or remove what does not belong here");
        self.unexpected_with_help(expected, &help)
    }

    fn unexpected_with_help(&mut self, expected: &str, help: &str) -> Reported {
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

    fn unsupported(&mut self, span: Span, message: &str, help: &str) -> Reported {
        self.push(
            Diagnostic::error("MS008", span, message)
                .with_label("not supported")
                .with_help(help),
        )
    }

    /// Run `f` one nesting level deeper.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.enter()?;
        let result = f(self);
        self.depth -= 1;
        result
    }

    /// Go one nesting level deeper, refusing to pass [`MAX_NESTING`] levels
    /// or [`STACK_BUDGET`] bytes of stack. Every successful call is paired
    /// with `self.depth -= 1`.
    fn enter(&mut self) -> PResult<()> {
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

    /// An identifier standing alone on its line, one or two letters away
    /// from a section keyword (`equaton`): the section keyword it was meant
    /// to be. Read as a type name it would start a cascade of errors on the
    /// equations after it.
    fn misspelt_section_keyword(&self) -> Option<Kw> {
        if self.tok() != Tok::Ident || self.nth(1) == Tok::Eof {
            return None;
        }
        let token = self.current();
        let next = self.tokens[(self.pos + 1).min(self.tokens.len() - 1)];
        let gap = self.text.get(token.end as usize..next.start as usize)?;
        if !gap.contains('\n') {
            return None;
        }
        let word = self.text_of(token);
        [Kw::Equation, Kw::Algorithm, Kw::Protected, Kw::Public]
            .into_iter()
            .find(|kw| {
                let distance = strsim::damerau_levenshtein(word, kw.as_str());
                distance > 0 && distance <= 2 && word.len() + 2 >= kw.as_str().len()
            })
    }

    fn at_section_keyword(&self) -> bool {
        match self.tok() {
            Tok::Kw(Kw::Public | Kw::Protected | Kw::Equation | Kw::Algorithm | Kw::External) => {
                true
            }
            Tok::Kw(Kw::Initial) => {
                matches!(self.nth(1), Tok::Kw(Kw::Equation | Kw::Algorithm))
            }
            _ => false,
        }
    }

    /// `end` that closes a class (not `end for`, `end if`, ...).
    fn at_class_end(&self) -> bool {
        self.at_kw(Kw::End) && !is_block_end_keyword(self.nth(1))
    }

    /// Skip a failed element (from its first token): up to and including
    /// the next `;` outside brackets, treating a long class definition as
    /// one unit up to its `end Name;`. Stops before section keywords and,
    /// when `stop_at_end`, before the `end` of the enclosing class.
    fn skip_element(&mut self, stop_at_end: bool) {
        let mut class_depth = 0usize;
        let mut open: Vec<Tok> = Vec::new();
        loop {
            let tok = self.tok();
            match tok {
                Tok::Eof => return,
                Tok::LParen | Tok::LBracket | Tok::LBrace => {
                    open.push(tok);
                    self.bump();
                    continue;
                }
                Tok::RParen | Tok::RBracket | Tok::RBrace => {
                    open.pop();
                    self.bump();
                    continue;
                }
                _ => {}
            }
            if tok == Tok::Kw(Kw::End) && matches!(self.nth(1), Tok::Ident | Tok::Semi) {
                if class_depth > 0 {
                    self.bump();
                    self.eat(Tok::Ident);
                    self.eat(Tok::Semi);
                    open.clear();
                    class_depth -= 1;
                    if class_depth == 0 {
                        return;
                    }
                    continue;
                }
                if stop_at_end {
                    return;
                }
                self.bump();
                continue;
            }
            if class_depth == 0 && self.at_section_keyword() {
                return;
            }
            if tok == Tok::Semi && open.last() != Some(&Tok::LBracket) {
                self.bump();
                open.clear();
                if class_depth == 0 {
                    return;
                }
                continue;
            }
            let opens_long_class = class_kind(tok).is_some()
                && open.is_empty()
                && ((self.nth(1) == Tok::Ident && self.nth(2) != Tok::Equals)
                    || self.nth(1) == Tok::Kw(Kw::Extends));
            if opens_long_class {
                class_depth += 1;
            }
            self.bump();
        }
    }

    /// Skip a failed equation or statement (from its first token) up to and
    /// including its `;`, treating `for/if/when/while ... end X;` blocks as
    /// one unit. Stops before section keywords, a class `end`, and the
    /// `else`/`elseif`/`elsewhen` of an enclosing block.
    fn skip_statement(&mut self) {
        let mut blocks = 0usize;
        let mut open: Vec<Tok> = Vec::new();
        let mut in_expr = false;
        let mut statement_start = true;
        loop {
            let tok = self.tok();
            if tok == Tok::Eof || self.at_section_keyword() || self.at_class_end() {
                return;
            }
            match tok {
                Tok::LParen | Tok::LBracket | Tok::LBrace => {
                    open.push(tok);
                    self.bump();
                    statement_start = false;
                    continue;
                }
                Tok::RParen | Tok::RBracket | Tok::RBrace => {
                    open.pop();
                    self.bump();
                    continue;
                }
                _ => {}
            }
            // Inside brackets only a `;` that cannot be a matrix row
            // separator ends the statement (the brackets were unbalanced).
            let semicolon_ends = tok == Tok::Semi && open.last() != Some(&Tok::LBracket);
            if !open.is_empty() && !semicolon_ends {
                self.bump();
                continue;
            }
            match tok {
                Tok::Semi => {
                    self.bump();
                    open.clear();
                    if blocks == 0 {
                        return;
                    }
                    in_expr = false;
                    statement_start = true;
                    continue;
                }
                Tok::Kw(Kw::End) => {
                    // `end for` / `end if` / ...: closes a block.
                    if blocks == 0 {
                        return;
                    }
                    blocks -= 1;
                    self.bump();
                    self.bump();
                    statement_start = false;
                    continue;
                }
                Tok::Kw(Kw::Else | Kw::Elseif | Kw::Elsewhen) if blocks == 0 && !in_expr => {
                    return;
                }
                Tok::Kw(Kw::For | Kw::While | Kw::When) if statement_start => blocks += 1,
                Tok::Kw(Kw::If) if statement_start && !in_expr => blocks += 1,
                Tok::Equals | Tok::Assign => in_expr = true,
                _ => {}
            }
            let next_starts_statement =
                matches!(tok, Tok::Kw(Kw::Loop | Kw::Then | Kw::Else)) && !in_expr;
            self.bump();
            statement_start = next_starts_statement;
        }
    }

    /// After a failed item at `start_pos`, make sure the list loop moves on.
    fn ensure_progress(&mut self, start_pos: usize) {
        if self.pos == start_pos && !self.at(Tok::Eof) {
            self.bump();
        }
    }
}

// ---------------------------------------------------------------------------
// Files, classes and elements.
// ---------------------------------------------------------------------------

impl Parser<'_> {
    fn stored_definition(&mut self) -> StoredDefinition {
        let mut definition = StoredDefinition::default();
        if self.at_kw(Kw::Within) {
            let start_pos = self.pos;
            match self.within_clause() {
                Ok(name) => definition.within = name,
                Err(Reported) => {
                    self.rewind(start_pos);
                    self.skip_element(false);
                    self.ensure_progress(start_pos);
                }
            }
        }
        while !self.at(Tok::Eof) {
            let start_pos = self.pos;
            self.eat_kw(Kw::Final);
            let result = if starts_class(self.tok()) {
                self.class_definition()
            } else {
                Err(self.unexpected("a class definition such as `model` or `package`"))
            };
            match result {
                Ok(class) => definition.classes.push(class),
                Err(Reported) => {
                    self.rewind(start_pos);
                    self.skip_element(false);
                    self.ensure_progress(start_pos);
                }
            }
        }
        definition
    }

    fn within_clause(&mut self) -> PResult<Option<Name>> {
        self.bump();
        let name = if self.at(Tok::Semi) {
            None
        } else {
            Some(self.name("a package name")?)
        };
        self.expect(Tok::Semi, "`;`")?;
        Ok(name)
    }

    fn class_definition(&mut self) -> PResult<ClassDef> {
        self.enter()?;
        // A nested class has its own annotation.
        let outer = self.experiment.take();
        let result = self.class_definition_inner();
        self.experiment = outer;
        self.depth -= 1;
        result
    }

    fn class_definition_inner(&mut self) -> PResult<ClassDef> {
        let start = self.start();
        let mut prefixes = ClassPrefixes::default();
        loop {
            let span = self.token_span(self.current());
            let slot = match self.tok() {
                Tok::Kw(Kw::Encapsulated) => &mut prefixes.encapsulated,
                Tok::Kw(Kw::Partial) => &mut prefixes.partial,
                Tok::Kw(Kw::Expandable) => &mut prefixes.expandable,
                Tok::Kw(Kw::Pure | Kw::Impure) => &mut prefixes.purity,
                Tok::Kw(Kw::Operator)
                    if matches!(self.nth(1), Tok::Kw(Kw::Record | Kw::Function)) =>
                {
                    &mut prefixes.operator
                }
                _ => break,
            };
            if slot.is_some() {
                return Err(self.unexpected("a class kind such as `model` or `package`"));
            }
            *slot = Some(span);
            self.bump();
        }
        let Some(kind) = class_kind(self.tok()) else {
            return Err(self.unexpected("a class kind such as `model` or `package`"));
        };
        let kind_span = self.bump_span();

        if self.at_kw(Kw::Extends) {
            return self.class_extends(start, kind, kind_span, prefixes);
        }
        let name = self.ident("the class name")?;
        let (description, body) = if self.eat(Tok::Equals).is_some() {
            let body = self.short_class_specifier()?;
            let description = self.string_comment()?;
            self.annotation_opt()?;
            (description, body)
        } else {
            let description = self.string_comment()?;
            let body = self.composition();
            let end_name = self.class_end(&name)?;
            (description, ClassBody::Long(LongBody { end_name, ..body }))
        };
        let constrainedby = self.constraining_clause_opt()?;
        self.class_semicolon(&body)?;
        Ok(ClassDef {
            kind,
            kind_span,
            prefixes,
            name,
            description,
            body,
            constrainedby,
            experiment: self.experiment.take(),
            span: self.span_from(start),
        })
    }

    /// The `;` after a class. A long class that is complete except for it
    /// is kept (with one diagnostic); a short one is not.
    fn class_semicolon(&mut self, body: &ClassBody) -> PResult<()> {
        if self.eat(Tok::Semi).is_some() {
            return Ok(());
        }
        let reported = self.unexpected("`;`");
        match body {
            ClassBody::Long(_) => Ok(()),
            _ => Err(reported),
        }
    }

    /// `redeclare function extends f ... end f;` (a class extension): a
    /// function whose first element is `extends f`, the function `f` the
    /// enclosing package inherits (the class tree resolves it there:
    /// `resolve::package_functions`). Any other class extension is kept
    /// only as unsupported.
    fn class_extends(
        &mut self,
        start: u32,
        kind: ClassKind,
        kind_span: Span,
        prefixes: ClassPrefixes,
    ) -> PResult<ClassDef> {
        let extends_start = self.start();
        self.bump();
        let name = self.ident("the name of the class to extend")?;
        let unsupported_span = self.span_from(extends_start);
        let modification = if self.at(Tok::LParen) {
            self.class_modification()?
        } else {
            Vec::new()
        };
        let description = self.string_comment()?;
        let mut composition = self.composition();
        let end_name = self.class_end(&name)?;
        let body = if kind == ClassKind::Function {
            let base = Element::Extends(Extends {
                visibility: Visibility::Public,
                name: Name {
                    global: false,
                    parts: vec![name.clone()],
                    span: name.span,
                },
                modification,
                span: unsupported_span,
            });
            composition.elements.insert(0, base);
            ClassBody::Long(LongBody {
                end_name,
                ..composition
            })
        } else {
            ClassBody::Unsupported {
                what: "class extension (`extends` after the class keyword)".to_string(),
                span: unsupported_span,
            }
        };
        self.class_semicolon(&body)?;
        Ok(ClassDef {
            kind,
            kind_span,
            prefixes,
            name,
            description,
            body,
            constrainedby: None,
            experiment: self.experiment.take(),
            span: self.span_from(start),
        })
    }

    /// `end Name` of a long class; a wrong name is reported but kept.
    fn class_end(&mut self, name: &Ident) -> PResult<Ident> {
        self.expect_kw(Kw::End, &format!("`end {}`", name.name))?;
        let end_name = self.ident(&format!("the class name `{}` after `end`", name.name))?;
        if end_name.name != name.name {
            self.push(
                Diagnostic::error(
                    "MS006",
                    end_name.span,
                    format!(
                        "`end {}` does not match the class name `{}`",
                        end_name.name, name.name
                    ),
                )
                .with_label(format!("expected `{}`", name.name))
                .with_help(format!(
                    "close the class with `end {};`, or rename the class",
                    name.name
                ))
                .with_note(name.span, "the class is declared here"),
            );
        }
        Ok(end_name)
    }

    /// Everything after `=` in a short class definition.
    fn short_class_specifier(&mut self) -> PResult<ClassBody> {
        let start = self.start();
        if self.at_kw(Kw::Enumeration) && self.nth(1) == Tok::LParen && self.nth(2) != Tok::Colon {
            return self.enumeration_literals(start);
        }
        if self.at_kw(Kw::Enumeration) || (self.at_kw(Kw::Der) && self.nth(1) == Tok::LParen) {
            let what = if self.at_kw(Kw::Der) {
                "derivative class `der(...)`"
            } else {
                "enumeration type"
            };
            self.bump();
            if !self.at(Tok::LParen) {
                return Err(self.unexpected("`(`"));
            }
            self.skip_balanced()?;
            return Ok(ClassBody::Unsupported {
                what: what.to_string(),
                span: self.span_from(start),
            });
        }
        let prefixes = self.type_prefixes()?;
        let base = self.name("a type name")?;
        let dims = if self.at(Tok::LBracket) {
            self.array_subscripts()?
        } else {
            Vec::new()
        };
        let modification = if self.at(Tok::LParen) {
            let mod_start = self.start();
            let arguments = self.class_modification()?;
            Some(Modification {
                arguments,
                binding: None,
                span: self.span_from(mod_start),
            })
        } else {
            None
        };
        Ok(ClassBody::Short(ShortBody {
            prefixes,
            base,
            dims,
            modification,
        }))
    }

    /// `enumeration(A "a", B "b")`, from the keyword to the `)`.
    fn enumeration_literals(&mut self, start: u32) -> PResult<ClassBody> {
        self.bump();
        self.bump();
        let mut literals = Vec::new();
        while !self.at(Tok::RParen) {
            let name = self.ident("an enumeration literal")?;
            let description = self.string_comment()?;
            literals.push(EnumLiteral { name, description });
            if self.at(Tok::Comma) {
                self.bump();
            } else if !self.at(Tok::RParen) {
                return Err(self.unexpected("`,` or `)`"));
            }
        }
        self.bump();
        Ok(ClassBody::Enumeration {
            literals,
            span: self.span_from(start),
        })
    }

    /// Skip a balanced `( ... )` group starting at the current `(`.
    fn skip_balanced(&mut self) -> PResult<()> {
        let mut level = 0usize;
        loop {
            match self.tok() {
                Tok::LParen => level += 1,
                Tok::RParen => {
                    level -= 1;
                    if level == 0 {
                        self.bump();
                        return Ok(());
                    }
                }
                Tok::Eof | Tok::Semi => return Err(self.unexpected("`)`")),
                _ => {}
            }
            self.bump();
        }
    }

    /// The body of a long class up to (not including) its `end`. The
    /// returned `end_name` is a placeholder the caller replaces.
    fn composition(&mut self) -> LongBody {
        // Kept small: this frame is on the recursion path of nested
        // classes, so everything but elements is handled elsewhere.
        let placeholder = Ident {
            name: String::new(),
            span: self.span(self.start(), self.start()),
        };
        let mut body = LongBody {
            elements: Vec::new(),
            sections: Vec::new(),
            end_name: placeholder,
        };
        let mut visibility = Visibility::Public;
        while !matches!(self.tok(), Tok::Eof | Tok::Kw(Kw::End)) {
            let start_pos = self.pos;
            let result = if self.at_section_keyword() || self.at_kw(Kw::Annotation) {
                self.composition_keyword(&mut body.sections, &mut visibility)
            } else if let Some(kw) = self.misspelt_section_keyword() {
                self.misspelt_keyword(kw, &mut body.sections, &mut visibility);
                Ok(())
            } else {
                self.element(visibility, &mut body.elements)
            };
            if result.is_err() {
                self.rewind(start_pos);
                self.skip_element(true);
                self.ensure_progress(start_pos);
            }
        }
        body
    }

    /// `public`, `protected`, a section, `external ...;` or `annotation(...);`
    /// inside a class body.
    fn composition_keyword(
        &mut self,
        sections: &mut Vec<Section>,
        visibility: &mut Visibility,
    ) -> PResult<()> {
        let start = self.start();
        let initial = if self.at_kw(Kw::Initial) {
            Some(self.bump_span())
        } else {
            None
        };
        match self.tok() {
            Tok::Kw(Kw::Public) => {
                self.bump();
                *visibility = Visibility::Public;
            }
            Tok::Kw(Kw::Protected) => {
                self.bump();
                *visibility = Visibility::Protected;
            }
            Tok::Kw(Kw::Equation) => {
                self.bump();
                sections.push(self.equation_section(initial, start));
            }
            Tok::Kw(Kw::Algorithm) => {
                self.bump();
                sections.push(self.algorithm_section(initial, start));
            }
            Tok::Kw(Kw::External) => self.external_clause()?,
            _ => self.annotation_statement()?,
        }
        Ok(())
    }

    /// MS010 at a misspelt section keyword; the section is then read as if
    /// the keyword were spelt right, so what follows is checked as usual.
    fn misspelt_keyword(
        &mut self,
        kw: Kw,
        sections: &mut Vec<Section>,
        visibility: &mut Visibility,
    ) {
        let token = self.bump();
        let span = self.token_span(token);
        let word = self.text_of(token).to_string();
        self.push(
            Diagnostic::error(
                "MS010",
                span,
                format!("`{word}` is not a keyword; read as `{}`", kw.as_str()),
            )
            .with_label(format!("did you mean `{}`?", kw.as_str()))
            .with_help(format!("write `{}`", kw.as_str())),
        );
        let start = token.start;
        match kw {
            Kw::Equation => sections.push(self.equation_section(None, start)),
            Kw::Algorithm => sections.push(self.algorithm_section(None, start)),
            Kw::Protected => *visibility = Visibility::Protected,
            _ => *visibility = Visibility::Public,
        }
    }

    /// `external "C" y = f(x) annotation(...);`: not kept, only checked
    /// for balanced syntax up to its `;`.
    fn external_clause(&mut self) -> PResult<()> {
        self.bump();
        if self.at(Tok::String) {
            self.bump();
        }
        if !self.at(Tok::Semi) && !self.at_kw(Kw::Annotation) {
            let lhs = self.expression()?;
            if self.eat(Tok::Equals).is_some() {
                self.expression()?;
            } else if !matches!(lhs.kind, ExprKind::Call { .. }) {
                return Err(self.unexpected("`=` or `;`"));
            }
        }
        self.annotation_opt()?;
        self.expect(Tok::Semi, "`;`")?;
        // The class annotation of an external function may follow.
        Ok(())
    }

    /// `annotation(...);` standing on its own in a class or section: the
    /// class annotation, whose `experiment` is kept.
    fn annotation_statement(&mut self) -> PResult<()> {
        if self.eat_kw(Kw::Annotation).is_some() {
            let arguments = self.class_modification()?;
            if let Some(experiment) = experiment_of(&arguments) {
                self.experiment = Some(experiment);
            }
        }
        self.expect(Tok::Semi, "`;` after the annotation")?;
        Ok(())
    }

    /// One element (several for `Real a, b;`), appended to `elements`.
    fn element(&mut self, visibility: Visibility, elements: &mut Vec<Element>) -> PResult<()> {
        let start = self.start();
        match self.tok() {
            Tok::Kw(Kw::Import) => {
                let import = self.import_clause(visibility)?;
                elements.push(Element::Import(import));
                return Ok(());
            }
            Tok::Kw(Kw::Extends) => {
                let extends = self.extends_clause(visibility)?;
                elements.push(Element::Extends(extends));
                return Ok(());
            }
            _ => {}
        }
        let prefixes = self.element_prefixes()?;
        if starts_class(self.tok()) {
            let class = std::sync::Arc::new(self.class_definition()?);
            elements.push(Element::Class {
                visibility,
                prefixes,
                class,
            });
            return Ok(());
        }
        let components = self.component_clause(visibility, prefixes, start)?;
        elements.extend(components);
        Ok(())
    }

    fn element_prefixes(&mut self) -> PResult<ElementPrefixes> {
        let mut prefixes = ElementPrefixes::default();
        loop {
            let span = self.token_span(self.current());
            let slot = match self.tok() {
                Tok::Kw(Kw::Redeclare) => &mut prefixes.redeclare,
                Tok::Kw(Kw::Final) => &mut prefixes.final_,
                Tok::Kw(Kw::Inner) => &mut prefixes.inner,
                Tok::Kw(Kw::Outer) => &mut prefixes.outer,
                Tok::Kw(Kw::Replaceable) => &mut prefixes.replaceable,
                _ => return Ok(prefixes),
            };
            if slot.is_some() {
                return Err(self.duplicate_prefix());
            }
            *slot = Some(span);
            self.bump();
        }
    }

    fn duplicate_prefix(&mut self) -> Reported {
        let token = self.current();
        let span = self.token_span(token);
        let found = self.found(token);
        self.push(
            Diagnostic::error("MS001", span, format!("duplicate prefix: {found}"))
                .with_label("already given")
                .with_help("write each prefix at most once"),
        )
    }

    fn type_prefixes(&mut self) -> PResult<TypePrefixes> {
        let mut prefixes = TypePrefixes::default();
        loop {
            let span = self.token_span(self.current());
            let slot = match self.tok() {
                Tok::Kw(Kw::Flow) => &mut prefixes.flow,
                Tok::Kw(Kw::Stream) => &mut prefixes.stream,
                Tok::Kw(Kw::Discrete) => &mut prefixes.discrete,
                Tok::Kw(Kw::Parameter) => &mut prefixes.parameter,
                Tok::Kw(Kw::Constant) => &mut prefixes.constant,
                Tok::Kw(Kw::Input) => &mut prefixes.input,
                Tok::Kw(Kw::Output) => &mut prefixes.output,
                _ => return Ok(prefixes),
            };
            if slot.is_some() {
                return Err(self.duplicate_prefix());
            }
            *slot = Some(span);
            self.bump();
        }
    }

    fn import_clause(&mut self, visibility: Visibility) -> PResult<Import> {
        let start = self.start();
        self.bump();
        let mut alias = None;
        if self.at(Tok::Ident) && self.nth(1) == Tok::Equals {
            alias = Some(self.ident("an alias")?);
            self.bump();
        }
        let name_start = self.start();
        let mut parts = vec![self.ident("the name to import")?];
        let mut wildcard = None;
        let mut multiple = Vec::new();
        loop {
            match (self.tok(), self.nth(1)) {
                (Tok::Dot, Tok::Ident) => {
                    self.bump();
                    parts.push(self.ident("an identifier")?);
                }
                (Tok::DotStar, _) if alias.is_none() => {
                    wildcard = Some(self.bump_span());
                    break;
                }
                (Tok::Dot, Tok::LBrace) if alias.is_none() => {
                    self.bump();
                    self.bump();
                    loop {
                        multiple.push(self.ident("a name to import")?);
                        if self.eat(Tok::Comma).is_none() {
                            break;
                        }
                    }
                    self.expect(Tok::RBrace, "`,` or `}`")?;
                    break;
                }
                _ => break,
            }
        }
        let name_end = parts.last().map_or(name_start, |p| p.span.end);
        let name = Name {
            global: false,
            parts,
            span: self.span(name_start, name_end),
        };
        self.string_comment()?;
        self.annotation_opt()?;
        self.expect(Tok::Semi, "`;`")?;
        Ok(Import {
            visibility,
            alias,
            name,
            wildcard,
            multiple,
            span: self.span_from(start),
        })
    }

    fn extends_clause(&mut self, visibility: Visibility) -> PResult<Extends> {
        let start = self.start();
        self.bump();
        let name = self.name("the name of the class to extend")?;
        let modification = if self.at(Tok::LParen) {
            self.class_modification()?
        } else {
            Vec::new()
        };
        self.annotation_opt()?;
        self.expect(Tok::Semi, "`;`")?;
        Ok(Extends {
            visibility,
            name,
            modification,
            span: self.span_from(start),
        })
    }

    fn component_clause(
        &mut self,
        visibility: Visibility,
        element_prefixes: ElementPrefixes,
        start: u32,
    ) -> PResult<Vec<Element>> {
        let prefixes = self.type_prefixes()?;
        let type_name = self.name("a type name or element")?;
        let type_dims = if self.at(Tok::LBracket) {
            self.array_subscripts()?
        } else {
            Vec::new()
        };
        let mut components = Vec::new();
        loop {
            let name = self.ident("a component name")?;
            let dims = if self.at(Tok::LBracket) {
                self.array_subscripts()?
            } else {
                Vec::new()
            };
            let modification = self.modification_opt()?;
            let condition = if self.eat_kw(Kw::If).is_some() {
                Some(self.expression()?)
            } else {
                None
            };
            let description = self.string_comment()?;
            let span = self.span_from(start);
            self.annotation_opt()?;
            components.push(Element::Component(Component {
                visibility,
                element_prefixes: element_prefixes.clone(),
                prefixes: prefixes.clone(),
                type_name: type_name.clone(),
                type_dims: type_dims.clone(),
                name,
                dims,
                modification,
                condition,
                description,
                span,
            }));
            if self.eat(Tok::Comma).is_none() {
                break;
            }
        }
        self.constraining_clause_opt()?;
        self.expect(Tok::Semi, "`;` or `,`")?;
        Ok(components)
    }

    /// `constrainedby Name(mods) "text"` after a replaceable element: the
    /// name is kept, its modifiers dropped.
    fn constraining_clause_opt(&mut self) -> PResult<Option<Name>> {
        if self.eat_kw(Kw::Constrainedby).is_none() {
            return Ok(None);
        }
        let name = self.name("the constraining class")?;
        if self.at(Tok::LParen) {
            self.class_modification()?;
        }
        self.string_comment()?;
        self.annotation_opt()?;
        Ok(Some(name))
    }

    /// `(args) = e`, `(args)`, `= e`, `:= e`, or nothing.
    fn modification_opt(&mut self) -> PResult<Option<Modification>> {
        let start = self.start();
        let arguments = if self.at(Tok::LParen) {
            self.class_modification()?
        } else if !matches!(self.tok(), Tok::Equals | Tok::Assign) {
            return Ok(None);
        } else {
            Vec::new()
        };
        let binding = if self.eat(Tok::Equals).is_some() || self.eat(Tok::Assign).is_some() {
            Some(self.expression()?)
        } else {
            None
        };
        Ok(Some(Modification {
            arguments,
            binding,
            span: self.span_from(start),
        }))
    }

    fn class_modification(&mut self) -> PResult<Vec<Argument>> {
        self.nested(|p| {
            p.expect(Tok::LParen, "`(`")?;
            let mut arguments = Vec::new();
            if p.eat(Tok::RParen).is_some() {
                return Ok(arguments);
            }
            loop {
                arguments.push(p.argument()?);
                if p.eat(Tok::Comma).is_none() {
                    break;
                }
            }
            p.expect(Tok::RParen, "`,` or `)`")?;
            Ok(arguments)
        })
    }

    fn argument(&mut self) -> PResult<Argument> {
        let start = self.start();
        let is_redeclare = |p: &Self| {
            let mut i = 0;
            while matches!(p.nth(i), Tok::Kw(Kw::Each | Kw::Final)) {
                i += 1;
            }
            matches!(p.nth(i), Tok::Kw(Kw::Redeclare | Kw::Replaceable))
        };
        if is_redeclare(self) {
            if let Some(r) = self.redeclare_class()? {
                return Ok(Argument::RedeclareClass(r));
            }
            self.skip_argument()?;
            return Ok(Argument::Redeclare {
                span: self.span_from(start),
            });
        }
        let each = self.eat_kw(Kw::Each);
        let final_ = self.eat_kw(Kw::Final);
        let name = self.name("a name to modify")?;
        let modification = self.modification_opt()?;
        self.string_comment()?;
        Ok(Argument::Modify {
            each,
            final_,
            name,
            modification,
            span: self.span_from(start),
        })
    }

    /// `redeclare package Medium = Media.Oil` (a class kind, a name, `=`, a
    /// class name and at most a description); `None`, consuming nothing,
    /// for any other form.
    fn redeclare_class(&mut self) -> PResult<Option<RedeclareClass>> {
        if self.tok() != Tok::Kw(Kw::Redeclare) {
            return Ok(None);
        }
        let Some(kind) = class_kind(self.nth(1)) else {
            return Ok(None);
        };
        if self.nth(2) != Tok::Ident || self.nth(3) != Tok::Equals {
            return Ok(None);
        }
        let mut i = 4;
        while self.nth(i) == Tok::Ident && self.nth(i + 1) == Tok::Dot {
            i += 2;
        }
        if self.nth(i) != Tok::Ident
            || !matches!(self.nth(i + 1), Tok::Comma | Tok::RParen | Tok::String)
        {
            return Ok(None);
        }
        let start = self.start();
        self.bump();
        self.bump();
        let name = self.ident("the name of the redeclared class")?;
        self.bump();
        let base = self.name("the class that replaces it")?;
        let span = self.span_from(start);
        self.string_comment()?;
        Ok(Some(RedeclareClass {
            kind,
            name,
            base,
            span,
        }))
    }

    /// Skip one modification argument up to the `,` or `)` that ends it.
    fn skip_argument(&mut self) -> PResult<()> {
        let mut level = 0usize;
        loop {
            match self.tok() {
                Tok::LParen | Tok::LBracket | Tok::LBrace => level += 1,
                Tok::RParen | Tok::RBracket | Tok::RBrace if level > 0 => level -= 1,
                Tok::RParen | Tok::Comma if level == 0 => return Ok(()),
                Tok::Eof | Tok::Semi => return Err(self.unexpected("`)`")),
                _ => {}
            }
            self.bump();
        }
    }

    /// `annotation(...)`, parsed as a class modification and dropped.
    fn annotation_opt(&mut self) -> PResult<()> {
        if self.eat_kw(Kw::Annotation).is_some() {
            self.class_modification()?;
        }
        Ok(())
    }

    /// `"text" + "more"`: a description string.
    fn string_comment(&mut self) -> PResult<Option<String>> {
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

    fn ident(&mut self, expected: &str) -> PResult<Ident> {
        let token = self.expect(Tok::Ident, expected)?;
        Ok(Ident {
            name: self.text_of(token).to_string(),
            span: self.token_span(token),
        })
    }

    /// `[.]A.B.C`
    fn name(&mut self, expected: &str) -> PResult<Name> {
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

// ---------------------------------------------------------------------------
// Equation and algorithm sections.
// ---------------------------------------------------------------------------

impl Parser<'_> {
    fn equation_section(&mut self, initial: Option<Span>, start: u32) -> Section {
        let equations = self.clause_list::<Equation>(&[]);
        Section::Equation {
            initial,
            equations,
            span: self.span_from(start),
        }
    }

    fn algorithm_section(&mut self, initial: Option<Span>, start: u32) -> Section {
        let statements = self.clause_list::<Statement>(&[]);
        Section::Algorithm {
            initial,
            statements,
            span: self.span_from(start),
        }
    }

    fn at_list_end(&self, stop: &[Kw]) -> bool {
        match self.tok() {
            Tok::Eof => true,
            Tok::Kw(kw) if stop.contains(&kw) => true,
            _ => self.at_section_keyword() || self.at_class_end(),
        }
    }

    /// A string comment and annotation, then the closing `;`.
    fn finish_statement(&mut self) -> PResult<()> {
        self.string_comment()?;
        self.annotation_opt()?;
        self.expect(Tok::Semi, "`;`")?;
        Ok(())
    }

    fn equation(&mut self) -> PResult<Equation> {
        self.nested(|p| {
            let start = p.start();
            match p.tok() {
                Tok::Kw(Kw::For) => p.for_clause::<Equation>(start),
                Tok::Kw(Kw::If) => p.if_clause::<Equation>(start),
                Tok::Kw(Kw::When) => p.when_equation(start),
                Tok::Kw(Kw::Connect) => p.connect_equation(start),
                Tok::LParen if p.output_list_ahead(Tok::Equals) => {
                    let (targets, value) = p.output_list(Tok::Equals, "`=`")?;
                    Ok(Equation::Outputs {
                        targets,
                        value,
                        span: p.span_from(start),
                    })
                }
                _ => p.simple_or_call_equation(start),
            }
        })
    }

    fn simple_or_call_equation(&mut self, start: u32) -> PResult<Equation> {
        let lhs = self.expression()?;
        if self.eat(Tok::Equals).is_some() {
            let rhs = self.expression()?;
            self.finish_statement()?;
            return Ok(Equation::Simple {
                lhs,
                rhs,
                span: self.span_from(start),
            });
        }
        match lhs.kind {
            ExprKind::Call { func, args, .. }
                if matches!(
                    self.tok(),
                    Tok::Semi | Tok::String | Tok::Kw(Kw::Annotation)
                ) =>
            {
                self.finish_statement()?;
                Ok(Equation::Call {
                    name: func,
                    args,
                    span: self.span_from(start),
                })
            }
            _ => Err(self.unexpected("`=`")),
        }
    }

    /// Whether an output list `(a, , b)` followed by `after` (`=` or
    /// `:=`) starts here: a parenthesis whose matching `)` is followed by
    /// `after`, with a comma at its own level. Reads ahead only.
    fn output_list_ahead(&self, after: Tok) -> bool {
        let mut level = 0usize;
        let mut comma = false;
        for ahead in 0.. {
            match self.nth(ahead) {
                Tok::LParen | Tok::LBrace | Tok::LBracket => level += 1,
                Tok::RParen | Tok::RBrace | Tok::RBracket => {
                    level = level.saturating_sub(1);
                    if level == 0 {
                        return comma && self.nth(ahead + 1) == after;
                    }
                }
                Tok::Comma if level == 1 => comma = true,
                Tok::Eof | Tok::Semi => return false,
                _ => {}
            }
        }
        false
    }

    /// `(a, , b) = f(x);` from its `(` to its `;`: the places (an empty
    /// one skips an output) and the value.
    fn output_list(&mut self, after: Tok, what: &str) -> PResult<(Vec<Option<Expr>>, Expr)> {
        self.expect(Tok::LParen, "`(`")?;
        let mut targets = Vec::new();
        loop {
            if self.at(Tok::Comma) || self.at(Tok::RParen) {
                targets.push(None);
            } else {
                targets.push(Some(self.expression()?));
            }
            if self.eat(Tok::Comma).is_none() {
                break;
            }
        }
        self.expect(Tok::RParen, "`,` or `)`")?;
        self.expect(after, what)?;
        let value = self.expression()?;
        self.finish_statement()?;
        Ok((targets, value))
    }

    fn connect_equation(&mut self, start: u32) -> PResult<Equation> {
        self.bump();
        self.expect(Tok::LParen, "`(` after `connect`")?;
        let a = self.component_ref()?;
        self.expect(Tok::Comma, "`,`")?;
        let b = self.component_ref()?;
        self.expect(Tok::RParen, "`)`")?;
        self.finish_statement()?;
        Ok(Equation::Connect {
            a,
            b,
            span: self.span_from(start),
        })
    }

    /// `i in range, j in range` after `for`.
    fn for_indices(&mut self) -> PResult<Vec<(Ident, Expr)>> {
        let mut indices = Vec::new();
        loop {
            let index = self.ident("a loop index")?;
            if !self.at_kw(Kw::In) {
                return Err(self.unexpected_with_help(
                "`in`",
                "give the loop range explicitly, as in `for i in 1:n loop`; a `for` without range is not supported",
            ));
            }
            self.bump();
            let range = self.expression()?;
            indices.push((index, range));
            if self.eat(Tok::Comma).is_none() {
                return Ok(indices);
            }
        }
    }

    /// `end for;` and friends.
    fn block_end(&mut self, kw: Kw) -> PResult<()> {
        let expected = format!("`end {}`", kw.as_str());
        self.expect_kw(Kw::End, &expected)?;
        self.expect_kw(kw, &expected)?;
        self.finish_statement()
    }

    fn when_equation(&mut self, start: u32) -> PResult<Equation> {
        self.when_clause::<Equation>()?;
        Ok(Equation::When {
            span: self.span_from(start),
        })
    }

    fn statement(&mut self) -> PResult<Statement> {
        self.nested(|p| {
            let start = p.start();
            match p.tok() {
                Tok::Kw(Kw::If) => p.if_clause::<Statement>(start),
                Tok::Kw(Kw::For) => p.for_clause::<Statement>(start),
                Tok::Kw(Kw::While) => {
                    p.bump();
                    let condition = p.expression()?;
                    p.expect_kw(Kw::Loop, "`loop`")?;
                    let body = p.clause_list::<Statement>(&[Kw::End]);
                    p.block_end(Kw::While)?;
                    Ok(Statement::While {
                        condition,
                        body,
                        span: p.span_from(start),
                    })
                }
                Tok::Kw(Kw::When) => p.when_statement(start),
                Tok::Kw(kw @ (Kw::Break | Kw::Return)) => {
                    p.bump();
                    p.finish_statement()?;
                    let span = p.span_from(start);
                    Ok(if kw == Kw::Break {
                        Statement::Break { span }
                    } else {
                        Statement::Return { span }
                    })
                }
                Tok::LParen if p.output_list_ahead(Tok::Assign) => {
                    let (targets, value) = p.output_list(Tok::Assign, "`:=`")?;
                    Ok(Statement::Outputs {
                        targets,
                        value,
                        span: p.span_from(start),
                    })
                }
                _ => p.assignment_or_call(start),
            }
        })
    }

    fn assignment_or_call(&mut self, start: u32) -> PResult<Statement> {
        let target = self.expression()?;
        if self.eat(Tok::Assign).is_some() {
            let value = self.expression()?;
            self.finish_statement()?;
            let span = self.span_from(start);
            return Ok(match target.kind {
                ExprKind::Ref(target) => Statement::Assign {
                    target,
                    value,
                    span,
                },
                _ => Statement::Other {
                    what: "an assignment to something other than a variable",
                    span,
                },
            });
        }
        if !matches!(target.kind, ExprKind::Call { .. }) {
            return Err(self.unexpected("`:=`"));
        }
        self.finish_statement()?;
        Ok(Statement::Other {
            what: "a call statement",
            span: self.span_from(start),
        })
    }

    fn when_statement(&mut self, start: u32) -> PResult<Statement> {
        self.when_clause::<Statement>()?;
        Ok(Statement::Other {
            what: "a `when` statement",
            span: self.span_from(start),
        })
    }
}

/// What equation and algorithm sections share: a list of clauses, and
/// `if`, `for` and `when` clauses over bodies of the same kind. One parser
/// of each serves both (`Parser::clause_list`, `if_clause`, `for_clause`,
/// `when_clause`).
trait Clause: Sized {
    /// One clause (an equation, a statement).
    fn parse(p: &mut Parser<'_>) -> PResult<Self>;
    fn if_(branches: Vec<(Expr, Vec<Self>)>, else_: Vec<Self>, span: Span) -> Self;
    fn for_(index: Ident, range: Expr, body: Vec<Self>, span: Span) -> Self;
}

impl Clause for Equation {
    fn parse(p: &mut Parser<'_>) -> PResult<Self> {
        p.equation()
    }
    fn if_(branches: Vec<(Expr, Vec<Self>)>, else_: Vec<Self>, span: Span) -> Self {
        Equation::If {
            branches,
            else_,
            span,
        }
    }
    fn for_(index: Ident, range: Expr, body: Vec<Self>, span: Span) -> Self {
        Equation::For {
            index,
            range,
            body,
            span,
        }
    }
}

impl Clause for Statement {
    fn parse(p: &mut Parser<'_>) -> PResult<Self> {
        p.statement()
    }
    fn if_(branches: Vec<(Expr, Vec<Self>)>, else_: Vec<Self>, span: Span) -> Self {
        Statement::If {
            branches,
            else_,
            span,
        }
    }
    fn for_(index: Ident, range: Expr, body: Vec<Self>, span: Span) -> Self {
        Statement::For {
            index,
            range,
            body,
            span,
        }
    }
}

impl Parser<'_> {
    /// Clauses up to a section keyword, a class `end` or one of `stop`.
    fn clause_list<C: Clause>(&mut self, stop: &[Kw]) -> Vec<C> {
        let mut clauses = Vec::new();
        while !self.at_list_end(stop) {
            let start_pos = self.pos;
            let result = if self.at_kw(Kw::Annotation) {
                self.annotation_statement()
            } else {
                C::parse(self).map(|c| clauses.push(c))
            };
            if result.is_err() {
                self.rewind(start_pos);
                self.skip_statement();
                self.ensure_progress(start_pos);
            }
        }
        clauses
    }

    /// `if c then ... elseif ... else ... end if;`
    fn if_clause<C: Clause>(&mut self, start: u32) -> PResult<C> {
        self.bump();
        let mut branches = Vec::new();
        loop {
            let condition = self.expression()?;
            self.expect_kw(Kw::Then, "`then`")?;
            let body = self.clause_list(&[Kw::Elseif, Kw::Else, Kw::End]);
            branches.push((condition, body));
            if self.eat_kw(Kw::Elseif).is_none() {
                break;
            }
        }
        let else_ = if self.eat_kw(Kw::Else).is_some() {
            self.clause_list(&[Kw::End])
        } else {
            Vec::new()
        };
        self.block_end(Kw::If)?;
        Ok(C::if_(branches, else_, self.span_from(start)))
    }

    /// `for i in range loop ... end for;`
    fn for_clause<C: Clause>(&mut self, start: u32) -> PResult<C> {
        self.bump();
        let indices = self.for_indices()?;
        self.expect_kw(Kw::Loop, "`loop`")?;
        let mut body = self.clause_list::<C>(&[Kw::End]);
        self.block_end(Kw::For)?;
        let span = self.span_from(start);
        // `for i in a, j in b loop` is the nest of two single loops.
        for (index, range) in indices.into_iter().rev() {
            body = vec![C::for_(index, range, body, span)];
        }
        // `indices` is never empty, so exactly one loop is left.
        match body.pop() {
            Some(outer) => Ok(outer),
            None => Err(self.unexpected("a loop index")),
        }
    }

    /// `when c then ... elsewhen ... end when;`, parsed to be rejected
    /// (the checker reports it at its line).
    fn when_clause<C: Clause>(&mut self) -> PResult<()> {
        self.bump();
        loop {
            self.expression()?;
            self.expect_kw(Kw::Then, "`then`")?;
            self.clause_list::<C>(&[Kw::Elsewhen, Kw::End]);
            if self.eat_kw(Kw::Elsewhen).is_none() {
                break;
            }
        }
        self.block_end(Kw::When)
    }
}

// ---------------------------------------------------------------------------
// Expressions.
// ---------------------------------------------------------------------------

// Binding strength of binary operators, loosest first.
const OR: u8 = 1;
const AND: u8 = 2;
const RELATION: u8 = 3;
const ADDITION: u8 = 4;
const MULTIPLICATION: u8 = 5;

fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
    let span = lhs.span.to(rhs.span);
    Expr {
        kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
        span,
    }
}

impl Parser<'_> {
    fn expression(&mut self) -> PResult<Expr> {
        // Written without closures and with the rarer forms in their own
        // functions: this is the recursion of nested parentheses, so its
        // frames decide how much stack deep nesting needs.
        self.enter()?;
        let result = if self.at_kw(Kw::If) {
            self.if_expression()
        } else {
            self.simple_expression()
        };
        self.depth -= 1;
        result
    }

    fn if_expression(&mut self) -> PResult<Expr> {
        let start = self.start();
        self.bump();
        let mut branches = Vec::new();
        loop {
            let condition = self.expression()?;
            self.expect_kw(Kw::Then, "`then`")?;
            let value = self.expression()?;
            branches.push((condition, value));
            if self.eat_kw(Kw::Elseif).is_none() {
                break;
            }
        }
        self.expect_kw(Kw::Else, "`else` (an if-expression needs an else branch)")?;
        let else_ = self.expression()?;
        Ok(Expr {
            kind: ExprKind::If {
                branches,
                else_: Box::new(else_),
            },
            span: self.span_from(start),
        })
    }

    /// `a`, `a:b` or `a:b:c`.
    fn simple_expression(&mut self) -> PResult<Expr> {
        let start = self.binary_expression(OR)?;
        if !self.at(Tok::Colon) {
            return Ok(start);
        }
        self.range(start)
    }

    fn range(&mut self, start: Expr) -> PResult<Expr> {
        self.bump();
        let second = self.binary_expression(OR)?;
        let (step, stop) = if self.eat(Tok::Colon).is_some() {
            (Some(Box::new(second)), self.binary_expression(OR)?)
        } else {
            (None, second)
        };
        let span = start.span.to(stop.span);
        Ok(Expr {
            kind: ExprKind::Range {
                start: Box::new(start),
                step,
                stop: Box::new(stop),
            },
            span,
        })
    }

    /// Binary operators by precedence climbing, from `or` (loosest) down to
    /// `*` and `/`. Unary `not` and `+`/`-` are only accepted where the
    /// Modelica grammar puts them: `not` before a relation, a sign before
    /// the first term of an arithmetic expression.
    fn binary_expression(&mut self, min_level: u8) -> PResult<Expr> {
        let mut lhs = self.prefixed_operand(min_level)?;
        let mut after_relation = false;
        loop {
            let Some((op, level)) = self.binary_op() else {
                return Ok(lhs);
            };
            // Relations do not chain: `a < b < c` is an error reported by
            // whoever expects the expression to end here.
            if level < min_level || (level == RELATION && after_relation) {
                return Ok(lhs);
            }
            self.bump();
            let rhs = self.binary_expression(level + 1)?;
            after_relation = level == RELATION;
            lhs = binary(op, lhs, rhs);
        }
    }

    fn binary_op(&self) -> Option<(BinOp, u8)> {
        let op = match self.tok() {
            Tok::Kw(Kw::Or) => (BinOp::Or, OR),
            Tok::Kw(Kw::And) => (BinOp::And, AND),
            Tok::Lt => (BinOp::Lt, RELATION),
            Tok::Le => (BinOp::Le, RELATION),
            Tok::Gt => (BinOp::Gt, RELATION),
            Tok::Ge => (BinOp::Ge, RELATION),
            Tok::EqEq => (BinOp::Eq, RELATION),
            Tok::NotEq => (BinOp::Ne, RELATION),
            Tok::Plus => (BinOp::Add, ADDITION),
            Tok::Minus => (BinOp::Sub, ADDITION),
            Tok::DotPlus => (BinOp::ElemAdd, ADDITION),
            Tok::DotMinus => (BinOp::ElemSub, ADDITION),
            Tok::Star => (BinOp::Mul, MULTIPLICATION),
            Tok::Slash => (BinOp::Div, MULTIPLICATION),
            Tok::DotStar => (BinOp::ElemMul, MULTIPLICATION),
            Tok::DotSlash => (BinOp::ElemDiv, MULTIPLICATION),
            _ => return None,
        };
        Some(op)
    }

    fn prefixed_operand(&mut self, min_level: u8) -> PResult<Expr> {
        let (op, operand_level) = match self.tok() {
            Tok::Kw(Kw::Not) if min_level <= RELATION => (UnOp::Not, RELATION),
            Tok::Minus | Tok::DotMinus if min_level <= ADDITION => (UnOp::Neg, MULTIPLICATION),
            Tok::Plus | Tok::DotPlus if min_level <= ADDITION => (UnOp::Plus, MULTIPLICATION),
            Tok::Minus | Tok::DotMinus | Tok::Plus | Tok::DotPlus => {
                return Err(self.unexpected_with_help(
                    "an operand",
                    "a sign may only start an arithmetic expression: write `a*(-b)`, not `a*-b`",
                ));
            }
            _ => return self.factor(),
        };
        self.unary(op, operand_level)
    }

    fn unary(&mut self, op: UnOp, operand_level: u8) -> PResult<Expr> {
        let start = self.bump_span();
        let operand = self.binary_expression(operand_level)?;
        let span = start.to(operand.span);
        Ok(Expr {
            kind: ExprKind::Unary(op, Box::new(operand)),
            span,
        })
    }

    fn power_op(&self) -> Option<BinOp> {
        match self.tok() {
            Tok::Caret => Some(BinOp::Pow),
            Tok::DotCaret => Some(BinOp::ElemPow),
            _ => None,
        }
    }

    fn factor(&mut self) -> PResult<Expr> {
        let base = self.primary()?;
        match self.power_op() {
            None => Ok(base),
            Some(op) => self.power(op, base),
        }
    }

    fn power(&mut self, op: BinOp, base: Expr) -> PResult<Expr> {
        self.bump();
        let exponent = self.primary()?;
        if self.power_op().is_some() {
            let span = self.token_span(self.current());
            return Err(self.unsupported(
                span,
                "chained exponentiation `a^b^c` is not allowed in Modelica",
                "add parentheses: `(a^b)^c` or `a^(b^c)`",
            ));
        }
        Ok(binary(op, base, exponent))
    }

    fn primary(&mut self) -> PResult<Expr> {
        match self.tok() {
            Tok::Ident | Tok::Dot => self.reference_or_call(),
            Tok::LParen => self.parenthesized(),
            Tok::LBrace => self.array_constructor(),
            Tok::LBracket => self.matrix(),
            Tok::Kw(Kw::Der | Kw::Initial | Kw::Pure) if self.nth(1) == Tok::LParen => {
                self.builtin_call()
            }
            _ => self.literal(),
        }
    }

    /// `der(...)`, `initial()`, `pure(...)`: calls whose name is a keyword.
    fn builtin_call(&mut self) -> PResult<Expr> {
        let token = self.bump();
        let span = self.token_span(token);
        let name = Ident {
            name: self.text_of(token).to_string(),
            span,
        };
        let func = Name {
            global: false,
            parts: vec![name],
            span,
        };
        self.call(func)
    }

    /// Numbers, strings, `true`/`false` and `end` in subscripts.
    fn literal(&mut self) -> PResult<Expr> {
        let token = self.current();
        let span = self.token_span(token);
        let kind = match token.tok {
            Tok::Integer => match self.text_of(token).parse::<i64>() {
                Ok(value) => ExprKind::Integer(value),
                Err(_) => return Err(self.unexpected("an integer")),
            },
            Tok::Real => match self.text_of(token).parse::<f64>() {
                Ok(value) => ExprKind::Real(value),
                Err(_) => return Err(self.unexpected("a real number")),
            },
            Tok::String => ExprKind::String(decode_string(self.text_of(token))),
            Tok::Kw(Kw::True) => ExprKind::Bool(true),
            Tok::Kw(Kw::False) => ExprKind::Bool(false),
            Tok::Kw(Kw::End) if self.subscript_depth > 0 => ExprKind::End,
            Tok::Kw(Kw::Function) => {
                return Err(self.unsupported(
                    span,
                    "function partial application is not supported",
                    "call the function directly instead of passing it as an argument",
                ))
            }
            _ => return Err(self.unexpected("an expression")),
        };
        self.bump();
        Ok(Expr { kind, span })
    }

    fn reference_or_call(&mut self) -> PResult<Expr> {
        let reference = self.component_ref()?;
        let plain = reference.parts.iter().all(|p| p.subscripts.is_empty());
        if !(plain && self.at(Tok::LParen)) {
            return Ok(Expr {
                span: reference.span,
                kind: ExprKind::Ref(reference),
            });
        }
        let func = Name {
            global: reference.global,
            parts: reference.parts.into_iter().map(|p| p.name).collect(),
            span: reference.span,
        };
        self.call(func)
    }

    /// The argument list of a call to `func`, starting at `(`.
    fn call(&mut self, func: Name) -> PResult<Expr> {
        let start = func.span.start;
        self.expect(Tok::LParen, "`(`")?;
        let mut args = Vec::new();
        let mut named = Vec::new();
        if self.eat(Tok::RParen).is_none() {
            loop {
                if self.at(Tok::Ident) && self.nth(1) == Tok::Equals {
                    let name = self.ident("an argument name")?;
                    self.bump();
                    named.push((name, self.expression()?));
                } else {
                    if !named.is_empty() {
                        return Err(self.unexpected(
                            "a named argument `name = value` (positional arguments come first)",
                        ));
                    }
                    args.push(self.expression()?);
                    if self.at_kw(Kw::For) {
                        let span = self.token_span(self.current());
                        return Err(self.unsupported(
                            span,
                            "reduction expressions `f(e for i in r)` are not supported",
                            "write the sum or product out, or use an array function over a range",
                        ));
                    }
                }
                if self.eat(Tok::Comma).is_none() {
                    break;
                }
            }
            self.expect(Tok::RParen, "`,` or `)`")?;
        }
        Ok(Expr {
            kind: ExprKind::Call { func, args, named },
            span: self.span_from(start),
        })
    }

    fn parenthesized(&mut self) -> PResult<Expr> {
        let start = self.start();
        self.bump();
        if self.at(Tok::RParen) || self.at(Tok::Comma) {
            let span = self.span(start, self.current().end);
            return Err(self.output_list_error(span));
        }
        let inner = self.expression()?;
        if self.at(Tok::Comma) {
            let span = self.span(start, self.current().end);
            return Err(self.output_list_error(span));
        }
        self.expect(Tok::RParen, "`)`")?;
        // Parentheses only group: keep the inner expression, widened.
        Ok(Expr {
            kind: inner.kind,
            span: self.span_from(start),
        })
    }

    fn output_list_error(&mut self, span: Span) -> Reported {
        self.unsupported(
            span,
            "output expression lists `(a, b)` are not supported",
            "call a function with a single output, or split the call",
        )
    }

    fn array_constructor(&mut self) -> PResult<Expr> {
        let start = self.start();
        self.bump();
        let mut elements = Vec::new();
        if self.eat(Tok::RBrace).is_none() {
            loop {
                elements.push(self.expression()?);
                if self.at_kw(Kw::For) {
                    let span = self.token_span(self.current());
                    return Err(self.unsupported(
                        span,
                        "array comprehensions `{e for i in r}` are not supported",
                        "write the array out, or use `fill`, a range or a `for` equation",
                    ));
                }
                if self.eat(Tok::Comma).is_none() {
                    break;
                }
            }
            self.expect(Tok::RBrace, "`,` or `}`")?;
        }
        Ok(Expr {
            kind: ExprKind::Array(elements),
            span: self.span_from(start),
        })
    }

    fn matrix(&mut self) -> PResult<Expr> {
        let start = self.start();
        self.bump();
        let mut rows = Vec::new();
        loop {
            let mut row = Vec::new();
            loop {
                row.push(self.expression()?);
                if self.eat(Tok::Comma).is_none() {
                    break;
                }
            }
            rows.push(row);
            if self.eat(Tok::Semi).is_none() {
                break;
            }
        }
        self.expect(Tok::RBracket, "`,`, `;` or `]`")?;
        Ok(Expr {
            kind: ExprKind::Matrix(rows),
            span: self.span_from(start),
        })
    }

    /// `[.]a.b[i, end].c`
    fn component_ref(&mut self) -> PResult<ComponentRef> {
        let start = self.start();
        let global = if self.at(Tok::Dot) {
            self.bump();
            true
        } else {
            false
        };
        let mut parts = Vec::new();
        loop {
            let name = self.ident("a component name")?;
            let subscripts = if self.at(Tok::LBracket) {
                self.array_subscripts()?
            } else {
                Vec::new()
            };
            parts.push(RefPart { name, subscripts });
            if !(self.at(Tok::Dot) && self.nth(1) == Tok::Ident) {
                break;
            }
            self.bump();
        }
        Ok(ComponentRef {
            global,
            parts,
            span: self.span_from(start),
        })
    }

    fn array_subscripts(&mut self) -> PResult<Vec<Subscript>> {
        self.expect(Tok::LBracket, "`[`")?;
        self.subscript_depth += 1;
        let result = self.subscript_list();
        self.subscript_depth -= 1;
        let subscripts = result?;
        self.expect(Tok::RBracket, "`,` or `]`")?;
        Ok(subscripts)
    }

    fn subscript_list(&mut self) -> PResult<Vec<Subscript>> {
        let mut subscripts = Vec::new();
        loop {
            if self.at(Tok::Colon) && matches!(self.nth(1), Tok::Comma | Tok::RBracket) {
                let colon = self.bump();
                subscripts.push(Subscript::Colon(self.token_span(colon)));
            } else {
                subscripts.push(Subscript::Expr(self.expression()?));
            }
            if self.eat(Tok::Comma).is_none() {
                return Ok(subscripts);
            }
        }
    }
}
