//! The connects of one instance of a class whose connection sets are
//! formed per instance: `for` loops run over their ranges, element indices
//! evaluated, each side bound to the instance it names. A connect to an
//! absent conditional component, or to an absent conditional connector,
//! is dropped, as in Modelica.

use crate::diagnostic::Diagnostic;
use crate::instantiate::{element_position, eval, System};
use crate::ir::Ex;
use crate::resolve::connect::{BoundConnect, BoundSide, Connect, Port, Side};

/// The connects of instance `p` with every side bound: its `sub` the
/// instance it names (`None`: a port of `p` itself), its `at` the element
/// of an array of connectors; `None` when an index is out of range or
/// cannot be evaluated (reported).
pub(crate) fn instance_connects<'s>(
    sys: &'s System,
    p: usize,
    dropped: &mut Vec<Dropped>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<BoundConnect<'s>>> {
    let inst = &sys.instances[p];
    let entry = &sys.classes[inst.class];
    let shapes = &entry.causalized.structure.connects;
    let before = diags.len();
    // Sized at once: a `for` loop over 10^5 elements is 10^5 connects, and a
    // vector grown by doubling copies them again and again.
    let count: usize = shapes
        .iter()
        .filter_map(|shape| iterations(&shape.loops, &inst.ints, &mut Vec::new()))
        .fold(0usize, usize::saturating_add);
    let mut out = Vec::with_capacity(count.min(MAX_RESERVED));
    for (c, shape) in entry.model.connects.iter().zip(shapes) {
        let mut loops = Vec::with_capacity(shape.loops.len());
        let mut each = |loops: &[i64], diags: &mut Vec<Diagnostic>| {
            let a = bind(sys, p, c, &c.a, &shape.a, loops, diags)
                .map(|s| s.and_then(|s| element(sys, p, c, s, &shape.a_element, loops, diags)));
            let b = bind(sys, p, c, &c.b, &shape.b, loops, diags)
                .map(|s| s.and_then(|s| element(sys, p, c, s, &shape.b_element, loops, diags)));
            match (a, b) {
                (Some(Some(a)), Some(Some(b))) => out.push(BoundConnect { a, b, connect: c }),
                // A conditional connector that is absent: the connector on
                // the other side loses this connection.
                (Some(None), Some(Some(other))) if c.a.conditional => {
                    dropped.extend(Dropped::of(p, other, &c.a, c.span))
                }
                (Some(Some(other)), Some(None)) if c.b.conditional => {
                    dropped.extend(Dropped::of(p, other, &c.b, c.span))
                }
                _ => {}
            }
        };
        unroll(&shape.loops, &inst.ints, &mut loops, c, diags, &mut each);
    }
    (diags.len() == before).then_some(out)
}

/// A connect dropped because one side is an absent conditional connector:
/// the connector on the other side, bound to its instance.
pub(crate) struct Dropped {
    pub instance: usize,
    pub connector: usize,
    /// The absent side as written (`volume.heatPort`).
    pub absent: String,
    pub span: crate::source::Span,
}

impl Dropped {
    fn of(p: usize, other: BoundSide, absent: &Side, span: crate::source::Span) -> Option<Dropped> {
        let Port::Connector(connector) = other.side.port else {
            return None;
        };
        Some(Dropped {
            instance: other.sub.unwrap_or(p),
            connector,
            absent: absent.name.clone(),
            span,
        })
    }
}

/// The most connects [`instance_connects`] reserves room for at once.
const MAX_RESERVED: usize = 1 << 24;

/// How many times [`unroll`] runs its `each` over `ranges`; `None` when a
/// range cannot be evaluated (`unroll` then reports it).
fn iterations(ranges: &[(Ex, Ex)], ints: &[i64], loops: &mut Vec<i64>) -> Option<usize> {
    let Some((lo, hi)) = ranges.get(loops.len()) else {
        return Some(1);
    };
    let (lo, hi) = (eval(lo, ints, loops)? as i64, eval(hi, ints, loops)? as i64);
    if loops.len() + 1 == ranges.len() {
        return Some(usize::try_from(hi.saturating_sub(lo).saturating_add(1)).unwrap_or(0));
    }
    let mut n = 0usize;
    for i in lo..=hi {
        loops.push(i);
        let inner = iterations(ranges, ints, loops);
        loops.pop();
        n = n.saturating_add(inner?);
        if n >= MAX_RESERVED {
            break;
        }
    }
    Some(n)
}

/// Runs `each` for every value of the loop indices, outermost first.
fn unroll(
    ranges: &[(Ex, Ex)],
    ints: &[i64],
    loops: &mut Vec<i64>,
    c: &Connect,
    diags: &mut Vec<Diagnostic>,
    each: &mut dyn FnMut(&[i64], &mut Vec<Diagnostic>),
) {
    let Some((lo, hi)) = ranges.get(loops.len()) else {
        each(loops, diags);
        return;
    };
    let (Some(lo), Some(hi)) = (eval(lo, ints, loops), eval(hi, ints, loops)) else {
        diags.push(not_evaluated(c));
        return;
    };
    let (lo, hi) = (lo as i64, hi as i64);
    for i in lo..=hi {
        loops.push(i);
        unroll(ranges, ints, loops, c, diags, each);
        loops.pop();
    }
}

/// One side bound to its instance: `Some(None)` when it names an absent
/// conditional component, `None` after a diagnostic.
fn bind<'s>(
    sys: &System,
    p: usize,
    c: &Connect,
    side: &'s Side,
    index: &[Ex],
    loops: &[i64],
    diags: &mut Vec<Diagnostic>,
) -> Option<Option<BoundSide<'s>>> {
    let absent = |instance: usize| match side.port {
        Port::Connector(c) => sys.instances[instance].absent_connectors.contains(&c),
        Port::Signal(_) => false,
    };
    let Some(k) = side.sub else {
        if absent(p) {
            return Some(None);
        }
        return Some(Some(side.as_written()));
    };
    let inst = &sys.instances[p];
    let elements = &inst.elements[k];
    let model = &sys.classes[inst.class].model;
    let target = if index.is_empty() {
        match elements.first() {
            Some(e) => *e,
            None => return Some(None),
        }
    } else {
        let mut at = Vec::with_capacity(index.len());
        for i in index {
            let Some(i) = eval(i, &inst.ints, loops) else {
                diags.push(not_evaluated(c));
                return None;
            };
            at.push(i);
        }
        let shape = &inst.shapes[k];
        let whole: Option<Vec<i64>> = at
            .iter()
            .map(|i| (i.fract() == 0.0).then_some(*i as i64))
            .collect();
        match whole.and_then(|w| element_position(shape, &w)) {
            Some(e) => elements[e],
            None => {
                diags.push(outside(&model.subs[k].name, &at, shape, loops, c));
                return None;
            }
        }
    };
    if absent(target) {
        return Some(None);
    }
    Some(Some(BoundSide {
        side,
        sub: Some(target),
        at: side.at,
    }))
}

/// A bound side with the element of an array of connectors it names
/// evaluated (`Side::at`); `None` after a diagnostic (MX031 for an index
/// outside the array).
fn element<'s>(
    sys: &System,
    p: usize,
    c: &Connect,
    mut bound: BoundSide<'s>,
    index: &Option<Ex>,
    loops: &[i64],
    diags: &mut Vec<Diagnostic>,
) -> Option<BoundSide<'s>> {
    let Some(index) = index else {
        return Some(bound);
    };
    // The side is bound: its `sub` is the instance it names.
    let owner = bound.sub.unwrap_or(p);
    let side = bound.side;
    let inst = &sys.instances[p];
    let Some(i) = eval(index, &inst.ints, loops) else {
        diags.push(not_evaluated(c));
        return None;
    };
    let first = side.members.iter().find(|m| m.copied)?;
    let n = sys.instances[owner].var_len[first.var];
    if i.fract() != 0.0 || i < 1.0 || i > n as f64 {
        let path = &sys.instances[owner].path;
        let name = if bound.sub.is_some() && !path.is_empty() {
            format!("{path}.{}", side.name)
        } else {
            side.name.clone()
        };
        let at = if loops.is_empty() {
            String::new()
        } else {
            format!(
                " (loop indices {})",
                loops
                    .iter()
                    .map(|l| l.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        diags.push(
            Diagnostic::error(
                "MX031",
                c.span,
                format!("`{name}[{i}]`{at} is outside the array of connectors `{name}[1:{n}]`"),
            )
            .with_label("connector index out of range")
            .with_help(format!(
                "connect elements 1 to {n} of `{name}`; check the loop's range and the array's size"
            )),
        );
        return None;
    }
    bound.at = Some(i as usize - 1);
    Some(bound)
}

/// MX027: a connect names an element `name[at]` that the array of
/// components of the given shape does not have.
fn outside(name: &str, at: &[f64], shape: &[usize], loops: &[i64], c: &Connect) -> Diagnostic {
    let join = |xs: Vec<String>| xs.join(", ");
    let written = join(at.iter().map(|i| i.to_string()).collect());
    let whole = join(shape.iter().map(|n| format!("1:{n}")).collect());
    let at = if loops.is_empty() {
        String::new()
    } else {
        format!(
            " (loop indices {})",
            join(loops.iter().map(|l| l.to_string()).collect())
        )
    };
    let sizes = join(shape.iter().map(|n| n.to_string()).collect());
    let help = if shape.len() == 1 {
        format!("connect elements 1 to {sizes} of `{name}`; check the loop's range")
    } else {
        format!("connect elements of `{name}` within its size [{sizes}]; check the loops' ranges")
    };
    Diagnostic::error(
        "MX027",
        c.span,
        format!("`{name}[{written}]`{at} is outside the array `{name}[{whole}]`"),
    )
    .with_label("index out of range")
    .with_help(help)
}

fn not_evaluated(c: &Connect) -> Diagnostic {
    Diagnostic::error(
        "MC123",
        c.span,
        "the loop range or element index of this connect cannot be computed at export",
    )
    .with_label("not a structural value")
    .with_help("use literals, loop indices and Integer parameters that have values")
}
