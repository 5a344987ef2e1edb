//! Moving places (spans) from one check's library to the next's: a class
//! whose own text did not change may still have moved, within its file
//! (lines inserted above it, a nested class before it grown) or to another
//! file index (a file loaded before it). A place inside such a class is
//! found again at the same distance from the start of the same piece of
//! its own text.

use std::cell::OnceCell;

use crate::diagnostic::Diagnostic;
use crate::resolve::fingerprint::{own_pieces, Fingerprints};
use crate::resolve::{ClassId, ClassTree};
use crate::source::Span;

/// One check's classes and their fingerprints.
pub(crate) struct Layout<'a> {
    pub tree: &'a ClassTree,
    pub fingerprints: &'a Fingerprints,
}

/// Places of the previous check, found again in the current one.
pub(crate) struct Relocation<'a> {
    old: Layout<'a>,
    new: Layout<'a>,
    /// The previous check's classes per file, by where they start (built
    /// on first use: a clean library has no place to move).
    old_starts: OnceCell<Vec<Vec<(u32, ClassId)>>>,
}

impl<'a> Relocation<'a> {
    pub fn new(old: Layout<'a>, new: Layout<'a>) -> Relocation<'a> {
        Relocation {
            old,
            new,
            old_starts: OnceCell::new(),
        }
    }

    /// The diagnostics with every place moved, or `None` when one of
    /// them lies outside every class whose own text is unchanged (the
    /// caller then computes them again).
    pub fn diagnostics(&self, diags: &[Diagnostic]) -> Option<Vec<Diagnostic>> {
        diags.iter().map(|d| self.diagnostic(d)).collect()
    }

    fn diagnostic(&self, d: &Diagnostic) -> Option<Diagnostic> {
        let mut moved = d.clone();
        moved.span = self.span(d.span)?;
        for (span, _) in &mut moved.notes {
            *span = self.span(*span)?;
        }
        Some(moved)
    }

    /// Where a place of the previous check is now.
    pub fn span(&self, span: Span) -> Option<Span> {
        let old_class = self.innermost(span)?;
        let new_class = self
            .new
            .tree
            .find_qualified(&self.old.tree.get(old_class).qualified)?;
        if self.old.fingerprints.own(old_class) != self.new.fingerprints.own(new_class) {
            return None;
        }
        let (k, (old_start, old_end)) = own_pieces(self.old.tree, old_class)
            .enumerate()
            .find(|(_, (start, end))| *start <= span.start && span.end <= *end)?;
        let (new_start, new_end) = own_pieces(self.new.tree, new_class).nth(k)?;
        if old_end - old_start != new_end - new_start {
            return None;
        }
        let start = new_start + (span.start - old_start);
        Some(Span {
            file: self.new.tree.get(new_class).def.span.file,
            start,
            end: start + (span.end - span.start),
        })
    }

    /// The innermost class of the previous check whose text holds `span`.
    fn innermost(&self, span: Span) -> Option<ClassId> {
        let starts = self.old_starts.get_or_init(|| {
            let mut per_file: Vec<Vec<(u32, ClassId)>> = Vec::new();
            for (i, node) in self.old.tree.classes.iter().enumerate() {
                let file = node.def.span.file.0 as usize;
                if per_file.len() <= file {
                    per_file.resize_with(file + 1, Vec::new);
                }
                per_file[file].push((node.def.span.start, ClassId(i as u32)));
            }
            for classes in &mut per_file {
                classes.sort();
            }
            per_file
        });
        let classes = starts.get(span.file.0 as usize)?;
        // Classes nest, so the innermost class holding the place is the
        // last class that starts at or before it, or one around that one.
        let last = classes.partition_point(|&(start, _)| start <= span.start);
        let mut candidate = Some(classes.get(last.checked_sub(1)?)?.1);
        while let Some(id) = candidate {
            let s = self.old.tree.get(id).def.span;
            if s.file == span.file && s.start <= span.start && span.end <= s.end {
                return Some(id);
            }
            candidate = self.old.tree.get(id).parent;
        }
        None
    }
}
