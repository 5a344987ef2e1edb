//! Inferred units written into an instantiated system, from the unit
//! signatures of its classes (checked once per class, kept in the class
//! database): what `modelDescription.xml` declares for every Real variable
//! that does not declare a unit itself.

use std::collections::HashSet;
use std::sync::Arc;

use super::system::System;
use crate::units::infer::UnitSignatures;
use crate::units::report::{instance_params, named};
use crate::units::term::{Dim, Term};

/// Gives every Real variable of the system whose unit is inferred that
/// unit (declared units are already there), derivatives included.
pub fn annotate_units(sys: &mut System, signatures: &UnitSignatures) {
    let Some(root_class) = sys.instances.first().map(|i| sys.classes[i.class].model.id) else {
        return;
    };
    let Some(root) = signatures.get(root_class).cloned() else {
        return;
    };
    let mut inst_params: Vec<Option<Vec<Term>>> = Vec::with_capacity(sys.instances.len());
    // One allocation per distinct unit, shared by every variable that has it.
    let mut interned: HashSet<Arc<str>> = HashSet::new();
    for i in 0..sys.instances.len() {
        let inst = &sys.instances[i];
        let class = sys.classes[inst.class].model.id;
        let Some(cu) = signatures.get(class).cloned() else {
            inst_params.push(None);
            continue;
        };
        let params = match inst.parent {
            None => Some((0..cu.params.len()).map(Term::unknown).collect()),
            Some(p) => {
                let parent_class = sys.classes[sys.instances[p].class].model.id;
                let name = inst.path.rsplit('.').next().unwrap_or(inst.path.as_str());
                match (signatures.get(parent_class), &inst_params[p]) {
                    (Some(pcu), Some(pp)) => pcu
                        .subs
                        .iter()
                        .enumerate()
                        .find(|(_, s)| s.name == name)
                        .map(|(j, s)| instance_params(&cu, s.params.as_deref(), pp, j)),
                    _ => None,
                }
            }
        };
        if let Some(ps) = &params {
            for (vi, term) in cu.vars.iter().enumerate() {
                let Some(term) = term else { continue };
                let t = term.substitute(&|k| ps[k].clone());
                let inst = &sys.instances[i];
                let len = inst.var_len[vi];
                if cu.declared[vi].is_none() {
                    if let (Some(off), (Some(unit), _)) = (inst.var_offset[vi], named(&root, &t)) {
                        let unit = intern(&mut interned, &unit);
                        for r in &mut sys.reals[off..off + len] {
                            r.unit = Some(unit.clone());
                        }
                    }
                }
                if let Some(off) = inst.der_offset[vi] {
                    let (unit, _) = named(&root, &t.div(&Term::constant(Dim::seconds())));
                    let unit = unit.map(|u| intern(&mut interned, &u));
                    for r in &mut sys.reals[off..off + len] {
                        r.unit = unit.clone();
                    }
                }
            }
        }
        inst_params.push(params);
    }
}

/// The shared copy of `unit`, made on its first use.
fn intern(interned: &mut HashSet<Arc<str>>, unit: &str) -> Arc<str> {
    if let Some(u) = interned.get(unit) {
        return u.clone();
    }
    let u: Arc<str> = Arc::from(unit);
    interned.insert(u.clone());
    u
}
