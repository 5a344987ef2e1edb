//! Instantiation of a model: the instance tree, parameter values, array
//! sizes and the layout of every Real variable in one vector.

mod layout;
mod set;
mod structure;
mod units;
mod values;

pub(crate) use structure::eval;
pub use units::annotate_units;

use std::collections::HashMap;
use std::sync::Arc;

use crate::classdb::{ClassDb, ClassEntry};
use crate::diagnostic::Diagnostic;
use crate::ir::{Discrete, EnumerationType, Ex, SlotKind};
use crate::resolve::model::element_name;
use crate::resolve::tree::Builtin;
use crate::resolve::ClassId;
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
    pub value: SetLiteral,
}

/// The value of a `--set`: a number, `true`/`false`, or the name of an
/// enumeration literal (checked against the parameter's type when the
/// model is instantiated).
#[derive(Debug, Clone, PartialEq)]
pub enum SetLiteral {
    Number(f64),
    Bool(bool),
    Literal(String),
}

impl From<f64> for SetLiteral {
    fn from(v: f64) -> SetLiteral {
        SetLiteral::Number(v)
    }
}

impl SetLiteral {
    /// Reads the text after `=`: a finite number, `true`, `false`, or an
    /// identifier.
    pub fn parse(text: &str) -> Result<SetLiteral, String> {
        let t = text.trim();
        match t {
            "true" => return Ok(SetLiteral::Bool(true)),
            "false" => return Ok(SetLiteral::Bool(false)),
            _ => {}
        }
        if let Ok(v) = t.parse::<f64>() {
            if !v.is_finite() {
                return Err("the value must be finite".into());
            }
            return Ok(SetLiteral::Number(v));
        }
        let ident = t
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if ident {
            Ok(SetLiteral::Literal(t.to_string()))
        } else {
            Err(format!(
                "`{t}` is not a number, `true`/`false` or an enumeration literal"
            ))
        }
    }
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
    /// Texts shared by every element of an array (one allocation for a
    /// million temperatures, not a million).
    pub unit: Option<Arc<str>>,
    pub display_unit: Option<Arc<str>>,
    pub quantity: Option<Arc<str>>,
    pub description: Option<Arc<str>>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub nominal: Option<f64>,
    /// For a derivative: the index of its state in `System::reals`.
    pub derivative_of: Option<usize>,
    /// For a Boolean or Integer variable that is not a parameter: its FMI
    /// type. Its value is stored in `R` and declared to FMI with that type.
    pub discrete: Option<Discrete>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct IntVar {
    pub name: String,
    pub value: i64,
    pub boolean: bool,
    /// The enumeration type of an enumeration parameter.
    pub enumeration: Option<Arc<EnumerationType>>,
    pub description: Option<Arc<str>>,
}

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
    /// `System::instances`), once it is instantiated; the first element
    /// of an array of components, `None` for an absent conditional one.
    pub subs: Vec<Option<usize>>,
    /// The instances of each sub-component: one, the elements of an array
    /// in order, or none for an absent conditional component.
    pub elements: Vec<Vec<usize>>,
    /// The size of each dimension of each array of components (`cap[n,
    /// m]`: `[n, m]`; `elements` holds them row-major); empty for one
    /// component or an absent one.
    pub shapes: Vec<Vec<usize>>,
    /// The conditional connectors of the class whose condition is false
    /// for this instance (indices into `ClassModel::connectors`): connects
    /// that name them are dropped and their variables are not in the FMU.
    pub absent_connectors: Vec<usize>,
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
    /// The variables (indices into `reals`) of absent conditional
    /// connectors: laid out for the kernel, which never reads them where
    /// the connector is absent, and left out of the model description.
    pub absent_reals: std::collections::BTreeSet<usize>,
    /// The start values computed from Integer parameters (`each V =
    /// 2e-3/n`): (index into `reals`, the program that computes it from
    /// their values, [`crate::ir::Ex::calc`]), ascending. An FMI 3.0
    /// structural parameter recomputes them at another size.
    pub start_calcs: Vec<(usize, Arc<[crate::ir::Calc]>)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Balance {
    pub balance: usize,
    pub residual: usize,
    pub name: String,
}

impl System {
    /// The discrete variables of type `ty` (indices into `reals`), in the
    /// order of their value references, which follow those of the
    /// parameters of that type in `ints`.
    pub fn discrete_reals(&self, ty: Discrete) -> Vec<usize> {
        (0..self.reals.len())
            .filter(|&i| self.reals[i].discrete == Some(ty))
            .collect()
    }

    pub fn class_of(&self, inst: usize) -> &ClassEntry {
        &self.classes[self.instances[inst].class]
    }

    /// Name of an instance's variable in flat form.
    pub fn flat_name(&self, inst: usize, var: &str) -> String {
        element_name(&self.instances[inst].path, var, &[], 0)
    }
}

/// The modifier that sets each variable of an instance: (variable, whether
/// it is the start value) to the modifier.
type Effective = HashMap<(usize, bool), Incoming>;

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
    /// For a modifier of an array of components: this element's number and
    /// the number of elements, so a value with one part per element
    /// (`G = {1, 2, 3}`) gives each its part.
    element: Option<(usize, usize)>,
    /// For a modifier of an array of components: the array's size in each
    /// dimension (`cap[2, 3]`: `[2, 3]`), which a value with one part per
    /// element must lead with.
    array: Vec<usize>,
    /// The shape of the value as written (empty for a scalar or a `--set`).
    shape: Vec<usize>,
    /// For a `--set` of one element: the element of each array of
    /// components on the way (parallel to `subs`, 1-based, one index per
    /// dimension: `cap[2].C`, `plate[2,3].C`).
    picks: Vec<Option<Vec<i64>>>,
    /// For a `--set` of one element of an array variable: its indices as
    /// written (`A[1,2]`), checked against the shape at layout.
    index: Option<Vec<i64>>,
}

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

/// Why a class is instantiated: to be exported, or to be checked as the
/// system its components form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    Export,
    Check,
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

struct Builder<'e, 'a> {
    db: &'e ClassDb<'a>,
    class_index: HashMap<ClassId, usize>,
    sys: System,
    diags: Vec<Diagnostic>,
    sets_used: Vec<bool>,
    model_span: Span,
    /// MX007 was reported: stop laying out variables.
    too_large: bool,
    /// The `--set`s of one element of an array variable that arrive at the
    /// instance being laid out.
    element_sets: Vec<Incoming>,
    /// The path of each `--set`, as written.
    set_paths: Vec<String>,
    purpose: Purpose,
    /// The texts of each class's variables (unit, display unit, quantity,
    /// description; the unit of a state's derivative), made once per class
    /// and shared by every instance: `[class][variable]`.
    texts: Vec<Vec<Option<layout::VarTexts>>>,
}

impl Builder<'_, '_> {
    /// The system's index of a class, its compiled entry read from the
    /// class database.
    fn class(&mut self, id: ClassId) -> Option<usize> {
        if let Some(i) = self.class_index.get(&id) {
            return Some(*i);
        }
        let entry = match self.db.compiled(id) {
            Some(Ok(entry)) => entry.clone(),
            Some(Err(ds)) => {
                self.diags.extend(ds.iter().cloned());
                return None;
            }
            None => panic!(
                "compiler bug: `{}` is instantiated before it was compiled \
                 (ClassDb::compile_below compiles what a model needs)",
                self.db.tree().get(id).qualified
            ),
        };
        self.sys.classes.push(entry);
        let i = self.sys.classes.len() - 1;
        self.class_index.insert(id, i);
        Some(i)
    }

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

    /// `name` below instance `me`, joined with a dot (not the FMI form of
    /// [`element_name`]: messages name a carried derivative `x.der(y)`).
    fn dotted(&self, me: usize, name: &str) -> String {
        let path = &self.sys.instances[me].path;
        if path.is_empty() {
            name.to_string()
        } else {
            // Not `format!`: called for every variable of every instance.
            let mut dotted = String::with_capacity(path.len() + 1 + name.len());
            dotted.push_str(path);
            dotted.push('.');
            dotted.push_str(name);
            dotted
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

/// The 1-based indices of element `e` (0-based, row-major: the last index
/// varies fastest) of an array of components of the given shape.
pub(crate) fn element_index(shape: &[usize], mut e: usize) -> Vec<i64> {
    let mut index = vec![0; shape.len()];
    for (d, n) in shape.iter().enumerate().rev() {
        index[d] = (e % n) as i64 + 1;
        e /= n;
    }
    index
}

/// The position (0-based, row-major) of the element with the given 1-based
/// indices in an array of components of the given shape; `None` when the
/// number of indices is not the number of dimensions, or one is outside its
/// dimension.
pub(crate) fn element_position(shape: &[usize], index: &[i64]) -> Option<usize> {
    if index.len() != shape.len() {
        return None;
    }
    let mut at = 0usize;
    for (i, n) in index.iter().zip(shape) {
        if *i < 1 || *i > *n as i64 {
            return None;
        }
        at = at * n + (*i as usize - 1);
    }
    Some(at)
}
