//! The system schedule: connection copies and class blocks of every
//! instance, ordered so that each value is computed before it is read.
//! No equations live at this level.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};

use crate::diagnostic::Diagnostic;
use crate::instantiate::{RealKind, System};
use crate::resolve::elaborate::{join_der, split_der, ClassCausality, Variability};
use crate::resolve::tree::Builtin;
use crate::source::Span;
use crate::syntax::ast::ComponentRef;

/// `target[e] = coefficient * sum(sign * source[e])` for every element `e`.
#[derive(Debug, Clone, PartialEq)]
pub struct Copy {
    pub target: usize,
    pub len: usize,
    pub sources: Vec<(usize, f64)>,
    pub coefficient: f64,
    /// The connect equation this copy comes from.
    pub span: Span,
    /// Human-readable form for comments and messages.
    pub text: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Block { instance: usize, block: usize },
    Copy(Copy),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    pub steps: Vec<Step>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Source,
    Sink,
}

/// One side of a connect equation.
#[derive(Debug, Clone)]
struct Side {
    instance: usize,
    /// Connector (or signal variable) name inside that instance.
    name: String,
    inside: bool,
    span: Span,
}

struct Member {
    offset: usize,
    len: usize,
    flow: bool,
    role: Option<Role>,
    inside: bool,
    flat: String,
}

pub fn schedule(sys: &System) -> Result<Schedule, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut copies = Vec::new();
    for p in 0..sys.instances.len() {
        connections(sys, p, &mut copies, &mut diags);
    }
    if !diags.is_empty() {
        return Err(diags);
    }

    // Nodes: blocks in instance order, then copies.
    let mut nodes: Vec<Step> = Vec::new();
    let mut reads: Vec<Vec<usize>> = Vec::new();
    let mut writes: Vec<Vec<usize>> = Vec::new();
    for (i, inst) in sys.instances.iter().enumerate() {
        let class = &sys.classes[inst.class].causalized.causal;
        for (k, b) in class.blocks.iter().enumerate() {
            nodes.push(Step::Block {
                instance: i,
                block: k,
            });
            reads.push(b.reads.iter().map(|s| inst.slot_offsets[*s]).collect());
            writes.push(b.writes.iter().map(|s| inst.slot_offsets[*s]).collect());
        }
    }
    for c in copies {
        reads.push(c.sources.iter().map(|s| s.0).collect());
        writes.push(vec![c.target]);
        nodes.push(Step::Copy(c));
    }

    // Who writes each variable (keyed by its first element in R).
    let mut writers: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (n, ws) in writes.iter().enumerate() {
        for w in ws {
            writers.entry(*w).or_default().push(n);
        }
    }
    let owner = |n: usize| -> Option<usize> {
        match &nodes[n] {
            Step::Block { instance, .. } => Some(*instance),
            Step::Copy(_) => None,
        }
    };
    for (var, ws) in &writers {
        let first = ws[0];
        if let Some(&other) = ws
            .iter()
            .find(|w| owner(**w).is_none() || owner(**w) != owner(first))
        {
            if other != first {
                diags.push(twice(sys, *var, &nodes[first], &nodes[other]));
            }
        }
    }
    let balance_vars: std::collections::BTreeSet<usize> =
        sys.balances.iter().map(|b| b.balance).collect();
    let known = |v: usize| {
        balance_vars.contains(&v)
            || matches!(
                sys.reals[v].kind,
                RealKind::Constant
                    | RealKind::Parameter
                    | RealKind::CalculatedParameter
                    | RealKind::State
                    | RealKind::StateCalculated
                    | RealKind::Input
                    | RealKind::Time
            )
    };
    // Inputs of components must be connected (or set by the parent).
    for (i, inst) in sys.instances.iter().enumerate() {
        if inst.parent.is_none() {
            continue;
        }
        let model = &sys.classes[inst.class].model;
        for (vi, v) in model.vars.iter().enumerate() {
            if v.causality != ClassCausality::Input
                || v.variability != Variability::Continuous
                || v.ty != Builtin::Real
                || v.tearing.is_some()
            {
                continue;
            }
            let off = inst.var_offset[vi].expect("Real variables are laid out");
            if !writers.contains_key(&off) {
                let what = v.connector.clone().unwrap_or_else(|| v.name.clone());
                diags.push(
                    Diagnostic::error(
                        "MC056",
                        inst.decl_span.unwrap_or(v.span),
                        format!(
                            "input `{what}` of component `{}` is not connected",
                            inst.path
                        ),
                    )
                    .with_label(format!("`{}` needs a value", sys.flat_name(i, &v.name)))
                    .with_help(format!(
                        "connect `{}.{what}` to a connector that determines it",
                        inst.path
                    )),
                );
            }
        }
    }
    for (n, rs) in reads.iter().enumerate() {
        for r in rs {
            if !known(*r) && !writers.contains_key(r) && sys.reals[*r].kind != RealKind::Input {
                let _ = n;
                // Unconnected inputs were reported above; anything else
                // unwritten is a variable nobody determines.
                if !diags.iter().any(|d| d.code == "MC056") {
                    diags.push(never_determined(sys, *r));
                }
            }
        }
    }
    if !diags.is_empty() {
        diags.sort_by_key(|d| (d.span.file, d.span.start));
        diags.dedup_by(|a, b| a.message == b.message);
        return Err(diags);
    }

    // Edges writer -> reader, then Kahn's algorithm by node number.
    let n = nodes.len();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut indeg = vec![0usize; n];
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (r, rs) in reads.iter().enumerate() {
        let mut seen = Vec::new();
        for v in rs {
            if let Some(ws) = writers.get(v) {
                for &w in ws {
                    if w != r && !seen.contains(&w) {
                        seen.push(w);
                        succ[w].push(r);
                        preds[r].push(w);
                        indeg[r] += 1;
                    }
                }
            }
        }
    }
    let mut ready: BinaryHeap<Reverse<usize>> =
        (0..n).filter(|i| indeg[*i] == 0).map(Reverse).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(Reverse(x)) = ready.pop() {
        order.push(x);
        for &s in &succ[x] {
            indeg[s] -= 1;
            if indeg[s] == 0 {
                ready.push(Reverse(s));
            }
        }
    }
    if order.len() < n {
        return Err(vec![algebraic_loop(sys, &nodes, &preds, &indeg)]);
    }
    let mut slots: Vec<Option<Step>> = nodes.into_iter().map(Some).collect();
    let schedule = Schedule {
        steps: order
            .into_iter()
            .map(|i| slots[i].take().expect("each node once"))
            .collect(),
    };
    let diags = affine_in_balances(sys, &schedule);
    if !diags.is_empty() {
        return Err(diags);
    }
    Ok(schedule)
}

/// `MX005` for a variable that is read but that nothing determines, at the
/// declaration that owns it: the component's in its parent, or the
/// variable's (a connector member's is its connector's) in the model.
fn never_determined(sys: &System, real: usize) -> Diagnostic {
    let name = &sys.reals[real].name;
    let owner = sys.instances.iter().enumerate().find_map(|(i, inst)| {
        let class = &sys.classes[inst.class].model;
        (0..class.vars.len())
            .find(|&vi| {
                let covers = |off: Option<usize>| {
                    off.is_some_and(|o| (o..o + inst.var_len[vi].max(1)).contains(&real))
                };
                covers(inst.var_offset[vi]) || covers(inst.der_offset[vi])
            })
            .map(|vi| (i, &class.vars[vi]))
    });
    match owner {
        Some((i, v)) if i == 0 && v.connector.is_some() && v.causality == ClassCausality::Input => {
            let connector = v.connector.as_deref().unwrap_or_default();
            Diagnostic::error(
                "MX005",
                v.span,
                format!(
                    "connector `{connector}` of the exported model is connected to nothing, so its inputs have no value: a class with an unconnected physical connector cannot be exported alone"
                ),
            )
            .with_label("connector of the exported model")
            .with_help(format!(
                "export a model that connects `{connector}` to a component that determines it, e.g. one of the library's examples"
            ))
        }
        Some((i, v)) => Diagnostic::error(
            "MX005",
            sys.instances[i].decl_span.unwrap_or(v.span),
            format!("`{name}` is read but never determined"),
        )
        .with_label("never determined")
        .with_help("connect or determine the variable"),
        None => Diagnostic::error(
            "MX005",
            span_of_model(sys),
            format!("`{name}` is read but never determined"),
        )
        .with_label("never determined")
        .with_help("connect or determine the variable"),
    }
}

fn span_of_model(sys: &System) -> Span {
    sys.classes[sys.instances[0].class]
        .model
        .vars
        .first()
        .map(|v| v.span)
        .unwrap_or_default()
}

fn twice(sys: &System, var: usize, a: &Step, b: &Step) -> Diagnostic {
    let describe = |s: &Step| match s {
        Step::Block { instance, .. } => {
            let p = &sys.instances[*instance].path;
            if p.is_empty() {
                "an equation of the model".to_string()
            } else {
                format!("an equation of `{p}`")
            }
        }
        Step::Copy(c) => format!("`{}`", c.text),
    };
    // Two equations of different instances: the one of the outer instance
    // reaches into a component's variable, so it names the line at fault.
    let write_span = |s: &Step| match s {
        Step::Block { instance, block } => {
            let inst = &sys.instances[*instance];
            let class = &sys.classes[inst.class].causalized.causal;
            let mut found = None;
            for st in &class.blocks[*block].stmts {
                for_each_assign_span(st, &mut |slot, span| {
                    if found.is_none() && inst.slot_offsets[slot] == var {
                        found = Some(span);
                    }
                });
            }
            found.map(|sp| (inst.path.split('.').filter(|p| !p.is_empty()).count(), sp))
        }
        Step::Copy(_) => None,
    };
    let span = match (a, b) {
        (_, Step::Copy(c)) | (Step::Copy(c), _) => c.span,
        _ => match (write_span(a), write_span(b)) {
            (Some(x), Some(y)) => {
                if x.0 <= y.0 {
                    x.1
                } else {
                    y.1
                }
            }
            (Some(x), None) | (None, Some(x)) => x.1,
            (None, None) => span_of_model(sys),
        },
    };
    Diagnostic::error(
        "MC054",
        span,
        format!(
            "`{}` is determined twice: by {} and by {}",
            sys.reals[var].name,
            describe(a),
            describe(b)
        ),
    )
    .with_label("second determination")
    .with_help("connect each input to exactly one determining side")
}

fn algebraic_loop(
    sys: &System,
    nodes: &[Step],
    preds: &[Vec<usize>],
    indeg: &[usize],
) -> Diagnostic {
    // Walk backwards through unfinished nodes until one repeats: a cycle.
    let start = (0..nodes.len())
        .find(|i| indeg[*i] > 0)
        .expect("a node is left");
    let mut path = vec![start];
    let mut cur = start;
    loop {
        let next = preds[cur]
            .iter()
            .copied()
            .find(|p| indeg[*p] > 0)
            .expect("an unfinished node has an unfinished predecessor");
        if let Some(pos) = path.iter().position(|x| *x == next) {
            path.drain(..pos);
            break;
        }
        path.push(next);
        cur = next;
    }
    path.reverse();
    let mut copies: Vec<&Copy> = Vec::new();
    let mut instances: Vec<String> = Vec::new();
    // Without a connection in the loop, an equation of the outermost
    // instance in it (one that reads and writes its components' variables)
    // closes the loop.
    let mut outermost: Option<(usize, Span)> = None;
    for n in &path {
        match &nodes[*n] {
            Step::Copy(c) => copies.push(c),
            Step::Block { instance, block } => {
                let inst = &sys.instances[*instance];
                instances.push(if inst.path.is_empty() {
                    sys.model_name.clone()
                } else {
                    inst.path.clone()
                });
                let class = &sys.classes[inst.class].causalized.causal;
                let depth = inst.path.split('.').filter(|p| !p.is_empty()).count();
                if let Some(span) = class.blocks[*block].stmts.iter().find_map(first_span) {
                    if outermost.map_or(true, |(d, _)| depth < d) {
                        outermost = Some((depth, span));
                    }
                }
            }
        }
    }
    let primary = copies
        .first()
        .map(|c| c.span)
        .or(outermost.map(|(_, s)| s))
        .unwrap_or_else(|| span_of_model(sys));
    let mut d = Diagnostic::error(
        "MC055",
        primary,
        format!(
            "algebraic loop without a declared LinearResponse through {}",
            instances.join(" -> ")
        ),
    )
    .with_label("this connection closes the loop")
    .with_help(
        "break the loop with a state, or declare the tearing with a LinearResponse component",
    );
    for c in copies.iter().skip(1) {
        d = d.with_note(c.span, "part of the loop");
    }
    d
}

/// Calls `f` with the target slot and span of every assignment of `s`.
fn for_each_assign_span(s: &crate::ir::Stmt, f: &mut dyn FnMut(usize, Span)) {
    match s {
        crate::ir::Stmt::Assign { target, span, .. } => f(*target, *span),
        crate::ir::Stmt::For { body, .. } => {
            for b in body {
                for_each_assign_span(b, f);
            }
        }
    }
}

/// The span of the first assignment of a statement.
fn first_span(s: &crate::ir::Stmt) -> Option<Span> {
    match s {
        crate::ir::Stmt::Assign { span, .. } => Some(*span),
        crate::ir::Stmt::For { body, .. } => body.iter().find_map(first_span),
    }
}

/// Resolves one side of a connect written in instance `p`.
fn side(sys: &System, p: usize, r: &ComponentRef, span: Span) -> Result<Side, Diagnostic> {
    let model = &sys.classes[sys.instances[p].class].model;
    for part in &r.parts {
        if !part.subscripts.is_empty() {
            return Err(Diagnostic::error(
                "MC057",
                r.span,
                "connecting array elements is not supported yet",
            )
            .with_label("array element")
            .with_help("connect whole connectors"));
        }
    }
    let names: Vec<&str> = r.parts.iter().map(|x| x.name.name.as_str()).collect();
    let is_connector = |m: &crate::resolve::ClassModel, n: &str| {
        m.connectors.iter().any(|c| c.name == n)
            || m.vars.iter().any(|v| {
                v.name == n && v.connector.is_none() && v.causality != ClassCausality::Local
            })
    };
    match names.as_slice() {
        [c] if is_connector(model, c) => Ok(Side {
            instance: p,
            name: c.to_string(),
            inside: false,
            span,
        }),
        [s, c] if model.subs.iter().any(|x| x.name == *s) => {
            let path = if sys.instances[p].path.is_empty() {
                s.to_string()
            } else {
                format!("{}.{s}", sys.instances[p].path)
            };
            let child = sys
                .instances
                .iter()
                .position(|x| x.path == path)
                .expect("sub-components are instantiated");
            let cm = &sys.classes[sys.instances[child].class].model;
            if !is_connector(cm, c) {
                return Err(Diagnostic::error(
                    "MC058",
                    r.span,
                    format!("`{s}` has no connector `{c}`"),
                )
                .with_label("not a connector")
                .with_help("connect connectors or input/output signals of the component"));
            }
            Ok(Side {
                instance: child,
                name: c.to_string(),
                inside: true,
                span,
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

fn members(sys: &System, s: &Side) -> BTreeMap<String, Member> {
    let inst = &sys.instances[s.instance];
    let model = &sys.classes[inst.class].model;
    let mut out = BTreeMap::new();
    for (vi, v) in model.vars.iter().enumerate() {
        let suffix = if v.connector.as_deref() == Some(s.name.as_str()) {
            member_suffix(&v.name, &s.name)
        } else if v.connector.is_none() && strip_der(&v.name) == s.name {
            // A signal, and the derivatives it carries.
            join_der(split_der(&v.name).0, "")
        } else {
            continue;
        };
        if v.variability != Variability::Continuous || v.ty != Builtin::Real {
            continue;
        }
        let role = match (v.causality, s.inside) {
            (ClassCausality::Output, true) | (ClassCausality::Input, false) => Some(Role::Source),
            (ClassCausality::Input, true) | (ClassCausality::Output, false) => Some(Role::Sink),
            (ClassCausality::Local, _) => None,
        };
        out.insert(
            suffix,
            Member {
                offset: inst.var_offset[vi].expect("Real variables are laid out"),
                len: inst.var_len[vi],
                flow: v.flow,
                role,
                inside: s.inside,
                flat: sys.flat_name(s.instance, &v.name),
            },
        );
    }
    out
}

fn connections(sys: &System, p: usize, copies: &mut Vec<Copy>, diags: &mut Vec<Diagnostic>) {
    let model = &sys.classes[sys.instances[p].class].model;
    let mut sides: Vec<Side> = Vec::new();
    let mut key_of: HashMap<(usize, String), usize> = HashMap::new();
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
    for c in &model.connects {
        let a = side(sys, p, &c.a, c.span);
        let b = side(sys, p, &c.b, c.span);
        let (a, b) = match (a, b) {
            (Ok(a), Ok(b)) => (a, b),
            (a, b) => {
                diags.extend(a.err());
                diags.extend(b.err());
                continue;
            }
        };
        let ma = members(sys, &a);
        let mb = members(sys, &b);
        let shape = |m: &BTreeMap<String, Member>| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.flow, v.len))
                .collect::<Vec<_>>()
        };
        if shape(&ma) != shape(&mb) {
            diags.push(
                Diagnostic::error(
                    "MC059",
                    c.span,
                    format!(
                        "`{}` and `{}` are not compatible connectors",
                        a.name, b.name
                    ),
                )
                .with_label("different variables, flow prefixes or sizes")
                .with_help(
                    "connect connectors of the same type (or of the two causal twins of one type)",
                ),
            );
            continue;
        }
        let mut ids = [0usize; 2];
        for (k, s) in [a, b].into_iter().enumerate() {
            let key = (s.instance, s.name.clone());
            ids[k] = *key_of.entry(key).or_insert_with(|| {
                sides.push(s.clone());
                parent.push(parent.len());
                sides.len() - 1
            });
        }
        let (ra, rb) = (find(&mut parent, ids[0]), find(&mut parent, ids[1]));
        if ra != rb {
            parent[ra] = rb;
        }
    }
    // Group sides into connection sets.
    let mut sets: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..sides.len() {
        let r = find(&mut parent, i);
        sets.entry(r).or_default().push(i);
    }
    for members_of_set in sets.values() {
        let ms: Vec<(usize, BTreeMap<String, Member>)> = members_of_set
            .iter()
            .map(|i| (*i, members(sys, &sides[*i])))
            .collect();
        let names: Vec<String> = ms[0].1.keys().cloned().collect();
        let set_span = sides[members_of_set[0]].span;
        for name in names {
            let vars: Vec<(usize, &Member)> = ms.iter().map(|(i, m)| (*i, &m[&name])).collect();
            let flow = vars[0].1.flow;
            let sources: Vec<&(usize, &Member)> = vars
                .iter()
                .filter(|v| v.1.role == Some(Role::Source))
                .collect();
            let sinks: Vec<&(usize, &Member)> = vars
                .iter()
                .filter(|v| v.1.role == Some(Role::Sink))
                .collect();
            let label = |m: &Member| m.flat.clone();
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
                                    .map(|v| label(v.1))
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
                                    .map(|v| label(v.1))
                                    .collect::<Vec<_>>()
                                    .join(" and ")
                            ),
                        )
                    };
                    let span = sources.get(1).map(|v| sides[v.0].span).unwrap_or(set_span);
                    diags.push(
                        Diagnostic::error(code, span, msg)
                            .with_label("connection set")
                            .with_help("connect exactly one determining connector (output side) to the receiving ones"),
                    );
                    continue;
                }
                let src = sources[0].1;
                for (si, sink) in sinks {
                    copies.push(Copy {
                        target: sink.offset,
                        len: sink.len,
                        sources: vec![(src.offset, 1.0)],
                        coefficient: 1.0,
                        span: sides[*si].span,
                        text: format!("{} = {}", sink.flat, src.flat),
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
                let (si, sink) = sinks[0];
                let sign = |m: &Member| if m.inside { 1.0 } else { -1.0 };
                let srcs: Vec<(usize, f64)> =
                    sources.iter().map(|(_, m)| (m.offset, sign(m))).collect();
                let text = format!(
                    "{} = -({})",
                    sink.flat,
                    sources
                        .iter()
                        .map(|(_, m)| m.flat.clone())
                        .collect::<Vec<_>>()
                        .join(" + ")
                );
                copies.push(Copy {
                    target: sink.offset,
                    len: sink.len,
                    sources: srcs,
                    coefficient: -sign(sink),
                    span: sides[*si].span,
                    text,
                });
            }
        }
    }
}

/// The name of a connector variable inside its connector: `port.T` gives
/// `T`, the carried derivative `der(port.w)` gives `der(w)`.
fn member_suffix(name: &str, connector: &str) -> String {
    let (order, inner) = split_der(name);
    let member = inner
        .strip_prefix(connector)
        .and_then(|m| m.strip_prefix('.'))
        .unwrap_or(inner);
    join_der(order, member)
}

/// The residuals of the linear responses must be affine in the balances.
/// Every variable that depends on a balance is marked, in schedule order;
/// an assignment that multiplies two marked quantities, divides by one, or
/// applies a nonlinear function or a condition to one is rejected at its
/// equation.
fn affine_in_balances(sys: &System, schedule: &Schedule) -> Vec<Diagnostic> {
    use crate::ir::{Arith, Ex, Stmt};
    let mut marked: std::collections::BTreeSet<usize> =
        sys.balances.iter().map(|b| b.balance).collect();
    if marked.is_empty() {
        return Vec::new();
    }
    fn depends(e: &Ex, d: &dyn Fn(usize) -> bool) -> Result<bool, String> {
        Ok(match e {
            Ex::Var(s, _) => d(*s),
            Ex::Neg(a) => depends(a, d)?,
            Ex::Bin(Arith::Add | Arith::Sub, a, b) => depends(a, d)? | depends(b, d)?,
            Ex::Bin(Arith::Mul, a, b) => {
                let (x, y) = (depends(a, d)?, depends(b, d)?);
                if x && y {
                    return Err("it multiplies two quantities that depend on a balance".into());
                }
                x || y
            }
            Ex::Bin(Arith::Div, a, b) => {
                if depends(b, d)? {
                    return Err("it divides by a quantity that depends on a balance".into());
                }
                depends(a, d)?
            }
            Ex::Bin(Arith::Pow, a, b) => {
                let base = depends(a, d)?;
                if depends(b, d)? || (base && !matches!(**b, Ex::Int(1))) {
                    return Err("it raises a quantity that depends on a balance to a power".into());
                }
                base
            }
            Ex::Call(f, args) => {
                for a in args {
                    if depends(a, d)? {
                        return Err(format!(
                            "it applies `{f:?}` to a quantity that depends on a balance"
                        )
                        .to_lowercase());
                    }
                }
                false
            }
            Ex::If(branches, other) => {
                let mut any = depends(other, d)?;
                for (c, v) in branches {
                    if depends(c, d)? {
                        return Err("a condition depends on a balance".into());
                    }
                    any |= depends(v, d)?;
                }
                any
            }
            Ex::Rel(_, a, b, _) | Ex::Bin(Arith::And | Arith::Or, a, b) => {
                if depends(a, d)? || depends(b, d)? {
                    return Err("a condition depends on a balance".into());
                }
                false
            }
            Ex::Not(a) => {
                if depends(a, d)? {
                    return Err("a condition depends on a balance".into());
                }
                false
            }
            _ => false,
        })
    }
    let mut diags: Vec<Diagnostic> = Vec::new();
    for step in &schedule.steps {
        match step {
            Step::Copy(c) => {
                if c.sources.iter().any(|(o, _)| marked.contains(o)) {
                    marked.insert(c.target);
                }
            }
            Step::Block { instance, block } => {
                let inst = &sys.instances[*instance];
                let class = &sys.classes[inst.class].causalized.causal;
                let mut stack: Vec<&Stmt> = class.blocks[*block].stmts.iter().rev().collect();
                while let Some(stmt) = stack.pop() {
                    match stmt {
                        Stmt::For { body, .. } => stack.extend(body.iter().rev()),
                        Stmt::Assign {
                            target,
                            value,
                            span,
                            ..
                        } => {
                            let is_marked = |s: usize| marked.contains(&inst.slot_offsets[s]);
                            match depends(value, &is_marked) {
                                Ok(true) => {
                                    marked.insert(inst.slot_offsets[*target]);
                                }
                                Ok(false) => {}
                                Err(why) => {
                                    if !diags.iter().any(|d| d.span == *span) {
                                        diags.push(
                                            Diagnostic::error(
                                                "MC066",
                                                *span,
                                                format!(
                                                    "`{}` is not affine in the balances of the linear responses: {why}",
                                                    sys.flat_name(*instance, &class.slots[*target].name)
                                                ),
                                            )
                                            .with_label("nonlinear in a balance")
                                            .with_help("residuals must be affine in the balances: multiply balance-dependent quantities only by parameters, states or other known values"),
                                        );
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    diags
}

/// `der(x,2)` → `x`.
fn strip_der(name: &str) -> &str {
    split_der(name).1
}
