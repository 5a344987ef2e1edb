//! Class fingerprints: a hash per class of everything checking that class
//! depends on, so that a class whose fingerprint did not change between
//! two checks gives the same result (up to where it sits in its file).
//!
//! A class's fingerprint covers
//! - its qualified name;
//! - its *own text*: the text of the class with its nested classes cut
//!   out (they have fingerprints of their own), so that editing a nested
//!   class leaves its package alone, and taken as text, not as offsets, so
//!   that inserting a line above the class leaves it alone too;
//! - what each name it resolves resolves to (the base of every `extends`,
//!   the type of every component, the base of a short class): the
//!   resolved class's qualified name and fingerprint, a predefined type,
//!   or the diagnostic the lookup gave. The result is hashed, not the
//!   name as written, because what a name denotes depends on the classes
//!   declared before its use (no look-ahead): adding, removing or
//!   renaming a class elsewhere can change it. Import targets and the
//!   packages a dotted name walks through are covered by the same result;
//! - what the names it writes in expressions (algorithm statements of a
//!   function included) may denote as package constants
//!   (`Media.Water.cp`: what `Media.Water` resolves to; a plain name: the
//!   enclosing classes that may declare it), and the functions it calls;
//!   both are found on one walk of its own text (`own_expressions`);
//! - for a specialisation (`specialise`), each redeclared class and its
//!   replacement: the key the class database compiles it under.
//!
//! These are exactly the lookups `Elaborator` makes for the class (the
//! lookups of a short type's base are that type's own), and elaboration,
//! causalisation, units and the system check of a class read nothing of
//! other classes except through them. Because there is no look-ahead,
//! load order is almost a topological order of these references, so one
//! forward pass computes every fingerprint; a class used inside the class
//! that declares it is the one reference to a later class, and is
//! fingerprinted first.

use sha2::{Digest, Sha256};

use super::tree::{Builtin, ClassId, ClassTree, Resolved};
use crate::diagnostic::Diagnostic;
use crate::source::{SourceMap, Span};
use crate::syntax::ast::{
    Argument, ClassBody, ClassDef, ClassKind, ComponentRef, Element, Equation, Expr, ExprKind,
    Modification, Name, Section, Statement, Subscript,
};

/// A SHA-256 digest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint([u8; 32]);

/// Why a library has no fingerprints: results would depend on more than
/// each class and what it refers to, so only a full check is sound.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoFingerprints {
    /// A class refers to itself through its bases, component types or
    /// short type chain: which of the classes on the cycle is reported
    /// depends on where elaboration enters it.
    #[error("`{0}` refers to itself")]
    Cycle(String),
    /// Two classes share a qualified name (`MC003`): a name no longer
    /// identifies one class.
    #[error("`{0}` is declared twice")]
    Duplicate(String),
}

/// The fingerprint of every class of a tree, by [`ClassId`].
#[derive(Debug, Clone)]
pub struct Fingerprints {
    own: Vec<Fingerprint>,
    class: Vec<Fingerprint>,
}

impl Fingerprints {
    /// Fingerprints every class of `tree`, whose texts are in `sources`.
    pub fn of(tree: &ClassTree, sources: &SourceMap) -> Result<Fingerprints, NoFingerprints> {
        let n = tree.classes.len();
        if let Some(twice) = (0..n).find(|&i| tree.declared_twice(ClassId(i as u32))) {
            return Err(NoFingerprints::Duplicate(
                tree.classes[twice].qualified.clone(),
            ));
        }
        let own: Vec<Fingerprint> = (0..n)
            .map(|i| own_text_hash(tree, sources, tree.generic_of(ClassId(i as u32))))
            .collect();
        let mut pass = Pass {
            tree,
            own: &own,
            class: vec![State::Todo; n],
        };
        for i in 0..n {
            pass.class(ClassId(i as u32))?;
        }
        let class = pass
            .class
            .into_iter()
            .map(|s| match s {
                State::Done(f) => f,
                State::Todo | State::InProgress => unreachable!("every class was fingerprinted"),
            })
            .collect();
        Ok(Fingerprints { own, class })
    }

    /// What checking the class depends on (see the module documentation).
    pub fn class(&self, id: ClassId) -> Fingerprint {
        self.class[id.0 as usize]
    }

    /// The hash of the class's own text only (its nested classes cut out):
    /// equal own texts mean a position inside one maps to the same
    /// position inside the other.
    pub fn own(&self, id: ClassId) -> Fingerprint {
        self.own[id.0 as usize]
    }
}

/// The nested classes of `id` written inside its text (a class added to a
/// package by a `within` clause lives in another file).
pub fn nested_in_text(tree: &ClassTree, id: ClassId) -> impl Iterator<Item = Span> + '_ {
    let span = tree.get(id).def.span;
    tree.get(id)
        .children
        .iter()
        .map(move |c| tree.get(*c).def.span)
        .filter(move |c| c.file == span.file && span.start <= c.start && c.end <= span.end)
}

/// The pieces of a class's text between its nested classes, as byte
/// ranges of its file: one more piece than nested classes.
pub fn own_pieces(tree: &ClassTree, id: ClassId) -> impl Iterator<Item = (u32, u32)> + '_ {
    let span = tree.get(id).def.span;
    let mut nested = nested_in_text(tree, id);
    let mut from = Some(span.start);
    std::iter::from_fn(move || {
        let start = from?;
        match nested.next() {
            Some(n) => {
                from = Some(n.end);
                Some((start, n.start))
            }
            None => {
                from = None;
                Some((start, span.end))
            }
        }
    })
}

fn own_text_hash(tree: &ClassTree, sources: &SourceMap, id: ClassId) -> Fingerprint {
    let file = tree.get(id).def.span.file;
    let text = sources.get(file).text.as_bytes();
    let mut h = Sha256::new();
    for (start, end) in own_pieces(tree, id) {
        let end = (end as usize).min(text.len());
        let start = (start as usize).min(end);
        field(&mut h, &text[start..end]);
    }
    Fingerprint(h.finalize().into())
}

#[derive(Clone, Copy)]
enum State {
    Todo,
    InProgress,
    Done(Fingerprint),
}

struct Pass<'t> {
    tree: &'t ClassTree,
    own: &'t [Fingerprint],
    class: Vec<State>,
}

impl Pass<'_> {
    fn class(&mut self, id: ClassId) -> Result<Fingerprint, NoFingerprints> {
        match self.class[id.0 as usize] {
            State::Done(f) => return Ok(f),
            State::InProgress => {
                return Err(NoFingerprints::Cycle(self.tree.get(id).qualified.clone()))
            }
            State::Todo => {}
        }
        self.class[id.0 as usize] = State::InProgress;
        let tree = self.tree;
        let node = tree.get(id);
        let mut h = Sha256::new();
        field(&mut h, node.qualified.as_bytes());
        h.update(self.own[id.0 as usize].0);
        if let Some(spec) = &node.specialisation {
            // The specialisation's key: the generic class's own text (above)
            // and each replacement.
            for (name, c) in &spec.replacements {
                field(&mut h, name.as_bytes());
                self.resolution(id, Ok(Resolved::Class(*c)), node.def.span, &mut h)?;
            }
        }
        for (name, scope, at) in references(tree, id) {
            let found = match scope {
                Some(s) => tree.lookup_element(name, s, at),
                None => tree.lookup(name, scope, at),
            };
            match found {
                Ok(Resolved::Builtin(b)) => {
                    field(&mut h, b"builtin");
                    field(&mut h, builtin_name(b).as_bytes());
                }
                Ok(Resolved::Class(c)) => {
                    let f = self.class(c)?;
                    field(&mut h, b"class");
                    field(&mut h, tree.get(c).qualified.as_bytes());
                    h.update(f.0);
                }
                Err(d) => {
                    field(&mut h, b"error");
                    lookup_error(&mut h, &d, name.span);
                }
            }
        }
        // The functions and record constructors the class calls, and the
        // constants of the classes around it (a name the class cannot
        // resolve among its own may be one of them): their text, and the
        // classes of their types.
        for name in calls(&node.def) {
            self.lookup(&mut h, name, Some(id), name.span)?;
        }
        if node.def.kind != ClassKind::Record {
            for p in tree.constant_scopes(id).skip(1) {
                let outer = tree.get(p);
                if let ClassBody::Long(body) = &outer.def.body {
                    let mut constants = false;
                    for e in &body.elements {
                        if let Element::Component(c) = e {
                            if c.prefixes.constant.is_some() {
                                constants = true;
                                self.lookup(&mut h, &c.type_name, Some(p), c.span)?;
                            }
                        }
                    }
                    // The constants' values are in the enclosing class's
                    // own text (only a class with constants is hashed, so
                    // editing a package without any re-checks nothing).
                    if constants {
                        h.update(self.own[p.0 as usize].0);
                    }
                }
            }
        }
        self.constants(id, &mut h)?;
        let f = Fingerprint(h.finalize().into());
        self.class[id.0 as usize] = State::Done(f);
        Ok(f)
    }
}

impl Pass<'_> {
    /// What the names the class writes in expressions may denote beyond
    /// its own elements: package constants (`constants.rs`). For a dotted
    /// name, what its package part resolves to at the point of use; for a
    /// plain name, the enclosing classes that may declare a constant of
    /// that name and the imports that may import one. An
    /// over-approximation (the class's own variables come first), so a
    /// change of a constant re-checks every class that may read it.
    fn constants(&mut self, id: ClassId, h: &mut Sha256) -> Result<(), NoFingerprints> {
        let tree = self.tree;
        let mut refs = Vec::new();
        expression_refs(tree, id, &mut refs);
        for r in refs {
            if r.parts.len() == 1 {
                self.enclosing(id, &r.parts[0].name.name, h)?;
                continue;
            }
            let prefix = r.prefix();
            self.resolution(id, tree.lookup(&prefix, Some(id), r.span), r.span, h)?;
        }
        Ok(())
    }

    /// Hashes what a lookup gave, as for the names of `references`; a
    /// class that names itself is covered by its own text.
    fn resolution(
        &mut self,
        id: ClassId,
        result: Result<Resolved, Diagnostic>,
        at: Span,
        h: &mut Sha256,
    ) -> Result<(), NoFingerprints> {
        match result {
            Ok(Resolved::Class(c)) if c == id => field(h, b"self"),
            Ok(Resolved::Class(c)) => {
                let f = self.class(c)?;
                field(h, b"class");
                field(h, self.tree.get(c).qualified.as_bytes());
                h.update(f.0);
            }
            Ok(Resolved::Builtin(b)) => field(h, builtin_name(b).as_bytes()),
            Err(d) => {
                field(h, b"error");
                lookup_error(h, &d, at);
            }
        }
        Ok(())
    }

    /// Hashes what `name`, used at `at` in `scope`, resolves to.
    fn lookup(
        &mut self,
        h: &mut Sha256,
        name: &Name,
        scope: Option<ClassId>,
        at: Span,
    ) -> Result<(), NoFingerprints> {
        let tree = self.tree;
        match tree.lookup(name, scope, at) {
            Ok(Resolved::Builtin(b)) => {
                field(h, b"builtin");
                field(h, builtin_name(b).as_bytes());
            }
            Ok(Resolved::Class(c)) => {
                let f = self.class(c)?;
                field(h, b"class");
                field(h, tree.get(c).qualified.as_bytes());
                h.update(f.0);
            }
            Err(d) => {
                field(h, b"error");
                lookup_error(h, &d, name.span);
            }
        }
        Ok(())
    }

    /// The classes around `id` a plain name may find a constant in.
    fn enclosing(&mut self, id: ClassId, name: &str, h: &mut Sha256) -> Result<(), NoFingerprints> {
        let tree = self.tree;
        for cur in tree.constant_scopes(id) {
            let node = tree.get(cur);
            for imp in node.imports() {
                let visible = match &imp.alias {
                    Some(a) => a.name == name,
                    None => imp.name.last().name == name,
                };
                if visible && imp.name.parts.len() >= 2 {
                    let prefix = Name {
                        global: true,
                        parts: imp.name.parts[..imp.name.parts.len() - 1].to_vec(),
                        span: imp.name.span,
                    };
                    field(h, name.as_bytes());
                    self.resolution(id, tree.lookup(&prefix, None, imp.span), imp.span, h)?;
                }
            }
            // The elaborator goes on outwards when a class that may declare
            // the name turns out not to (it only extends a class, or its
            // declaration does not elaborate): every such class is read.
            if cur != id && node.may_declare_component(name) {
                field(h, name.as_bytes());
                self.resolution(id, Ok(Resolved::Class(cur)), node.def.span, h)?;
            }
        }
        Ok(())
    }
}

/// Every component reference in the expressions class `id` writes itself
/// (its nested classes have fingerprints of their own).
fn expression_refs<'t>(tree: &'t ClassTree, id: ClassId, out: &mut Vec<&'t ComponentRef>) {
    own_expressions(&tree.get(id).def, &mut |e| {
        if let ExprKind::Ref(r) = &e.kind {
            out.push(r);
        }
    });
}

/// The names of the calls in a class's own text (bindings, modifiers,
/// equations, algorithm statements), which resolve to functions or record
/// constructors when they name one.
fn calls(def: &ClassDef) -> Vec<&Name> {
    let mut out = Vec::new();
    own_expressions(def, &mut |e| {
        if let ExprKind::Call { func, .. } = &e.kind {
            out.push(func);
        }
    });
    out
}

/// The one walk over what a class writes itself: every expression (and
/// every subexpression, outermost first) of its modifiers, sizes, condition
/// attributes, equations and algorithm statements. Both the package
/// constants and the calls a class may read are found on it, so a
/// construct read in one place (a function's algorithm) is read in the
/// other too.
fn own_expressions<'t>(def: &'t ClassDef, f: &mut dyn FnMut(&'t Expr)) {
    match &def.body {
        ClassBody::Short(short) => {
            if let Some(m) = &short.modification {
                modification_exprs(m, f);
            }
            short.dims.iter().for_each(|d| subscript_exprs(d, f));
        }
        ClassBody::Long(body) => {
            for e in &body.elements {
                match e {
                    Element::Component(c) => {
                        if let Some(m) = &c.modification {
                            modification_exprs(m, f);
                        }
                        c.dims
                            .iter()
                            .chain(&c.type_dims)
                            .for_each(|d| subscript_exprs(d, f));
                        if let Some(cond) = &c.condition {
                            expr_exprs(cond, f);
                        }
                    }
                    Element::Extends(x) => x.modification.iter().for_each(|a| argument_exprs(a, f)),
                    Element::Class { .. } | Element::Import(_) => {}
                }
            }
            for s in &body.sections {
                match s {
                    Section::Equation { equations, .. } => {
                        equations.iter().for_each(|e| equation_exprs(e, f))
                    }
                    Section::Algorithm { statements, .. } => {
                        statements.iter().for_each(|s| statement_exprs(s, f))
                    }
                }
            }
        }
        ClassBody::Unsupported { .. } | ClassBody::Enumeration { .. } => {}
    }
}

fn modification_exprs<'t>(m: &'t Modification, f: &mut dyn FnMut(&'t Expr)) {
    m.arguments.iter().for_each(|a| argument_exprs(a, f));
    if let Some(b) = &m.binding {
        expr_exprs(b, f);
    }
}

fn argument_exprs<'t>(a: &'t Argument, f: &mut dyn FnMut(&'t Expr)) {
    if let Argument::Modify {
        modification: Some(m),
        ..
    } = a
    {
        modification_exprs(m, f);
    }
}

fn subscript_exprs<'t>(s: &'t Subscript, f: &mut dyn FnMut(&'t Expr)) {
    if let Subscript::Expr(e) = s {
        expr_exprs(e, f);
    }
}

fn equation_exprs<'t>(e: &'t Equation, f: &mut dyn FnMut(&'t Expr)) {
    match e {
        Equation::Simple { lhs, rhs, .. } => {
            expr_exprs(lhs, f);
            expr_exprs(rhs, f);
        }
        Equation::For { range, body, .. } => {
            expr_exprs(range, f);
            body.iter().for_each(|b| equation_exprs(b, f));
        }
        Equation::If {
            branches, else_, ..
        } => {
            for (c, body) in branches {
                expr_exprs(c, f);
                body.iter().for_each(|b| equation_exprs(b, f));
            }
            else_.iter().for_each(|b| equation_exprs(b, f));
        }
        Equation::Call { args, .. } => args.iter().for_each(|a| expr_exprs(a, f)),
        Equation::Outputs { targets, value, .. } => {
            targets.iter().flatten().for_each(|t| expr_exprs(t, f));
            expr_exprs(value, f);
        }
        Equation::When { branches, .. } => {
            for (c, body) in branches {
                expr_exprs(c, f);
                body.iter().for_each(|b| equation_exprs(b, f));
            }
        }
        Equation::Connect { .. } => {}
    }
}

fn statement_exprs<'t>(st: &'t Statement, f: &mut dyn FnMut(&'t Expr)) {
    match st {
        Statement::Assign { target, value, .. } => {
            for p in &target.parts {
                p.subscripts.iter().for_each(|s| subscript_exprs(s, f));
            }
            expr_exprs(value, f);
        }
        Statement::If {
            branches, else_, ..
        } => {
            for (c, b) in branches {
                expr_exprs(c, f);
                b.iter().for_each(|s| statement_exprs(s, f));
            }
            else_.iter().for_each(|s| statement_exprs(s, f));
        }
        Statement::For { range, body, .. } => {
            expr_exprs(range, f);
            body.iter().for_each(|s| statement_exprs(s, f));
        }
        Statement::While {
            condition, body, ..
        } => {
            expr_exprs(condition, f);
            body.iter().for_each(|s| statement_exprs(s, f));
        }
        Statement::Outputs { targets, value, .. } => {
            targets.iter().flatten().for_each(|t| expr_exprs(t, f));
            expr_exprs(value, f);
        }
        Statement::Return { .. } | Statement::Break { .. } | Statement::Other { .. } => {}
    }
}

/// `e` and every expression inside it, outermost first.
fn expr_exprs<'t>(e: &'t Expr, f: &mut dyn FnMut(&'t Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Ref(r) => {
            for p in &r.parts {
                p.subscripts.iter().for_each(|s| subscript_exprs(s, f));
            }
        }
        ExprKind::Binary(_, a, b) => {
            expr_exprs(a, f);
            expr_exprs(b, f);
        }
        ExprKind::Unary(_, a) => expr_exprs(a, f),
        ExprKind::Call { args, named, .. } => {
            args.iter().for_each(|a| expr_exprs(a, f));
            named.iter().for_each(|(_, a)| expr_exprs(a, f));
        }
        ExprKind::If { branches, else_ } => {
            for (c, v) in branches {
                expr_exprs(c, f);
                expr_exprs(v, f);
            }
            expr_exprs(else_, f);
        }
        ExprKind::Array(items) => items.iter().for_each(|a| expr_exprs(a, f)),
        ExprKind::Matrix(rows) => rows.iter().flatten().for_each(|a| expr_exprs(a, f)),
        ExprKind::Range { start, step, stop } => {
            expr_exprs(start, f);
            if let Some(s) = step {
                expr_exprs(s, f);
            }
            expr_exprs(stop, f);
        }
        ExprKind::Integer(_)
        | ExprKind::Real(_)
        | ExprKind::Bool(_)
        | ExprKind::String(_)
        | ExprKind::End => {}
    }
}

/// The names `Elaborator` resolves for class `id`, each with the scope and
/// the point of use it resolves them at.
fn references(
    tree: &ClassTree,
    id: ClassId,
) -> impl Iterator<Item = (&Name, Option<ClassId>, Span)> + '_ {
    let node = tree.get(id);
    let (elements, short) = match &node.def.body {
        ClassBody::Long(body) => (body.elements.as_slice(), None),
        ClassBody::Short(short) => (&[][..], Some((&short.base, node.parent, short.base.span))),
        ClassBody::Unsupported { .. } | ClassBody::Enumeration { .. } => (&[][..], None),
    };
    let own = elements.iter().filter_map(move |e| match e {
        Element::Extends(x) => Some((&x.name, Some(id), x.span)),
        Element::Component(c) => Some((&c.type_name, Some(id), c.span)),
        Element::Class { .. } | Element::Import(_) => None,
    });
    own.chain(short)
}

fn builtin_name(b: Builtin) -> &'static str {
    match b {
        Builtin::Real => "Real",
        Builtin::Integer => "Integer",
        Builtin::Boolean => "Boolean",
        Builtin::String => "String",
        Builtin::Enumeration(_) => "enumeration",
    }
}

/// A failed lookup as it shows in a diagnostic: the primary span relative
/// to the name looked up (it moves with the class), the places of notes
/// as they are (they point elsewhere, so moving them is a change).
fn lookup_error(h: &mut Sha256, d: &Diagnostic, name: Span) {
    field(h, d.code.as_bytes());
    field(h, d.message.as_bytes());
    field(h, d.label.as_bytes());
    field(h, d.help.as_bytes());
    h.update(d.span.start.wrapping_sub(name.start).to_le_bytes());
    h.update(d.span.end.wrapping_sub(name.start).to_le_bytes());
    for (span, note) in &d.notes {
        h.update(span.file.0.to_le_bytes());
        h.update(span.start.to_le_bytes());
        h.update(span.end.to_le_bytes());
        field(h, note.as_bytes());
    }
}

/// One field, length first, so that two fields never read as one.
fn field(h: &mut Sha256, bytes: &[u8]) {
    h.update((bytes.len() as u64).to_le_bytes());
    h.update(bytes);
}
