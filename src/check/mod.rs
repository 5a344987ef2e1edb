//! Compliance rules that need only the syntax tree: the features the
//! methodology eliminates, each with its own code and a one-line reason.
//! Rules that need resolution or causality live in `resolve`, `causalize`
//! and `schedule`.

pub mod teach;

use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::{
    Argument, ClassBody, ClassDef, ClassKind, Element, Equation, Expr, ExprKind, LongBody,
    Modification, Section, Statement, StoredDefinition, Subscript,
};

/// Checks one parsed file.
pub fn check_file(def: &StoredDefinition) -> Vec<Diagnostic> {
    let mut c = Checker {
        diags: Vec::new(),
        declared: Vec::new(),
        nesting: Nesting::Top,
    };
    for class in &def.classes {
        c.class(class, false);
    }
    c.diags
}

struct Checker {
    diags: Vec<Diagnostic>,
    /// For each class being checked (innermost last): its components, and
    /// whether each is declared `Clock` (the second argument of
    /// `sample(u, c)` tells the clocked form from the event form).
    declared: Vec<Vec<(String, bool)>>,
    /// What the equation being checked is nested in.
    nesting: Nesting,
}

/// What an equation is nested in: a `when` equation is admitted only at
/// the top of an equation section (MLS §8.3.5 leaves no room for one
/// inside another, and inside `for` or `if` it would need a memory per
/// iteration or branch), and only `v = e`, `reinit`, `assert` and
/// `terminate` inside it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Nesting {
    Top,
    /// Inside a `for` loop or an if-equation (the keyword's span).
    Loop(Span, &'static str),
    When,
}

fn eliminated(code: &'static str, span: Span, what: &str, why: &str, help: &str) -> Diagnostic {
    Diagnostic::error(
        code,
        span,
        format!("{what} is not part of the strict methodology: {why}"),
    )
    .with_label("eliminated feature")
    .with_help(help)
}

impl Checker {
    fn class(&mut self, class: &ClassDef, inside_encapsulated: bool) {
        let encapsulated = inside_encapsulated || class.prefixes.encapsulated.is_some();
        if let Some(s) = class.prefixes.expandable {
            self.diags.push(eliminated(
                "MC102",
                s,
                "an expandable connector",
                "its contents are only known after the whole system is read",
                "declare every variable of the connector explicitly",
            ));
        }
        if let Some(s) = class.prefixes.operator {
            self.diags.push(eliminated(
                "MC104",
                s,
                "operator overloading",
                "the meaning of an operator must not depend on types declared elsewhere",
                "write the operation as equations on Real variables",
            ));
        }
        if class.kind == ClassKind::Operator {
            self.diags.push(eliminated(
                "MC104",
                class.kind_span,
                "an operator class",
                "the meaning of an operator must not depend on types declared elsewhere",
                "write the operation as equations on Real variables",
            ));
        }
        match &class.body {
            ClassBody::Unsupported { what, span } => self.diags.push(
                Diagnostic::error("MC118", *span, format!("{what} is not supported"))
                    .with_label("unsupported class definition")
                    .with_help("write a long class definition or `type X = Real(...)`"),
            ),
            ClassBody::Short(short) => {
                if let Some(m) = &short.modification {
                    self.modification(m);
                }
                if let Some(s) = short.prefixes.stream {
                    self.stream(s);
                }
            }
            ClassBody::Enumeration { .. } => {}
            ClassBody::Long(body) => {
                self.declared.push(
                    body.elements
                        .iter()
                        .filter_map(|e| match e {
                            Element::Component(c) => {
                                Some((c.name.name.clone(), c.type_name.dotted() == "Clock"))
                            }
                            _ => None,
                        })
                        .collect(),
                );
                for e in &body.elements {
                    self.element(e, encapsulated, class.prefixes.encapsulated.is_some());
                }
                match class.kind {
                    ClassKind::Function => self.function_sections(class, body),
                    ClassKind::Record => self.record_sections(body),
                    _ => {
                        for s in &body.sections {
                            self.section(s);
                        }
                    }
                }
                self.declared.pop();
            }
        }
    }

    /// Whether `e` can be a clock: a clock constructor (`Clock(...)`,
    /// `subSample(...)`, `superSample(...)`) or a name that the class does
    /// not declare as something other than a `Clock` (a `Real` interval
    /// `Ts` is the event form `sample(0, Ts)`).
    fn is_clock(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Call { func, .. } => {
                matches!(
                    func.dotted().as_str(),
                    "Clock" | "subSample" | "superSample"
                )
            }
            ExprKind::Ref(r) if r.parts.len() == 1 && r.parts[0].subscripts.is_empty() => {
                let name = &r.parts[0].name.name;
                match self
                    .declared
                    .last()
                    .and_then(|d| d.iter().find(|(n, _)| n == name))
                {
                    Some((_, clock)) => *clock,
                    None => true,
                }
            }
            _ => false,
        }
    }

    /// Whether `e` is a clock for certain: a clock constructor, or a name
    /// the class declares `Clock`.
    fn names_clock(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Ref(r) if r.parts.len() == 1 && r.parts[0].subscripts.is_empty() => {
                let name = &r.parts[0].name.name;
                self.declared
                    .last()
                    .is_some_and(|d| d.iter().any(|(n, clock)| n == name && *clock))
            }
            _ => self.is_clock(e),
        }
    }

    /// A function has exactly one algorithm section and no equations
    /// (MC073); its statements are those a function admits (MC077).
    fn function_sections(&mut self, class: &ClassDef, body: &LongBody) {
        let mut algorithms = 0;
        for s in &body.sections {
            match s {
                Section::Algorithm {
                    initial,
                    statements,
                    span,
                } => {
                    algorithms += 1;
                    if initial.is_some() || algorithms > 1 {
                        self.diags.push(
                            Diagnostic::error(
                                "MC073",
                                *span,
                                "a function has exactly one algorithm section",
                            )
                            .with_label(if initial.is_some() {
                                "initial algorithm in a function"
                            } else {
                                "second algorithm section"
                            })
                            .with_help("write the whole computation in one `algorithm` section"),
                        );
                    }
                    self.statements(statements);
                }
                Section::Equation { span, .. } => self.diags.push(
                    Diagnostic::error("MC073", *span, "a function cannot have equations")
                        .with_label("equation section in a function")
                        .with_help(
                            "compute the outputs with assignments (`:=`) in the algorithm section",
                        ),
                ),
            }
        }
        // A partial function declares inputs and outputs only; a package
        // that extends its package implements it (`redeclare function
        // extends`), and a call of it unimplemented is MC128.
        if body.sections.is_empty() && class.prefixes.partial.is_none() {
            self.diags.push(
                Diagnostic::error(
                    "MC117",
                    class.kind_span,
                    "a function without an algorithm section is not supported",
                )
                .with_label("no algorithm section")
                .with_help(
                    "compute the outputs in an `algorithm` section; external functions are not supported",
                ),
            );
        }
    }

    fn statements(&mut self, statements: &[Statement]) {
        for st in statements {
            match st {
                Statement::Other { what, span } => self.diags.push(
                    Diagnostic::error(
                        "MC077",
                        *span,
                        format!("{what} is not admitted in a function"),
                    )
                    .with_label("statement not admitted")
                    .with_help(
                        "use assignments `x := expr;`, `if`, `for`, `while`, `break` and `return`",
                    ),
                ),
                Statement::Assign { value, .. } => self.expr(value),
                Statement::Outputs { targets, value, .. } => {
                    targets.iter().flatten().for_each(|t| self.expr(t));
                    self.expr(value);
                }
                Statement::If {
                    branches, else_, ..
                } => {
                    for (c, b) in branches {
                        self.expr(c);
                        self.statements(b);
                    }
                    self.statements(else_);
                }
                Statement::For { range, body, .. } => {
                    self.expr(range);
                    self.statements(body);
                }
                Statement::While {
                    condition, body, ..
                } => {
                    self.expr(condition);
                    self.statements(body);
                }
                Statement::Return { .. } | Statement::Break { .. } => {}
            }
        }
    }

    /// A record holds fields only (MC078).
    fn record_sections(&mut self, body: &LongBody) {
        for s in &body.sections {
            let span = match s {
                Section::Algorithm { span, .. } | Section::Equation { span, .. } => *span,
            };
            self.diags.push(
                Diagnostic::error("MC078", span, "a record holds fields only")
                    .with_label("section in a record")
                    .with_help("declare the record's fields; compute values in a function"),
            );
        }
    }

    fn stream(&mut self, s: Span) {
        self.diags.push(eliminated(
            "MC101",
            s,
            "a `stream` variable",
            "stream connectors need the whole connection set to be understood",
            "model transported quantities with explicit input/output causality",
        ));
    }

    fn element(&mut self, e: &Element, encapsulated: bool, own_encapsulated: bool) {
        match e {
            Element::Class {
                prefixes, class, ..
            } => {
                // A replaceable class is admitted (it makes specialisations);
                // a `redeclare` element is not, except the implementation of
                // an inherited function, `redeclare function extends f`.
                let mut prefixes = prefixes.clone();
                prefixes.replaceable = None;
                if class.class_extension().is_some() {
                    prefixes.redeclare = None;
                }
                self.element_prefixes(&prefixes);
                self.class(class, encapsulated);
            }
            Element::Import(i) => {
                if let Some(w) = i.wildcard {
                    self.diags.push(eliminated(
                        "MC113",
                        w,
                        "a wildcard import",
                        "it makes every name of a package visible, so a reader cannot tell where a name comes from",
                        "import each class by name: `import A = B.C;`",
                    ));
                } else if !i.multiple.is_empty() {
                    self.diags.push(eliminated(
                        "MC113",
                        i.span,
                        "a multiple import",
                        "imports name one class each",
                        "write one `import A = B.C;` per class",
                    ));
                }
                if !own_encapsulated {
                    self.diags.push(eliminated(
                        "MC114",
                        i.span,
                        "an import outside an encapsulated class",
                        "imports are only allowed where they are the class's whole view of the outside",
                        "mark the class `encapsulated`, or refer to the class by its full name",
                    ));
                }
            }
            Element::Extends(x) => {
                for a in &x.modification {
                    self.argument(a);
                }
            }
            Element::Component(c) => {
                self.element_prefixes(&c.element_prefixes);
                if let Some(s) = c.prefixes.stream {
                    self.stream(s);
                }
                // Conditional components are admitted (DESIGN §2.2a); a
                // conditional variable or connector is MC112 in resolve.
                if let Some(cond) = &c.condition {
                    self.expr(cond);
                }
                if let Some(m) = &c.modification {
                    self.modification(m);
                }
                for s in c.dims.iter().chain(&c.type_dims) {
                    if let Subscript::Expr(e) = s {
                        self.expr(e);
                    }
                }
            }
        }
    }

    fn element_prefixes(&mut self, p: &crate::syntax::ast::ElementPrefixes) {
        // `inner`/`outer` worlds are admitted (DESIGN §2.2a) and checked in
        // resolve (MC103, MC122) and at export (MX026).
        for s in [p.redeclare, p.replaceable].into_iter().flatten() {
            self.diags.push(eliminated(
                "MC111",
                s,
                "`redeclare`/`replaceable`",
                "the class of a component must be known where it is declared",
                "declare the component with the class you want",
            ));
        }
    }

    fn modification(&mut self, m: &Modification) {
        for a in &m.arguments {
            self.argument(a);
        }
        if let Some(b) = &m.binding {
            self.expr(b);
        }
    }

    fn argument(&mut self, a: &Argument) {
        match a {
            Argument::Modify { modification, .. } => {
                if let Some(m) = modification {
                    self.modification(m);
                }
            }
            // `redeclare package Medium = Media.Oil`: checked where the
            // tree is built (`resolve::specialise`).
            Argument::RedeclareClass(_) => {}
            Argument::Redeclare { span } => self.diags.push(eliminated(
                "MC111",
                *span,
                "this `redeclare`/`replaceable`",
                "only classes are redeclared (`redeclare package Medium = Media.Oil`); the class of a component must be known where it is declared",
                "declare the component with the class you want, or make its class a replaceable class and redeclare that",
            )),
        }
    }

    fn section(&mut self, s: &Section) {
        match s {
            Section::Algorithm { span, .. } => self.diags.push(eliminated(
                "MC110",
                *span,
                "an `algorithm` section",
                "assignments hide causality in statements instead of declaring it in equations",
                "write the computation as equations in partially ordered form",
            )),
            // Initial equations are checked for their one admitted form
            // (`state = expression of parameters`) when the class is
            // resolved (MC115, MC096, MC097).
            Section::Equation { equations, .. } => {
                for e in equations {
                    self.equation(e);
                }
            }
        }
    }

    fn equation(&mut self, e: &Equation) {
        match e {
            Equation::Simple { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            Equation::For {
                range, body, span, ..
            } => {
                self.expr(range);
                let outer = self.enter(Nesting::Loop(*span, "a `for` loop"));
                for b in body {
                    self.equation(b);
                }
                self.nesting = outer;
            }
            Equation::If {
                branches,
                else_,
                span,
            } => {
                let outer = self.enter(Nesting::Loop(*span, "an if-equation"));
                for (c, body) in branches {
                    self.expr(c);
                    body.iter().for_each(|b| self.equation(b));
                }
                else_.iter().for_each(|b| self.equation(b));
                self.nesting = outer;
            }
            Equation::Outputs { targets, value, .. } => {
                targets.iter().flatten().for_each(|t| self.expr(t));
                self.expr(value);
            }
            Equation::When { branches, span } => self.when(branches, *span),
            Equation::Call { name, args, span } => {
                let n = name.dotted();
                if n.starts_with("Connections.") {
                    self.diags.push(eliminated(
                        "MC105",
                        *span,
                        &format!("`{n}`"),
                        "overdetermined connection graphs are replaced by assumed causality",
                        "give the connectors input/output causality",
                    ));
                } else if n == "reinit" || n == "terminate" {
                    if self.nesting != Nesting::When {
                        self.diags.push(outside_when(*span, &n));
                    } else if let Some(d) = event_action_arguments(&n, args, *span) {
                        self.diags.push(d);
                    }
                } else if n != "assert" {
                    self.diags.push(
                        Diagnostic::error(
                            "MC043",
                            *span,
                            format!("`{n}(...)` cannot be used as an equation"),
                        )
                        .with_label("not an equation")
                        .with_help("write an equation `unknown = expression`"),
                    );
                }
                for a in args {
                    self.expr(a);
                }
            }
            Equation::Connect { .. } => {}
        }
    }

    /// Enters an equation nested in `nesting`; returns the nesting to
    /// restore.
    fn enter(&mut self, nesting: Nesting) -> Nesting {
        let outer = self.nesting;
        if outer == Nesting::Top || nesting == Nesting::When {
            self.nesting = nesting;
        }
        outer
    }

    /// A `when` equation (DESIGN §2.2c): admitted at the top of an equation
    /// section, on conditions (the periodic `when sample(0, Ts)` is the
    /// clocked form's, MC116); its body holds `v = expression`, `reinit`,
    /// `assert` and `terminate` only. What it may assign and reinitialise
    /// is the class's, checked when it is causalised.
    fn when(&mut self, branches: &[(Expr, Vec<Equation>)], span: Span) {
        match self.nesting {
            Nesting::Top => {}
            Nesting::Loop(_, what) => {
                self.diags.push(nested_when(span, what));
                return;
            }
            Nesting::When => {
                self.diags.push(nested_when(span, "another `when`"));
                return;
            }
        }
        if let Some((c, _)) = branches.iter().find(|(c, _)| self.names_clock(c)) {
            self.diags.push(when_clock(c.span));
            return;
        }
        let periodic = branches.first().is_some_and(|(c, _)| match &c.kind {
            ExprKind::Call { func, args, named } => {
                func.dotted() == "sample" && args.len() == 2 && named.is_empty()
            }
            _ => false,
        });
        if periodic {
            self.diags.push(discrete(
                span,
                "a `when` equation on `sample(start, interval)` is a periodic clock, which the \
                 methodology writes as a clocked partition",
                "in clocked form `when sample(0, Ts) then y = f(x); end when` is \
                 `y = f(sample(x, Clock(Ts)));`, `pre(y)` is `previous(y)`, and \
                 continuous-time equations read `hold(y)`",
            ));
            return;
        }
        let outer = self.enter(Nesting::When);
        for (condition, body) in branches {
            self.expr(condition);
            for eq in body {
                match eq {
                    Equation::Simple { .. } | Equation::Call { .. } => self.equation(eq),
                    other => self.diags.push(
                        Diagnostic::error(
                            "MC161",
                            other.span(),
                            "a `when` holds only `v = expression`, `reinit(x, expression)`, \
                             `assert` and `terminate`",
                        )
                        .with_label("not admitted in a `when`")
                        .with_help(
                            "write a choice as an if-expression, `v = if c then a else b;`, and \
                             connect outside the `when`",
                        ),
                    ),
                }
            }
        }
        self.nesting = outer;
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Call { func, args, named } => {
                let n = func.dotted();
                let rule: Option<(&'static str, &str, &str)> = match n.as_str() {
                    "cardinality" => Some((
                        "MC106",
                        "its value depends on how the component is connected elsewhere",
                        "use explicit parameters instead",
                    )),
                    "delay" => Some((
                        "MC107",
                        "it needs past values the methodology does not keep",
                        "model the delay with states (e.g. a chain of first-order blocks)",
                    )),
                    "homotopy" => Some((
                        "MC108",
                        "it asks the solver to guess between two models",
                        "write the actual model",
                    )),
                    "spatialDistribution" => Some((
                        "MC109",
                        "it hides a partial differential equation in a built-in",
                        "discretise the distribution into states",
                    )),
                    _ => None,
                };
                if let Some((code, why, help)) = rule {
                    self.diags
                        .push(eliminated(code, e.span, &format!("`{n}`"), why, help));
                } else if n.starts_with("Connections.") {
                    self.diags.push(eliminated(
                        "MC105",
                        e.span,
                        &format!("`{n}`"),
                        "overdetermined connection graphs are replaced by assumed causality",
                        "give the connectors input/output causality",
                    ));
                } else if let Some((message, help)) = event_builtin_refusal(&n, args.len()) {
                    // `sample(u, c)` reads `u` at the ticks of clock `c`;
                    // `sample(start, interval)` is the event form.
                    let clocked = n == "sample"
                        && args.len() == 2
                        && named.is_empty()
                        && self.is_clock(&args[1]);
                    if !clocked {
                        self.diags.push(discrete(e.span, message, help));
                    }
                }
                for a in args {
                    self.expr(a);
                }
                for (_, a) in named {
                    self.expr(a);
                }
            }
            ExprKind::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Unary(_, a) => self.expr(a),
            ExprKind::If { branches, else_ } => {
                for (c, v) in branches {
                    self.expr(c);
                    self.expr(v);
                }
                self.expr(else_);
            }
            ExprKind::Array(items) => items.iter().for_each(|x| self.expr(x)),
            ExprKind::Matrix(rows) => rows.iter().flatten().for_each(|x| self.expr(x)),
            ExprKind::Range { start, step, stop } => {
                self.expr(start);
                if let Some(s) = step {
                    self.expr(s);
                }
                self.expr(stop);
            }
            ExprKind::Ref(r) => {
                for p in &r.parts {
                    for s in &p.subscripts {
                        if let Subscript::Expr(x) = s {
                            self.expr(x);
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// The refusal of an event built-in the methodology writes otherwise: the
/// event form of a periodic clock and `terminal()`; `None` for any other
/// name (`pre`, `edge`, `change` and `initial()` are admitted, DESIGN
/// §2.2c; `sample(u)` and other argument counts are the clocked built-in
/// used wrongly, which resolution reports).
fn event_builtin_refusal(name: &str, args: usize) -> Option<(&'static str, &'static str)> {
    Some(match name {
        "terminal" => (
            "`terminal()` is not supported: an FMU is not told ahead of time when the simulation ends",
            "`terminal()` has no form under the methodology: a value the run should end with is \
             the last value of a variable",
        ),
        "sample" if args == 2 => (
            "the event `sample(start, interval)` is a periodic clock, which the methodology writes as a clocked partition",
            "the event `sample(0, Ts)` is the clock `Clock(Ts)`: `sample(x, Clock(Ts))` reads x \
             at its ticks, in equations without `when`",
        ),
        _ => return None,
    })
}

/// MC183: `when Clock(Ts) then ... end when;`. A clocked equation is
/// clocked by what it reads, so the clock needs no `when` (and the
/// event-driven `when` is another construct).
fn when_clock(span: Span) -> Diagnostic {
    Diagnostic::error(
        "MC183",
        span,
        "a `when` on a clock: clocked equations need no `when`",
    )
    .with_label("a clock as a `when` condition")
    .with_help(
        "drop the `when` and write its equations as they are, each reading its clock: \
         `y = f(sample(x, Clock(Ts)), previous(y));` runs at the ticks of `Clock(Ts)`, and \
         continuous-time equations read `hold(y)` (docs/language.md, \"Clocked partitions\")",
    )
}

/// MC160: a `when` inside a `for` loop, an if-equation or a `when`.
fn nested_when(span: Span, inside: &str) -> Diagnostic {
    Diagnostic::error(
        "MC160",
        span,
        format!("a `when` equation inside {inside} is not supported"),
    )
    .with_label("nested `when`")
    .with_help(
        "write the `when` at the top of the equation section; for several elements, one \
         `when` per element, or a condition vector `when {c1, c2} then`",
    )
}

/// MC161 when `reinit` does not take a state and a value, or `terminate`
/// one message string.
fn event_action_arguments(name: &str, args: &[Expr], span: Span) -> Option<Diagnostic> {
    let (fits, form) = match name {
        "reinit" => (args.len() == 2, "`reinit(x, expression)`"),
        _ => (
            matches!(
                args,
                [Expr {
                    kind: ExprKind::String(_),
                    ..
                }]
            ),
            "`terminate(\"why the simulation ends\")`",
        ),
    };
    (!fits).then(|| {
        Diagnostic::error("MC161", span, format!("`{name}` is written {form}"))
            .with_label("wrong arguments")
            .with_help(format!("write {form}"))
    })
}

/// MC162: `reinit` or `terminate` outside a `when`.
fn outside_when(span: Span, name: &str) -> Diagnostic {
    Diagnostic::error(
        "MC162",
        span,
        format!("`{name}(...)` acts at an event, so it belongs inside a `when` equation"),
    )
    .with_label("outside a `when`")
    .with_help(format!(
        "write it in the `when` of the event it follows: `when h <= 0 then {name}(...); end when;`"
    ))
}

fn discrete(span: Span, message: &str, help: &str) -> Diagnostic {
    Diagnostic::error("MC116", span, message)
        .with_label("discrete event")
        .with_help(help)
}
