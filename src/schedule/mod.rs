//! The system schedule: connection copies and class blocks of every
//! instance, ordered so that each value is computed before it is read.
//! No equations live at this level.

mod unroll;

use crate::diagnostic::Diagnostic;
use crate::instantiate::{RealKind, System};
use crate::resolve::connect::{self, BoundConnect, BoundSide, Connect, Endpoint};
use crate::resolve::model::{ClassCausality, ClassVariability};
use crate::resolve::tree::Builtin;
use crate::source::Span;
use unroll::instance_connects;

/// `target[e] = coefficient * sum(sign * source[e])` for every element `e`.
#[derive(Debug, Clone, PartialEq)]
pub struct Copy {
    pub target: usize,
    pub len: usize,
    pub sources: Vec<(usize, f64)>,
    pub coefficient: f64,
    /// The connect equation this copy comes from.
    pub span: Span,
    /// A flow balance (the target is minus the sum of the sources), not a
    /// potential's copy.
    pub flow: bool,
}

impl Copy {
    /// The copy as its equation reads, for messages: `a.p.v = b.n.v`,
    /// `a.n.i = -(b.p.i + c.p.i)`. Made only when a message needs it, from
    /// the names of the Reals the copy reads and writes (a connection of
    /// 10^5 elements makes 10^5 copies and names none of them).
    pub fn text(&self, sys: &System) -> String {
        let name = |offset: usize| {
            let n = sys.reals.get(offset).map_or("?", |r| r.name.as_str());
            // A whole array: its name without the first element's index.
            match (self.len > 1, n.ends_with(']'), n.rfind('[')) {
                (true, true, Some(open)) => &n[..open],
                _ => n,
            }
        };
        let target = name(self.target);
        if self.flow {
            let sources: Vec<&str> = self.sources.iter().map(|(o, _)| name(*o)).collect();
            format!("{target} = -({})", sources.join(" + "))
        } else {
            let source = self.sources.first().map_or("?", |(o, _)| name(*o));
            format!("{target} = {source}")
        }
    }
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

pub fn schedule(sys: &System) -> Result<Schedule, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut copies = Vec::new();
    let mut dropped = Vec::new();
    for p in 0..sys.instances.len() {
        connections(sys, p, &mut copies, &mut dropped, &mut diags);
    }
    if !diags.is_empty() {
        return Err(diags);
    }

    let graph = Graph::of(sys, copies);
    // Who writes each variable (keyed by its first element in R), in node
    // order.
    let writers = graph.writes.inverted(sys.reals.len());
    written_once(sys, &graph.nodes, &writers, &mut diags);
    inputs_connected(sys, &writers, &dropped, &mut diags);
    // Who writes each variable, an element of an array of connectors
    // counting as its whole variable.
    let writers = if graph.element_base.is_empty() {
        writers
    } else {
        graph
            .writes
            .mapped(|r| graph.base(r))
            .inverted(sys.reals.len())
    };
    reads_determined(sys, &graph.reads, &writers, &mut diags);
    if !diags.is_empty() {
        diags.sort_by_key(|d| (d.span.file, d.span.start));
        diags.dedup_by(|a, b| a.message == b.message);
        return Err(diags);
    }

    let schedule = ordered(sys, graph.nodes, &graph.reads, &writers)?;
    let diags = affine_in_balances(sys, &schedule);
    if !diags.is_empty() {
        return Err(diags);
    }
    Ok(schedule)
}

/// The nodes of the schedule (blocks in instance order, then copies) and
/// what each reads and writes, as offsets in R (one flat list per
/// direction, so that a schedule of millions of nodes is a few
/// allocations, not millions).
struct Graph {
    nodes: Vec<Step>,
    reads: Lists,
    writes: Lists,
    /// The first offset of the variable of every element after the first
    /// of an array of connectors.
    element_base: std::collections::HashMap<usize, usize>,
}

impl Graph {
    fn of(sys: &System, copies: Vec<Copy>) -> Graph {
        // Sized at once: at 10^5 chain elements there are 6·10^5 nodes.
        let n_blocks: usize = sys
            .instances
            .iter()
            .map(|inst| sys.classes[inst.class].causalized.causal.blocks.len())
            .sum();
        let n_nodes = n_blocks + copies.len();
        let mut nodes: Vec<Step> = Vec::with_capacity(n_nodes);
        let mut reads = Lists::with_capacity(n_nodes);
        let mut writes = Lists::with_capacity(n_nodes);
        for (i, inst) in sys.instances.iter().enumerate() {
            let class = &sys.classes[inst.class].causalized.causal;
            for (k, b) in class.blocks.iter().enumerate() {
                nodes.push(Step::Block {
                    instance: i,
                    block: k,
                });
                reads.push(b.reads.iter().map(|s| inst.slot_offsets[*s]));
                writes.push(b.writes.iter().map(|s| inst.slot_offsets[*s]));
            }
        }
        // A copy of one element of an array of connectors reads or writes
        // inside a variable that blocks read and write whole: for the order,
        // it counts as reading or writing the whole variable.
        let element_base = connector_array_elements(sys);
        let base = |r: usize| element_base.get(&r).copied().unwrap_or(r);
        for c in copies {
            reads.push(c.sources.iter().map(|s| base(s.0)));
            writes.push(std::iter::once(c.target));
            nodes.push(Step::Copy(c));
        }
        Graph {
            nodes,
            reads,
            writes,
            element_base,
        }
    }

    /// The offset that stands for `r` in the order: the first element of
    /// its variable when `r` is an element of an array of connectors.
    fn base(&self, r: usize) -> usize {
        self.element_base.get(&r).copied().unwrap_or(r)
    }
}

/// A variable is written by one instance's blocks, or by one copy.
fn written_once(sys: &System, nodes: &[Step], writers: &Lists, diags: &mut Vec<Diagnostic>) {
    let owner = |n: usize| -> Option<usize> {
        match &nodes[n] {
            Step::Block { instance, .. } => Some(*instance),
            Step::Copy(_) => None,
        }
    };
    for var in 0..writers.len() {
        let ws = writers.get(var);
        let Some(&first) = ws.first() else {
            continue;
        };
        if let Some(&other) = ws
            .iter()
            .find(|w| owner(**w).is_none() || owner(**w) != owner(first))
        {
            if other != first {
                diags.push(twice(sys, var, &nodes[first], &nodes[other]));
            }
        }
    }
}

/// Inputs of components must be connected (or set by the parent): `MX036`
/// when the connect that would have set one is dropped with an absent
/// connector, `MC056` otherwise.
fn inputs_connected(
    sys: &System,
    writers: &Lists,
    dropped: &[unroll::Dropped],
    diags: &mut Vec<Diagnostic>,
) {
    let written = |v: usize| !writers.get(v).is_empty();
    for (i, inst) in sys.instances.iter().enumerate() {
        if inst.parent.is_none() {
            continue;
        }
        let model = &sys.classes[inst.class].model;
        for (vi, v) in model.vars.iter().enumerate() {
            if v.causality != ClassCausality::Input
                || v.variability != ClassVariability::Continuous
                || !matches!(v.ty, Builtin::Real | Builtin::Boolean | Builtin::Integer)
                || v.tearing.is_some()
            {
                continue;
            }
            if v.connector
                .is_some_and(|c| inst.absent_connectors.contains(&c))
            {
                // An absent conditional connector needs no connection.
                continue;
            }
            let off = inst.var_offset[vi].expect("Real variables are laid out");
            // Every element of an array of connectors is connected on its
            // own; a whole variable is written from its first element.
            let elements = if model.in_connector_array(vi) {
                inst.var_len[vi]
            } else {
                1
            };
            if (0..elements).any(|e| !written(off + e)) {
                let lost = v
                    .connector
                    .and_then(|c| dropped.iter().find(|d| d.instance == i && d.connector == c));
                if let Some(d) = lost {
                    let port = &model.connectors[d.connector].name;
                    diags.push(
                        Diagnostic::error(
                            "MX036",
                            d.span,
                            format!(
                                "this connect is dropped because `{}` is absent, and leaves input `{port}` of component `{}` without a value",
                                d.absent, inst.path
                            ),
                        )
                        .with_label(format!("`{}` needs a value", sys.flat_name(i, &v.name)))
                        .with_help(format!(
                            "make `{}` conditional with the same condition as `{}`, or connect `{}.{port}` to a connector that is always there",
                            inst.path, d.absent, inst.path
                        )),
                    );
                    continue;
                }
                let what = match v.connector {
                    Some(c) => model.connectors[c].name.clone(),
                    None => v.name.clone(),
                };
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
}

/// Every variable a node reads is known before the schedule runs or
/// written by some node: `MX005` for one that nothing determines.
fn reads_determined(sys: &System, reads: &Lists, writers: &Lists, diags: &mut Vec<Diagnostic>) {
    let balance_vars: std::collections::BTreeSet<usize> =
        sys.balances.iter().map(|b| b.balance).collect();
    let left_limits = sys.left_limits();
    let known = |v: usize| {
        balance_vars.contains(&v)
            || left_limits.contains(&v)
            || sys.absent_reals.contains(&v)
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
    let written = |v: usize| !writers.get(v).is_empty();
    for n in 0..reads.len() {
        for &r in reads.get(n) {
            if !known(r) && !written(r) && sys.reals[r].kind != RealKind::Input {
                // Unconnected inputs were reported above; anything else
                // unwritten is a variable nobody determines.
                if !diags.iter().any(|d| d.code == "MC056" || d.code == "MX036") {
                    diags.push(never_determined(sys, r));
                }
            }
        }
    }
}

/// The nodes in an order where every writer comes before its readers:
/// edges writer -> reader, then Kahn's algorithm in waves. A cycle is an
/// algebraic loop.
fn ordered(
    sys: &System,
    nodes: Vec<Step>,
    reads: &Lists,
    writers: &Lists,
) -> Result<Schedule, Vec<Diagnostic>> {
    let n = nodes.len();
    let mut preds = Lists::with_capacity(n);
    let mut seen = Vec::new();
    // The last node that listed each writer: a mark, not a scan of `seen`
    // (a node that reads an array written element by element has as many
    // writers as elements, and the scan made it quadratic: at 10^5
    // elements of the transmission line, half the schedule's time).
    let mut listed_by = vec![usize::MAX; n];
    for r in 0..n {
        seen.clear();
        for v in reads.get(r) {
            for &w in writers.get(*v) {
                if w != r && listed_by[w] != r {
                    listed_by[w] = r;
                    seen.push(w);
                }
            }
        }
        preds.push(seen.iter().copied());
    }
    let succ = preds.inverted(n);
    let mut indeg: Vec<usize> = (0..n).map(|r| preds.get(r).len()).collect();
    let order = in_waves(n, &succ, &mut indeg);
    if order.len() < n {
        return Err(vec![algebraic_loop(sys, &nodes, &preds, &indeg)]);
    }
    let mut slots: Vec<Option<Step>> = nodes.into_iter().map(Some).collect();
    Ok(Schedule {
        steps: order
            .into_iter()
            .map(|i| slots[i].take().expect("each node once"))
            .collect(),
    })
}

/// Kahn's algorithm in waves: first every node nothing precedes, then every
/// node whose last predecessor is in the previous wave, and so on, each wave
/// by node number. Nodes are numbered instance by instance, so a wave runs
/// the same block over a whole array of components in a row and the copies
/// of one `for` loop of connects in a row: the runs that the system image
/// stores as one strided step (`crate::fmu::image::system_image::StepRecord`).
/// Leaves out the nodes of a cycle (the order is then shorter than `n`).
fn in_waves(n: usize, succ: &Lists, indeg: &mut [usize]) -> Vec<usize> {
    let mut order = Vec::with_capacity(n);
    let mut wave: Vec<usize> = (0..n).filter(|i| indeg[*i] == 0).collect();
    while !wave.is_empty() {
        let mut next = Vec::new();
        for &x in &wave {
            for &s in succ.get(x) {
                indeg[s] -= 1;
                if indeg[s] == 0 {
                    next.push(s);
                }
            }
        }
        order.append(&mut wave);
        next.sort_unstable();
        wave = next;
    }
    order
}

/// A list of numbers per node, all in one vector: node `i`'s are
/// `items[start[i]..start[i + 1]]`.
#[derive(Debug)]
struct Lists {
    start: Vec<usize>,
    items: Vec<usize>,
}

impl Default for Lists {
    fn default() -> Lists {
        Lists {
            start: vec![0],
            items: Vec::new(),
        }
    }
}

impl Lists {
    /// Room for `n` lists (their items grow as they come).
    fn with_capacity(n: usize) -> Lists {
        let mut start = Vec::with_capacity(n + 1);
        start.push(0);
        Lists {
            start,
            items: Vec::new(),
        }
    }

    /// Appends the next node's list.
    fn push(&mut self, items: impl Iterator<Item = usize>) {
        self.items.extend(items);
        self.start.push(self.items.len());
    }

    fn len(&self) -> usize {
        self.start.len() - 1
    }

    fn get(&self, i: usize) -> &[usize] {
        &self.items[self.start[i]..self.start[i + 1]]
    }

    /// The same lists with every number mapped by `f`.
    fn mapped(&self, f: impl Fn(usize) -> usize) -> Lists {
        Lists {
            start: self.start.clone(),
            items: self.items.iter().map(|&x| f(x)).collect(),
        }
    }

    /// The inverse relation over `0..targets`: for every number, the nodes
    /// whose lists hold it, in node order (a counting sort, linear in the
    /// items).
    fn inverted(&self, targets: usize) -> Lists {
        let mut start = vec![0usize; targets + 1];
        for &t in &self.items {
            start[t + 1] += 1;
        }
        for t in 0..targets {
            start[t + 1] += start[t];
        }
        let mut fill = start.clone();
        let mut items = vec![0usize; self.items.len()];
        for node in 0..self.len() {
            for &t in self.get(node) {
                items[fill[t]] = node;
                fill[t] += 1;
            }
        }
        Lists { start, items }
    }
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
            .map(|vi| (i, class, &class.vars[vi]))
    });
    match owner {
        Some((0, class, v)) if v.causality == ClassCausality::Input && v.connector.is_some() => {
            let connector = &class.connectors[v.connector.expect("checked")].name;
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
        Some((i, _, v)) => Diagnostic::error(
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
        Step::Copy(c) => format!("`{}`", c.text(sys)),
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

fn algebraic_loop(sys: &System, nodes: &[Step], preds: &Lists, indeg: &[usize]) -> Diagnostic {
    // Walk backwards through unfinished nodes until one repeats: a cycle.
    let start = (0..nodes.len())
        .find(|i| indeg[*i] > 0)
        .expect("a node is left");
    let mut path = vec![start];
    let mut cur = start;
    loop {
        let next = preds
            .get(cur)
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
        crate::ir::Stmt::For { body, .. } | crate::ir::Stmt::Clocked { body, .. } => {
            for b in body {
                for_each_assign_span(b, f);
            }
        }
        crate::ir::Stmt::Tick(t) => {
            for b in t.shift.iter().chain(&t.start) {
                for_each_assign_span(b, f);
            }
        }
    }
}

/// The span of the first assignment of a statement.
fn first_span(s: &crate::ir::Stmt) -> Option<Span> {
    match s {
        crate::ir::Stmt::Assign { span, .. } => Some(*span),
        crate::ir::Stmt::For { body, .. } | crate::ir::Stmt::Clocked { body, .. } => {
            body.iter().find_map(first_span)
        }
        crate::ir::Stmt::Tick(t) => Some(t.span),
    }
}

/// The offsets in `R` of the elements after the first of every member of
/// an array of connectors, each with its variable's first offset.
fn connector_array_elements(sys: &System) -> std::collections::HashMap<usize, usize> {
    let mut out = std::collections::HashMap::new();
    for inst in &sys.instances {
        let model = &sys.classes[inst.class].model;
        for v in 0..model.vars.len() {
            if let (true, Some(off)) = (model.in_connector_array(v), inst.var_offset[v]) {
                for e in 1..inst.var_len[v] {
                    out.insert(off + e, off);
                }
            }
        }
    }
    out
}

/// The instance and variable an endpoint of a connection in instance `p`
/// names.
fn endpoint(sys: &System, p: usize, e: &Endpoint) -> (usize, usize) {
    let instance = match e.sub {
        None => p,
        Some(k) => sys.instances[p].subs[k].expect("sub-components are instantiated"),
    };
    (instance, e.var)
}

/// The copies of instance `p`'s connection sets (formed per class), once
/// the sizes of the connected variables agree.
fn connections(
    sys: &System,
    p: usize,
    copies: &mut Vec<Copy>,
    dropped: &mut Vec<unroll::Dropped>,
    diags: &mut Vec<Diagnostic>,
) {
    let model = &sys.classes[sys.instances[p].class].model;
    if model.connections_per_instance() {
        let Some(connects) = instance_connects(sys, p, dropped, diags) else {
            return;
        };
        // The sides name instances directly.
        let at = |e: &Endpoint| (e.sub.unwrap_or(p), e.var);
        if !sizes_agree(sys, connects.iter().copied(), &at, diags) {
            return;
        }
        let name = |j: usize| sys.instances[j].path.clone();
        match connect::form_sets(&connects, &name) {
            Ok(transfers) => copy_transfers(sys, &transfers, &at, copies),
            Err(ds) => diags.extend(ds),
        }
        return;
    }
    let at = |e: &Endpoint| endpoint(sys, p, e);
    if !sizes_agree(
        sys,
        model.connects.iter().map(Connect::as_written),
        &at,
        diags,
    ) {
        return;
    }
    let transfers = model
        .transfers
        .as_ref()
        .expect("a compiled class has its connection sets");
    copy_transfers(sys, transfers, &at, copies);
}

/// Connected arrays must have one size in every instance (MC059).
fn sizes_agree<'c>(
    sys: &System,
    connects: impl IntoIterator<Item = BoundConnect<'c>>,
    at: &dyn Fn(&Endpoint) -> (usize, usize),
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let before = diags.len();
    for c in connects {
        let len = |side: &BoundSide, var: usize| {
            if side.at.is_some() {
                // One element of an array of connectors: a scalar member.
                return 1;
            }
            let (i, v) = at(&Endpoint {
                sub: side.sub,
                var,
                element: None,
            });
            sys.instances[i].var_len[v]
        };
        let fits = c.a.side.members.iter().filter(|m| m.copied).all(|ma| {
            c.b.side
                .members
                .iter()
                .find(|mb| mb.copied && mb.key == ma.key)
                .is_some_and(|mb| len(&c.a, ma.var) == len(&c.b, mb.var))
        });
        if !fits {
            diags.push(c.connect.incompatible());
        }
    }
    diags.len() == before
}

/// The copies the transfers of one instance make.
fn copy_transfers(
    sys: &System,
    transfers: &[crate::resolve::connect::Transfer],
    at: &dyn Fn(&Endpoint) -> (usize, usize),
    copies: &mut Vec<Copy>,
) {
    copies.reserve(transfers.len());
    for t in transfers {
        // The offset in R and the length of what an endpoint names: a
        // whole variable, or one element of a member of an array of
        // connectors.
        let place = |e: &Endpoint| {
            let (i, v) = at(e);
            let inst = &sys.instances[i];
            let offset = inst.var_offset[v].expect("Real variables are laid out");
            match e.element {
                Some(k) => (offset + k, 1),
                None => (offset, inst.var_len[v]),
            }
        };
        let (target, len) = place(&t.target);
        let copy = if t.flow {
            Copy {
                target,
                len,
                sources: t
                    .sources
                    .iter()
                    .map(|e| (place(e).0, e.flow_sign()))
                    .collect(),
                coefficient: -t.target.flow_sign(),
                span: t.span,
                flow: true,
            }
        } else {
            Copy {
                target,
                len,
                sources: vec![(place(&t.sources[0]).0, 1.0)],
                coefficient: 1.0,
                span: t.span,
                flow: false,
            }
        };
        copies.push(copy);
    }
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
            Ex::User(f, args, _) => {
                for a in args {
                    if depends(a, d)? {
                        return Err(format!(
                            "it passes a quantity that depends on a balance to function `{f}`"
                        ));
                    }
                }
                false
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
            Ex::Reduce(op, _, _, _, body) => {
                let any = depends(body, d)?;
                if any && *op != crate::ir::Reduction::Sum {
                    return Err(format!(
                        "it takes the {op:?} of quantities that depend on a balance"
                    )
                    .to_lowercase());
                }
                any
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
                        Stmt::For { body, .. } | Stmt::Clocked { body, .. } => {
                            stack.extend(body.iter().rev())
                        }
                        Stmt::Tick(t) => stack.extend(t.shift.iter().rev()),
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
