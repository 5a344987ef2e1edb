//! Lexing and parsing: text to [`ast::StoredDefinition`] with byte spans.

pub mod ast;
mod lexer;
mod parser;

pub use parser::parse;
