//! mofmu's diagnostics in the protocol's words: one range (UTF-16), the
//! code with a link to its page, the message with its help line, and the
//! notes as related places.

use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Uri,
};

use super::text;
use super::workspace::path_uri;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::{SourceMap, Span};

/// The protocol location of a span of `sources`.
pub fn location(sources: &SourceMap, span: Span) -> Option<Location> {
    let file = sources.get(span.file);
    let uri: Uri = path_uri(std::path::Path::new(&file.name)).parse().ok()?;
    let range = text::range(
        &file.text,
        file.line_starts(),
        span.start as usize,
        span.end as usize,
    );
    Some(Location::new(uri, range))
}

/// The page of the documentation that lists `code`, under `base`.
pub fn doc_link(base: &str, code: &str) -> Option<Uri> {
    let page = match code.get(..2)? {
        "MS" => "syntax-codes.md",
        "MC" | "MX" => "rules.md",
        "UC" => "units.md",
        "CS" => "cosim.md",
        _ => return None,
    };
    format!(
        "{}/{page}#{}",
        base.trim_end_matches('/'),
        code.to_lowercase()
    )
    .parse()
    .ok()
}

/// The default documentation base: the `docs/` directory of the source
/// tree the binary was built from, when it is still there.
pub fn default_docs() -> Option<String> {
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    docs.is_dir().then(|| path_uri(&docs))
}

/// One diagnostic for the editor: the message, then its label and help
/// line; the notes as related information.
pub fn to_lsp(sources: &SourceMap, d: &Diagnostic, docs: Option<&str>) -> lsp_types::Diagnostic {
    let file = sources.get(d.span.file);
    let range = text::range(
        &file.text,
        file.line_starts(),
        d.span.start as usize,
        d.span.end as usize,
    );
    let mut message = d.message.clone();
    if !d.label.is_empty() {
        message.push_str(&format!(" ({})", d.label));
    }
    if !d.help.is_empty() {
        message.push_str(&format!("\nhelp: {}", d.help));
    }
    for s in &d.suggestions {
        let how = if s.machine_applicable {
            " (quick fix)"
        } else {
            ""
        };
        message.push_str(&format!("\nsuggestion: {}{how}", s.message));
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .notes
        .iter()
        .filter_map(|(span, note)| {
            Some(DiagnosticRelatedInformation {
                location: location(sources, *span)?,
                message: note.clone(),
            })
        })
        .collect();
    lsp_types::Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.to_string())),
        code_description: docs
            .and_then(|base| doc_link(base, d.code))
            .map(|href| CodeDescription { href }),
        source: Some("mofmu".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diagnostic_keeps_its_code_link_help_and_utf16_range() {
        let mut sources = SourceMap::new();
        let text = "model Ü\n  Real x;\nend Ü;\n";
        let file = sources.add("/tmp/Ü.mo", text);
        let at = text.find("end").unwrap();
        let d = Diagnostic::error("MC038", Span::new(file, at + 4, at + 6), "needs a state")
            .with_help("declare it");
        let lsp = to_lsp(&sources, &d, Some("file:///docs"));
        assert_eq!(lsp.range.start, lsp_types::Position::new(2, 4));
        assert_eq!(lsp.range.end, lsp_types::Position::new(2, 5));
        assert_eq!(lsp.code, Some(NumberOrString::String("MC038".into())));
        assert_eq!(
            lsp.code_description.unwrap().href.as_str(),
            "file:///docs/rules.md#mc038"
        );
        assert!(lsp.message.ends_with("help: declare it"));
    }
}
