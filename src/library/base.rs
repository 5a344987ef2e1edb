//! The methodology's `Base` built into the binary: loaded first when a
//! library names `Base` and declares none, so a model outside the
//! repository needs no path to `examples/Base.mo`.

use crate::source::FileId;
use crate::syntax::lexer::{lex, Kw, Tok, Token};

/// The name messages give the built-in `Base` (it is `examples/Base.mo`
/// of the same version).
pub const BUNDLED_BASE_NAME: &str = "<bundled>/Base.mo";

/// The methodology's `Base` (special classes and SI unit types), as
/// `examples/Base.mo` of this version.
pub const BUNDLED_BASE: &str = include_str!("../../examples/Base.mo");

/// `files` with the built-in `Base` loaded first when some file names
/// `Base` (`Base.ContinuousState`, `import Base;`) and no file declares a
/// top-level class `Base` (a library that brings its own keeps it).
pub fn with_base(mut files: Vec<(String, String)>) -> Vec<(String, String)> {
    let (mut declares, mut uses) = (false, false);
    for (_, text) in &files {
        let tokens = lex(FileId(0), text).tokens;
        declares |= declares_base(text, &tokens);
        uses |= uses_base(text, &tokens);
    }
    if uses && !declares {
        files.insert(0, (BUNDLED_BASE_NAME.to_string(), BUNDLED_BASE.to_string()));
    }
    files
}

fn is_base(text: &str, t: &Token) -> bool {
    t.tok == Tok::Ident && &text[t.start as usize..t.end as usize] == "Base"
}

/// Whether the tokens name `Base` as the head of a name (`Base.Units`,
/// `import Base;`), not as a member (`Lib.Base`) or a class's end.
fn uses_base(text: &str, tokens: &[Token]) -> bool {
    tokens.windows(3).any(|w| {
        is_base(text, &w[1])
            && matches!(w[2].tok, Tok::Dot | Tok::Semi)
            && !matches!(w[0].tok, Tok::Dot | Tok::Kw(Kw::End))
    }) || (tokens.first().is_some_and(|t| is_base(text, t))
        && tokens
            .get(1)
            .is_some_and(|t| matches!(t.tok, Tok::Dot | Tok::Semi)))
}

/// Whether the tokens declare a class `Base` at the file's top level (a
/// `within` clause that names a package puts it elsewhere).
fn declares_base(text: &str, tokens: &[Token]) -> bool {
    let within = tokens.first().is_some_and(|t| t.tok == Tok::Kw(Kw::Within))
        && tokens.get(1).is_some_and(|t| t.tok != Tok::Semi);
    !within
        && tokens.windows(2).any(|p| {
            matches!(
                p[0].tok,
                Tok::Kw(Kw::Package | Kw::Model | Kw::Block | Kw::Class | Kw::Record)
            ) && is_base(text, &p[1])
        })
}
