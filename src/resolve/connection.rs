//! The connections of a class as data: the two sides of each connect
//! equation and the transfers the connection sets make. A floor below the
//! class model that holds them and the step (`connect`) that forms them.

use std::sync::Arc;

use super::expr::Expr;
use super::prefixes::ClassCausality;
use crate::diagnostic::Diagnostic;
use crate::source::Span;

/// What one side of a connect names, in the class that declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Port {
    /// A connector component: index into `ClassModel::connectors`.
    Connector(usize),
    /// An input or output variable (with the derivatives it carries):
    /// index into `ClassModel::vars`.
    Signal(usize),
}

/// One side of a connect equation.
#[derive(Debug, Clone, PartialEq)]
pub struct Side {
    /// The component whose port this is (index into `ClassModel::subs`),
    /// `None` for a port of the class itself.
    pub sub: Option<usize>,
    /// The port, in the class of the component (or in this class).
    pub port: Port,
    /// The port's name in its class, for messages: `port`, `u`.
    pub name: String,
    /// Shared by the sides an unrolled `for` connect makes of one side (a
    /// chain of 10^5 elements has 4·10^5 of them).
    pub members: Arc<Vec<PortMember>>,
    /// The element of a component array the port belongs to
    /// (`link[i + 1].port_a`): one 1-based index per dimension, in terms
    /// of the class and the `for` loops around the connect.
    pub index: Vec<Expr>,
    /// The element of an array of connectors the side names
    /// (`ports[i + 1]`): a 1-based index in terms of the class and the
    /// `for` loops around the connect; `None` for a whole port.
    pub element: Option<Expr>,
    /// That element, 0-based, once the side is bound to an instance
    /// (`schedule`): connection sets pair elements, not whole arrays.
    pub at: Option<usize>,
    /// The port is a conditional connector (in its class): whether the
    /// connect is kept is decided per instance.
    pub conditional: bool,
}

/// A variable of a port, with what connecting it needs to know.
#[derive(Debug, Clone, PartialEq)]
pub struct PortMember {
    /// Index into the variables of the class that declares the port.
    pub var: usize,
    /// The member's name in the port: `T`, `der(w)`; `""` for a signal
    /// itself, `der()` for the derivative it carries. Connected ports pair
    /// their members by it.
    pub key: String,
    /// The variable's name in its class, for messages: `port.T`.
    pub name: String,
    pub flow: bool,
    pub causality: ClassCausality,
    /// A Real, Boolean or Integer variable that is not a parameter: one
    /// that connections copy (parameters of a connector do not travel).
    pub copied: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Connect {
    pub a: Side,
    pub b: Side,
    pub span: Span,
    /// The ranges of the `for` loops around the connect, outermost first
    /// (each may use the indices of the loops outside it).
    pub loops: Vec<Expr>,
}

/// A side of a connect as connection sets see it: the side as written,
/// and the component and element it names. In a class these are the
/// side's own (`sub`, `at`); for an instance, the instance a component's
/// side names and the evaluated element (`schedule`). A `for` loop of 10^5
/// connects binds 2·10^5 sides without copying one.
#[derive(Debug, Clone, Copy)]
pub struct BoundSide<'c> {
    pub side: &'c Side,
    pub sub: Option<usize>,
    pub at: Option<usize>,
}

/// A connect with its two sides bound ([`BoundSide`]).
#[derive(Debug, Clone, Copy)]
pub struct BoundConnect<'c> {
    pub a: BoundSide<'c>,
    pub b: BoundSide<'c>,
    pub connect: &'c Connect,
}

impl Side {
    /// The side bound as it is written in its class.
    pub fn as_written(&self) -> BoundSide<'_> {
        BoundSide {
            side: self,
            sub: self.sub,
            at: self.at,
        }
    }
}

impl Connect {
    /// The connect with its sides as written in its class.
    pub fn as_written(&self) -> BoundConnect<'_> {
        BoundConnect {
            a: self.a.as_written(),
            b: self.b.as_written(),
            connect: self,
        }
    }

    /// `MC059` at a connect whose two sides do not match member by member: the
    /// members and flow prefixes are compared per class, the sizes of arrays
    /// only per instance (`schedule`), with the same diagnostic.
    pub fn incompatible(&self) -> Diagnostic {
        Diagnostic::error(
            "MC059",
            self.span,
            format!(
                "`{}` and `{}` are not compatible connectors",
                self.a.name, self.b.name
            ),
        )
        .with_label("different variables, flow prefixes or sizes")
        .with_help("connect connectors of the same type (or of the two causal twins of one type)")
    }
}

/// A variable of the class or of one of its components.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endpoint {
    /// Index into `ClassModel::subs`; `None` for the class's own.
    pub sub: Option<usize>,
    /// Index into the variables of that component's class (or this one).
    pub var: usize,
    /// For a member of an array of connectors: the element (0-based) the
    /// connection copies; `None` for the whole variable.
    pub element: Option<usize>,
}

impl Endpoint {
    /// The sign a flow takes in a balance: a component's flow counts as
    /// going in, the class's own (seen from outside) as going out.
    pub fn flow_sign(&self) -> f64 {
        if self.sub.is_some() {
            1.0
        } else {
            -1.0
        }
    }
}

/// One copy of a connection set, for every element of the target:
/// a potential `target = source`, or a flow balance
/// `target = -sign(target) * sum(sign(source) * source)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Transfer {
    pub target: Endpoint,
    pub sources: Vec<Endpoint>,
    pub flow: bool,
    /// The connect equation the target's side comes from.
    pub span: Span,
}

impl Side {
    /// Moves the side into a class that declares `vars` variables, `subs`
    /// components and `connectors` connectors before the ones it inherits
    /// it with. A component's port stays as it is in the component's class.
    pub fn shift(&mut self, vars: usize, subs: usize, connectors: usize) {
        match &mut self.sub {
            Some(k) => *k += subs,
            None => {
                self.port = match self.port {
                    Port::Connector(i) => Port::Connector(i + connectors),
                    Port::Signal(v) => Port::Signal(v + vars),
                };
                for m in Arc::make_mut(&mut self.members) {
                    m.var += vars;
                }
            }
        }
        for e in self.index.iter_mut().chain(self.element.as_mut()) {
            e.shift(vars, subs);
        }
    }
}
