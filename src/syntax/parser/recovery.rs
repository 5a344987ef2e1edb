//! Recovery: what the lists of elements, equations and statements skip
//! after a failed item, and the keywords that end them.

use super::cursor::{class_kind, is_block_end_keyword, Parser};
use crate::syntax::lexer::{Kw, Tok};

impl Parser<'_> {
    /// An identifier standing alone on its line, one or two letters away
    /// from a section keyword (`equaton`): the section keyword it was meant
    /// to be. Read as a type name it would start a cascade of errors on the
    /// equations after it.
    pub(crate) fn misspelt_section_keyword(&self) -> Option<Kw> {
        if self.tok() != Tok::Ident || self.nth(1) == Tok::Eof {
            return None;
        }
        let token = self.current();
        let next = self.tokens[(self.pos + 1).min(self.tokens.len() - 1)];
        let gap = self.text.get(token.end as usize..next.start as usize)?;
        if !gap.contains('\n') {
            return None;
        }
        let word = self.text_of(token);
        [Kw::Equation, Kw::Algorithm, Kw::Protected, Kw::Public]
            .into_iter()
            .find(|kw| {
                let distance = strsim::damerau_levenshtein(word, kw.as_str());
                distance > 0 && distance <= 2 && word.len() + 2 >= kw.as_str().len()
            })
    }

    pub(crate) fn at_section_keyword(&self) -> bool {
        match self.tok() {
            Tok::Kw(Kw::Public | Kw::Protected | Kw::Equation | Kw::Algorithm | Kw::External) => {
                true
            }
            Tok::Kw(Kw::Initial) => {
                matches!(self.nth(1), Tok::Kw(Kw::Equation | Kw::Algorithm))
            }
            _ => false,
        }
    }

    /// `end` that closes a class (not `end for`, `end if`, ...).
    pub(crate) fn at_class_end(&self) -> bool {
        self.at_kw(Kw::End) && !is_block_end_keyword(self.nth(1))
    }

    /// Skip a failed element (from its first token): up to and including
    /// the next `;` outside brackets, treating a long class definition as
    /// one unit up to its `end Name;`. Stops before section keywords and,
    /// when `stop_at_end`, before the `end` of the enclosing class.
    pub(crate) fn skip_element(&mut self, stop_at_end: bool) {
        let mut class_depth = 0usize;
        let mut open: Vec<Tok> = Vec::new();
        loop {
            let tok = self.tok();
            if tok == Tok::Eof {
                return;
            }
            if self.step_bracket(tok, &mut open).is_some() {
                continue;
            }
            if tok == Tok::Kw(Kw::End) && matches!(self.nth(1), Tok::Ident | Tok::Semi) {
                if class_depth > 0 {
                    self.bump();
                    self.eat(Tok::Ident);
                    self.eat(Tok::Semi);
                    open.clear();
                    class_depth -= 1;
                    if class_depth == 0 {
                        return;
                    }
                    continue;
                }
                if stop_at_end {
                    return;
                }
                self.bump();
                continue;
            }
            if class_depth == 0 && self.at_section_keyword() {
                return;
            }
            if tok == Tok::Semi && open.last() != Some(&Tok::LBracket) {
                self.bump();
                open.clear();
                if class_depth == 0 {
                    return;
                }
                continue;
            }
            let opens_long_class = class_kind(tok).is_some()
                && open.is_empty()
                && ((self.nth(1) == Tok::Ident && self.nth(2) != Tok::Equals)
                    || self.nth(1) == Tok::Kw(Kw::Extends));
            if opens_long_class {
                class_depth += 1;
            }
            self.bump();
        }
    }

    /// Skip a failed equation or statement (from its first token) up to and
    /// including its `;`, treating `for/if/when/while ... end X;` blocks as
    /// one unit. Stops before section keywords, a class `end`, and the
    /// `else`/`elseif`/`elsewhen` of an enclosing block.
    pub(crate) fn skip_statement(&mut self) {
        let mut blocks = 0usize;
        let mut open: Vec<Tok> = Vec::new();
        let mut in_expr = false;
        let mut statement_start = true;
        loop {
            let tok = self.tok();
            if tok == Tok::Eof || self.at_section_keyword() || self.at_class_end() {
                return;
            }
            if let Some(opened) = self.step_bracket(tok, &mut open) {
                if opened {
                    statement_start = false;
                }
                continue;
            }
            // Inside brackets only a `;` that cannot be a matrix row
            // separator ends the statement (the brackets were unbalanced).
            let semicolon_ends = tok == Tok::Semi && open.last() != Some(&Tok::LBracket);
            if !open.is_empty() && !semicolon_ends {
                self.bump();
                continue;
            }
            match tok {
                Tok::Semi => {
                    self.bump();
                    open.clear();
                    if blocks == 0 {
                        return;
                    }
                    in_expr = false;
                    statement_start = true;
                    continue;
                }
                Tok::Kw(Kw::End) => {
                    // `end for` / `end if` / ...: closes a block.
                    if blocks == 0 {
                        return;
                    }
                    blocks -= 1;
                    self.bump();
                    self.bump();
                    statement_start = false;
                    continue;
                }
                Tok::Kw(Kw::Else | Kw::Elseif | Kw::Elsewhen) if blocks == 0 && !in_expr => {
                    return;
                }
                Tok::Kw(Kw::For | Kw::While | Kw::When) if statement_start => blocks += 1,
                Tok::Kw(Kw::If) if statement_start && !in_expr => blocks += 1,
                Tok::Equals | Tok::Assign => in_expr = true,
                _ => {}
            }
            let next_starts_statement =
                matches!(tok, Tok::Kw(Kw::Loop | Kw::Then | Kw::Else)) && !in_expr;
            self.bump();
            statement_start = next_starts_statement;
        }
    }

    /// Step over `tok` if it is a bracket, keeping `open` the stack of the
    /// brackets still open: `Some(true)` for an opening one, `Some(false)`
    /// for a closing one, `None` (nothing consumed) for any other token.
    fn step_bracket(&mut self, tok: Tok, open: &mut Vec<Tok>) -> Option<bool> {
        match tok {
            Tok::LParen | Tok::LBracket | Tok::LBrace => open.push(tok),
            Tok::RParen | Tok::RBracket | Tok::RBrace => {
                open.pop();
            }
            _ => return None,
        }
        self.bump();
        Some(matches!(tok, Tok::LParen | Tok::LBracket | Tok::LBrace))
    }

    /// After a failed item at `start_pos`, make sure the list loop moves on.
    pub(crate) fn ensure_progress(&mut self, start_pos: usize) {
        if self.pos == start_pos && !self.at(Tok::Eof) {
            self.bump();
        }
    }
}
