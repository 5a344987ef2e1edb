//! The resolved model of one class, as elaboration produces it: its
//! variables (connector members expanded, inherited ones included), its
//! sub-components, its equations and its connections, every name resolved
//! to what it refers to. Nothing here depends on how the class is used.

use super::connection::{Connect, Transfer};
pub use super::expr::MemberRef;
use super::expr::{Equation, Expr};
pub use super::prefixes::{ClassCausality, ClassVariability};
use super::tree::{Builtin, ClassId};
use crate::diagnostic::Diagnostic;
use crate::source::Span;

/// The special predefined types a variable may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Special {
    pub state: bool,
    /// 1 for `RealWithDerivative`, 2 for `RealWith2Derivatives`.
    pub derivatives: u8,
    /// Declared `discrete` (or kept by a `when`, `pre` or `reinit`,
    /// `resolve::events`): its value changes only at events.
    pub discrete: bool,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Attributes {
    pub unit: Option<String>,
    pub display_unit: Option<String>,
    pub quantity: Option<String>,
    pub start: Option<Expr>,
    pub min: Option<Expr>,
    pub max: Option<Expr>,
    pub nominal: Option<Expr>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Var {
    /// Name inside the class: `T`, `port.T`, `der(port.w)`. For messages
    /// and flat names; references to the variable are by index.
    pub name: String,
    pub ty: Builtin,
    pub variability: ClassVariability,
    pub causality: ClassCausality,
    pub flow: bool,
    pub special: Special,
    /// Array dimensions as written (Integer literals or parameters).
    pub dims: Vec<Expr>,
    pub attrs: Attributes,
    pub binding: Option<Expr>,
    pub protected: bool,
    /// The connector component this variable belongs to (index into
    /// `ClassModel::connectors`), if any.
    pub connector: Option<usize>,
    /// For the derivative a RealWithDerivative variable carries: the index
    /// of that variable.
    pub carried_of: Option<usize>,
    /// The role of a variable of a declared LinearResponse component.
    pub tearing: Option<Tearing>,
    pub description: Option<String>,
    pub span: Span,
}

/// The two variables of a declared `LinearResponse` component, declared
/// one after the other: the residual, then the balance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tearing {
    /// Chosen by the system: known inside the class.
    Balance,
    /// Determined by the class; the system makes it zero.
    Residual,
}

/// A sub-component whose class has equations of its own (a model or block).
#[derive(Debug, Clone, PartialEq)]
pub struct Sub {
    pub name: String,
    pub class: ClassId,
    /// The modifiers this class writes on the component, flattened, in the
    /// order written (those of an `extends` after the base class's own).
    pub modifiers: Vec<Modifier>,
    pub protected: bool,
    /// The sizes of an array of components (`link[n]`), as written: an
    /// Integer literal or parameter expression; empty for one component.
    /// The instance count is data, like a parameter-sized array: the class
    /// compiles to the same kernel whatever it is.
    pub dims: Vec<Expr>,
    /// The condition of a conditional component (`heater if withHeater`):
    /// a structural Boolean parameter expression, fixed at export.
    pub condition: Option<Expr>,
    /// Declared `inner`: the instance an `outer` of the same name below it
    /// refers to.
    pub inner: bool,
    pub span: Span,
}

impl Sub {
    /// Whether the component's instances are chosen per instance of the
    /// class (an array, or a conditional component): its connects are then
    /// formed per instance, and equations cannot name its variables.
    pub fn structural(&self) -> bool {
        !self.dims.is_empty() || self.condition.is_some()
    }
}

/// An `outer` component of a parameter-only class (a "world"): to the
/// class, its parameters and constants are parameters of its own
/// (`world.g`), whose values the instantiation takes from the `inner`
/// component of the same name in an enclosing instance.
#[derive(Debug, Clone, PartialEq)]
pub struct OuterDecl {
    pub name: String,
    pub class: ClassId,
    /// The variables of the class that stand for the world's, in the
    /// world class's order: `vars[k]` is the world's variable `k`.
    pub vars: Vec<usize>,
    pub span: Span,
}

/// Why a path names no variable of a component.
#[derive(Debug, Clone, PartialEq)]
pub enum MemberError {
    /// The class of a component on the way cannot be elaborated: its first
    /// diagnostic.
    Class(Diagnostic),
    /// The path ends at a component (`component`, dotted from this class).
    Component { component: String },
    /// The class `class` of `component` has no variable or component
    /// `rest`.
    NoElement {
        class: String,
        component: String,
        rest: String,
    },
}

impl MemberError {
    /// The fault of a modifier whose target is not a variable of the
    /// component (MC019), at the modifier.
    pub fn not_modifiable(self, span: Span) -> Diagnostic {
        match self {
            MemberError::Class(d) => d,
            MemberError::Component { component } => Diagnostic::error(
                "MC019",
                span,
                format!("`{component}` is a component, not a variable to modify"),
            )
            .with_label("a component")
            .with_help("modify the component's variables: `component(variable = value)`"),
            MemberError::NoElement { class, rest, .. } => Diagnostic::error(
                "MC019",
                span,
                format!("`{class}` has no element `{rest}` to modify"),
            )
            .with_label("unknown element")
            .with_help("modify only parameters and variables the component's class declares"),
        }
    }
}

/// A component of connector type.
#[derive(Debug, Clone, PartialEq)]
pub struct ConnectorDecl {
    pub name: String,
    pub class: ClassId,
    /// A one-dimensional array of connectors (`Inlet inlets[n]`): each
    /// member is then an array variable `inlets[].m_flow` with one element
    /// per connector, sized like any parameter-sized array.
    pub array: bool,
    /// Its variables, in declaration order.
    pub members: Vec<ConnectorMember>,
    /// The condition of a conditional connector (`heatPort if
    /// useHeatPort`): a structural Boolean parameter expression, fixed at
    /// export. Its members may be named only in the branches of
    /// if-equations with this condition (MC144).
    pub condition: Option<Expr>,
    pub span: Span,
}

/// One variable of a connector component.
#[derive(Debug, Clone, PartialEq)]
pub struct ConnectorMember {
    /// Index into `ClassModel::vars`.
    pub var: usize,
    /// The variable's name in the connector class: `T`, `der(w)`. Two
    /// connected connectors pair their members by it.
    pub key: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ClassModel {
    pub id: ClassId,
    pub qualified: String,
    pub partial: bool,
    pub vars: Vec<Var>,
    pub subs: Vec<Sub>,
    pub connectors: Vec<ConnectorDecl>,
    pub equations: Vec<Equation>,
    /// The connect equations, both sides resolved (inherited ones first).
    pub connects: Vec<Connect>,
    /// The connection sets the connects form, as the copies every instance
    /// of the class makes; or why they cannot be formed.
    pub transfers: Result<Vec<Transfer>, Vec<Diagnostic>>,
    /// The `outer` components the class declares.
    pub outers: Vec<OuterDecl>,
    /// Lines of the class (inherited ones included) that name nothing they
    /// may name: a connect side that is not a connector, a modifier of a
    /// component that names no variable of it. The model leaves them out;
    /// the class cannot be compiled.
    pub faults: Vec<Diagnostic>,
    /// The class's clocked partitions and the variables they keep
    /// (`resolve::clocked`), when its equations name a clock.
    pub clocking: Option<std::sync::Arc<Clocking>>,
    /// The variables the class keeps for its `when` equations, `pre` and
    /// `reinit` (`resolve::events`), when it has any.
    pub events: Option<std::sync::Arc<Events>>,
}

impl Var {
    /// The discrete type of a Boolean or Integer variable (or array of
    /// them) that is not a parameter: one the class determines, an input
    /// or a connector member (DESIGN §2.2c); `None` for every other
    /// variable.
    pub fn discrete(&self) -> Option<crate::ir::Discrete> {
        if self.variability != ClassVariability::Continuous || self.flow {
            return None;
        }
        match self.ty {
            Builtin::Boolean => Some(crate::ir::Discrete::Boolean),
            Builtin::Integer => Some(crate::ir::Discrete::Integer),
            _ => None,
        }
    }

    /// The expressions the variable carries: sizes, binding, attributes.
    pub fn expressions_mut(&mut self) -> impl Iterator<Item = &mut Expr> {
        let a = &mut self.attrs;
        self.dims
            .iter_mut()
            .chain(self.binding.as_mut())
            .chain(a.start.as_mut())
            .chain(a.min.as_mut())
            .chain(a.max.as_mut())
            .chain(a.nominal.as_mut())
    }
}

impl ClassModel {
    pub fn var(&self, name: &str) -> Option<usize> {
        self.vars.iter().position(|v| v.name == name)
    }

    /// A variable by its dotted name, where a member of an array of
    /// connectors is also found without its brackets: `inlets.m_flow`
    /// names the array variable `inlets[].m_flow`.
    pub fn var_or_connector_array_member(&self, name: &str) -> Option<usize> {
        self.var(name).or_else(|| {
            let (connector, member) = name.split_once('.')?;
            self.var(&format!("{connector}[].{member}"))
        })
    }

    /// Whether variable `v` is a member of an array of connectors.
    pub fn in_connector_array(&self, v: usize) -> bool {
        self.vars[v]
            .connector
            .is_some_and(|c| self.connectors[c].array)
    }

    /// Whether the connection sets are formed per instance (from the
    /// connects unrolled with the instance's sizes and conditions) rather
    /// than once for the class: when a connect is in a `for` loop, or names
    /// an element of a component array, of an array of connectors, a
    /// conditional component or a conditional connector.
    pub fn connections_per_instance(&self) -> bool {
        self.subs.iter().any(Sub::structural)
            || self
                .connects
                .iter()
                .any(|c| !c.loops.is_empty() || c.a.element.is_some() || c.b.element.is_some())
            || self
                .connects
                .iter()
                .any(|c| c.a.conditional || c.b.conditional)
    }

    /// The outer declaration variable `v` stands for, with the index of
    /// the world's variable.
    pub fn outer_of(&self, v: usize) -> Option<(&OuterDecl, usize)> {
        self.outers
            .iter()
            .find_map(|o| o.vars.iter().position(|x| *x == v).map(|k| (o, k)))
    }

    /// Everything resolution found wrong with the class: its faults and
    /// the connection sets that cannot be formed.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut out = self.faults.clone();
        if let Err(ds) = &self.transfers {
            out.extend(ds.iter().cloned());
        }
        out
    }
}

/// The name of a carried derivative of order `order` in FMI's structured
/// form: `der(x)`, `der(x,2)`; order 0 is the variable itself.
pub fn join_der(order: usize, name: &str) -> String {
    match order {
        0 => name.to_string(),
        1 => format!("der({name})"),
        k => format!("der({name},{k})"),
    }
}

/// The inverse of [`join_der`]: `der(x,2)` gives (2, `x`).
pub fn split_der(name: &str) -> (usize, &str) {
    let Some(inner) = name.strip_prefix("der(").and_then(|n| n.strip_suffix(')')) else {
        return (0, name);
    };
    match inner.rsplit_once(',') {
        Some((base, k)) if k.chars().all(|c| c.is_ascii_digit()) && !k.is_empty() => {
            (k.parse().unwrap_or(1), base)
        }
        _ => (1, inner),
    }
}

/// The flat FMI name of element `e` (0-based, row-major) of a variable
/// named `name` in the component at `path`: `rod.T[3]`, `body.R[1,2]`,
/// `der(rev.flangeOn.v0[1])`.
pub fn element_name(path: &str, name: &str, shape: &[usize], e: usize) -> String {
    let (order, inner) = split_der(name);
    // Pushed piece by piece rather than formatted: a large model names a
    // million variables here.
    let mut flat = String::with_capacity(path.len() + inner.len() + 2 + 8 * shape.len());
    if !path.is_empty() {
        flat.push_str(path);
        flat.push('.');
    }
    flat.push_str(inner);
    if !shape.is_empty() {
        let mut idx = Vec::with_capacity(shape.len());
        let mut rest = e;
        for k in (0..shape.len()).rev() {
            idx.push(rest % shape[k] + 1);
            rest /= shape[k];
        }
        idx.reverse();
        // A member of an array of connectors (`inlets[].m_flow`) takes its
        // element's index where the connector's name has it:
        // `inlets[2].m_flow`, as Modelica names it.
        if shape.len() == 1 && flat.contains("[]") {
            flat = flat.replacen("[]", &format!("[{}]", idx[0]), 1);
        } else {
            flat.push('[');
            for (k, &i) in idx.iter().enumerate() {
                if k > 0 {
                    flat.push(',');
                }
                push_decimal(&mut flat, i);
            }
            flat.push(']');
        }
    }
    if order == 0 {
        return flat;
    }
    join_der(order, &flat)
}

/// Appends `n` in decimal.
fn push_decimal(s: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    s.extend(digits[at..].iter().map(|&d| char::from(d)));
}

/// One value given to a variable of a component.
#[derive(Debug, Clone, PartialEq)]
pub struct Modifier {
    /// The modified variable (its path starts at the component).
    pub target: MemberRef,
    pub attribute: Attribute,
    /// The value, in terms of the class that writes the modifier.
    pub value: Expr,
    /// The modifier argument as written.
    pub span: Span,
}

/// What a modifier gives its variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attribute {
    /// The binding: `k = 2`.
    Value,
    /// The start value: `x(start = 1)`.
    Start,
    /// The unit: `x(unit = "m")`.
    Unit,
}

#[cfg(test)]
mod element_name_tests {
    use super::element_name;

    /// Modelica's flat names of array elements: 1-based indices, row-major,
    /// a connector array's element where its name has `[]`, `der(...)`
    /// around the whole path.
    #[test]
    fn element_names_follow_the_flat_naming() {
        assert_eq!(element_name("", "T", &[], 0), "T");
        assert_eq!(element_name("rod", "T", &[5], 2), "rod.T[3]");
        assert_eq!(
            element_name("link[120]", "Q", &[1000], 999),
            "link[120].Q[1000]"
        );
        assert_eq!(element_name("body", "R", &[3, 3], 1), "body.R[1,2]");
        assert_eq!(element_name("body", "R", &[3, 3], 8), "body.R[3,3]");
        assert_eq!(
            element_name("", "inlets[].m_flow", &[4], 1),
            "inlets[2].m_flow"
        );
        assert_eq!(
            element_name("rev", "der(flangeOn.v0)", &[2], 0),
            "der(rev.flangeOn.v0[1])"
        );
        assert_eq!(element_name("a", "der(x,2)", &[], 0), "der(a.x,2)");
    }
}

/// The variables one class keeps for its events (DESIGN §2.2c).
#[derive(Debug, Clone, PartialEq)]
pub struct Events {
    /// Each variable whose left limit the class keeps (what a `when`
    /// assigns, what `pre`, `edge` and `change` read, and each branch's
    /// condition), with the variable that keeps it.
    pub pre: Vec<(usize, usize)>,
    /// The condition of each `when` and `elsewhen` branch, in order: a
    /// Boolean, or a Boolean array for a vector of conditions.
    pub conditions: Vec<usize>,
    /// Each state a `when` reinitialises, with the variable of its new
    /// value.
    pub reinit: Vec<(usize, usize)>,
    /// A Boolean per `terminate`, in order.
    pub terminate: Vec<usize>,
    /// The first variable made here; the class's own come before it.
    pub synthetic_from: usize,
}

impl Events {
    /// The variable that keeps `pre(v)`.
    pub fn pre_of(&self, v: usize) -> Option<usize> {
        self.pre.iter().find(|(x, _)| *x == v).map(|(_, p)| *p)
    }
}

impl ClassModel {
    /// The end of the variables the class declares (its own and the ones
    /// it inherits): the ones events and clocked partitions keep come
    /// after them, and a class that extends this one makes those again.
    pub fn declared_vars(&self) -> usize {
        self.events
            .as_ref()
            .map(|e| e.synthetic_from)
            .or(self.clocking.as_ref().map(|c| c.synthetic_from))
            .unwrap_or(self.vars.len())
    }
}

/// The clocks of one class.
#[derive(Debug, Clone, PartialEq)]
pub struct Clocking {
    pub partitions: Vec<Partition>,
    /// Each variable `previous` reads, with the variable that keeps its
    /// previous value.
    pub previous: Vec<(usize, usize)>,
    /// The first variable made here; the class's own come before it.
    pub synthetic_from: usize,
    /// Per top-level equation: the partition clock inference puts it on.
    pub equation: Vec<Option<usize>>,
    /// The class's clocked variables and their partitions.
    pub vars: Vec<(usize, usize)>,
}

/// One clocked partition: `base` (a `Clock(...)` call) sub-sampled by the
/// product of `sub` and super-sampled by the product of `sup`.
#[derive(Debug, Clone, PartialEq)]
pub struct Partition {
    pub base: Expr,
    pub sub: Vec<Expr>,
    pub sup: Vec<Expr>,
    /// Its variables: tick count, first tick's time, "ticks now".
    pub ticks: usize,
    pub first: usize,
    pub fire: usize,
}
