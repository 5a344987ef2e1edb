//! Elaboration of one class: its variables (connector members expanded,
//! inherited elements included), its sub-components and its equations, all
//! in source order. Nothing here depends on how the class is used.

use std::collections::HashMap;

use super::tree::{Builtin, ClassId, ClassTree, Resolved};
use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::{
    Argument, ClassBody, ClassKind, ComponentRef, Element, Equation, Expr, ExprKind, Modification,
    Section, Subscript, TypePrefixes, Visibility,
};

/// Causality of a variable as seen from inside the class that declares it:
/// whether the class receives it or determines it (not FMI causality, which
/// is `fmu::table::Causality`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassCausality {
    /// Known inside the class (an input, or a connector variable the
    /// class receives).
    Input,
    /// To be determined by the class.
    Output,
    /// Neither: a protected or public variable of the class itself.
    Local,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variability {
    Constant,
    Parameter,
    Continuous,
}

/// The special predefined types a variable may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Special {
    pub state: bool,
    /// 1 for `RealWithDerivative`, 2 for `RealWith2Derivatives`.
    pub derivatives: u8,
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
    /// Name inside the class: `T`, `port.T`.
    pub name: String,
    pub ty: Builtin,
    pub variability: Variability,
    pub causality: ClassCausality,
    pub flow: bool,
    pub special: Special,
    /// Array dimensions as written (Integer literals or parameters).
    pub dims: Vec<Expr>,
    pub attrs: Attributes,
    pub binding: Option<Expr>,
    pub protected: bool,
    /// The connector component this variable belongs to, if any.
    pub connector: Option<String>,
    /// For the derivative a RealWithDerivative variable carries: the index
    /// of that variable.
    pub carried_of: Option<usize>,
    /// The role of a variable of a declared LinearResponse component.
    pub tearing: Option<Tearing>,
    pub description: Option<String>,
    pub span: Span,
}

/// The two variables of a declared `LinearResponse` component.
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
    pub arguments: Vec<Argument>,
    pub protected: bool,
    pub span: Span,
}

/// A component of connector type.
#[derive(Debug, Clone, PartialEq)]
pub struct ConnectorDecl {
    pub name: String,
    pub class: ClassId,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Connect {
    pub a: ComponentRef,
    pub b: ComponentRef,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ClassModel {
    pub id: ClassId,
    pub qualified: String,
    pub kind: ClassKind,
    pub partial: bool,
    pub vars: Vec<Var>,
    pub subs: Vec<Sub>,
    pub connectors: Vec<ConnectorDecl>,
    pub equations: Vec<Equation>,
    pub connects: Vec<Connect>,
}

impl ClassModel {
    pub fn var(&self, name: &str) -> Option<usize> {
        self.vars.iter().position(|v| v.name == name)
    }
}

/// Elaborates classes on demand and remembers the results.
pub struct Elaborator<'a> {
    pub tree: &'a ClassTree,
    pub sources: &'a crate::source::SourceMap,
    /// Shared, not copied: a class is looked up once per component of
    /// every class that uses it.
    cache: HashMap<ClassId, Result<std::sync::Arc<ClassModel>, Vec<Diagnostic>>>,
    in_progress: Vec<ClassId>,
}

/// What a component's type turned out to be.
enum TypeShape {
    Scalar {
        ty: Builtin,
        special: Special,
        prefixes: TypePrefixes,
        mods: Vec<Argument>,
        dims: Vec<Expr>,
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

    pub fn class(&mut self, id: ClassId) -> Result<std::sync::Arc<ClassModel>, Vec<Diagnostic>> {
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
        let r = self.build(id).map(std::sync::Arc::new);
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
            kind: node.def.kind,
            partial: node.def.prefixes.partial.is_some(),
            vars: Vec::new(),
            subs: Vec::new(),
            connectors: Vec::new(),
            equations: Vec::new(),
            connects: Vec::new(),
        };
        let body = match &node.def.body {
            ClassBody::Long(b) => b,
            _ => return Ok(model),
        };
        for element in &body.elements {
            match element {
                Element::Extends(ext) => {
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
                            continue;
                        }
                        Err(d) => {
                            diags.push(d);
                            continue;
                        }
                    };
                    // Report a class that extends itself at the `extends`
                    // clause, the line at fault, not at the class name.
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
                        continue;
                    }
                    match self.class(base) {
                        Ok(b) => {
                            let mut b = ClassModel::clone(&b);
                            for arg in &ext.modification {
                                if let Err(d) = apply_to_inherited(&mut b, arg) {
                                    diags.push(d);
                                }
                            }
                            let shift = model.vars.len();
                            model.vars.extend(b.vars.into_iter().map(|mut v| {
                                v.carried_of = v.carried_of.map(|c| c + shift);
                                v
                            }));
                            model.subs.extend(b.subs);
                            model.connectors.extend(b.connectors);
                            model.equations.extend(b.equations);
                            model.connects.extend(b.connects);
                        }
                        Err(ds) => diags.extend(ds),
                    }
                }
                Element::Component(comp) => {
                    let protected = comp.visibility == Visibility::Protected;
                    let shape = match self.type_shape(&comp.type_name, id, comp.span) {
                        Ok(s) => s,
                        Err(d) => {
                            diags.push(d);
                            continue;
                        }
                    };
                    let own_mods = comp
                        .modification
                        .as_ref()
                        .map(|m| m.arguments.clone())
                        .unwrap_or_default();
                    let binding = comp.modification.as_ref().and_then(|m| m.binding.clone());
                    let mut dims: Vec<Expr> = comp
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
                            let mut all_dims = type_dims;
                            all_dims.append(&mut dims);
                            let variability = if comp.prefixes.constant.is_some()
                                || prefixes.constant.is_some()
                            {
                                Variability::Constant
                            } else if comp.prefixes.parameter.is_some()
                                || prefixes.parameter.is_some()
                            {
                                Variability::Parameter
                            } else {
                                Variability::Continuous
                            };
                            let causality = if comp.prefixes.input.is_some()
                                || prefixes.input.is_some()
                            {
                                ClassCausality::Input
                            } else if comp.prefixes.output.is_some() || prefixes.output.is_some() {
                                ClassCausality::Output
                            } else {
                                ClassCausality::Local
                            };
                            let mut var = Var {
                                name: comp.name.name.clone(),
                                ty,
                                variability,
                                causality,
                                flow: comp.prefixes.flow.is_some() || prefixes.flow.is_some(),
                                special,
                                dims: all_dims,
                                attrs: Attributes::default(),
                                binding: binding.clone(),
                                protected,
                                connector: None,
                                carried_of: None,
                                tearing: None,
                                description: comp.description.clone(),
                                span: comp.span,
                            };
                            for arg in mods.iter().chain(own_mods.iter()) {
                                if let Err(d) = apply_attribute(&mut var, arg) {
                                    diags.push(d);
                                }
                            }
                            let carried = carried_derivatives(&var, model.vars.len());
                            model.vars.push(var);
                            model.vars.extend(carried);
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
                                continue;
                            }
                            match self.connector_members(cid, &comp.name.name, protected, comp.span)
                            {
                                Ok(mut members) => {
                                    for arg in &own_mods {
                                        if let Err(d) =
                                            apply_to_member(&mut members, &comp.name.name, arg)
                                        {
                                            diags.push(d);
                                        }
                                    }
                                    let shift = model.vars.len();
                                    model.vars.extend(members.into_iter().map(|mut v| {
                                        v.carried_of = v.carried_of.map(|c| c + shift);
                                        v
                                    }));
                                    model.connectors.push(ConnectorDecl {
                                        name: comp.name.name.clone(),
                                        class: cid,
                                        span: comp.span,
                                    });
                                }
                                Err(ds) => diags.extend(ds),
                            }
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
                                continue;
                            }
                            if binding.is_some() {
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
                            if is_linear_response(self.tree.get(cid)) {
                                // A declared tearing: its balance is known
                                // here (the system chooses it), its residual
                                // is an unknown of this class.
                                for (member, causality, role) in [
                                    ("residual", ClassCausality::Output, Tearing::Residual),
                                    ("balance", ClassCausality::Input, Tearing::Balance),
                                ] {
                                    model.vars.push(Var {
                                        name: format!("{}.{member}", comp.name.name),
                                        ty: Builtin::Real,
                                        variability: Variability::Continuous,
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
                                continue;
                            }
                            model.subs.push(Sub {
                                name: comp.name.name.clone(),
                                class: cid,
                                arguments: own_mods,
                                protected,
                                span: comp.span,
                            });
                        }
                    }
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
                        Equation::Connect { a, b, span } => model.connects.push(Connect {
                            a: a.clone(),
                            b: b.clone(),
                            span: *span,
                        }),
                        other => model.equations.push(other.clone()),
                    }
                }
            }
        }
        if diags.is_empty() {
            Ok(model)
        } else {
            Err(diags)
        }
    }

    /// Follows short class definitions down to a predefined type, a
    /// connector or a component class.
    fn type_shape(
        &mut self,
        name: &crate::syntax::ast::Name,
        scope: ClassId,
        at: Span,
    ) -> Result<TypeShape, Diagnostic> {
        let mut special = Special::default();
        let mut prefixes = TypePrefixes::default();
        let mut mods: Vec<Argument> = Vec::new();
        let mut dims: Vec<Expr> = Vec::new();
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
                    let node = self.tree.get(cid);
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
                                let mut inner = m.arguments.clone();
                                inner.append(&mut mods);
                                mods = inner;
                            }
                            dims.extend(short.dims.iter().filter_map(dim_expr));
                            resolved =
                                self.tree
                                    .lookup(&short.base, node.parent, short.base.span)?;
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
    /// causality assigned by the assumed-causality rules.
    fn connector_members(
        &mut self,
        cid: ClassId,
        comp: &str,
        protected: bool,
        span: Span,
    ) -> Result<Vec<Var>, Vec<Diagnostic>> {
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
                    .map(|b: &Var| b.causality)
                    .unwrap_or(v.causality);
                let inner = v.name.trim_start_matches("der(").trim_end_matches(')');
                let depth = v.name.matches("der(").count();
                var.name = format!(
                    "{}{comp}.{inner}{}",
                    "der(".repeat(depth),
                    ")".repeat(depth)
                );
                var.connector = Some(comp.to_string());
                var.protected = protected;
                var.span = span;
                out.push(var);
                continue;
            }
            if v.variability != Variability::Continuous {
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
            var.connector = Some(comp.to_string());
            var.protected = protected;
            var.span = span;
            out.push(var);
        }
        if diags.is_empty() {
            Ok(out)
        } else {
            Err(diags)
        }
    }
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

fn dim_expr(s: &Subscript) -> Option<Expr> {
    match s {
        Subscript::Expr(e) => Some(e.clone()),
        Subscript::Colon(_) => None,
    }
}

fn string_value(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// Applies one modifier argument (`unit = "K"`, `start = T0`, `each start = 1`)
/// to a variable. A nested modification of the variable itself
/// (`x(start = 1) = 2`) is flattened.
fn apply_attribute(var: &mut Var, arg: &Argument) -> Result<(), Diagnostic> {
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
    let value = m.binding.clone();
    let attr = name.dotted();
    let missing = || {
        Diagnostic::error("MC016", span, format!("modifier `{attr}` needs a value"))
            .with_label("value missing")
            .with_help("write `name = value`")
    };
    match attr.as_str() {
        "unit" | "displayUnit" | "quantity" => {
            let v = value.ok_or_else(missing)?;
            let s = string_value(&v).ok_or_else(|| {
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
        "start" => var.attrs.start = Some(value.ok_or_else(missing)?),
        "min" => var.attrs.min = Some(value.ok_or_else(missing)?),
        "max" => var.attrs.max = Some(value.ok_or_else(missing)?),
        "nominal" => var.attrs.nominal = Some(value.ok_or_else(missing)?),
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

/// A modifier on a connector component: `port(T(start = 300))`.
fn apply_to_member(members: &mut [Var], comp: &str, arg: &Argument) -> Result<(), Diagnostic> {
    if let Argument::Modify {
        name,
        modification: Some(m),
        span,
        ..
    } = arg
    {
        let full = format!("{comp}.{}", name.dotted());
        let Some(var) = members.iter_mut().find(|v| v.name == full) else {
            return Err(Diagnostic::error(
                "MC019",
                *span,
                format!("connector `{comp}` has no variable `{}`", name.dotted()),
            )
            .with_label("no such connector variable")
            .with_help("check the connector's declaration"));
        };
        apply_modification(var, m)
    } else {
        Ok(())
    }
}

fn apply_modification(var: &mut Var, m: &Modification) -> Result<(), Diagnostic> {
    for a in &m.arguments {
        apply_attribute(var, a)?;
    }
    if let Some(b) = &m.binding {
        var.binding = Some(b.clone());
    }
    Ok(())
}

/// `extends Base(k = 2, x(start = 1))`: modifies inherited variables.
fn apply_to_inherited(base: &mut ClassModel, arg: &Argument) -> Result<(), Diagnostic> {
    match arg {
        Argument::Modify {
            name,
            modification: Some(m),
            span,
            ..
        } => {
            let target = name.dotted();
            if let Some(var) = base.vars.iter_mut().find(|v| v.name == target) {
                return apply_modification(var, m);
            }
            if let Some(sub) = base.subs.iter_mut().find(|s| s.name == target) {
                sub.arguments.extend(m.arguments.iter().cloned());
                return Ok(());
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
        Argument::Modify { .. } | Argument::Redeclare { .. } => Ok(()),
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
