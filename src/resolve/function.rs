//! Functions resolved into a syntax-free model: the function's variables
//! (its class model's, so a record input or output is its fields), its
//! outputs, and its algorithm as statements over them. Calls of user functions in
//! any class resolve here too: the callee (declared before the call, no
//! recursion) and the arguments matched to its inputs.

use std::sync::Arc;

use super::constructor::ConstructorFields;
use super::elaborator::Elaborator;
use super::expr::{Expr, ExprKind, Reference, Referent};
pub use super::expr::{FunctionModel, Local, Param, Role, Statement};
use super::model::{ClassCausality, ClassModel};
use super::scope::Scope;
use super::tree::{Builtin, ClassId, Resolved};
use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::{self, ClassBody, ClassKind, Section};

/// A resolved output-list call: the function, its arguments, and per
/// written place the place's target and the flat output it reads.
pub(crate) type OutputListCall<'e> = (Arc<FunctionModel>, Vec<Expr>, Vec<(&'e ast::Expr, usize)>);

/// Every function a class calls, directly or through other functions, each
/// once, callees before callers (in the order first met).
pub fn functions_of(model: &ClassModel) -> Vec<Arc<FunctionModel>> {
    let mut direct: Vec<Arc<FunctionModel>> = Vec::new();
    let mut note = |e: &Expr| {
        let mut e = e.clone();
        e.walk_mut(&mut |x| {
            if let ExprKind::FunctionCall { func, .. } = &x.kind {
                direct.push(func.clone());
            }
        });
    };
    let mut model = model.clone();
    for v in &mut model.vars {
        for e in v.expressions_mut() {
            note(e);
        }
    }
    for s in &model.subs {
        for m in &s.modifiers {
            note(&m.value);
        }
    }
    fn equations(eqs: &[super::expr::Equation], note: &mut dyn FnMut(&Expr)) {
        for eq in eqs {
            match eq {
                super::expr::Equation::Simple { lhs, rhs, .. } => {
                    note(lhs);
                    note(rhs);
                }
                super::expr::Equation::For { range, body, .. } => {
                    note(range);
                    equations(body, note);
                }
                super::expr::Equation::If {
                    branches, else_, ..
                } => {
                    for (c, body) in branches {
                        note(c);
                        equations(body, note);
                    }
                    equations(else_, note);
                }
                super::expr::Equation::When { branches, .. } => {
                    for (c, body) in branches {
                        note(c);
                        equations(body, note);
                    }
                }
                super::expr::Equation::Reinit { state, value, .. } => {
                    note(state);
                    note(value);
                }
                _ => {}
            }
        }
    }
    equations(&model.equations, &mut note);
    let mut out: Vec<Arc<FunctionModel>> = Vec::new();
    fn add(f: &Arc<FunctionModel>, out: &mut Vec<Arc<FunctionModel>>) {
        if out.iter().any(|g| g.id == f.id) {
            return;
        }
        for c in f.callees() {
            add(&c, out);
        }
        out.push(f.clone());
    }
    for f in &direct {
        add(f, &mut out);
    }
    out
}

fn function_error(
    code: &'static str,
    span: Span,
    message: String,
    label: &str,
    help: &str,
) -> Diagnostic {
    Diagnostic::error(code, span, message)
        .with_label(label)
        .with_help(help)
}

/// An expression that stands for a fault found while resolving it; the
/// phase that reads it reports the diagnostic.
pub(crate) fn faulty(d: Diagnostic, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Ref(Reference {
            target: Referent::Unknown(Box::new(d)),
            subscripts: Vec::new(),
            inner_subscript: None,
        }),
        span,
    }
}

impl Elaborator<'_> {
    /// The resolved model of function `id`, built once.
    pub fn function(&mut self, id: ClassId) -> Result<Arc<FunctionModel>, Vec<Diagnostic>> {
        if let Some(r) = self.functions.get(&id) {
            return r.clone();
        }
        self.fn_in_progress.push(id);
        let r = self.build_function(id).map(Arc::new);
        self.fn_in_progress.pop();
        self.functions.insert(id, r.clone());
        r
    }

    fn build_function(&mut self, id: ClassId) -> Result<FunctionModel, Vec<Diagnostic>> {
        let model = self.class(id)?;
        let node = self.tree.get(id);
        let mut diags = Vec::new();
        let (locals, params, results) = function_locals(&model, node.def.name.span, &mut diags);
        let mut body = Vec::new();
        if let ClassBody::Long(b) = &node.def.body {
            if let Some(statements) = b.sections.iter().find_map(|s| match s {
                Section::Algorithm { statements, .. } => Some(statements),
                Section::Equation { .. } => None,
            }) {
                let mut scope = Scope::of(&model);
                body = self.statements(&mut scope, &model, statements, &mut diags);
            }
        }
        for l in &locals {
            if let Some(d) = &l.default {
                check_expr(d, &mut diags);
            }
        }
        if !diags.is_empty() {
            return Err(diags);
        }
        Ok(FunctionModel {
            id,
            qualified: node.qualified.clone(),
            locals,
            params,
            results,
            body,
            span: node.def.name.span,
        })
    }

    fn statements(
        &mut self,
        scope: &mut Scope,
        model: &ClassModel,
        statements: &[ast::Statement],
        diags: &mut Vec<Diagnostic>,
    ) -> Vec<Statement> {
        let mut out = Vec::new();
        for st in statements {
            if let ast::Statement::Outputs {
                targets,
                value,
                span,
            } = st
            {
                out.extend(self.output_assignments(scope, model, targets, value, *span, diags));
            } else if let Some(assigns) = self.record_assignment(scope, model, st, diags) {
                out.extend(assigns);
            } else if let Some(s) = self.statement(scope, model, st, diags) {
                out.push(s);
            }
        }
        out
    }

    /// `(a, , b) := f(x)`: one assignment per place, each reading its
    /// output of the call. The places are assigned in order, so none may be
    /// an argument of the call (MC142): the second would read the first's
    /// new value.
    fn output_assignments(
        &mut self,
        scope: &mut Scope,
        model: &ClassModel,
        targets: &[Option<ast::Expr>],
        value: &ast::Expr,
        span: Span,
        diags: &mut Vec<Diagnostic>,
    ) -> Vec<Statement> {
        let (f, args, places) = match self.output_list_call(scope, targets, value) {
            Ok(call) => call,
            Err(d) => {
                diags.push(d);
                return Vec::new();
            }
        };
        args.iter().for_each(|a| check_expr(a, diags));
        let mut out = Vec::new();
        for (target, output) in places {
            let ast::ExprKind::Ref(r) = &target.kind else {
                unreachable!("output_list_call keeps references only")
            };
            let assign = ast::Statement::Assign {
                target: r.clone(),
                value: ast::Expr {
                    kind: ast::ExprKind::Integer(0),
                    span: value.span,
                },
                span,
            };
            let Some(Statement::Assign { target: v, .. }) =
                self.statement(scope, model, &assign, diags)
            else {
                return Vec::new();
            };
            if args.iter().any(|a| reads_local(a, v)) {
                diags.push(function_error(
                    "MC142",
                    target.span,
                    format!(
                        "`{}` is assigned by this output list and read by the call's arguments",
                        model.vars[v].name
                    ),
                    "assigned and read",
                    "assign the output to a new protected variable, then copy it",
                ));
                return Vec::new();
            }
            out.push(Statement::Assign {
                target: v,
                value: Expr {
                    kind: ExprKind::FunctionCall {
                        func: f.clone(),
                        args: args.clone(),
                        output,
                    },
                    span: value.span,
                },
                span,
            });
        }
        out
    }

    /// The call of an output list `(a, , b) = f(x)`: the function, its
    /// arguments, and per written place its target with the flat output it
    /// reads. The value must call a user function (MC139) with at least as
    /// many outputs as places (MC140); each place names a variable and
    /// reads a scalar output (MC141).
    pub(crate) fn output_list_call<'e>(
        &mut self,
        scope: &mut Scope,
        targets: &'e [Option<ast::Expr>],
        value: &ast::Expr,
    ) -> Result<OutputListCall<'e>, Diagnostic> {
        let not_call = || {
            function_error(
                "MC139",
                value.span,
                "an output list `(a, b) = ...` takes the outputs of a call of a user function"
                    .into(),
                "not a call of a user function",
                "call a function declared before this line, e.g. `(a, b) = f(x)`",
            )
        };
        let ast::ExprKind::Call { func, args, named } = &value.kind else {
            return Err(not_call());
        };
        let f = match self.callee(scope, func, value.span) {
            Some(f) => f?,
            None => return Err(not_call()),
        };
        if targets.len() > f.results.len() {
            return Err(function_error(
                "MC140",
                value.span,
                format!(
                    "the output list has {} places, but `{}` has {} output(s)",
                    targets.len(),
                    f.qualified,
                    f.results.len()
                ),
                "fewer outputs than places",
                "give one place per output, in the order the function declares them",
            ));
        }
        let mut places = Vec::new();
        let mut flat = 0;
        for (target, result) in targets.iter().zip(&f.results) {
            if let Some(t) = target {
                if !result.fields.is_empty() || !matches!(t.kind, ast::ExprKind::Ref(_)) {
                    let what = if result.fields.is_empty() {
                        "this place is not a variable".to_string()
                    } else {
                        format!("output `{}` of `{}` is a record", result.name, f.qualified)
                    };
                    return Err(function_error(
                        "MC141",
                        t.span,
                        what,
                        "not a variable taking a number",
                        "name one variable per place, for an output that is a number; leave a record output's place empty and call the function for it alone",
                    ));
                }
                places.push((t, flat));
            }
            flat += result.locals.len();
        }
        let args = self.call_args(scope, &f, args, named, value.span)?;
        Ok((f, args, places))
    }

    /// `r := value` for a record variable `r` of the function (its output,
    /// most often): one assignment per field, in declaration order. `None`
    /// when the statement is not an assignment to a whole record.
    fn record_assignment(
        &mut self,
        scope: &mut Scope,
        model: &ClassModel,
        st: &ast::Statement,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Vec<Statement>> {
        let ast::Statement::Assign {
            target,
            value,
            span,
        } = st
        else {
            return None;
        };
        let [part] = target.parts.as_slice() else {
            return None;
        };
        if !part.subscripts.is_empty() {
            return None;
        }
        let prefix = format!("{}.", part.name.name);
        let fields: Vec<(usize, String)> = model
            .vars
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.name.strip_prefix(&prefix).map(|f| (i, f.to_string())))
            .collect();
        if fields.is_empty() {
            return None;
        }
        if fields
            .iter()
            .any(|(i, _)| model.vars[*i].causality == ClassCausality::Input)
        {
            diags.push(function_error(
                "MC072",
                target.span,
                format!("`{}` is an input of the function", part.name.name),
                "assignment to an input",
                "assign to an output or a protected variable; inputs are read only",
            ));
            return Some(Vec::new());
        }
        let names: Vec<String> = fields.iter().map(|(_, f)| f.clone()).collect();
        match self.record_value(scope, &names, value) {
            Ok(values) => {
                values.iter().for_each(|v| check_expr(v, diags));
                Some(
                    fields
                        .iter()
                        .zip(values)
                        .map(|((i, _), value)| Statement::Assign {
                            target: *i,
                            value,
                            span: *span,
                        })
                        .collect(),
                )
            }
            Err(d) => {
                diags.push(d);
                Some(Vec::new())
            }
        }
    }

    fn expr_checked(
        &mut self,
        scope: &mut Scope,
        e: &ast::Expr,
        diags: &mut Vec<Diagnostic>,
    ) -> Expr {
        let r = self.resolve_expr(scope, e);
        check_expr(&r, diags);
        r
    }

    fn statement(
        &mut self,
        scope: &mut Scope,
        model: &ClassModel,
        st: &ast::Statement,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Statement> {
        Some(match st {
            ast::Statement::Assign {
                target,
                value,
                span,
            } => {
                let value = self.expr_checked(scope, value, diags);
                let target_expr = self.resolve_expr(
                    scope,
                    &ast::Expr {
                        kind: ast::ExprKind::Ref(target.clone()),
                        span: target.span,
                    },
                );
                let ExprKind::Ref(r) = target_expr.kind else {
                    diags.push(not_assignable(target.span));
                    return None;
                };
                match r.target {
                    Referent::Var(v) if r.subscripts.is_empty() => {
                        if model.vars[v].causality == ClassCausality::Input {
                            diags.push(function_error(
                                "MC072",
                                target.span,
                                format!("`{}` is an input of the function", model.vars[v].name),
                                "assignment to an input",
                                "assign to an output or a protected variable; inputs are read only",
                            ));
                            return None;
                        }
                        Statement::Assign {
                            target: v,
                            value,
                            span: *span,
                        }
                    }
                    Referent::Unknown(d) => {
                        diags.push(*d);
                        return None;
                    }
                    _ => {
                        diags.push(not_assignable(target.span));
                        return None;
                    }
                }
            }
            ast::Statement::If {
                branches, else_, ..
            } => Statement::If {
                branches: branches
                    .iter()
                    .map(|(c, b)| {
                        (
                            self.expr_checked(scope, c, diags),
                            self.statements(scope, model, b, diags),
                        )
                    })
                    .collect(),
                else_: self.statements(scope, model, else_, diags),
            },
            ast::Statement::For {
                index, range, body, ..
            } => {
                let ast::ExprKind::Range {
                    start,
                    step: None,
                    stop,
                } = &range.kind
                else {
                    diags.push(function_error(
                        "MC076",
                        range.span,
                        "a loop in a function runs over a range `a:b`".into(),
                        "not a range `a:b`",
                        "write the loop as `for i in a:b loop`",
                    ));
                    return None;
                };
                let start = self.expr_checked(scope, start, diags);
                let stop = self.expr_checked(scope, stop, diags);
                scope.push_loop(&index.name);
                let body = self.statements(scope, model, body, diags);
                scope.pop_loop();
                Statement::For { start, stop, body }
            }
            ast::Statement::While {
                condition, body, ..
            } => Statement::While {
                condition: self.expr_checked(scope, condition, diags),
                body: self.statements(scope, model, body, diags),
            },
            ast::Statement::Return { .. } => Statement::Return,
            ast::Statement::Break { .. } => Statement::Break,
            // Rejected by the check phase (MC077); output lists are
            // expanded by `statements`.
            ast::Statement::Other { .. } | ast::Statement::Outputs { .. } => return None,
        })
    }

    /// A call `func(args)` written in a class or function whose scope is
    /// `scope`: `None` when `func` names no user function (a built-in, or
    /// nothing: the causaliser says which), else the resolved call or the
    /// reason it has none. The call stands for a number: a function whose
    /// result is a record is refused here (MC079); `record_value` reads
    /// its fields.
    pub(crate) fn user_call(
        &mut self,
        scope: &mut Scope,
        func: &ast::Name,
        args: &[ast::Expr],
        named: &[(ast::Ident, ast::Expr)],
        span: Span,
    ) -> Option<Expr> {
        let f = match self.callee(scope, func, span)? {
            Ok(f) => f,
            Err(d) => return Some(faulty(d, span)),
        };
        if f.returns_record() {
            return Some(faulty(
                function_error(
                    "MC079",
                    span,
                    format!(
                        "function `{}` returns a record, not a number",
                        f.qualified
                    ),
                    "record where a number is expected",
                    "pass the result to a function input of its record type, or bind it to a record variable and use its fields",
                ),
                span,
            ));
        }
        Some(match self.call_args(scope, &f, args, named, span) {
            Ok(args) => Expr {
                kind: ExprKind::FunctionCall {
                    func: f,
                    args,
                    output: 0,
                },
                span,
            },
            Err(d) => faulty(d, span),
        })
    }

    /// The user function `func` names: `None` when it names no function
    /// (a built-in, or nothing), else the function or why it cannot be
    /// called (a record constructor where a number is expected, recursion,
    /// a function with errors).
    fn callee(
        &mut self,
        scope: &Scope,
        func: &ast::Name,
        span: Span,
    ) -> Option<Result<Arc<FunctionModel>, Diagnostic>> {
        let found = self.tree.lookup(func, Some(scope.class_id()), func.span);
        let callee = match found {
            Ok(Resolved::Class(c)) => c,
            Err(d) if d.code == "MC001" => return Some(Err(d)),
            _ => return None,
        };
        let node = self.tree.get(callee);
        match node.def.kind {
            ClassKind::Function => {}
            ClassKind::Record => {
                return Some(Err(function_error(
                    "MC079",
                    span,
                    format!("a record `{}` is not a number", node.qualified),
                    "record where a number is expected",
                    "pass the record to a function input of its type, or use one of its fields",
                )))
            }
            _ => return None,
        }
        if node.def.prefixes.partial.is_some() {
            let parent = node.parent.map(|p| self.tree.get(p));
            let package = parent.map_or(String::new(), |p| p.qualified.clone());
            let mut d = function_error(
                "MC128",
                func.span,
                format!(
                    "function `{}` is partial: `{package}` does not implement it",
                    node.qualified
                ),
                "call of a partial function",
                &format!(
                    "implement it in `{package}` with `redeclare function extends {} algorithm ... end {};`, or call it through a package that implements it",
                    node.name, node.name
                ),
            );
            d = d.with_note(node.def.name.span, "declared partial here");
            return Some(Err(d));
        }
        if self.fn_in_progress.contains(&callee) {
            return Some(Err(function_error(
                "MC070",
                func.span,
                format!("function `{}` calls itself (recursion)", node.qualified),
                "recursive call",
                "write the computation with a `for` or `while` loop instead of recursion",
            )));
        }
        Some(self.function(callee).map_err(|mut ds| ds.remove(0)))
    }

    /// The arguments of a call matched to the callee's inputs (positional
    /// first, then by name), a record argument expanded to its fields.
    fn call_args(
        &mut self,
        scope: &mut Scope,
        f: &FunctionModel,
        args: &[ast::Expr],
        named: &[(ast::Ident, ast::Expr)],
        span: Span,
    ) -> Result<Vec<Expr>, Diagnostic> {
        let arity = |message: String, at: Span| {
            function_error(
                "MC075",
                at,
                message,
                "arguments do not match the function's inputs",
                &format!(
                    "call `{}` with its inputs: {}",
                    f.qualified,
                    f.params
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        };
        if args.len() > f.params.len() {
            return Err(arity(
                format!(
                    "`{}` takes {} argument(s), {} given",
                    f.qualified,
                    f.params.len(),
                    args.len()
                ),
                args[f.params.len()].span,
            ));
        }
        let mut given: Vec<Option<&ast::Expr>> = vec![None; f.params.len()];
        for (k, a) in args.iter().enumerate() {
            given[k] = Some(a);
        }
        for (name, a) in named {
            let Some(k) = f.params.iter().position(|p| p.name == name.name) else {
                return Err(arity(
                    format!("`{}` has no input `{}`", f.qualified, name.name),
                    name.span,
                ));
            };
            if given[k].is_some() {
                return Err(arity(
                    format!("input `{}` is given twice", name.name),
                    name.span,
                ));
            }
            given[k] = Some(a);
        }
        let mut out = Vec::new();
        for (p, g) in f.params.iter().zip(given) {
            match g {
                Some(a) if p.fields.is_empty() => out.push(self.resolve_expr(scope, a)),
                Some(a) => out.extend(self.record_value(scope, &p.fields, a)?),
                None => {
                    for &l in &p.locals {
                        match &f.locals[l].default {
                            Some(d) if !reads_anything(d) => out.push(d.clone()),
                            _ => {
                                return Err(arity(
                                    format!("input `{}` of `{}` is not given", p.name, f.qualified),
                                    span,
                                ))
                            }
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    /// A record value as its fields, in the order `fields` names them: a
    /// record variable of the caller, a record constant, a record
    /// constructor (of constants, or of any expressions), or a call of a
    /// function whose result is a record (one call per field read).
    pub(crate) fn record_value(
        &mut self,
        scope: &mut Scope,
        fields: &[String],
        a: &ast::Expr,
    ) -> Result<Vec<Expr>, Diagnostic> {
        let not_record = || {
            function_error(
                "MC075",
                a.span,
                "a record is expected here; this is not one".into(),
                "not a record",
                "pass a record variable, a record constant, a record constructor or a call of a function returning a record",
            )
        };
        match &a.kind {
            ast::ExprKind::Ref(r) if r.parts.iter().all(|p| p.subscripts.is_empty()) => {
                let joined: Vec<&str> = r.parts.iter().map(|p| p.name.name.as_str()).collect();
                let joined = joined.join(".");
                if let Some(vars) = scope.record_fields(&joined, fields) {
                    return Ok(vars
                        .into_iter()
                        .map(|v| Expr {
                            kind: ExprKind::Ref(Reference {
                                target: Referent::Var(v),
                                subscripts: Vec::new(),
                                inner_subscript: None,
                            }),
                            span: a.span,
                        })
                        .collect());
                }
                match self.constant(scope.class_id(), r) {
                    Some(Ok(super::package_constants::Found::Record(value))) => {
                        value.fields_as_exprs(fields, a.span)
                    }
                    Some(Err(d)) => Err(d),
                    Some(Ok(super::package_constants::Found::Value(_))) | None => Err(not_record()),
                }
            }
            ast::ExprKind::Call { func, args, named } => {
                let is_record = matches!(
                    self.tree.lookup(func, Some(scope.class_id()), func.span),
                    Ok(Resolved::Class(c)) if self.tree.get(c).def.kind == ClassKind::Record
                );
                if is_record {
                    return match self.constructor(scope.class_id(), func, args, named, a.span, 0) {
                        Ok(value) => value.fields_as_exprs(fields, a.span),
                        // Not constants: the constructor's fields are the
                        // argument expressions themselves.
                        Err(d) if d.code == "MC079" => {
                            self.constructor_exprs(scope, func, args, named, fields, a.span)
                        }
                        Err(d) => Err(d),
                    };
                }
                let f = match self.callee(scope, func, a.span) {
                    Some(Ok(f)) => f,
                    Some(Err(d)) => return Err(d),
                    // A name that denotes nothing is an unknown function,
                    // not a value of the wrong kind.
                    None if self
                        .tree
                        .lookup(func, Some(scope.class_id()), func.span)
                        .is_err() =>
                    {
                        return Err(unknown_function(func));
                    }
                    None => return Err(not_record()),
                };
                let Some(result) = f.results.first().filter(|r| !r.fields.is_empty()) else {
                    return Err(not_record());
                };
                let args = self.call_args(scope, &f, args, named, a.span)?;
                fields
                    .iter()
                    .map(|name| {
                        let k = result
                            .fields
                            .iter()
                            .position(|x| x == name)
                            .ok_or_else(|| {
                                function_error(
                                    "MC075",
                                    a.span,
                                    format!(
                                        "the record `{}` returns has no field `{name}`",
                                        f.qualified
                                    ),
                                    "record of another type",
                                    "pass a record of the type the input declares",
                                )
                            })?;
                        Ok(Expr {
                            kind: ExprKind::FunctionCall {
                                func: f.clone(),
                                args: args.clone(),
                                output: k,
                            },
                            span: a.span,
                        })
                    })
                    .collect()
            }
            _ => Err(not_record()),
        }
    }

    /// A record constructor `R(a, f = b)` whose arguments are expressions
    /// (not all constants): its fields in the order `fields` names them,
    /// each the expression given for it, or the field's literal default.
    fn constructor_exprs(
        &mut self,
        scope: &mut Scope,
        func: &ast::Name,
        args: &[ast::Expr],
        named: &[(ast::Ident, ast::Expr)],
        fields: &[String],
        span: Span,
    ) -> Result<Vec<Expr>, Diagnostic> {
        let Ok(Resolved::Class(record)) = self.tree.lookup(func, Some(scope.class_id()), func.span)
        else {
            return Err(function_error(
                "MC075",
                span,
                "not a record constructor".into(),
                "not a record",
                "construct the record by its class name",
            ));
        };
        let qualified = self.tree.get(record).qualified.clone();
        let model = self.class(record).map_err(|mut ds| ds.remove(0))?;
        let names: Vec<&str> = model.vars.iter().map(|v| v.name.as_str()).collect();
        let record_fields = ConstructorFields {
            qualified: &qualified,
            names: &names,
        };
        let arity = |message: String, at: Span| record_fields.mismatch(message, at);
        record_fields.positional(args)?;
        let mut given: Vec<Option<&ast::Expr>> = vec![None; names.len()];
        for (k, e) in args.iter().enumerate() {
            given[k] = Some(e);
        }
        for (n, e) in named {
            let Some(k) = names.iter().position(|x| *x == n.name) else {
                return Err(arity(
                    format!("record `{qualified}` has no field `{}`", n.name),
                    n.span,
                ));
            };
            if given[k].is_some() {
                return Err(arity(format!("field `{}` is given twice", n.name), n.span));
            }
            given[k] = Some(e);
        }
        fields
            .iter()
            .map(|name| {
                let Some(k) = names.iter().position(|x| x == name) else {
                    return Err(arity(
                        format!("record `{qualified}` has no field `{name}` the input needs"),
                        span,
                    ));
                };
                match (given[k], &model.vars[k].binding) {
                    (Some(e), _) => Ok(self.resolve_expr(scope, e)),
                    (None, Some(d)) if !reads_anything(d) => Ok(d.clone()),
                    (None, _) => Err(arity(format!("field `{name}` is not given"), span)),
                }
            })
            .collect()
    }
}

fn not_assignable(span: Span) -> Diagnostic {
    function_error(
        "MC072",
        span,
        "only an output or a protected variable of the function can be assigned".into(),
        "not assignable",
        "assign to an output or a protected variable of the function",
    )
}

/// Whether `e` reads local `v` of the function.
fn reads_local(e: &Expr, v: usize) -> bool {
    let mut e = e.clone();
    let mut found = false;
    e.walk_mut(&mut |x| {
        if let ExprKind::Ref(Reference {
            target: Referent::Var(w),
            ..
        }) = &x.kind
        {
            found |= *w == v;
        }
    });
    found
}

fn reads_anything(e: &Expr) -> bool {
    let mut e = e.clone();
    let mut found = false;
    e.walk_mut(&mut |x| {
        if matches!(x.kind, ExprKind::Ref(_)) {
            found = true;
        }
    });
    found
}

/// The function's locals, its inputs as a caller passes them, and its
/// outputs (MC076 for what a function's variables cannot be).
fn function_locals(
    model: &ClassModel,
    name: Span,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Local>, Vec<Param>, Vec<Param>) {
    let mut locals = Vec::new();
    let mut params: Vec<Param> = Vec::new();
    let mut results: Vec<Param> = Vec::new();
    for (i, v) in model.vars.iter().enumerate() {
        let bad = |what: &str, help: &str| {
            function_error(
                "MC076",
                v.span,
                format!("{what} in a function is not supported"),
                what,
                help,
            )
        };
        if !v.dims.is_empty() {
            diags.push(bad(
                "an array variable",
                "pass the elements as scalar inputs",
            ));
        }
        if v.ty == Builtin::String {
            diags.push(bad(
                "a String variable",
                "use Real, Integer or Boolean variables",
            ));
        }
        let role = match v.causality {
            ClassCausality::Input => Role::Input,
            ClassCausality::Output => Role::Output,
            ClassCausality::Local if v.protected => Role::Protected,
            ClassCausality::Local => {
                diags.push(function_error(
                    "MC076",
                    v.span,
                    format!(
                        "public variable `{}` of a function is neither input nor output",
                        v.name
                    ),
                    "neither input nor output",
                    "declare it `input` or `output`, or move it to the `protected` section",
                ));
                Role::Protected
            }
        };
        if role != Role::Protected {
            let list = if role == Role::Input {
                &mut params
            } else {
                &mut results
            };
            let (param, field) = match v.name.split_once('.') {
                Some((p, f)) => (p.to_string(), Some(f.to_string())),
                None => (v.name.clone(), None),
            };
            match list.last_mut() {
                Some(last) if last.name == param && field.is_some() => {
                    last.fields.extend(field);
                    last.locals.push(i);
                }
                _ => list.push(Param {
                    name: param,
                    fields: field.into_iter().collect(),
                    locals: vec![i],
                }),
            }
        }
        locals.push(Local {
            name: v.name.clone(),
            ty: v.ty,
            unit: v.attrs.unit.clone(),
            role,
            default: v.binding.clone(),
            span: v.span,
        });
    }
    if results.is_empty() {
        diags.push(function_error(
            "MC076",
            name,
            "a function has at least one output".into(),
            "no output",
            "declare the result as `output Real y;`",
        ));
    }
    (locals, params, results)
}

/// What a function's expressions may hold: scalars, references to its
/// variables and loop indices, built-in and user function calls (MC076 for
/// arrays; the diagnostic of a name that resolves to nothing).
fn check_expr(e: &Expr, diags: &mut Vec<Diagnostic>) {
    let mut e = e.clone();
    let mut found: Option<Diagnostic> = None;
    e.walk_mut(&mut |x| {
        if found.is_some() {
            return;
        }
        let span = x.span;
        found = match &x.kind {
            ExprKind::Ref(r) => match &r.target {
                Referent::Unknown(d) => Some((**d).clone()),
                Referent::Time => Some(function_error(
                    "MC076",
                    span,
                    "a function cannot read `time`".into(),
                    "time in a function",
                    "pass the time as an input",
                )),
                Referent::Member(_) => Some(function_error(
                    "MC076",
                    span,
                    "a function reads only its own variables".into(),
                    "not a variable of the function",
                    "pass the value as an input",
                )),
                _ if !r.subscripts.is_empty() => Some(arrays(span)),
                Referent::Constant(c) if !c.shape.is_empty() => Some(arrays(span)),
                _ => None,
            },
            ExprKind::Call { func, func_span, args, named } => {
                match crate::ir::Func::from_name(func) {
                    Some((_, n)) if n == args.len() && !named => None,
                    Some(_) => Some(function_error(
                        "MC075",
                        span,
                        format!("`{func}` takes a different number of arguments"),
                        "wrong number of arguments",
                        "check the built-in function's arguments",
                    )),
                    None => Some(
                        Diagnostic::error("MC023", *func_span, format!("unknown function `{func}`"))
                            .with_label("not a function declared before this call, nor a built-in")
                            .with_help("declare the function before the one that calls it, or use a built-in such as sin, exp, log, sqrt, abs, min, max"),
                    ),
                }
            }
            ExprKind::Array(_) | ExprKind::Matrix(_) | ExprKind::Range { .. } | ExprKind::End => {
                Some(arrays(span))
            }
            ExprKind::String(_) => Some(function_error(
                "MC076",
                span,
                "a String in a function is not supported".into(),
                "String",
                "compute with Real, Integer and Boolean values",
            )),
            _ => None,
        };
    });
    diags.extend(found);
}

fn arrays(span: Span) -> Diagnostic {
    function_error(
        "MC076",
        span,
        "arrays in a function are not supported".into(),
        "array",
        "compute with scalars; pass array elements as scalar inputs",
    )
}

/// `MC023` at a called name that denotes no function.
fn unknown_function(func: &ast::Name) -> Diagnostic {
    let joined: Vec<&str> = func.parts.iter().map(|p| p.name.as_str()).collect();
    Diagnostic::error(
        "MC023",
        func.span,
        format!("unknown function `{}`", joined.join(".")),
    )
    .with_label("not a function declared before this call, nor a built-in")
    .with_help("declare the function before the one that calls it, or use a built-in such as sin, exp, log, sqrt, abs, min, max")
}
