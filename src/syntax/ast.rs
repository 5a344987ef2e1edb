//! The abstract syntax tree of one Modelica source file.
//!
//! The parser keeps every construct of full Modelica that the compliance
//! rules need to *reject* (so `stream`, `inner`, `when`, `algorithm` ... all
//! have a place here with their span), but it stores no annotations: they
//! are parsed and dropped, because the methodology ignores them.

pub use crate::operator::{BinOp, UnOp};
use crate::source::Span;

/// One identifier with where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A dotted type or class name such as `Base.Units.SI.Length`.
#[derive(Debug, Clone, PartialEq)]
pub struct Name {
    /// A leading dot (`.Modelica.SIunits`) makes the lookup start at the top.
    pub global: bool,
    pub parts: Vec<Ident>,
    pub span: Span,
}

impl Name {
    /// The name as it was written, without spaces: `A.B.C`.
    pub fn dotted(&self) -> String {
        let joined: Vec<&str> = self.parts.iter().map(|p| p.name.as_str()).collect();
        let body = joined.join(".");
        if self.global {
            format!(".{body}")
        } else {
            body
        }
    }

    /// The last identifier of the name.
    pub fn last(&self) -> &Ident {
        self.parts.last().expect("a name has at least one part")
    }
}

/// A whole file: an optional `within` clause and its top-level classes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StoredDefinition {
    pub within: Option<Name>,
    pub classes: Vec<ClassDef>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassKind {
    Class,
    Model,
    Block,
    Connector,
    Type,
    Package,
    Record,
    Function,
    Operator,
}

impl ClassKind {
    pub fn keyword(self) -> &'static str {
        match self {
            ClassKind::Class => "class",
            ClassKind::Model => "model",
            ClassKind::Block => "block",
            ClassKind::Connector => "connector",
            ClassKind::Type => "type",
            ClassKind::Package => "package",
            ClassKind::Record => "record",
            ClassKind::Function => "function",
            ClassKind::Operator => "operator",
        }
    }
}

/// Prefixes written before the class keyword. Each is the span of its
/// keyword when present, so a rule that rejects one can point at it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ClassPrefixes {
    pub encapsulated: Option<Span>,
    pub partial: Option<Span>,
    /// `expandable connector`
    pub expandable: Option<Span>,
    /// `operator record`, `operator function`
    pub operator: Option<Span>,
    /// `pure`/`impure` functions
    pub purity: Option<Span>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ClassDef {
    pub kind: ClassKind,
    pub kind_span: Span,
    pub prefixes: ClassPrefixes,
    pub name: Ident,
    pub description: Option<String>,
    pub body: ClassBody,
    /// `constrainedby Name` after a replaceable class (its modifiers are
    /// dropped).
    pub constrainedby: Option<Name>,
    /// The `experiment` of the class annotation, the only annotation kept:
    /// metadata for export's `DefaultExperiment` (the check ignores it).
    pub experiment: Option<Experiment>,
    /// From the first prefix to the semicolon after `end Name`.
    pub span: Span,
}

impl ClassDef {
    /// The `extends f` of a class extension `function extends f ... end f;`
    /// (the parser makes it the first element): the function `f` that the
    /// enclosing package inherits, extended.
    pub fn class_extension(&self) -> Option<&Extends> {
        let ClassBody::Long(body) = &self.body else {
            return None;
        };
        match body.elements.first() {
            Some(Element::Extends(x))
                if self.kind == ClassKind::Function
                    && !x.name.global
                    && x.name.parts.len() == 1
                    && x.name.parts[0].name == self.name.name =>
            {
                Some(x)
            }
            _ => None,
        }
    }
}

/// `annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-6,
/// Interval = 0.01))` of a class. Each value is kept when it is a number
/// literal (with an optional sign); any other value is left out, as every
/// other annotation is.
#[derive(Debug, Clone, PartialEq)]
pub struct Experiment {
    pub start_time: Option<f64>,
    pub stop_time: Option<f64>,
    pub tolerance: Option<f64>,
    pub interval: Option<f64>,
    /// The `experiment(...)` argument.
    pub span: Span,
}

// The long body is by far the common case; boxing it would only add an
// indirection everywhere the tree is walked.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum ClassBody {
    /// `model M ... end M;`
    Long(LongBody),
    /// `type X = Real(unit="m");`, `connector RealInput = input Real;`
    Short(ShortBody),
    /// `type Mode = enumeration(Off "..", Heat "..")`: the literals in
    /// order (the first has the value 1).
    Enumeration {
        literals: Vec<EnumLiteral>,
        span: Span,
    },
    /// `model M = extends ...`, `der(...)`, `enumeration(:)`: kept only so
    /// the checker can reject them at their span.
    Unsupported { what: String, span: Span },
}

/// One literal of an enumeration type, with its description.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumLiteral {
    pub name: Ident,
    pub description: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct LongBody {
    pub elements: Vec<Element>,
    pub sections: Vec<Section>,
    /// The identifier after `end`; the parser reports a mismatch.
    pub end_name: Ident,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ShortBody {
    /// `input`/`output` (and others) written before the base name.
    pub prefixes: TypePrefixes,
    pub base: Name,
    pub dims: Vec<Subscript>,
    pub modification: Option<Modification>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    Public,
    Protected,
}

/// Element-level prefixes (`redeclare final inner outer replaceable`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ElementPrefixes {
    pub redeclare: Option<Span>,
    pub final_: Option<Span>,
    pub inner: Option<Span>,
    pub outer: Option<Span>,
    pub replaceable: Option<Span>,
}

/// Type prefixes of a component clause or short class definition.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TypePrefixes {
    pub flow: Option<Span>,
    pub stream: Option<Span>,
    pub discrete: Option<Span>,
    pub parameter: Option<Span>,
    pub constant: Option<Span>,
    pub input: Option<Span>,
    pub output: Option<Span>,
}

// Components are most of a class's elements; boxing them would add an
// indirection to every walk over a class body for no saving.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Element {
    Class {
        visibility: Visibility,
        prefixes: ElementPrefixes,
        /// Shared with the class tree, which keeps every nested class as a
        /// node of its own.
        class: std::sync::Arc<ClassDef>,
    },
    Extends(Extends),
    Import(Import),
    Component(Component),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Extends {
    pub visibility: Visibility,
    pub name: Name,
    pub modification: Vec<Argument>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Import {
    pub visibility: Visibility,
    /// `import A = B.C;`
    pub alias: Option<Ident>,
    pub name: Name,
    /// Span of `.*` in `import A.B.*;`
    pub wildcard: Option<Span>,
    /// `import A.{B, C};`
    pub multiple: Vec<Ident>,
    pub span: Span,
}

/// One declared component. `Real a, b;` becomes two of these sharing
/// prefixes and type; `span` covers only this declarator's clause as
/// written from the start of the clause to the end of this declarator.
#[derive(Debug, Clone, PartialEq)]
pub struct Component {
    pub visibility: Visibility,
    pub element_prefixes: ElementPrefixes,
    pub prefixes: TypePrefixes,
    pub type_name: Name,
    /// Dimensions written after the type: `Real[3] x`.
    pub type_dims: Vec<Subscript>,
    pub name: Ident,
    /// Dimensions written after the name: `Real x[3]`.
    pub dims: Vec<Subscript>,
    pub modification: Option<Modification>,
    /// `Real x if cond;` (a conditional component, eliminated).
    pub condition: Option<Expr>,
    pub description: Option<String>,
    pub span: Span,
}

/// `(args) = binding` or `= binding` or `(args)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Modification {
    pub arguments: Vec<Argument>,
    pub binding: Option<Expr>,
    pub span: Span,
}

#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Argument {
    /// `each final name(args) = expr`
    Modify {
        each: Option<Span>,
        final_: Option<Span>,
        name: Name,
        modification: Option<Modification>,
        span: Span,
    },
    /// `redeclare package Medium = Media.Oil` (or `model`, `block`, ...):
    /// a replaceable class of the modified element replaced by another.
    RedeclareClass(RedeclareClass),
    /// Any other `redeclare ...` / `replaceable ...` inside a modification
    /// (a redeclared component, a redeclared class with modifiers).
    Redeclare { span: Span },
}

/// `redeclare package Medium = Media.Oil` in a modification.
#[derive(Debug, Clone, PartialEq)]
pub struct RedeclareClass {
    pub kind: ClassKind,
    /// The replaceable class redeclared.
    pub name: Ident,
    /// The class that replaces it.
    pub base: Name,
    /// From `redeclare` to the end of the base name.
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Section {
    Equation {
        initial: Option<Span>,
        equations: Vec<Equation>,
        span: Span,
    },
    /// The statements of a function's algorithm (in any other class the
    /// section is rejected).
    Algorithm {
        initial: Option<Span>,
        statements: Vec<Statement>,
        span: Span,
    },
}

/// A statement of an algorithm section.
#[derive(Debug, Clone, PartialEq)]
pub enum Statement {
    /// `target := value;`
    Assign {
        target: ComponentRef,
        value: Expr,
        span: Span,
    },
    /// `if c then ... elseif ... else ... end if;`
    If {
        branches: Vec<(Expr, Vec<Statement>)>,
        else_: Vec<Statement>,
        span: Span,
    },
    /// `for i in range loop ... end for;` (one index per loop).
    For {
        index: Ident,
        range: Expr,
        body: Vec<Statement>,
        span: Span,
    },
    /// `while c loop ... end while;`
    While {
        condition: Expr,
        body: Vec<Statement>,
        span: Span,
    },
    Return {
        span: Span,
    },
    Break {
        span: Span,
    },
    /// `(a, , b) := f(x);`: the outputs of one call, in order; an empty
    /// place skips an output.
    Outputs {
        targets: Vec<Option<Expr>>,
        value: Expr,
        span: Span,
    },
    /// A statement functions do not admit (`when`, a call statement),
    /// kept so the checker rejects it at its line.
    Other {
        what: &'static str,
        span: Span,
    },
}

impl Statement {
    pub fn span(&self) -> Span {
        match self {
            Statement::Assign { span, .. }
            | Statement::If { span, .. }
            | Statement::For { span, .. }
            | Statement::While { span, .. }
            | Statement::Return { span }
            | Statement::Break { span }
            | Statement::Outputs { span, .. }
            | Statement::Other { span, .. } => *span,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Equation {
    Simple {
        lhs: Expr,
        rhs: Expr,
        span: Span,
    },
    Connect {
        a: ComponentRef,
        b: ComponentRef,
        span: Span,
    },
    For {
        index: Ident,
        range: Expr,
        body: Vec<Equation>,
        span: Span,
    },
    /// `if c then eqs elseif ... else eqs end if;`
    If {
        branches: Vec<(Expr, Vec<Equation>)>,
        else_: Vec<Equation>,
        span: Span,
    },
    /// `when c then ... elsewhen ... end when;`: refused (MC116), kept
    /// whole so that the checker can offer the clocked form.
    When {
        branches: Vec<(Expr, Vec<Equation>)>,
        span: Span,
    },
    /// `(a, , b) = f(x);`: the outputs of one call, in order; an empty
    /// place skips an output.
    Outputs {
        targets: Vec<Option<Expr>>,
        value: Expr,
        span: Span,
    },
    /// A call used as an equation: `assert(...)`, `reinit(...)`,
    /// `Connections.root(...)`.
    Call {
        name: Name,
        args: Vec<Expr>,
        span: Span,
    },
}

impl Equation {
    pub fn span(&self) -> Span {
        match self {
            Equation::Simple { span, .. }
            | Equation::Connect { span, .. }
            | Equation::For { span, .. }
            | Equation::If { span, .. }
            | Equation::When { span, .. }
            | Equation::Outputs { span, .. }
            | Equation::Call { span, .. } => *span,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Integer(i64),
    Real(f64),
    Bool(bool),
    String(String),
    /// `a.b[i].c`, also `time`.
    Ref(ComponentRef),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Unary(UnOp, Box<Expr>),
    /// `f(a, b, name = c)`: `der`, `sin`, `fill`, ...
    Call {
        func: Name,
        args: Vec<Expr>,
        named: Vec<(Ident, Expr)>,
    },
    /// `if c1 then e1 elseif c2 then e2 else e3`
    If {
        branches: Vec<(Expr, Expr)>,
        else_: Box<Expr>,
    },
    /// `{a, b, c}`
    Array(Vec<Expr>),
    /// `[a, b; c, d]`
    Matrix(Vec<Vec<Expr>>),
    /// `start:stop` or `start:step:stop`
    Range {
        start: Box<Expr>,
        step: Option<Box<Expr>>,
        stop: Box<Expr>,
    },
    /// `end` inside a subscript.
    End,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ComponentRef {
    pub global: bool,
    pub parts: Vec<RefPart>,
    pub span: Span,
}

impl ComponentRef {
    /// The class name before the last part (`Medium` of `Medium.cp`), as a
    /// name to look up; subscripts dropped. Empty for a one-part reference.
    pub fn prefix(&self) -> Name {
        Name {
            global: self.global,
            parts: self.parts[..self.parts.len().saturating_sub(1)]
                .iter()
                .map(|p| p.name.clone())
                .collect(),
            span: self.span,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct RefPart {
    pub name: Ident,
    pub subscripts: Vec<Subscript>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Subscript {
    /// `:`
    Colon(Span),
    Expr(Expr),
}
