//! The arguments of a record constructor `R(a, f = b)` against the record's
//! fields (MC075): one check for a constructor evaluated to a constant
//! (`constant`) and one whose arguments stay expressions (`function`).

use std::borrow::Borrow;

use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::ast;

/// The record a constructor builds: its qualified name and its fields'
/// names in declaration order.
pub(crate) struct ConstructorFields<'r, S> {
    pub qualified: &'r str,
    pub names: &'r [S],
}

impl<S: Borrow<str>> ConstructorFields<'_, S> {
    /// MC075: the arguments do not match the record's fields.
    pub(crate) fn mismatch(&self, message: String, at: Span) -> Diagnostic {
        Diagnostic::error("MC075", at, message)
            .with_label("arguments do not match the record's fields")
            .with_help(format!(
                "construct `{}` from its fields: {}",
                self.qualified,
                self.names.join(", ")
            ))
    }

    /// MC075 when more positional arguments are given than the record has
    /// fields, at the first one too many.
    pub(crate) fn positional(&self, args: &[ast::Expr]) -> Result<(), Diagnostic> {
        if args.len() > self.names.len() {
            return Err(self.mismatch(
                format!(
                    "record `{}` has {} field(s), {} given",
                    self.qualified,
                    self.names.len(),
                    args.len()
                ),
                args[self.names.len()].span,
            ));
        }
        Ok(())
    }
}
