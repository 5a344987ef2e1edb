//! Values of an instance's parameters and start values: from the
//! outermost modifier, `--set`, or the class's own binding; folded to
//! numbers at export where they can be, and checked against the bounds the
//! class declares.

use std::sync::Arc;

use super::builder::{Builder, Effective, Incoming, Purpose};
use super::system::{IntVar, RealKind};
use crate::classdb::ClassEntry;
use crate::diagnostic::Diagnostic;
use crate::ir::{Calc, Ex};
use crate::resolve::constants::enumeration_type;
use crate::resolve::expr::{Expr, ExprKind, UnOp};
use crate::resolve::model::{ClassCausality, ClassVariability, Var};
use crate::resolve::tree::Builtin;
use crate::source::Span;

/// Per element of a variable, the [`Calc`] program of its start value, if
/// one reads an Integer parameter (empty: none does).
type Calcs = Vec<Option<Arc<[Calc]>>>;

impl Builder<'_, '_> {
    /// The values of the instance's Integer and Boolean parameters, in
    /// declaration order (each may use the ones before it): fixed at
    /// export, since sizes depend on them.
    pub(crate) fn integer_parameters(
        &mut self,
        me: usize,
        entry: &ClassEntry,
        effective: &Effective,
    ) -> Vec<i64> {
        let model = &entry.model;
        let causalized = &entry.causalized;
        let decl_span = self.sys.instances[me].decl_span;
        let mut ints = Vec::new();
        for (k, ip) in causalized.causal.int_params.iter().enumerate() {
            let v = &model.vars[ip.var];
            if let Some(value) = self.outer_int(me, entry, ip.var) {
                ints.push(value);
                continue;
            }
            let name = self.dotted(me, &v.name);
            let value = if let Some(inc) = effective.get(&(ip.var, false)) {
                self.fold_incoming(inc, 1)
                    .filter(|v| v.len() == 1)
                    .map(|v| v[0])
            } else if let Some(b) = &causalized.int_bindings[k] {
                b.fold(&ints)
            } else {
                None
            };
            let Some(value) = value else {
                self.diags.push(
                    Diagnostic::error(
                        "MX002",
                        v.span,
                        format!(
                            "Integer parameter `{name}` has no value that can be computed at export"
                        ),
                    )
                    .with_label("no value")
                    .with_help(
                        "bind it to a literal or to earlier Integer parameters, or pass --set",
                    ),
                );
                ints.push(0);
                continue;
            };
            if value.fract() != 0.0 || !value.is_finite() {
                self.diags.push(
                    Diagnostic::error(
                        "MX003",
                        v.span,
                        format!("`{name}` must be a whole number, got {value}"),
                    )
                    .with_label("not a whole number")
                    .with_help("give Integer parameters whole-number values"),
                );
            }
            let origin = effective
                .get(&(ip.var, false))
                .map(|inc| (inc.span, inc.set_index));
            self.check_bounds(v, &name, &[value], origin, decl_span);
            ints.push(value as i64);
            self.sys.ints.push(IntVar {
                name,
                value: value as i64,
                boolean: v.ty == Builtin::Boolean,
                enumeration: match v.ty {
                    Builtin::Enumeration(c) => enumeration_type(self.db.tree(), c).map(Arc::new),
                    _ => None,
                },
                description: v.description.as_deref().map(Arc::from),
            });
        }
        ints
    }

    /// What the runtime may do with Real variable `vi` of the instance, and
    /// the start value of each of its `len` elements (`None` when it is
    /// computed at run time, or has none), with the [`Calc`] program of each
    /// start value folded from an expression that reads an Integer
    /// parameter (empty when there is none).
    pub(crate) fn kind_and_starts(
        &mut self,
        me: usize,
        entry: &ClassEntry,
        vi: usize,
        len: usize,
        effective: &Effective,
    ) -> (RealKind, Vec<Option<f64>>, Calcs) {
        let mut calcs = Vec::new();
        let v = &entry.model.vars[vi];
        let causalized = &entry.causalized;
        let parent = self.sys.instances[me].parent;
        let none = vec![None; len];
        let (kind, starts) = if v.variability != ClassVariability::Continuous {
            let own = causalized
                .bindings
                .iter()
                .find(|(i, _)| *i == vi)
                .map(|(_, e)| e);
            let inc = effective.get(&(vi, false));
            if let (None, Some(own), Some(b)) = (inc, own, &v.binding) {
                if own.len() != len && own.len() != 1 {
                    self.binding_size_mismatch(me, &v.name, b.span, own.len(), len);
                }
            }
            match self.value_of(inc, own, me, vi, len, &mut calcs) {
                Some(Some(x)) => {
                    let values: Vec<f64> = x.iter().flatten().copied().collect();
                    let origin = inc.map(|inc| (inc.span, inc.set_index));
                    let decl_span = self.sys.instances[me].decl_span;
                    self.check_bounds(v, &self.dotted(me, &v.name), &values, origin, decl_span);
                    (RealKind::Parameter, x)
                }
                Some(None) => (RealKind::CalculatedParameter, none),
                None => {
                    let start = fold_literal(&v.attrs.start);
                    // An outer's parameter without an inner is MX026 at
                    // export, and free when the class is checked alone.
                    if start.is_none() && entry.model.outer_of(vi).is_none() {
                        self.unset_parameter(me, parent, &v.name, v.span);
                    }
                    (RealKind::Parameter, vec![Some(start.unwrap_or(0.0)); len])
                }
            }
        } else if v.special.state {
            let own = causalized
                .starts
                .iter()
                .find(|(i, _)| *i == vi)
                .map(|(_, e)| e);
            let inc = effective
                .get(&(vi, true))
                .or_else(|| effective.get(&(vi, false)));
            match self.value_of(inc, own, me, vi, len, &mut calcs) {
                Some(Some(x)) => (RealKind::State, x),
                Some(None) => (RealKind::StateCalculated, none),
                None => (RealKind::State, vec![Some(0.0); len]),
            }
        } else if parent.is_none()
            && v.causality == ClassCausality::Input
            && v.tearing.is_none()
            // Checked as a component, a class receives the derivatives
            // its input connectors carry from whoever connects them.
            && (v.carried_of.is_none() || self.purpose == Purpose::Check)
        {
            (
                RealKind::Input,
                vec![Some(fold_literal(&v.attrs.start).unwrap_or(0.0)); len],
            )
        } else if parent.is_none()
            && v.causality == ClassCausality::Output
            && v.tearing.is_none()
            && v.carried_of.is_none()
        {
            (RealKind::Output, none)
        } else {
            (RealKind::Local, none)
        };
        if v.variability == ClassVariability::Constant && kind == RealKind::Parameter {
            (RealKind::Constant, starts, calcs)
        } else {
            (kind, starts, calcs)
        }
    }

    /// MX034: a parameter-sized array's binding (an array literal, whose
    /// size the class cannot know) has another number of elements than
    /// the array has in this instance.
    fn binding_size_mismatch(
        &mut self,
        me: usize,
        var: &str,
        span: Span,
        given: usize,
        len: usize,
    ) {
        let name = self.dotted(me, var);
        self.diags.push(
            Diagnostic::error(
                "MX034",
                span,
                format!("`{name}` has {len} element(s) in this model, but its binding gives {given}"),
            )
            .with_label(format!("{given} value(s) for {len} element(s)"))
            .with_help(format!(
                "give `{name}` a value of its size with a modifier, or change the size parameter to fit the binding"
            )),
        );
    }

    /// MX009 when a parameter's value (one number per element) lies outside
    /// the `min`/`max` its declaration gives. Reported where the value comes
    /// from: the modifier that sets it, the component declaration, or the
    /// parameter itself (its own binding or `--set`).
    pub(crate) fn check_bounds(
        &mut self,
        v: &Var,
        name: &str,
        values: &[f64],
        origin: Option<(Option<Span>, Option<usize>)>,
        decl_span: Option<Span>,
    ) {
        let min = fold_literal(&v.attrs.min);
        let max = fold_literal(&v.attrs.max);
        let Some((value, bound, word)) = values.iter().find_map(|&x| match (min, max) {
            (Some(lo), _) if x < lo => Some((x, lo, "min")),
            (_, Some(hi)) if x > hi => Some((x, hi, "max")),
            _ => None,
        }) else {
            return;
        };
        let from_set = matches!(origin, Some((_, Some(_))));
        let span = match origin {
            Some((Some(span), _)) => span,
            _ => decl_span.filter(|_| !from_set).unwrap_or(v.span),
        };
        let via = if from_set { " (from --set)" } else { "" };
        let relation = if word == "min" { "below" } else { "above" };
        self.diags.push(
            Diagnostic::error(
                "MX009",
                span,
                format!("`{name}` = {value}{via} is {relation} its {word} = {bound}"),
            )
            .with_label(format!("{word} = {bound} violated"))
            .with_help(format!("give `{name}` a value within its declared bounds")),
        );
    }

    /// A Real parameter that neither its class, nor a modifier, nor `--set`
    /// gives a value. The class may leave it unset (Modelica allows it, and
    /// the methodology's own listings do); information completeness is owed
    /// by whoever instantiates the class, so the diagnostic names that
    /// component declaration, or the parameter itself when it belongs to the
    /// exported model.
    fn unset_parameter(&mut self, me: usize, parent: Option<usize>, var: &str, var_span: Span) {
        let full = self.sys.flat_name(me, var);
        match (parent, self.sys.instances[me].decl_span) {
            (Some(_), Some(decl)) => {
                let (component, member) = full.rsplit_once('.').unwrap_or(("", var));
                let local = component.rsplit('.').next().unwrap_or(component);
                self.diags.push(
                    Diagnostic::error(
                        "MC048",
                        decl,
                        format!(
                            "parameter `{full}` has no value: its class declares it without one and no modifier sets it"
                        ),
                    )
                    .with_label("parameter left unset")
                    .with_help(format!(
                        "set it where the component is declared, e.g. `{local}({member} = ...)`"
                    )),
                );
            }
            _ if self.purpose == Purpose::Check => {}
            _ => self.diags.push(
                Diagnostic::error(
                    "MX008",
                    var_span,
                    format!("parameter `{full}` of the exported model has no value"),
                )
                .with_label("missing binding")
                .with_help(format!(
                    "give it a value, e.g. `parameter Real {var} = 1`, or pass --set {full}=VALUE"
                )),
            ),
        }
    }

    /// The value of a parameter or state start from the outermost modifier
    /// or else the class's own binding: `Some(Some(values))` when it folds to
    /// numbers at export (one per element), `Some(None)` when it is computed
    /// at run time (the flag of whoever computes it is set), `None` when
    /// there is neither. With numbers, `calcs` receives the [`Calc`]
    /// program of each element's value that reads an Integer parameter.
    fn value_of(
        &mut self,
        inc: Option<&Incoming>,
        own: Option<&Vec<Ex>>,
        me: usize,
        vi: usize,
        len: usize,
        calcs: &mut Calcs,
    ) -> Option<Option<Vec<Option<f64>>>> {
        // One number per element; one value is given to all elements.
        let spread = |values: Option<Vec<f64>>| -> Option<Vec<Option<f64>>> {
            let values = values?;
            if values.len() == len {
                Some(values.into_iter().map(Some).collect())
            } else if values.len() == 1 {
                Some(vec![Some(values[0]); len])
            } else {
                None
            }
        };
        if let Some(inc) = inc {
            if let Some(d) = misshaped(inc, len) {
                self.diags.extend(d);
                return Some(Some(vec![None; len]));
            }
            let folded = spread(self.fold_incoming(inc, len));
            if folded.is_some() {
                let ints: &[i64] = match inc.origin {
                    Some((o, _)) => &self.sys.instances[o].ints,
                    None => &[],
                };
                let exs = match inc.element {
                    Some((e, n)) if n > 1 && inc.value.len() == n * len => {
                        &inc.value[e * len..(e + 1) * len]
                    }
                    _ => &inc.value[..],
                };
                *calcs = calcs_of(exs, ints, len);
            }
            if folded.is_none() {
                if let Some((o, k)) = inc.origin {
                    let nv = self.sys.classes[self.sys.instances[o].class]
                        .model
                        .vars
                        .len();
                    self.sys.instances[o].own_binding[nv + k] = 1;
                }
            }
            return Some(folded);
        }
        let own = own?;
        let ints = &self.sys.instances[me].ints;
        let folded = spread(own.iter().map(|e| e.fold(ints)).collect());
        if folded.is_none() {
            self.sys.instances[me].own_binding[vi] = 1;
        } else {
            *calcs = calcs_of(own, ints, len);
        }
        Some(folded)
    }

    /// Folds an incoming value (each element) in the terms of the instance
    /// that wrote it.
    ///
    /// A value for an element of an array of components that has one part
    /// of `len` numbers per element (`G = {1, 2, 3}` for `link[3]`, `len`
    /// the variable's number of elements) gives the element its part;
    /// otherwise each element gets the whole value (`each G = 2`).
    fn fold_incoming(&self, inc: &Incoming, len: usize) -> Option<Vec<f64>> {
        let ints: &[i64] = match inc.origin {
            Some((o, _)) => &self.sys.instances[o].ints,
            None => &[],
        };
        let values: Vec<f64> = inc
            .value
            .iter()
            .map(|e| e.fold(ints))
            .collect::<Option<_>>()?;
        match inc.element {
            Some((e, n)) if n > 1 && values.len() == n * len => {
                Some(values[e * len..(e + 1) * len].to_vec())
            }
            _ => Some(values),
        }
    }
}

/// The [`Calc`] programs of the values `exs` spread over `len` elements as
/// `value_of` spreads them (one per element, or one for all): an element's
/// program when its value reads an Integer parameter (the only values a size
/// can change), else None; empty when there is no such value.
fn calcs_of(exs: &[Ex], ints: &[i64], len: usize) -> Calcs {
    let one = |e: &Ex| {
        e.calc(ints)
            .filter(|c| c.iter().any(|s| matches!(s, Calc::Int(_))))
            .map(Arc::from)
    };
    let calcs: Calcs = if exs.len() == len {
        exs.iter().map(one).collect()
    } else if exs.len() == 1 {
        vec![one(&exs[0]); len]
    } else {
        Vec::new()
    };
    if calcs.iter().all(Option::is_none) {
        Vec::new()
    } else {
        calcs
    }
}

/// MX046 for a modifier of an array of components whose value has neither
/// one value for every element (`each C = 50`: `len` numbers, the modified
/// variable's size) nor one part per element, leading with the array's
/// sizes (`C = [10, 20, 30; 40, 50, 60]` for `cap[2, 3]`). `Some(None)`
/// when the value does not fit but was reported at another element.
fn misshaped(inc: &Incoming, len: usize) -> Option<Option<Diagnostic>> {
    let (e, n) = inc.element?;
    let span = inc.span?;
    let count = inc.value.len();
    if count == len {
        return None;
    }
    let leads = inc.shape.len() >= inc.array.len() && inc.shape[..inc.array.len()] == inc.array;
    if count == n * len && leads {
        return None;
    }
    if e > 0 {
        return Some(None);
    }
    let text = |s: &[usize]| {
        let sizes: Vec<String> = s.iter().map(|n| n.to_string()).collect();
        format!("[{}]", sizes.join(", "))
    };
    let array = text(&inc.array);
    Some(Some(
        Diagnostic::error(
            "MX046",
            span,
            format!(
                "this value has shape {}, but the array of components it modifies has size {array}",
                text(&inc.shape)
            ),
        )
        .with_label(format!("not one part per element of {array}"))
        .with_help(format!(
            "give one value for every element with `each`, or a value of shape {array} (one part per element{})",
            if len == 1 { String::new() } else { format!(", each of {len} numbers") }
        )),
    ))
}

/// The value of an attribute written as a number literal (`min = 2`,
/// `start = -1.5`); anything else is not folded.
pub(crate) fn fold_literal(e: &Option<Expr>) -> Option<f64> {
    e.as_ref().and_then(|x| match &x.kind {
        ExprKind::Real(r) => Some(*r),
        ExprKind::Integer(i) => Some(*i as f64),
        ExprKind::Unary(UnOp::Neg, a) => match a.kind {
            ExprKind::Real(r) => Some(-r),
            ExprKind::Integer(i) => Some(-(i as f64)),
            _ => None,
        },
        _ => None,
    })
}
