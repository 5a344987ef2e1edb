//! Per-class causalisation: the equations of one class, read in source
//! order, each determine one unknown; the result is ordered assignments
//! split into blocks by the inputs they depend on.

mod affine;
mod bindings;
mod blocks;
mod builtins;
mod causalized;
mod causalizer;
pub mod clocked;
mod declared;
mod derivatives;
pub mod diff;
pub mod discrete;
mod if_equation;
mod lower;
mod lowerer;
mod matching;
mod rewrite;
mod sized;
pub mod solve;
pub mod structure;
mod value;
mod when;

use std::collections::HashMap;

use crate::diagnostic::Diagnostic;
use crate::ir::{CausalClass, Ex, IntParam, SlotKind, Stmt};
use crate::resolve::model::ClassModel;
use crate::resolve::model::ClassVariability;
use crate::resolve::tree::Builtin;
use crate::source::Span;
use blocks::split_blocks;
use causalizer::Causalizer;
use lowerer::Lowerer;
use structure::Structure;

pub use affine::affine_to_ex;
pub use causalized::{Causalized, SubModifier};

/// Causalises one elaborated class.
pub fn causalize(model: &ClassModel) -> Result<Causalized, Vec<Diagnostic>> {
    let mut cx = Causalizer {
        low: Lowerer::new(model),
        model,
        determined: HashMap::new(),
        diags: Vec::new(),
        skipped_equation: false,
        defs: Vec::new(),
        var_dims: Vec::new(),
        when_branches: 0,
        terminates: Vec::new(),
    };
    let dims = cx.dims();
    cx.var_dims = dims.clone();
    let structure = match structure::structure(&mut cx.low, model) {
        Ok(s) => s,
        Err(ds) => {
            cx.diags.extend(ds);
            Structure::default()
        }
    };
    let plan = match clocked::plan(model) {
        Ok(p) => p,
        Err(ds) => {
            // The clocked equations have no partition to be read on: what
            // reading them would report follows from these faults.
            cx.diags.extend(ds);
            return Err(cx.diags);
        }
    };
    let mut bound = cx.bound_equations();
    let mut stmts = read_equations(&mut cx, model, plan.as_ref(), &mut bound, &dims);
    stmts.extend(cx.read_bound(&mut bound, true, &dims));
    if cx.diags.is_empty() && !cx.skipped_equation {
        // Derivatives that RealWithDerivative outputs carry and that no
        // equation gave explicitly are derived from their defining
        // equations, now that every equation has been read.
        stmts.extend(cx.carried_derivatives());
    }
    // An equation that could not be read might have determined any of the
    // unknowns left over, so "never determined" would be a guess.
    if cx.diags.is_empty() && !cx.skipped_equation {
        cx.check_complete(&dims);
    }
    let (int_bindings, bindings, starts, parameter_stmts, start_stmts) = cx.bindings(&dims);
    let mut sub_modifiers = cx.sub_modifiers();
    let mut parameter_stmts = parameter_stmts;
    modifier_statements(&mut cx, model, &mut sub_modifiers, &mut parameter_stmts);
    if !cx.diags.is_empty() {
        return Err(cx.diags);
    }
    let blocks = split_blocks(&stmts, &cx.low.slots);
    let mut clocked_vars: Vec<usize> = cx.low.clock_of_var.keys().copied().collect();
    if let Some(c) = &model.clocking {
        clocked_vars.extend(c.synthetic_from..model.vars.len());
    }
    clocked_vars.sort_unstable();
    clocked_vars.dedup();
    let events = cx.event_table();
    let low = cx.low;
    let int_params = low
        .int_params
        .iter()
        .map(|v| IntParam {
            var: *v,
            name: model.vars[*v].name.clone(),
        })
        .collect();
    Ok(Causalized {
        causal: CausalClass {
            qualified: model.qualified.clone(),
            slots: low.slots,
            int_params,
            parameter_stmts,
            start_stmts,
            blocks,
            n_relations: low.n_relations,
            n_indicators: low.n_indicators,
            rel_groups: low.rel_groups,
            dims,
            clocked_vars,
            events,
        },
        int_bindings,
        bindings,
        starts,
        sub_modifiers,
        structure,
    })
}

/// The modifiers of the class's components, checked: a structural
/// component's (an array of components, a conditional one) folded to a
/// value known at export (its constants fold like literals) or MC124; any
/// other one assigned to its slot, guarded by its flag, in
/// `parameter_stmts`.
fn modifier_statements(
    cx: &mut Causalizer,
    model: &ClassModel,
    sub_modifiers: &mut [SubModifier],
    parameter_stmts: &mut Vec<Stmt>,
) {
    for (k, m) in sub_modifiers.iter_mut().enumerate() {
        if !m.value.iter().any(|e| e.is_dynamic()) {
            continue;
        }
        let sub = &model.subs[m.target.path[0]];
        if sub.structural() {
            // The class's constants are known at export: a modifier of
            // them (and of Integer parameters) is as static as a literal.
            let folded: Vec<Ex> = m.value.iter().map(|e| cx.fold_constants(e)).collect();
            if !folded.iter().any(|e| e.is_dynamic()) {
                m.value = folded;
                continue;
            }
            // A Real parameter of the class itself (`each C = Ca`, or one
            // element each, `C = Cs`): each element's parameter is that
            // parameter, the same value in `R` (the instantiation lays it
            // out there), whatever an importer sets it to.
            if sub.condition.is_none()
                && !m.start
                && folded.iter().all(|e| own_parameter(cx, model, e))
            {
                m.value = folded;
                continue;
            }
            cx.diags.push(
                Diagnostic::error(
                    "MC124",
                    m.span,
                    format!(
                        "`{}` is an array of components or a conditional component: its modifiers must be known at export",
                        sub.name
                    ),
                )
                .with_label("value computed at run time")
                .with_help(
                    "name a Real parameter of this class (`each C = Cseg` with `parameter Real \
                     Cseg = Ctot/n;`, or `C = Cs`, one element each): every element's value is then \
                     that parameter, which an importer may set; or give a literal or an \
                     expression of constants and Integer/Boolean parameters",
                ),
            );
            continue;
        }
        match cx.modifier_slot(m) {
            Ok(slot) => {
                let size = cx.low.slots[slot].size.unwrap_or(1);
                let is_array = cx.low.slots[slot].is_array;
                if m.value.len() != 1 && m.value.len() != size {
                    cx.diags.push(
                        Diagnostic::error(
                            "MC063",
                            m.span,
                            format!(
                                "`{}` has {size} element(s) but this value has {}",
                                cx.low.slots[slot].name,
                                m.value.len()
                            ),
                        )
                        .with_label("sizes differ")
                        .with_help("give a value of the variable's size"),
                    );
                    continue;
                }
                for e in 0..size {
                    let value = m.value[if m.value.len() == 1 { 0 } else { e }].clone();
                    parameter_stmts.push(Stmt::Assign {
                        target: slot,
                        index: if is_array {
                            Some(Ex::Int(e as i64 + 1))
                        } else {
                            None
                        },
                        value,
                        guard: Some(model.vars.len() + k),
                        span: m.span,
                    });
                }
            }
            Err(d) => cx.diags.push(d),
        }
    }
}

/// Whether `e` is a Real parameter of the class's own, or one literal
/// element of one (`Cs[2]`).
fn own_parameter(cx: &Causalizer, model: &ClassModel, e: &Ex) -> bool {
    let Ex::Var(slot, index) = e else {
        return false;
    };
    let SlotKind::Own(i) = cx.low.slots[*slot].kind else {
        return false;
    };
    let var = &model.vars[i];
    var.variability == ClassVariability::Parameter
        && var.ty == Builtin::Real
        && match index.as_deref() {
            None => var.dims.is_empty(),
            Some(Ex::Int(_)) => true,
            Some(_) => false,
        }
}

/// The statements of the class's equations (and of the bindings read
/// between them), in source order: a clocked equation's under its
/// partition's tick, and each partition's [`Stmt::Tick`] first.
fn read_equations(
    cx: &mut Causalizer<'_>,
    model: &ClassModel,
    plan: Option<&clocked::Plan>,
    bound: &mut Vec<declared::BoundEquation>,
    dims: &[Vec<crate::ir::Affine>],
) -> Vec<Stmt> {
    let mut stmts = Vec::new();
    stmts.extend(cx.read_bound(bound, false, dims));
    let mut ticks: Vec<Option<Span>> = Vec::new();
    if let Some(plan) = plan {
        cx.low.clock_of_var = plan.vars.clone();
    }
    for (k, eq) in model.equations.iter().enumerate() {
        match plan.and_then(|p| p.equation[k]) {
            Some(p) => {
                let Some(slots) = cx.low.partition_slots(p) else {
                    continue;
                };
                cx.low.clock = Some(p);
                let body = cx.equation(eq, dims);
                cx.low.clock = None;
                if ticks.len() <= p {
                    ticks.resize(p + 1, None);
                }
                ticks[p].get_or_insert(clocked::equation_span(eq));
                stmts.push(Stmt::Clocked {
                    fire: slots.fire,
                    body,
                });
            }
            None => stmts.extend(cx.equation(eq, dims)),
        }
        stmts.extend(cx.read_bound(bound, false, dims));
    }
    // Each partition's tick comes first: it decides whether the partition
    // runs in this evaluation before any of its equations.
    let mut tick_stmts = Vec::new();
    for (p, span) in ticks.iter().enumerate() {
        if let Some(span) = span {
            match cx.low.tick(p, *span, dims) {
                Ok(t) => tick_stmts.push(t),
                Err(d) => cx.diags.push(d),
            }
        }
    }
    stmts.splice(0..0, tick_stmts);
    stmts
}
