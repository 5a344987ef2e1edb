//! The porting recipe for acausal connectors (docs/electrical.md).
//!
//! A Modelica connector of potentials and flows (`Real v; flow Real i;`,
//! MC014) leaves the direction to the connection set. Under the methodology
//! it becomes two connector classes: one whose owner determines the
//! potentials (`output`) and one whose owner receives them (`input`) and
//! determines the flows. Making the one class `output` (the earlier
//! suggestion) turned every component that receives the potential into
//! errors that point away from the cause. So the fix writes both classes,
//! `<Name>Out` and `<Name>In`, in place of the one; each use of the old name
//! is then an unknown class whose help says which of the two to choose, one
//! decision at each pin.
//!
//! A node that no side determines (MC060: two conductors in series) gets a
//! help naming the connector classes of the library that would determine
//! it, and the declared tearing that stands for a node without capacity.

use std::collections::HashSet;

use crate::diagnostic::Diagnostic;
use crate::resolve::tree::{ClassNode, ClassTree};
use crate::source::{SourceMap, Span};
use crate::syntax::ast::{ClassBody, ClassKind, Element};

const RECIPE: &str = "docs/electrical.md, \"The recipe\"";

/// MC014 at the first acausal potential of `class`: the help names the
/// two-connector form, and when the class is the plain Modelica form
/// (potentials without prefix and flows, nothing else) the fix writes it.
pub(super) fn two_connector_form(sources: &SourceMap, class: &ClassNode, d: &mut Diagnostic) {
    let name = &class.name;
    d.help = format!(
        "a connector's potentials travel as signals, so an acausal connector becomes two \
         connector classes: `{name}Out` with `output` potentials (its owner determines them, as a \
         source, a capacitance, a mass or a ground does; it learns the flows) and `{name}In` with `input` \
         potentials (its owner receives them and determines the flows); each component then \
         chooses one for each of its connectors ({RECIPE})"
    );
    let Some((text, insertions)) = plain_acausal(sources, class) else {
        return;
    };
    let out = rewritten(&text, &insertions, class, "output ", &format!("{name}Out"));
    let input = rewritten(&text, &insertions, class, "input ", &format!("{name}In"));
    d.push_fix(
        format!("split `{name}` into `{name}Out` and `{name}In`"),
        class.def.span,
        format!(
            "{out}\n\n{}",
            indented_like(sources, class.def.span, &input)
        ),
    );
}

/// MC005 of `Name` where the library declares `NameOut` and `NameIn` (the
/// two-connector form the fix above wrote): the help that says which to
/// choose.
pub(super) fn choose_a_side(tree: &ClassTree, written: &str) -> Option<String> {
    let short = written.rsplit('.').next().unwrap_or(written);
    let (out, input) = (format!("{short}Out"), format!("{short}In"));
    let has = |n: &str| {
        tree.classes
            .iter()
            .any(|c| c.name == n && c.def.kind == ClassKind::Connector)
    };
    if !(has(&out) && has(&input)) {
        return None;
    }
    Some(format!(
        "`{short}` was split into `{out}` and `{input}`: write `{out}` where this component \
         determines the potential (a source, a capacitance, a ground; it learns the flow) and \
         `{input}` where it receives the potential and determines the flow ({RECIPE})"
    ))
}

/// MC060: the connector classes whose member `name` is an `output` (what
/// would determine the node), and the declared tearing of a node without
/// capacity.
pub(super) fn determine_the_node(tree: &ClassTree, d: &mut Diagnostic) {
    let Some(name) = d
        .message
        .strip_prefix("no side of this connection determines `")
        .and_then(|rest| rest.split('`').next())
    else {
        return;
    };
    let member = name.rsplit('.').next().unwrap_or(name);
    let determining: Vec<String> = tree
        .classes
        .iter()
        .filter(|c| c.def.kind == ClassKind::Connector && declares_output(c, member))
        .map(|c| format!("`{}`", c.qualified))
        .take(3)
        .collect();
    let which = if determining.is_empty() {
        String::new()
    } else {
        format!(" ({})", determining.join(", "))
    };
    d.help = format!(
        "connect one side that determines `{member}`: a component whose connector declares \
         `{member}` an `output`{which}, such as a source or a capacitance; where no element \
         determines it (two resistances \
         in series), connect a node component that chooses `{member}` as the `balance` of a \
         `Base.LinearResponse` whose `residual` is the sum of the flows, as \
         `Electrical.Basic.Node` does ({RECIPE})"
    );
}

/// A connection set that no side determines (MC060) has no side to
/// receive its flow either: that MC062 ("found 0", at the same set) is the
/// same root cause and is dropped.
pub(super) fn drop_flows_of_undetermined_sets(diags: &mut Vec<Diagnostic>) {
    let undetermined: HashSet<Span> = diags
        .iter()
        .filter(|d| d.code == "MC060")
        .map(|d| d.span)
        .collect();
    diags.retain(|d| {
        !(d.code == "MC062" && d.message.ends_with("found 0") && undetermined.contains(&d.span))
    });
}

fn declares_output(class: &ClassNode, member: &str) -> bool {
    let ClassBody::Long(body) = &class.def.body else {
        return false;
    };
    body.elements.iter().any(|e| {
        matches!(e, Element::Component(c) if c.name.name == member && c.prefixes.output.is_some())
    })
}

/// The class's text and the offsets (relative to it) where each potential
/// clause starts, when the class is a plain acausal connector: components
/// only, each a flow or a potential without `input`/`output`.
fn plain_acausal(sources: &SourceMap, class: &ClassNode) -> Option<(String, Vec<usize>)> {
    let ClassBody::Long(body) = &class.def.body else {
        return None;
    };
    let span = class.def.span;
    let mut insertions = Vec::new();
    for e in &body.elements {
        let Element::Component(c) = e else {
            return None;
        };
        if c.prefixes.input.is_some() || c.prefixes.output.is_some() {
            return None;
        }
        if c.prefixes.flow.is_none() && c.span.file == span.file {
            insertions.push(c.span.start.checked_sub(span.start)? as usize);
        }
    }
    insertions.sort_unstable();
    insertions.dedup();
    let text = sources.snippet(span).to_string();
    (!insertions.is_empty()).then_some((text, insertions))
}

/// The class text with `prefix` inserted at each offset and the class's
/// name (after the keyword and after `end`) replaced by `name`.
fn rewritten(
    text: &str,
    insertions: &[usize],
    class: &ClassNode,
    prefix: &str,
    name: &str,
) -> String {
    let span = class.def.span;
    let header = (class.def.name.span.start - span.start) as usize;
    let old = &class.name;
    let end = text.rfind(&format!("end {old}")).map(|i| i + 4);
    let mut edits: Vec<(usize, usize, &str)> = insertions.iter().map(|i| (*i, 0, prefix)).collect();
    edits.push((header, old.len(), name));
    if let Some(e) = end {
        edits.push((e, old.len(), name));
    }
    edits.sort_by_key(|e| e.0);
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0;
    for (pos, len, with) in edits {
        out.push_str(&text[at..pos]);
        out.push_str(with);
        at = pos + len;
    }
    out.push_str(&text[at..]);
    out
}

/// `text` (a class) as a second class after the first: indented as the
/// first one is (its other lines keep the indentation they had).
fn indented_like(sources: &SourceMap, span: Span, text: &str) -> String {
    let file = &sources.get(span.file).text;
    let start = span.start as usize;
    let line_start = file[..start].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let indent: String = file[line_start..start]
        .chars()
        .take_while(|c| c.is_whitespace())
        .collect();
    format!("{indent}{text}")
}
