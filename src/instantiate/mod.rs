//! Instantiation of a model: the instance tree, parameter values, array
//! sizes and the layout of every Real variable in one vector.
//!
//! This file holds the entry points and the walk down the instance tree.
//! Each step of the walk adds its methods to the `Builder` in its own file:
//! `values` (Integer parameters, kinds and start values), `set` (`--set`),
//! `structure` (array sizes, conditional connectors, inner and outer) and
//! `layout` (the places in `R`); they stand on `builder` (the walk's state)
//! and `system` (what the walk produces).

mod builder;
mod clocks;
mod columns;
mod layout;
mod set;
mod structure;
mod system;
mod units;
mod values;

pub(crate) use builder::{element_index, element_position};
use builder::{Builder, Effective, Incoming, Purpose};
pub use columns::lay_out_by_column;
pub use set::{SetLiteral, SetValue};
pub(crate) use structure::eval;
pub use system::{
    Balance, Instance, IntVar, RealKind, RealVar, System, EXPORT_BYTES_PER_REAL, EXPORT_MEMORY_CAP,
    MAX_ARRAY_LEN, MAX_REALS,
};
pub use units::annotate_units;

use std::collections::HashMap;
use std::sync::Arc;

use crate::classdb::{ClassDb, ClassEntry};
use crate::diagnostic::Diagnostic;
use crate::ir::SlotKind;
use crate::resolve::tree::Builtin;
use crate::resolve::ClassId;
use crate::source::Span;

/// Instantiates `model` with the given overrides. Classes come compiled
/// from `db` ([`ClassDb::compile_below`] compiles what `model` needs);
/// instantiation compiles nothing.
pub fn instantiate(
    db: &ClassDb,
    model: ClassId,
    sets: &[SetValue],
) -> Result<System, Vec<Diagnostic>> {
    instantiate_with(db, model, sets, Purpose::Export)
}

/// Instantiates a class as the checker sees it: as a component that some
/// model will instantiate. Its own parameters may be left without a value
/// (whoever instantiates it sets them); its components' may not.
pub fn instantiate_for_check(db: &ClassDb, model: ClassId) -> Result<System, Vec<Diagnostic>> {
    instantiate_with(db, model, &[], Purpose::Check)
}

fn instantiate_with(
    db: &ClassDb,
    model: ClassId,
    sets: &[SetValue],
    purpose: Purpose,
) -> Result<System, Vec<Diagnostic>> {
    let node = db.tree().get(model);
    let (model_span, model_name) = (node.def.name.span, node.qualified.clone());
    let mut b = Builder {
        db,
        class_index: HashMap::new(),
        sys: System {
            model_name: String::new(),
            classes: Vec::new(),
            instances: Vec::new(),
            reals: vec![RealVar {
                name: "time".into(),
                kind: RealKind::Time,
                start: None,
                unit: Some("s".into()),
                display_unit: None,
                quantity: None,
                description: Some("Simulation time".into()),
                min: None,
                max: None,
                nominal: None,
                derivative_of: None,
                discrete: None,
                discrete_time: false,
            }],
            ints: Vec::new(),
            n_relations: 0,
            n_indicators: 0,
            states: Vec::new(),
            derivatives: Vec::new(),
            balances: Vec::new(),
            absent_reals: Default::default(),
            start_calcs: Vec::new(),
        },
        diags: Vec::new(),
        sets_used: vec![false; sets.len()],
        model_span,
        too_large: false,
        element_sets: Vec::new(),
        set_paths: sets.iter().map(|s| s.path.clone()).collect(),
        purpose,
        texts: Vec::new(),
    };
    b.sys.model_name = model_name;
    // A `--set` path that names no variable is reported below: it is
    // never used.
    let incoming: Vec<Incoming> = sets
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let target = set::target(b.db, model, &s.path)?;
            let value = match set::value_of(b.db, model, &target, s) {
                Ok(v) => v,
                Err(d) => {
                    // Reported once, not again as a path that names nothing.
                    b.sets_used[i] = true;
                    b.diags.push(d);
                    return None;
                }
            };
            Some(Incoming {
                subs: target.subs,
                var: target.var,
                start: false,
                value: vec![value],
                origin: None,
                set_index: Some(i),
                span: None,
                element: None,
                array: Vec::new(),
                shape: Vec::new(),
                picks: target.picks,
                index: target.index,
            })
        })
        .collect();
    b.instance(model, String::new(), None, None, incoming, 0);
    for (i, used) in b.sets_used.iter().enumerate() {
        if !used {
            let help = unknown_set_help(&b.sys, &b.sys.model_name, &sets[i].path);
            b.diags.push(
                Diagnostic::error(
                    "MX001",
                    b.model_span,
                    format!(
                        "--set {}: the model has no parameter `{}`",
                        sets[i].path, sets[i].path
                    ),
                )
                .with_label("in this model")
                .with_help(help),
            );
        }
    }
    if !b.diags.is_empty() {
        return Err(b.diags);
    }
    b.slot_offsets();
    if b.purpose == Purpose::Export {
        let faults = clocks::clock_faults(&b.sys);
        if !faults.is_empty() {
            return Err(faults);
        }
    }
    Ok(b.sys)
}

/// The help of MX001: the settable names close to the one written
/// ([`crate::names::close_names`]), or how to list them all.
fn unknown_set_help(sys: &System, model: &str, path: &str) -> String {
    let settable = sys
        .reals
        .iter()
        .filter(|r| matches!(r.kind, RealKind::Parameter | RealKind::State))
        .map(|r| r.name.as_str())
        .chain(sys.ints.iter().map(|v| v.name.as_str()));
    let close = crate::names::close_names(path, settable);
    if close.is_empty() {
        format!(
            "name a parameter or state by its flat path; list them with \
             `mofmu export FILES... --model {model} --list-parameters`"
        )
    } else {
        let quoted: Vec<String> = close.iter().map(|n| format!("`{n}`")).collect();
        format!("did you mean {}?", quoted.join(", or "))
    }
}

/// The names `--set` can give a value to in `model` instantiated with no
/// `--set`: its parameters (Real, Integer, Boolean, enumeration; not those
/// computed from others) and its states (a value sets the start value),
/// each with what it is, in the order of the model's variables.
pub fn settable_names(db: &ClassDb, model: ClassId) -> Result<Vec<Settable>, Vec<Diagnostic>> {
    let sys = instantiate(db, model, &[])?;
    let text = |d: &Option<Arc<str>>| d.as_deref().map(str::to_string);
    let mut out: Vec<Settable> = sys
        .ints
        .iter()
        .map(|v| {
            let (what, value) = if v.boolean {
                ("Boolean parameter", (v.value != 0).to_string())
            } else if let Some(e) = &v.enumeration {
                let literal = usize::try_from(v.value - 1)
                    .ok()
                    .and_then(|k| e.literals.get(k))
                    .map(|(l, _)| format!("{}.{l}", e.name))
                    .unwrap_or_else(|| v.value.to_string());
                ("enumeration parameter", literal)
            } else {
                ("Integer parameter", v.value.to_string())
            };
            Settable {
                name: v.name.clone(),
                what,
                value: Some(value),
                unit: None,
                description: text(&v.description),
            }
        })
        .collect();
    for r in &sys.reals {
        let what = match r.kind {
            RealKind::Parameter => "parameter",
            RealKind::State => "state (sets its start value)",
            _ => continue,
        };
        out.push(Settable {
            name: r.name.clone(),
            what,
            value: r.start.map(|v| v.to_string()),
            unit: text(&r.unit),
            description: text(&r.description),
        });
    }
    Ok(out)
}

/// A name `--set` can give a value to, with what it is, its value at
/// export (a state's: its start value; None only where the export has no
/// number for it), its unit and its description.
#[derive(Debug, Clone, PartialEq)]
pub struct Settable {
    pub name: String,
    pub what: &'static str,
    pub value: Option<String>,
    pub unit: Option<String>,
    pub description: Option<String>,
}

impl Builder<'_, '_> {
    /// Instantiates a class at `path`, with the modifiers that arrive from
    /// enclosing instances and the command line: its Integer parameters,
    /// its Real variables, its states' derivatives, then its components.
    fn instance(
        &mut self,
        class_id: ClassId,
        path: String,
        parent: Option<usize>,
        decl_span: Option<Span>,
        incoming: Vec<Incoming>,
        depth: usize,
    ) {
        if depth > 64 {
            if let Some(s) = decl_span {
                self.diags.push(
                    Diagnostic::error(
                        "MC006",
                        s,
                        "components are nested too deeply (more than 64 levels)",
                    )
                    .with_label("nested too deeply")
                    .with_help("a class probably contains itself"),
                );
            }
            return;
        }
        let Some(ci) = self.class(class_id) else {
            return;
        };
        let entry = self.sys.classes[ci].clone();
        let me = self.push_instance(ci, &entry, path, parent, decl_span);
        let effective = self.effective(&incoming);
        self.element_sets = self.arrived_element_sets(&incoming);
        let ints = self.integer_parameters(me, &entry, &effective);
        // Relations in `for` loops: as many slots and indicators as their
        // loops have iterations at this instance's sizes.
        let counts = entry.causalized.causal.relation_counts(&ints);
        let (fixed_r, fixed_i) = (
            entry.causalized.causal.n_relations,
            entry.causalized.causal.n_indicators,
        );
        let (r, i) = counts.unwrap_or((fixed_r, fixed_i));
        self.sys.n_relations += r - fixed_r;
        self.sys.n_indicators += i - fixed_i;
        self.sys.instances[me].ints = ints;
        self.check_outers(me, &entry);
        for vi in 0..entry.model.vars.len() {
            let v = &entry.model.vars[vi];
            if (v.ty == Builtin::Real || v.discrete().is_some())
                && !self.outer_real(me, &entry, vi)
                && !self.parameter_alias(me, &entry, vi, &effective)
                && !self.outer_binding_alias(me, &entry, vi, &effective)
                && !self.real_variable(me, &entry, vi, &effective)
            {
                // The model is too large (MX007): lay out nothing more.
                return;
            }
        }
        self.state_derivatives(me, &entry);
        self.absent_connectors(me, &entry);
        self.sub_components(me, &entry, &incoming, depth);
    }

    /// A new instance of class `ci` with nothing laid out yet; its index.
    fn push_instance(
        &mut self,
        ci: usize,
        entry: &ClassEntry,
        path: String,
        parent: Option<usize>,
        decl_span: Option<Span>,
    ) -> usize {
        let n_vars = entry.model.vars.len();
        let causal = &entry.causalized.causal;
        self.sys.instances.push(Instance {
            path,
            class: ci,
            parent,
            decl_span,
            ints: Vec::new(),
            var_offset: vec![None; n_vars],
            var_len: vec![0; n_vars],
            der_offset: vec![None; n_vars],
            own_binding: vec![0; n_vars + entry.causalized.sub_modifiers.len()],
            relation_base: self.sys.n_relations,
            indicator_base: self.sys.n_indicators,
            slot_offsets: Vec::new(),
            subs: vec![None; entry.model.subs.len()],
            elements: vec![Vec::new(); entry.model.subs.len()],
            shapes: vec![Vec::new(); entry.model.subs.len()],
            absent_connectors: Vec::new(),
        });
        self.sys.n_relations += causal.n_relations;
        self.sys.n_indicators += causal.n_indicators;
        self.sys.instances.len() - 1
    }

    /// The modifier that sets each variable of the instance (and whether
    /// it sets the start value): the outermost one wins.
    fn effective(&mut self, incoming: &[Incoming]) -> Effective {
        let mut effective = Effective::new();
        for inc in incoming
            .iter()
            .filter(|inc| inc.subs.is_empty() && inc.index.is_none())
        {
            effective
                .entry((inc.var, inc.start))
                .or_insert_with(|| inc.clone());
            if let Some(si) = inc.set_index {
                self.sets_used[si] = true;
            }
        }
        effective
    }

    /// The instance's components, each with the modifiers meant for it:
    /// those arriving here for something inside it, then the class's own.
    fn sub_components(
        &mut self,
        me: usize,
        entry: &ClassEntry,
        incoming: &[Incoming],
        depth: usize,
    ) {
        for (k, sub) in entry.model.subs.iter().enumerate() {
            let mut child_incoming: Vec<Incoming> = incoming
                .iter()
                .filter(|inc| inc.subs.first() == Some(&k))
                .map(|inc| Incoming {
                    subs: inc.subs[1..].to_vec(),
                    picks: inc.picks.get(1..).unwrap_or_default().to_vec(),
                    ..inc.clone()
                })
                .collect();
            // The element each `--set cap[2].C` picks, checked against the
            // array's size below.
            let mut picks: Vec<Option<Vec<i64>>> = incoming
                .iter()
                .filter(|inc| inc.subs.first() == Some(&k))
                .map(|inc| inc.picks.first().cloned().flatten())
                .collect();
            for (j, m) in entry.causalized.sub_modifiers.iter().enumerate() {
                if m.target.path[0] == k {
                    child_incoming.push(Incoming {
                        subs: m.target.path[1..].to_vec(),
                        var: m.target.var,
                        start: m.start,
                        value: m.value.clone(),
                        origin: Some((me, j)),
                        set_index: None,
                        span: Some(m.span),
                        element: None,
                        array: Vec::new(),
                        shape: m.shape.clone(),
                        picks: vec![None; m.target.path.len() - 1],
                        index: None,
                    });
                    picks.push(None);
                }
            }
            let child_path = self.dotted(me, &sub.name);
            let Some(shape) = self.element_count(me, entry, k) else {
                continue;
            };
            self.check_picks(
                &mut child_incoming,
                &mut picks,
                &child_path,
                shape.as_deref(),
                sub.span,
            );
            let Some(shape) = shape else {
                let child = self.sys.instances.len();
                self.instance(
                    sub.class,
                    child_path,
                    Some(me),
                    Some(sub.span),
                    child_incoming,
                    depth + 1,
                );
                if self.sys.instances.len() > child {
                    self.sys.instances[me].elements[k].push(child);
                    self.sys.instances[me].subs[k] = Some(child);
                }
                continue;
            };
            self.sys.instances[me].shapes[k] = shape.clone();
            let n: usize = shape.iter().product();
            let before = (self.sys.reals.len(), self.sys.instances.len());
            for e in 0..n {
                let index = element_index(&shape, e);
                let written: Vec<String> = index.iter().map(|i| i.to_string()).collect();
                let path = format!("{child_path}[{}]", written.join(","));
                let incoming = child_incoming
                    .iter()
                    .zip(&picks)
                    .filter(|(_, pick)| pick.as_ref().map_or(true, |p| *p == index))
                    .map(|(inc, _)| Incoming {
                        element: Some((e, n)),
                        array: shape.clone(),
                        ..inc.clone()
                    })
                    .collect();
                let child = self.sys.instances.len();
                self.instance(
                    sub.class,
                    path,
                    Some(me),
                    Some(sub.span),
                    incoming,
                    depth + 1,
                );
                if self.sys.instances.len() > child {
                    self.sys.instances[me].elements[k].push(child);
                    if e == 0 {
                        self.sys.instances[me].subs[k] = Some(child);
                    }
                }
                if e == 0 && n > 1 {
                    self.reserve_elements(before, n - 1);
                }
            }
        }
    }

    /// Room for `more` elements of an array of components, each taking as
    /// many variables and instances as the first one did since `before`
    /// (the lengths of `reals` and `instances` before it): the tables then
    /// grow once instead of doubling and copying (the variables of the
    /// chain's 10^5 elements are a quarter of a gigabyte). Only capacity;
    /// what is laid out does not change. Kept below [`MAX_REALS`], which
    /// stops the layout anyway.
    fn reserve_elements(&mut self, before: (usize, usize), more: usize) {
        let reals = (self.sys.reals.len() - before.0).saturating_mul(more);
        let instances = (self.sys.instances.len() - before.1).saturating_mul(more);
        if self.sys.reals.len().saturating_add(reals) <= MAX_REALS {
            self.sys.reals.reserve(reals);
            self.sys.instances.reserve(instances);
        }
    }

    /// Offsets of every kernel slot, now that all instances exist.
    fn slot_offsets(&mut self) {
        for i in 0..self.sys.instances.len() {
            let ci = self.sys.instances[i].class;
            let class = &self.sys.classes[ci].causalized.causal;
            let instances = &self.sys.instances;
            let offs = class
                .slots
                .iter()
                .map(|s| {
                    let off = match &s.kind {
                        SlotKind::Own(v) => instances[i].var_offset[*v],
                        SlotKind::Der(v) => instances[i].der_offset[*v],
                        SlotKind::Sub { path, var } => {
                            let t = path.iter().fold(i, |t, k| {
                                instances[t].subs[*k].expect("sub-components are instantiated")
                            });
                            instances[t].var_offset[*var]
                        }
                    };
                    off.expect("every slot refers to a laid-out Real variable")
                })
                .collect();
            self.sys.instances[i].slot_offsets = offs;
        }
    }
}
