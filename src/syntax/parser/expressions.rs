//! Expressions: precedence climbing over the binary operators, unary
//! operators, primaries (references, calls, arrays, matrices, literals) and
//! subscripts.

use super::cursor::{decode_string, PResult, Parser, Reported};
use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::lexer::{Kw, Tok};

// Binding strength of binary operators, loosest first.
const OR: u8 = 1;
const AND: u8 = 2;
const RELATION: u8 = 3;
const ADDITION: u8 = 4;
const MULTIPLICATION: u8 = 5;

fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
    let span = lhs.span.to(rhs.span);
    Expr {
        kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
        span,
    }
}

impl Parser<'_> {
    pub(crate) fn expression(&mut self) -> PResult<Expr> {
        // Written without closures and with the rarer forms in their own
        // functions: this is the recursion of nested parentheses, so its
        // frames decide how much stack deep nesting needs.
        self.enter()?;
        let result = if self.at_kw(Kw::If) {
            self.if_expression()
        } else {
            self.simple_expression()
        };
        self.depth -= 1;
        result
    }

    fn if_expression(&mut self) -> PResult<Expr> {
        let start = self.start();
        self.bump();
        let mut branches = Vec::new();
        loop {
            let condition = self.expression()?;
            self.expect_kw(Kw::Then, "`then`")?;
            let value = self.expression()?;
            branches.push((condition, value));
            if self.eat_kw(Kw::Elseif).is_none() {
                break;
            }
        }
        self.expect_kw(Kw::Else, "`else` (an if-expression needs an else branch)")?;
        let else_ = self.expression()?;
        Ok(Expr {
            kind: ExprKind::If {
                branches,
                else_: Box::new(else_),
            },
            span: self.span_from(start),
        })
    }

    /// `a`, `a:b` or `a:b:c`.
    fn simple_expression(&mut self) -> PResult<Expr> {
        let start = self.binary_expression(OR)?;
        if !self.at(Tok::Colon) {
            return Ok(start);
        }
        self.range(start)
    }

    fn range(&mut self, start: Expr) -> PResult<Expr> {
        self.bump();
        let second = self.binary_expression(OR)?;
        let (step, stop) = if self.eat(Tok::Colon).is_some() {
            (Some(Box::new(second)), self.binary_expression(OR)?)
        } else {
            (None, second)
        };
        let span = start.span.to(stop.span);
        Ok(Expr {
            kind: ExprKind::Range {
                start: Box::new(start),
                step,
                stop: Box::new(stop),
            },
            span,
        })
    }

    /// Binary operators by precedence climbing, from `or` (loosest) down to
    /// `*` and `/`. Unary `not` and `+`/`-` are only accepted where the
    /// Modelica grammar puts them: `not` before a relation, a sign before
    /// the first term of an arithmetic expression.
    fn binary_expression(&mut self, min_level: u8) -> PResult<Expr> {
        let mut lhs = self.prefixed_operand(min_level)?;
        let mut after_relation = false;
        loop {
            let Some((op, level)) = self.binary_op() else {
                return Ok(lhs);
            };
            // Relations do not chain: `a < b < c` is an error reported by
            // whoever expects the expression to end here.
            if level < min_level || (level == RELATION && after_relation) {
                return Ok(lhs);
            }
            self.bump();
            let rhs = self.binary_expression(level + 1)?;
            after_relation = level == RELATION;
            lhs = binary(op, lhs, rhs);
        }
    }

    fn binary_op(&self) -> Option<(BinOp, u8)> {
        let op = match self.tok() {
            Tok::Kw(Kw::Or) => (BinOp::Or, OR),
            Tok::Kw(Kw::And) => (BinOp::And, AND),
            Tok::Lt => (BinOp::Lt, RELATION),
            Tok::Le => (BinOp::Le, RELATION),
            Tok::Gt => (BinOp::Gt, RELATION),
            Tok::Ge => (BinOp::Ge, RELATION),
            Tok::EqEq => (BinOp::Eq, RELATION),
            Tok::NotEq => (BinOp::Ne, RELATION),
            Tok::Plus => (BinOp::Add, ADDITION),
            Tok::Minus => (BinOp::Sub, ADDITION),
            Tok::DotPlus => (BinOp::ElemAdd, ADDITION),
            Tok::DotMinus => (BinOp::ElemSub, ADDITION),
            Tok::Star => (BinOp::Mul, MULTIPLICATION),
            Tok::Slash => (BinOp::Div, MULTIPLICATION),
            Tok::DotStar => (BinOp::ElemMul, MULTIPLICATION),
            Tok::DotSlash => (BinOp::ElemDiv, MULTIPLICATION),
            _ => return None,
        };
        Some(op)
    }

    fn prefixed_operand(&mut self, min_level: u8) -> PResult<Expr> {
        let (op, operand_level) = match self.tok() {
            Tok::Kw(Kw::Not) if min_level <= RELATION => (UnOp::Not, RELATION),
            Tok::Minus | Tok::DotMinus if min_level <= ADDITION => (UnOp::Neg, MULTIPLICATION),
            Tok::Plus | Tok::DotPlus if min_level <= ADDITION => (UnOp::Plus, MULTIPLICATION),
            Tok::Minus | Tok::DotMinus | Tok::Plus | Tok::DotPlus => {
                return Err(self.unexpected_with_help(
                    "an operand",
                    "a sign may only start an arithmetic expression: write `a*(-b)`, not `a*-b`",
                ));
            }
            _ => return self.factor(),
        };
        self.unary(op, operand_level)
    }

    fn unary(&mut self, op: UnOp, operand_level: u8) -> PResult<Expr> {
        let start = self.bump_span();
        let operand = self.binary_expression(operand_level)?;
        let span = start.to(operand.span);
        Ok(Expr {
            kind: ExprKind::Unary(op, Box::new(operand)),
            span,
        })
    }

    fn power_op(&self) -> Option<BinOp> {
        match self.tok() {
            Tok::Caret => Some(BinOp::Pow),
            Tok::DotCaret => Some(BinOp::ElemPow),
            _ => None,
        }
    }

    fn factor(&mut self) -> PResult<Expr> {
        let base = self.primary()?;
        match self.power_op() {
            None => Ok(base),
            Some(op) => self.power(op, base),
        }
    }

    fn power(&mut self, op: BinOp, base: Expr) -> PResult<Expr> {
        self.bump();
        let exponent = self.primary()?;
        if self.power_op().is_some() {
            let span = self.token_span(self.current());
            return Err(self.unsupported(
                span,
                "chained exponentiation `a^b^c` is not allowed in Modelica",
                "add parentheses: `(a^b)^c` or `a^(b^c)`",
            ));
        }
        Ok(binary(op, base, exponent))
    }

    fn primary(&mut self) -> PResult<Expr> {
        match self.tok() {
            Tok::Ident | Tok::Dot => self.reference_or_call(),
            Tok::LParen => self.parenthesized(),
            Tok::LBrace => self.array_constructor(),
            Tok::LBracket => self.matrix(),
            Tok::Kw(Kw::Der | Kw::Initial | Kw::Pure) if self.nth(1) == Tok::LParen => {
                self.builtin_call()
            }
            _ => self.literal(),
        }
    }

    /// `der(...)`, `initial()`, `pure(...)`: calls whose name is a keyword.
    fn builtin_call(&mut self) -> PResult<Expr> {
        let token = self.bump();
        let span = self.token_span(token);
        let name = Ident {
            name: self.text_of(token).to_string(),
            span,
        };
        let func = Name {
            global: false,
            parts: vec![name],
            span,
        };
        self.call(func)
    }

    /// Numbers, strings, `true`/`false` and `end` in subscripts.
    fn literal(&mut self) -> PResult<Expr> {
        let token = self.current();
        let span = self.token_span(token);
        let kind = match token.tok {
            Tok::Integer => match self.text_of(token).parse::<i64>() {
                Ok(value) => ExprKind::Integer(value),
                Err(_) => return Err(self.unexpected("an integer")),
            },
            Tok::Real => match self.text_of(token).parse::<f64>() {
                Ok(value) => ExprKind::Real(value),
                Err(_) => return Err(self.unexpected("a real number")),
            },
            Tok::String => ExprKind::String(decode_string(self.text_of(token))),
            Tok::Kw(Kw::True) => ExprKind::Bool(true),
            Tok::Kw(Kw::False) => ExprKind::Bool(false),
            Tok::Kw(Kw::End) if self.subscript_depth > 0 => ExprKind::End,
            Tok::Kw(Kw::Function) => {
                return Err(self.unsupported(
                    span,
                    "function partial application is not supported",
                    "call the function directly instead of passing it as an argument",
                ))
            }
            _ => return Err(self.unexpected("an expression")),
        };
        self.bump();
        Ok(Expr { kind, span })
    }

    fn reference_or_call(&mut self) -> PResult<Expr> {
        let reference = self.component_ref()?;
        let plain = reference.parts.iter().all(|p| p.subscripts.is_empty());
        if !(plain && self.at(Tok::LParen)) {
            return Ok(Expr {
                span: reference.span,
                kind: ExprKind::Ref(reference),
            });
        }
        let func = Name {
            global: reference.global,
            parts: reference.parts.into_iter().map(|p| p.name).collect(),
            span: reference.span,
        };
        self.call(func)
    }

    /// The argument list of a call to `func`, starting at `(`.
    fn call(&mut self, func: Name) -> PResult<Expr> {
        let start = func.span.start;
        self.expect(Tok::LParen, "`(`")?;
        let mut args = Vec::new();
        let mut named = Vec::new();
        if self.eat(Tok::RParen).is_none() {
            loop {
                if self.at(Tok::Ident) && self.nth(1) == Tok::Equals {
                    let name = self.ident("an argument name")?;
                    self.bump();
                    named.push((name, self.expression()?));
                } else {
                    if !named.is_empty() {
                        return Err(self.unexpected(
                            "a named argument `name = value` (positional arguments come first)",
                        ));
                    }
                    args.push(self.expression()?);
                    if self.at_kw(Kw::For) {
                        let span = self.token_span(self.current());
                        return Err(self.unsupported(
                            span,
                            "reduction expressions `f(e for i in r)` are not supported",
                            "write the sum or product out, or use an array function over a range",
                        ));
                    }
                }
                if self.eat(Tok::Comma).is_none() {
                    break;
                }
            }
            self.expect(Tok::RParen, "`,` or `)`")?;
        }
        Ok(Expr {
            kind: ExprKind::Call { func, args, named },
            span: self.span_from(start),
        })
    }

    fn parenthesized(&mut self) -> PResult<Expr> {
        let start = self.start();
        self.bump();
        if self.at(Tok::RParen) || self.at(Tok::Comma) {
            let span = self.span(start, self.current().end);
            return Err(self.output_list_error(span));
        }
        let inner = self.expression()?;
        if self.at(Tok::Comma) {
            let span = self.span(start, self.current().end);
            return Err(self.output_list_error(span));
        }
        self.expect(Tok::RParen, "`)`")?;
        // Parentheses only group: keep the inner expression, widened.
        Ok(Expr {
            kind: inner.kind,
            span: self.span_from(start),
        })
    }

    fn output_list_error(&mut self, span: Span) -> Reported {
        self.unsupported(
            span,
            "output expression lists `(a, b)` are not supported",
            "call a function with a single output, or split the call",
        )
    }

    fn array_constructor(&mut self) -> PResult<Expr> {
        let start = self.start();
        self.bump();
        let mut elements = Vec::new();
        if self.eat(Tok::RBrace).is_none() {
            loop {
                elements.push(self.expression()?);
                if self.at_kw(Kw::For) {
                    let span = self.token_span(self.current());
                    return Err(self.unsupported(
                        span,
                        "array comprehensions `{e for i in r}` are not supported",
                        "write the array out, or use `fill`, a range or a `for` equation",
                    ));
                }
                if self.eat(Tok::Comma).is_none() {
                    break;
                }
            }
            self.expect(Tok::RBrace, "`,` or `}`")?;
        }
        Ok(Expr {
            kind: ExprKind::Array(elements),
            span: self.span_from(start),
        })
    }

    fn matrix(&mut self) -> PResult<Expr> {
        let start = self.start();
        self.bump();
        let mut rows = Vec::new();
        loop {
            let mut row = Vec::new();
            loop {
                row.push(self.expression()?);
                if self.eat(Tok::Comma).is_none() {
                    break;
                }
            }
            rows.push(row);
            if self.eat(Tok::Semi).is_none() {
                break;
            }
        }
        self.expect(Tok::RBracket, "`,`, `;` or `]`")?;
        Ok(Expr {
            kind: ExprKind::Matrix(rows),
            span: self.span_from(start),
        })
    }

    /// `[.]a.b[i, end].c`
    pub(crate) fn component_ref(&mut self) -> PResult<ComponentRef> {
        let start = self.start();
        let global = if self.at(Tok::Dot) {
            self.bump();
            true
        } else {
            false
        };
        let mut parts = Vec::new();
        loop {
            let name = self.ident("a component name")?;
            let subscripts = if self.at(Tok::LBracket) {
                self.array_subscripts()?
            } else {
                Vec::new()
            };
            parts.push(RefPart { name, subscripts });
            if !(self.at(Tok::Dot) && self.nth(1) == Tok::Ident) {
                break;
            }
            self.bump();
        }
        Ok(ComponentRef {
            global,
            parts,
            span: self.span_from(start),
        })
    }

    pub(crate) fn array_subscripts(&mut self) -> PResult<Vec<Subscript>> {
        self.expect(Tok::LBracket, "`[`")?;
        self.subscript_depth += 1;
        let result = self.subscript_list();
        self.subscript_depth -= 1;
        let subscripts = result?;
        self.expect(Tok::RBracket, "`,` or `]`")?;
        Ok(subscripts)
    }

    fn subscript_list(&mut self) -> PResult<Vec<Subscript>> {
        let mut subscripts = Vec::new();
        loop {
            if self.at(Tok::Colon) && matches!(self.nth(1), Tok::Comma | Tok::RBracket) {
                let colon = self.bump();
                subscripts.push(Subscript::Colon(self.token_span(colon)));
            } else {
                subscripts.push(Subscript::Expr(self.expression()?));
            }
            if self.eat(Tok::Comma).is_none() {
                return Ok(subscripts);
            }
        }
    }
}
