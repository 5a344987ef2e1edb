//! `mofmu check --fix`: applies the machine-applicable suggestions of the
//! diagnostics, checks again, and repeats while the check offers more (a
//! state declared by type may reveal an equation order to fix, an
//! encapsulated class the import it then needs). Text in, text out: the
//! caller shows the difference or writes the files.

use crate::diagnostic::Diagnostic;
use crate::library::{check_library_with, load_library, Library};

/// More rounds than any chain of fixes needs; a bound so that two fixes
/// that undo each other cannot loop.
const MAX_ROUNDS: usize = 8;

/// The files after fixing, and what is left.
pub struct Fixed {
    /// (name, text before, text after) of every file, in load order.
    pub files: Vec<(String, String, String)>,
    /// Edits applied over all rounds.
    pub edits: usize,
    /// The library as fixed, and its diagnostics (what the fixes could not
    /// settle, each with its explanation).
    pub library: Library,
    pub remaining: Vec<Diagnostic>,
}

/// Fixes `files` (name, text) in load order.
pub fn fix(files: Vec<(String, String)>, check_units: bool) -> Fixed {
    let before: Vec<String> = files.iter().map(|(_, t)| t.clone()).collect();
    let mut current = files;
    let mut edits = 0;
    let mut round = 0;
    loop {
        // A fix that writes `Base.` names gets the built-in Base on the
        // next round, as the commands load it (first, so the files'
        // indices move by one).
        let loaded = crate::library::with_base(current.clone());
        let shift = loaded.len() - current.len();
        let library = load_library(loaded);
        let remaining = check_library_with(&library, check_units);
        let applied = if round < MAX_ROUNDS {
            apply_round(&mut current, &remaining, shift)
        } else {
            0
        };
        round += 1;
        if applied == 0 {
            return Fixed {
                files: current
                    .into_iter()
                    .zip(before)
                    .map(|((name, after), before)| (name, before, after))
                    .collect(),
                edits,
                library,
                remaining,
            };
        }
        edits += applied;
    }
}

/// Applies the machine-applicable suggestions of `diags` to the texts. The
/// edits of one diagnostic are applied all together or not at all (a
/// rewrite that spans a class, as the clocked form of a `when`, is only
/// correct whole); of diagnostics whose edits overlap, the first (by the
/// place of its first edit) wins and the others wait for the next round's
/// check. An edit equal to one already kept is no overlap (several
/// diagnostics may offer the same fix). Returns the number applied.
/// `shift` is the number of files the library loaded before `files`.
fn apply_round(files: &mut [(String, String)], diags: &[Diagnostic], shift: usize) -> usize {
    let mut applied = 0;
    for (index, (_, text)) in files.iter_mut().enumerate() {
        let valid = |start: usize, end: usize| {
            start <= end
                && end <= text.len()
                && text.is_char_boundary(start)
                && text.is_char_boundary(end)
        };
        let mut groups: Vec<Vec<(usize, usize, &str)>> = diags
            .iter()
            .map(|d| {
                let mut g: Vec<(usize, usize, &str)> = d
                    .suggestions
                    .iter()
                    .filter(|s| s.machine_applicable && s.span.file.0 as usize == index + shift)
                    .map(|s| {
                        (
                            s.span.start as usize,
                            s.span.end as usize,
                            s.replacement.as_str(),
                        )
                    })
                    .collect();
                g.sort();
                g.dedup();
                g
            })
            .filter(|g| !g.is_empty() && g.iter().all(|(start, end, _)| valid(*start, *end)))
            .collect();
        groups.sort();
        let mut kept: Vec<(usize, usize, &str)> = Vec::new();
        for g in groups {
            // Two edits overlap when their spans share text, or both
            // insert (or start) at one place.
            let overlaps = |a: &(usize, usize, &str), b: &(usize, usize, &str)| {
                a.0 == b.0 || (a.0 < b.1 && b.0 < a.1)
            };
            let fresh: Vec<(usize, usize, &str)> =
                g.into_iter().filter(|e| !kept.contains(e)).collect();
            let clash = fresh.iter().enumerate().any(|(i, e)| {
                kept.iter().any(|k| overlaps(k, e)) || fresh[..i].iter().any(|f| overlaps(f, e))
            });
            if !clash {
                kept.extend(fresh);
            }
        }
        kept.sort();
        for (start, end, replacement) in kept.iter().rev() {
            text.replace_range(*start..*end, replacement);
        }
        applied += kept.len();
    }
    applied
}

/// A unified diff of two texts (whole lines, three lines of context),
/// headed `--- a/NAME` / `+++ b/NAME`; empty when they are equal.
pub fn unified_diff(name: &str, before: &str, after: &str) -> String {
    if before == after {
        return String::new();
    }
    let a: Vec<&str> = before.lines().collect();
    let b: Vec<&str> = after.lines().collect();
    let ops = line_ops(&a, &b);
    let shown = name.trim_start_matches('/');
    let mut out = format!("--- a/{shown}\n+++ b/{shown}\n");
    // Group the operations into hunks with three lines of context.
    const CONTEXT: usize = 3;
    let changed: Vec<usize> = ops
        .iter()
        .enumerate()
        .filter(|(_, op)| !matches!(op, Op::Same(..)))
        .map(|(i, _)| i)
        .collect();
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(CONTEXT);
        let mut end = changed[k];
        while k < changed.len() && changed[k] <= end + 2 * CONTEXT {
            end = changed[k];
            k += 1;
        }
        let end = (end + CONTEXT + 1).min(ops.len());
        let (a0, b0) = positions(&ops[..start]);
        let (na, nb) = positions(&ops[start..end]);
        out.push_str(&format!(
            "@@ -{},{na} +{},{nb} @@\n",
            a0 + usize::from(na > 0),
            b0 + usize::from(nb > 0)
        ));
        // In each run of changed lines the removed lines come first, then
        // the added ones, as diff and git print them.
        let mut added: Vec<&str> = Vec::new();
        for op in &ops[start..end] {
            match op {
                Op::Same(l) => {
                    for a in added.drain(..) {
                        out.push_str(&format!("+{a}\n"));
                    }
                    out.push_str(&format!(" {l}\n"));
                }
                Op::Del(l) => out.push_str(&format!("-{l}\n")),
                Op::Add(l) => added.push(l),
            }
        }
        for a in added {
            out.push_str(&format!("+{a}\n"));
        }
    }
    out
}

enum Op<'a> {
    Same(&'a str),
    Del(&'a str),
    Add(&'a str),
}

/// Lines of `a` and of `b` that the operations cover.
fn positions(ops: &[Op]) -> (usize, usize) {
    ops.iter().fold((0, 0), |(a, b), op| match op {
        Op::Same(_) => (a + 1, b + 1),
        Op::Del(_) => (a + 1, b),
        Op::Add(_) => (a, b + 1),
    })
}

/// The edit script of a longest common subsequence of lines, after the
/// common head and tail are set aside (fixes change a few lines, so the
/// table is small).
fn line_ops<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<Op<'a>> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut ops: Vec<Op> = a[..head].iter().map(|l| Op::Same(l)).collect();
    if ma.len().saturating_mul(mb.len()) > 4_000_000 {
        ops.extend(ma.iter().map(|l| Op::Del(l)));
        ops.extend(mb.iter().map(|l| Op::Add(l)));
    } else {
        // lcs[i][j]: length of a longest common subsequence of ma[i..], mb[j..].
        let w = mb.len() + 1;
        let mut lcs = vec![0u32; (ma.len() + 1) * w];
        for i in (0..ma.len()).rev() {
            for j in (0..mb.len()).rev() {
                lcs[i * w + j] = if ma[i] == mb[j] {
                    lcs[(i + 1) * w + j + 1] + 1
                } else {
                    lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < ma.len() || j < mb.len() {
            if i < ma.len() && j < mb.len() && ma[i] == mb[j] {
                ops.push(Op::Same(ma[i]));
                i += 1;
                j += 1;
            } else if j < mb.len() && (i == ma.len() || lcs[i * w + j + 1] >= lcs[(i + 1) * w + j])
            {
                ops.push(Op::Add(mb[j]));
                j += 1;
            } else {
                ops.push(Op::Del(ma[i]));
                i += 1;
            }
        }
    }
    ops.extend(a[a.len() - tail..].iter().map(|l| Op::Same(l)));
    ops
}

/// Writes `bytes` to `path` whole or not at all: into a temporary file in
/// the same directory, then renamed over the original.
pub fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    // Temporary files are private (0600): keep the replaced file's mode, or
    // give a new file an ordinary one.
    let permissions = match std::fs::metadata(path) {
        Ok(meta) => meta.permissions(),
        Err(_) => std::os::unix::fs::PermissionsExt::from_mode(0o644),
    };
    let _ = std::fs::set_permissions(tmp.path(), permissions);
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::apply_round;
    use crate::diagnostic::Diagnostic;
    use crate::source::{FileId, Span};

    fn at(start: u32, end: u32) -> Span {
        Span {
            file: FileId(0),
            start,
            end,
        }
    }

    fn diagnostic(edits: &[(u32, u32, &str)]) -> Diagnostic {
        let mut d = Diagnostic::error("MC116", at(0, 0), "test");
        for (start, end, replacement) in edits {
            d.push_fix("edit", at(*start, *end), *replacement);
        }
        d
    }

    /// A diagnostic's edits are applied together or not at all; one that
    /// clashes with an edit kept waits whole for the next round, and the
    /// same edits offered by two diagnostics are applied once.
    #[test]
    fn the_edits_of_one_diagnostic_go_together() {
        let mut files = vec![("a.mo".to_string(), "abcdefghijkl".to_string())];
        let diags = [
            diagnostic(&[(0, 1, "X"), (6, 7, "Y")]),
            diagnostic(&[(3, 4, "D"), (6, 8, "Z")]),
            diagnostic(&[(0, 1, "X"), (6, 7, "Y")]),
            diagnostic(&[(10, 10, "+")]),
        ];
        assert_eq!(apply_round(&mut files, &diags, 0), 3);
        assert_eq!(files[0].1, "XbcdefYhij+kl");
        // Next round, alone, the waiting diagnostic applies whole.
        let mut files = vec![("a.mo".to_string(), "abcdefghijkl".to_string())];
        assert_eq!(apply_round(&mut files, &diags[1..2], 0), 2);
        assert_eq!(files[0].1, "abcDefZijkl");
    }
}
