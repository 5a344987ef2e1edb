//! `resources/mofmu_locations.txt`: where each class's blocks come from in
//! the Modelica source, so that a run-time failure (a value that is not
//! finite, a function that fails) names the class, the instance, the
//! variable and the equation's `file:line`.
//!
//! Per class (in the order of the system file's class table) and per block
//! of its kernel, the variables the block writes, in the order its
//! equations determine them, each with the line of that equation and its
//! size (an array's dimensions as affine forms of the class's Integer
//! parameters, so the table does not depend on sizes). The runtime reads it
//! only when a failure is to be explained (`templates/mofmu_locations.inc`):
//! it then runs the schedule block by block and reports the first block
//! that leaves one of its variables not finite. Nothing of it is read on
//! the fast path, and the compiled library does not change.
//!
//! A file is named by its last path component: the FMU stays the same
//! wherever the library lies.
//!
//! The format, one record a line (numbers in decimal, names last):
//!
//! ```text
//! mofmu-locations 1 <files> <classes>
//! f <file name>                                  one per file
//! c <blocks> <qualified class name>              one per class
//! b <entries>                                    one per block of the class
//! e <slot> <file> <line> <dims> {<constant> <terms> {<int> <coef>}} <variable>
//! ```

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::instantiate::System;
use crate::ir::{Affine, CausalClass, SlotKind, Stmt};
use crate::source::{SourceMap, Span};

/// The resource's name under `resources/`.
pub const RESOURCE_NAME: &str = "mofmu_locations.txt";

/// The text of the resource for the classes of `sys`.
pub fn locations(sys: &System, sources: &SourceMap) -> String {
    let mut files: BTreeMap<u32, usize> = BTreeMap::new();
    let mut file_names: Vec<String> = Vec::new();
    let mut body = String::new();
    for entry in &sys.classes {
        let class = &entry.causalized.causal;
        let _ = writeln!(body, "c {} {}", class.blocks.len(), class.qualified);
        for block in &class.blocks {
            let mut writes: Vec<(usize, Span)> = Vec::new();
            assignments(&block.stmts, &mut writes);
            let _ = writeln!(body, "b {}", writes.len());
            for (slot, span) in writes {
                let file = *files.entry(span.file.0).or_insert_with(|| {
                    file_names.push(base_name(&sources.get(span.file).name));
                    file_names.len() - 1
                });
                let (line, _) = sources.get(span.file).line_col(span.start);
                let _ = write!(body, "e {slot} {file} {line}");
                let dims = slot_dims(class, slot);
                let _ = write!(body, " {}", dims.len());
                for d in &dims {
                    let _ = write!(body, " {} {}", d.constant, d.terms.len());
                    for (int, coefficient) in &d.terms {
                        let _ = write!(body, " {int} {coefficient}");
                    }
                }
                let _ = writeln!(body, " {}", class.slots[slot].name);
            }
        }
    }
    let mut text = format!(
        "mofmu-locations 1 {} {}\n",
        file_names.len(),
        sys.classes.len()
    );
    for name in &file_names {
        let _ = writeln!(text, "f {name}");
    }
    text.push_str(&body);
    text
}

/// The targets of the assignments of `stmts`, in order, with the span of
/// the equation each comes from (loops and clocked partitions included).
fn assignments(stmts: &[Stmt], out: &mut Vec<(usize, Span)>) {
    for s in stmts {
        match s {
            Stmt::Assign { target, span, .. } => out.push((*target, *span)),
            Stmt::For { body, .. } | Stmt::Clocked { body, .. } => assignments(body, out),
            Stmt::Tick(_) => {}
        }
    }
}

/// The dimensions of a slot: a variable's (or its derivative's) declared
/// ones, a sub-component's array of literal size, or none for a scalar.
fn slot_dims(class: &CausalClass, slot: usize) -> Vec<Affine> {
    let s = &class.slots[slot];
    match &s.kind {
        SlotKind::Own(v) | SlotKind::Der(v) if s.is_array => {
            class.dims.get(*v).cloned().unwrap_or_default()
        }
        SlotKind::Sub { .. } if s.is_array => {
            vec![Affine::constant(s.size.unwrap_or(1) as i64)]
        }
        _ => Vec::new(),
    }
}

/// The last component of a path, `/` or `\` separated.
fn base_name(path: &str) -> String {
    path.rsplit(['/', '\\']).next().unwrap_or(path).to_string()
}
