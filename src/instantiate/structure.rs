//! What the instantiation decides per instance from a class's structure:
//! how many elements each array of components has, whether each
//! conditional component is present, and the `inner` instance every
//! `outer` world refers to. None of it enters a class's kernel.

use super::builder::{Builder, Purpose};
use super::system::MAX_ARRAY_LEN;
use crate::classdb::ClassEntry;
use crate::diagnostic::Diagnostic;
use crate::ir::{Ex, SlotKind};
use crate::resolve::model::ClassVariability;
use crate::resolve::model::OuterDecl;
use crate::resolve::tree::Builtin;

impl Builder<'_, '_> {
    /// The instances component `k` of instance `me` has: `None` when it is
    /// a conditional component whose condition is false, `Some(None)` for
    /// one component, `Some(Some(shape))` for an array of components with
    /// the size of each dimension (`cap[n, m]`: `[n, m]`); its elements are
    /// laid out row-major, the last index varying fastest.
    pub(crate) fn element_count(
        &mut self,
        me: usize,
        entry: &ClassEntry,
        k: usize,
    ) -> Option<Option<Vec<usize>>> {
        let structure = &entry.causalized.structure;
        let sub = &entry.model.subs[k];
        let ints = &self.sys.instances[me].ints;
        let name = self.dotted(me, &sub.name);
        if let Some(Some(c)) = structure.sub_conditions.get(k) {
            match eval(c, ints, &[]) {
                Some(0.0) => return None,
                Some(_) => {}
                None => {
                    self.diags
                        .push(unknown_at_export(sub.span, &name, "condition"));
                    return None;
                }
            }
        }
        let dims = match structure.sub_dims.get(k) {
            Some(d) if !d.is_empty() => d,
            _ => return Some(None),
        };
        let mut shape = Vec::with_capacity(dims.len());
        for d in dims {
            let Some(n) = eval(d, ints, &[]) else {
                self.diags.push(unknown_at_export(sub.span, &name, "size"));
                return None;
            };
            if n.fract() != 0.0 || !(0.0..=MAX_ARRAY_LEN as f64).contains(&n) {
                let what = if dims.len() == 1 {
                    format!("would have {n} elements")
                } else {
                    format!("would have {n} elements in dimension {}", shape.len() + 1)
                };
                self.diags.push(
                    Diagnostic::error(
                        "MX025",
                        sub.span,
                        format!("the array of components `{name}` {what}"),
                    )
                    .with_label("not a valid number of components")
                    .with_help(format!(
                        "give the size a whole number from 0 to {MAX_ARRAY_LEN}"
                    )),
                );
                return None;
            }
            shape.push(n as usize);
        }
        let total = shape
            .iter()
            .try_fold(1usize, |t, n| t.checked_mul(*n))
            .filter(|t| *t as f64 <= MAX_ARRAY_LEN as f64);
        if total.is_none() {
            let sizes: Vec<String> = shape.iter().map(|n| n.to_string()).collect();
            self.diags.push(
                Diagnostic::error(
                    "MX025",
                    sub.span,
                    format!(
                        "the array of components `{name}[{}]` would have more than {MAX_ARRAY_LEN} elements",
                        sizes.join(", ")
                    ),
                )
                .with_label("too many components")
                .with_help(format!(
                    "keep the product of the sizes at most {MAX_ARRAY_LEN}"
                )),
            );
            return None;
        }
        Some(Some(shape))
    }

    /// The conditional connectors of instance `me` whose condition is
    /// false, and their variables (MC123 when a condition cannot be
    /// evaluated, as for a conditional component).
    pub(crate) fn absent_connectors(&mut self, me: usize, entry: &ClassEntry) {
        let conditions = &entry.causalized.structure.connector_conditions;
        for (c, cond) in conditions.iter().enumerate() {
            let Some(cond) = cond else {
                continue;
            };
            let present = match eval(cond, &self.sys.instances[me].ints, &[]) {
                Some(v) => v != 0.0,
                None => {
                    let decl = &entry.model.connectors[c];
                    let name = self.dotted(me, &decl.name);
                    self.diags
                        .push(unknown_at_export(decl.span, &name, "condition"));
                    continue;
                }
            };
            if present {
                continue;
            }
            self.sys.instances[me].absent_connectors.push(c);
            for m in &entry.model.connectors[c].members {
                let inst = &self.sys.instances[me];
                if let Some(off) = inst.var_offset[m.var] {
                    let len = inst.var_len[m.var].max(1);
                    self.sys.absent_reals.extend(off..off + len);
                }
            }
        }
    }

    /// MX026 at each `outer` of instance `me` that no enclosing instance
    /// declares an `inner` for (before the component, by the rule of no
    /// look-ahead), when the model is exported. Checked as a component, a
    /// class takes its outer parameters as its own.
    pub(crate) fn check_outers(&mut self, me: usize, entry: &ClassEntry) {
        if self.purpose == Purpose::Check {
            return;
        }
        for o in &entry.model.outers {
            if self.find_inner(me, o).is_none() {
                let path = self.sys.instances[me].path.clone();
                let within = if path.is_empty() {
                    "the exported model".to_string()
                } else {
                    format!("`{path}`")
                };
                self.diags.push(
                    Diagnostic::error(
                        "MX026",
                        o.span,
                        format!(
                            "`outer {}` of {within} has no `inner {}` of class `{}` in an enclosing model",
                            o.name,
                            o.name,
                            self.db.tree().get(o.class).qualified
                        ),
                    )
                    .with_label("no inner for this outer")
                    .with_help(format!(
                        "declare `inner {} {}(...);` in the model that uses this component, before the component",
                        self.db.tree().get(o.class).name,
                        o.name
                    )),
                );
            }
        }
    }

    /// The `inner` instance the outer `o` of instance `me` refers to: the
    /// component of that name declared `inner` in the nearest enclosing
    /// instance, already instantiated, whose class has every variable of
    /// the outer's class.
    fn find_inner(&self, me: usize, o: &OuterDecl) -> Option<usize> {
        let instances = &self.sys.instances;
        let mut at = instances[me].parent;
        while let Some(p) = at {
            let class = &self.sys.classes[instances[p].class].model;
            if let Some(k) = class.subs.iter().position(|s| s.inner && s.name == o.name) {
                let inner = instances[p].subs[k]?;
                let inner_class = &self.sys.classes[instances[inner].class].model;
                let world = self.db.elaborated_model(o.class)?;
                return world
                    .vars
                    .iter()
                    .all(|v| inner_class.var(&v.name).is_some())
                    .then_some(inner);
            }
            at = instances[p].parent;
        }
        None
    }

    /// The inner instance and its variable that variable `vi` of instance
    /// `me` stands for, if `vi` is a variable of an outer with an inner.
    fn inner_var(&self, me: usize, entry: &ClassEntry, vi: usize) -> Option<(usize, usize)> {
        let (o, _) = entry.model.outer_of(vi)?;
        let inner = self.find_inner(me, o)?;
        let name = entry.model.vars[vi]
            .name
            .strip_prefix(&format!("{}.", o.name))?;
        let class = &self.sys.classes[self.sys.instances[inner].class].model;
        Some((inner, class.var(name)?))
    }

    /// Lays out Real variable `vi` of instance `me` as the inner's
    /// variable when it stands for one (the outer parameter is the same
    /// value in `R`, so whoever sets the inner's sets it); false when it is
    /// not an outer's or has no inner (then it is laid out as a parameter
    /// of its own).
    pub(crate) fn outer_real(&mut self, me: usize, entry: &ClassEntry, vi: usize) -> bool {
        let Some((inner, var)) = self.inner_var(me, entry, vi) else {
            return false;
        };
        let (off, len) = {
            let i = &self.sys.instances[inner];
            (i.var_offset[var], i.var_len[var])
        };
        let Some(off) = off else {
            return false;
        };
        self.sys.instances[me].var_offset[vi] = Some(off);
        self.sys.instances[me].var_len[vi] = len;
        true
    }

    /// Lays out parameter `vi` of instance `me`, an element of an array of
    /// components, as the parent's Real parameter its modifier names
    /// (`cap[n](each C = Ca)`, or `C = Cs` one element each): the same
    /// value in `R`, so an importer that sets `Ca` sets every element's.
    /// False when the modifier is not such a name (then the element's
    /// value is laid out as its own).
    pub(crate) fn parameter_alias(
        &mut self,
        me: usize,
        entry: &ClassEntry,
        vi: usize,
        effective: &super::builder::Effective,
    ) -> bool {
        if !scalar_parameter(&entry.model.vars[vi]) {
            return false;
        }
        let Some(inc) = effective.get(&(vi, false)) else {
            return false;
        };
        let (Some((o, _)), Some((e, n))) = (inc.origin, inc.element) else {
            return false;
        };
        let parent = &self.sys.instances[o];
        let slots = &self.sys.classes[parent.class].causalized.causal.slots;
        let at = |slot: usize, index: i64| -> Option<usize> {
            let SlotKind::Own(var) = slots.get(slot)?.kind else {
                return None;
            };
            let len = parent.var_len.get(var).copied()?;
            let k = usize::try_from(index - 1).ok().filter(|k| *k < len)?;
            Some(parent.var_offset.get(var).copied()?? + k)
        };
        let offset = match inc.value.as_slice() {
            [Ex::Var(slot, None)] => at(*slot, 1),
            values if values.len() == n => match &values[e] {
                Ex::Var(slot, Some(index)) => match index.as_ref() {
                    Ex::Int(i) => at(*slot, *i),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        let Some(offset) = offset else {
            return false;
        };
        self.alias(me, vi, offset)
    }

    /// Lays out parameter `vi` of instance `me` as the outer parameter its
    /// own binding names (`extends HeatCapacitor(C = p.Ca)` with `outer
    /// Params p`): the same value in `R`, as [`Self::parameter_alias`] does
    /// for `each C = Ca`, so every element of an array of such components
    /// reads one slot (the compiled loops read it once per tile) and an
    /// importer that sets the inner's `p.Ca` sets them all. False when a
    /// modifier or a `--set` overrides the binding, when the binding is
    /// not such a name, or when the outer has no inner laid out yet (then
    /// the parameter is laid out as its own, calculated at
    /// initialisation).
    pub(crate) fn outer_binding_alias(
        &mut self,
        me: usize,
        entry: &ClassEntry,
        vi: usize,
        effective: &super::builder::Effective,
    ) -> bool {
        let v = &entry.model.vars[vi];
        if !scalar_parameter(v)
            || v.ty != Builtin::Real
            || effective.contains_key(&(vi, false))
            || self.element_sets.iter().any(|inc| inc.var == vi)
        {
            return false;
        }
        let causalized = &entry.causalized;
        let Some((_, value)) = causalized.bindings.iter().find(|(b, _)| *b == vi) else {
            return false;
        };
        let [Ex::Var(slot, None)] = value.as_slice() else {
            return false;
        };
        let Some(&SlotKind::Own(target)) = causalized.causal.slots.get(*slot).map(|s| &s.kind)
        else {
            return false;
        };
        let t = &entry.model.vars[target];
        if target == vi
            || !scalar_parameter(t)
            || t.ty != Builtin::Real
            || entry.model.outer_of(target).is_none()
        {
            return false;
        }
        let inst = &self.sys.instances[me];
        let (Some(Some(offset)), Some(1)) = (
            inst.var_offset.get(target).copied(),
            inst.var_len.get(target).copied(),
        ) else {
            return false;
        };
        self.alias(me, vi, offset)
    }

    /// Lays out variable `vi` of instance `me` as the one real at `offset`
    /// that it shares ([`Self::parameter_alias`], [`Self::outer_binding_alias`]).
    fn alias(&mut self, me: usize, vi: usize, offset: usize) -> bool {
        self.sys.instances[me].var_offset[vi] = Some(offset);
        self.sys.instances[me].var_len[vi] = 1;
        true
    }

    /// The value of Integer or Boolean parameter `vi` of instance `me` when
    /// it stands for an outer's: `Some(value)` from the inner (0 when there
    /// is none, reported by [`Builder::check_outers`]), `None` when it is
    /// not an outer's.
    pub(crate) fn outer_int(&self, me: usize, entry: &ClassEntry, vi: usize) -> Option<i64> {
        entry.model.outer_of(vi)?;
        let Some((inner, var)) = self.inner_var(me, entry, vi) else {
            return Some(0);
        };
        let inst = &self.sys.instances[inner];
        let class = &self.sys.classes[inst.class].causalized.causal;
        let k = class.int_params.iter().position(|p| p.var == var)?;
        Some(inst.ints.get(k).copied().unwrap_or(0))
    }
}

/// Whether `v` is a parameter with no dimensions: one value that another
/// variable may share.
fn scalar_parameter(v: &crate::resolve::model::Var) -> bool {
    v.variability == ClassVariability::Parameter && v.dims.is_empty()
}

/// MC123's twin at export: a size or condition that does not evaluate.
fn unknown_at_export(span: crate::source::Span, name: &str, what: &str) -> Diagnostic {
    Diagnostic::error(
        "MC123",
        span,
        format!("the {what} of `{name}` cannot be computed at export"),
    )
    .with_label("not a structural value")
    .with_help("use literals and Integer/Boolean parameters that have values")
}

/// Evaluates a structural expression with the instance's Integer
/// parameters and the values of the loop indices around it.
pub(crate) fn eval(e: &Ex, ints: &[i64], loops: &[i64]) -> Option<f64> {
    fn subst(e: &Ex, loops: &[i64]) -> Option<Ex> {
        Some(match e {
            Ex::LoopVar(d) => Ex::Int(*loops.get(*d)?),
            Ex::Neg(a) => Ex::Neg(Box::new(subst(a, loops)?)),
            Ex::Not(a) => Ex::Not(Box::new(subst(a, loops)?)),
            Ex::Bin(op, a, b) => {
                Ex::Bin(*op, Box::new(subst(a, loops)?), Box::new(subst(b, loops)?))
            }
            Ex::Rel(op, a, b, k) => Ex::Rel(
                *op,
                Box::new(subst(a, loops)?),
                Box::new(subst(b, loops)?),
                *k,
            ),
            Ex::Call(f, args) => Ex::Call(
                *f,
                args.iter()
                    .map(|a| subst(a, loops))
                    .collect::<Option<_>>()?,
            ),
            Ex::If(bs, el) => Ex::If(
                bs.iter()
                    .map(|(c, v)| Some((subst(c, loops)?, subst(v, loops)?)))
                    .collect::<Option<_>>()?,
                Box::new(subst(el, loops)?),
            ),
            // A reduction reads variables: it never folds at export.
            Ex::Reduce(..) => return None,
            other => other.clone(),
        })
    }
    if loops.is_empty() {
        return e.fold(ints);
    }
    subst(e, loops)?.fold(ints)
}
