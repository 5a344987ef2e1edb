//! C class kernels: one file per class, generated from that class alone.
//! Array sizes are read from the instance record, so the text does not
//! depend on them.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;

use sha2::{Digest, Sha256};

use super::c_text::{self, c_rel, c_string, func_name, prototypes_for, real_literal, C_PRELUDE};
use super::index::{extremes, Lin};
use crate::ir::{Arith, CausalClass, Ex, Reduction, RelKind, RelOp, SlotKind, Stmt};

/// The generated C for one class. The class database generates it once
/// per class and run (`ClassDb::kernels`).
#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    pub qualified: String,
    /// Prefix of every function of the kernel: `K_Thermal_Components_Rod_1a2b3c4d`.
    pub prefix: String,
    pub file_name: String,
    pub text: String,
    pub n_blocks: usize,
    /// Whether the kernel has an `events` entry (`super::events`).
    pub events: bool,
    /// Each block's element entries, when the block is small enough to
    /// be inlined into a compiled schedule's loop over elements.
    pub elements: Vec<Option<Element>>,
    /// Prototypes of the user functions the class calls (for a unit that
    /// inlines its element entries).
    pub calls: String,
    /// Their C symbols.
    pub callees: Vec<String>,
    /// The slots (below 64) a block only reads and an array's elements may
    /// share, bit `s` for slot `s`: its parameters. The batched entries
    /// step each of them by its own stride (the element's, or 0 where
    /// every element reads one variable, such as a model parameter bound
    /// by `each C = Ca`), so the loader may batch such a run.
    pub shareable: u64,
}

/// A block's element entries: the block's body as `static inline` C
/// functions over one instance whose slot pointers the caller passes,
/// `<prefix>_b<k>_e` (values) and `<prefix>_b<k>_t_e` (tangents). The
/// compiled schedule inlines them into one loop over the elements of a
/// fused loop, where it computes every pointer from offsets it read once
/// (the instances lie evenly in `R`), so an element's values stay in
/// registers from block to block. Each runs the statements of the plain
/// entry on the same places, so the results are the same bits.
#[derive(Debug, Clone, PartialEq)]
pub struct Element {
    /// The two definitions.
    pub text: String,
    /// The value entry's pointer parameters in order: the slot, and
    /// whether it is a derivative (placed by `mofmu_der`).
    pub values: Vec<(usize, bool)>,
    /// The tangent entry's pointer parameters: slots of `R`, then of `dR`.
    pub tangent_values: Vec<usize>,
    pub tangents: Vec<usize>,
    /// The slots the block assigns as a whole whenever it runs (`x :=
    /// ...`, not an element of an array, not under a guard or a clock),
    /// and in its tangent entry their tangents: a compiled schedule hands
    /// them to a later block of its loop in a local, which it need not
    /// load before the block runs.
    pub writes: Vec<usize>,
}

/// The most lines of C an element entry may have: a larger block is
/// called through its plain entry, so that the schedule's unit stays
/// quick to compile.
const ELEMENT_LINES: usize = 48;

const PLACEHOLDER: &str = "K__PREFIX__";

/// Generates the kernel of one causalised class.
pub fn generate(class: &CausalClass) -> Kernel {
    let mut body = String::new();
    let g = Gen::new(class);
    let _ = writeln!(
        body,
        "/* Parameter bindings and modifiers of sub-components. */"
    );
    g.function(&mut body, "params", &class.parameter_stmts, false);
    let _ = writeln!(body, "/* Start values computed from parameters. */");
    g.function(&mut body, "starts", &class.start_stmts, false);
    for (k, b) in class.blocks.iter().enumerate() {
        let inputs: Vec<&str> = b
            .inputs
            .iter()
            .map(|s| class.slots[*s].name.as_str())
            .collect();
        let _ = writeln!(
            body,
            "/* Block {k}: depends on {}. */",
            if inputs.is_empty() {
                "no inputs".to_string()
            } else {
                inputs.join(", ")
            }
        );
        g.function(&mut body, &format!("b{k}"), &b.stmts, false);
        g.function(&mut body, &format!("b{k}_t"), &b.stmts, true);
        g.batched(&mut body, &format!("b{k}_n"), &b.stmts, false);
        g.batched(&mut body, &format!("b{k}_t_n"), &b.stmts, true);
    }
    body.push_str(&super::events::function(class, PLACEHOLDER));
    let digest = Sha256::digest(format!("{}\n{}", env!("CARGO_PKG_VERSION"), body).as_bytes());
    let hash: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    let prefix = format!("K_{}_{hash}", sanitize(&class.qualified));
    let elements = class
        .blocks
        .iter()
        .enumerate()
        .map(|(k, b)| {
            g.element(k, &b.stmts).map(|mut e| {
                e.text = e.text.replace(PLACEHOLDER, &prefix);
                e
            })
        })
        .collect();
    let mut text = String::new();
    let _ = writeln!(
        text,
        "/* Class kernel of {} — generated by mofmu from this class alone. */",
        class.qualified
    );
    let called = user_calls(class);
    let calls = prototypes_for(&called);
    text.push_str(C_PRELUDE);
    text.push_str(HELPERS);
    text.push_str(&calls);
    text.push_str(&body.replace(PLACEHOLDER, &prefix));
    Kernel {
        qualified: class.qualified.clone(),
        file_name: format!("{prefix}.c"),
        prefix,
        text,
        n_blocks: class.blocks.len(),
        events: class.events.is_some(),
        elements,
        calls,
        callees: called.into_iter().map(|c| c.0).collect(),
        shareable: (0..class.slots.len())
            .filter(|&s| g.is_shareable(s))
            .fold(0, |m, s| m | 1 << s),
    }
}

/// The user functions a class calls: symbol and number of arguments.
fn user_calls(class: &CausalClass) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    let mut visit = |e: &Ex| {
        e.visit(&mut |x| {
            if let Ex::User(sym, args, false) = x {
                if !out.iter().any(|(s, _)| **s == **sym) {
                    out.push((sym.to_string(), args.len()));
                }
            }
        })
    };
    let mut stmts: Vec<&Stmt> = class
        .parameter_stmts
        .iter()
        .chain(&class.start_stmts)
        .collect();
    stmts.extend(class.blocks.iter().flat_map(|b| &b.stmts));
    fn walk(s: &Stmt, f: &mut dyn FnMut(&Ex)) {
        match s {
            Stmt::Assign { value, index, .. } => {
                f(value);
                if let Some(i) = index {
                    f(i);
                }
            }
            Stmt::For { lo, hi, body, .. } => {
                f(lo);
                f(hi);
                body.iter().for_each(|b| walk(b, f));
            }
            Stmt::Clocked { body, .. } => body.iter().for_each(|b| walk(b, f)),
            Stmt::Tick(t) => {
                f(&t.interval);
                t.parts.iter().for_each(|p| f(&p.value));
                t.shift.iter().chain(&t.start).for_each(|b| walk(b, f));
            }
        }
    }
    for s in stmts {
        walk(s, &mut visit);
    }
    out
}

/// `s` with every assigned value zero: the tangent of a clocked
/// partition's assignments.
fn zero_values(s: &Stmt) -> Stmt {
    match s {
        Stmt::Assign {
            target,
            index,
            guard,
            span,
            ..
        } => Stmt::Assign {
            target: *target,
            index: index.clone(),
            value: Ex::Real(0.0),
            guard: *guard,
            span: *span,
        },
        Stmt::For {
            depth,
            lo,
            hi,
            body,
        } => Stmt::For {
            depth: *depth,
            lo: lo.clone(),
            hi: hi.clone(),
            body: body.iter().map(zero_values).collect(),
        },
        Stmt::Clocked { fire, body } => Stmt::Clocked {
            fire: *fire,
            body: body.iter().map(zero_values).collect(),
        },
        Stmt::Tick(t) => Stmt::Tick(t.clone()),
    }
}

/// Prototypes of a kernel's functions, for the system file.
pub fn prototypes(k: &Kernel) -> String {
    let mut s = String::new();
    for f in ["params", "starts"]
        .iter()
        .map(|x| x.to_string())
        .chain((0..k.n_blocks).map(|b| format!("b{b}")))
    {
        let _ = writeln!(
            s,
            "void {}_{f}(double *R, const mofmu_inst *in, mofmu_ctx *ctx);",
            k.prefix
        );
    }
    for b in 0..k.n_blocks {
        let _ = writeln!(
            s,
            "void {}_b{b}_t(const double *R, double *dR, const mofmu_inst *in, mofmu_ctx *ctx);",
            k.prefix
        );
    }
    for b in 0..k.n_blocks {
        let _ = writeln!(s, "void {}_b{b}_n({BLOCK_N_PARAMS});", k.prefix);
        let _ = writeln!(s, "void {}_b{b}_t_n({TANGENT_N_PARAMS});", k.prefix);
    }
    if k.events {
        s.push_str(&super::events::prototype(&k.prefix));
    }
    s
}

/// Parameters of a block's batched entry (`mofmu_block_n_fn`): the block
/// over `count` instances, the first `in0`, each next one `inst_stride`
/// records on and its variables `real_stride` reals on.
const BLOCK_N_PARAMS: &str = "double *R, const mofmu_inst *in0, size_t count, ptrdiff_t inst_stride, ptrdiff_t real_stride, mofmu_ctx *ctx";
/// Parameters of a tangent's batched entry (`mofmu_tangent_n_fn`).
const TANGENT_N_PARAMS: &str = "const double *R, double *dR, const mofmu_inst *in0, size_t count, ptrdiff_t inst_stride, ptrdiff_t real_stride, mofmu_ctx *ctx";

pub(crate) const HELPERS: &str = r#"static double mofmu_sign_(double x) { return (x > 0.0) - (x < 0.0); }

/* 1-based index checked against the array size: a bad index stops the
   evaluation with a message instead of touching memory out of bounds. */
static int64_t mofmu_ix_(mofmu_ctx *ctx, const mofmu_inst *in, int64_t i, int64_t n, const char *var) {
    if (i < 1 || i > n) {
        mofmu_fail(ctx, in->name, var);
        return 0;
    }
    return i - 1;
}

"#;

pub fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

struct Gen<'a> {
    class: &'a CausalClass,
    /// What the function being generated uses and where its text is.
    state: RefCell<FnState>,
}

/// Where a slot pointer of a kernel function points.
#[derive(Clone, Copy)]
enum Place {
    /// A variable in `R`.
    Value,
    /// A derivative: in `R`, or in the importer's array (`mofmu_der`).
    Derivative,
    /// A tangent in `dR`.
    Tangent,
}

/// The state of one generated function: the loops around the statement
/// being emitted, and the slots and Integer parameters it uses (their base
/// pointers and values are hoisted into locals at the top).
#[derive(Default)]
struct FnState {
    /// Loops entered, innermost last: depth and affine bounds when affine.
    loops: Vec<(usize, Option<Lin>, Option<Lin>)>,
    /// Above zero inside an `if` expression or a guarded assignment: an
    /// access there may never run, so it cannot be checked ahead and keeps
    /// its per-element check.
    conditional: usize,
    values: BTreeSet<usize>,
    tangents: BTreeSet<usize>,
    ints: BTreeSet<usize>,
    /// Slots of R the function assigns.
    written: BTreeSet<usize>,
    /// Scalar slots the function reads and never assigns: read once into a
    /// local `h<s>` at the top (through a `restrict` pointer the compiler
    /// would otherwise load them again on every use, e.g. once per element
    /// of a loop that writes another slot).
    hoisted: BTreeSet<usize>,
    /// The reductions computed into locals in scope, with the local's name.
    reductions: Vec<(Ex, String)>,
    /// Locals made for reductions so far (their names are `a0`, `a1`, ...).
    n_reductions: usize,
}

/// An array access whose range is checked ahead (or proven): the 0-based
/// offset, and the conditions under which it would leave the array.
struct Planned {
    offset: Lin,
    min: Lin,
    max: Lin,
    size: Lin,
}

fn param_name(k: usize) -> String {
    format!("p{k}")
}

impl Gen<'_> {
    fn new(class: &CausalClass) -> Gen<'_> {
        Gen {
            class,
            state: RefCell::new(FnState::default()),
        }
    }

    /// One kernel function. Base pointers of the slots it uses and the
    /// Integer parameters it reads are hoisted into locals first; array
    /// indices that cannot be proven in range are checked once, at the top
    /// or before their loop.
    fn function(&self, out: &mut String, suffix: &str, stmts: &[Stmt], tangent: bool) {
        let body = self.body(stmts, tangent, 1);
        let state = self.state.borrow();
        if tangent {
            let _ = writeln!(
                out,
                "void {PLACEHOLDER}_{suffix}(const double *R, double *dR, const mofmu_inst *in, mofmu_ctx *ctx) {{"
            );
            let _ = writeln!(out, "    (void)R; (void)dR; (void)in; (void)ctx;");
        } else {
            let _ = writeln!(
                out,
                "void {PLACEHOLDER}_{suffix}(double *R, const mofmu_inst *in, mofmu_ctx *ctx) {{"
            );
            let _ = writeln!(out, "    (void)R; (void)in; (void)ctx;");
        }
        for k in &state.ints {
            let _ = writeln!(out, "    const int64_t p{k} = in->ints[{k}];");
        }
        self.slot_pointers(out, &state, tangent, "    ", &|s| format!("in->off[{s}]"));
        out.push_str(&body);
        let _ = writeln!(out, "}}\n");
    }

    /// The base pointers of the slots a function uses, `r<s>` into `R` (and
    /// `d<s>` into `dR`), at the offset `offset(s)` gives. Slots are disjoint
    /// ranges of R (and of dR), so no two of these pointers reach the same
    /// element: `restrict` is sound.
    fn slot_pointers(
        &self,
        out: &mut String,
        state: &FnState,
        tangent: bool,
        indent: &str,
        offset: &dyn Fn(usize) -> String,
    ) {
        self.slot_pointers_at(out, state, tangent, indent, &|s, kind| match kind {
            // A derivative is written where the runtime asks (R, or an
            // importer's array while fmi2GetDerivatives evaluates into it).
            Place::Derivative => format!("mofmu_der(R, {}, ctx)", offset(s)),
            Place::Value => format!("R + {}", offset(s)),
            Place::Tangent => format!("dR + {}", offset(s)),
        });
    }

    /// [`Self::slot_pointers`] with each pointer's expression from `place`.
    fn slot_pointers_at(
        &self,
        out: &mut String,
        state: &FnState,
        tangent: bool,
        indent: &str,
        place: &dyn Fn(usize, Place) -> String,
    ) {
        let constness = if tangent { "const " } else { "" };
        for &s in &state.values {
            let slot = &self.class.slots[s];
            let kind = if !tangent && matches!(slot.kind, SlotKind::Der(_)) {
                Place::Derivative
            } else {
                Place::Value
            };
            let _ = writeln!(
                out,
                "{indent}{constness}double *const restrict r{s} = {}; /* {} */",
                place(s, kind),
                comment(&slot.name)
            );
        }
        for &s in &state.hoisted {
            let _ = writeln!(out, "{indent}const double h{s} = r{s}[0];");
        }
        for &s in &state.tangents {
            let _ = writeln!(
                out,
                "{indent}double *const restrict d{s} = {}; /* d {} */",
                place(s, Place::Tangent),
                comment(&self.class.slots[s].name)
            );
        }
    }

    /// The statements of one kernel function at `indent`, with the checks
    /// of their array accesses first; what they use is left in `state`.
    fn body(&self, stmts: &[Stmt], tangent: bool, indent: usize) -> String {
        *self.state.borrow_mut() = FnState::default();
        if !tangent {
            // A tangent function writes dR only; R is constant there.
            let mut written = BTreeSet::new();
            for s in stmts {
                s.for_each_assign(&mut |target, _, _| {
                    written.insert(target);
                });
                if let Stmt::Tick(t) = s {
                    written.extend([t.ticks, t.first, t.fire]);
                }
            }
            self.state.borrow_mut().written = written;
        }
        let mut body = String::new();
        let top: Vec<&Stmt> = stmts
            .iter()
            .filter(|s| matches!(s, Stmt::Assign { .. }))
            .collect();
        self.checks(&mut body, &top, tangent, indent, None);
        for s in stmts {
            self.emit(&mut body, s, indent, tangent);
        }
        body
    }

    /// The batched entry of a block (or of its tangent): the block over a
    /// run of instances of the class whose variables lie one constant
    /// stride apart in `R` and whose Integer parameters are equal (the
    /// runtime checks both when it loads the schedule), as one loop of
    /// straight-line code. The offsets and Integer parameters are read once,
    /// from the first instance; each round's body is the plain block's,
    /// with `in` the round's own record (its name and relations) and the
    /// `restrict` pointers scoped to the round, so rounds run in order as
    /// separate calls would and the results are bit-identical. Each slot's
    /// pointer advances by the stride from round to round (no multiply per
    /// round); a parameter's by its own, read from the second instance,
    /// which is 0 where every element reads one variable
    /// ([`Kernel::shareable`]; the runtime checks that the others advance
    /// with the instance). A derivative slot's run is placed once (`mofmu_der_n`: all in
    /// R, or all in the importer's array, one step apart); a run that lies
    /// partly in each runs instance by instance.
    fn batched(&self, out: &mut String, suffix: &str, stmts: &[Stmt], tangent: bool) {
        let body = self.body(stmts, tangent, 2);
        let state = self.state.borrow();
        let params = if tangent {
            TANGENT_N_PARAMS
        } else {
            BLOCK_N_PARAMS
        };
        let _ = writeln!(out, "void {PLACEHOLDER}_{suffix}({params}) {{");
        let _ = writeln!(out, "    (void)R; (void)real_stride; (void)ctx;");
        if tangent {
            let _ = writeln!(out, "    (void)dR;");
        }
        for k in &state.ints {
            let _ = writeln!(out, "    const int64_t p{k} = in0->ints[{k}];");
        }
        let slots: BTreeSet<usize> = state.values.union(&state.tangents).copied().collect();
        for s in &slots {
            let _ = writeln!(out, "    const ptrdiff_t o{s} = in0->off[{s}];");
        }
        let ders: Vec<usize> = if tangent {
            Vec::new()
        } else {
            state
                .values
                .iter()
                .copied()
                .filter(|&s| matches!(self.class.slots[s].kind, SlotKind::Der(_)))
                .collect()
        };
        let mut steps = Vec::new();
        for &s in &ders {
            let _ = writeln!(
                out,
                "    ptrdiff_t q{s};\n    double *b{s} = mofmu_der_n(R, o{s}, count, real_stride, ctx, &q{s});"
            );
            steps.push(format!("b{s} += q{s}"));
        }
        if !ders.is_empty() {
            let split: Vec<String> = ders.iter().map(|s| format!("b{s} == NULL")).collect();
            let _ = writeln!(out, "    if ({}) {{", split.join(" || "));
            let _ = writeln!(out, "        for (size_t e = 0; e < count; e++) {{");
            let _ = writeln!(
                out,
                "            {PLACEHOLDER}_{suffix}(R, in0 + (ptrdiff_t)e * inst_stride, 1, inst_stride, real_stride, ctx);"
            );
            let _ = writeln!(out, "        }}\n        return;\n    }}");
        }
        let constness = if tangent { "const " } else { "" };
        for &s in &state.values {
            if ders.contains(&s) {
                continue;
            }
            let _ = writeln!(out, "    {constness}double *b{s} = R + o{s};");
            if self.is_shareable(s) {
                // A shared parameter stays put (Kernel::shareable).
                let _ = writeln!(
                    out,
                    "    const ptrdiff_t d{s} = count > 1 ? (ptrdiff_t)in0[inst_stride].off[{s}] - o{s} : 0;"
                );
                steps.push(format!("b{s} += d{s}"));
            } else {
                steps.push(format!("b{s} += real_stride"));
            }
        }
        for &s in &state.tangents {
            let _ = writeln!(out, "    double *g{s} = dR + o{s};");
            steps.push(format!("g{s} += real_stride"));
        }
        let _ = writeln!(out, "    const mofmu_inst *in = in0;");
        steps.push("in += inst_stride".to_string());
        let _ = writeln!(
            out,
            "    for (size_t e = 0; e < count; e++, {}) {{",
            steps.join(", ")
        );
        self.slot_pointers_at(out, &state, tangent, "        ", &|s, kind| match kind {
            Place::Derivative | Place::Value => format!("b{s}"),
            Place::Tangent => format!("g{s}"),
        });
        let _ = writeln!(out, "        (void)in;");
        out.push_str(&body);
        let _ = writeln!(out, "    }}\n}}\n");
    }

    /// The element entries of block `k` ([`Element`]), or `None` when
    /// either is longer than [`ELEMENT_LINES`].
    fn element(&self, k: usize, stmts: &[Stmt]) -> Option<Element> {
        let mut text = String::new();
        let mut values = Vec::new();
        let (mut tangent_values, mut tangents) = (Vec::new(), Vec::new());
        for tangent in [false, true] {
            let body = self.body(stmts, tangent, 1);
            if body.lines().count() > ELEMENT_LINES {
                return None;
            }
            let state = self.state.borrow();
            let mut params = Vec::new();
            let constness = if tangent { "const " } else { "" };
            for &s in &state.values {
                params.push(format!("{constness}double *v{s}"));
                if tangent {
                    tangent_values.push(s);
                } else {
                    let der = matches!(self.class.slots[s].kind, SlotKind::Der(_));
                    values.push((s, der));
                }
            }
            for &s in &state.tangents {
                params.push(format!("double *w{s}"));
                tangents.push(s);
            }
            params.extend([
                "const mofmu_inst *in".to_string(),
                "mofmu_ctx *ctx".to_string(),
            ]);
            let suffix = if tangent { "_t" } else { "" };
            let _ = writeln!(
                text,
                "static inline void {PLACEHOLDER}_b{k}{suffix}_e({}) {{\n    (void)in; (void)ctx;",
                params.join(", ")
            );
            for k in &state.ints {
                let _ = writeln!(text, "    const int64_t p{k} = in->ints[{k}];");
            }
            self.slot_pointers_at(&mut text, &state, tangent, "    ", &|s, kind| match kind {
                Place::Derivative | Place::Value => format!("v{s}"),
                Place::Tangent => format!("w{s}"),
            });
            text.push_str(&body);
            text.push_str("}\n\n");
        }
        let writes = stmts
            .iter()
            .filter_map(|s| match s {
                Stmt::Assign {
                    target,
                    index: None,
                    guard: None,
                    ..
                } => Some(*target),
                _ => None,
            })
            .collect();
        Some(Element {
            text,
            values,
            tangent_values,
            tangents,
            writes,
        })
    }

    /// The derivative of an assignment's value in the direction of the
    /// tangents (forward mode). Tangent passes seed only states, inputs
    /// and balances (FMI's knowns of a directional derivative, and the
    /// columns of the tearing matrix), and blocks never write parameters, so
    /// the tangent of a parameter is zero and its terms are dropped.
    fn tangent_of(&self, value: &Ex) -> Ex {
        let d: Result<Ex, ()> = crate::causalize::diff::diff(value, &mut |x| {
            Ok(match x {
                Ex::Var(s, _) if self.is_parameter(*s) => Ex::Real(0.0),
                Ex::Var(s, i) => Ex::Tan(*s, i.clone()),
                _ => Ex::Real(0.0),
            })
        });
        d.unwrap_or(Ex::Real(0.0))
    }

    /// A parameter (or constant) of the class or of a sub-component: known
    /// without being an input, and not a state (a state has a derivative
    /// slot).
    fn is_parameter(&self, slot: usize) -> bool {
        use crate::ir::SlotKind;
        let s = &self.class.slots[slot];
        if !s.known || s.is_input {
            return false;
        }
        match &s.kind {
            SlotKind::Own(v) => !self.class.slots.iter().any(|o| o.kind == SlotKind::Der(*v)),
            SlotKind::Sub { .. } => true,
            SlotKind::Der(_) => false,
        }
    }

    /// Whether slot `s` is one of [`Kernel::shareable`]: a parameter
    /// within the mask's 64 bits, which the batched entries step by its own
    /// stride.
    fn is_shareable(&self, s: usize) -> bool {
        s < 64 && self.is_parameter(s)
    }

    /// One statement as C, or (for `tangent`) its forward-mode derivative.
    fn emit(&self, out: &mut String, s: &Stmt, indent: usize, tangent: bool) {
        let pad = "    ".repeat(indent);
        match s {
            Stmt::Assign {
                target,
                index,
                value,
                guard,
                ..
            } => {
                let d = if tangent {
                    self.tangent_of(value)
                } else {
                    value.clone()
                };
                if has_reduction(&d) {
                    // The reductions are loops into locals of a block
                    // around the statement.
                    let _ = writeln!(out, "{pad}{{");
                    let scope = self.state.borrow().reductions.len();
                    self.hoist_reductions(out, &d, indent + 1);
                    self.assign(
                        out,
                        *target,
                        index.as_ref(),
                        &d,
                        *guard,
                        indent + 1,
                        tangent,
                    );
                    self.state.borrow_mut().reductions.truncate(scope);
                    let _ = writeln!(out, "{pad}}}");
                } else {
                    self.assign(out, *target, index.as_ref(), &d, *guard, indent, tangent);
                }
            }
            Stmt::For {
                depth,
                lo,
                hi,
                body,
            } => {
                let (lo_c, hi_c) = (self.int(lo), self.int(hi));
                self.state
                    .borrow_mut()
                    .loops
                    .push((*depth, Lin::of(lo), Lin::of(hi)));
                let direct: Vec<&Stmt> = body
                    .iter()
                    .filter(|s| matches!(s, Stmt::Assign { .. }))
                    .collect();
                self.checks(out, &direct, tangent, indent, Some((&lo_c, &hi_c)));
                let _ = writeln!(
                    out,
                    "{pad}for (int64_t i{depth} = {lo_c}; i{depth} <= {hi_c}; i{depth}++) {{"
                );
                for b in body {
                    self.emit(out, b, indent + 1, tangent);
                }
                let _ = writeln!(out, "{pad}}}");
                self.state.borrow_mut().loops.pop();
            }
            // A tick and a clocked partition's values are constant between
            // events: their tangents are zero.
            Stmt::Tick(_) if tangent => {}
            Stmt::Tick(t) => {
                let ticks = self.access(t.ticks, None, false);
                let first = self.access(t.first, None, false);
                let fire = self.access(t.fire, None, false);
                let interval = self.real(&t.interval);
                let _ = writeln!(
                    out,
                    "{pad}{fire} = (double)mofmu_clock(ctx, in, &{ticks}, &{first}, {interval});"
                );
                // An interval that is not positive: the message names the
                // part of the clock that made it so.
                let _ = writeln!(out, "{pad}if ({fire} < 0.0) {{");
                let clock = c_string(t.parts.first().map_or("", |p| p.clock.as_str()));
                // A part that is one parameter is named by its place in R,
                // whose name the runtime knows with the instance's path.
                let place = |p: &crate::ir::ClockPart| match p.value {
                    Ex::Var(slot, None) if p.parameter => format!("in->off[{slot}]"),
                    _ => "-1".to_string(),
                };
                let parts = t.parts.iter().map(|p| {
                    let written = c_string(&p.written);
                    (p.role, written, place(p), self.real(&p.value))
                });
                let whole = (
                    "interval",
                    String::new(),
                    "-1".to_string(),
                    interval.clone(),
                );
                for (role, written, parameter, value) in parts.chain([whole]) {
                    let _ = writeln!(
                        out,
                        "{pad}    mofmu_clock_fault(ctx, in, \"{role}\", \"{written}\", {parameter}, \"{clock}\", {value});"
                    );
                }
                let _ = writeln!(out, "{pad}    {fire} = 0.0;\n{pad}}}");
                self.state.borrow_mut().conditional += 1;
                for (value, stmts) in [("2.0", &t.shift), ("3.0", &t.start)] {
                    if stmts.is_empty() {
                        continue;
                    }
                    let _ = writeln!(out, "{pad}if ({fire} == {value}) {{");
                    for b in stmts {
                        self.emit(out, b, indent + 1, false);
                    }
                    let _ = writeln!(out, "{pad}}}");
                }
                self.state.borrow_mut().conditional -= 1;
            }
            Stmt::Clocked { body, .. } if tangent => {
                for b in body {
                    self.emit(out, &zero_values(b), indent, true);
                }
            }
            Stmt::Clocked { fire, body } => {
                let fire = self.access(*fire, None, false);
                let _ = writeln!(out, "{pad}if ({fire} != 0.0) {{");
                self.state.borrow_mut().conditional += 1;
                for b in body {
                    self.emit(out, b, indent + 1, false);
                }
                self.state.borrow_mut().conditional -= 1;
                let _ = writeln!(out, "{pad}}}");
            }
        }
    }

    /// One assignment `target[index] = d` (`d` the value, or its
    /// tangent for `tangent`), its reductions already in locals.
    #[allow(clippy::too_many_arguments)]
    fn assign(
        &self,
        out: &mut String,
        target: usize,
        index: Option<&Ex>,
        d: &Ex,
        guard: Option<usize>,
        indent: usize,
        tangent: bool,
    ) {
        let pad = "    ".repeat(indent);
        if guard.is_some() {
            self.state.borrow_mut().conditional += 1;
        }
        if tangent {
            let lhs = self.access(target, index, true);
            let mut temps = Vec::new();
            let rhs = self.real_cse(d, &mut temps);
            if temps.is_empty() {
                let _ = writeln!(out, "{pad}{lhs} = {rhs};");
            } else {
                // Subexpressions the derivative repeats (the primal
                // value of a quotient, a product's factors) once each.
                let _ = writeln!(out, "{pad}{{");
                for (k, t) in temps.iter().enumerate() {
                    let _ = writeln!(out, "{pad}    const double t{k} = {t};");
                }
                let _ = writeln!(out, "{pad}    {lhs} = {rhs};");
                let _ = writeln!(out, "{pad}}}");
            }
        } else {
            let lhs = self.access(target, index, false);
            let rhs = self.real(d);
            match guard {
                Some(g) => {
                    let _ = writeln!(out, "{pad}if (in->own_binding[{g}]) {lhs} = {rhs};");
                }
                None => {
                    let _ = writeln!(out, "{pad}{lhs} = {rhs};");
                }
            }
        }
        if guard.is_some() {
            self.state.borrow_mut().conditional -= 1;
        }
    }

    /// Computes every reduction of `e` (outside other reductions) into a
    /// local, each by a loop over its range: the loop's array accesses are
    /// checked before it as a `for` loop's are, and reductions nested in its
    /// body are computed inside it.
    fn hoist_reductions(&self, out: &mut String, e: &Ex, indent: usize) {
        let mut found = Vec::new();
        outer_reductions(e, &mut found);
        for r in found {
            if self.reduction_local(r).is_some() {
                continue;
            }
            let Ex::Reduce(op, depth, lo, hi, body) = r else {
                unreachable!("outer_reductions yields reductions")
            };
            let pad = "    ".repeat(indent);
            let name = {
                let mut state = self.state.borrow_mut();
                state.n_reductions += 1;
                format!("a{}", state.n_reductions - 1)
            };
            let (lo_c, hi_c) = (self.int(lo), self.int(hi));
            let _ = match op {
                Reduction::Sum => writeln!(out, "{pad}double {name} = 0.0;"),
                Reduction::Product => writeln!(out, "{pad}double {name} = 1.0;"),
                // Over an empty range the result is the infinite start, made
                // by a division that raises its flag (see real_literal).
                Reduction::Min | Reduction::Max => {
                    let sign = if *op == Reduction::Min { "" } else { "-" };
                    writeln!(
                        out,
                        "{pad}double {name} = ({hi_c} < {lo_c} ? ({sign}1.0 / 0.0) : {sign}HUGE_VAL);"
                    )
                }
                Reduction::ArgMin => writeln!(
                    out,
                    "{pad}int64_t {name} = {lo_c}; double {name}_v = HUGE_VAL;"
                ),
                Reduction::ArgMax => writeln!(
                    out,
                    "{pad}int64_t {name} = {lo_c}; double {name}_v = -HUGE_VAL;"
                ),
            };
            self.state
                .borrow_mut()
                .loops
                .push((*depth, Lin::of(lo), Lin::of(hi)));
            let mut accesses = Vec::new();
            collect_accesses(body, &mut accesses);
            self.check_accesses(out, accesses, indent, Some((&lo_c, &hi_c)));
            let _ = writeln!(
                out,
                "{pad}for (int64_t i{depth} = {lo_c}; i{depth} <= {hi_c}; i{depth}++) {{"
            );
            let scope = self.state.borrow().reductions.len();
            self.hoist_reductions(out, body, indent + 1);
            let v = self.real(body);
            let _ = match op {
                Reduction::Sum => writeln!(out, "{pad}    {name} += {v};"),
                Reduction::Product => writeln!(out, "{pad}    {name} *= {v};"),
                Reduction::Min => writeln!(out, "{pad}    {name} = mofmu_min({name}, {v});"),
                Reduction::Max => writeln!(out, "{pad}    {name} = mofmu_max({name}, {v});"),
                Reduction::ArgMin | Reduction::ArgMax => {
                    let rel = if *op == Reduction::ArgMin { "<" } else { ">" };
                    writeln!(
                        out,
                        "{pad}    {{ const double v = {v}; if (v {rel} {name}_v) {{ {name}_v = v; {name} = i{depth}; }} }}"
                    )
                }
            };
            let _ = writeln!(out, "{pad}}}");
            let mut state = self.state.borrow_mut();
            state.reductions.truncate(scope);
            state.loops.pop();
            state.reductions.push((r.clone(), name));
        }
    }

    /// The local a reduction in scope was computed into.
    fn reduction_local(&self, r: &Ex) -> Option<String> {
        let state = self.state.borrow();
        state
            .reductions
            .iter()
            .rev()
            .find(|(e, _)| e == r)
            .map(|(_, n)| n.clone())
    }

    /// Emits, before the statements `stmts` (of the innermost loop entered,
    /// whose bounds are `bounds`, or of the function's top level), one check
    /// for every array access among them whose range the index arithmetic
    /// does not prove. A failed check stops the function before any element
    /// is touched.
    fn checks(
        &self,
        out: &mut String,
        stmts: &[&Stmt],
        tangent: bool,
        indent: usize,
        bounds: Option<(&str, &str)>,
    ) {
        let mut accesses: Vec<(usize, Option<Ex>)> = Vec::new();
        for s in stmts {
            let Stmt::Assign {
                target,
                index,
                value,
                guard: None,
                ..
            } = s
            else {
                continue;
            };
            accesses.push((*target, index.clone()));
            let value = if tangent {
                self.tangent_of(value)
            } else {
                value.clone()
            };
            collect_accesses(&value, &mut accesses);
        }
        self.check_accesses(out, accesses, indent, bounds);
    }

    /// Emits one check for every access of `accesses` (made in the
    /// innermost loop entered, of bounds `bounds`, or at the function's top
    /// level) whose range the index arithmetic does not prove.
    fn check_accesses(
        &self,
        out: &mut String,
        accesses: Vec<(usize, Option<Ex>)>,
        indent: usize,
        bounds: Option<(&str, &str)>,
    ) {
        let mut seen = BTreeSet::new();
        let pad = "    ".repeat(indent);
        for (slot, index) in accesses {
            let Some(index) = index else { continue };
            let Some(plan) = self.plan(slot, &index) else {
                continue;
            };
            let p = |k: usize| {
                self.state.borrow_mut().ints.insert(k);
                param_name(k)
            };
            let mut conditions = Vec::new();
            if !plan
                .min
                .add(&Lin::constant(1), -1)
                .is_some_and(|l| l.proven_non_negative())
            {
                conditions.push(format!("{} < INT64_C(1)", plan.min.c(&p)));
            }
            if !plan
                .size
                .add(&plan.max, -1)
                .is_some_and(|l| l.proven_non_negative())
            {
                conditions.push(format!("{} > {}", plan.max.c(&p), plan.size.c(&p)));
            }
            if conditions.is_empty() {
                continue;
            }
            let name = &self.class.slots[slot].name;
            let condition = match bounds {
                Some((lo, hi)) => format!("{lo} <= {hi} && ({})", conditions.join(" || ")),
                None => conditions.join(" || "),
            };
            if seen.insert((condition.clone(), name.clone())) {
                let _ = writeln!(
                    out,
                    "{pad}if ({condition}) {{ mofmu_fail(ctx, in->name, \"index out of range for {}\"); return; }}",
                    c_string(name)
                );
            }
        }
    }

    /// How an indexed access of `slot` is causalized: checked ahead when the
    /// index is affine in the loop variables and Integer parameters and the
    /// slot's size is known, `None` (a check on every element) otherwise.
    fn plan(&self, slot: usize, index: &Ex) -> Option<Planned> {
        let state = self.state.borrow();
        if state.conditional > 0 {
            return None;
        }
        let index = Lin::of(index)?;
        let size = self.size_lin(slot)?;
        let (min, max) = match state.loops.last() {
            Some((depth, lo, hi)) if index.loops.contains_key(depth) => {
                extremes(&index, *depth, lo.as_ref()?, hi.as_ref()?)?
            }
            _ => (index.clone(), index.clone()),
        };
        // Outer loop variables stay as they are (they are in scope where the
        // check is made); any other loop variable would be a compiler bug.
        let in_scope = |l: &Lin| {
            l.loops
                .keys()
                .all(|d| state.loops.iter().any(|(depth, ..)| depth == d))
        };
        if !in_scope(&min) || !in_scope(&max) {
            return None;
        }
        Some(Planned {
            offset: index.add(&Lin::constant(1), -1)?,
            min,
            max,
            size,
        })
    }

    fn size_lin(&self, slot: usize) -> Option<Lin> {
        use crate::ir::SlotKind;
        match &self.class.slots[slot].kind {
            SlotKind::Own(v) | SlotKind::Der(v) => {
                let dims = &self.class.dims[*v];
                match dims.as_slice() {
                    [] => Some(Lin::constant(1)),
                    [d] => Lin::of(&crate::causalize::affine_to_ex(d)),
                    many if many.iter().all(|d| d.terms.is_empty()) => {
                        Some(Lin::constant(many.iter().map(|d| d.constant).product()))
                    }
                    _ => None,
                }
            }
            SlotKind::Sub { .. } => Some(Lin::constant(
                self.class.slots[slot].size.unwrap_or(1) as i64
            )),
        }
    }

    /// The number of elements of a slot when it does not depend on
    /// parameters.
    fn literal_size(&self, slot: usize) -> Option<i64> {
        use crate::ir::SlotKind;
        match &self.class.slots[slot].kind {
            SlotKind::Own(v) | SlotKind::Der(v) => {
                let dims = &self.class.dims[*v];
                if dims.iter().all(|d| d.terms.is_empty()) {
                    Some(dims.iter().map(|d| d.constant).product())
                } else {
                    None
                }
            }
            SlotKind::Sub { .. } => self.class.slots[slot].size.map(|n| n as i64),
        }
    }

    fn size_of(&self, slot: usize) -> String {
        use crate::ir::SlotKind;
        match &self.class.slots[slot].kind {
            SlotKind::Own(v) | SlotKind::Der(v) => {
                let dims = &self.class.dims[*v];
                match dims.as_slice() {
                    [] => "1".into(),
                    [d] => self.int(&crate::causalize::affine_to_ex(d)),
                    many if many.iter().all(|d| d.terms.is_empty()) => {
                        many.iter().map(|d| d.constant).product::<i64>().to_string()
                    }
                    // A parameter-sized matrix: the product of its sizes.
                    many => {
                        let factors: Vec<String> = many
                            .iter()
                            .map(|d| self.int(&crate::causalize::affine_to_ex(d)))
                            .collect();
                        format!("({})", factors.join(" * "))
                    }
                }
            }
            SlotKind::Sub { .. } => self.class.slots[slot].size.unwrap_or(1).to_string(),
        }
    }

    /// An element of a slot, in `R` or (for `tangent`) in `dR`, through the
    /// slot's hoisted base pointer.
    fn access(&self, slot: usize, index: Option<&Ex>, tangent: bool) -> String {
        let base = {
            let mut state = self.state.borrow_mut();
            if tangent {
                state.tangents.insert(slot);
                format!("d{slot}")
            } else {
                state.values.insert(slot);
                let slot_info = &self.class.slots[slot];
                if matches!(index, None | Some(Ex::Int(1)))
                    && !slot_info.is_array
                    && slot_info.size.is_none()
                    && !state.written.contains(&slot)
                {
                    state.hoisted.insert(slot);
                    return format!("h{slot}");
                }
                format!("r{slot}")
            }
        };
        match index {
            None | Some(Ex::Int(1)) => format!("{base}[0]"),
            Some(Ex::Int(k)) if self.literal_size(slot).is_some_and(|n| *k >= 1 && *k <= n) => {
                format!("{base}[{}]", k - 1)
            }
            Some(i) => match self.plan(slot, i) {
                Some(plan) => {
                    let offset = plan.offset.c(&|k| {
                        self.state.borrow_mut().ints.insert(k);
                        param_name(k)
                    });
                    format!("{base}[{offset}]")
                }
                None => format!(
                    "{base}[mofmu_ix_(ctx, in, {}, {}, \"index out of range for {}\")]",
                    self.int(i),
                    self.size_of(slot),
                    c_string(&self.class.slots[slot].name)
                ),
            },
        }
    }

    fn int(&self, e: &Ex) -> String {
        match e {
            Ex::Int(i) => format!("INT64_C({i})"),
            Ex::IntParam(k) => {
                self.state.borrow_mut().ints.insert(*k);
                param_name(*k)
            }
            Ex::LoopVar(d) => format!("i{d}"),
            Ex::Reduce(Reduction::ArgMin | Reduction::ArgMax, ..) => self
                .reduction_local(e)
                .expect("a reduction is computed into a local before its statement"),
            Ex::Neg(a) => format!("(-{})", self.int(a)),
            Ex::Bin(op @ (Arith::Add | Arith::Sub | Arith::Mul), a, b) => {
                let o = match op {
                    Arith::Add => "+",
                    Arith::Sub => "-",
                    _ => "*",
                };
                format!("({} {o} {})", self.int(a), self.int(b))
            }
            // Non-integer expressions in integer position are truncated, as
            // in C; the causaliser only lets Integer expressions get here.
            other => format!("(int64_t)({})", self.real(other)),
        }
    }

    fn boolean(&self, e: &Ex) -> String {
        match e {
            Ex::Bool(b) => (if *b { "1" } else { "0" }).into(),
            // Initialization is the one evaluation mode 1 (mofmu_model.h).
            Ex::Initial => "(ctx->event_mode == 1)".into(),
            Ex::IntParam(_) => format!("({} != 0)", self.int(e)),
            Ex::Not(a) => format!("(!{})", self.boolean(a)),
            Ex::Bin(Arith::And, a, b) => format!("({} && {})", self.boolean(a), self.boolean(b)),
            Ex::Bin(Arith::Or, a, b) => format!("({} || {})", self.boolean(a), self.boolean(b)),
            Ex::Rel(op, a, b, kind) => {
                let (a, b) = (self.real(a), self.real(b));
                match kind {
                    RelKind::Direct => format!("({a} {} {b})", c_rel(*op)),
                    RelKind::Time { slot } => format!(
                        "mofmu_time_relation(ctx, in->relation_base + {slot}, {}, {b})",
                        rel_const(*op)
                    ),
                    RelKind::State { slot, indicator } => format!(
                        "mofmu_relation(ctx, in->relation_base + {slot}, in->indicator_base + {indicator}, {}, {a}, {b})",
                        rel_const(*op)
                    ),
                    RelKind::StateIn { group } => {
                        let (slot, indicator) = self.group_position(*group as usize);
                        format!(
                            "mofmu_relation(ctx, in->relation_base + {slot}, in->indicator_base + {indicator}, {}, {a}, {b})",
                            rel_const(*op)
                        )
                    }
                    RelKind::TimeIn { group } => {
                        let (slot, _) = self.group_position(*group as usize);
                        format!(
                            "mofmu_time_relation(ctx, in->relation_base + {slot}, {}, {b})",
                            rel_const(*op)
                        )
                    }
                }
            }
            other => format!("({} != 0.0)", self.real(other)),
        }
    }

    /// The relation slot and the event indicator (both relative to the
    /// instance's bases) of the current iteration of a relation in `for`
    /// loops: after the class's scalar relations and the groups before it
    /// (each as large as its loops' iteration count at the instance's
    /// Integer parameters), at the iteration's position.
    fn group_position(&self, g: usize) -> (String, String) {
        let (mut slots, mut indicators) = (String::new(), String::new());
        for earlier in &self.class.rel_groups[..g] {
            let n = self.int(&earlier.size);
            let count = format!(" + ({n} > 0 ? {n} : 0)");
            slots.push_str(&count);
            if earlier.indicator {
                indicators.push_str(&count);
            }
        }
        let at = self.int(&self.class.rel_groups[g].index);
        let (r0, i0) = (self.class.n_relations, self.class.n_indicators);
        (
            format!("(int32_t)({r0}{slots} + {at})"),
            format!("(int32_t)({i0}{indicators} + {at})"),
        )
    }

    /// `e` as C with every compound subexpression that occurs more than
    /// once replaced by a temporary; the temporaries' definitions are
    /// appended to `temps` in an order in which each only uses earlier ones.
    /// Subexpressions under an `if` are left alone: they run only when
    /// their branch is taken.
    fn real_cse(&self, e: &Ex, temps: &mut Vec<String>) -> String {
        let mut counts: HashMap<String, usize> = HashMap::new();
        self.count_compound(e, &mut counts);
        let mut names: HashMap<String, String> = HashMap::new();
        self.render_cse(e, &counts, &mut names, temps)
    }

    fn count_compound(&self, e: &Ex, counts: &mut HashMap<String, usize>) {
        match e {
            Ex::Neg(a) => {
                *counts.entry(self.real(e)).or_default() += 1;
                self.count_compound(a, counts);
            }
            Ex::Bin(op, a, b) if !matches!(op, Arith::And | Arith::Or) => {
                *counts.entry(self.real(e)).or_default() += 1;
                self.count_compound(a, counts);
                self.count_compound(b, counts);
            }
            Ex::Call(_, args) | Ex::User(_, args, _) => {
                *counts.entry(self.real(e)).or_default() += 1;
                for a in args {
                    self.count_compound(a, counts);
                }
            }
            _ => {}
        }
    }

    fn render_cse(
        &self,
        e: &Ex,
        counts: &HashMap<String, usize>,
        names: &mut HashMap<String, String>,
        temps: &mut Vec<String>,
    ) -> String {
        let text = match e {
            Ex::Neg(a) => format!("(-{})", self.render_cse(a, counts, names, temps)),
            Ex::Bin(op, a, b) if !matches!(op, Arith::And | Arith::Or) => {
                let x = self.render_cse(a, counts, names, temps);
                let y = self.render_cse(b, counts, names, temps);
                real_arith(*op, b, &x, &y)
            }
            Ex::Call(f, args) => {
                let a: Vec<String> = args
                    .iter()
                    .map(|x| self.render_cse(x, counts, names, temps))
                    .collect();
                format!("{}({})", func_name(*f), a.join(", "))
            }
            Ex::User(sym, args, tangent) => {
                let a: Vec<String> = args
                    .iter()
                    .map(|x| self.render_cse(x, counts, names, temps))
                    .collect();
                user_call(sym, *tangent, &a)
            }
            _ => return self.real(e),
        };
        let key = self.real(e);
        if counts.get(&key).copied().unwrap_or(0) < 2 {
            return text;
        }
        if let Some(name) = names.get(&key) {
            return name.clone();
        }
        let name = format!("t{}", temps.len());
        temps.push(text);
        names.insert(key, name.clone());
        name
    }

    fn real(&self, e: &Ex) -> String {
        match e {
            Ex::Real(r) => real_literal(*r),
            Ex::Int(i) => real_literal(*i as f64),
            Ex::Bool(_)
            | Ex::Not(_)
            | Ex::Rel(..)
            | Ex::Bin(Arith::And | Arith::Or, ..)
            | Ex::Initial => format!("(double){}", self.boolean(e)),
            Ex::Var(s, i) => self.access(*s, i.as_deref(), false),
            Ex::Tan(s, i) => self.access(*s, i.as_deref(), true),
            Ex::DerOf(s, _) => unreachable!(
                "der({}) must have been replaced by its derivative during causalisation",
                self.class.slots[*s].name
            ),
            Ex::IntParam(_) => format!("(double){}", self.int(e)),
            Ex::LoopVar(d) => format!("(double)i{d}"),
            Ex::Time => "ctx->time".into(),
            Ex::Neg(a) => format!("(-{})", self.real(a)),
            Ex::Bin(op, a, b) => {
                let (x, y) = (self.real(a), self.real(b));
                real_arith(*op, b, &x, &y)
            }
            Ex::Call(f, args) => {
                let a: Vec<String> = args.iter().map(|x| self.real(x)).collect();
                format!("{}({})", func_name(*f), a.join(", "))
            }
            Ex::User(sym, args, tangent) => {
                let a: Vec<String> = args.iter().map(|x| self.real(x)).collect();
                user_call(sym, *tangent, &a)
            }
            Ex::Reduce(op, ..) => {
                let name = self
                    .reduction_local(e)
                    .expect("a reduction is computed into a local before its statement");
                match op {
                    Reduction::ArgMin | Reduction::ArgMax => format!("(double){name}"),
                    _ => name,
                }
            }
            Ex::If(branches, els) => {
                // A branch may not run: its accesses keep their own checks.
                self.state.borrow_mut().conditional += 1;
                let mut s = String::new();
                for (c, v) in branches {
                    let _ = write!(s, "({} ? {} : ", self.boolean(c), self.real(v));
                }
                s.push_str(&self.real(els));
                s.push_str(&")".repeat(branches.len()));
                self.state.borrow_mut().conditional -= 1;
                s
            }
        }
    }
}

/// Does the expression hold a reduction?
fn has_reduction(e: &Ex) -> bool {
    let mut found = false;
    e.visit(&mut |x| found |= matches!(x, Ex::Reduce(..)));
    found
}

/// The reductions of `e` that are not inside another reduction, innermost
/// first where one's bounds or index hold another.
fn outer_reductions<'e>(e: &'e Ex, out: &mut Vec<&'e Ex>) {
    match e {
        Ex::Reduce(_, _, lo, hi, _) => {
            outer_reductions(lo, out);
            outer_reductions(hi, out);
            out.push(e);
        }
        Ex::Var(_, Some(i)) | Ex::DerOf(_, Some(i)) | Ex::Tan(_, Some(i)) => {
            outer_reductions(i, out)
        }
        Ex::Neg(a) | Ex::Not(a) => outer_reductions(a, out),
        Ex::Bin(_, a, b) | Ex::Rel(_, a, b, _) => {
            outer_reductions(a, out);
            outer_reductions(b, out);
        }
        Ex::Call(_, args) | Ex::User(_, args, _) => {
            args.iter().for_each(|a| outer_reductions(a, out))
        }
        Ex::If(branches, other) => {
            for (c, v) in branches {
                outer_reductions(c, out);
                outer_reductions(v, out);
            }
            outer_reductions(other, out);
        }
        _ => {}
    }
}

/// Indexed accesses of an expression outside `if` branches, indices
/// included: the accesses that always run when their statement does.
fn collect_accesses(e: &Ex, out: &mut Vec<(usize, Option<Ex>)>) {
    match e {
        Ex::Var(s, i) | Ex::Tan(s, i) => {
            out.push((*s, i.as_deref().cloned()));
            if let Some(i) = i {
                collect_accesses(i, out);
            }
        }
        Ex::Neg(a) | Ex::Not(a) => collect_accesses(a, out),
        Ex::Bin(_, a, b) | Ex::Rel(_, a, b, _) => {
            collect_accesses(a, out);
            collect_accesses(b, out);
        }
        Ex::Call(_, args) | Ex::User(_, args, _) => {
            args.iter().for_each(|a| collect_accesses(a, out))
        }
        _ => {}
    }
}

/// The C text of a Real arithmetic operation in a kernel, whose right
/// operand is `b`: a square is a product, the rest as everywhere.
fn real_arith(op: Arith, b: &Ex, x: &str, y: &str) -> String {
    match op {
        Arith::Pow if matches!(b, Ex::Int(2)) => format!("({x} * {x})"),
        _ => c_text::arith(op, x, y),
    }
}

/// A call of a user function (or its tangent twin) from a kernel: a
/// failure inside it is reported for the calling instance.
fn user_call(sym: &str, tangent: bool, args: &[String]) -> String {
    let suffix = if tangent { "_t" } else { "" };
    let mut all = vec!["ctx".to_string(), "in->name".to_string()];
    all.extend(args.iter().cloned());
    format!("{sym}{suffix}({})", all.join(", "))
}

/// A variable name inside a C comment.
fn comment(name: &str) -> String {
    name.replace("*/", "* /")
}

fn rel_const(op: RelOp) -> &'static str {
    match op {
        RelOp::Lt => "MOFMU_LT",
        RelOp::Le => "MOFMU_LE",
        RelOp::Gt => "MOFMU_GT",
        RelOp::Ge => "MOFMU_GE",
        RelOp::Eq => "MOFMU_EQ",
        RelOp::Ne => "MOFMU_NE",
    }
}
