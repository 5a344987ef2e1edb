//! Files, classes and elements: the stored definition, long and short
//! class definitions, class extension, compositions and their sections,
//! `import` and `extends` clauses.

use super::cursor::{class_kind, starts_class, PResult, Parser, Reported};
use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::lexer::{Kw, Tok};

impl Parser<'_> {
    pub(crate) fn stored_definition(&mut self) -> StoredDefinition {
        let mut definition = StoredDefinition::default();
        if self.at_kw(Kw::Within) {
            let start_pos = self.pos;
            match self.within_clause() {
                Ok(name) => definition.within = name,
                Err(Reported) => {
                    self.rewind(start_pos);
                    self.skip_element(false);
                    self.ensure_progress(start_pos);
                }
            }
        }
        while !self.at(Tok::Eof) {
            let start_pos = self.pos;
            self.eat_kw(Kw::Final);
            let result = if starts_class(self.tok()) {
                self.class_definition()
            } else {
                Err(self.unexpected("a class definition such as `model` or `package`"))
            };
            match result {
                Ok(class) => definition.classes.push(class),
                Err(Reported) => {
                    self.rewind(start_pos);
                    self.skip_element(false);
                    self.ensure_progress(start_pos);
                }
            }
        }
        definition
    }

    fn within_clause(&mut self) -> PResult<Option<Name>> {
        self.bump();
        let name = if self.at(Tok::Semi) {
            None
        } else {
            Some(self.name("a package name")?)
        };
        self.expect(Tok::Semi, "`;`")?;
        Ok(name)
    }

    fn class_definition(&mut self) -> PResult<ClassDef> {
        self.enter()?;
        // A nested class has its own annotation.
        let outer = self.experiment.take();
        let result = self.class_definition_inner();
        self.experiment = outer;
        self.depth -= 1;
        result
    }

    fn class_definition_inner(&mut self) -> PResult<ClassDef> {
        let start = self.start();
        let mut prefixes = ClassPrefixes::default();
        loop {
            let span = self.token_span(self.current());
            let slot = match self.tok() {
                Tok::Kw(Kw::Encapsulated) => &mut prefixes.encapsulated,
                Tok::Kw(Kw::Partial) => &mut prefixes.partial,
                Tok::Kw(Kw::Expandable) => &mut prefixes.expandable,
                Tok::Kw(Kw::Pure | Kw::Impure) => &mut prefixes.purity,
                Tok::Kw(Kw::Operator)
                    if matches!(self.nth(1), Tok::Kw(Kw::Record | Kw::Function)) =>
                {
                    &mut prefixes.operator
                }
                _ => break,
            };
            if slot.is_some() {
                return Err(self.unexpected("a class kind such as `model` or `package`"));
            }
            *slot = Some(span);
            self.bump();
        }
        let Some(kind) = class_kind(self.tok()) else {
            return Err(self.unexpected("a class kind such as `model` or `package`"));
        };
        let kind_span = self.bump_span();

        if self.at_kw(Kw::Extends) {
            return self.class_extends(start, kind, kind_span, prefixes);
        }
        let name = self.ident("the class name")?;
        let (description, body) = if self.eat(Tok::Equals).is_some() {
            let body = self.short_class_specifier()?;
            let description = self.string_comment()?;
            self.annotation_opt()?;
            (description, body)
        } else {
            let description = self.string_comment()?;
            let body = self.composition();
            let end_name = self.class_end(&name)?;
            (description, ClassBody::Long(LongBody { end_name, ..body }))
        };
        let constrainedby = self.constraining_clause_opt()?;
        self.class_semicolon(&body)?;
        Ok(ClassDef {
            kind,
            kind_span,
            prefixes,
            name,
            description,
            body,
            constrainedby,
            experiment: self.experiment.take(),
            span: self.span_from(start),
        })
    }

    /// The `;` after a class. A long class that is complete except for it
    /// is kept (with one diagnostic); a short one is not.
    fn class_semicolon(&mut self, body: &ClassBody) -> PResult<()> {
        if self.eat(Tok::Semi).is_some() {
            return Ok(());
        }
        let reported = self.unexpected("`;`");
        match body {
            ClassBody::Long(_) => Ok(()),
            _ => Err(reported),
        }
    }

    /// `redeclare function extends f ... end f;` (a class extension): a
    /// function whose first element is `extends f`, the function `f` the
    /// enclosing package inherits (the class tree resolves it there:
    /// `resolve::package_functions`). Any other class extension is kept
    /// only as unsupported.
    fn class_extends(
        &mut self,
        start: u32,
        kind: ClassKind,
        kind_span: Span,
        prefixes: ClassPrefixes,
    ) -> PResult<ClassDef> {
        let extends_start = self.start();
        self.bump();
        let name = self.ident("the name of the class to extend")?;
        let unsupported_span = self.span_from(extends_start);
        let modification = if self.at(Tok::LParen) {
            self.class_modification()?
        } else {
            Vec::new()
        };
        let description = self.string_comment()?;
        let mut composition = self.composition();
        let end_name = self.class_end(&name)?;
        let body = if kind == ClassKind::Function {
            let base = Element::Extends(Extends {
                visibility: Visibility::Public,
                name: Name {
                    global: false,
                    parts: vec![name.clone()],
                    span: name.span,
                },
                modification,
                span: unsupported_span,
            });
            composition.elements.insert(0, base);
            ClassBody::Long(LongBody {
                end_name,
                ..composition
            })
        } else {
            ClassBody::Unsupported {
                what: "class extension (`extends` after the class keyword)".to_string(),
                span: unsupported_span,
            }
        };
        self.class_semicolon(&body)?;
        Ok(ClassDef {
            kind,
            kind_span,
            prefixes,
            name,
            description,
            body,
            constrainedby: None,
            experiment: self.experiment.take(),
            span: self.span_from(start),
        })
    }

    /// `end Name` of a long class; a wrong name is reported but kept.
    fn class_end(&mut self, name: &Ident) -> PResult<Ident> {
        self.expect_kw(Kw::End, &format!("`end {}`", name.name))?;
        let end_name = self.ident(&format!("the class name `{}` after `end`", name.name))?;
        if end_name.name != name.name {
            self.push(
                Diagnostic::error(
                    "MS006",
                    end_name.span,
                    format!(
                        "`end {}` does not match the class name `{}`",
                        end_name.name, name.name
                    ),
                )
                .with_label(format!("expected `{}`", name.name))
                .with_help(format!(
                    "close the class with `end {};`, or rename the class",
                    name.name
                ))
                .with_note(name.span, "the class is declared here"),
            );
        }
        Ok(end_name)
    }

    /// Everything after `=` in a short class definition.
    fn short_class_specifier(&mut self) -> PResult<ClassBody> {
        let start = self.start();
        if self.at_kw(Kw::Enumeration) && self.nth(1) == Tok::LParen && self.nth(2) != Tok::Colon {
            return self.enumeration_literals(start);
        }
        if self.at_kw(Kw::Enumeration) || (self.at_kw(Kw::Der) && self.nth(1) == Tok::LParen) {
            let what = if self.at_kw(Kw::Der) {
                "derivative class `der(...)`"
            } else {
                "enumeration type"
            };
            self.bump();
            if !self.at(Tok::LParen) {
                return Err(self.unexpected("`(`"));
            }
            self.skip_balanced()?;
            return Ok(ClassBody::Unsupported {
                what: what.to_string(),
                span: self.span_from(start),
            });
        }
        let prefixes = self.type_prefixes()?;
        let base = self.name("a type name")?;
        let dims = if self.at(Tok::LBracket) {
            self.array_subscripts()?
        } else {
            Vec::new()
        };
        let modification = if self.at(Tok::LParen) {
            let mod_start = self.start();
            let arguments = self.class_modification()?;
            Some(Modification {
                arguments,
                binding: None,
                span: self.span_from(mod_start),
            })
        } else {
            None
        };
        Ok(ClassBody::Short(ShortBody {
            prefixes,
            base,
            dims,
            modification,
        }))
    }

    /// `enumeration(A "a", B "b")`, from the keyword to the `)`.
    fn enumeration_literals(&mut self, start: u32) -> PResult<ClassBody> {
        self.bump();
        self.bump();
        let mut literals = Vec::new();
        while !self.at(Tok::RParen) {
            let name = self.ident("an enumeration literal")?;
            let description = self.string_comment()?;
            literals.push(EnumLiteral { name, description });
            if self.at(Tok::Comma) {
                self.bump();
            } else if !self.at(Tok::RParen) {
                return Err(self.unexpected("`,` or `)`"));
            }
        }
        self.bump();
        Ok(ClassBody::Enumeration {
            literals,
            span: self.span_from(start),
        })
    }

    /// Skip a balanced `( ... )` group starting at the current `(`.
    fn skip_balanced(&mut self) -> PResult<()> {
        let mut level = 0usize;
        loop {
            match self.tok() {
                Tok::LParen => level += 1,
                Tok::RParen => {
                    level -= 1;
                    if level == 0 {
                        self.bump();
                        return Ok(());
                    }
                }
                Tok::Eof | Tok::Semi => return Err(self.unexpected("`)`")),
                _ => {}
            }
            self.bump();
        }
    }

    /// The body of a long class up to (not including) its `end`. The
    /// returned `end_name` is a placeholder the caller replaces.
    fn composition(&mut self) -> LongBody {
        // Kept small: this frame is on the recursion path of nested
        // classes, so everything but elements is handled elsewhere.
        let placeholder = Ident {
            name: String::new(),
            span: self.span(self.start(), self.start()),
        };
        let mut body = LongBody {
            elements: Vec::new(),
            sections: Vec::new(),
            end_name: placeholder,
        };
        let mut visibility = Visibility::Public;
        while !matches!(self.tok(), Tok::Eof | Tok::Kw(Kw::End)) {
            let start_pos = self.pos;
            let result = if self.at_section_keyword() || self.at_kw(Kw::Annotation) {
                self.composition_keyword(&mut body.sections, &mut visibility)
            } else if let Some(kw) = self.misspelt_section_keyword() {
                self.misspelt_keyword(kw, &mut body.sections, &mut visibility);
                Ok(())
            } else {
                self.element(visibility, &mut body.elements)
            };
            if result.is_err() {
                self.rewind(start_pos);
                self.skip_element(true);
                self.ensure_progress(start_pos);
            }
        }
        body
    }

    /// `public`, `protected`, a section, `external ...;` or `annotation(...);`
    /// inside a class body.
    fn composition_keyword(
        &mut self,
        sections: &mut Vec<Section>,
        visibility: &mut Visibility,
    ) -> PResult<()> {
        let start = self.start();
        let initial = if self.at_kw(Kw::Initial) {
            Some(self.bump_span())
        } else {
            None
        };
        match self.tok() {
            Tok::Kw(Kw::Public) => {
                self.bump();
                *visibility = Visibility::Public;
            }
            Tok::Kw(Kw::Protected) => {
                self.bump();
                *visibility = Visibility::Protected;
            }
            Tok::Kw(Kw::Equation) => {
                self.bump();
                sections.push(self.equation_section(initial, start));
            }
            Tok::Kw(Kw::Algorithm) => {
                self.bump();
                sections.push(self.algorithm_section(initial, start));
            }
            Tok::Kw(Kw::External) => self.external_clause()?,
            _ => self.annotation_statement()?,
        }
        Ok(())
    }

    /// MS010 at a misspelt section keyword; the section is then read as if
    /// the keyword were spelt right, so what follows is checked as usual.
    fn misspelt_keyword(
        &mut self,
        kw: Kw,
        sections: &mut Vec<Section>,
        visibility: &mut Visibility,
    ) {
        let token = self.bump();
        let span = self.token_span(token);
        let word = self.text_of(token).to_string();
        self.push(
            Diagnostic::error(
                "MS010",
                span,
                format!("`{word}` is not a keyword; read as `{}`", kw.as_str()),
            )
            .with_label(format!("did you mean `{}`?", kw.as_str()))
            .with_help(format!("write `{}`", kw.as_str())),
        );
        let start = token.start;
        match kw {
            Kw::Equation => sections.push(self.equation_section(None, start)),
            Kw::Algorithm => sections.push(self.algorithm_section(None, start)),
            Kw::Protected => *visibility = Visibility::Protected,
            _ => *visibility = Visibility::Public,
        }
    }

    /// `external "C" y = f(x) annotation(...);`: not kept, only checked
    /// for balanced syntax up to its `;`.
    fn external_clause(&mut self) -> PResult<()> {
        self.bump();
        if self.at(Tok::String) {
            self.bump();
        }
        if !self.at(Tok::Semi) && !self.at_kw(Kw::Annotation) {
            let lhs = self.expression()?;
            if self.eat(Tok::Equals).is_some() {
                self.expression()?;
            } else if !matches!(lhs.kind, ExprKind::Call { .. }) {
                return Err(self.unexpected("`=` or `;`"));
            }
        }
        self.annotation_opt()?;
        self.expect(Tok::Semi, "`;`")?;
        // The class annotation of an external function may follow.
        Ok(())
    }

    /// One element (several for `Real a, b;`), appended to `elements`.
    fn element(&mut self, visibility: Visibility, elements: &mut Vec<Element>) -> PResult<()> {
        let start = self.start();
        match self.tok() {
            Tok::Kw(Kw::Import) => {
                let import = self.import_clause(visibility)?;
                elements.push(Element::Import(import));
                return Ok(());
            }
            Tok::Kw(Kw::Extends) => {
                let extends = self.extends_clause(visibility)?;
                elements.push(Element::Extends(extends));
                return Ok(());
            }
            _ => {}
        }
        let prefixes = self.element_prefixes()?;
        if starts_class(self.tok()) {
            let class = std::sync::Arc::new(self.class_definition()?);
            elements.push(Element::Class {
                visibility,
                prefixes,
                class,
            });
            return Ok(());
        }
        let components = self.component_clause(visibility, prefixes, start)?;
        elements.extend(components);
        Ok(())
    }

    fn import_clause(&mut self, visibility: Visibility) -> PResult<Import> {
        let start = self.start();
        self.bump();
        let mut alias = None;
        if self.at(Tok::Ident) && self.nth(1) == Tok::Equals {
            alias = Some(self.ident("an alias")?);
            self.bump();
        }
        let name_start = self.start();
        let mut parts = vec![self.ident("the name to import")?];
        let mut wildcard = None;
        let mut multiple = Vec::new();
        loop {
            match (self.tok(), self.nth(1)) {
                (Tok::Dot, Tok::Ident) => {
                    self.bump();
                    parts.push(self.ident("an identifier")?);
                }
                (Tok::DotStar, _) if alias.is_none() => {
                    wildcard = Some(self.bump_span());
                    break;
                }
                (Tok::Dot, Tok::LBrace) if alias.is_none() => {
                    self.bump();
                    self.bump();
                    loop {
                        multiple.push(self.ident("a name to import")?);
                        if self.eat(Tok::Comma).is_none() {
                            break;
                        }
                    }
                    self.expect(Tok::RBrace, "`,` or `}`")?;
                    break;
                }
                _ => break,
            }
        }
        let name_end = parts.last().map_or(name_start, |p| p.span.end);
        let name = Name {
            global: false,
            parts,
            span: self.span(name_start, name_end),
        };
        self.string_comment()?;
        self.annotation_opt()?;
        self.expect(Tok::Semi, "`;`")?;
        Ok(Import {
            visibility,
            alias,
            name,
            wildcard,
            multiple,
            span: self.span_from(start),
        })
    }

    fn extends_clause(&mut self, visibility: Visibility) -> PResult<Extends> {
        let start = self.start();
        self.bump();
        let name = self.name("the name of the class to extend")?;
        let modification = if self.at(Tok::LParen) {
            self.class_modification()?
        } else {
            Vec::new()
        };
        self.annotation_opt()?;
        self.expect(Tok::Semi, "`;`")?;
        Ok(Extends {
            visibility,
            name,
            modification,
            span: self.span_from(start),
        })
    }
}
