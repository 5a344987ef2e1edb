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
    /// Stable code: `MS…` syntax, `MC…` compliance, `UC…` units, `MX…` export.
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
        }
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
        if !self.help.is_empty() {
            d = d.with_notes(vec![format!("help: {}", self.help)]);
        }
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
