//! Code actions: the machine-applicable suggestions of each diagnostic at
//! the requested range as one preferred quick fix (a diagnostic's edits
//! go together, as `check --fix` applies them), each other suggestion
//! (one edit: "insert `output`", "did you mean `M`?") as a quick fix of
//! its own that is not preferred (to be read before it is applied), and
//! "Fix all in file", which is `check --fix` (every round) kept to the one
//! file.

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, TextEdit, Uri, WorkspaceEdit,
};

use super::diagnostics::{location, to_lsp};
use super::state::State;
use super::text;
use crate::source::FileId;

/// The quick fixes at `params.range`, and "Fix all in file" when the file
/// has any.
pub fn code_actions(state: &State, params: &CodeActionParams) -> Vec<CodeActionOrCommand> {
    let Some((file, text)) = state.file_of(&params.text_document.uri) else {
        return Vec::new();
    };
    let Some(lib) = state.library() else {
        return Vec::new();
    };
    let starts = text::line_starts(text);
    let lo = text::offset(text, &starts, params.range.start);
    let hi = text::offset(text, &starts, params.range.end);
    let mut out = Vec::new();
    let mut any = false;
    for d in &state.diagnostics {
        let certain: Vec<_> = d
            .suggestions
            .iter()
            .filter(|s| s.machine_applicable)
            .collect();
        if d.span.file == file && !certain.is_empty() {
            any = true;
        }
        let touches =
            d.span.file == file && (d.span.start as usize) <= hi && lo <= d.span.end as usize;
        if !touches {
            continue;
        }
        let mut fix = |title: String, suggestions: &[&crate::diagnostic::Suggestion], preferred| {
            let Some(edits) = suggestions
                .iter()
                .map(|s| {
                    let at = location(&lib.sources, s.span)?;
                    Some((at.uri, TextEdit::new(at.range, s.replacement.clone())))
                })
                .collect::<Option<Vec<_>>>()
            else {
                return;
            };
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![to_lsp(&lib.sources, d, None)]),
                edit: Some(edit_of(edits)),
                is_preferred: Some(preferred),
                ..CodeAction::default()
            }));
        };
        if let Some(first) = certain.first() {
            fix(format!("{} [{}]", first.message, d.code), &certain, true);
        }
        for s in d.suggestions.iter().filter(|s| !s.machine_applicable) {
            fix(
                format!("{} [{}] (check before applying)", s.message, d.code),
                &[s],
                false,
            );
        }
    }
    if any {
        if let Some(all) = fix_all(state, file, &params.text_document.uri) {
            out.push(CodeActionOrCommand::CodeAction(all));
        }
    }
    out
}

// `WorkspaceEdit::changes` is keyed by `Uri` (see `rename` in mod.rs).
#[allow(clippy::mutable_key_type)]
fn edit_of(edits: Vec<(Uri, TextEdit)>) -> WorkspaceEdit {
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for (uri, edit) in edits {
        changes.entry(uri).or_default().push(edit);
    }
    WorkspaceEdit {
        changes: Some(changes),
        ..WorkspaceEdit::default()
    }
}

/// `check --fix` over the library, its result for one file as one edit
/// (the lines from the first change to the last).
fn fix_all(state: &State, file: FileId, uri: &Uri) -> Option<CodeAction> {
    let lib = state.library()?;
    let files: Vec<(String, String)> = lib
        .sources
        .files()
        .map(|(_, f)| (f.name.clone(), f.text.clone()))
        .collect();
    let fixed = crate::fix::fix(files, true);
    let (_, before, after) = fixed.files.get(file.0 as usize)?;
    if before == after {
        return None;
    }
    let edit = changed_part(before, after);
    Some(CodeAction {
        title: "Fix all in file (mofmu check --fix)".to_string(),
        kind: Some(CodeActionKind::SOURCE_FIX_ALL),
        edit: Some(edit_of(vec![(uri.clone(), edit)])),
        ..CodeAction::default()
    })
}

/// One edit that turns `before` into `after`: the common head and tail
/// kept, the middle replaced.
pub fn changed_part(before: &str, after: &str) -> TextEdit {
    let mut head = before
        .bytes()
        .zip(after.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !before.is_char_boundary(head) || !after.is_char_boundary(head) {
        head -= 1;
    }
    let max_tail = before.len().min(after.len()) - head;
    let mut tail = before
        .bytes()
        .rev()
        .zip(after.bytes().rev())
        .take(max_tail)
        .take_while(|(a, b)| a == b)
        .count();
    while !before.is_char_boundary(before.len() - tail)
        || !after.is_char_boundary(after.len() - tail)
    {
        tail -= 1;
    }
    let starts = text::line_starts(before);
    TextEdit::new(
        text::range(before, &starts, head, before.len() - tail),
        after[head..after.len() - tail].to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changed_part_is_the_middle() {
        let edit = changed_part("a\nReal T;\nb\n", "a\nBase.ContinuousState T;\nb\n");
        assert_eq!(edit.new_text, "Base.ContinuousState");
        assert_eq!(edit.range.start, lsp_types::Position::new(1, 0));
        assert_eq!(edit.range.end, lsp_types::Position::new(1, 4));
        let same = changed_part("abc", "abc");
        assert!(same.new_text.is_empty() && same.range.start == same.range.end);
    }
}
