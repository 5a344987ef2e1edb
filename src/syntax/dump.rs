//! A compact, stable text rendering of the AST, one item a line, used by the
//! golden tests and handy when debugging. Expressions are printed fully
//! parenthesised so precedence is visible; spans are printed as `@start..end`.

use crate::source::Span;
use crate::syntax::ast::*;
use std::fmt::Write;

/// Render a parsed file as indented text.
pub fn dump(definition: &StoredDefinition) -> String {
    let mut out = String::new();
    if let Some(within) = &definition.within {
        let _ = writeln!(out, "within {}", within.dotted());
    }
    for class in &definition.classes {
        class_def(&mut out, 0, class, "");
    }
    out
}

/// Render one expression on one line.
pub fn dump_expr(expr: &Expr) -> String {
    let mut out = String::new();
    write_expr(&mut out, expr);
    out
}

fn at(span: Span) -> String {
    format!("@{}..{}", span.start, span.end)
}

fn line(out: &mut String, indent: usize, text: &str) {
    for _ in 0..indent {
        out.push_str("  ");
    }
    out.push_str(text);
    out.push('\n');
}

fn quoted(text: &str) -> String {
    format!("\"{}\"", text.escape_debug())
}

fn class_def(out: &mut String, indent: usize, class: &ClassDef, element_prefixes: &str) {
    let mut head = String::from(element_prefixes);
    let p = &class.prefixes;
    for (slot, word) in [
        (p.encapsulated, "encapsulated "),
        (p.partial, "partial "),
        (p.expandable, "expandable "),
        (p.purity, "pure/impure "),
        (p.operator, "operator "),
    ] {
        if slot.is_some() {
            head.push_str(word);
        }
    }
    let _ = write!(head, "{} {}", class.kind.keyword(), class.name.name);
    match &class.body {
        ClassBody::Short(short) => {
            head.push_str(" = ");
            head.push_str(&type_prefixes(&short.prefixes));
            head.push_str(&short.base.dotted());
            head.push_str(&subscripts(&short.dims));
            if let Some(m) = &short.modification {
                head.push_str(&modification(m));
            }
        }
        ClassBody::Unsupported { what, span } => {
            let _ = write!(head, " unsupported({what} {})", at(*span));
        }
        ClassBody::Enumeration { literals, span } => {
            let names: Vec<&str> = literals.iter().map(|l| l.name.name.as_str()).collect();
            let _ = write!(head, " = enumeration({}) {}", names.join(", "), at(*span));
        }
        ClassBody::Long(_) => {}
    }
    if let Some(d) = &class.description {
        head.push(' ');
        head.push_str(&quoted(d));
    }
    head.push(' ');
    head.push_str(&at(class.span));
    line(out, indent, &head);
    if let Some(e) = &class.experiment {
        let values: Vec<String> = [
            ("StartTime", e.start_time),
            ("StopTime", e.stop_time),
            ("Tolerance", e.tolerance),
            ("Interval", e.interval),
        ]
        .iter()
        .filter_map(|(name, value)| value.map(|v| format!("{name} = {v:?}")))
        .collect();
        let text = format!("experiment({}) {}", values.join(", "), at(e.span));
        line(out, indent + 1, &text);
    }
    if let ClassBody::Long(body) = &class.body {
        for element in &body.elements {
            element_line(out, indent + 1, element);
        }
        for section in &body.sections {
            section_lines(out, indent + 1, section);
        }
        line(out, indent, &format!("end {}", body.end_name.name));
    }
}

fn visibility(v: Visibility) -> &'static str {
    match v {
        Visibility::Public => "",
        Visibility::Protected => "protected ",
    }
}

fn element_prefixes(p: &ElementPrefixes) -> String {
    let mut s = String::new();
    for (slot, word) in [
        (p.redeclare, "redeclare "),
        (p.final_, "final "),
        (p.inner, "inner "),
        (p.outer, "outer "),
        (p.replaceable, "replaceable "),
    ] {
        if slot.is_some() {
            s.push_str(word);
        }
    }
    s
}

fn type_prefixes(p: &TypePrefixes) -> String {
    let mut s = String::new();
    for (slot, word) in [
        (p.flow, "flow "),
        (p.stream, "stream "),
        (p.discrete, "discrete "),
        (p.parameter, "parameter "),
        (p.constant, "constant "),
        (p.input, "input "),
        (p.output, "output "),
    ] {
        if slot.is_some() {
            s.push_str(word);
        }
    }
    s
}

fn element_line(out: &mut String, indent: usize, element: &Element) {
    match element {
        Element::Class {
            visibility: v,
            prefixes,
            class,
        } => {
            let prefix = format!("{}{}", visibility(*v), element_prefixes(prefixes));
            class_def(out, indent, class, &prefix);
        }
        Element::Extends(e) => {
            let mut s = format!("{}extends {}", visibility(e.visibility), e.name.dotted());
            if !e.modification.is_empty() {
                s.push_str(&arguments(&e.modification));
            }
            let _ = write!(s, " {}", at(e.span));
            line(out, indent, &s);
        }
        Element::Import(i) => {
            let mut s = format!("{}import ", visibility(i.visibility));
            if let Some(alias) = &i.alias {
                let _ = write!(s, "{} = ", alias.name);
            }
            s.push_str(&i.name.dotted());
            if i.wildcard.is_some() {
                s.push_str(".*");
            }
            if !i.multiple.is_empty() {
                let names: Vec<&str> = i.multiple.iter().map(|n| n.name.as_str()).collect();
                let _ = write!(s, ".{{{}}}", names.join(", "));
            }
            let _ = write!(s, " {}", at(i.span));
            line(out, indent, &s);
        }
        Element::Component(c) => {
            let mut s = format!(
                "{}{}{}{}{} {}{}",
                visibility(c.visibility),
                element_prefixes(&c.element_prefixes),
                type_prefixes(&c.prefixes),
                c.type_name.dotted(),
                subscripts(&c.type_dims),
                c.name.name,
                subscripts(&c.dims),
            );
            if let Some(m) = &c.modification {
                s.push_str(&modification(m));
            }
            if let Some(cond) = &c.condition {
                let _ = write!(s, " if {}", dump_expr(cond));
            }
            if let Some(d) = &c.description {
                let _ = write!(s, " {}", quoted(d));
            }
            let _ = write!(s, " {}", at(c.span));
            line(out, indent, &s);
        }
    }
}

fn subscripts(subs: &[Subscript]) -> String {
    if subs.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = subs
        .iter()
        .map(|s| match s {
            Subscript::Colon(_) => ":".to_string(),
            Subscript::Expr(e) => dump_expr(e),
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

fn modification(m: &Modification) -> String {
    let mut s = String::new();
    if !m.arguments.is_empty() {
        s.push_str(&arguments(&m.arguments));
    }
    if let Some(b) = &m.binding {
        let _ = write!(s, " = {}", dump_expr(b));
    }
    s
}

fn arguments(args: &[Argument]) -> String {
    let parts: Vec<String> = args
        .iter()
        .map(|a| match a {
            Argument::Modify {
                each,
                final_,
                name,
                modification: m,
                ..
            } => {
                let mut s = String::new();
                if each.is_some() {
                    s.push_str("each ");
                }
                if final_.is_some() {
                    s.push_str("final ");
                }
                s.push_str(&name.dotted());
                if let Some(m) = m {
                    s.push_str(&modification(m));
                }
                s
            }
            Argument::Redeclare { span } => format!("redeclare{}", at(*span)),
            Argument::RedeclareClass(r) => format!(
                "redeclare {} {} = {}{}",
                r.kind.keyword(),
                r.name.name,
                r.base.dotted(),
                at(r.span)
            ),
        })
        .collect();
    format!("({})", parts.join(", "))
}

fn section_lines(out: &mut String, indent: usize, section: &Section) {
    match section {
        Section::Equation {
            initial,
            equations,
            span,
        } => {
            let word = if initial.is_some() {
                "initial equation"
            } else {
                "equation"
            };
            line(out, indent, &format!("{word} {}", at(*span)));
            for eq in equations {
                equation_lines(out, indent + 1, eq);
            }
        }
        Section::Algorithm { initial, span, .. } => {
            let word = if initial.is_some() {
                "initial algorithm"
            } else {
                "algorithm"
            };
            line(out, indent, &format!("{word} {}", at(*span)));
        }
    }
}

fn equation_lines(out: &mut String, indent: usize, eq: &Equation) {
    match eq {
        Equation::Simple { lhs, rhs, span } => {
            let text = format!("{} = {} {}", dump_expr(lhs), dump_expr(rhs), at(*span));
            line(out, indent, &text);
        }
        Equation::Connect { a, b, span } => {
            let text = format!("connect({}, {}) {}", cref(a), cref(b), at(*span));
            line(out, indent, &text);
        }
        Equation::For {
            index,
            range,
            body,
            span,
        } => {
            let text = format!("for {} in {} {}", index.name, dump_expr(range), at(*span));
            line(out, indent, &text);
            for e in body {
                equation_lines(out, indent + 1, e);
            }
        }
        Equation::If {
            branches,
            else_,
            span,
        } => {
            line(out, indent, &format!("if-equation {}", at(*span)));
            for (cond, body) in branches {
                line(out, indent + 1, &format!("if {}", dump_expr(cond)));
                for e in body {
                    equation_lines(out, indent + 2, e);
                }
            }
            if !else_.is_empty() {
                line(out, indent + 1, "else");
                for e in else_ {
                    equation_lines(out, indent + 2, e);
                }
            }
        }
        Equation::When { span, .. } => line(out, indent, &format!("when-equation {}", at(*span))),
        Equation::Outputs {
            targets,
            value,
            span,
        } => {
            let targets: Vec<String> = targets
                .iter()
                .map(|t| t.as_ref().map(dump_expr).unwrap_or_default())
                .collect();
            let text = format!(
                "outputs ({}) = {} {}",
                targets.join(", "),
                dump_expr(value),
                at(*span)
            );
            line(out, indent, &text);
        }
        Equation::Call { name, args, span } => {
            let args: Vec<String> = args.iter().map(dump_expr).collect();
            let text = format!("call {}({}) {}", name.dotted(), args.join(", "), at(*span));
            line(out, indent, &text);
        }
    }
}

fn cref(r: &ComponentRef) -> String {
    let mut s = String::new();
    if r.global {
        s.push('.');
    }
    for (i, part) in r.parts.iter().enumerate() {
        if i > 0 {
            s.push('.');
        }
        s.push_str(&part.name.name);
        s.push_str(&subscripts(&part.subscripts));
    }
    s
}

fn binop(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Pow => "^",
        BinOp::ElemAdd => ".+",
        BinOp::ElemSub => ".-",
        BinOp::ElemMul => ".*",
        BinOp::ElemDiv => "./",
        BinOp::ElemPow => ".^",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::Eq => "==",
        BinOp::Ne => "<>",
        BinOp::And => "and",
        BinOp::Or => "or",
    }
}

fn write_list(out: &mut String, items: &[Expr]) {
    for (i, e) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_expr(out, e);
    }
}

fn write_expr(out: &mut String, expr: &Expr) {
    match &expr.kind {
        ExprKind::Integer(v) => {
            let _ = write!(out, "{v}");
        }
        ExprKind::Real(v) => {
            let _ = write!(out, "{v:?}");
        }
        ExprKind::Bool(v) => {
            let _ = write!(out, "{v}");
        }
        ExprKind::String(s) => out.push_str(&quoted(s)),
        ExprKind::Ref(r) => out.push_str(&cref(r)),
        ExprKind::Binary(op, a, b) => {
            out.push('(');
            write_expr(out, a);
            let _ = write!(out, " {} ", binop(*op));
            write_expr(out, b);
            out.push(')');
        }
        ExprKind::Unary(op, a) => {
            out.push_str(match op {
                UnOp::Neg => "(-",
                UnOp::Plus => "(+",
                UnOp::Not => "(not ",
            });
            write_expr(out, a);
            out.push(')');
        }
        ExprKind::Call { func, args, named } => {
            out.push_str(&func.dotted());
            out.push('(');
            write_list(out, args);
            for (i, (name, value)) in named.iter().enumerate() {
                if i > 0 || !args.is_empty() {
                    out.push_str(", ");
                }
                let _ = write!(out, "{} = ", name.name);
                write_expr(out, value);
            }
            out.push(')');
        }
        ExprKind::If { branches, else_ } => {
            out.push_str("(if ");
            for (i, (cond, value)) in branches.iter().enumerate() {
                if i > 0 {
                    out.push_str(" elseif ");
                }
                write_expr(out, cond);
                out.push_str(" then ");
                write_expr(out, value);
            }
            out.push_str(" else ");
            write_expr(out, else_);
            out.push(')');
        }
        ExprKind::Array(items) => {
            out.push('{');
            write_list(out, items);
            out.push('}');
        }
        ExprKind::Matrix(rows) => {
            out.push('[');
            for (i, row) in rows.iter().enumerate() {
                if i > 0 {
                    out.push_str("; ");
                }
                write_list(out, row);
            }
            out.push(']');
        }
        ExprKind::Range { start, step, stop } => {
            out.push('(');
            write_expr(out, start);
            if let Some(step) = step {
                out.push(':');
                write_expr(out, step);
            }
            out.push(':');
            write_expr(out, stop);
            out.push(')');
        }
        ExprKind::End => out.push_str("end"),
    }
}
