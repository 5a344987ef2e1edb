//! Elaboration of one class: its variables (connector members expanded,
//! inherited elements included), its sub-components, its equations and
//! connects, in source order. What the class writes in expressions is kept
//! as written until every element is known, then resolved (`names`).
//! Nothing here depends on how the class is used.

use std::sync::Arc;

pub use super::elaborator::Elaborator;
use super::model::{
    join_der, Attributes, ClassCausality, ClassModel, ClassVariability, Special, Sub, Tearing, Var,
};
use super::modifier::{apply_attribute, modify_inherited};
use super::pending::{Pending, Value};
use super::tree::{Builtin, ClassId, Resolved};
use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::{
    self, Argument, ClassBody, ClassKind, Element, Section, Subscript, TypePrefixes, Visibility,
};

/// What a component's type turned out to be.
enum TypeShape<'a> {
    Scalar {
        ty: Builtin,
        special: Special,
        prefixes: TypePrefixes,
        /// The modifiers of the short type definitions on the way, the
        /// innermost first.
        mods: Vec<&'a Argument>,
        dims: Vec<&'a ast::Expr>,
    },
    Connector(ClassId),
    Component(ClassId),
    Record(ClassId),
}

impl<'a> Elaborator<'a> {
    pub fn class(&mut self, id: ClassId) -> Result<Arc<ClassModel>, Vec<Diagnostic>> {
        if let Some(r) = self.cache.get(&id) {
            return r.clone();
        }
        if self.in_progress.contains(&id) {
            let node = self.tree.get(id);
            return Err(vec![Diagnostic::error(
                "MC006",
                node.def.name.span,
                format!("class `{}` contains or extends itself", node.qualified),
            )
            .with_label("recursive class")
            .with_help("a class cannot be its own component or base class")]);
        }
        self.in_progress.push(id);
        *self.builds.entry(id).or_insert(0) += 1;
        let r = self.build(id).map(Arc::new);
        self.in_progress.pop();
        self.cache.insert(id, r.clone());
        r
    }

    fn build(&mut self, id: ClassId) -> Result<ClassModel, Vec<Diagnostic>> {
        let tree = self.tree;
        let node = tree.get(id);
        let mut diags = Vec::new();
        let mut model = ClassModel {
            id,
            qualified: node.qualified.clone(),
            partial: node.def.prefixes.partial.is_some(),
            vars: Vec::new(),
            subs: Vec::new(),
            connectors: Vec::new(),
            equations: Vec::new(),
            connects: Vec::new(),
            transfers: Ok(Vec::new()),
            outers: Vec::new(),
            faults: Vec::new(),
            clocking: None,
            events: None,
        };
        let ClassBody::Long(body) = &node.def.body else {
            return Ok(model);
        };
        let mut pending = Pending::default();
        for element in &body.elements {
            match element {
                Element::Extends(ext) => {
                    self.extends(id, ext, &mut model, &mut pending, &mut diags)
                }
                Element::Component(comp) => {
                    self.component(id, comp, &mut model, &mut pending, &mut diags)
                }
                Element::Class { .. } | Element::Import(_) => {}
            }
        }
        for section in &body.sections {
            if let Section::Equation {
                initial: Some(_),
                equations,
                ..
            } = section
            {
                pending.initial_equations.extend(equations);
            } else if let Section::Equation {
                initial: None,
                equations,
                ..
            } = section
            {
                for eq in equations {
                    match eq {
                        ast::Equation::Connect { a, b, span } => {
                            pending.connects.push((a, b, *span))
                        }
                        ast::Equation::For { .. } if only_connects(eq) => {
                            looped_connects(eq, &mut Vec::new(), &mut pending)
                        }
                        other => pending.equations.push(other),
                    }
                }
            }
        }
        if !diags.is_empty() {
            return Err(diags);
        }
        // Every element is known now: what the class wrote resolves
        // against them and against the components' classes.
        self.resolve(&mut model, pending);
        super::events::synthesize(&mut model);
        super::clocked::synthesize(&mut model);
        Ok(model)
    }

    /// `Clock c = Clock(Ts);`: a name for a clock expression, which the
    /// class's equations use as `sample(u, c)`. A clock holds no value, so
    /// it is no variable of the class.
    fn clock(
        &mut self,
        comp: &'a ast::Component,
        pending: &mut Pending<'a>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let binding = comp.modification.as_ref().and_then(|m| {
            (m.arguments.is_empty() && comp.dims.is_empty() && comp.type_dims.is_empty())
                .then_some(m.binding.as_ref())
                .flatten()
        });
        match binding {
            Some(b) => pending.clocks.push((comp.name.name.as_str(), b)),
            None => diags.push(
                Diagnostic::error(
                    "MC158",
                    comp.name.span,
                    format!("the clock `{}` is declared without its clock expression", comp.name.name),
                )
                .with_label("clock without a value")
                .with_help("declare a clock with its expression, `Clock c = Clock(Ts);` (Ts a parameter), or write the clock where it is used: `sample(u, Clock(Ts))`"),
            ),
        }
    }

    /// `extends Base(k = 2)`: the base class's elements, modified.
    fn extends(
        &mut self,
        id: ClassId,
        ext: &'a ast::Extends,
        model: &mut ClassModel,
        pending: &mut Pending<'a>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let base = match self.tree.lookup_element(&ext.name, id, ext.span) {
            Ok(Resolved::Class(c)) => c,
            Ok(Resolved::Builtin(_)) => {
                diags.push(
                    Diagnostic::error(
                        "MC007",
                        ext.name.span,
                        "a model cannot extend a predefined type",
                    )
                    .with_label("predefined type")
                    .with_help("extend a model, block or connector class"),
                );
                return;
            }
            Err(d) => {
                diags.push(d);
                return;
            }
        };
        // Report a class that extends itself at the `extends` clause, the
        // line at fault, not at the class name.
        if self.in_progress.contains(&base) {
            diags.push(
                Diagnostic::error(
                    "MC006",
                    ext.name.span,
                    format!("class `{}` extends itself", self.tree.get(base).qualified),
                )
                .with_label("recursive base class")
                .with_help("a class cannot be its own base class"),
            );
            return;
        }
        let b = match self.class(base) {
            Ok(b) => b,
            Err(ds) => {
                diags.extend(ds);
                return;
            }
        };
        let (vars, subs) = (model.vars.len(), model.subs.len());
        inherit(model, &b);
        for arg in &ext.modification {
            match modify_inherited(model, &b, vars, arg, pending) {
                Ok(Some((k, args))) => pending.sub_modifiers.push((subs + k, args)),
                Ok(None) => {}
                Err(d) => diags.push(d),
            }
        }
    }

    /// One component declaration: a variable (with the derivatives it
    /// carries), a connector's variables, a declared tearing's two, or a
    /// sub-component.
    fn component(
        &mut self,
        id: ClassId,
        comp: &'a ast::Component,
        model: &mut ClassModel,
        pending: &mut Pending<'a>,
        diags: &mut Vec<Diagnostic>,
    ) {
        if is_clock_type(&comp.type_name) {
            return self.clock(comp, pending, diags);
        }
        let shape = match self.type_shape(&comp.type_name, id, comp.span) {
            Ok(s) => s,
            Err(d) => {
                diags.push(d);
                return;
            }
        };
        let own_mods: &'a [Argument] = comp
            .modification
            .as_ref()
            .map_or(&[], |m| m.arguments.as_slice());
        let dims: Vec<&'a ast::Expr> = comp
            .type_dims
            .iter()
            .chain(&comp.dims)
            .filter_map(dim_expr)
            .collect();
        if comp
            .type_dims
            .iter()
            .chain(&comp.dims)
            .any(|s| matches!(s, Subscript::Colon(_)))
        {
            diags.push(
                Diagnostic::error(
                    "MC008",
                    comp.name.span,
                    "array dimensions must be given (`:` is not allowed)",
                )
                .with_label("size not given")
                .with_help("write the size as an Integer literal or parameter"),
            );
        }
        // A connector of a model or block class may be conditional (one
        // connector, not an array of them); a variable may not.
        let conditional_connector = matches!(shape, TypeShape::Connector(_))
            && comp.dims.is_empty()
            && comp.type_dims.is_empty()
            && matches!(
                self.tree.get(id).def.kind,
                ClassKind::Model | ClassKind::Block | ClassKind::Class
            );
        if !matches!(shape, TypeShape::Component(_)) {
            if let Some(d) = not_a_component(comp, conditional_connector) {
                diags.push(d);
                return;
            }
        }
        match shape {
            TypeShape::Scalar {
                ty,
                special,
                prefixes,
                mods,
                dims: type_dims,
            } => {
                let variable = Variable {
                    ty,
                    special,
                    prefixes,
                    mods,
                    dims: type_dims.into_iter().chain(dims).collect(),
                };
                self.variable(comp, variable, own_mods, model, pending, diags)
            }
            TypeShape::Record(cid) => self.record(comp, cid, &dims, model, pending, diags),
            TypeShape::Connector(cid) => self.connector(comp, cid, own_mods, model, pending, diags),
            TypeShape::Component(cid) => {
                if comp.element_prefixes.outer.is_some() {
                    self.outer(comp, cid, model, diags);
                    return;
                }
                if comp
                    .modification
                    .as_ref()
                    .is_some_and(|m| m.binding.is_some())
                {
                    diags.push(
                        Diagnostic::error(
                            "MC011",
                            comp.name.span,
                            "a component cannot have a binding equation",
                        )
                        .with_label("binding on a component")
                        .with_help("set its parameters with a modifier instead"),
                    );
                }
                let protected = comp.visibility == Visibility::Protected;
                if is_linear_response(self.tree.get(cid)) {
                    // A declared tearing: its balance is known here (the
                    // system chooses it), its residual is an unknown of
                    // this class.
                    for (member, causality, role) in [
                        ("residual", ClassCausality::Output, Tearing::Residual),
                        ("balance", ClassCausality::Input, Tearing::Balance),
                    ] {
                        model.vars.push(Var {
                            name: format!("{}.{member}", comp.name.name),
                            ty: Builtin::Real,
                            variability: ClassVariability::Continuous,
                            causality,
                            flow: false,
                            special: Special::default(),
                            dims: Vec::new(),
                            attrs: Attributes::default(),
                            binding: None,
                            protected,
                            connector: None,
                            carried_of: None,
                            tearing: Some(role),
                            description: comp.description.clone(),
                            span: comp.span,
                        });
                    }
                    return;
                }
                let k = model.subs.len();
                pending.sub_modifiers.push((k, own_mods));
                if !dims.is_empty() {
                    pending.sub_dims.push((k, dims));
                }
                if let Some(c) = &comp.condition {
                    pending.sub_conditions.push((k, c));
                }
                model.subs.push(Sub {
                    name: comp.name.name.clone(),
                    class: cid,
                    modifiers: Vec::new(),
                    protected,
                    dims: Vec::new(),
                    condition: None,
                    inner: comp.element_prefixes.inner.is_some(),
                    span: comp.span,
                });
            }
        }
    }

    /// `outer World world;`: the world's parameters and constants become
    /// parameters of this class (`world.g`), bound to nothing here: the
    /// instantiation aliases them to the `inner` component's. A world
    /// that holds variables, connectors or components is MC122.
    fn outer(
        &mut self,
        comp: &'a ast::Component,
        cid: ClassId,
        model: &mut ClassModel,
        diags: &mut Vec<Diagnostic>,
    ) {
        let world = match self.class(cid) {
            Ok(w) => w,
            Err(ds) => {
                diags.extend(ds);
                return;
            }
        };
        let holds = world
            .vars
            .iter()
            .find(|v| v.variability == ClassVariability::Continuous)
            .map(|v| format!("variable `{}`", v.name))
            .or_else(|| {
                world
                    .subs
                    .first()
                    .map(|s| format!("component `{}`", s.name))
            })
            .or_else(|| {
                world
                    .connectors
                    .first()
                    .map(|c| format!("connector `{}`", c.name))
            });
        if let Some(what) = holds {
            diags.push(
                Diagnostic::error(
                    "MC122",
                    comp.name.span,
                    format!(
                        "`outer {}`: `{}` holds {what}; only a class of parameters and constants can be outer",
                        comp.name.name, world.qualified
                    ),
                )
                .with_label("outer of a class with variables")
                .with_help("share parameters through an outer world; pass variables through connectors"),
            );
            return;
        }
        if comp.modification.is_some() || !comp.dims.is_empty() || comp.condition.is_some() {
            diags.push(
                Diagnostic::error(
                    "MC103",
                    comp.name.span,
                    format!(
                        "`outer {}` cannot be modified, sized or conditional",
                        comp.name.name
                    ),
                )
                .with_label("outer with a modification")
                .with_help("set the world's parameters where its `inner` is declared"),
            );
            return;
        }
        let first = model.vars.len();
        let subs = model.subs.len();
        let mut vars = Vec::new();
        for v in &world.vars {
            let mut v = v.clone();
            v.name = format!("{}.{}", comp.name.name, v.name);
            v.binding = None;
            v.causality = ClassCausality::Local;
            v.protected = true;
            v.span = comp.span;
            for e in v.expressions_mut() {
                e.shift(first, subs);
            }
            vars.push(model.vars.len());
            model.vars.push(v);
        }
        model.outers.push(super::model::OuterDecl {
            name: comp.name.name.clone(),
            class: cid,
            vars,
            span: comp.name.span,
        });
    }

    /// A record component: its fields, each a variable `comp.field` with
    /// the component's prefixes (an `input` record is inputs, …).
    fn record(
        &mut self,
        comp: &'a ast::Component,
        cid: ClassId,
        dims: &[&'a ast::Expr],
        model: &mut ClassModel,
        pending: &mut Pending<'a>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let unsupported = |what: &str| {
            Diagnostic::error(
                "MC079",
                comp.name.span,
                format!("{what} of a record component is not supported yet"),
            )
            .with_label("record component")
            .with_help("declare the record component without it; a record constant in a package can carry values")
        };
        if !dims.is_empty() {
            diags.push(unsupported("an array"));
            return;
        }
        let mut field_values: Vec<(&'a ast::Name, &'a ast::Expr)> = Vec::new();
        if let Some(m) = &comp.modification {
            for arg in &m.arguments {
                match arg {
                    Argument::Modify {
                        each: None,
                        final_: None,
                        name,
                        modification:
                            Some(ast::Modification {
                                arguments,
                                binding: Some(value),
                                ..
                            }),
                        ..
                    } if arguments.is_empty() && name.parts.len() == 1 => {
                        field_values.push((name, value))
                    }
                    _ => {
                        diags.push(unsupported("a modifier other than `field = value`"));
                        return;
                    }
                }
            }
        }
        let record = match self.class(cid) {
            Ok(r) => r,
            Err(ds) => {
                diags.extend(ds);
                return;
            }
        };
        let p = &comp.prefixes;
        for field in &record.vars {
            let mut v = field.clone();
            v.name = format!("{}.{}", comp.name.name, field.name);
            if p.constant.is_some() {
                v.variability = ClassVariability::Constant;
            } else if p.parameter.is_some() {
                v.variability = ClassVariability::Parameter;
            }
            if p.input.is_some() {
                v.causality = ClassCausality::Input;
            } else if p.output.is_some() {
                v.causality = ClassCausality::Output;
            }
            v.protected = comp.visibility == Visibility::Protected;
            v.span = comp.span;
            v.binding = None;
            v.description = comp.description.clone();
            model.vars.push(v);
        }
        let first = model.vars.len() - record.vars.len();
        // `State s(T = 300)`: a field's value, resolved with the class's
        // bindings.
        for (name, value) in field_values {
            let field = &name.parts[0].name;
            match record.vars.iter().position(|f| f.name == *field) {
                Some(k) => pending.values.push((first + k, Value::Binding, value)),
                None => diags.push(
                    Diagnostic::error(
                        "MC074",
                        name.span,
                        format!("record `{}` has no field `{field}`", record.qualified),
                    )
                    .with_label("no such field")
                    .with_help("modify one of the record's fields"),
                ),
            }
        }
        // `State s = f(p, T);`: each field bound to its part of the value.
        if let Some(value) = comp.modification.as_ref().and_then(|m| m.binding.as_ref()) {
            pending.record_bindings.push(super::pending::RecordBinding {
                vars: (first..model.vars.len()).collect(),
                fields: record.vars.iter().map(|f| f.name.clone()).collect(),
                value,
            });
        }
    }

    /// A variable of a predefined type, and the derivatives it carries.
    fn variable(
        &mut self,
        comp: &'a ast::Component,
        ty: Variable<'a>,
        own_mods: &'a [Argument],
        model: &mut ClassModel,
        pending: &mut Pending<'a>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let prefixes = &ty.prefixes;
        let variability = if comp.prefixes.constant.is_some() || prefixes.constant.is_some() {
            ClassVariability::Constant
        } else if comp.prefixes.parameter.is_some() || prefixes.parameter.is_some() {
            ClassVariability::Parameter
        } else {
            ClassVariability::Continuous
        };
        let causality = if comp.prefixes.input.is_some() || prefixes.input.is_some() {
            ClassCausality::Input
        } else if comp.prefixes.output.is_some() || prefixes.output.is_some() {
            ClassCausality::Output
        } else {
            ClassCausality::Local
        };
        let vi = model.vars.len();
        let mut var = Var {
            name: comp.name.name.clone(),
            ty: ty.ty,
            variability,
            causality,
            flow: comp.prefixes.flow.is_some() || prefixes.flow.is_some(),
            special: Special {
                discrete: comp.prefixes.discrete.is_some() || prefixes.discrete.is_some(),
                ..ty.special
            },
            dims: Vec::new(),
            attrs: Attributes::default(),
            binding: None,
            protected: comp.visibility == Visibility::Protected,
            connector: None,
            carried_of: None,
            tearing: None,
            description: comp.description.clone(),
            span: comp.span,
        };
        if let Some(b) = comp.modification.as_ref().and_then(|m| m.binding.as_ref()) {
            pending.values.push((vi, Value::Binding, b));
        }
        for arg in ty.mods.into_iter().chain(own_mods) {
            if let Err(d) = apply_attribute(&mut var, vi, arg, pending) {
                diags.push(d);
            }
        }
        let carried = carried_derivatives(&var, vi);
        // The derivatives a variable carries have its sizes.
        for k in 0..=carried.len() {
            pending.dims.push((vi + k, ty.dims.clone()));
        }
        model.vars.push(var);
        model.vars.extend(carried);
    }

    /// Follows short class definitions down to a predefined type, a
    /// connector or a component class.
    fn type_shape(
        &mut self,
        name: &ast::Name,
        scope: ClassId,
        at: Span,
    ) -> Result<TypeShape<'a>, Diagnostic> {
        let tree = self.tree;
        let mut special = Special::default();
        let mut prefixes = TypePrefixes::default();
        let mut mods: Vec<&'a Argument> = Vec::new();
        let mut dims: Vec<&'a ast::Expr> = Vec::new();
        let mut resolved = self.tree.lookup_element(name, scope, at)?;
        let mut depth = 0;
        loop {
            depth += 1;
            if depth > 64 {
                return Err(
                    Diagnostic::error("MC006", name.span, "type definitions form a cycle")
                        .with_label("cyclic type definition")
                        .with_help("a type cannot be defined in terms of itself"),
                );
            }
            match resolved {
                Resolved::Builtin(ty) => {
                    return Ok(TypeShape::Scalar {
                        ty,
                        special,
                        prefixes,
                        mods,
                        dims,
                    })
                }
                Resolved::Class(cid) => {
                    let node = tree.get(cid);
                    match node.name.as_str() {
                        "ContinuousState" => special.state = true,
                        "RealWithDerivative" => special.derivatives = special.derivatives.max(1),
                        "RealWith2Derivatives" => special.derivatives = 2,
                        _ => {}
                    }
                    match &node.def.body {
                        ClassBody::Short(short) => {
                            merge_prefixes(&mut prefixes, &short.prefixes);
                            // Outer modifiers win: they were collected first, so
                            // the base's come before them.
                            if let Some(m) = &short.modification {
                                let mut inner: Vec<&Argument> = m.arguments.iter().collect();
                                inner.append(&mut mods);
                                mods = inner;
                            }
                            dims.extend(short.dims.iter().filter_map(dim_expr));
                            resolved = tree.lookup(&short.base, node.parent, short.base.span)?;
                        }
                        ClassBody::Enumeration { .. } => {
                            return Ok(TypeShape::Scalar {
                                ty: Builtin::Enumeration(cid),
                                special,
                                prefixes,
                                mods,
                                dims,
                            })
                        }
                        _ => {
                            return Ok(match node.def.kind {
                                ClassKind::Connector => TypeShape::Connector(cid),
                                ClassKind::Model | ClassKind::Block | ClassKind::Class => {
                                    TypeShape::Component(cid)
                                }
                                ClassKind::Record => TypeShape::Record(cid),
                                other => {
                                    return Err(Diagnostic::error(
                                        "MC012",
                                        name.span,
                                        format!(
                                            "a component cannot be of {} type `{}`",
                                            other.keyword(),
                                            node.qualified
                                        ),
                                    )
                                    .with_label("not instantiable")
                                    .with_help("use a type, connector, model or block here"))
                                }
                            });
                        }
                    }
                }
            }
        }
    }
}

/// A variable's type, followed down to a predefined type.
struct Variable<'a> {
    ty: Builtin,
    special: Special,
    prefixes: TypePrefixes,
    mods: Vec<&'a Argument>,
    dims: Vec<&'a ast::Expr>,
}

/// Adds the elements of a base class to the model that extends it: indices
/// into the base's variables, components and connectors move by what the
/// model declared before the `extends`.
fn inherit(model: &mut ClassModel, base: &ClassModel) {
    let vars = model.vars.len();
    let subs = model.subs.len();
    let connectors = model.connectors.len();
    // The variables of the base's events and clocked partitions are made
    // again for this class, over all its equations.
    let own = base.declared_vars();
    model.vars.extend(base.vars[..own].iter().map(|v| {
        let mut v = v.clone();
        v.carried_of = v.carried_of.map(|c| c + vars);
        v.connector = v.connector.map(|c| c + connectors);
        for e in v.expressions_mut() {
            e.shift(vars, subs);
        }
        v
    }));
    model.subs.extend(base.subs.iter().map(|s| {
        let mut s = s.clone();
        for m in &mut s.modifiers {
            m.target.path[0] += subs;
            m.value.shift(vars, subs);
        }
        s
    }));
    model.connectors.extend(base.connectors.iter().map(|c| {
        let mut c = c.clone();
        for m in &mut c.members {
            m.var += vars;
        }
        if let Some(e) = &mut c.condition {
            e.shift(vars, subs);
        }
        c
    }));
    model.equations.extend(base.equations.iter().map(|eq| {
        let mut eq = eq.clone();
        eq.shift(vars, subs);
        eq
    }));
    model.connects.extend(base.connects.iter().map(|c| {
        let mut c = c.clone();
        for side in [&mut c.a, &mut c.b] {
            side.shift(vars, subs, connectors);
        }
        for range in &mut c.loops {
            range.shift(vars, subs);
        }
        c
    }));
    // The connection sets are formed again over every connect of the model;
    // the faults of inherited lines stay faults here.
    model.faults.extend(base.faults.iter().cloned());
}

/// The built-in type `Clock` (DESIGN §2.2b).
fn is_clock_type(name: &ast::Name) -> bool {
    !name.global && name.parts.len() == 1 && name.parts[0].name == "Clock"
}

fn merge_prefixes(into: &mut TypePrefixes, from: &TypePrefixes) {
    into.flow = into.flow.or(from.flow);
    into.stream = into.stream.or(from.stream);
    into.discrete = into.discrete.or(from.discrete);
    into.parameter = into.parameter.or(from.parameter);
    into.constant = into.constant.or(from.constant);
    into.input = into.input.or(from.input);
    into.output = into.output.or(from.output);
}

fn dim_expr(s: &Subscript) -> Option<&ast::Expr> {
    match s {
        Subscript::Expr(e) => Some(e),
        Subscript::Colon(_) => None,
    }
}

/// The variables that carry the derivatives of a RealWithDerivative (one)
/// or RealWith2Derivatives (two) variable at index `at`.
fn carried_derivatives(var: &Var, at: usize) -> Vec<Var> {
    let mut out = Vec::new();
    for k in 1..=var.special.derivatives as usize {
        let mut d = var.clone();
        d.name = join_der(k, &var.name);
        d.special = Special::default();
        d.carried_of = Some(at + k - 1);
        d.binding = None;
        d.attrs = Attributes {
            unit: None,
            display_unit: None,
            quantity: None,
            start: None,
            min: None,
            max: None,
            nominal: None,
        };
        d.description = None;
        out.push(d);
    }
    out
}

/// The predefined `LinearResponse` model is recognised by name and shape
/// (`input Real residual; output Real balance;`), wherever it is declared.
pub fn is_linear_response(node: &super::tree::ClassNode) -> bool {
    if node.name != "LinearResponse" {
        return false;
    }
    let ClassBody::Long(body) = &node.def.body else {
        return false;
    };
    let names: Vec<&str> = body
        .elements
        .iter()
        .filter_map(|e| match e {
            Element::Component(c) => Some(c.name.name.as_str()),
            _ => None,
        })
        .collect();
    names == ["residual", "balance"]
}

/// A conditional, `inner` or `outer` declaration of a variable or a
/// connector: only components of model and block classes may be
/// conditional (MC112) or inner/outer (MC103).
fn not_a_component(comp: &ast::Component, conditional_connector: bool) -> Option<Diagnostic> {
    if let (Some(c), false) = (&comp.condition, conditional_connector) {
        return Some(
            Diagnostic::error(
                "MC112",
                c.span,
                format!("`{}` is not a component of a model or block class, so it cannot be conditional", comp.name.name),
            )
            .with_label("conditional variable or connector")
            .with_help("make a component conditional (`Heater heater if withHeater;`), not a variable or connector"),
        );
    }
    let p = &comp.element_prefixes;
    let s = p.inner.or(p.outer)?;
    Some(
        Diagnostic::error(
            "MC103",
            s,
            format!("`{}` is not a component of a model class, so it cannot be inner or outer", comp.name.name),
        )
        .with_label("inner/outer variable or connector")
        .with_help("share parameters through a world model: `outer World world;` with `inner World world;` in an enclosing model"),
    )
}

/// A `for` loop whose body holds only connects (and loops of them): its
/// connects are formed per instance; any other loop is an equation.
fn only_connects(eq: &ast::Equation) -> bool {
    match eq {
        ast::Equation::Connect { .. } => true,
        ast::Equation::For { body, .. } => body.iter().all(only_connects),
        _ => false,
    }
}

/// The connects of a loop of connects, each with the loops around it.
fn looped_connects<'a>(
    eq: &'a ast::Equation,
    loops: &mut Vec<(&'a str, &'a ast::Expr)>,
    pending: &mut Pending<'a>,
) {
    match eq {
        ast::Equation::Connect { a, b, span } => {
            pending.looped_connects.push(super::pending::LoopedConnect {
                loops: loops.clone(),
                a,
                b,
                span: *span,
            })
        }
        ast::Equation::For {
            index, range, body, ..
        } => {
            loops.push((index.name.as_str(), range));
            for e in body {
                looped_connects(e, loops, pending);
            }
            loops.pop();
        }
        _ => {}
    }
}
