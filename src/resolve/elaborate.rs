//! Elaboration of one class: its variables (connector members expanded,
//! inherited elements included), its sub-components, its equations and
//! connects, in source order. What the class writes in expressions is kept
//! as written until every element is known, then resolved (`names`).
//! Nothing here depends on how the class is used.

use std::collections::HashMap;
use std::sync::Arc;

use super::model::{
    join_der, Attributes, ClassCausality, ClassModel, ClassVariability, ConnectorDecl,
    ConnectorMember, MemberError, MemberRef, Special, Sub, Tearing, Var,
};
use super::names::{Value, Written};
use super::tree::{Builtin, ClassId, ClassTree, Resolved};
use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::{
    self, Argument, ClassBody, ClassKind, Element, Modification, Section, Subscript, TypePrefixes,
    Visibility,
};

/// Elaborates classes on demand and remembers the results.
pub struct Elaborator<'a> {
    pub tree: &'a ClassTree,
    pub sources: &'a crate::source::SourceMap,
    /// Shared, not copied: a class is looked up once per component of
    /// every class that uses it.
    cache: HashMap<ClassId, Result<Arc<ClassModel>, Vec<Diagnostic>>>,
    in_progress: Vec<ClassId>,
}

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
}

impl<'a> Elaborator<'a> {
    pub fn new(tree: &'a ClassTree, sources: &'a crate::source::SourceMap) -> Elaborator<'a> {
        Elaborator {
            tree,
            sources,
            cache: HashMap::new(),
            in_progress: Vec::new(),
        }
    }

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
            faults: Vec::new(),
            fingerprint: self.sources.snippet(node.def.span).to_string(),
        };
        let ClassBody::Long(body) = &node.def.body else {
            return Ok(model);
        };
        let mut written = Written::default();
        for element in &body.elements {
            match element {
                Element::Extends(ext) => {
                    self.extends(id, ext, &mut model, &mut written, &mut diags)
                }
                Element::Component(comp) => {
                    self.component(id, comp, &mut model, &mut written, &mut diags)
                }
                Element::Class { .. } | Element::Import(_) => {}
            }
        }
        for section in &body.sections {
            if let Section::Equation {
                initial: None,
                equations,
                ..
            } = section
            {
                for eq in equations {
                    match eq {
                        ast::Equation::Connect { a, b, span } => {
                            written.connects.push((a, b, *span))
                        }
                        other => written.equations.push(other),
                    }
                }
            }
        }
        if !diags.is_empty() {
            return Err(diags);
        }
        // Every element is known now: what the class wrote resolves
        // against them and against the components' classes.
        self.resolve(&mut model, written);
        Ok(model)
    }

    /// `extends Base(k = 2)`: the base class's elements, modified.
    fn extends(
        &mut self,
        id: ClassId,
        ext: &'a ast::Extends,
        model: &mut ClassModel,
        written: &mut Written<'a>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let base = match self.tree.lookup(&ext.name, Some(id), ext.span) {
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
        model.fingerprint.push('\n');
        model.fingerprint.push_str(&b.fingerprint);
        let (vars, subs) = (model.vars.len(), model.subs.len());
        inherit(model, &b);
        for arg in &ext.modification {
            match modify_inherited(model, &b, vars, arg, written) {
                Ok(Some((k, args))) => written.sub_modifiers.push((subs + k, args)),
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
        written: &mut Written<'a>,
        diags: &mut Vec<Diagnostic>,
    ) {
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
                self.variable(comp, variable, own_mods, model, written, diags)
            }
            TypeShape::Connector(cid) => {
                if !dims.is_empty() {
                    diags.push(
                        Diagnostic::error(
                            "MC009",
                            comp.name.span,
                            "arrays of connectors are not supported yet",
                        )
                        .with_label("array of connectors")
                        .with_help("declare one connector per port"),
                    );
                    return;
                }
                self.connector(comp, cid, own_mods, model, written, diags)
            }
            TypeShape::Component(cid) => {
                if !dims.is_empty() {
                    diags.push(
                        Diagnostic::error(
                            "MC010",
                            comp.name.span,
                            "arrays of components are not supported yet",
                        )
                        .with_label("array of components")
                        .with_help("declare the components one by one"),
                    );
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
                written.sub_modifiers.push((model.subs.len(), own_mods));
                model.subs.push(Sub {
                    name: comp.name.name.clone(),
                    class: cid,
                    modifiers: Vec::new(),
                    protected,
                    span: comp.span,
                });
            }
        }
    }

    /// A variable of a predefined type, and the derivatives it carries.
    fn variable(
        &mut self,
        comp: &'a ast::Component,
        ty: Variable<'a>,
        own_mods: &'a [Argument],
        model: &mut ClassModel,
        written: &mut Written<'a>,
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
            special: ty.special,
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
            written.values.push((vi, Value::Binding, b));
        }
        for arg in ty.mods.into_iter().chain(own_mods) {
            if let Err(d) = apply_attribute(&mut var, vi, arg, written) {
                diags.push(d);
            }
        }
        let carried = carried_derivatives(&var, vi);
        // The derivatives a variable carries have its sizes.
        for k in 0..=carried.len() {
            written.dims.push((vi + k, ty.dims.clone()));
        }
        model.vars.push(var);
        model.vars.extend(carried);
    }

    /// The variables of a connector component, named `comp.member`.
    fn connector(
        &mut self,
        comp: &'a ast::Component,
        cid: ClassId,
        own_mods: &'a [Argument],
        model: &mut ClassModel,
        written: &mut Written<'a>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let protected = comp.visibility == Visibility::Protected;
        let members = match self.connector_members(cid, &comp.name.name, protected, comp.span) {
            Ok(members) => members,
            Err(ds) => {
                diags.extend(ds);
                return;
            }
        };
        let (keys, mut members): (Vec<String>, Vec<Var>) = members.into_iter().unzip();
        let shift = model.vars.len();
        for arg in own_mods {
            if let Err(d) = apply_to_member(&mut members, shift, &comp.name.name, arg, written) {
                diags.push(d);
            }
        }
        let connector = model.connectors.len();
        model.vars.extend(members.into_iter().map(|mut v| {
            v.carried_of = v.carried_of.map(|c| c + shift);
            v.connector = Some(connector);
            for e in v.expressions_mut() {
                e.shift_into_connector(shift);
            }
            v
        }));
        model.connectors.push(ConnectorDecl {
            name: comp.name.name.clone(),
            class: cid,
            members: keys
                .into_iter()
                .enumerate()
                .map(|(k, key)| ConnectorMember {
                    var: shift + k,
                    key,
                })
                .collect(),
            span: comp.span,
        });
    }

    /// The model of the class of sub-component `k` of `model`; a class
    /// that cannot be elaborated gives its first diagnostic (its own check
    /// reports them all).
    pub(super) fn sub_model(
        &mut self,
        model: &ClassModel,
        k: usize,
    ) -> Result<Arc<ClassModel>, Diagnostic> {
        self.class(model.subs[k].class)
            .map_err(|mut ds| ds.remove(0))
    }

    /// Resolves a variable of component `sub` of `model`, or of one of the
    /// components nested in it: `parts` is the path below `sub`
    /// (`["port", "T"]`, `["integrator", "x"]`). At each level a variable
    /// of the whole remaining path comes before a component of its first
    /// name (a connector member's name has a dot in it).
    pub fn member(
        &mut self,
        model: &ClassModel,
        sub: usize,
        parts: &[String],
    ) -> Result<MemberRef, MemberError> {
        let mut path = vec![sub];
        let mut names = vec![model.subs[sub].name.as_str()];
        let mut class = self.sub_model(model, sub).map_err(MemberError::Class)?;
        let mut rest = parts;
        loop {
            if rest.is_empty() {
                return Err(MemberError::Component {
                    component: names.join("."),
                });
            }
            let joined = rest.join(".");
            if let Some(v) = class.var(&joined) {
                let var = &class.vars[v];
                return Ok(MemberRef {
                    path,
                    var: v,
                    component: names.join("."),
                    name: joined,
                    ty: var.ty,
                    variability: var.variability,
                    causality: var.causality,
                    literal_dims: var.dims.iter().map(|d| d.integer()).collect(),
                });
            }
            let Some(k) = class.subs.iter().position(|s| s.name == rest[0]) else {
                return Err(MemberError::NoElement {
                    class: class.qualified.clone(),
                    component: names.join("."),
                    rest: joined,
                });
            };
            path.push(k);
            names.push(&rest[0]);
            let next = self.sub_model(&class, k).map_err(MemberError::Class)?;
            class = next;
            rest = &rest[1..];
        }
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
        let mut resolved = self.tree.lookup(name, Some(scope), at)?;
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
                        _ => {
                            return Ok(match node.def.kind {
                                ClassKind::Connector => TypeShape::Connector(cid),
                                ClassKind::Model | ClassKind::Block | ClassKind::Class => {
                                    TypeShape::Component(cid)
                                }
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

    /// Checks the assumed-causality order of a connector class on its own
    /// (`MC013`, `MC014`), so that a connector is checked where it is
    /// declared even before any component uses it.
    pub fn check_connector(&mut self, id: ClassId) -> Vec<Diagnostic> {
        let span = self.tree.get(id).def.name.span;
        let name = self.tree.get(id).name.clone();
        match self.connector_members(id, &name, false, span) {
            Ok(_) => Vec::new(),
            Err(ds) => ds,
        }
    }

    /// Expands a connector class into variables named `comp.member`, with
    /// causality assigned by the assumed-causality rules; each with its
    /// name in the connector class.
    fn connector_members(
        &mut self,
        cid: ClassId,
        comp: &str,
        protected: bool,
        span: Span,
    ) -> Result<Vec<(String, Var)>, Vec<Diagnostic>> {
        let cm = self.class(cid)?;
        let mut out = Vec::new();
        let mut diags = Vec::new();
        // Where the member order stands: the causality of the most recent
        // signal, and whether flows have begun after it. Potentials may
        // follow the signal (or potentials that do) and inherit its
        // causality; flows follow a signal or potential, may follow each
        // other (the methodology groups `flow f0[2]; flow t;`) and take the
        // inverse causality. A potential after a flow has no signal of its
        // own, so it needs a new signal first.
        let mut group: Option<MemberGroup> = None;
        for v in &cm.vars {
            let mut var = v.clone();
            if let Some(base) = v.carried_of {
                // A carried derivative travels with its variable, with the
                // same causality.
                var.causality = out
                    .get(base)
                    .map(|(_, b): &(String, Var)| b.causality)
                    .unwrap_or(v.causality);
                let inner = v.name.trim_start_matches("der(").trim_end_matches(')');
                let depth = v.name.matches("der(").count();
                var.name = format!(
                    "{}{comp}.{inner}{}",
                    "der(".repeat(depth),
                    ")".repeat(depth)
                );
                var.protected = protected;
                var.span = span;
                out.push((v.name.clone(), var));
                continue;
            }
            if v.variability != ClassVariability::Continuous {
                // Parameters in connectors carry no causality.
            } else if v.flow {
                match group {
                    Some(MemberGroup::Potentials(c) | MemberGroup::Flows(c)) => {
                        var.causality = invert(c);
                        group = Some(MemberGroup::Flows(c));
                    }
                    None => diags.push(
                        Diagnostic::error(
                            "MC013",
                            v.span,
                            format!(
                                "flow variable `{}` must follow a potential or signal variable",
                                v.name
                            ),
                        )
                        .with_label("flow without a potential")
                        .with_help(
                            "declare an input or output signal (and its potentials) before the flow",
                        ),
                    ),
                }
            } else if v.causality != ClassCausality::Local {
                group = Some(MemberGroup::Potentials(v.causality));
            } else if let Some(MemberGroup::Potentials(c)) = group {
                var.causality = c;
            } else {
                let (message, label) = match group {
                    Some(MemberGroup::Flows(_)) => (
                        format!(
                            "potential variable `{}` follows a flow: a potential must follow an input or output variable, or potentials that do",
                            v.name
                        ),
                        "no signal since the flows before it",
                    ),
                    _ => (
                        format!(
                            "potential variable `{}` must follow an input or output variable",
                            v.name
                        ),
                        "causality cannot be inherited",
                    ),
                };
                diags.push(
                    Diagnostic::error("MC014", v.span, message)
                        .with_label(label)
                        .with_help("declare an input or output signal before this potential"),
                );
            }
            var.name = format!("{comp}.{}", v.name);
            var.protected = protected;
            var.span = span;
            out.push((v.name.clone(), var));
        }
        if diags.is_empty() {
            Ok(out)
        } else {
            Err(diags)
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
    model.vars.extend(base.vars.iter().map(|v| {
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
        c
    }));
    // The connection sets are formed again over every connect of the model;
    // the faults of inherited lines stay faults here.
    model.faults.extend(base.faults.iter().cloned());
}

/// Where a connector's member list stands while it is read in order.
#[derive(Clone, Copy)]
enum MemberGroup {
    /// After a signal of this causality, and potentials only since.
    Potentials(ClassCausality),
    /// After flows that follow a signal of this causality.
    Flows(ClassCausality),
}

fn invert(c: ClassCausality) -> ClassCausality {
    match c {
        ClassCausality::Input => ClassCausality::Output,
        ClassCausality::Output => ClassCausality::Input,
        ClassCausality::Local => ClassCausality::Local,
    }
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

fn string_value(e: &ast::Expr) -> Option<String> {
    match &e.kind {
        ast::ExprKind::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// Applies one modifier argument (`unit = "K"`, `start = T0`, `each start = 1`)
/// to variable `vi`: units are set at once, values are written down to be
/// resolved with the class's equations.
fn apply_attribute<'a>(
    var: &mut Var,
    vi: usize,
    arg: &'a Argument,
    written: &mut Written<'a>,
) -> Result<(), Diagnostic> {
    let (name, modification, span) = match arg {
        Argument::Modify {
            name,
            modification,
            span,
            ..
        } => (name, modification, *span),
        // The check phase reports every `redeclare` as MC111.
        Argument::Redeclare { .. } => return Ok(()),
    };
    let Some(m) = modification else { return Ok(()) };
    let value = m.binding.as_ref();
    let attr = name.dotted();
    let missing = || {
        Diagnostic::error("MC016", span, format!("modifier `{attr}` needs a value"))
            .with_label("value missing")
            .with_help("write `name = value`")
    };
    let mut write = |slot: Value| -> Result<(), Diagnostic> {
        written.values.push((vi, slot, value.ok_or_else(missing)?));
        Ok(())
    };
    match attr.as_str() {
        "unit" | "displayUnit" | "quantity" => {
            let v = value.ok_or_else(missing)?;
            let s = string_value(v).ok_or_else(|| {
                Diagnostic::error(
                    "MC017",
                    v.span,
                    format!("`{attr}` must be a string literal"),
                )
                .with_label("not a string")
                .with_help("write the unit as a string, e.g. unit = \"m/s\"")
            })?;
            match attr.as_str() {
                "unit" => var.attrs.unit = Some(s),
                "displayUnit" => var.attrs.display_unit = Some(s),
                _ => var.attrs.quantity = Some(s),
            }
        }
        "start" => write(Value::Start)?,
        "min" => write(Value::Min)?,
        "max" => write(Value::Max)?,
        "nominal" => write(Value::Nominal)?,
        "fixed" | "stateSelect" => {}
        other => {
            return Err(Diagnostic::error(
                "MC018",
                span,
                format!("`{other}` is not an attribute of variable `{}`", var.name),
            )
            .with_label("unknown attribute")
            .with_help("use one of unit, displayUnit, quantity, start, min, max, nominal"))
        }
    }
    Ok(())
}

/// A modifier on a connector component: `port(T(start = 300))`. The
/// members will be variables `shift..` of the class.
fn apply_to_member<'a>(
    members: &mut [Var],
    shift: usize,
    comp: &str,
    arg: &'a Argument,
    written: &mut Written<'a>,
) -> Result<(), Diagnostic> {
    if let Argument::Modify {
        name,
        modification: Some(m),
        span,
        ..
    } = arg
    {
        let full = format!("{comp}.{}", name.dotted());
        let Some(k) = members.iter().position(|v| v.name == full) else {
            return Err(Diagnostic::error(
                "MC019",
                *span,
                format!("connector `{comp}` has no variable `{}`", name.dotted()),
            )
            .with_label("no such connector variable")
            .with_help("check the connector's declaration"));
        };
        apply_modification(&mut members[k], shift + k, m, written)
    } else {
        Ok(())
    }
}

fn apply_modification<'a>(
    var: &mut Var,
    vi: usize,
    m: &'a Modification,
    written: &mut Written<'a>,
) -> Result<(), Diagnostic> {
    for a in &m.arguments {
        apply_attribute(var, vi, a, written)?;
    }
    if let Some(b) = &m.binding {
        written.values.push((vi, Value::Binding, b));
    }
    Ok(())
}

/// `extends Base(k = 2, x(start = 1))`: modifies inherited variables (the
/// base's, inherited from index `vars` on). A modifier of an inherited
/// component (`extends Base(sub(k = 2))`) is given back, with the
/// component's index in the base class, to be resolved with the
/// component's own.
fn modify_inherited<'a>(
    model: &mut ClassModel,
    base: &ClassModel,
    vars: usize,
    arg: &'a Argument,
    written: &mut Written<'a>,
) -> Result<Option<(usize, &'a [Argument])>, Diagnostic> {
    match arg {
        Argument::Modify {
            name,
            modification: Some(m),
            span,
            ..
        } => {
            let target = name.dotted();
            if let Some(k) = base.vars.iter().position(|v| v.name == target) {
                return apply_modification(&mut model.vars[vars + k], vars + k, m, written)
                    .map(|()| None);
            }
            if let Some(k) = base.subs.iter().position(|s| s.name == target) {
                return Ok(Some((k, m.arguments.as_slice())));
            }
            Err(Diagnostic::error(
                "MC019",
                *span,
                format!("the base class has no element `{target}`"),
            )
            .with_label("no such element in the base class")
            .with_help("modify only elements the base class declares"))
        }
        // The check phase reports every `redeclare` as MC111.
        Argument::Modify { .. } | Argument::Redeclare { .. } => Ok(None),
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
