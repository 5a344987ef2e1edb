//! The names an expression of a class (or function) may use: its
//! variables and components, and the indices of the `for` loops around it.
//! A floor below the steps that resolve expressions (`names`, `function`).

use std::collections::HashMap;

use super::expr::Expr;
use super::model::ClassModel;
use super::tree::ClassId;

/// What a name in a class's equations may refer to: its variables and
/// components (the first declared of a name), and the indices of the `for`
/// loops around the expression.
pub struct Scope<'m> {
    pub(crate) model: &'m ClassModel,
    pub(crate) vars: HashMap<&'m str, usize>,
    pub(crate) subs: HashMap<&'m str, usize>,
    pub(crate) loops: Vec<String>,
    /// Components whose instances are chosen per instance (arrays,
    /// conditional components): equations cannot name their variables.
    pub(crate) structural: Vec<usize>,
    /// The dimensions of the class's own array variables as this class
    /// declares them (resolved before its bindings and equations, which
    /// read them for `end`).
    pub(crate) dims: HashMap<usize, Vec<Expr>>,
    /// The clocks the class declares, by name, as written.
    pub(crate) clocks: HashMap<String, crate::syntax::ast::Expr>,
}

impl<'m> Scope<'m> {
    pub fn of(model: &'m ClassModel) -> Scope<'m> {
        let mut vars = HashMap::new();
        for (i, v) in model.vars.iter().enumerate() {
            vars.entry(v.name.as_str()).or_insert(i);
        }
        let mut subs = HashMap::new();
        for (k, s) in model.subs.iter().enumerate() {
            subs.entry(s.name.as_str()).or_insert(k);
        }
        Scope {
            model,
            vars,
            subs,
            loops: Vec::new(),
            structural: model
                .subs
                .iter()
                .enumerate()
                .filter(|(_, s)| s.structural())
                .map(|(k, _)| k)
                .collect(),
            dims: HashMap::new(),
            clocks: HashMap::new(),
        }
    }

    /// The declared dimensions of variable `v` of the class.
    pub(crate) fn dims_of(&self, v: usize) -> Vec<Expr> {
        self.dims
            .get(&v)
            .cloned()
            .unwrap_or_else(|| self.model.vars[v].dims.clone())
    }
}

impl Scope<'_> {
    /// The class (or function) whose names these are.
    pub fn class_id(&self) -> ClassId {
        self.model.id
    }

    pub fn push_loop(&mut self, index: &str) {
        self.loops.push(index.to_string());
    }

    pub fn pop_loop(&mut self) {
        self.loops.pop();
    }

    /// The variables of record variable `name` that hold `fields`, in that
    /// order, when it has them all.
    pub fn record_fields(&self, name: &str, fields: &[String]) -> Option<Vec<usize>> {
        fields
            .iter()
            .map(|f| self.vars.get(format!("{name}.{f}").as_str()).copied())
            .collect()
    }

    /// Whether `name` is a record variable (its fields are `name.…`).
    pub(crate) fn is_record(&self, name: &str) -> bool {
        let prefix = format!("{name}.");
        self.model.vars.iter().any(|v| v.name.starts_with(&prefix))
    }
}
