//! Connect equations of one class: each side resolved to a connector (or
//! an input/output variable) of the class or of one of its components, and
//! the connection sets they form turned into the transfers every instance
//! of the class makes: each potential copied from the one side that
//! determines it, each flow summed into the one side that receives it.
//! Everything here depends on the class alone, so its faults are the
//! class's (MC057 … MC062), reported once where the class is checked.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

pub use super::connection::{
    BoundConnect, BoundSide, Connect, Endpoint, Port, PortMember, Side, Transfer,
};
use super::model::{element_name, join_der, ClassCausality, ClassModel, ClassVariability, Sub};
use super::tree::Builtin;
use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::ComponentRef;

/// Whether port `p` of `model` is a conditional connector.
fn conditional(model: &ClassModel, p: Port) -> bool {
    matches!(p, Port::Connector(i) if model.connectors[i].condition.is_some())
}

/// Resolves one side of a connect written in `model`. `sub_model` gives
/// the model of a component's class (or the first diagnostic of a class
/// that has none).
pub fn side(
    model: &ClassModel,
    r: &ComponentRef,
    sub_model: &mut dyn FnMut(usize) -> Result<Arc<ClassModel>, Diagnostic>,
) -> Result<Side, Diagnostic> {
    // An index on the first part names an element of a component array;
    // the caller resolves it (`Side::index`). An index on the last part
    // names an element of an array of connectors (`Side::element`).
    let indexed_sub =
        r.parts.len() == 2 && model.subs.iter().any(|x| x.name == r.parts[0].name.name);
    let last = r.parts.len() - 1;
    for (k, part) in r.parts.iter().enumerate() {
        if !(part.subscripts.is_empty() || k == 0 && indexed_sub || k == last && k <= 1) {
            return Err(array_element(r));
        }
    }
    // An index on the port itself is admitted on an array of connectors only.
    let port_indexed = !(r.parts[last].subscripts.is_empty() || last == 0 && indexed_sub);
    let check_indexed = |m: &ClassModel, p: Port| match p {
        Port::Connector(i) if m.connectors[i].array => Ok(()),
        _ if port_indexed => Err(array_element(r)),
        _ => Ok(()),
    };
    let names: Vec<&str> = r.parts.iter().map(|x| x.name.name.as_str()).collect();
    match names.as_slice() {
        [c] if port(model, c).is_some() => {
            let p = port(model, c).expect("checked");
            check_indexed(model, p)?;
            Ok(Side {
                sub: None,
                port: p,
                name: c.to_string(),
                members: Arc::new(members(model, p)),
                index: Vec::new(),
                element: None,
                at: None,
                conditional: conditional(model, p),
            })
        }
        [s, c] if model.subs.iter().any(|x| x.name == *s) => {
            let k = model
                .subs
                .iter()
                .position(|x| x.name == *s)
                .expect("checked");
            let cm = sub_model(k)?;
            let Some(p) = port(&cm, c) else {
                return Err(Diagnostic::error(
                    "MC058",
                    r.span,
                    format!("`{s}` has no connector `{c}`"),
                )
                .with_label("not a connector")
                .with_help("connect connectors or input/output signals of the component"));
            };
            check_indexed(&cm, p)?;
            Ok(Side {
                sub: Some(k),
                port: p,
                name: c.to_string(),
                members: Arc::new(members(&cm, p)),
                index: Vec::new(),
                element: None,
                at: None,
                conditional: conditional(&cm, p),
            })
        }
        _ => Err(Diagnostic::error(
            "MC058",
            r.span,
            format!(
                "`{}` is not a connector of this class or of one of its components",
                names.join(".")
            ),
        )
        .with_label("not a connector")
        .with_help("write connect(component.connector, other.connector)")),
    }
}

/// MC057 at a connect side that indexes what is not an array of
/// components or of connectors (an element of an array signal).
fn array_element(r: &ComponentRef) -> Diagnostic {
    Diagnostic::error(
        "MC057",
        r.span,
        "connecting array elements is not supported yet",
    )
    .with_label("array element")
    .with_help("connect whole connectors")
}

/// The port named `n` in `m`: a connector component, or else an input or
/// output variable that belongs to no connector.
fn port(m: &ClassModel, n: &str) -> Option<Port> {
    if let Some(i) = m.connectors.iter().position(|c| c.name == n) {
        return Some(Port::Connector(i));
    }
    m.vars
        .iter()
        .position(|v| v.name == n && v.connector.is_none() && v.causality != ClassCausality::Local)
        .map(Port::Signal)
}

/// The variables of a port of `m`, in declaration order.
fn members(m: &ClassModel, p: Port) -> Vec<PortMember> {
    let member = |var: usize, key: String| {
        let v = &m.vars[var];
        PortMember {
            var,
            key,
            name: v.name.clone(),
            flow: v.flow,
            causality: v.causality,
            // Boolean and Integer signals travel like Real ones (DESIGN
            // §2.2c): connections copy them at every evaluation.
            copied: v.variability == ClassVariability::Continuous
                && matches!(v.ty, Builtin::Real | Builtin::Boolean | Builtin::Integer),
        }
    };
    match p {
        Port::Connector(i) => m.connectors[i]
            .members
            .iter()
            .map(|c| member(c.var, c.key.clone()))
            .collect(),
        // A signal and the derivatives it carries, each carried by the one
        // before it.
        Port::Signal(s) => (0..m.vars.len())
            .filter_map(|v| carried_order(m, v, s).map(|order| member(v, join_der(order, ""))))
            .collect(),
    }
}

/// How many derivatives down from `base` variable `v` is: 0 for `base`
/// itself, `None` when `v` does not carry a derivative of it.
fn carried_order(m: &ClassModel, mut v: usize, base: usize) -> Option<usize> {
    let mut order = 0;
    while v != base {
        v = m.vars[v].carried_of?;
        order += 1;
    }
    Some(order)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Source,
    Sink,
}

/// Which way a member's values travel in a connection set: a port of the
/// class itself is seen from inside, a component's from outside.
fn role(m: &PortMember, inside: bool) -> Option<Role> {
    match (m.causality, inside) {
        (ClassCausality::Output, true) | (ClassCausality::Input, false) => Some(Role::Source),
        (ClassCausality::Input, true) | (ClassCausality::Output, false) => Some(Role::Sink),
        (ClassCausality::Local, _) => None,
    }
}

/// The connection sets of a class's connects, as transfers: compatible
/// sides (MC059), exactly one side determining each potential (MC060,
/// MC061) and exactly one receiving each flow (MC062).
pub fn connection_sets(
    connects: &[Connect],
    subs: &[Sub],
) -> Result<Vec<Transfer>, Vec<Diagnostic>> {
    let bound: Vec<BoundConnect> = connects.iter().map(Connect::as_written).collect();
    form_sets(&bound, &|k| subs[k].name.clone())
}

/// The class-level part of the connection sets of a class whose sets are
/// formed per instance ([`ClassModel::connections_per_instance`]): the two
/// sides of every connect match member by member (MC059). The sets
/// themselves, and MC060 … MC062, come per instance (`schedule`).
pub fn compatible(connects: &[Connect]) -> Result<Vec<Transfer>, Vec<Diagnostic>> {
    let diags: Vec<Diagnostic> = connects
        .iter()
        .filter(|c| !same_copied_members(&c.a, &c.b))
        .map(Connect::incompatible)
        .collect();
    if diags.is_empty() {
        Ok(Vec::new())
    } else {
        Err(diags)
    }
}

/// What a side's copied members are: name in the port and flow prefix.
fn copied_members(s: &Side) -> BTreeMap<&str, bool> {
    s.members
        .iter()
        .filter(|m| m.copied)
        .map(|m| (m.key.as_str(), m.flow))
        .collect()
}

/// Whether two sides have the same copied members ([`copied_members`]),
/// without building the maps when the members are listed alike (sides of
/// one connector class, or one list shared).
fn same_copied_members(a: &Side, b: &Side) -> bool {
    if Arc::ptr_eq(&a.members, &b.members) {
        return true;
    }
    fn listed(s: &Side) -> impl Iterator<Item = (&str, bool)> + '_ {
        s.members
            .iter()
            .filter(|m| m.copied)
            .map(|m| (m.key.as_str(), m.flow))
    }
    listed(a).eq(listed(b)) || copied_members(a) == copied_members(b)
}

/// The connection sets of `connects`, whose sides' `sub` are numbers that
/// `sub_name` names (a component of the class, or an instance of one).
pub fn form_sets(
    connects: &[BoundConnect],
    sub_name: &dyn Fn(usize) -> String,
) -> Result<Vec<Transfer>, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let (sides, sets) = sets_of_sides(connects, &mut diags);
    let label = |side: &BoundSide, m: &PortMember| {
        let path = side.sub.map_or(String::new(), sub_name);
        match side.at {
            Some(e) => element_name(&path, &m.name, &[e + 1], e),
            None => element_name(&path, &m.name, &[], 0),
        }
    };
    let mut transfers = Vec::new();
    for members_of_set in sets.iter() {
        set_transfers(&sides, members_of_set, &label, &mut transfers, &mut diags);
    }
    if diags.is_empty() {
        Ok(transfers)
    } else {
        Err(diags)
    }
}

/// Distinct sides of connects, each with the connect it first appears in.
type Sides<'c> = Vec<(BoundSide<'c>, Span)>;

/// Each distinct side of `connects`, with the connect it first appears
/// in, and the connection sets they form (by a representative side, each
/// set's sides as indices into the sides). A connect whose sides do not
/// match member by member is left out (MC059).
fn sets_of_sides<'c>(
    connects: &[BoundConnect<'c>],
    diags: &mut Vec<Diagnostic>,
) -> (Sides<'c>, Sets) {
    // Each distinct side, with the connect it first appears in.
    let mut sides: Sides<'c> = Vec::new();
    let mut key_of: HashMap<
        (Option<usize>, Port, Option<usize>),
        usize,
        foldhash::fast::FixedState,
    > = HashMap::with_capacity_and_hasher(2 * connects.len(), Default::default());
    let mut parent: Vec<usize> = Vec::new();
    fn find(parent: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while parent[r] != r {
            r = parent[r];
        }
        let mut c = x;
        while parent[c] != r {
            let n = parent[c];
            parent[c] = r;
            c = n;
        }
        r
    }
    for c in connects {
        if !same_copied_members(c.a.side, c.b.side) {
            diags.push(c.connect.incompatible());
            continue;
        }
        let mut ids = [0usize; 2];
        for (k, s) in [c.a, c.b].into_iter().enumerate() {
            ids[k] = *key_of.entry((s.sub, s.side.port, s.at)).or_insert_with(|| {
                sides.push((s, c.connect.span));
                parent.push(parent.len());
                sides.len() - 1
            });
        }
        let (ra, rb) = (find(&mut parent, ids[0]), find(&mut parent, ids[1]));
        if ra != rb {
            parent[ra] = rb;
        }
    }
    // The sets by their representatives in increasing order, each set's
    // sides in order: one array sorted by counting, not a vector per set
    // (a line of 10^5 segments has 2·10^5 sets).
    let roots: Vec<usize> = (0..sides.len()).map(|i| find(&mut parent, i)).collect();
    let mut start = vec![0usize; sides.len() + 1];
    for &r in &roots {
        start[r + 1] += 1;
    }
    for r in 0..sides.len() {
        start[r + 1] += start[r];
    }
    let mut next = start.clone();
    let mut members = vec![0usize; sides.len()];
    for (i, &r) in roots.iter().enumerate() {
        members[next[r]] = i;
        next[r] += 1;
    }
    (sides, Sets { start, members })
}

/// Connection sets as one array of side indices: set `r` (a side that
/// represents it) holds `members[start[r]..start[r + 1]]`, empty when `r`
/// represents no set.
struct Sets {
    start: Vec<usize>,
    members: Vec<usize>,
}

impl Sets {
    /// Each set, by its representative in increasing order.
    fn iter(&self) -> impl Iterator<Item = &[usize]> {
        self.start
            .windows(2)
            .filter(|w| w[0] < w[1])
            .map(|w| &self.members[w[0]..w[1]])
    }
}

/// The transfers of one connection set (`members_of_set`, indices into
/// `sides`), member by member: a potential copied from the one side that
/// determines it to every side that receives it (MC060, MC061), a flow
/// summed into the one side that receives it (MC062).
fn set_transfers(
    sides: &[(BoundSide, Span)],
    members_of_set: &[usize],
    label: &dyn Fn(&BoundSide, &PortMember) -> String,
    transfers: &mut Vec<Transfer>,
    diags: &mut Vec<Diagnostic>,
) {
    // The members by key, in key order; the sides of a set have the same
    // keys (`same_copied_members`), and most share one member list.
    let first = &sides[members_of_set[0]].0.side.members;
    let mut keyed: Vec<(usize, &PortMember)> =
        first.iter().enumerate().filter(|(_, m)| m.copied).collect();
    keyed.sort_by(|a, b| a.1.key.cmp(&b.1.key));
    keyed.dedup_by(|a, b| a.1.key == b.1.key);
    let set_span = sides[members_of_set[0]].1;
    for (position, member) in keyed {
        let name = member.key.as_str();
        let vars: Vec<(usize, &PortMember)> = members_of_set
            .iter()
            .map(|&i| {
                let members = &sides[i].0.side.members;
                let m = if Arc::ptr_eq(members, first) {
                    &members[position]
                } else {
                    members
                        .iter()
                        .find(|m| m.copied && m.key == name)
                        .expect("the sides of a set have the same members")
                };
                (i, m)
            })
            .collect();
        let flow = vars[0].1.flow;
        let role_of = |(i, m): &&(usize, &PortMember)| role(m, sides[*i].0.sub.is_some());
        let sources: Vec<&(usize, &PortMember)> = vars
            .iter()
            .filter(|v| role_of(v) == Some(Role::Source))
            .collect();
        let sinks: Vec<&(usize, &PortMember)> = vars
            .iter()
            .filter(|v| role_of(v) == Some(Role::Sink))
            .collect();
        let endpoint = |(i, m): &(usize, &PortMember)| Endpoint {
            sub: sides[*i].0.sub,
            var: m.var,
            element: sides[*i].0.at,
        };
        if !flow {
            if sources.len() != 1 {
                let (code, msg) = if sources.is_empty() {
                    (
                        "MC060",
                        format!(
                            "no side of this connection determines {} ({})",
                            if name.is_empty() {
                                "the signal".to_string()
                            } else {
                                format!("`{name}`")
                            },
                            vars.iter()
                                .map(|(i, m)| label(&sides[*i].0, m))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    )
                } else {
                    (
                        "MC061",
                        format!(
                            "two sides of this connection determine the same variable: {}",
                            sources
                                .iter()
                                .map(|(i, m)| label(&sides[*i].0, m))
                                .collect::<Vec<_>>()
                                .join(" and ")
                        ),
                    )
                };
                let span = sources.get(1).map(|v| sides[v.0].1).unwrap_or(set_span);
                diags.push(
                    Diagnostic::error(code, span, msg)
                        .with_label("connection set")
                        .with_help("connect exactly one determining connector (output side) to the receiving ones"),
                );
                continue;
            }
            let source = endpoint(sources[0]);
            for sink in sinks {
                transfers.push(Transfer {
                    target: endpoint(sink),
                    sources: vec![source],
                    flow: false,
                    span: sides[sink.0].1,
                });
            }
        } else {
            if sinks.len() != 1 {
                diags.push(
                    Diagnostic::error(
                        "MC062",
                        set_span,
                        format!(
                            "exactly one side of this connection set must receive the flow `{name}` (the side that determines the potential), found {}",
                            sinks.len()
                        ),
                    )
                    .with_label("flow balance cannot be solved")
                    .with_help("a determining connector receives the sum of the flows of the connectors it feeds"),
                );
                continue;
            }
            transfers.push(Transfer {
                target: endpoint(sinks[0]),
                sources: sources.iter().map(|s| endpoint(s)).collect(),
                flow: true,
                span: sides[sinks[0].0].1,
            });
        }
    }
}
