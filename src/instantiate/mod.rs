//! Instantiation of a model: the instance tree, parameter values, array
//! sizes and the layout of every Real variable in one vector.

use std::collections::HashMap;

use crate::classdb::ClassDb;
use crate::diagnostic::Diagnostic;
use crate::ir::{Ex, SlotKind};
use crate::resolve::expr::{Expr, ExprKind, UnOp};
use crate::resolve::model::{element_name, ClassCausality, Tearing, Variability};
use crate::resolve::tree::Builtin;
use crate::resolve::{ClassId, Elaborator};
use crate::source::Span;

/// The largest number of elements of one array variable. Sizes are
/// structural and fixed at export; far larger ones come from a mistyped
/// value and would exhaust memory instead of giving a diagnostic.
pub const MAX_ARRAY_LEN: i64 = 10_000_000;

/// Bytes of export memory per Real variable: an upper bound of the peak
/// resident memory of `mofmu export` divided by the number of Reals, as
/// measured on the rod (docs/fmu.md, "Model size"). The variable's record,
/// its entry in the model table, its dependencies, its start value, kind and
/// name in the system resource all scale with it.
pub const EXPORT_BYTES_PER_REAL: usize = 2_560;

/// The memory an export may take, in bytes (16 GiB): the stated cap from
/// which [`MAX_REALS`] follows. It is a constant rather than the memory of
/// the machine at hand, so that whether a model exports does not depend on
/// where it is exported.
pub const EXPORT_MEMORY_CAP: usize = 16 << 30;

/// The most Real variables a model may have (MX007): as many as fit in
/// [`EXPORT_MEMORY_CAP`] at [`EXPORT_BYTES_PER_REAL`] each, 6,710,886.
pub const MAX_REALS: usize = EXPORT_MEMORY_CAP / EXPORT_BYTES_PER_REAL;

/// `--set path=value` from the command line.
#[derive(Debug, Clone, PartialEq)]
pub struct SetValue {
    pub path: String,
    pub value: f64,
}

/// What the runtime may do with a Real variable (mirrors MOFMU_KIND_*).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RealKind {
    Constant = 0,
    Parameter = 1,
    CalculatedParameter = 2,
    State = 3,
    StateCalculated = 4,
    Derivative = 5,
    Input = 6,
    Output = 7,
    Local = 8,
    Time = 9,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RealVar {
    pub name: String,
    pub kind: RealKind,
    pub start: Option<f64>,
    pub unit: Option<String>,
    pub display_unit: Option<String>,
    pub quantity: Option<String>,
    pub description: Option<String>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub nominal: Option<f64>,
    /// For a derivative: the index of its state in `System::reals`.
    pub derivative_of: Option<usize>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct IntVar {
    pub name: String,
    pub value: i64,
    pub boolean: bool,
    pub description: Option<String>,
}

/// One compiled class, shared by all its instances.
pub use crate::classdb::ClassEntry;

#[derive(Debug, Clone)]
pub struct Instance {
    /// Flat path: "" for the model itself, "rod", "pi.integrator".
    pub path: String,
    pub class: usize,
    pub parent: Option<usize>,
    /// Where the component is declared in its parent class.
    pub decl_span: Option<Span>,
    pub ints: Vec<i64>,
    /// Per variable of the class: offset in R (Real variables only).
    pub var_offset: Vec<Option<usize>>,
    pub var_len: Vec<usize>,
    pub der_offset: Vec<Option<usize>>,
    /// One flag per variable, then one per sub-component modifier.
    pub own_binding: Vec<u8>,
    pub relation_base: u32,
    pub indicator_base: u32,
    /// Offset in R of every slot of the class kernel.
    pub slot_offsets: Vec<usize>,
    /// The instance of each sub-component of the class (index into
    /// `System::instances`), once it is instantiated.
    pub subs: Vec<Option<usize>>,
}

#[derive(Debug, Clone)]
pub struct System {
    pub model_name: String,
    pub classes: Vec<std::sync::Arc<ClassEntry>>,
    pub instances: Vec<Instance>,
    pub reals: Vec<RealVar>,
    pub ints: Vec<IntVar>,
    pub n_relations: u32,
    pub n_indicators: u32,
    /// Indices into `reals`.
    pub states: Vec<usize>,
    pub derivatives: Vec<usize>,
    /// Declared tearing: the balance and residual of every LinearResponse
    /// component (indices into `reals`) with the component's flat name.
    pub balances: Vec<Balance>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Balance {
    pub balance: usize,
    pub residual: usize,
    pub name: String,
}

impl System {
    pub fn class_of(&self, inst: usize) -> &ClassEntry {
        &self.classes[self.instances[inst].class]
    }

    /// Name of an instance's variable in flat form.
    pub fn flat_name(&self, inst: usize, var: &str) -> String {
        element_name(&self.instances[inst].path, var, &[], 0)
    }
}

/// A modifier arriving at an instance from an enclosing one or the
/// command line.
#[derive(Debug, Clone)]
struct Incoming {
    /// The variable it sets: components below the instance it arrives at
    /// (each an index into the previous one's class's `subs`), then the
    /// variable's index in the last one's class.
    subs: Vec<usize>,
    var: usize,
    start: bool,
    /// One value, or one per element of an array.
    value: Vec<Ex>,
    /// (instance, modifier number) that wrote it; `None` for `--set`.
    origin: Option<(usize, usize)>,
    set_index: Option<usize>,
    span: Option<Span>,
}

/// Instantiates `model` with the given overrides.
/// Classes come compiled from `db` (compiled there on first use).
pub fn instantiate(
    elab: &mut Elaborator,
    db: &mut ClassDb,
    model: ClassId,
    sets: &[SetValue],
) -> Result<System, Vec<Diagnostic>> {
    instantiate_with(elab, db, model, sets, Purpose::Export)
}

/// Instantiates a class as the checker sees it: as a component that some
/// model will instantiate. Its own parameters may be left without a value
/// (whoever instantiates it sets them); its components' may not.
pub fn instantiate_for_check(
    elab: &mut Elaborator,
    db: &mut ClassDb,
    model: ClassId,
) -> Result<System, Vec<Diagnostic>> {
    instantiate_with(elab, db, model, &[], Purpose::Check)
}

/// Why a class is instantiated: to be exported, or to be checked as the
/// system its components form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    Export,
    Check,
}

fn instantiate_with(
    elab: &mut Elaborator,
    db: &mut ClassDb,
    model: ClassId,
    sets: &[SetValue],
    purpose: Purpose,
) -> Result<System, Vec<Diagnostic>> {
    let model_span = elab.tree.get(model).def.name.span;
    let model_name = elab_name(elab, model);
    let mut b = Builder {
        elab,
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
            }],
            ints: Vec::new(),
            n_relations: 0,
            n_indicators: 0,
            states: Vec::new(),
            derivatives: Vec::new(),
            balances: Vec::new(),
        },
        diags: Vec::new(),
        sets_used: vec![false; sets.len()],
        model_span,
        too_large: false,
        purpose,
    };
    b.sys.model_name = model_name;
    // A `--set` path that names no variable is reported below: it is
    // never used.
    let incoming: Vec<Incoming> = sets
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let (subs, var) = set_target(b.elab, model, &s.path)?;
            Some(Incoming {
                subs,
                var,
                start: false,
                value: vec![Ex::Real(s.value)],
                origin: None,
                set_index: Some(i),
                span: None,
            })
        })
        .collect();
    b.instance(model, String::new(), None, None, incoming, 0);
    for (i, used) in b.sets_used.iter().enumerate() {
        if !used {
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
                .with_help("name a parameter by its flat path, e.g. --set rod.n=10"),
            );
        }
    }
    if !b.diags.is_empty() {
        return Err(b.diags);
    }
    b.slot_offsets();
    Ok(b.sys)
}

/// The variable a `--set` path names below `class`: components by name,
/// then a variable (whose own name may have a dot: `port.T`).
fn set_target(elab: &mut Elaborator, class: ClassId, path: &str) -> Option<(Vec<usize>, usize)> {
    let parts: Vec<&str> = path.split('.').collect();
    let mut subs = Vec::new();
    let mut model = elab.class(class).ok()?;
    let mut rest = parts.as_slice();
    while !rest.is_empty() {
        if let Some(v) = model.var(&rest.join(".")) {
            return Some((subs, v));
        }
        let k = model.subs.iter().position(|s| s.name == rest[0])?;
        subs.push(k);
        model = elab.class(model.subs[k].class).ok()?;
        rest = &rest[1..];
    }
    None
}

fn elab_name(elab: &Elaborator, id: ClassId) -> String {
    elab.tree.get(id).qualified.clone()
}

struct Builder<'e, 'a> {
    elab: &'e mut Elaborator<'a>,
    db: &'e mut ClassDb,
    class_index: HashMap<ClassId, usize>,
    sys: System,
    diags: Vec<Diagnostic>,
    sets_used: Vec<bool>,
    model_span: Span,
    /// MX007 was reported: stop laying out variables.
    too_large: bool,
    purpose: Purpose,
}

impl Builder<'_, '_> {
    fn class(&mut self, id: ClassId) -> Option<usize> {
        if let Some(i) = self.class_index.get(&id) {
            return Some(*i);
        }
        let entry = match self.db.entry(id, self.elab) {
            Ok(entry) => entry,
            Err(ds) => {
                self.diags.extend(ds);
                return None;
            }
        };
        self.sys.classes.push(entry);
        let i = self.sys.classes.len() - 1;
        self.class_index.insert(id, i);
        Some(i)
    }

    /// MX009 when a parameter's value (one number per element) lies outside
    /// the `min`/`max` its declaration gives. Reported where the value comes
    /// from: the modifier that sets it, the component declaration, or the
    /// parameter itself (its own binding or `--set`).
    fn check_bounds(
        &mut self,
        v: &crate::resolve::model::Var,
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
    /// there is neither.
    fn value_of(
        &mut self,
        inc: Option<&Incoming>,
        own: Option<&Vec<Ex>>,
        me: usize,
        vi: usize,
        ints: &[i64],
        len: usize,
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
            let folded = spread(self.fold_incoming(inc));
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
        let folded = spread(own.iter().map(|e| e.fold(ints)).collect());
        if folded.is_none() {
            self.sys.instances[me].own_binding[vi] = 1;
        }
        Some(folded)
    }

    /// Folds an incoming value (each element) in the terms of the instance
    /// that wrote it.
    fn fold_incoming(&self, inc: &Incoming) -> Option<Vec<f64>> {
        let ints: &[i64] = match inc.origin {
            Some((o, _)) => &self.sys.instances[o].ints,
            None => &[],
        };
        inc.value.iter().map(|e| e.fold(ints)).collect()
    }

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
        let model = &entry.model;
        let compiled = &entry.causalized;
        let me = self.sys.instances.len();
        let n_vars = model.vars.len();
        self.sys.instances.push(Instance {
            path: path.clone(),
            class: ci,
            parent,
            decl_span,
            ints: Vec::new(),
            var_offset: vec![None; n_vars],
            var_len: vec![0; n_vars],
            der_offset: vec![None; n_vars],
            own_binding: vec![0; n_vars + compiled.sub_modifiers.len()],
            relation_base: self.sys.n_relations,
            indicator_base: self.sys.n_indicators,
            slot_offsets: Vec::new(),
            subs: vec![None; model.subs.len()],
        });
        self.sys.n_relations += compiled.causal.n_relations;
        self.sys.n_indicators += compiled.causal.n_indicators;
        let flat = |v: &str| {
            if path.is_empty() {
                v.to_string()
            } else {
                format!("{path}.{v}")
            }
        };

        // The effective modifier of each variable: the outermost one wins.
        let mut effective: HashMap<(usize, bool), Incoming> = HashMap::new();
        for inc in &incoming {
            if inc.subs.is_empty() {
                effective
                    .entry((inc.var, inc.start))
                    .or_insert_with(|| inc.clone());
                if let Some(si) = inc.set_index {
                    self.sets_used[si] = true;
                }
            }
        }

        // Integer and Boolean parameters, in declaration order.
        let mut ints = Vec::new();
        for (k, ip) in compiled.causal.int_params.iter().enumerate() {
            let v = &model.vars[ip.var];
            let value = if let Some(inc) = effective.get(&(ip.var, false)) {
                self.fold_incoming(inc)
                    .filter(|v| v.len() == 1)
                    .map(|v| v[0])
            } else if let Some(b) = &compiled.int_bindings[k] {
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
                            "Integer parameter `{}` has no value that can be computed at export",
                            flat(&v.name)
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
                        format!("`{}` must be a whole number, got {value}", flat(&v.name)),
                    )
                    .with_label("not a whole number")
                    .with_help("give Integer parameters whole-number values"),
                );
            }
            let origin = effective
                .get(&(ip.var, false))
                .map(|inc| (inc.span, inc.set_index));
            self.check_bounds(v, &flat(&v.name), &[value], origin, decl_span);
            ints.push(value as i64);
            self.sys.ints.push(IntVar {
                name: flat(&v.name),
                value: value as i64,
                boolean: v.ty == Builtin::Boolean,
                description: v.description.clone(),
            });
        }
        self.sys.instances[me].ints = ints.clone();

        // Real variables.
        for (vi, v) in model.vars.iter().enumerate() {
            if v.ty != Builtin::Real {
                continue;
            }
            let mut shape = Vec::new();
            for d in &compiled.causal.dims[vi] {
                let n = d.eval(&ints);
                if n < 1 {
                    self.diags.push(
                        Diagnostic::error(
                            "MX004",
                            // In a component, the declaration that sets
                            // the size; in the model itself, the array.
                            decl_span.unwrap_or(v.span),
                            format!(
                                "`{}` would have size {n}; array sizes must be at least 1",
                                flat(&v.name)
                            ),
                        )
                        .with_label("size below 1")
                        .with_help("give the size parameter a positive value"),
                    );
                    shape.push(1);
                } else if n > MAX_ARRAY_LEN {
                    self.diags.push(
                        Diagnostic::error(
                            "MX004",
                            decl_span.unwrap_or(v.span),
                            format!(
                                "`{}` would have size {n}; arrays are limited to {MAX_ARRAY_LEN} elements",
                                flat(&v.name)
                            ),
                        )
                        .with_label("size too large")
                        .with_help("give the size parameter a smaller value"),
                    );
                    shape.push(1);
                } else {
                    shape.push(n as usize);
                }
            }
            // Several large dimensions together are bounded the same way.
            let len = match shape
                .iter()
                .try_fold(1usize, |acc, &d| acc.checked_mul(d))
                .filter(|&l| l as i64 <= MAX_ARRAY_LEN)
            {
                Some(l) => l,
                None => {
                    self.diags.push(
                        Diagnostic::error(
                            "MX004",
                            decl_span.unwrap_or(v.span),
                            format!(
                                "`{}` would have more than {MAX_ARRAY_LEN} elements",
                                flat(&v.name)
                            ),
                        )
                        .with_label("size too large")
                        .with_help("give the size parameters smaller values"),
                    );
                    1
                }
            };
            if self.sys.reals.len().saturating_add(len) > MAX_REALS {
                if !self.too_large {
                    self.too_large = true;
                    self.diags.push(
                        Diagnostic::error(
                            "MX007",
                            decl_span.unwrap_or(v.span),
                            format!(
                                "the model would have more than {MAX_REALS} Real variables (`{}` alone has {len}); exporting it would take more than {} GiB",
                                flat(&v.name),
                                EXPORT_MEMORY_CAP >> 30
                            ),
                        )
                        .with_label("model too large")
                        .with_help(format!("reduce the array sizes: an export takes about {EXPORT_BYTES_PER_REAL} bytes per Real variable")),
                    );
                }
                return;
            }
            let offset = self.sys.reals.len();
            self.sys.instances[me].var_offset[vi] = Some(offset);
            self.sys.instances[me].var_len[vi] = len;

            let fold_attr = fold_literal;
            let none = vec![None; len];

            let (kind, starts) = if v.variability != Variability::Continuous {
                let own = compiled
                    .bindings
                    .iter()
                    .find(|(i, _)| *i == vi)
                    .map(|(_, e)| e);
                let inc = effective.get(&(vi, false));
                match self.value_of(inc, own, me, vi, &ints, len) {
                    Some(Some(x)) => {
                        let values: Vec<f64> = x.iter().flatten().copied().collect();
                        let origin = inc.map(|inc| (inc.span, inc.set_index));
                        self.check_bounds(v, &flat(&v.name), &values, origin, decl_span);
                        (RealKind::Parameter, x)
                    }
                    Some(None) => (RealKind::CalculatedParameter, none.clone()),
                    None => {
                        let start = fold_attr(&v.attrs.start);
                        if start.is_none() {
                            self.unset_parameter(me, parent, &v.name, v.span);
                        }
                        (RealKind::Parameter, vec![Some(start.unwrap_or(0.0)); len])
                    }
                }
            } else if v.special.state {
                let own = compiled
                    .starts
                    .iter()
                    .find(|(i, _)| *i == vi)
                    .map(|(_, e)| e);
                let inc = effective
                    .get(&(vi, true))
                    .or_else(|| effective.get(&(vi, false)));
                match self.value_of(inc, own, me, vi, &ints, len) {
                    Some(Some(x)) => (RealKind::State, x),
                    Some(None) => (RealKind::StateCalculated, none.clone()),
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
                    vec![Some(fold_attr(&v.attrs.start).unwrap_or(0.0)); len],
                )
            } else if parent.is_none()
                && v.causality == ClassCausality::Output
                && v.tearing.is_none()
                && v.carried_of.is_none()
            {
                (RealKind::Output, none.clone())
            } else {
                (RealKind::Local, none.clone())
            };
            let kind = if v.variability == Variability::Constant && kind == RealKind::Parameter {
                RealKind::Constant
            } else {
                kind
            };
            if v.tearing == Some(Tearing::Balance) {
                let component = v.name.trim_end_matches(".balance");
                // A declared tearing's residual is the variable just before
                // its balance.
                debug_assert_eq!(model.vars[vi - 1].tearing, Some(Tearing::Residual));
                let residual = self.sys.instances[me].var_offset[vi - 1]
                    .expect("a LinearResponse declares its residual before its balance");
                self.sys.balances.push(Balance {
                    balance: offset,
                    residual,
                    name: flat(component),
                });
            }
            for (e, start) in starts.into_iter().enumerate() {
                let name = element_name(&path, &v.name, &shape, e);
                self.sys.reals.push(RealVar {
                    name,
                    kind,
                    start,
                    unit: v.attrs.unit.clone(),
                    display_unit: v.attrs.display_unit.clone(),
                    quantity: v.attrs.quantity.clone(),
                    description: v.description.clone(),
                    min: fold_attr(&v.attrs.min),
                    max: fold_attr(&v.attrs.max),
                    nominal: fold_attr(&v.attrs.nominal),
                    derivative_of: None,
                });
                if v.special.state {
                    self.sys.states.push(offset + e);
                }
            }
        }
        // Derivatives of the states, after the instance's own variables.
        for (vi, v) in model.vars.iter().enumerate() {
            if !(v.special.state && v.ty == Builtin::Real) {
                continue;
            }
            let len = self.sys.instances[me].var_len[vi];
            let state_offset = self.sys.instances[me].var_offset[vi].expect("states are Real");
            let offset = self.sys.reals.len();
            self.sys.instances[me].der_offset[vi] = Some(offset);
            let unit = v.attrs.unit.as_ref().map(|u| derivative_unit(u));
            for e in 0..len {
                let base = &self.sys.reals[state_offset + e].name;
                self.sys.reals.push(RealVar {
                    name: format!("der({base})"),
                    kind: RealKind::Derivative,
                    start: None,
                    unit: unit.clone(),
                    display_unit: None,
                    quantity: None,
                    description: None,
                    min: None,
                    max: None,
                    nominal: None,
                    derivative_of: Some(state_offset + e),
                });
                self.sys.derivatives.push(offset + e);
            }
        }

        // Sub-components, each with the modifiers meant for it.
        for (k, sub) in model.subs.iter().enumerate() {
            let mut child_incoming: Vec<Incoming> = incoming
                .iter()
                .filter(|inc| inc.subs.first() == Some(&k))
                .map(|inc| Incoming {
                    subs: inc.subs[1..].to_vec(),
                    ..inc.clone()
                })
                .collect();
            for (j, m) in compiled.sub_modifiers.iter().enumerate() {
                if m.target.path[0] == k {
                    child_incoming.push(Incoming {
                        subs: m.target.path[1..].to_vec(),
                        var: m.target.var,
                        start: m.start,
                        value: m.value.clone(),
                        origin: Some((me, j)),
                        set_index: None,
                        span: Some(m.span),
                    });
                }
            }
            let child_path = flat(&sub.name);
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
                self.sys.instances[me].subs[k] = Some(child);
            }
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

/// The unit of a derivative: `unit/s`, written simply.
fn derivative_unit(u: &str) -> String {
    if u == "1" || u.is_empty() {
        "1/s".into()
    } else if u.contains('/') {
        format!("{u}.s-1")
    } else {
        format!("{u}/s")
    }
}

/// The value of an attribute written as a number literal (`min = 2`,
/// `start = -1.5`); anything else is not folded.
fn fold_literal(e: &Option<Expr>) -> Option<f64> {
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
