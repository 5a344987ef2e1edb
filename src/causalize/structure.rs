//! The structure a class gives its instances, lowered to expressions over
//! its Integer and Boolean parameters (and `for` loop indices), which the
//! instantiation evaluates per instance: the sizes of its component arrays,
//! the conditions of its conditional components, and the loops and element
//! indices of its connects. None of it enters the class's kernel, so an
//! array of n components adds no class code whatever n is.

use super::lowerer::{Context, Lowerer};
use crate::diagnostic::Diagnostic;
use crate::ir::Ex;
use crate::resolve::expr::{Expr, ExprKind};
use crate::resolve::model::ClassModel;

/// Per component and per connect of the class, what its instances are.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Structure {
    /// Per component: its sizes (empty for one component).
    pub sub_dims: Vec<Vec<Ex>>,
    /// Per component: its condition, if it is conditional.
    pub sub_conditions: Vec<Option<Ex>>,
    /// Per connector: its condition, if it is a conditional connector.
    pub connector_conditions: Vec<Option<Ex>>,
    /// Per connect of `ClassModel::connects`.
    pub connects: Vec<ConnectShape>,
}

/// The loops around a connect and the element indices of its sides.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConnectShape {
    /// `(first, last)` of each loop, outermost first; each may use the
    /// indices of the loops outside it (`Ex::LoopVar` by depth).
    pub loops: Vec<(Ex, Ex)>,
    pub a: Vec<Ex>,
    pub b: Vec<Ex>,
    /// The element index of each side that names an element of an array
    /// of connectors.
    pub a_element: Option<Ex>,
    pub b_element: Option<Ex>,
}

/// Whether an expression can be evaluated at export: literals, Integer
/// and Boolean parameters, loop indices and operators on them.
fn structural(e: &Ex) -> bool {
    !e.is_dynamic()
}

/// MC123 at an expression that must be known at export and is not.
fn not_structural(span: crate::source::Span, what: &str) -> Diagnostic {
    Diagnostic::error(
        "MC123",
        span,
        format!("{what} must be known at export: an expression of literals and Integer or Boolean parameters"),
    )
    .with_label("not a structural value")
    .with_help("use Integer/Boolean parameters (they are fixed when the model is exported, `--set` may change them)")
}

/// Lowers the structure of `model`.
pub fn structure(low: &mut Lowerer, model: &ClassModel) -> Result<Structure, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let lower = |low: &mut Lowerer, e: &Expr, what: &str, diags: &mut Vec<Diagnostic>| -> Ex {
        match low.lower(e, Context::Direct) {
            Ok(x) if structural(&x) => x,
            Ok(_) => {
                diags.push(not_structural(e.span, what));
                Ex::Int(0)
            }
            Err(d) => {
                diags.push(d);
                Ex::Int(0)
            }
        }
    };
    let mut out = Structure::default();
    for sub in &model.subs {
        let dims = sub
            .dims
            .iter()
            .map(|d| lower(low, d, "the size of an array of components", &mut diags))
            .collect();
        out.sub_dims.push(dims);
        let cond = sub.condition.as_ref().map(|c| {
            lower(
                low,
                c,
                "the condition of a conditional component",
                &mut diags,
            )
        });
        out.sub_conditions.push(cond);
    }
    for c in &model.connectors {
        let cond = c.condition.as_ref().map(|e| match low.lower(e, Context::Direct) {
            Ok(x) if structural(&x) => x,
            Ok(_) => {
                diags.push(
                    Diagnostic::error(
                        "MC143",
                        e.span,
                        format!(
                            "the condition of the conditional connector `{}` must be known at export: an expression of literals and Boolean or Integer parameters",
                            c.name
                        ),
                    )
                    .with_label("not a parameter expression")
                    .with_help("use a Boolean parameter (`parameter Boolean useHeatPort = false;`): it is fixed when the model is exported, `--set` may change it"),
                );
                Ex::Int(0)
            }
            Err(d) => {
                diags.push(d);
                Ex::Int(0)
            }
        });
        out.connector_conditions.push(cond);
    }
    for c in &model.connects {
        let mut shape = ConnectShape::default();
        let depth = low.loop_depth;
        for range in &c.loops {
            let ExprKind::Range {
                start,
                step: None,
                stop,
            } = &range.kind
            else {
                diags.push(not_structural(
                    range.span,
                    "the range of a loop of connects (`first:last`)",
                ));
                continue;
            };
            let first = lower(low, start, "the range of a loop of connects", &mut diags);
            let last = lower(low, stop, "the range of a loop of connects", &mut diags);
            shape.loops.push((first, last));
            low.loop_depth += 1;
        }
        shape.a =
            c.a.index
                .iter()
                .map(|i| lower(low, i, "the index of a connected element", &mut diags))
                .collect();
        shape.b =
            c.b.index
                .iter()
                .map(|i| lower(low, i, "the index of a connected element", &mut diags))
                .collect();
        shape.a_element =
            c.a.element
                .as_ref()
                .map(|i| lower(low, i, "the index of a connected connector", &mut diags));
        shape.b_element =
            c.b.element
                .as_ref()
                .map(|i| lower(low, i, "the index of a connected connector", &mut diags));
        low.loop_depth = depth;
        out.connects.push(shape);
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}
