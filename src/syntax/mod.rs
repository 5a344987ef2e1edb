//! Lexing and parsing: text to [`ast::StoredDefinition`] with byte spans.

pub mod ast;
mod dump;
pub(crate) mod lexer;
mod parser;
#[cfg(test)]
mod tests;

pub use dump::{dump, dump_expr};
pub use lexer::is_keyword;
pub use parser::{parse, MAX_NESTING};
