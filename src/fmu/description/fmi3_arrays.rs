//! FMI 3.0 arrays: the runs of the [`ModelTable`] that are the elements of
//! one one-dimensional Real array (`rod.T[1]` … `rod.T[n]`, and
//! `der(rod.T[1])` … `der(rod.T[n])`), which the FMI 3.0 description
//! declares as one `<Float64>` with a `<Dimension>` and one value reference
//! (the first element's index in `R`: the elements are contiguous there).
//!
//! A run is an array only when declaring it whole says exactly what its
//! elements said one by one: the elements are numbered 1…n in table order
//! with consecutive value references, share every attribute but the start
//! value (a start becomes a list), play the same role in `ModelStructure`
//! (all or none an output, a derivative, an initial unknown, listed
//! consecutively so that the state vector keeps its order), and a
//! derivative array's elements are the derivatives of one state array's
//! elements, in order. Anything else stays scalars: matrices (`A[1,2]`),
//! Integer and Boolean arrays, and members of component arrays' elements
//! (`cap[1].T`) unless a structural parameter sizes the component array:
//! then each member is a *member array* (`cap.T`: `cap[1].T`, `cap[2].T`, …
//! a stride m apart in the table and in `R`, m the Reals per element), under
//! the same rules with "consecutive" read as "m apart" (and, in the outputs
//! and initial unknowns, "in element order": there the members of one
//! element come together). Without a structural parameter the grouping is
//! what it was before member arrays, byte for byte.
//!
//! The runtime learns the arrays from `resources/mofmu_fmi3.bin`
//! ([`resource`]), written from the same grouping, so the description and
//! the runtime cannot disagree.

use super::table::{ModelTable, VariableType};
use crate::fmu::image::system_image::fnv1a;

/// The name of the FMI 3 resource under `resources/`.
pub const RESOURCE_NAME: &str = "mofmu_fmi3.bin";
const MAGIC: &[u8; 8] = b"MOFMUFM3";
const VERSION: u32 = 1;
/// The version with a stride per array (written only when one is not 1).
const VERSION_STRIDED: u32 = 2;

/// One array: table variables `first + k·stride` for `k < len`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrayGroup {
    pub first: usize,
    pub len: usize,
    /// The array's name: the element's name without its index
    /// (`rod.T`, `der(rod.T)`; a member array's `cap.T`, `der(cap.T)`).
    pub name: String,
    /// The distance between consecutive elements, in the table and in
    /// value references alike: 1 for an array of Reals, the number of
    /// Reals per instance for a member array (`cap[k].T`).
    pub stride: usize,
}

impl ArrayGroup {
    /// The elements' table indices, in element order.
    pub fn elements(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len).map(move |k| self.first + k * self.stride)
    }
}

/// The arrays of a table and, per variable, the array it belongs to.
#[derive(Debug, Clone, Default)]
pub struct Arrays {
    pub groups: Vec<ArrayGroup>,
    /// Per table variable: its group's index, or [`NOT_IN_ARRAY`].
    member: Vec<u32>,
}

/// [`Arrays::group_of`] of a scalar.
const NOT_IN_ARRAY: u32 = u32::MAX;

impl Arrays {
    /// The group of table variable `i`, if it is an array's element.
    pub fn group_of(&self, i: usize) -> Option<usize> {
        match self.member.get(i) {
            Some(&g) if g != NOT_IN_ARRAY => Some(g as usize),
            _ => None,
        }
    }

    /// Whether table variable `i` is an array's first element (the one that
    /// stands for the array in the description).
    pub fn starts_group(&self, i: usize) -> Option<&ArrayGroup> {
        self.group_of(i)
            .map(|g| &self.groups[g])
            .filter(|g| g.first == i)
    }

    /// The table variable that represents `i` in the description: its
    /// array's first element, or itself.
    pub fn representative(&self, i: usize) -> usize {
        self.group_of(i).map_or(i, |g| self.groups[g].first)
    }
}

/// Groups the table's array elements (see the module's documentation),
/// with the member arrays the table's structural parameter sizes.
pub fn arrays(table: &ModelTable) -> Arrays {
    let sized = table
        .structural
        .as_ref()
        .map_or(&[][..], |s| s.varying.as_slice());
    arrays_sized(table, sized)
}

/// [`arrays`], with member arrays (`cap.T`: `cap[1].T`, `cap[2].T`, … at a
/// stride) only where the first element's value reference is in `sized`:
/// those of a structural parameter. Without one a member of a component
/// array stays scalars, so a description without a structural parameter
/// is what it was before member arrays.
pub fn arrays_sized(table: &ModelTable, sized: &[u32]) -> Arrays {
    let mut candidates = candidate_runs(table);
    if !sized.is_empty() {
        candidates.extend(member_runs(table, sized));
        candidates.sort_by_key(|g| g.first);
    }
    let mut member = vec![NOT_IN_ARRAY; table.variables.len()];
    let mut groups: Vec<Option<ArrayGroup>> = Vec::new();
    for g in candidates {
        if uniform(table, &g) {
            for i in g.elements() {
                member[i] = groups.len() as u32;
            }
            groups.push(Some(g));
        }
    }
    keep_roles(table, &mut groups, &mut member);
    link_derivatives(table, &mut groups, &mut member);
    // Renumber the groups that are left.
    let mut arrays = Arrays {
        groups: Vec::new(),
        member: vec![NOT_IN_ARRAY; table.variables.len()],
    };
    for g in groups.into_iter().flatten() {
        let k = arrays.groups.len() as u32;
        for i in g.elements() {
            arrays.member[i] = k;
        }
        arrays.groups.push(g);
    }
    arrays
}

/// `resources/mofmu_fmi3.bin`: the arrays by value reference and length,
/// for the runtime (`templates/mofmu_fmi3_arrays.inc`). Layout, little-endian:
/// `"MOFMUFM3" u32 version u32 count { u32 vr u32 length }` (ascending
/// value references) `u64 FNV-1a` of every byte before it. When a member
/// array exists (stride above 1) the version is 2 and each entry has a
/// third `u32 stride`; otherwise the file is version 1 as it always was.
pub fn resource(table: &ModelTable, arrays: &Arrays) -> Vec<u8> {
    let mut entries: Vec<(u32, u32, u32)> = arrays
        .groups
        .iter()
        .map(|g| {
            (
                table.variables[g.first].value_reference,
                g.len as u32,
                g.stride as u32,
            )
        })
        .collect();
    entries.sort_unstable();
    let strided = entries.iter().any(|e| e.2 != 1);
    let version = if strided { VERSION_STRIDED } else { VERSION };
    let mut bytes = Vec::with_capacity(24 + 12 * entries.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&version.to_le_bytes());
    bytes.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    for (vr, len, stride) in entries {
        bytes.extend_from_slice(&vr.to_le_bytes());
        bytes.extend_from_slice(&len.to_le_bytes());
        if strided {
            bytes.extend_from_slice(&stride.to_le_bytes());
        }
    }
    let sum = fnv1a(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    bytes
}

/// The element's array name and index: `rod.T[3]` is (`rod.T`, 3),
/// `der(rod.T[3])` is (`der(rod.T)`, 3). Anything else (a matrix element,
/// a member of a component array's element) is no element.
fn element(name: &str) -> Option<(String, u64)> {
    let (body, closing) = match name.strip_prefix("der(") {
        Some(inner) => (inner.strip_suffix(')')?, ")"),
        None => (name, ""),
    };
    let inner = body.strip_suffix(']')?;
    let open = inner.rfind('[')?;
    let index = &inner[open + 1..];
    if index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let base = &inner[..open];
    if base.is_empty() {
        return None;
    }
    let prefix = if closing.is_empty() { "" } else { "der(" };
    Some((format!("{prefix}{base}{closing}"), index.parse().ok()?))
}

/// The maximal runs of Real elements `x[1]`, `x[2]`, … in table order with
/// consecutive value references, whose name no other variable has.
fn candidate_runs(table: &ModelTable) -> Vec<ArrayGroup> {
    let vars = &table.variables;
    let mut runs = Vec::new();
    let mut i = 0;
    while i < vars.len() {
        let start = match (&vars[i].ty, element(&vars[i].name)) {
            (VariableType::Real { .. }, Some((name, 1))) => name,
            _ => {
                i += 1;
                continue;
            }
        };
        let mut j = i + 1;
        while j < vars.len()
            && matches!(vars[j].ty, VariableType::Real { .. })
            && vars[j].value_reference == vars[j - 1].value_reference + 1
            && element(&vars[j].name).is_some_and(|(n, k)| n == start && k == (j - i + 1) as u64)
        {
            j += 1;
        }
        runs.push(ArrayGroup {
            first: i,
            len: j - i,
            name: start,
            stride: 1,
        });
        i = j;
    }
    // An array's name must not be another variable's, and one array name
    // may not be split into two runs.
    let mut count = std::collections::HashMap::new();
    for r in &runs {
        *count.entry(r.name.as_str()).or_insert(0usize) += 1;
    }
    let taken: std::collections::HashSet<&str> = vars
        .iter()
        .filter(|v| count.contains_key(v.name.as_str()))
        .map(|v| v.name.as_str())
        .collect();
    let keep: Vec<bool> = runs
        .iter()
        .map(|r| count[r.name.as_str()] == 1 && !taken.contains(r.name.as_str()))
        .collect();
    runs.into_iter()
        .zip(keep)
        .filter_map(|(r, k)| k.then_some(r))
        .collect()
}

/// A member of a component array's element and its index: `cap[3].T` is
/// (`cap`, `.T`, 3) and `der(cap[3].T)` is (`der(cap`, `.T)`, 3): the
/// array's name is the two joined (`cap.T`, `der(cap.T)`). The name must
/// have exactly one index, with something after it.
fn member_element(name: &str) -> Option<(&str, &str, u64)> {
    let open = name.find('[')?;
    let close = open + name[open..].find(']')?;
    let (prefix, index, suffix) = (&name[..open], &name[open + 1..close], &name[close + 1..]);
    if prefix.is_empty()
        || prefix == "der("
        || !suffix.starts_with('.')
        || suffix.len() < 2
        || suffix.contains(['[', ']'])
        || index.is_empty()
        || !index.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    Some((prefix, suffix, index.parse().ok()?))
}

/// The member arrays: Real variables `p[1]s`, `p[2]s`, … `p[L]s` whose table
/// indices and value references both step by one stride m > 1, starting at
/// a value reference in `sized`, whose name no other variable has.
fn member_runs(table: &ModelTable, sized: &[u32]) -> Vec<ArrayGroup> {
    let vars = &table.variables;
    let sized: std::collections::HashSet<u32> = sized.iter().copied().collect();
    let names: std::collections::HashMap<&str, usize> = vars
        .iter()
        .enumerate()
        .map(|(i, v)| (v.name.as_str(), i))
        .collect();
    let is_real = |i: usize| matches!(vars[i].ty, VariableType::Real { .. });
    let mut runs = Vec::new();
    for (i, v) in vars.iter().enumerate() {
        if !is_real(i) || !sized.contains(&v.value_reference) {
            continue;
        }
        let Some((prefix, suffix, 1)) = member_element(&v.name) else {
            continue;
        };
        let Some(&j) = names.get(format!("{prefix}[2]{suffix}").as_str()) else {
            continue;
        };
        // A stride m of the Reals per element (element by element), or 1
        // (the arrays of components laid out by column).
        let m = j.wrapping_sub(i);
        if j <= i || !is_real(j) || vars[j].value_reference != v.value_reference + m as u32 {
            continue;
        }
        let mut len = 2;
        loop {
            let at = i + len * m;
            if at >= vars.len()
                || !is_real(at)
                || vars[at].value_reference != v.value_reference + (len * m) as u32
                || vars[at].name != format!("{prefix}[{}]{suffix}", len + 1)
            {
                break;
            }
            len += 1;
        }
        let name = format!("{prefix}{suffix}");
        if names.contains_key(name.as_str()) {
            continue;
        }
        runs.push(ArrayGroup {
            first: i,
            len,
            name,
            stride: m,
        });
    }
    runs
}

/// Whether the run's elements share every attribute the array declares
/// once (all but the start, which must be given for all or none).
fn uniform(table: &ModelTable, g: &ArrayGroup) -> bool {
    let a = &table.variables[g.first];
    let has_start =
        |v: &super::table::ModelVariable| matches!(v.ty, VariableType::Real { start: Some(_) });
    g.elements().enumerate().all(|(k, i)| {
        let v = &table.variables[i];
        v.causality == a.causality
            && v.variability == a.variability
            && v.initial == a.initial
            && v.description == a.description
            && v.unit == a.unit
            && v.display_unit == a.display_unit
            && v.quantity == a.quantity
            && v.min == a.min
            && v.max == a.max
            && v.nominal == a.nominal
            && has_start(v) == has_start(a)
            && match (a.derivative_of, v.derivative_of) {
                (None, None) => true,
                (Some(d0), Some(d)) => d == d0 + k * g.stride,
                _ => false,
            }
    })
}

/// Drops the groups whose elements do not play one role in
/// `ModelStructure`: in each list, all of an array's elements or none, and
/// consecutively in element order. A member array's elements need only be
/// in element order in the outputs and initial unknowns (there the members
/// of one instance come together, `cap[1].T`, `der(cap[1].T)`, `cap[2].T`,
/// …, and the array is listed once where its first element was); among
/// the derivatives, whose order is the state vector's, they must be
/// consecutive too.
fn keep_roles(table: &ModelTable, groups: &mut [Option<ArrayGroup>], member: &mut [u32]) {
    for (l, list) in [&table.outputs, &table.derivatives, &table.initial_unknowns]
        .into_iter()
        .enumerate()
    {
        let mut position = vec![usize::MAX; table.variables.len()];
        for (p, &i) in list.iter().enumerate() {
            position[i] = p;
        }
        for slot in groups.iter_mut() {
            let Some(g) = slot else { continue };
            let p0 = position[g.first];
            let in_order = g.stride > 1 && l != 1;
            let mut last = p0;
            let fits = g.elements().enumerate().all(|(k, i)| {
                let p = position[i];
                if p0 == usize::MAX {
                    p == usize::MAX
                } else if in_order {
                    let ok = p != usize::MAX && (k == 0 || p > last);
                    last = p;
                    ok
                } else {
                    p == p0 + k
                }
            });
            if !fits {
                dissolve(slot, member);
            }
        }
    }
}

/// Drops derivative arrays whose states are not one whole array, and state
/// arrays whose derivatives are not one whole array, until both hold.
fn link_derivatives(table: &ModelTable, groups: &mut [Option<ArrayGroup>], member: &mut [u32]) {
    loop {
        let mut changed = false;
        // Derivative groups: their states must be exactly one group.
        for k in 0..groups.len() {
            let Some(g) = &groups[k] else { continue };
            let Some(d0) = table.variables[g.first].derivative_of else {
                continue;
            };
            let target = member[d0];
            let whole = target != NOT_IN_ARRAY
                && groups[target as usize]
                    .as_ref()
                    .is_some_and(|t| t.first == d0 && t.len == g.len && t.stride == g.stride);
            if !whole {
                if target != NOT_IN_ARRAY {
                    dissolve(&mut groups[target as usize], member);
                }
                dissolve(&mut groups[k], member);
                changed = true;
            }
        }
        // A scalar derivative of an array's element: the array goes.
        for (i, v) in table.variables.iter().enumerate() {
            if let Some(d) = v.derivative_of {
                let target = member[d];
                if target != NOT_IN_ARRAY && member[i] == NOT_IN_ARRAY {
                    dissolve(&mut groups[target as usize], member);
                    changed = true;
                }
            }
        }
        if !changed {
            return;
        }
    }
}

fn dissolve(slot: &mut Option<ArrayGroup>, member: &mut [u32]) {
    if let Some(g) = slot.take() {
        for i in g.elements() {
            member[i] = NOT_IN_ARRAY;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{element, member_element};

    #[test]
    fn member_element_names() {
        assert_eq!(member_element("cap[3].T"), Some(("cap", ".T", 3)));
        assert_eq!(
            member_element("der(cap[12].T)"),
            Some(("der(cap", ".T)", 12))
        );
        assert_eq!(
            member_element("link[1].port_a.T"),
            Some(("link", ".port_a.T", 1))
        );
        assert_eq!(member_element("rod.T[3]"), None);
        assert_eq!(member_element("c[1].x[2]"), None);
        assert_eq!(member_element("A[1,2].x"), None);
        assert_eq!(member_element("c[1]."), None);
        assert_eq!(member_element("[1].x"), None);
        assert_eq!(member_element("x"), None);
    }

    #[test]
    fn element_names() {
        assert_eq!(element("rod.T[3]"), Some(("rod.T".into(), 3)));
        assert_eq!(element("der(rod.T[12])"), Some(("der(rod.T)".into(), 12)));
        assert_eq!(element("cap[1].T"), None);
        assert_eq!(element("A[1,2]"), None);
        assert_eq!(element("x"), None);
        assert_eq!(element("[1]"), None);
        assert_eq!(element("der(x)"), None);
    }
}
