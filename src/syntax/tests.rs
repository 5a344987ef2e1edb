//! Phase tests of the parser, one a feature: each parses
//! `test_data/phases/syntax/<feature>.mo` and compares the diagnostics
//! with their codes and spans, the tree (`dump`) and the statements of its
//! algorithms (which `dump` leaves out) with `<feature>.expected`. The
//! golden files of `test_data/syntax` (`tests/it/syntax.rs`) cover the
//! parser by diagnostic code and construct; these name a feature each.

use super::ast::{ClassBody, Expr, ExprKind, Section, Statement, StoredDefinition};
use super::dump::{dump, dump_expr};
use super::parser::parse;
use crate::source::FileId;
use std::path::{Path, PathBuf};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/phases/syntax")
}

/// What a fixture's `.expected` holds: the diagnostics as `code
/// start..end message` (then `---`), the tree (`dump`), and the statements
/// of every algorithm section.
fn render(text: &str) -> String {
    let (definition, diagnostics) = parse(FileId(0), text);
    let mut out = String::new();
    for d in &diagnostics {
        let (start, end) = (d.span.start, d.span.end);
        out.push_str(&format!("{} {start}..{end} {}\n", d.code, d.message));
    }
    if !diagnostics.is_empty() {
        out.push_str("---\n");
    }
    out.push_str(&dump(&definition));
    out.push_str(&algorithms(&definition));
    out
}

/// Parse `test_data/phases/syntax/<feature>.mo` and compare its rendering
/// with `<feature>.expected`.
fn check(feature: &str) {
    let path = fixture_dir().join(format!("{feature}.mo"));
    let text = std::fs::read_to_string(&path).expect("fixture is readable");
    let expected = std::fs::read_to_string(path.with_extension("expected"))
        .expect("expected file is readable");
    let actual = render(&text);
    assert_eq!(actual, expected, "{feature}\n--- actual ---\n{actual}");
}

fn expr(e: &Expr) -> String {
    dump_expr(e)
}

/// The statements of an algorithm section, one a line, nested by indent.
fn statements(out: &mut String, indent: usize, list: &[Statement]) {
    for statement in list {
        let pad = "  ".repeat(indent);
        let span = statement.span();
        let at = format!("@{}..{}", span.start, span.end);
        match statement {
            Statement::Assign { target, value, .. } => {
                let target = dump_expr(&Expr {
                    kind: ExprKind::Ref(target.clone()),
                    span,
                });
                out.push_str(&format!("{pad}{target} := {} {at}\n", expr(value)));
            }
            Statement::If {
                branches, else_, ..
            } => {
                out.push_str(&format!("{pad}if-statement {at}\n"));
                for (condition, body) in branches {
                    out.push_str(&format!("{pad}  if {}\n", expr(condition)));
                    statements(out, indent + 2, body);
                }
                if !else_.is_empty() {
                    out.push_str(&format!("{pad}  else\n"));
                    statements(out, indent + 2, else_);
                }
            }
            Statement::For {
                index, range, body, ..
            } => {
                out.push_str(&format!(
                    "{pad}for {} in {} {at}\n",
                    index.name,
                    expr(range)
                ));
                statements(out, indent + 1, body);
            }
            Statement::While {
                condition, body, ..
            } => {
                out.push_str(&format!("{pad}while {} {at}\n", expr(condition)));
                statements(out, indent + 1, body);
            }
            Statement::Return { .. } => out.push_str(&format!("{pad}return {at}\n")),
            Statement::Break { .. } => out.push_str(&format!("{pad}break {at}\n")),
            Statement::Outputs { targets, value, .. } => {
                let targets: Vec<String> = targets
                    .iter()
                    .map(|t| t.as_ref().map(expr).unwrap_or_default())
                    .collect();
                let line = format!("({}) := {}", targets.join(", "), expr(value));
                out.push_str(&format!("{pad}{line} {at}\n"));
            }
            Statement::Other { what, .. } => out.push_str(&format!("{pad}other: {what} {at}\n")),
        }
    }
}

/// Every algorithm section of every top-level class, rendered.
fn algorithms(definition: &StoredDefinition) -> String {
    let mut out = String::new();
    for class in &definition.classes {
        let ClassBody::Long(body) = &class.body else {
            continue;
        };
        for section in &body.sections {
            if let Section::Algorithm {
                initial,
                statements: list,
                ..
            } = section
            {
                let word = if initial.is_some() {
                    "initial algorithm"
                } else {
                    "algorithm"
                };
                out.push_str(&format!("{} {word}\n", class.name.name));
                statements(&mut out, 1, list);
            }
        }
    }
    out
}

#[test]
fn class_kinds_and_short_classes() {
    check("class_kinds_and_short_classes");
}

#[test]
fn modifiers_with_each_and_final() {
    check("modifiers_each_final");
}

#[test]
fn component_arrays() {
    check("component_arrays");
}

#[test]
fn connect_in_for_loops() {
    check("connect_in_for_loops");
}

#[test]
fn if_equations() {
    check("if_equations");
}

#[test]
fn functions_with_algorithms_if_for_while_return() {
    check("functions_with_algorithms");
}

#[test]
fn annotations_dropped_except_experiment() {
    check("annotations_experiment");
}

#[test]
fn recovery_after_an_error_reports_its_code_and_span() {
    check("recovery");
}
