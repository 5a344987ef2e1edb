//! Equation and algorithm sections. One grammar serves both: a section is
//! a list of clauses, and `if`, `for` and `when` clauses, output lists and
//! simple clauses (`a = b` / `a := b`, calls) are read alike, over the
//! [`Clause`] an equation or a statement makes of them. Only `connect`
//! (equations) and `while`, `break`, `return` (statements) are their own.

use super::cursor::{PResult, Parser};
use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::lexer::{Kw, Tok};

/// What an equation or a statement makes of the clauses both have.
trait Clause: Sized {
    /// The token of a simple clause (`=`, `:=`) and how a message names it.
    const ASSIGN: (Tok, &'static str);
    /// The clauses only this kind has (`connect`; `while`, `break`,
    /// `return`), else a simple clause ([`Parser::simple_clause`]).
    fn own(p: &mut Parser<'_>, start: u32) -> PResult<Self>;
    fn if_(branches: Vec<(Expr, Vec<Self>)>, else_: Vec<Self>, span: Span) -> Self;
    fn for_(index: Ident, range: Expr, body: Vec<Self>, span: Span) -> Self;
    /// A `when` clause (the checker rejects it); a statement keeps its
    /// span only.
    fn when_(branches: Vec<(Expr, Vec<Self>)>, span: Span) -> Self;
    fn outputs(targets: Vec<Option<Expr>>, value: Expr, span: Span) -> Self;
    /// `lhs = rhs` or `lhs := rhs`.
    fn assign(lhs: Expr, rhs: Expr, span: Span) -> Self;
    /// An expression not followed by [`Clause::ASSIGN`]: a call clause, or
    /// the error that names what is missing.
    fn call(p: &mut Parser<'_>, lhs: Expr, start: u32) -> PResult<Self>;
}

/// The constructors of the clauses an equation and a statement build
/// alike: `if`, `for` and output lists have the same fields in both.
macro_rules! same_shape_clauses {
    ($kind:ident) => {
        fn if_(branches: Vec<(Expr, Vec<Self>)>, else_: Vec<Self>, span: Span) -> Self {
            $kind::If {
                branches,
                else_,
                span,
            }
        }
        fn for_(index: Ident, range: Expr, body: Vec<Self>, span: Span) -> Self {
            $kind::For {
                index,
                range,
                body,
                span,
            }
        }
        fn outputs(targets: Vec<Option<Expr>>, value: Expr, span: Span) -> Self {
            $kind::Outputs {
                targets,
                value,
                span,
            }
        }
    };
}

impl Clause for Equation {
    const ASSIGN: (Tok, &'static str) = (Tok::Equals, "`=`");
    fn own(p: &mut Parser<'_>, start: u32) -> PResult<Self> {
        match p.tok() {
            Tok::Kw(Kw::Connect) => p.connect_equation(start),
            _ => p.simple_clause(start),
        }
    }
    same_shape_clauses!(Equation);
    fn when_(branches: Vec<(Expr, Vec<Self>)>, span: Span) -> Self {
        Equation::When { branches, span }
    }
    fn assign(lhs: Expr, rhs: Expr, span: Span) -> Self {
        Equation::Simple { lhs, rhs, span }
    }
    fn call(p: &mut Parser<'_>, lhs: Expr, start: u32) -> PResult<Self> {
        match lhs.kind {
            ExprKind::Call { func, args, .. }
                if matches!(p.tok(), Tok::Semi | Tok::String | Tok::Kw(Kw::Annotation)) =>
            {
                p.finish_statement()?;
                Ok(Equation::Call {
                    name: func,
                    args,
                    span: p.span_from(start),
                })
            }
            _ => Err(p.unexpected("`=`")),
        }
    }
}

impl Clause for Statement {
    const ASSIGN: (Tok, &'static str) = (Tok::Assign, "`:=`");
    fn own(p: &mut Parser<'_>, start: u32) -> PResult<Self> {
        match p.tok() {
            Tok::Kw(Kw::While) => {
                p.bump();
                let condition = p.expression()?;
                let body = p.loop_body(Kw::While)?;
                Ok(Statement::While {
                    condition,
                    body,
                    span: p.span_from(start),
                })
            }
            Tok::Kw(kw @ (Kw::Break | Kw::Return)) => {
                p.bump();
                p.finish_statement()?;
                let span = p.span_from(start);
                Ok(if kw == Kw::Break {
                    Statement::Break { span }
                } else {
                    Statement::Return { span }
                })
            }
            _ => p.simple_clause(start),
        }
    }
    same_shape_clauses!(Statement);
    fn when_(_branches: Vec<(Expr, Vec<Self>)>, span: Span) -> Self {
        Statement::Other {
            what: "a `when` statement",
            span,
        }
    }
    fn assign(lhs: Expr, rhs: Expr, span: Span) -> Self {
        match lhs.kind {
            ExprKind::Ref(target) => Statement::Assign {
                target,
                value: rhs,
                span,
            },
            _ => Statement::Other {
                what: "an assignment to something other than a variable",
                span,
            },
        }
    }
    fn call(p: &mut Parser<'_>, lhs: Expr, start: u32) -> PResult<Self> {
        if !matches!(lhs.kind, ExprKind::Call { .. }) {
            return Err(p.unexpected("`:=`"));
        }
        p.finish_statement()?;
        Ok(Statement::Other {
            what: "a call statement",
            span: p.span_from(start),
        })
    }
}

impl Parser<'_> {
    pub(crate) fn equation_section(&mut self, initial: Option<Span>, start: u32) -> Section {
        let equations = self.clause_list::<Equation>(&[]);
        Section::Equation {
            initial,
            equations,
            span: self.span_from(start),
        }
    }

    pub(crate) fn algorithm_section(&mut self, initial: Option<Span>, start: u32) -> Section {
        let statements = self.clause_list::<Statement>(&[]);
        Section::Algorithm {
            initial,
            statements,
            span: self.span_from(start),
        }
    }

    fn at_list_end(&self, stop: &[Kw]) -> bool {
        match self.tok() {
            Tok::Eof => true,
            Tok::Kw(kw) if stop.contains(&kw) => true,
            _ => self.at_section_keyword() || self.at_class_end(),
        }
    }

    /// A string comment and annotation, then the closing `;`.
    fn finish_statement(&mut self) -> PResult<()> {
        self.string_comment()?;
        self.annotation_opt()?;
        self.expect(Tok::Semi, "`;`")?;
        Ok(())
    }

    /// Clauses up to a section keyword, a class `end` or one of `stop`.
    fn clause_list<C: Clause>(&mut self, stop: &[Kw]) -> Vec<C> {
        let mut clauses = Vec::new();
        while !self.at_list_end(stop) {
            let start_pos = self.pos;
            let result = if self.at_kw(Kw::Annotation) {
                self.annotation_statement()
            } else {
                self.clause::<C>().map(|c| clauses.push(c))
            };
            if result.is_err() {
                self.rewind(start_pos);
                self.skip_statement();
                self.ensure_progress(start_pos);
            }
        }
        clauses
    }

    /// One equation or statement.
    fn clause<C: Clause>(&mut self) -> PResult<C> {
        self.nested(|p| {
            let start = p.start();
            match p.tok() {
                Tok::Kw(Kw::If) => p.if_clause::<C>(start),
                Tok::Kw(Kw::For) => p.for_clause::<C>(start),
                Tok::Kw(Kw::When) => {
                    let branches = p.when_clause::<C>()?;
                    Ok(C::when_(branches, p.span_from(start)))
                }
                Tok::LParen if p.output_list_ahead(C::ASSIGN.0) => {
                    let (targets, value) = p.output_list(C::ASSIGN.0, C::ASSIGN.1)?;
                    Ok(C::outputs(targets, value, p.span_from(start)))
                }
                _ => C::own(p, start),
            }
        })
    }

    /// `lhs = rhs;` (`:=` in statements), or a call.
    fn simple_clause<C: Clause>(&mut self, start: u32) -> PResult<C> {
        let lhs = self.expression()?;
        if self.eat(C::ASSIGN.0).is_some() {
            let rhs = self.expression()?;
            self.finish_statement()?;
            return Ok(C::assign(lhs, rhs, self.span_from(start)));
        }
        C::call(self, lhs, start)
    }

    /// Whether an output list `(a, , b)` followed by `after` (`=` or
    /// `:=`) starts here: a parenthesis whose matching `)` is followed by
    /// `after`, with a comma at its own level. Reads ahead only.
    fn output_list_ahead(&self, after: Tok) -> bool {
        let mut level = 0usize;
        let mut comma = false;
        for ahead in 0.. {
            match self.nth(ahead) {
                Tok::LParen | Tok::LBrace | Tok::LBracket => level += 1,
                Tok::RParen | Tok::RBrace | Tok::RBracket => {
                    level = level.saturating_sub(1);
                    if level == 0 {
                        return comma && self.nth(ahead + 1) == after;
                    }
                }
                Tok::Comma if level == 1 => comma = true,
                Tok::Eof | Tok::Semi => return false,
                _ => {}
            }
        }
        false
    }

    /// `(a, , b) = f(x);` from its `(` to its `;`: the places (an empty
    /// one skips an output) and the value.
    fn output_list(&mut self, after: Tok, what: &str) -> PResult<(Vec<Option<Expr>>, Expr)> {
        self.expect(Tok::LParen, "`(`")?;
        let mut targets = Vec::new();
        loop {
            if self.at(Tok::Comma) || self.at(Tok::RParen) {
                targets.push(None);
            } else {
                targets.push(Some(self.expression()?));
            }
            if self.eat(Tok::Comma).is_none() {
                break;
            }
        }
        self.expect(Tok::RParen, "`,` or `)`")?;
        self.expect(after, what)?;
        let value = self.expression()?;
        self.finish_statement()?;
        Ok((targets, value))
    }

    fn connect_equation(&mut self, start: u32) -> PResult<Equation> {
        self.bump();
        self.expect(Tok::LParen, "`(` after `connect`")?;
        let a = self.component_ref()?;
        self.expect(Tok::Comma, "`,`")?;
        let b = self.component_ref()?;
        self.expect(Tok::RParen, "`)`")?;
        self.finish_statement()?;
        Ok(Equation::Connect {
            a,
            b,
            span: self.span_from(start),
        })
    }

    /// `c then ... elseif c then ...` after `if` (`when`, `elsewhen`):
    /// each condition with the clauses it guards, up to `end` or one of
    /// `stop`.
    fn branches<C: Clause>(&mut self, next: Kw, stop: &[Kw]) -> PResult<Vec<(Expr, Vec<C>)>> {
        let mut branches = Vec::new();
        loop {
            let condition = self.expression()?;
            self.expect_kw(Kw::Then, "`then`")?;
            let body = self.clause_list(stop);
            branches.push((condition, body));
            if self.eat_kw(next).is_none() {
                return Ok(branches);
            }
        }
    }

    /// `if c then ... elseif ... else ... end if;`
    fn if_clause<C: Clause>(&mut self, start: u32) -> PResult<C> {
        self.bump();
        let branches = self.branches(Kw::Elseif, &[Kw::Elseif, Kw::Else, Kw::End])?;
        let else_ = if self.eat_kw(Kw::Else).is_some() {
            self.clause_list(&[Kw::End])
        } else {
            Vec::new()
        };
        self.block_end(Kw::If)?;
        Ok(C::if_(branches, else_, self.span_from(start)))
    }

    /// `for i in range loop ... end for;`
    fn for_clause<C: Clause>(&mut self, start: u32) -> PResult<C> {
        self.bump();
        let indices = self.for_indices()?;
        let mut body = self.loop_body::<C>(Kw::For)?;
        let span = self.span_from(start);
        // `for i in a, j in b loop` is the nest of two single loops.
        for (index, range) in indices.into_iter().rev() {
            body = vec![C::for_(index, range, body, span)];
        }
        // `indices` is never empty, so exactly one loop is left.
        match body.pop() {
            Some(outer) => Ok(outer),
            None => Err(self.unexpected("a loop index")),
        }
    }

    /// `i in range, j in range` after `for`.
    fn for_indices(&mut self) -> PResult<Vec<(Ident, Expr)>> {
        let mut indices = Vec::new();
        loop {
            let index = self.ident("a loop index")?;
            if !self.at_kw(Kw::In) {
                return Err(self.unexpected_with_help(
                "`in`",
                "give the loop range explicitly, as in `for i in 1:n loop`; a `for` without range is not supported",
            ));
            }
            self.bump();
            let range = self.expression()?;
            indices.push((index, range));
            if self.eat(Tok::Comma).is_none() {
                return Ok(indices);
            }
        }
    }

    /// `loop ... end for;` (`end while;`): the body of a loop.
    fn loop_body<C: Clause>(&mut self, kw: Kw) -> PResult<Vec<C>> {
        self.expect_kw(Kw::Loop, "`loop`")?;
        let body = self.clause_list::<C>(&[Kw::End]);
        self.block_end(kw)?;
        Ok(body)
    }

    /// `when c then ... elsewhen ... end when;`, parsed to be rejected
    /// (the checker reports it at its line, with the clocked form).
    fn when_clause<C: Clause>(&mut self) -> PResult<Vec<(Expr, Vec<C>)>> {
        self.bump();
        let branches = self.branches::<C>(Kw::Elsewhen, &[Kw::Elsewhen, Kw::End])?;
        self.block_end(Kw::When)?;
        Ok(branches)
    }

    /// `end for;` and friends.
    fn block_end(&mut self, kw: Kw) -> PResult<()> {
        let expected = format!("`end {}`", kw.as_str());
        self.expect_kw(Kw::End, &expected)?;
        self.expect_kw(kw, &expected)?;
        self.finish_statement()
    }
}
