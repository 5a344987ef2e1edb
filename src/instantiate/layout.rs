//! Layout of an instance's Real variables in `R`: shapes from the Integer
//! parameters, one element after another, the derivatives of the states
//! after the instance's own variables.

use std::sync::Arc;

use super::builder::{Builder, Effective, VarTexts};
use super::system::{
    Balance, RealKind, RealVar, EXPORT_BYTES_PER_REAL, EXPORT_MEMORY_CAP, MAX_ARRAY_LEN, MAX_REALS,
};
use super::values::fold_literal;
use crate::classdb::ClassEntry;
use crate::diagnostic::Diagnostic;
use crate::resolve::model::{element_name, Tearing};
use crate::resolve::tree::Builtin;

impl Builder<'_, '_> {
    /// The texts of variable `vi` of instance `me`'s class, made on the
    /// first instance of the class.
    fn var_texts(&mut self, me: usize, entry: &ClassEntry, vi: usize) -> VarTexts {
        let class = self.sys.instances[me].class;
        if self.texts.len() <= class {
            self.texts.resize(class + 1, Vec::new());
        }
        let per_class = &mut self.texts[class];
        if per_class.len() < entry.model.vars.len() {
            per_class.resize(entry.model.vars.len(), None);
        }
        per_class[vi]
            .get_or_insert_with(|| {
                let v = &entry.model.vars[vi];
                let text = |t: &Option<String>| t.as_deref().map(Arc::<str>::from);
                VarTexts {
                    unit: text(&v.attrs.unit),
                    display_unit: text(&v.attrs.display_unit),
                    quantity: text(&v.attrs.quantity),
                    description: text(&v.description),
                    derivative_unit: v.attrs.unit.as_ref().map(|u| Arc::from(derivative_unit(u))),
                }
            })
            .clone()
    }

    /// Lays out Real variable `vi` of the instance: its elements in `R`,
    /// each with its kind and start value. `false` when the model has
    /// grown too large to go on (MX007).
    pub(crate) fn real_variable(
        &mut self,
        me: usize,
        entry: &ClassEntry,
        vi: usize,
        effective: &Effective,
    ) -> bool {
        let v = &entry.model.vars[vi];
        let (shape, len) = self.shape(me, entry, vi);
        if self.sys.reals.len().saturating_add(len) > MAX_REALS {
            if !self.too_large {
                self.too_large = true;
                let decl_span = self.sys.instances[me].decl_span;
                self.diags.push(
                    Diagnostic::error(
                        "MX007",
                        decl_span.unwrap_or(v.span),
                        format!(
                            "the model would have more than {MAX_REALS} Real variables (`{}` alone has {len}); exporting it would take more than {} GiB",
                            self.dotted(me, &v.name),
                            EXPORT_MEMORY_CAP >> 30
                        ),
                    )
                    .with_label("model too large")
                    .with_help(format!("reduce the array sizes: an export takes about {EXPORT_BYTES_PER_REAL} bytes per Real variable")),
                );
            }
            return false;
        }
        let offset = self.sys.reals.len();
        self.sys.instances[me].var_offset[vi] = Some(offset);
        self.sys.instances[me].var_len[vi] = len;
        let (kind, mut starts, calcs) = self.kind_and_starts(me, entry, vi, len, effective);
        if !self.element_sets.is_empty() {
            self.apply_element_sets(me, &entry.model.vars[vi], vi, &shape, kind, &mut starts);
        }
        if v.tearing == Some(Tearing::Balance) {
            // A declared tearing's residual is the variable just before
            // its balance.
            debug_assert_eq!(entry.model.vars[vi - 1].tearing, Some(Tearing::Residual));
            let residual = self.sys.instances[me].var_offset[vi - 1]
                .expect("a LinearResponse declares its residual before its balance");
            self.sys.balances.push(Balance {
                balance: offset,
                residual,
                name: self.dotted(me, v.name.trim_end_matches(".balance")),
            });
        }
        let VarTexts {
            unit,
            display_unit,
            quantity,
            description,
            ..
        } = self.var_texts(me, entry, vi);
        let v = &entry.model.vars[vi];
        let path = &self.sys.instances[me].path;
        let (min, max) = (fold_literal(&v.attrs.min), fold_literal(&v.attrs.max));
        let nominal = fold_literal(&v.attrs.nominal);
        // A start value computed from an Integer parameter keeps its
        // program where the program gives it (an element `--set` replaced
        // has none).
        for (e, calc) in calcs.into_iter().enumerate() {
            if let (Some(calc), Some(start)) = (calc, starts[e]) {
                if crate::ir::calc_value(&calc).map(f64::to_bits) == Some(start.to_bits()) {
                    self.sys.start_calcs.push((offset + e, calc));
                }
            }
        }
        let discrete_time = entry.causalized.causal.clocked_vars.contains(&vi)
            || (v.special.discrete && v.ty == Builtin::Real);
        for (e, start) in starts.into_iter().enumerate() {
            self.sys.reals.push(RealVar {
                name: element_name(path, &v.name, &shape, e),
                kind,
                start,
                unit: unit.clone(),
                display_unit: display_unit.clone(),
                quantity: quantity.clone(),
                description: description.clone(),
                min,
                max,
                nominal,
                derivative_of: None,
                discrete: v.discrete(),
                discrete_time,
            });
            if v.special.state {
                self.sys.states.push(offset + e);
            }
        }
        true
    }

    /// The shape of variable `vi` in this instance and its number of
    /// elements; a size below 1 or above [`MAX_ARRAY_LEN`] is reported
    /// (MX004) and taken as 1.
    fn shape(&mut self, me: usize, entry: &ClassEntry, vi: usize) -> (Vec<usize>, usize) {
        let v = &entry.model.vars[vi];
        // In a component, the declaration that sets the size; in the model
        // itself, the array.
        let at = self.sys.instances[me].decl_span.unwrap_or(v.span);
        let name = self.dotted(me, &v.name);
        let mut shape = Vec::new();
        for d in &entry.causalized.causal.dims[vi] {
            let n = d.eval(&self.sys.instances[me].ints);
            if n < 1 {
                self.diags.push(
                    Diagnostic::error(
                        "MX004",
                        at,
                        format!("`{name}` would have size {n}; array sizes must be at least 1"),
                    )
                    .with_label("size below 1")
                    .with_help("give the size parameter a positive value"),
                );
                shape.push(1);
            } else if n > MAX_ARRAY_LEN {
                self.diags.push(
                    Diagnostic::error(
                        "MX004",
                        at,
                        format!(
                            "`{name}` would have size {n}; arrays are limited to {MAX_ARRAY_LEN} elements"
                        ),
                    )
                    .with_label("size too large")
                    .with_help("give the size parameter a smaller value"),
                );
                shape.push(1);
            } else {
                shape.push(n as usize);
            }
        }
        // Several large dimensions together are bounded the same way.
        let len = match shape
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_mul(d))
            .filter(|&l| l as i64 <= MAX_ARRAY_LEN)
        {
            Some(l) => l,
            None => {
                self.diags.push(
                    Diagnostic::error(
                        "MX004",
                        at,
                        format!("`{name}` would have more than {MAX_ARRAY_LEN} elements"),
                    )
                    .with_label("size too large")
                    .with_help("give the size parameters smaller values"),
                );
                1
            }
        };
        (shape, len)
    }

    /// The derivatives of the instance's states, after its own variables.
    pub(crate) fn state_derivatives(&mut self, me: usize, entry: &ClassEntry) {
        for (vi, v) in entry.model.vars.iter().enumerate() {
            if !(v.special.state && v.ty == Builtin::Real) {
                continue;
            }
            let len = self.sys.instances[me].var_len[vi];
            let state_offset = self.sys.instances[me].var_offset[vi].expect("states are Real");
            let offset = self.sys.reals.len();
            self.sys.instances[me].der_offset[vi] = Some(offset);
            let unit = self.var_texts(me, entry, vi).derivative_unit;
            for e in 0..len {
                let base = &self.sys.reals[state_offset + e].name;
                self.sys.reals.push(RealVar {
                    name: format!("der({base})"),
                    kind: RealKind::Derivative,
                    start: None,
                    unit: unit.clone(),
                    display_unit: None,
                    quantity: None,
                    description: None,
                    min: None,
                    max: None,
                    nominal: None,
                    derivative_of: Some(state_offset + e),
                    discrete: None,
                    discrete_time: false,
                });
                self.sys.derivatives.push(offset + e);
            }
        }
    }
}

/// The unit of a derivative: `unit/s`, written simply.
fn derivative_unit(u: &str) -> String {
    if u == "1" || u.is_empty() {
        "1/s".into()
    } else if u.contains('/') {
        format!("{u}.s-1")
    } else {
        format!("{u}/s")
    }
}
