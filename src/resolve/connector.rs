//! The variables of a connector component, with the causality the
//! assumed-causality rules give each: a potential inherits the causality of
//! the signal before it, a flow takes the inverse (MC013, MC014).

use super::elaborator::Elaborator;
use super::model::{
    ClassCausality, ClassModel, ClassVariability, ConnectorDecl, ConnectorMember, Var,
};
use super::modifier::apply_to_member;
use super::pending::Pending;
use super::tree::ClassId;
use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::{self, Argument, Visibility};

impl<'a> Elaborator<'a> {
    /// The variables of a connector component, named `comp.member`.
    pub(crate) fn connector(
        &mut self,
        comp: &'a ast::Component,
        cid: ClassId,
        own_mods: &'a [Argument],
        model: &mut ClassModel,
        pending: &mut Pending<'a>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let protected = comp.visibility == Visibility::Protected;
        let dims: Vec<&'a ast::Expr> = comp
            .type_dims
            .iter()
            .chain(&comp.dims)
            .filter_map(|s| match s {
                ast::Subscript::Expr(e) => Some(e),
                ast::Subscript::Colon(_) => None,
            })
            .collect();
        if let Some(d) = connector_array_fault(comp, &dims) {
            diags.push(d);
            return;
        }
        let array = !dims.is_empty();
        // The members of an array of connectors are named `inlets[].m_flow`:
        // one array variable per member, the element's index in the brackets.
        let prefix = if array {
            format!("{}[]", comp.name.name)
        } else {
            comp.name.name.clone()
        };
        let members = match self.connector_members(cid, &prefix, protected, comp.span) {
            Ok(members) => members,
            Err(ds) => {
                diags.extend(ds);
                return;
            }
        };
        let (keys, mut members): (Vec<String>, Vec<Var>) = members.into_iter().unzip();
        if array {
            if let Some(m) = members.iter().find(|m| !m.dims.is_empty()) {
                diags.push(
                    Diagnostic::error(
                        "MC126",
                        comp.name.span,
                        format!(
                            "`{}` is an array of connectors whose member `{}` is an array",
                            comp.name.name,
                            m.name.replacen("[]", "", 1)
                        ),
                    )
                    .with_label("array of connectors with array members")
                    .with_help(
                        "make the connector's members scalars, or declare one connector per port",
                    ),
                );
                return;
            }
        }
        let shift = model.vars.len();
        for arg in own_mods {
            if let Err(d) = apply_to_member(&mut members, shift, &comp.name.name, arg, pending) {
                diags.push(d);
            }
        }
        let connector = model.connectors.len();
        if let Some(c) = &comp.condition {
            pending.connector_conditions.push((connector, c));
        }
        if array {
            // Every member has the array's size, resolved in this class.
            for k in 0..members.len() {
                pending.dims.push((shift + k, dims.clone()));
            }
        }
        model.vars.extend(members.into_iter().map(|mut v| {
            v.carried_of = v.carried_of.map(|c| c + shift);
            v.connector = Some(connector);
            for e in v.expressions_mut() {
                e.shift_into_connector(shift);
            }
            v
        }));
        model.connectors.push(ConnectorDecl {
            name: comp.name.name.clone(),
            class: cid,
            array,
            members: keys
                .into_iter()
                .enumerate()
                .map(|(k, key)| ConnectorMember {
                    var: shift + k,
                    key,
                })
                .collect(),
            condition: None,
            span: comp.span,
        });
    }

    /// Checks the assumed-causality order of a connector class on its own
    /// (`MC013`, `MC014`), so that a connector is checked where it is
    /// declared even before any component uses it.
    pub fn check_connector(&mut self, id: ClassId) -> Vec<Diagnostic> {
        let span = self.tree.get(id).def.name.span;
        let name = self.tree.get(id).name.clone();
        match self.connector_members(id, &name, false, span) {
            Ok(_) => Vec::new(),
            Err(ds) => ds,
        }
    }

    /// Expands a connector class into variables named `comp.member`, with
    /// causality assigned by the assumed-causality rules; each with its
    /// name in the connector class.
    fn connector_members(
        &mut self,
        cid: ClassId,
        comp: &str,
        protected: bool,
        span: Span,
    ) -> Result<Vec<(String, Var)>, Vec<Diagnostic>> {
        let cm = self.class(cid)?;
        let mut out = Vec::new();
        let mut diags = Vec::new();
        // Where the member order stands: the causality of the most recent
        // signal, and whether flows have begun after it. Potentials may
        // follow the signal (or potentials that do) and inherit its
        // causality; flows follow a signal or potential, may follow each
        // other (the methodology groups `flow f0[2]; flow t;`) and take the
        // inverse causality. A potential after a flow has no signal of its
        // own, so it needs a new signal first.
        let mut group: Option<MemberGroup> = None;
        for v in &cm.vars {
            let mut var = v.clone();
            if let Some(base) = v.carried_of {
                // A carried derivative travels with its variable, with the
                // same causality.
                var.causality = out
                    .get(base)
                    .map(|(_, b): &(String, Var)| b.causality)
                    .unwrap_or(v.causality);
                let inner = v.name.trim_start_matches("der(").trim_end_matches(')');
                let depth = v.name.matches("der(").count();
                var.name = format!(
                    "{}{comp}.{inner}{}",
                    "der(".repeat(depth),
                    ")".repeat(depth)
                );
                var.protected = protected;
                var.span = span;
                out.push((v.name.clone(), var));
                continue;
            }
            if v.variability != ClassVariability::Continuous {
                // Parameters in connectors carry no causality.
            } else if v.flow {
                match group {
                    Some(MemberGroup::Potentials(c) | MemberGroup::Flows(c)) => {
                        var.causality = invert(c);
                        group = Some(MemberGroup::Flows(c));
                    }
                    None => diags.push(
                        Diagnostic::error(
                            "MC013",
                            v.span,
                            format!(
                                "flow variable `{}` must follow a potential or signal variable",
                                v.name
                            ),
                        )
                        .with_label("flow without a potential")
                        .with_help(
                            "declare an input or output signal (and its potentials) before the flow",
                        ),
                    ),
                }
            } else if v.causality != ClassCausality::Local {
                group = Some(MemberGroup::Potentials(v.causality));
            } else if let Some(MemberGroup::Potentials(c)) = group {
                var.causality = c;
            } else {
                let (message, label) = match group {
                    Some(MemberGroup::Flows(_)) => (
                        format!(
                            "potential variable `{}` follows a flow: a potential must follow an input or output variable, or potentials that do",
                            v.name
                        ),
                        "no signal since the flows before it",
                    ),
                    _ => (
                        format!(
                            "potential variable `{}` must follow an input or output variable",
                            v.name
                        ),
                        "causality cannot be inherited",
                    ),
                };
                diags.push(
                    Diagnostic::error("MC014", v.span, message)
                        .with_label(label)
                        .with_help("declare an input or output signal before this potential"),
                );
            }
            var.name = format!("{comp}.{}", v.name);
            var.protected = protected;
            var.span = span;
            out.push((v.name.clone(), var));
        }
        if diags.is_empty() {
            Ok(out)
        } else {
            Err(diags)
        }
    }
}

/// Why an array of connectors cannot be declared as written: more than one
/// dimension (MC125), or a modifier (MC126). `None` for a scalar connector
/// or an admitted array.
fn connector_array_fault(comp: &ast::Component, dims: &[&ast::Expr]) -> Option<Diagnostic> {
    if dims.len() > 1 {
        return Some(
            Diagnostic::error(
                "MC125",
                comp.name.span,
                format!(
                    "`{}` is an array of connectors with {} dimensions; arrays of connectors have one",
                    comp.name.name,
                    dims.len()
                ),
            )
            .with_label("array of connectors of more than one dimension")
            .with_help(format!(
                "declare a one-dimensional array, `{}[n]`",
                comp.name.name
            )),
        );
    }
    if !dims.is_empty() && comp.modification.is_some() {
        return Some(
            Diagnostic::error(
                "MC126",
                comp.name.span,
                format!(
                    "the array of connectors `{}` cannot be modified",
                    comp.name.name
                ),
            )
            .with_label("array of connectors with a modifier")
            .with_help(
                "declare the array without a modifier; give start values in the connector class",
            ),
        );
    }
    None
}

/// Where a connector's member list stands while it is read in order.
#[derive(Clone, Copy)]
enum MemberGroup {
    /// After a signal of this causality, and potentials only since.
    Potentials(ClassCausality),
    /// After flows that follow a signal of this causality.
    Flows(ClassCausality),
}

fn invert(c: ClassCausality) -> ClassCausality {
    match c {
        ClassCausality::Input => ClassCausality::Output,
        ClassCausality::Output => ClassCausality::Input,
        ClassCausality::Local => ClassCausality::Local,
    }
}
