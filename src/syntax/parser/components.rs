//! Component clauses and what modifies them: element and type prefixes,
//! `constrainedby`, modifications and their arguments (`each`, `final`,
//! `redeclare`), and annotations, dropped except a class's `experiment`.

use super::cursor::{class_kind, PResult, Parser, Reported};
use crate::diagnostic::Diagnostic;
use crate::syntax::ast::*;
use crate::syntax::lexer::{Kw, Tok};

/// The `experiment(...)` among the arguments of a class annotation: its
/// number-literal values by name.
fn experiment_of(arguments: &[Argument]) -> Option<Experiment> {
    let (arguments, span) = arguments.iter().find_map(|a| match a {
        Argument::Modify {
            name,
            modification: Some(m),
            span,
            ..
        } if name.parts.len() == 1 && name.parts[0].name == "experiment" => {
            Some((&m.arguments, *span))
        }
        _ => None,
    })?;
    let mut experiment = Experiment {
        start_time: None,
        stop_time: None,
        tolerance: None,
        interval: None,
        span,
    };
    for argument in arguments {
        let Argument::Modify {
            name,
            modification:
                Some(Modification {
                    binding: Some(value),
                    ..
                }),
            ..
        } = argument
        else {
            continue;
        };
        let slot = match name.parts.as_slice() {
            [part] if part.name == "StartTime" => &mut experiment.start_time,
            [part] if part.name == "StopTime" => &mut experiment.stop_time,
            [part] if part.name == "Tolerance" => &mut experiment.tolerance,
            [part] if part.name == "Interval" => &mut experiment.interval,
            _ => continue,
        };
        *slot = number_literal(value);
    }
    Some(experiment)
}

/// A number literal with an optional sign.
fn number_literal(e: &Expr) -> Option<f64> {
    match &e.kind {
        ExprKind::Real(x) => Some(*x),
        ExprKind::Integer(i) => Some(*i as f64),
        ExprKind::Unary(UnOp::Neg, inner) => number_literal(inner).map(|x| -x),
        ExprKind::Unary(UnOp::Plus, inner) => number_literal(inner),
        _ => None,
    }
}

impl Parser<'_> {
    pub(crate) fn element_prefixes(&mut self) -> PResult<ElementPrefixes> {
        self.prefixes(
            |prefixes: &mut ElementPrefixes, p| match p.tok() {
                Tok::Kw(Kw::Redeclare) => Some(&mut prefixes.redeclare),
                Tok::Kw(Kw::Final) => Some(&mut prefixes.final_),
                Tok::Kw(Kw::Inner) => Some(&mut prefixes.inner),
                Tok::Kw(Kw::Outer) => Some(&mut prefixes.outer),
                Tok::Kw(Kw::Replaceable) => Some(&mut prefixes.replaceable),
                _ => None,
            },
            Self::duplicate_prefix,
        )
    }

    fn duplicate_prefix(&mut self) -> Reported {
        let token = self.current();
        let span = self.token_span(token);
        let found = self.found(token);
        self.push(
            Diagnostic::error("MS001", span, format!("duplicate prefix: {found}"))
                .with_label("already given")
                .with_help("write each prefix at most once"),
        )
    }

    pub(crate) fn type_prefixes(&mut self) -> PResult<TypePrefixes> {
        self.prefixes(
            |prefixes: &mut TypePrefixes, p| match p.tok() {
                Tok::Kw(Kw::Flow) => Some(&mut prefixes.flow),
                Tok::Kw(Kw::Stream) => Some(&mut prefixes.stream),
                Tok::Kw(Kw::Discrete) => Some(&mut prefixes.discrete),
                Tok::Kw(Kw::Parameter) => Some(&mut prefixes.parameter),
                Tok::Kw(Kw::Constant) => Some(&mut prefixes.constant),
                Tok::Kw(Kw::Input) => Some(&mut prefixes.input),
                Tok::Kw(Kw::Output) => Some(&mut prefixes.output),
                _ => None,
            },
            Self::duplicate_prefix,
        )
    }

    /// `annotation(...);` standing on its own in a class or section: the
    /// class annotation, whose `experiment` is kept.
    pub(crate) fn annotation_statement(&mut self) -> PResult<()> {
        if self.eat_kw(Kw::Annotation).is_some() {
            let arguments = self.class_modification()?;
            if let Some(experiment) = experiment_of(&arguments) {
                self.experiment = Some(experiment);
            }
        }
        self.expect(Tok::Semi, "`;` after the annotation")?;
        Ok(())
    }

    pub(crate) fn component_clause(
        &mut self,
        visibility: Visibility,
        element_prefixes: ElementPrefixes,
        start: u32,
    ) -> PResult<Vec<Element>> {
        let prefixes = self.type_prefixes()?;
        let type_name = self.name("a type name or element")?;
        let type_dims = if self.at(Tok::LBracket) {
            self.array_subscripts()?
        } else {
            Vec::new()
        };
        let mut components = Vec::new();
        loop {
            let name = self.ident("a component name")?;
            let dims = if self.at(Tok::LBracket) {
                self.array_subscripts()?
            } else {
                Vec::new()
            };
            let modification = self.modification_opt()?;
            let condition = if self.eat_kw(Kw::If).is_some() {
                Some(self.expression()?)
            } else {
                None
            };
            let description = self.string_comment()?;
            let span = self.span_from(start);
            self.annotation_opt()?;
            components.push(Element::Component(Component {
                visibility,
                element_prefixes: element_prefixes.clone(),
                prefixes: prefixes.clone(),
                type_name: type_name.clone(),
                type_dims: type_dims.clone(),
                name,
                dims,
                modification,
                condition,
                description,
                span,
            }));
            if self.eat(Tok::Comma).is_none() {
                break;
            }
        }
        self.constraining_clause_opt()?;
        self.expect(Tok::Semi, "`;` or `,`")?;
        Ok(components)
    }

    /// `constrainedby Name(mods) "text"` after a replaceable element: the
    /// name is kept, its modifiers dropped.
    pub(crate) fn constraining_clause_opt(&mut self) -> PResult<Option<Name>> {
        if self.eat_kw(Kw::Constrainedby).is_none() {
            return Ok(None);
        }
        let name = self.name("the constraining class")?;
        if self.at(Tok::LParen) {
            self.class_modification()?;
        }
        self.string_comment()?;
        self.annotation_opt()?;
        Ok(Some(name))
    }

    /// `(args) = e`, `(args)`, `= e`, `:= e`, or nothing.
    fn modification_opt(&mut self) -> PResult<Option<Modification>> {
        let start = self.start();
        let arguments = if self.at(Tok::LParen) {
            self.class_modification()?
        } else if !matches!(self.tok(), Tok::Equals | Tok::Assign) {
            return Ok(None);
        } else {
            Vec::new()
        };
        let binding = if self.eat(Tok::Equals).is_some() || self.eat(Tok::Assign).is_some() {
            Some(self.expression()?)
        } else {
            None
        };
        Ok(Some(Modification {
            arguments,
            binding,
            span: self.span_from(start),
        }))
    }

    pub(crate) fn class_modification(&mut self) -> PResult<Vec<Argument>> {
        self.nested(|p| {
            p.expect(Tok::LParen, "`(`")?;
            let mut arguments = Vec::new();
            if p.eat(Tok::RParen).is_some() {
                return Ok(arguments);
            }
            loop {
                arguments.push(p.argument()?);
                if p.eat(Tok::Comma).is_none() {
                    break;
                }
            }
            p.expect(Tok::RParen, "`,` or `)`")?;
            Ok(arguments)
        })
    }

    fn argument(&mut self) -> PResult<Argument> {
        let start = self.start();
        let is_redeclare = |p: &Self| {
            let mut i = 0;
            while matches!(p.nth(i), Tok::Kw(Kw::Each | Kw::Final)) {
                i += 1;
            }
            matches!(p.nth(i), Tok::Kw(Kw::Redeclare | Kw::Replaceable))
        };
        if is_redeclare(self) {
            if let Some(r) = self.redeclare_class()? {
                return Ok(Argument::RedeclareClass(r));
            }
            self.skip_argument()?;
            return Ok(Argument::Redeclare {
                span: self.span_from(start),
            });
        }
        let each = self.eat_kw(Kw::Each);
        let final_ = self.eat_kw(Kw::Final);
        let name = self.name("a name to modify")?;
        let modification = self.modification_opt()?;
        self.string_comment()?;
        Ok(Argument::Modify {
            each,
            final_,
            name,
            modification,
            span: self.span_from(start),
        })
    }

    /// `redeclare package Medium = Media.Oil` (a class kind, a name, `=`, a
    /// class name and at most a description); `None`, consuming nothing,
    /// for any other form.
    fn redeclare_class(&mut self) -> PResult<Option<RedeclareClass>> {
        if self.tok() != Tok::Kw(Kw::Redeclare) {
            return Ok(None);
        }
        let Some(kind) = class_kind(self.nth(1)) else {
            return Ok(None);
        };
        if self.nth(2) != Tok::Ident || self.nth(3) != Tok::Equals {
            return Ok(None);
        }
        let mut i = 4;
        while self.nth(i) == Tok::Ident && self.nth(i + 1) == Tok::Dot {
            i += 2;
        }
        if self.nth(i) != Tok::Ident
            || !matches!(self.nth(i + 1), Tok::Comma | Tok::RParen | Tok::String)
        {
            return Ok(None);
        }
        let start = self.start();
        self.bump();
        self.bump();
        let name = self.ident("the name of the redeclared class")?;
        self.bump();
        let base = self.name("the class that replaces it")?;
        let span = self.span_from(start);
        self.string_comment()?;
        Ok(Some(RedeclareClass {
            kind,
            name,
            base,
            span,
        }))
    }

    /// Skip one modification argument up to the `,` or `)` that ends it.
    fn skip_argument(&mut self) -> PResult<()> {
        let mut level = 0usize;
        loop {
            match self.tok() {
                Tok::LParen | Tok::LBracket | Tok::LBrace => level += 1,
                Tok::RParen | Tok::RBracket | Tok::RBrace if level > 0 => level -= 1,
                Tok::RParen | Tok::Comma if level == 0 => return Ok(()),
                Tok::Eof | Tok::Semi => return Err(self.unexpected("`)`")),
                _ => {}
            }
            self.bump();
        }
    }

    /// `annotation(...)`, parsed as a class modification and dropped.
    pub(crate) fn annotation_opt(&mut self) -> PResult<()> {
        if self.eat_kw(Kw::Annotation).is_some() {
            self.class_modification()?;
        }
        Ok(())
    }
}
