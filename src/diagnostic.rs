//! The one diagnostic shape of the product: a stable code, one primary span,
//! a message, a label and a help line that says what to do.

use crate::source::{SourceMap, Span};
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// Stable code: `MS…` syntax, `MC…` compliance, `UC…` units, `MX…` export,
    /// `CS…` the connection file of `mofmu cosim`.
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    /// Short text shown under the primary span.
    pub label: String,
    /// One sentence saying what to do.
    pub help: String,
    /// Further places worth showing (e.g. the connections that close a loop).
    pub notes: Vec<(Span, String)>,
    /// Edits that make the code compliant, shown under the help line and
    /// applied by `mofmu check --fix` when machine-applicable.
    pub suggestions: Vec<Suggestion>,
}

/// One edit: replace the text of `span` (empty for an insertion) by
/// `replacement`.
#[derive(Debug, Clone, PartialEq)]
pub struct Suggestion {
    /// What the edit does, e.g. "declare `v` as a state".
    pub message: String,
    pub span: Span,
    pub replacement: String,
    /// The edit is certainly what was meant and leaves valid code, so a
    /// tool may apply it without asking (`check --fix`); otherwise it is
    /// shown only.
    pub machine_applicable: bool,
}

impl Diagnostic {
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            span,
            label: String::new(),
            help: String::new(),
            notes: Vec::new(),
            suggestions: Vec::new(),
        }
    }

    /// [`Diagnostic::with_fix`] in place.
    pub fn push_fix(
        &mut self,
        message: impl Into<String>,
        span: Span,
        replacement: impl Into<String>,
    ) {
        self.suggest(message.into(), span, replacement.into(), true);
    }

    /// [`Diagnostic::with_suggestion`] in place.
    pub fn push_suggestion(
        &mut self,
        message: impl Into<String>,
        span: Span,
        replacement: impl Into<String>,
    ) {
        self.suggest(message.into(), span, replacement.into(), false);
    }

    /// Adds an edit that a tool may apply without asking.
    pub fn with_fix(
        mut self,
        message: impl Into<String>,
        span: Span,
        replacement: impl Into<String>,
    ) -> Diagnostic {
        self.push_fix(message, span, replacement);
        self
    }

    /// Adds an edit that is shown but left to the modeller (it may not be
    /// what was meant).
    pub fn with_suggestion(
        mut self,
        message: impl Into<String>,
        span: Span,
        replacement: impl Into<String>,
    ) -> Diagnostic {
        self.push_suggestion(message, span, replacement);
        self
    }

    fn suggest(
        &mut self,
        message: String,
        span: Span,
        replacement: String,
        machine_applicable: bool,
    ) {
        self.suggestions.push(Suggestion {
            message,
            span,
            replacement,
            machine_applicable,
        });
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = help.into();
        self
    }

    pub fn with_note(mut self, span: Span, note: impl Into<String>) -> Diagnostic {
        self.notes.push((span, note.into()));
        self
    }

    /// `path:line:col: error[CODE]: message`
    pub fn render_short(&self, sources: &SourceMap) -> String {
        let file = sources.get(self.span.file);
        let (line, col) = file.line_col(self.span.start);
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        format!(
            "{}:{}:{}: {}[{}]: {}",
            file.name, line, col, sev, self.code, self.message
        )
    }

    /// Multi-line rendering with the source line, label and help.
    pub fn render_human(&self, sources: &SourceMap, color: bool) -> String {
        let mut files = SimpleFiles::new();
        let mut ids = Vec::new();
        for (_, f) in sources.files() {
            ids.push(files.add(f.name.clone(), f.text.clone()));
        }
        let fid = |s: Span| ids[s.file.0 as usize];
        let mut labels = vec![Label::primary(
            fid(self.span),
            self.span.start as usize..self.span.end as usize,
        )
        .with_message(self.label.clone())];
        for (s, n) in &self.notes {
            labels.push(
                Label::secondary(fid(*s), s.start as usize..s.end as usize).with_message(n.clone()),
            );
        }
        let mut d = match self.severity {
            Severity::Error => CsDiagnostic::error(),
            Severity::Warning => CsDiagnostic::warning(),
        }
        .with_code(self.code)
        .with_message(self.message.clone())
        .with_labels(labels);
        let mut notes = Vec::new();
        if !self.help.is_empty() {
            notes.push(format!("help: {}", self.help));
        }
        for s in &self.suggestions {
            notes.push(suggestion_text(s, sources));
        }
        d = d.with_notes(notes);
        let config = term::Config::default();
        if color {
            let mut buf = Vec::new();
            let mut w = term::termcolor::Ansi::new(&mut buf);
            let _ = term::emit_to_write_style(&mut w, &config, &files, &d);
            String::from_utf8_lossy(&buf).into_owned()
        } else {
            let mut out = String::new();
            let _ = term::emit_to_string(&mut out, &config, &files, &d);
            out
        }
    }
}

/// `suggestion: declare `v` as a state: replace `Real` with
/// `Base.ContinuousState` (line 4)`, the form a suggestion takes in the
/// human output.
fn suggestion_text(s: &Suggestion, sources: &SourceMap) -> String {
    let file = sources.get(s.span.file);
    let (line, _) = file.line_col(s.span.start);
    let old = &file.text[s.span.start as usize..s.span.end as usize];
    let edit = if old.contains('\n') || s.replacement.contains('\n') && !old.is_empty() {
        let (last, _) = file.line_col(s.span.end);
        let body: Vec<String> = s
            .replacement
            .lines()
            .map(|l| format!("    {}", l.trim_start()))
            .collect();
        format!("rewrite lines {line}-{last} as\n{}", body.join("\n"))
    } else if old.is_empty() {
        format!("insert `{}` at line {line}", s.replacement.trim_end())
    } else if s.replacement.is_empty() {
        format!("remove `{old}` at line {line}")
    } else {
        format!("replace `{old}` with `{}` at line {line}", s.replacement)
    };
    let how = if s.machine_applicable {
        " (mofmu check --fix applies it)"
    } else {
        ""
    };
    format!("suggestion: {}: {edit}{how}", s.message)
}

impl Diagnostic {
    /// One JSON object (one line) for editors: code, severity, message,
    /// label, help, the primary span and notes as file, byte offsets and
    /// 1-based line/column, and the suggestions with their replacements.
    pub fn render_json(&self, sources: &SourceMap) -> String {
        let span = |s: Span| {
            let file = sources.get(s.file);
            let (line, column) = file.line_col(s.start);
            let (end_line, end_column) = file.line_col(s.end);
            format!(
                "{{\"file\":{},\"byte_start\":{},\"byte_end\":{},\"line\":{line},\"column\":{column},\"end_line\":{end_line},\"end_column\":{end_column}}}",
                json_string(&file.name),
                s.start,
                s.end
            )
        };
        let notes: Vec<String> = self
            .notes
            .iter()
            .map(|(s, n)| format!("{{\"span\":{},\"message\":{}}}", span(*s), json_string(n)))
            .collect();
        let suggestions: Vec<String> = self
            .suggestions
            .iter()
            .map(|s| {
                format!(
                    "{{\"message\":{},\"span\":{},\"replacement\":{},\"applicability\":\"{}\"}}",
                    json_string(&s.message),
                    span(s.span),
                    json_string(&s.replacement),
                    if s.machine_applicable {
                        "machine-applicable"
                    } else {
                        "maybe-incorrect"
                    }
                )
            })
            .collect();
        format!(
            "{{\"code\":{},\"severity\":\"{}\",\"message\":{},\"span\":{},\"label\":{},\"help\":{},\"notes\":[{}],\"suggestions\":[{}]}}",
            json_string(self.code),
            match self.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
            json_string(&self.message),
            span(self.span),
            json_string(&self.label),
            json_string(&self.help),
            notes.join(","),
            suggestions.join(",")
        )
    }
}

/// A JSON string literal (RFC 8259 escapes).
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
