//! The class tree of all loaded files, and name lookup without look-ahead.

use std::collections::HashMap;

use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::{ClassBody, ClassDef, ClassKind, Element, Import, Name, StoredDefinition};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClassId(pub u32);

/// A predefined type of the language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    Real,
    Integer,
    Boolean,
    String,
    /// An enumeration type (its class): an Integer from 1 to the number
    /// of literals, declared to FMI as an `<Enumeration>`.
    Enumeration(ClassId),
}

/// What a type name resolves to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolved {
    Class(ClassId),
    Builtin(Builtin),
}

#[derive(Debug, Clone)]
pub struct ClassNode {
    pub name: String,
    pub qualified: String,
    pub parent: Option<ClassId>,
    /// The class as written, with nested class definitions left in place
    /// (they are also reachable as `children`).
    pub def: std::sync::Arc<ClassDef>,
    pub children: Vec<ClassId>,
    /// Where the imports are among the elements of `def`: every lookup
    /// inside the class reads them, and a package's elements may number
    /// thousands.
    pub(crate) import_elements: Vec<usize>,
    /// For a specialisation (a class with some of its replaceable classes
    /// redeclared), which class and which redeclarations; `None` for a
    /// class as written.
    pub specialisation: Option<Specialisation>,
}

/// A class specialised by a distinct set of redeclarations: the key under
/// which it is compiled once (its `ClassId` in the tree, which the class
/// database and the fingerprint both use).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Specialisation {
    pub generic: ClassId,
    /// The replaceable classes of `generic` redeclared, by name (sorted),
    /// each with the long class that replaces it. A redeclaration that
    /// names the default is left out, so the same set of classes gives one
    /// key.
    pub replacements: Vec<(String, ClassId)>,
}

impl ClassNode {
    pub fn encapsulated(&self) -> bool {
        self.def.prefixes.encapsulated.is_some()
    }

    /// Whether the class may declare a component `name`: it declares one,
    /// or it extends a class (what it inherits only elaboration can tell).
    /// A cheap test before a class is elaborated for its constants.
    pub fn may_declare_component(&self, name: &str) -> bool {
        let ClassBody::Long(body) = &self.def.body else {
            return false;
        };
        body.elements.iter().any(|e| match e {
            Element::Component(c) => c.name.name == name,
            Element::Extends(_) => true,
            _ => false,
        })
    }

    /// Where the class starts: uses must come after this point.
    pub fn position(&self) -> Span {
        self.def.span
    }

    pub fn imports(&self) -> impl Iterator<Item = &Import> {
        let elements = match &self.def.body {
            ClassBody::Long(body) => body.elements.as_slice(),
            _ => &[],
        };
        self.import_elements
            .iter()
            .filter_map(|&i| match elements.get(i) {
                Some(Element::Import(imp)) => Some(imp),
                _ => None,
            })
    }
}

/// Every class of every loaded file, in load order.
#[derive(Debug, Clone, Default)]
pub struct ClassTree {
    pub classes: Vec<ClassNode>,
    pub roots: Vec<ClassId>,
    /// Every class by its simple name, in load order: a lookup reads the
    /// few classes of that name instead of every sibling (a package may
    /// hold a thousand).
    by_name: HashMap<String, Vec<ClassId>>,
    /// The specialisation an element uses instead of the class its type
    /// or base name denotes, by the class that declares the element and
    /// where the element starts (`Vessel a(redeclare package Medium = Oil)`).
    pub(crate) specialised: HashMap<(ClassId, u32), ClassId>,
    /// Every specialisation by its key.
    pub(crate) interned: HashMap<Specialisation, ClassId>,
}

/// `a` comes strictly before `b` in load order.
pub fn before(a: Span, b: Span) -> bool {
    (a.file, a.start) < (b.file, b.start)
}

impl ClassTree {
    /// The tree of the classes as written, from parsed files given in load
    /// order. A file with a `within A.B;` clause adds its classes to the
    /// class `A.B`. (`ClassTree::build` adds what packages inherit and the
    /// specialisations.)
    pub(crate) fn load(files: &[StoredDefinition]) -> (ClassTree, Vec<Diagnostic>) {
        let mut tree = ClassTree::default();
        let mut diags = Vec::new();
        for file in files {
            let parent = match &file.within {
                None => None,
                Some(w) if w.parts.is_empty() => None,
                Some(w) => match tree.find_qualified(&w.dotted()) {
                    Some(id) => Some(id),
                    None => {
                        diags.push(
                            Diagnostic::error(
                                "MC002",
                                w.span,
                                format!("`within {}`: no such package was loaded before this file", w.dotted()),
                            )
                            .with_label("unknown package")
                            .with_help("load the enclosing package first (list its directory or file earlier)"),
                        );
                        continue;
                    }
                },
            };
            for class in &file.classes {
                tree.add(std::sync::Arc::new(class.clone()), parent, &mut diags);
            }
        }
        (tree, diags)
    }

    fn add(
        &mut self,
        def: std::sync::Arc<ClassDef>,
        parent: Option<ClassId>,
        diags: &mut Vec<Diagnostic>,
    ) -> ClassId {
        let name = def.name.name.clone();
        if let Some(prev) = self.children_named(parent, &name).next() {
            let prev_span = self.get(prev).def.name.span;
            diags.push(
                Diagnostic::error(
                    "MC003",
                    def.name.span,
                    format!("class `{name}` is declared twice"),
                )
                .with_label("second declaration")
                .with_note(prev_span, "first declared here")
                .with_help("rename one of the two classes"),
            );
        }
        let qualified = match parent {
            Some(p) => format!("{}.{}", self.classes[p.0 as usize].qualified, name),
            None => name.clone(),
        };
        let id = ClassId(self.classes.len() as u32);
        let nested: Vec<std::sync::Arc<ClassDef>> = match &def.body {
            ClassBody::Long(body) => body
                .elements
                .iter()
                .filter_map(|e| match e {
                    Element::Class { class, .. } => Some(class.clone()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        self.by_name.entry(name.clone()).or_default().push(id);
        let import_elements = match &def.body {
            ClassBody::Long(body) => body
                .elements
                .iter()
                .enumerate()
                .filter(|(_, e)| matches!(e, Element::Import(_)))
                .map(|(i, _)| i)
                .collect(),
            _ => Vec::new(),
        };
        self.classes.push(ClassNode {
            name,
            qualified,
            parent,
            def,
            children: Vec::new(),
            import_elements,
            specialisation: None,
        });
        match parent {
            Some(p) => self.classes[p.0 as usize].children.push(id),
            None => self.roots.push(id),
        }
        for n in nested {
            self.add(n, Some(id), diags);
        }
        id
    }

    pub fn get(&self, id: ClassId) -> &ClassNode {
        &self.classes[id.0 as usize]
    }

    /// `scope` and the classes around it, innermost first, up to and
    /// including the first encapsulated one: where a plain name used in
    /// `scope` may find a constant. The elaborator's lookup of a package
    /// constant (`package_constants`) and the fingerprint's record of it
    /// walk these same classes.
    pub fn constant_scopes(&self, scope: ClassId) -> impl Iterator<Item = ClassId> + '_ {
        let mut next = Some(scope);
        std::iter::from_fn(move || {
            let cur = next?;
            let node = self.get(cur);
            next = if node.encapsulated() {
                None
            } else {
                node.parent
            };
            Some(cur)
        })
    }

    /// Finds a class by its full dotted name, ignoring declaration order.
    pub fn find_qualified(&self, dotted: &str) -> Option<ClassId> {
        let mut parts = dotted.trim_start_matches('.').split('.');
        let first = parts.next()?;
        let mut cur = self.children_named(None, first).last()?;
        for p in parts {
            cur = self.children_named(Some(cur), p).next()?;
        }
        Some(cur)
    }

    /// Whether an earlier class has the same parent and name (`MC003`):
    /// then two classes share one qualified name.
    pub fn declared_twice(&self, id: ClassId) -> bool {
        let node = self.get(id);
        if node.specialisation.is_some() {
            return false;
        }
        self.children_named(node.parent, &node.name).next() != Some(id)
    }

    /// The classes named `name` directly inside `parent` (at the top
    /// level for `None`), in load order.
    fn children_named<'t>(
        &'t self,
        parent: Option<ClassId>,
        name: &str,
    ) -> impl Iterator<Item = ClassId> + 't {
        let parent = parent.map(|p| self.generic_of(p));
        self.by_name
            .get(name)
            .into_iter()
            .flatten()
            .copied()
            .filter(move |c| self.get(*c).parent == parent)
    }

    fn child_before(&self, parent: Option<ClassId>, name: &str, at: Span) -> Option<ClassId> {
        self.children_named(parent, name)
            .find(|c| before(self.get(*c).position(), at))
    }

    fn child_any(&self, parent: Option<ClassId>, name: &str) -> Option<ClassId> {
        self.children_named(parent, name).next()
    }

    /// Resolves a type or class name used at `at` inside class `scope`.
    /// Only what is declared before `at` is visible (no look-ahead).
    /// A part after a short class (`Medium.temperature` where `Medium =
    /// Media.Water`) is looked up in the long class it stands for.
    pub fn lookup(
        &self,
        name: &Name,
        scope: Option<ClassId>,
        at: Span,
    ) -> Result<Resolved, Diagnostic> {
        self.lookup_in(name, scope, at, true)
    }

    fn lookup_in(
        &self,
        name: &Name,
        scope: Option<ClassId>,
        at: Span,
        through_aliases: bool,
    ) -> Result<Resolved, Diagnostic> {
        let first = &name.parts[0];
        if name.parts.len() == 1 {
            if let Some(b) = builtin(&first.name) {
                return Ok(Resolved::Builtin(b));
            }
        }
        let start = if name.global {
            self.child_before(None, &first.name, at)
        } else {
            self.lookup_first(&first.name, scope, at)?
        };
        let Some(mut cur) = start else {
            return Err(self.not_found(name, 0, scope, at));
        };
        for (i, part) in name.parts.iter().enumerate().skip(1) {
            let found = self.child_before(Some(cur), &part.name, at).or_else(|| {
                let long = self.alias_target(cur).filter(|_| through_aliases)?;
                self.child_before(Some(long), &part.name, at)
            });
            match found {
                Some(c) => cur = c,
                None => return Err(self.not_found(name, i, scope, at)),
            }
        }
        Ok(Resolved::Class(cur))
    }

    /// The long class a short class stands for, its base looked up without
    /// following aliases inside it (so a cycle of aliases ends).
    fn alias_target(&self, id: ClassId) -> Option<ClassId> {
        let mut cur = id;
        for _ in 0..64 {
            let node = self.get(cur);
            let ClassBody::Short(short) = &node.def.body else {
                return (cur != id).then_some(cur);
            };
            match self.lookup_in(&short.base, node.parent, short.base.span, false) {
                Ok(Resolved::Class(c)) => cur = c,
                _ => return None,
            }
        }
        None
    }

    /// Adds `def`, a function that package `package` inherits from a base
    /// and does not declare, as a class of the package
    /// (`Media.Water.specificEnthalpy`): its plain names then find the
    /// package's constants (`resolve::package_functions`).
    pub(crate) fn add_inherited(&mut self, package: ClassId, base: ClassId) -> ClassId {
        let from = self.get(base).clone();
        let id = ClassId(self.classes.len() as u32);
        self.by_name.entry(from.name.clone()).or_default().push(id);
        self.classes.push(ClassNode {
            qualified: format!("{}.{}", self.get(package).qualified, from.name),
            parent: Some(package),
            children: Vec::new(),
            specialisation: None,
            ..from
        });
        self.classes[package.0 as usize].children.push(id);
        id
    }

    /// The class as written that `id` specialises (`id` itself when it is
    /// not a specialisation).
    pub fn generic_of(&self, id: ClassId) -> ClassId {
        match &self.get(id).specialisation {
            Some(s) => s.generic,
            None => id,
        }
    }

    /// [`ClassTree::lookup`] of the type of a component or the base of an
    /// `extends` clause that starts at `at` in class `scope`: the
    /// specialisation its redeclarations make, if any.
    pub fn lookup_element(
        &self,
        name: &Name,
        scope: ClassId,
        at: Span,
    ) -> Result<Resolved, Diagnostic> {
        if let Some(s) = self.specialised.get(&(scope, at.start)) {
            return Ok(Resolved::Class(*s));
        }
        self.lookup(name, Some(scope), at)
    }

    fn lookup_first(
        &self,
        ident: &str,
        scope: Option<ClassId>,
        at: Span,
    ) -> Result<Option<ClassId>, Diagnostic> {
        let mut s = scope;
        while let Some(id) = s {
            if let Some(spec) = &self.get(id).specialisation {
                if let Some((_, c)) = spec.replacements.iter().find(|(n, _)| n == ident) {
                    return Ok(Some(*c));
                }
            }
            if let Some(c) = self.child_before(Some(id), ident, at) {
                return Ok(Some(c));
            }
            for imp in self.get(id).imports() {
                if !before(imp.span, at) || imp.wildcard.is_some() {
                    continue;
                }
                let visible = match &imp.alias {
                    Some(a) => a.name == ident,
                    None => imp.name.last().name == ident,
                };
                if visible {
                    return self.resolve_import(imp, at).map(Some);
                }
            }
            if self.get(id).encapsulated() {
                return Ok(None);
            }
            s = self.get(id).parent;
        }
        Ok(self.child_before(None, ident, at))
    }

    /// Import targets are full names looked up from the top level.
    pub fn resolve_import(&self, imp: &Import, at: Span) -> Result<ClassId, Diagnostic> {
        let mut cur: Option<ClassId> = None;
        for (i, part) in imp.name.parts.iter().enumerate() {
            match self.child_before(cur, &part.name, at) {
                Some(c) => cur = Some(c),
                None => {
                    let mut d = Diagnostic::error(
                        "MC004",
                        part.span,
                        format!(
                            "import target `{}` is not declared before this line",
                            imp.name.dotted()
                        ),
                    )
                    .with_label(format!("`{}` not found here", part.name))
                    .with_help(
                        "declare or load the imported package before the class that imports it",
                    );
                    if self.child_any(cur, &part.name).is_some() && i < imp.name.parts.len() {
                        d.message = format!(
                            "import target `{}` is declared only after this line (look-ahead)",
                            imp.name.dotted()
                        );
                    }
                    return Err(d);
                }
            }
        }
        cur.ok_or_else(|| {
            Diagnostic::error("MC004", imp.span, "empty import")
                .with_label("no class named")
                .with_help("name the imported class: `import A = B.C;`")
        })
    }

    /// `scope` is the class the name is used in.
    fn not_found(&self, name: &Name, i: usize, scope: Option<ClassId>, at: Span) -> Diagnostic {
        let part = &name.parts[i];
        // Distinguish look-ahead from a plain unknown name: search everywhere.
        let later = self
            .by_name
            .get(&part.name)
            .into_iter()
            .flatten()
            .any(|c| !before(self.get(*c).position(), at));
        let (code, message, help) = if later {
            (
                "MC001",
                format!(
                    "`{}` is used before it is declared (look-ahead)",
                    name.dotted()
                ),
                "move the declaration above this use, or load its file earlier",
            )
        } else {
            (
                "MC005",
                format!("unknown class or type `{}`", name.dotted()),
                "check the spelling, or import the package that declares it",
            )
        };
        if later {
            if let Some(d) = self.mutual_dependency(name, part.span, scope) {
                return d;
            }
        }
        Diagnostic::error(code, part.span, message)
            .with_label("not found")
            .with_help(help)
    }

    /// `MC050`: the use of a later-declared class at `at` is one direction
    /// of a mutual dependency between two sibling packages. The rule: the
    /// name, resolved as if look-ahead were allowed, denotes a class in
    /// package `Q`; the use lies in package `P`; `P` and `Q` are distinct
    /// packages with the same parent (or both top-level); and some element
    /// of `Q` (a component type, an `extends`, an import or a short class
    /// base, in `Q` or any class nested in it) names a class inside `P`.
    /// Such a pair cannot be put in any load order, so moving declarations
    /// cannot fix it; the packages must be split instead.
    fn mutual_dependency(
        &self,
        name: &Name,
        part: Span,
        scope: Option<ClassId>,
    ) -> Option<Diagnostic> {
        let target = self.lookup_ignoring_order(name, scope)?;
        let mut use_chain = self.ancestors(scope?);
        let mut target_chain = self.ancestors(target);
        use_chain.reverse();
        target_chain.reverse();
        let k = use_chain
            .iter()
            .zip(&target_chain)
            .take_while(|(a, b)| a == b)
            .count();
        let (&p, &q) = (use_chain.get(k)?, target_chain.get(k)?);
        if self.kind(p) != ClassKind::Package || self.kind(q) != ClassKind::Package {
            return None;
        }
        let back = self.first_use_of(q, p)?;
        let (pn, qn) = (&self.get(p).qualified, &self.get(q).qualified);
        Some(
            Diagnostic::error(
                "MC050",
                part,
                format!(
                    "packages `{pn}` and `{qn}` depend on each other: `{}` is declared later, in `{qn}`, which itself uses `{pn}`",
                    name.dotted()
                ),
            )
            .with_label(format!("`{pn}` uses `{qn}` here"))
            .with_note(back, format!("and `{qn}` uses `{pn}` here"))
            .with_help(format!(
                "make the dependency go one way: move what `{pn}` needs from `{qn}` into `{pn}` or into a package declared before both"
            )),
        )
    }

    /// The class itself and its enclosing classes, innermost first.
    fn ancestors(&self, id: ClassId) -> Vec<ClassId> {
        let mut out = vec![id];
        let mut cur = self.get(id).parent;
        while let Some(c) = cur {
            out.push(c);
            cur = self.get(c).parent;
        }
        out
    }

    fn inside(&self, id: ClassId, package: ClassId) -> bool {
        self.ancestors(id).contains(&package)
    }

    /// The first name in `user` (or a class nested in it) that denotes a
    /// class inside `used`, ignoring declaration order.
    fn first_use_of(&self, user: ClassId, used: ClassId) -> Option<Span> {
        for (i, node) in self.classes.iter().enumerate() {
            let id = ClassId(i as u32);
            if !self.inside(id, user) {
                continue;
            }
            let hits = |n: &Name, scope: Option<ClassId>| {
                self.lookup_ignoring_order(n, scope)
                    .is_some_and(|c| self.inside(c, used))
            };
            match &node.def.body {
                ClassBody::Short(short) => {
                    if hits(&short.base, node.parent) {
                        return Some(short.base.span);
                    }
                }
                ClassBody::Long(body) => {
                    for e in &body.elements {
                        let name = match e {
                            Element::Component(c) => &c.type_name,
                            Element::Extends(x) => &x.name,
                            Element::Import(imp) => {
                                if self
                                    .import_target_ignoring_order(imp)
                                    .is_some_and(|c| self.inside(c, used))
                                {
                                    return Some(imp.name.span);
                                }
                                continue;
                            }
                            Element::Class { .. } => continue,
                        };
                        if hits(name, Some(id)) {
                            return Some(name.span);
                        }
                    }
                }
                ClassBody::Unsupported { .. } | ClassBody::Enumeration { .. } => {}
            }
        }
        None
    }

    /// Where `name` used in `scope` would resolve if look-ahead were
    /// allowed; used only to explain a look-ahead error.
    fn lookup_ignoring_order(&self, name: &Name, scope: Option<ClassId>) -> Option<ClassId> {
        let first = &name.parts.first()?.name;
        let mut cur = if name.global {
            self.child_any(None, first)?
        } else {
            self.first_ignoring_order(first, scope)?
        };
        for part in name.parts.iter().skip(1) {
            cur = self.child_any(Some(cur), &part.name)?;
        }
        Some(cur)
    }

    fn first_ignoring_order(&self, ident: &str, scope: Option<ClassId>) -> Option<ClassId> {
        let mut s = scope;
        while let Some(id) = s {
            if let Some(c) = self.child_any(Some(id), ident) {
                return Some(c);
            }
            for imp in self.get(id).imports() {
                if imp.wildcard.is_some() {
                    continue;
                }
                let visible = match &imp.alias {
                    Some(a) => a.name == ident,
                    None => imp.name.last().name == ident,
                };
                if visible {
                    return self.import_target_ignoring_order(imp);
                }
            }
            if self.get(id).encapsulated() {
                return None;
            }
            s = self.get(id).parent;
        }
        self.child_any(None, ident)
    }

    fn import_target_ignoring_order(&self, imp: &Import) -> Option<ClassId> {
        let mut cur: Option<ClassId> = None;
        for part in &imp.name.parts {
            cur = Some(self.child_any(cur, &part.name)?);
        }
        cur
    }

    /// Follows short class definitions (`package Medium = Media.Water`)
    /// to the long class they stand for.
    pub fn follow_short(&self, id: ClassId) -> Result<ClassId, Diagnostic> {
        let mut cur = id;
        for _ in 0..64 {
            let node = self.get(cur);
            let ClassBody::Short(short) = &node.def.body else {
                return Ok(cur);
            };
            match self.lookup(&short.base, node.parent, short.base.span)? {
                Resolved::Class(c) => cur = c,
                Resolved::Builtin(_) => return Ok(cur),
            }
        }
        Err(Diagnostic::error(
            "MC006",
            self.get(id).def.name.span,
            "class definitions form a cycle",
        )
        .with_label("cyclic class definition")
        .with_help("a class cannot be defined in terms of itself"))
    }

    pub fn kind(&self, id: ClassId) -> ClassKind {
        self.get(id).def.kind
    }
}

pub fn builtin(name: &str) -> Option<Builtin> {
    match name {
        "Real" => Some(Builtin::Real),
        "Integer" => Some(Builtin::Integer),
        "Boolean" => Some(Builtin::Boolean),
        "String" => Some(Builtin::String),
        _ => None,
    }
}
