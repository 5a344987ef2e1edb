//! The index of a library: every declaration (classes, components of any
//! type, connectors included, enumeration literals) and every place a
//! name of one is written, each place with the declaration it names.
//!
//! It is what an editor asks of the compiler: where a name is declared,
//! where it is used, what may be renamed and what a name would mean at a
//! place. It reads the syntax of every class once and resolves names the
//! way elaboration does (`ClassTree::lookup` for classes, without
//! look-ahead; components through the class's elements and those it
//! inherits, then the constants of enclosing classes, then a class path),
//! but it elaborates nothing, so a class that does not elaborate is
//! indexed too. Nothing here is a syntax type: declarations and uses are
//! spans and indices.

use std::cell::OnceCell;

use foldhash::HashMap as FastMap;
use foldhash::HashSet as FastSet;

use super::tree::{before, ClassId, ClassTree, Resolved};
use crate::source::Span;
use crate::syntax::ast::{
    Argument, ClassBody, ClassDef, ClassKind, Component, ComponentRef, Element, Equation, Expr,
    ExprKind, Ident, Modification, Name, Section, Statement, Subscript,
};

/// A declaration, by its place in [`Index::decls`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeclId(pub u32);

/// What a declaration declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclKind {
    /// A class as written (its specialisations share the declaration).
    Class(ClassId),
    /// A component of class `owner`; `class` is the class its type names
    /// (`None` for a predefined type or a type that does not resolve).
    Component {
        owner: ClassId,
        class: Option<ClassId>,
    },
    /// A literal of the enumeration type `owner`.
    Literal { owner: ClassId },
}

/// The prefixes of a component that tell what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Prefixes {
    pub parameter: bool,
    pub constant: bool,
    pub input: bool,
    pub output: bool,
    pub flow: bool,
    pub protected: bool,
    pub replaceable: bool,
}

#[derive(Debug, Clone)]
pub struct Decl {
    pub name: String,
    pub kind: DeclKind,
    /// The declared name.
    pub name_span: Span,
    /// The whole declaration.
    pub span: Span,
    /// A component's type as written (`Base.ContinuousState`, with array
    /// dimensions as `[n]`); a class's keyword (`model`, `package`, …).
    pub type_text: String,
    pub prefixes: Prefixes,
    pub description: Option<String>,
}

/// How a use names its declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A part of a type or class name (a component's type, `extends`,
    /// a short class's base, `import`, a call).
    Type,
    /// A part of a reference in an expression or a `connect`.
    Reference,
    /// The name a modifier modifies (`rod(n = 5)`).
    Modifier,
    /// The name after `end` of a long class.
    EndName,
}

/// One place a name is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Use {
    pub span: Span,
    pub decl: DeclId,
    /// The class whose text holds the use.
    pub scope: ClassId,
    pub role: Role,
    /// The first part of a dotted name (what a plain name lookup finds).
    pub first: bool,
}

/// The declarations and uses of one library.
///
/// The declarations are made at once; the uses of a class when a query
/// first needs them (`at` a place needs only the class around it), and
/// all of them when a query needs every use (references, a rename). So a
/// hover after an edit of a large library resolves the names of one
/// class, not of all. The queries take the class tree the index was made
/// from.
#[derive(Debug, Default)]
pub struct Index {
    pub decls: Vec<Decl>,
    /// The declaration of each class of the tree (a specialisation and an
    /// inherited function share their original's).
    class_decls: Vec<Option<DeclId>>,
    /// The classes as written, each once, in load order.
    written: Vec<ClassId>,
    /// Each class's own components and literals, in order, by class.
    own: Vec<Vec<DeclId>>,
    /// The classes each class extends (resolved, short classes followed),
    /// by class.
    bases: Vec<Vec<ClassId>>,
    /// The simple names of all classes: a name that is none of them is not
    /// looked up as a class (calls of `der`, `sin`, …).
    class_names: FastSet<String>,
    /// Each class's members (own and inherited), as first asked for.
    members: Vec<OnceCell<Vec<DeclId>>>,
    /// The uses written in each class's own text, by start.
    class_uses: Vec<OnceCell<Vec<Use>>>,
    /// Every use, by file and start.
    all_uses: OnceCell<Vec<Use>>,
}

impl Index {
    /// The index of every class of `tree`: its declarations; the uses are
    /// found when asked for.
    pub fn of(tree: &ClassTree) -> Index {
        let n = tree.classes.len();
        let mut index = Index {
            class_decls: vec![None; n],
            own: vec![Vec::new(); n],
            bases: vec![Vec::new(); n],
            class_names: tree.classes.iter().map(|n| n.name.clone()).collect(),
            members: (0..n).map(|_| OnceCell::new()).collect(),
            class_uses: (0..n).map(|_| OnceCell::new()).collect(),
            ..Index::default()
        };
        index.written = index.declare_classes(tree);
        for c in index.written.clone() {
            index.declare_elements(tree, c);
            index.bases[c.0 as usize] = bases_of(tree, c);
        }
        index
    }

    /// The uses written in class `c`'s own text (its nested classes are
    /// classes of their own), by start.
    pub fn uses_in(&self, tree: &ClassTree, c: ClassId) -> &[Use] {
        let c = written(tree, c);
        self.class_uses[c.0 as usize].get_or_init(|| {
            let mut builder = Builder {
                tree,
                index: self,
                uses: Vec::new(),
            };
            if self
                .class_decl(c)
                .is_some_and(|d| self.decl(d).kind == DeclKind::Class(c))
            {
                builder.class_uses(c);
            }
            let mut uses = builder.uses;
            uses.sort_by_key(|u| (u.span.start, u.span.end));
            uses.dedup();
            uses
        })
    }

    /// Every use in the library, by file and start.
    pub fn uses(&self, tree: &ClassTree) -> &[Use] {
        self.all_uses.get_or_init(|| {
            let mut all: Vec<Use> = self
                .written
                .iter()
                .flat_map(|c| self.uses_in(tree, *c).iter().copied())
                .collect();
            all.sort_by_key(|u| (u.span.file, u.span.start, u.span.end));
            all
        })
    }

    pub fn decl(&self, id: DeclId) -> &Decl {
        &self.decls[id.0 as usize]
    }

    /// The declaration of class `c`.
    pub fn class_decl(&self, c: ClassId) -> Option<DeclId> {
        self.class_decls.get(c.0 as usize).copied().flatten()
    }

    /// The declaration whose name is written at `offset` of `file` (a use
    /// or the declared name, touching it from either side), with the span
    /// of that name.
    pub fn at(
        &self,
        tree: &ClassTree,
        file: crate::source::FileId,
        offset: usize,
    ) -> Option<(DeclId, Span)> {
        let holds =
            |s: Span| s.file == file && s.start as usize <= offset && offset <= s.end as usize;
        // A use lies in the own text of the innermost class around it.
        let innermost = self
            .written
            .iter()
            .filter(|c| holds(tree.get(**c).def.span))
            .min_by_key(|c| {
                let s = tree.get(**c).def.span;
                s.end - s.start
            });
        if let Some(c) = innermost {
            if let Some(u) = self.uses_in(tree, *c).iter().find(|u| holds(u.span)) {
                return Some((u.decl, u.span));
            }
        }
        self.decls
            .iter()
            .position(|d| holds(d.name_span))
            .map(|i| (DeclId(i as u32), self.decls[i].name_span))
    }

    /// The declared name and every use of declaration `id`.
    pub fn references(&self, tree: &ClassTree, id: DeclId) -> Vec<Span> {
        let mut out = vec![self.decl(id).name_span];
        out.extend(self.uses_of(tree, id).map(|u| u.span));
        out
    }

    /// The uses of declaration `id`.
    pub fn uses_of<'s>(
        &'s self,
        tree: &ClassTree,
        id: DeclId,
    ) -> impl Iterator<Item = &'s Use> + 's {
        self.uses(tree).iter().filter(move |u| u.decl == id)
    }

    /// The components (and literals) class `c` declares itself.
    pub fn own(&self, c: ClassId) -> &[DeclId] {
        self.own.get(c.0 as usize).map_or(&[], Vec::as_slice)
    }

    /// The components of class `c`, its own and those it inherits (each
    /// once, the class's own first), and the literals of an enumeration.
    pub fn members(&self, tree: &ClassTree, c: ClassId) -> &[DeclId] {
        let c = written(tree, c);
        self.members[c.0 as usize].get_or_init(|| {
            let mut out = Vec::new();
            let mut seen = FastSet::default();
            self.collect_members(tree, c, &mut out, &mut seen);
            out
        })
    }

    /// The member of class `c` named `name`.
    pub fn member(&self, tree: &ClassTree, c: ClassId, name: &str) -> Option<DeclId> {
        self.members(tree, c)
            .iter()
            .copied()
            .find(|d| self.decl(*d).name == name)
    }

    fn collect_members(
        &self,
        tree: &ClassTree,
        c: ClassId,
        out: &mut Vec<DeclId>,
        seen: &mut FastSet<ClassId>,
    ) {
        let c = written(tree, c);
        let c = tree.follow_short(c).map_or(c, |l| written(tree, l));
        if !seen.insert(c) {
            return;
        }
        for d in self.own(c) {
            if !out.iter().any(|o| self.decl(*o).name == self.decl(*d).name) {
                out.push(*d);
            }
        }
        for &b in self.bases.get(c.0 as usize).map_or(&[][..], Vec::as_slice) {
            self.collect_members(tree, b, out, seen);
        }
    }

    /// Whether class `c` extends `base`, directly or through other bases.
    pub fn extends(&self, tree: &ClassTree, c: ClassId, base: ClassId) -> bool {
        let mut stack = vec![written(tree, c)];
        let mut seen = FastSet::default();
        let base = written(tree, base);
        while let Some(k) = stack.pop() {
            if !seen.insert(k) {
                continue;
            }
            for b in self.bases.get(k.0 as usize).into_iter().flatten() {
                if *b == base {
                    return true;
                }
                stack.push(*b);
            }
        }
        false
    }

    /// The classes as written that the index holds, in load order.
    pub fn classes(&self) -> impl Iterator<Item = ClassId> + '_ {
        self.written.iter().copied()
    }

    /// Gives every class of `tree` its declaration; returns the classes
    /// as written, each once, in load order.
    fn declare_classes(&mut self, tree: &ClassTree) -> Vec<ClassId> {
        let mut by_span: FastMap<(Span, Span), DeclId> = FastMap::default();
        let mut out = Vec::new();
        for (i, node) in tree.classes.iter().enumerate() {
            let c = ClassId(i as u32);
            if node.specialisation.is_some() {
                continue;
            }
            let key = (node.def.span, node.def.name.span);
            if let Some(d) = by_span.get(&key) {
                // A function a package inherits is a copy of its base's.
                self.class_decls[i] = Some(*d);
                continue;
            }
            let id = self.push(Decl {
                name: node.name.clone(),
                kind: DeclKind::Class(c),
                name_span: node.def.name.span,
                span: node.def.span,
                type_text: node.def.kind.keyword().to_string(),
                prefixes: Prefixes {
                    replaceable: false,
                    ..Prefixes::default()
                },
                description: node.def.description.clone(),
            });
            by_span.insert(key, id);
            self.class_decls[i] = Some(id);
            out.push(c);
        }
        for (i, node) in tree.classes.iter().enumerate() {
            if let Some(s) = &node.specialisation {
                self.class_decls[i] = self.class_decls[s.generic.0 as usize];
            }
        }
        out
    }

    fn push(&mut self, decl: Decl) -> DeclId {
        self.decls.push(decl);
        DeclId(self.decls.len() as u32 - 1)
    }

    /// Declares the components (or literals) class `c` writes.
    fn declare_elements(&mut self, tree: &ClassTree, c: ClassId) {
        let def = tree.get(c).def.clone();
        let mut own = Vec::new();
        match &def.body {
            ClassBody::Long(body) => {
                for e in &body.elements {
                    let Element::Component(comp) = e else {
                        continue;
                    };
                    let class = match tree.lookup(&comp.type_name, Some(c), comp.span) {
                        Ok(Resolved::Class(k)) => Some(written(tree, k)),
                        _ => None,
                    };
                    let id = self.push(component_decl(comp, c, class));
                    own.push(id);
                }
            }
            ClassBody::Enumeration { literals, .. } => {
                for l in literals {
                    let id = self.push(Decl {
                        name: l.name.name.clone(),
                        kind: DeclKind::Literal { owner: c },
                        name_span: l.name.span,
                        span: l.name.span,
                        type_text: tree.get(c).qualified.clone(),
                        prefixes: Prefixes {
                            constant: true,
                            ..Prefixes::default()
                        },
                        description: l.description.clone(),
                    });
                    own.push(id);
                }
            }
            ClassBody::Short(_) | ClassBody::Unsupported { .. } => {}
        }
        self.own[c.0 as usize] = own;
    }
}

fn component_decl(comp: &Component, owner: ClassId, class: Option<ClassId>) -> Decl {
    let p = &comp.prefixes;
    let mut type_text = comp.type_name.dotted();
    let dims = comp.type_dims.len() + comp.dims.len();
    if dims > 0 {
        type_text.push_str(&format!("[{}]", vec![":"; dims].join(",")));
    }
    Decl {
        name: comp.name.name.clone(),
        kind: DeclKind::Component { owner, class },
        name_span: comp.name.span,
        span: comp.span,
        type_text,
        prefixes: Prefixes {
            parameter: p.parameter.is_some(),
            constant: p.constant.is_some(),
            input: p.input.is_some(),
            output: p.output.is_some(),
            flow: p.flow.is_some(),
            protected: comp.visibility == crate::syntax::ast::Visibility::Protected,
            replaceable: comp.element_prefixes.replaceable.is_some(),
        },
        description: comp.description.clone(),
    }
}

/// The class as written that `c` stands for: a specialisation's generic
/// class, an inherited function's original.
fn written(tree: &ClassTree, c: ClassId) -> ClassId {
    tree.generic_of(c)
}

/// The classes `c` extends, resolved as elaboration resolves them, short
/// classes followed; a short class "extends" the class it stands for.
fn bases_of(tree: &ClassTree, c: ClassId) -> Vec<ClassId> {
    let node = tree.get(c);
    let mut out = Vec::new();
    match &node.def.body {
        ClassBody::Long(body) => {
            for e in &body.elements {
                if let Element::Extends(x) = e {
                    if let Ok(Resolved::Class(b)) = tree.lookup(&x.name, Some(c), x.span) {
                        out.push(written(tree, b));
                    }
                }
            }
        }
        ClassBody::Short(short) => {
            if let Ok(Resolved::Class(b)) = tree.lookup(&short.base, node.parent, short.base.span) {
                out.push(written(tree, b));
            }
        }
        _ => {}
    }
    out
}

/// Collects the uses while walking a class's own text.
struct Builder<'t, 'i> {
    tree: &'t ClassTree,
    index: &'i Index,
    uses: Vec<Use>,
}

impl Builder<'_, '_> {
    fn member(&mut self, class: ClassId, name: &str) -> Option<DeclId> {
        self.index.member(self.tree, class, name)
    }

    fn add(&mut self, span: Span, decl: DeclId, scope: ClassId, role: Role, first: bool) {
        self.uses.push(Use {
            span,
            decl,
            scope,
            role,
            first,
        });
    }

    /// The uses written in class `c`'s own text (nested classes are
    /// classes of their own).
    fn class_uses(&mut self, c: ClassId) {
        let def: std::sync::Arc<ClassDef> = self.tree.get(c).def.clone();
        let parent = self.tree.get(c).parent;
        match &def.body {
            ClassBody::Long(body) => {
                if body.end_name.name == def.name.name {
                    if let Some(d) = self.index.class_decl(c) {
                        self.add(body.end_name.span, d, c, Role::EndName, true);
                    }
                }
                for e in &body.elements {
                    self.element_uses(c, e);
                }
                let mut locals = Vec::new();
                for s in &body.sections {
                    match s {
                        Section::Equation { equations, .. } => {
                            for eq in equations {
                                self.equation_uses(c, eq, &mut locals);
                            }
                        }
                        Section::Algorithm { statements, .. } => {
                            for st in statements {
                                self.statement_uses(c, st, &mut locals);
                            }
                        }
                    }
                }
            }
            ClassBody::Short(short) => {
                // The base is looked up from the enclosing class.
                let base = self.name_uses(c, parent, &short.base, short.base.span);
                if let (Some(m), Some(b)) = (&short.modification, base) {
                    self.modification_uses(c, b, m);
                }
                for d in &short.dims {
                    self.subscript_uses(c, d, &[]);
                }
            }
            ClassBody::Enumeration { .. } | ClassBody::Unsupported { .. } => {}
        }
        if let Some(cb) = &def.constrainedby {
            self.name_uses(c, parent, cb, cb.span);
        }
    }

    fn element_uses(&mut self, c: ClassId, e: &Element) {
        match e {
            Element::Component(comp) => {
                let ty = self.name_uses(c, Some(c), &comp.type_name, comp.span);
                if let (Some(m), Some(t)) = (&comp.modification, ty) {
                    self.modification_uses(c, t, m);
                } else if let Some(m) = &comp.modification {
                    // A predefined type's attributes name nothing; the
                    // values may.
                    self.modification_values(c, m);
                }
                for d in comp.dims.iter().chain(&comp.type_dims) {
                    self.subscript_uses(c, d, &[]);
                }
                if let Some(cond) = &comp.condition {
                    self.expr_uses(c, cond, &[]);
                }
            }
            Element::Extends(x) => {
                let base = self.name_uses(c, Some(c), &x.name, x.span);
                for a in &x.modification {
                    match base {
                        Some(b) => self.argument_uses(c, b, a),
                        None => self.argument_values(c, a),
                    }
                }
            }
            Element::Import(imp) => {
                self.import_uses(c, &imp.name, imp.span);
            }
            Element::Class { .. } => {}
        }
    }

    /// Each part of a class name, looked up from `scope` at `at`, as a
    /// use of the class it names; the class the whole name names.
    fn name_uses(
        &mut self,
        c: ClassId,
        scope: Option<ClassId>,
        name: &Name,
        at: Span,
    ) -> Option<ClassId> {
        if !self.index.class_names.contains(&name.parts[0].name) {
            return None;
        }
        let aliased = !name.global && alias_at(self.tree, scope, &name.parts[0], at);
        let mut found = None;
        for i in 0..name.parts.len() {
            let prefix = Name {
                global: name.global,
                parts: name.parts[..=i].to_vec(),
                span: name.span,
            };
            let Ok(Resolved::Class(k)) = self.tree.lookup(&prefix, scope, at) else {
                return None;
            };
            let k = written(self.tree, k);
            if let (Some(d), false) = (self.index.class_decl(k), i == 0 && aliased) {
                self.add(name.parts[i].span, d, c, Role::Type, i == 0);
            }
            found = Some(k);
        }
        found
    }

    /// An import's name: full, looked up from the top level.
    fn import_uses(&mut self, c: ClassId, name: &Name, at: Span) {
        let global = Name {
            global: true,
            ..name.clone()
        };
        self.name_uses(c, None, &global, at);
    }

    /// The modifiers of a modification of an element of class `target`,
    /// written in class `c`.
    fn modification_uses(&mut self, c: ClassId, target: ClassId, m: &Modification) {
        for a in &m.arguments {
            self.argument_uses(c, target, a);
        }
        if let Some(b) = &m.binding {
            self.expr_uses(c, b, &[]);
        }
    }

    fn modification_values(&mut self, c: ClassId, m: &Modification) {
        for a in &m.arguments {
            self.argument_values(c, a);
        }
        if let Some(b) = &m.binding {
            self.expr_uses(c, b, &[]);
        }
    }

    fn argument_uses(&mut self, c: ClassId, target: ClassId, a: &Argument) {
        match a {
            Argument::Modify {
                name, modification, ..
            } => {
                let mut class = Some(target);
                for part in &name.parts {
                    let Some(k) = class else { break };
                    let Some(d) = self.member(k, &part.name) else {
                        class = None;
                        break;
                    };
                    self.add(part.span, d, c, Role::Modifier, false);
                    class = self.component_class(d);
                }
                match (modification, class) {
                    (Some(m), Some(k)) => self.modification_uses(c, k, m),
                    (Some(m), None) => self.modification_values(c, m),
                    (None, _) => {}
                }
            }
            Argument::RedeclareClass(r) => {
                let replaced = self.tree.get(target).children.iter().copied().find(|k| {
                    self.tree.get(*k).name == r.name.name
                        && self.tree.get(*k).specialisation.is_none()
                });
                if let Some(d) = replaced.and_then(|k| self.index.class_decl(k)) {
                    self.add(r.name.span, d, c, Role::Modifier, false);
                }
                self.name_uses(c, Some(c), &r.base, r.span);
            }
            Argument::Redeclare { .. } => {}
        }
    }

    fn argument_values(&mut self, c: ClassId, a: &Argument) {
        if let Argument::Modify {
            modification: Some(m),
            ..
        } = a
        {
            self.modification_values(c, m);
        }
    }

    fn component_class(&self, d: DeclId) -> Option<ClassId> {
        match self.index.decl(d).kind {
            DeclKind::Component { class, .. } => class,
            _ => None,
        }
    }

    fn equation_uses(&mut self, c: ClassId, eq: &Equation, locals: &mut Vec<String>) {
        match eq {
            Equation::Simple { lhs, rhs, .. } => {
                self.expr_uses(c, lhs, locals);
                self.expr_uses(c, rhs, locals);
            }
            Equation::Connect { a, b, .. } => {
                self.reference_uses(c, a, locals);
                self.reference_uses(c, b, locals);
            }
            Equation::For {
                index, range, body, ..
            } => {
                self.expr_uses(c, range, locals);
                locals.push(index.name.clone());
                for e in body {
                    self.equation_uses(c, e, locals);
                }
                locals.pop();
            }
            Equation::If {
                branches, else_, ..
            } => {
                self.branch_uses(c, branches, locals);
                for e in else_ {
                    self.equation_uses(c, e, locals);
                }
            }
            Equation::When { branches, .. } => self.branch_uses(c, branches, locals),
            Equation::Outputs { targets, value, .. } => {
                for t in targets.iter().flatten() {
                    self.expr_uses(c, t, locals);
                }
                self.expr_uses(c, value, locals);
            }
            Equation::Call { name, args, .. } => {
                self.name_uses(c, Some(c), name, name.span);
                for a in args {
                    self.expr_uses(c, a, locals);
                }
            }
        }
    }

    fn branch_uses(
        &mut self,
        c: ClassId,
        branches: &[(Expr, Vec<Equation>)],
        locals: &mut Vec<String>,
    ) {
        for (cond, body) in branches {
            self.expr_uses(c, cond, locals);
            for e in body {
                self.equation_uses(c, e, locals);
            }
        }
    }

    fn statement_uses(&mut self, c: ClassId, st: &Statement, locals: &mut Vec<String>) {
        match st {
            Statement::Assign { target, value, .. } => {
                self.reference_uses(c, target, locals);
                self.expr_uses(c, value, locals);
            }
            Statement::If {
                branches, else_, ..
            } => {
                for (cond, body) in branches {
                    self.expr_uses(c, cond, locals);
                    for s in body {
                        self.statement_uses(c, s, locals);
                    }
                }
                for s in else_ {
                    self.statement_uses(c, s, locals);
                }
            }
            Statement::For {
                index, range, body, ..
            } => {
                self.expr_uses(c, range, locals);
                locals.push(index.name.clone());
                for s in body {
                    self.statement_uses(c, s, locals);
                }
                locals.pop();
            }
            Statement::While {
                condition, body, ..
            } => {
                self.expr_uses(c, condition, locals);
                for s in body {
                    self.statement_uses(c, s, locals);
                }
            }
            Statement::Outputs { targets, value, .. } => {
                for t in targets.iter().flatten() {
                    self.expr_uses(c, t, locals);
                }
                self.expr_uses(c, value, locals);
            }
            Statement::Return { .. } | Statement::Break { .. } | Statement::Other { .. } => {}
        }
    }

    fn subscript_uses(&mut self, c: ClassId, s: &Subscript, locals: &[String]) {
        if let Subscript::Expr(e) = s {
            self.expr_uses(c, e, locals);
        }
    }

    fn expr_uses(&mut self, c: ClassId, e: &Expr, locals: &[String]) {
        match &e.kind {
            ExprKind::Ref(r) => self.reference_uses(c, r, locals),
            ExprKind::Binary(_, a, b) => {
                self.expr_uses(c, a, locals);
                self.expr_uses(c, b, locals);
            }
            ExprKind::Unary(_, a) => self.expr_uses(c, a, locals),
            ExprKind::Call { func, args, named } => {
                let f = self.name_uses(c, Some(c), func, func.span);
                for a in args {
                    self.expr_uses(c, a, locals);
                }
                for (name, value) in named {
                    if let Some(d) = f.and_then(|f| self.member(f, &name.name)) {
                        self.add(name.span, d, c, Role::Modifier, false);
                    }
                    self.expr_uses(c, value, locals);
                }
            }
            ExprKind::If { branches, else_ } => {
                for (cond, value) in branches {
                    self.expr_uses(c, cond, locals);
                    self.expr_uses(c, value, locals);
                }
                self.expr_uses(c, else_, locals);
            }
            ExprKind::Array(items) => items.iter().for_each(|i| self.expr_uses(c, i, locals)),
            ExprKind::Matrix(rows) => rows
                .iter()
                .flatten()
                .for_each(|i| self.expr_uses(c, i, locals)),
            ExprKind::Range { start, step, stop } => {
                self.expr_uses(c, start, locals);
                if let Some(s) = step {
                    self.expr_uses(c, s, locals);
                }
                self.expr_uses(c, stop, locals);
            }
            ExprKind::Integer(_)
            | ExprKind::Real(_)
            | ExprKind::Bool(_)
            | ExprKind::String(_)
            | ExprKind::End => {}
        }
    }

    /// A reference `a.b[i].c` written in class `c`: its first part a
    /// component of the class (own or inherited), else a constant of an
    /// enclosing class, else a class path (`Medium.cp`, `Mode.Heat`); each
    /// later part a member of what the part before it names.
    fn reference_uses(&mut self, c: ClassId, r: &ComponentRef, locals: &[String]) {
        for p in &r.parts {
            for s in &p.subscripts {
                self.subscript_uses(c, s, locals);
            }
        }
        let first = &r.parts[0].name;
        if locals.contains(&first.name) || first.name == "time" {
            return;
        }
        let mut next = 1;
        let mut class = if let Some(d) = (!r.global).then(|| self.plain(c, &first.name)).flatten() {
            self.add(first.span, d, c, Role::Reference, true);
            self.component_class(d)
        } else {
            let Some((k, n)) = self.class_path(c, r) else {
                return;
            };
            next = n;
            Some(k)
        };
        for part in &r.parts[next..] {
            let Some(k) = class else { return };
            let Some(d) = self.member(k, &part.name.name) else {
                return;
            };
            self.add(part.name.span, d, c, Role::Reference, false);
            class = self.component_class(d);
        }
    }

    /// What a plain name used in class `c` names among components: the
    /// class's own or inherited ones, else a constant of an enclosing
    /// class (`ClassTree::constant_scopes`).
    fn plain(&mut self, c: ClassId, name: &str) -> Option<DeclId> {
        if let Some(d) = self.member(c, name) {
            return Some(d);
        }
        let scopes: Vec<ClassId> = self.tree.constant_scopes(c).skip(1).collect();
        scopes.into_iter().find_map(|s| self.member(s, name))
    }

    /// The longest class path a reference starts with, each part a use of
    /// its class; the class and how many parts it took.
    fn class_path(&mut self, c: ClassId, r: &ComponentRef) -> Option<(ClassId, usize)> {
        let name = Name {
            global: r.global,
            parts: r.parts.iter().map(|p| p.name.clone()).collect(),
            span: r.span,
        };
        if !self.index.class_names.contains(&name.parts[0].name) {
            return None;
        }
        let aliased = !r.global && alias_at(self.tree, Some(c), &name.parts[0], r.span);
        let mut found = None;
        for i in 0..name.parts.len() {
            let prefix = Name {
                parts: name.parts[..=i].to_vec(),
                ..name.clone()
            };
            let Ok(Resolved::Class(k)) = self.tree.lookup(&prefix, Some(c), r.span) else {
                break;
            };
            let k = written(self.tree, k);
            if let (Some(d), false) = (self.index.class_decl(k), i == 0 && aliased) {
                self.add(name.parts[i].span, d, c, Role::Type, i == 0);
            }
            found = Some((k, i + 1));
        }
        found
    }
}

/// Whether the first part of a name used in `scope` at `at` is the alias
/// of an import (`import SI = Base.Units.SI;`): then it names the import,
/// not a class of that name.
fn alias_at(tree: &ClassTree, scope: Option<ClassId>, first: &Ident, at: Span) -> bool {
    let mut s = scope;
    while let Some(id) = s {
        let node = tree.get(id);
        for imp in node.imports() {
            if imp.alias.as_ref().is_some_and(|a| a.name == first.name) && before(imp.span, at) {
                return true;
            }
        }
        if node.encapsulated() {
            return false;
        }
        s = node.parent;
    }
    false
}

/// What a plain `name` would name if written at `at` in class `scope`: a
/// component of the class (own or inherited), else a class visible there.
/// For a rename: a new name that already names something here clashes.
pub fn meaning(
    index: &Index,
    tree: &ClassTree,
    scope: ClassId,
    name: &str,
    at: Span,
) -> Option<DeclId> {
    if let Some(d) = index.member(tree, scope, name) {
        return Some(d);
    }
    if !index.class_names.contains(name) {
        return None;
    }
    let plain = Name {
        global: false,
        parts: vec![Ident {
            name: name.to_string(),
            span: at,
        }],
        span: at,
    };
    match tree.lookup(&plain, Some(scope), at) {
        Ok(Resolved::Class(k)) => index.class_decl(written(tree, k)),
        _ => None,
    }
}

/// Whether `word` is a keyword of Modelica (no name may be one).
pub fn is_keyword(word: &str) -> bool {
    crate::syntax::is_keyword(word)
}

/// The kind of class `c` as its keyword (`model`, `package`, …).
pub fn kind_keyword(tree: &ClassTree, c: ClassId) -> &'static str {
    tree.get(c).def.kind.keyword()
}

/// Whether class `c` is a function.
pub fn is_function(tree: &ClassTree, c: ClassId) -> bool {
    tree.get(c).def.kind == ClassKind::Function
}
