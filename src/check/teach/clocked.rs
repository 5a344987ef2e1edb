//! The clocked form of a periodic `when` (MC116), offered by `check --fix`
//! where the rewrite is mechanical:
//!
//! ```modelica
//! when sample(0, Ts) then        //  uk = K*(r - sample(x, Clock(Ts)));
//!   uk = K*(r - x);              //  ...
//! end when;                      //  der(x) = -a*x + b*hold(uk);
//! der(x) = -a*x + b*uk;
//! ```
//!
//! The equations leave the `when`; each continuous-time variable they read
//! is read at the ticks (`sample(x, Clock(Ts))`, or `sample(x, clock)` with
//! one `Clock clock = Clock(Ts);` declared when there are several such
//! reads), `pre(v)` becomes `previous(v)`, and the continuous-time
//! equations read each variable the `when` determined through `hold(v)`.
//!
//! Mechanical means: every `when` of the class is `when sample(0, T) then
//! v = e; ... end when;` with one interval `T` of parameters and literals,
//! each `v` a scalar variable of the class determined there once and read
//! there only after it is determined (or through `pre`); the class has no
//! other discrete-event or clocked construct; and each rewritten equation
//! is tied to the clock (it samples, or reads a variable determined from a
//! sample). Anything else keeps only the help line.

use std::collections::HashMap;

use crate::diagnostic::Diagnostic;
use crate::operator::{BinOp, UnOp};
use crate::resolve::tree::{ClassNode, ClassTree};
use crate::source::{SourceMap, Span};
use crate::syntax::ast::{
    Argument, ClassBody, ClassDef, Component, ComponentRef, Element, Equation, Expr, ExprKind,
    LongBody, Modification, Section, Subscript,
};

/// What the rewrite reads: the sources, the class tree, and whether a
/// component's type is derived from `Real` through short classes.
pub(super) struct Library<'a> {
    pub sources: &'a SourceMap,
    pub tree: &'a ClassTree,
    pub real_typed: &'a dyn Fn(&Component) -> bool,
}

fn text<'a>(lib: &Library<'a>, span: Span) -> &'a str {
    let file = lib.sources.get(span.file);
    file.text
        .get(span.start as usize..span.end as usize)
        .unwrap_or("")
}

/// The indentation of the line `offset` lies on.
fn indentation(lib: &Library, offset: u32, file: crate::source::FileId) -> String {
    let text = &lib.sources.get(file).text;
    let start = text[..offset as usize].rfind('\n').map_or(0, |i| i + 1);
    text[start..offset as usize]
        .chars()
        .take_while(|c| c.is_whitespace())
        .collect()
}

fn long_body(def: &ClassDef) -> Option<&LongBody> {
    match &def.body {
        ClassBody::Long(b) => Some(b),
        _ => None,
    }
}

fn components(def: &ClassDef) -> impl Iterator<Item = &Component> {
    long_body(def)
        .into_iter()
        .flat_map(|b| b.elements.iter())
        .filter_map(|e| match e {
            Element::Component(c) => Some(c),
            _ => None,
        })
}

/// The built-ins a rewritable `when` body or the rest of the class may not
/// call (events, delays, and the clocked built-ins a class with its own
/// clock already uses).
const DISCRETE: &[&str] = &[
    "pre",
    "edge",
    "change",
    "sample",
    "initial",
    "terminal",
    "delay",
    "Clock",
    "subSample",
    "superSample",
    "hold",
    "previous",
    "interval",
    "firstTick",
];

/// One `when sample(0, T) then v = e; ... end when;` of the class.
struct Block<'a> {
    span: Span,
    /// The text of `T`.
    interval: String,
    interval_expr: &'a Expr,
    /// `(v, e, equation span)` in order.
    equations: Vec<(String, &'a Expr, Span)>,
}

/// Offers the clocked rewrite on `d`, an MC116 at a `when` of `class`, when
/// it is mechanical; returns whether it did.
pub(super) fn when_sample_fix(lib: &Library, class: &ClassNode, d: &mut Diagnostic) -> bool {
    let Some(edits) = rewrite(lib, class, d.span) else {
        return false;
    };
    d.help = "in clocked form the equations leave the `when`, read continuous-time values \
              as `sample(x, Clock(Ts))`, `pre(y)` becomes `previous(y)`, and continuous-time \
              equations read `hold(y)` (docs/language.md, \"Clocked partitions\")"
        .to_string();
    for (span, replacement) in edits {
        d.push_fix(
            "rewrite the periodic `when` as clocked equations",
            span,
            replacement,
        );
    }
    true
}

/// The edits of the rewrite of every `when` of `class` (`at` one of
/// them), or `None` when it is not mechanical.
fn rewrite(lib: &Library, class: &ClassNode, at: Span) -> Option<Vec<(Span, String)>> {
    let body = long_body(&class.def)?;
    let file = at.file;
    let (blocks, others) = blocks_of(lib, body)?;
    if !blocks.iter().any(|b| b.span == at) {
        return None;
    }
    let interval = squeeze(&blocks[0].interval);
    if blocks.iter().any(|b| squeeze(&b.interval) != interval) {
        return None;
    }
    let declared: HashMap<&str, &Component> = components(&class.def)
        .map(|c| (c.name.name.as_str(), c))
        .collect();
    let extends = body
        .elements
        .iter()
        .any(|e| matches!(e, Element::Extends(_)));
    if declared.values().any(|c| c.type_name.dotted() == "Clock") {
        return None;
    }
    let integer_interval = parameter_expression(blocks[0].interval_expr, &declared)?;

    // The variables the `when`s determine, in order, each once.
    let mut vars: Vec<&str> = Vec::new();
    for b in &blocks {
        for (v, _, _) in &b.equations {
            let c = declared.get(v.as_str())?;
            if vars.contains(&v.as_str()) || !clockable(lib, c) {
                return None;
            }
            vars.push(v);
        }
    }

    // The `when` bodies: sample edits, `previous` edits, and the ties.
    let mut inner: Vec<(Span, Edit)> = Vec::new();
    let mut samples = 0usize;
    // For each variable: whether its equation samples, and the variables
    // it reads (now or previous).
    let mut reads: Vec<(bool, Vec<usize>)> = Vec::new();
    for (index, (_, e, _)) in blocks.iter().flat_map(|b| b.equations.iter()).enumerate() {
        let mut w = BodyWalk {
            vars: &vars,
            index,
            declared: &declared,
            extends,
            edits: &mut inner,
            samples: 0,
            reads: Vec::new(),
        };
        w.expr(e)?;
        samples += w.samples;
        reads.push((w.samples > 0, w.reads));
    }
    if !all_tied(&reads) {
        return None;
    }
    // The rest of the class reads the variables through `hold`.
    let holds = holds(body, &others, &vars)?;
    // The clock: inline for one sampled read, else declared once.
    let interval_text = blocks[0].interval.trim().to_string();
    let constructor = if integer_interval {
        format!("Clock({interval_text}, 1)")
    } else {
        format!("Clock({interval_text})")
    };
    let mut edits: Vec<(Span, String)> = Vec::new();
    let clock = if samples <= 1 {
        constructor
    } else {
        let name = clock_name(lib, class, &declared);
        let first = body
            .sections
            .iter()
            .map(|s| match s {
                Section::Algorithm { span, .. } | Section::Equation { span, .. } => span.start,
            })
            .min()?;
        let source = &lib.sources.get(file).text;
        let line_start = source[..first as usize].rfind('\n').map_or(0, |i| i + 1) as u32;
        let first_var = declared.get(vars[0])?;
        let indent = indentation(lib, first_var.span.start, file);
        edits.push((
            Span {
                file,
                start: line_start,
                end: line_start,
            },
            format!("{indent}Clock {name} = {constructor};\n"),
        ));
        name
    };

    // Each `when` becomes its equations, at the `when`'s indentation.
    for b in &blocks {
        edits.push((b.span, block_text(lib, b, &inner, &clock)));
    }
    for s in holds {
        edits.push((s, format!("hold({})", text(lib, s))));
    }
    // A clocked variable is no `discrete` one.
    for v in &vars {
        let c = declared.get(v)?;
        if let Some(p) = c.prefixes.discrete {
            let source = &lib.sources.get(file).text;
            let after = source[p.end as usize..]
                .find(|ch: char| !ch.is_whitespace())
                .map_or(source.len(), |i| p.end as usize + i);
            edits.push((
                Span {
                    file,
                    start: p.start,
                    end: after as u32,
                },
                String::new(),
            ));
        }
    }
    edits.sort_by_key(|(s, _)| (s.start, s.end));
    Some(edits)
}

/// Whether every rewritten equation is tied to the clock: it samples, or
/// reads (now or previous) a variable whose equation is tied.
fn all_tied(reads: &[(bool, Vec<usize>)]) -> bool {
    let mut tied: Vec<bool> = reads.iter().map(|(s, _)| *s).collect();
    loop {
        let mut changed = false;
        for (i, (_, deps)) in reads.iter().enumerate() {
            if !tied[i] && deps.iter().any(|&j| tied[j]) {
                tied[i] = true;
                changed = true;
            }
        }
        if !changed {
            return tied.iter().all(|t| *t);
        }
    }
}

/// The reads of `vars` in the rest of the class (its continuous-time
/// equations and bindings), which read them through `hold`; `None` when
/// one is read where `hold` cannot stand.
fn holds(body: &LongBody, others: &[&Equation], vars: &[&str]) -> Option<Vec<Span>> {
    let mut holds: Vec<Span> = Vec::new();
    for e in others {
        continuous_equation(e, vars, &mut holds)?;
    }
    for e in &body.elements {
        match e {
            Element::Component(c) => {
                let mut found = Vec::new();
                if let Some(m) = &c.modification {
                    modification_refs(m, vars, &mut found)?;
                }
                for s in c.dims.iter().chain(&c.type_dims) {
                    if let Subscript::Expr(x) = s {
                        refs(x, vars, &mut found)?;
                    }
                }
                if !found.is_empty()
                    && (c.prefixes.parameter.is_some() || c.prefixes.constant.is_some())
                {
                    return None;
                }
                holds.extend(found);
            }
            Element::Extends(x) => {
                let mut found = Vec::new();
                for a in &x.modification {
                    if let Argument::Modify {
                        modification: Some(m),
                        ..
                    } = a
                    {
                        modification_refs(m, vars, &mut found)?;
                    }
                }
                if !found.is_empty() {
                    return None;
                }
            }
            _ => {}
        }
    }
    // Initial equations give states their values from parameters; one
    // that reads a variable of the `when` is no such equation.
    if body.sections.iter().any(|s| match s {
        Section::Equation {
            initial: Some(_),
            equations,
            ..
        } => {
            let mut found = Vec::new();
            equations
                .iter()
                .any(|e| continuous_equation(e, vars, &mut found).is_none() || !found.is_empty())
        }
        _ => false,
    }) {
        return None;
    }

    Some(holds)
}

/// The equations of a `when` with their clocked edits, at the `when`'s
/// indentation.
fn block_text(lib: &Library, b: &Block, inner: &[(Span, Edit)], clock: &str) -> String {
    let file = b.span.file;
    let indent = indentation(lib, b.span.start, file);
    let mut out = String::new();
    for (k, (_, _, span)) in b.equations.iter().enumerate() {
        if k > 0 {
            let prev = b.equations[k - 1].2;
            out.push_str(&reindent(
                text(
                    lib,
                    Span {
                        file,
                        start: prev.end,
                        end: span.start,
                    },
                ),
                &indent,
            ));
        }
        let mut eq = String::new();
        let mut pos = span.start;
        let mut here: Vec<&(Span, Edit)> = inner
            .iter()
            .filter(|(s, _)| span.start <= s.start && s.end <= span.end)
            .collect();
        here.sort_by_key(|(s, _)| s.start);
        for (s, edit) in here {
            eq.push_str(text(
                lib,
                Span {
                    file,
                    start: pos,
                    end: s.start,
                },
            ));
            let written = text(lib, *s);
            match edit {
                Edit::Sample => eq.push_str(&format!("sample({written}, {clock})")),
                Edit::Previous(v) => eq.push_str(&format!("previous({v})")),
            }
            pos = s.end;
        }
        eq.push_str(text(
            lib,
            Span {
                file,
                start: pos,
                end: span.end,
            },
        ));
        out.push_str(&eq);
    }
    out
}

/// The `when`s of the class, each rewritable, and its other equations;
/// `None` when a `when` is not rewritable or the class has an algorithm.
fn blocks_of<'a>(lib: &Library, body: &'a LongBody) -> Option<(Vec<Block<'a>>, Vec<&'a Equation>)> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut others: Vec<&Equation> = Vec::new();
    for s in &body.sections {
        match s {
            Section::Algorithm { .. } => return None,
            Section::Equation {
                initial: Some(_),
                equations,
                ..
            } => others.extend(equations),
            Section::Equation { equations, .. } => {
                for e in equations {
                    match e {
                        Equation::When { branches, span } => {
                            blocks.push(block(lib, branches, *span)?)
                        }
                        _ => others.push(e),
                    }
                }
            }
        }
    }
    Some((blocks, others))
}

/// `when sample(0, T) then v = e; ... end when;`, or `None`.
fn block<'a>(
    lib: &Library,
    branches: &'a [(Expr, Vec<Equation>)],
    span: Span,
) -> Option<Block<'a>> {
    let [(condition, body)] = branches else {
        return None;
    };
    let ExprKind::Call { func, args, named } = &condition.kind else {
        return None;
    };
    if func.dotted() != "sample" || args.len() != 2 || !named.is_empty() {
        return None;
    }
    let zero = match args[0].kind {
        ExprKind::Integer(0) => true,
        ExprKind::Real(x) => x == 0.0,
        _ => false,
    };
    if !zero || body.is_empty() {
        return None;
    }
    // The interval as written (parentheses included): from the comma to
    // the closing parenthesis of the call.
    let call = text(lib, condition.span);
    let from = args[0].span.end.checked_sub(condition.span.start)? as usize;
    let interval = call
        .get(from..call.len().checked_sub(1)?)?
        .trim_start()
        .strip_prefix(',')?
        .trim()
        .to_string();
    let mut equations = Vec::new();
    for e in body {
        let Equation::Simple { lhs, rhs, span } = e else {
            return None;
        };
        let ExprKind::Ref(r) = &lhs.kind else {
            return None;
        };
        let [part] = r.parts.as_slice() else {
            return None;
        };
        if r.global || !part.subscripts.is_empty() {
            return None;
        }
        equations.push((part.name.name.clone(), rhs, *span));
    }
    Some(Block {
        span,
        interval,
        interval_expr: &args[1],
        equations,
    })
}

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Whether `e` is an expression of literals and the class's parameters
/// and constants: `Some(true)` when it is an Integer one (a clock of an
/// Integer interval is `Clock(n, 1)`), `None` when it is no parameter
/// expression.
fn parameter_expression(e: &Expr, declared: &HashMap<&str, &Component>) -> Option<bool> {
    match &e.kind {
        ExprKind::Integer(_) => Some(true),
        ExprKind::Real(_) => Some(false),
        ExprKind::Ref(r) => {
            let [part] = r.parts.as_slice() else {
                return None;
            };
            let c = declared.get(part.name.name.as_str())?;
            if r.global
                || !part.subscripts.is_empty()
                || !c.dims.is_empty()
                || !c.type_dims.is_empty()
                || (c.prefixes.parameter.is_none() && c.prefixes.constant.is_none())
            {
                return None;
            }
            match c.type_name.dotted().as_str() {
                "Integer" => Some(true),
                "Boolean" | "String" => None,
                _ => Some(false),
            }
        }
        ExprKind::Unary(UnOp::Neg | UnOp::Plus, a) => parameter_expression(a, declared),
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div), a, b) => {
            let a = parameter_expression(a, declared)?;
            let b = parameter_expression(b, declared)?;
            Some(a && b && *op != BinOp::Div)
        }
        _ => None,
    }
}

/// A variable that can become clocked: a scalar of the class that is no
/// parameter, constant, signal of the interface or state, without a
/// binding, of type
/// `Real`, `Integer`, `Boolean` or a type derived from `Real`.
fn clockable(lib: &Library, c: &Component) -> bool {
    let p = &c.prefixes;
    let plain = p.parameter.is_none()
        && p.constant.is_none()
        && p.input.is_none()
        && p.output.is_none()
        && p.flow.is_none()
        && p.stream.is_none()
        && c.dims.is_empty()
        && c.type_dims.is_empty()
        && c.condition.is_none()
        // `Real u = e;` is an equation that determines it already.
        && c.modification.as_ref().map_or(true, |m| m.binding.is_none());
    plain
        && (matches!(
            c.type_name.dotted().as_str(),
            "Real" | "Integer" | "Boolean"
        ) || (lib.real_typed)(c))
}

/// A name for the clock that the class does not use.
fn clock_name(lib: &Library, class: &ClassNode, declared: &HashMap<&str, &Component>) -> String {
    let used = |n: &str| {
        declared.contains_key(n)
            || lib.tree.classes.iter().any(|c| {
                c.name == n
                    && c.parent
                        .is_some_and(|p| std::ptr::eq(lib.tree.get(p), class))
            })
            || text(lib, class.def.span)
                .split(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                .any(|w| w == n)
    };
    let mut name = "clock".to_string();
    let mut k = 1;
    while used(&name) {
        k += 1;
        name = format!("clock{k}");
    }
    name
}

enum Edit {
    /// `x` -> `sample(x, clock)`.
    Sample,
    /// `pre(v)` -> `previous(v)`.
    Previous(String),
}

/// Walks the right-hand side of the `index`th rewritten equation.
struct BodyWalk<'a, 'b> {
    vars: &'b [&'a str],
    index: usize,
    declared: &'b HashMap<&'a str, &'a Component>,
    extends: bool,
    edits: &'b mut Vec<(Span, Edit)>,
    samples: usize,
    reads: Vec<usize>,
}

impl BodyWalk<'_, '_> {
    fn expr(&mut self, e: &Expr) -> Option<()> {
        match &e.kind {
            ExprKind::Ref(r) => self.reference(r),
            ExprKind::Call { func, args, named } => {
                let n = func.dotted();
                if n == "pre" {
                    let [arg] = args.as_slice() else {
                        return None;
                    };
                    let v = one_name(arg)?;
                    let k = self.vars.iter().position(|x| *x == v)?;
                    self.reads.push(k);
                    self.edits.push((e.span, Edit::Previous(v.to_string())));
                    return Some(());
                }
                if n == "der" || DISCRETE.contains(&n.as_str()) {
                    return None;
                }
                for a in args {
                    self.expr(a)?;
                }
                for (_, a) in named {
                    self.expr(a)?;
                }
                Some(())
            }
            _ => children(e, &mut |x| self.expr(x)),
        }
    }

    fn reference(&mut self, r: &ComponentRef) -> Option<()> {
        let first = r.parts.first()?.name.name.as_str();
        if r.global {
            return Some(());
        }
        if let Some(k) = self.vars.iter().position(|v| *v == first) {
            // A variable of the `when`s is read after it is determined.
            if k >= self.index {
                return None;
            }
            self.reads.push(k);
            return subscripts_free(r, self.vars);
        }
        if first == "time" && r.parts.len() == 1 {
            self.sample(r.span);
            return Some(());
        }
        match self.declared.get(first) {
            Some(c) if c.prefixes.parameter.is_some() || c.prefixes.constant.is_some() => {
                subscripts_free(r, self.vars)
            }
            Some(_) => {
                subscripts_free(r, self.vars)?;
                self.sample(r.span);
                Some(())
            }
            // Inherited: its kind is not known here.
            None if self.extends => None,
            // A package constant, an enumeration literal.
            None => Some(()),
        }
    }

    fn sample(&mut self, span: Span) {
        self.samples += 1;
        self.edits.push((span, Edit::Sample));
    }
}

/// The subscripts of `r` read none of `vars` (a sampled read is sampled
/// whole).
fn subscripts_free(r: &ComponentRef, vars: &[&str]) -> Option<()> {
    let mut found = Vec::new();
    for p in &r.parts {
        for s in &p.subscripts {
            if let Subscript::Expr(x) = s {
                refs(x, vars, &mut found)?;
            }
        }
    }
    found.is_empty().then_some(())
}

fn one_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Ref(r) if !r.global && r.parts.len() == 1 && r.parts[0].subscripts.is_empty() => {
            Some(r.parts[0].name.name.as_str())
        }
        _ => None,
    }
}

/// Calls `f` on each direct subexpression of `e` (subscripts of a
/// reference excluded), stopping at the first `None`.
fn children(e: &Expr, f: &mut dyn FnMut(&Expr) -> Option<()>) -> Option<()> {
    match &e.kind {
        ExprKind::Binary(_, a, b) => {
            f(a)?;
            f(b)
        }
        ExprKind::Unary(_, a) => f(a),
        ExprKind::Call { args, named, .. } => {
            for a in args {
                f(a)?;
            }
            for (_, a) in named {
                f(a)?;
            }
            Some(())
        }
        ExprKind::If { branches, else_ } => {
            for (c, v) in branches {
                f(c)?;
                f(v)?;
            }
            f(else_)
        }
        ExprKind::Array(xs) => xs.iter().try_for_each(&mut *f),
        ExprKind::Matrix(rows) => rows.iter().flatten().try_for_each(&mut *f),
        ExprKind::Range { start, step, stop } => {
            f(start)?;
            if let Some(s) = step {
                f(s)?;
            }
            f(stop)
        }
        _ => Some(()),
    }
}

/// The spans of the reads of `vars` in `e` (to be held); `None` when `e`
/// uses one in a way `hold` cannot express (under `der`, `pre`), or uses
/// a discrete-event or clocked built-in.
fn refs(e: &Expr, vars: &[&str], found: &mut Vec<Span>) -> Option<()> {
    match &e.kind {
        ExprKind::Ref(r) => {
            let first = r.parts.first()?.name.name.as_str();
            if !r.global && vars.contains(&first) {
                if r.parts.len() > 1 || !r.parts[0].subscripts.is_empty() {
                    return None;
                }
                found.push(r.span);
                return Some(());
            }
            for p in &r.parts {
                for s in &p.subscripts {
                    if let Subscript::Expr(x) = s {
                        refs(x, vars, found)?;
                    }
                }
            }
            Some(())
        }
        ExprKind::Call { func, .. } => {
            let n = func.dotted();
            if DISCRETE.contains(&n.as_str()) {
                return None;
            }
            if n == "der" {
                let mut inside = Vec::new();
                children(e, &mut |x| refs(x, vars, &mut inside))?;
                return inside.is_empty().then_some(());
            }
            children(e, &mut |x| refs(x, vars, found))
        }
        _ => children(e, &mut |x| refs(x, vars, found)),
    }
}

fn modification_refs(m: &Modification, vars: &[&str], found: &mut Vec<Span>) -> Option<()> {
    for a in &m.arguments {
        if let Argument::Modify {
            modification: Some(m),
            ..
        } = a
        {
            modification_refs(m, vars, found)?;
        }
    }
    if let Some(b) = &m.binding {
        refs(b, vars, found)?;
    }
    Some(())
}

/// The reads of `vars` in a continuous-time equation; `None` when it
/// determines one of them, connects one, or is itself discrete.
fn continuous_equation(e: &Equation, vars: &[&str], found: &mut Vec<Span>) -> Option<()> {
    match e {
        Equation::Simple { lhs, rhs, .. } => {
            if one_name(lhs).is_some_and(|n| vars.contains(&n)) {
                return None;
            }
            refs(lhs, vars, found)?;
            refs(rhs, vars, found)
        }
        Equation::For { range, body, .. } => {
            refs(range, vars, found)?;
            body.iter()
                .try_for_each(|b| continuous_equation(b, vars, found))
        }
        Equation::If {
            branches, else_, ..
        } => {
            for (c, body) in branches {
                refs(c, vars, found)?;
                body.iter()
                    .try_for_each(|b| continuous_equation(b, vars, found))?;
            }
            else_
                .iter()
                .try_for_each(|b| continuous_equation(b, vars, found))
        }
        Equation::Outputs { targets, value, .. } => {
            for t in targets.iter().flatten() {
                if one_name(t).is_some_and(|n| vars.contains(&n)) {
                    return None;
                }
                refs(t, vars, found)?;
            }
            refs(value, vars, found)
        }
        Equation::Connect { a, b, .. } => {
            let named = |r: &ComponentRef| {
                r.parts
                    .first()
                    .is_some_and(|p| vars.contains(&p.name.name.as_str()))
            };
            if named(a) || named(b) {
                return None;
            }
            Some(())
        }
        Equation::Call { name, args, .. } => {
            if name.dotted() != "assert" {
                return None;
            }
            args.iter().try_for_each(|a| refs(a, vars, found))
        }
        Equation::When { .. } => None,
    }
}

/// The text between two equations of a `when`, its lines moved to
/// `indent` (comments kept).
fn reindent(gap: &str, indent: &str) -> String {
    let mut lines = gap.split('\n');
    let mut out = lines.next().unwrap_or("").to_string();
    for line in lines {
        out.push('\n');
        let t = line.trim_start();
        if !t.is_empty() {
            out.push_str(indent);
            out.push_str(t);
        }
    }
    // The last line is the indentation before the next equation.
    if gap.contains('\n') && gap.rsplit('\n').next().is_some_and(|l| l.trim().is_empty()) {
        out.push_str(indent);
    }
    out
}
