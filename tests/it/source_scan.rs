//! A light reader of Rust source for the layout guards (`modules.rs`,
//! `sizes.rs`): it blanks comments and literals, so that the guards count
//! braces and read paths in code only, and it finds which file of `src/`
//! a path names.
//!
//! This is not a Rust parser: it knows exactly as much of the lexical
//! grammar as the guards need (comments, strings, raw strings, byte
//! strings, character literals against lifetimes).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir`, sorted.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect(dir, &mut out);
    out.sort();
    out
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `text` with every comment, string and character literal replaced by
/// spaces (newlines kept, so line numbers stay), leaving code alone.
pub fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from..to] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"//") {
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |p| i + p);
            blank(&mut out, i, end);
            i = end;
        } else if rest.starts_with(b"/*") {
            // Block comments nest in Rust.
            let (mut depth, mut j) = (0usize, i);
            while j < bytes.len() {
                if bytes[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if bytes[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if let Some(end) = raw_string_end(bytes, i) {
            blank(&mut out, i, end);
            i = end;
        } else if bytes[i] == b'"' && !is_ident_byte(bytes.get(i.wrapping_sub(1)).copied()) {
            let end = quoted_end(bytes, i, b'"');
            blank(&mut out, i, end);
            i = end;
        } else if bytes[i] == b'b' && rest.starts_with(b"b\"") && !is_ident_byte(prev(bytes, i)) {
            let end = quoted_end(bytes, i + 1, b'"');
            blank(&mut out, i, end);
            i = end;
        } else if bytes[i] == b'\'' {
            // A character literal ('a', '\n', '\u{7f}', '{'), or a lifetime ('a).
            let end = if rest.get(1) == Some(&b'\\') {
                quoted_end(bytes, i, b'\'')
            } else {
                // One character (possibly several bytes) then a quote.
                let width = std::str::from_utf8(&bytes[i + 1..])
                    .ok()
                    .or_else(|| std::str::from_utf8(&bytes[i + 1..(i + 5).min(bytes.len())]).ok())
                    .and_then(|s| s.chars().next())
                    .map_or(1, char::len_utf8);
                if bytes.get(i + 1 + width) == Some(&b'\'') {
                    i + 2 + width
                } else {
                    i + 1
                }
            };
            if end > i + 1 {
                blank(&mut out, i, end);
            }
            i = end;
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII spaces were written over whole literals")
}

fn prev(bytes: &[u8], i: usize) -> Option<u8> {
    i.checked_sub(1).map(|j| bytes[j])
}

fn is_ident_byte(b: Option<u8>) -> bool {
    b.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The end (one past the closing quote) of a literal opened by `quote` at
/// `start`, with backslash escapes.
fn quoted_end(bytes: &[u8], start: usize, quote: u8) -> usize {
    let mut j = start + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b if b == quote => return j + 1,
            _ => j += 1,
        }
    }
    bytes.len()
}

/// `r"..."`, `r#"..."#`, `br"..."` starting at `i`: the end of the literal.
fn raw_string_end(bytes: &[u8], i: usize) -> Option<usize> {
    if is_ident_byte(prev(bytes, i)) {
        return None;
    }
    let mut j = i;
    if bytes.get(j) == Some(&b'b') {
        j += 1;
    }
    if bytes.get(j) != Some(&b'r') {
        return None;
    }
    j += 1;
    let hashes = bytes[j..].iter().take_while(|&&b| b == b'#').count();
    j += hashes;
    if bytes.get(j) != Some(&b'"') {
        return None;
    }
    let mut closing = vec![b'"'];
    closing.extend(std::iter::repeat(b'#').take(hashes));
    let body = j + 1;
    let found = bytes[body..]
        .windows(closing.len())
        .position(|w| w == closing.as_slice())?;
    Some(body + found + closing.len())
}

/// The code of a file up to its inline `#[cfg(test)] mod name { ... }`, if
/// it has one at its end (a test module's `super::` is the file itself).
pub fn without_inline_tests(code: &str) -> &str {
    let mut from = 0;
    while let Some(at) = code[from..].find("#[cfg(test)]") {
        let at = from + at;
        let after = code[at + "#[cfg(test)]".len()..].trim_start();
        if let Some(rest) = after.strip_prefix("mod ") {
            let head: String = rest
                .chars()
                .take_while(|c| *c != ';' && *c != '{')
                .collect();
            if rest[head.len()..].starts_with('{') {
                return &code[..at];
            }
        }
        from = at + 1;
    }
    code
}

/// The module path of a file of `src/` (`resolve/names.rs` ->
/// `["resolve", "names"]`, `resolve/mod.rs` -> `["resolve"]`, `lib.rs`
/// and `main.rs` -> `[]`).
pub fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs").to_string();
    if stem != "mod" && !(parts.is_empty() && (stem == "lib" || stem == "main")) {
        parts.push(stem);
    }
    parts
}

/// The file-level import graph of `src/`: a file -> the files of `src/`
/// it names. A file names another when one of its paths
/// (`crate::a::b::c`, `super::b`, `self::child`, or a child module's name
/// in the file that declares it) resolves to that file: the longest prefix
/// of the path that is a file's module. So `super::Item`, for an item that
/// a `mod.rs` defines or re-exports, names that `mod.rs`. `lib.rs` and
/// `main.rs` (which only declare modules) are not in the graph.
pub fn file_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = rust_files(src);
    let mut by_module: BTreeMap<Vec<String>, String> = BTreeMap::new();
    for file in &files {
        let relative = file.strip_prefix(src).expect("under src/");
        by_module.insert(module_path(relative), display(relative));
    }
    let mut graph = BTreeMap::new();
    for file in &files {
        let relative = file.strip_prefix(src).expect("under src/");
        let name = display(relative);
        if name == "lib.rs" || name == "main.rs" {
            continue;
        }
        let me = module_path(relative);
        let text = std::fs::read_to_string(file).expect("readable");
        let code = code_only(&text);
        let code = without_inline_tests(&code);
        let mut deps = BTreeSet::new();
        for path in named_paths(code, &me) {
            if let Some(target) = longest_file(&by_module, &path) {
                if *target != name {
                    deps.insert(target.clone());
                }
            }
        }
        graph.insert(name, deps);
    }
    graph
}

fn display(relative: &Path) -> String {
    relative.to_string_lossy().replace('\\', "/")
}

fn longest_file<'a>(
    by_module: &'a BTreeMap<Vec<String>, String>,
    path: &[String],
) -> Option<&'a String> {
    (1..=path.len())
        .rev()
        .find_map(|k| by_module.get(&path[..k]))
}

/// Every module path the code names, made absolute from the crate root:
/// `crate::…`, `super::…` (from the file's module `me`), and `self::…` or
/// `child::…` for the child modules the file declares. A use group
/// (`a::{self, b, c::{d}}`) gives one path per leaf (`self` and `*` name
/// the group's stem).
pub fn named_paths(code: &str, me: &[String]) -> Vec<Vec<String>> {
    let children: BTreeSet<String> = declared_children(code);
    let parent: Vec<String> = me[..me.len().saturating_sub(1)].to_vec();
    let tokens = tokens(code);
    let mut out = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let preceded_by_path = i > 0 && tokens[i - 1] == "::";
        // A path goes on with `::`; `pub(super)`, `pub(crate)` and
        // `pub(in crate::a)` are visibilities, not imports.
        let visibility = i > 0 && (tokens[i - 1] == "(" || tokens[i - 1] == "in");
        let continues = tokens.get(i + 1).is_some_and(|t| t == "::");
        if preceded_by_path || visibility || !continues {
            continue;
        }
        let base: Vec<String> = match token.as_str() {
            "crate" => Vec::new(),
            "super" => parent.clone(),
            "self" => me.to_vec(),
            name if children.contains(name) && tokens.get(i + 1).is_some_and(|t| t == "::") => {
                let mut p = me.to_vec();
                p.push(name.to_string());
                out.push(p.clone());
                path_tail(&tokens, i + 1, p, &mut out);
                continue;
            }
            _ => continue,
        };
        path_tail(&tokens, i + 1, base, &mut out);
    }
    out
}

/// Reads `::seg::seg…` or `::{group}` after a path's head.
fn path_tail(tokens: &[String], mut i: usize, mut path: Vec<String>, out: &mut Vec<Vec<String>>) {
    while tokens.get(i).is_some_and(|t| t == "::") {
        match tokens.get(i + 1).map(String::as_str) {
            Some("{") => {
                group(tokens, i + 2, &path, out);
                return;
            }
            Some("super") => {
                path.pop();
                i += 2;
            }
            Some(seg) if is_ident(seg) => {
                path.push(seg.to_string());
                i += 2;
            }
            _ => break,
        }
    }
    out.push(path);
}

/// The leaves of a use group that starts at `i` (after `{`), each below `stem`.
/// Returns the index after the closing `}`.
fn group(tokens: &[String], mut i: usize, stem: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let mut current: Vec<String> = stem.to_vec();
    while i < tokens.len() {
        match tokens[i].as_str() {
            "}" => {
                if current.len() > stem.len() {
                    out.push(current);
                }
                return i + 1;
            }
            "," => {
                if current.len() > stem.len() {
                    out.push(std::mem::replace(&mut current, stem.to_vec()));
                }
                i += 1;
            }
            "{" => {
                i = group(tokens, i + 1, &current, out);
                current = stem.to_vec();
            }
            "self" | "*" => {
                out.push(stem.to_vec());
                i += 1;
            }
            "::" => i += 1,
            "as" => i += 2,
            seg if is_ident(seg) => {
                current.push(seg.to_string());
                i += 1;
            }
            _ => i += 1,
        }
    }
    i
}

fn is_ident(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// `mod name;` declarations (the children whose files live below this one).
fn declared_children(code: &str) -> BTreeSet<String> {
    let tokens = tokens(code);
    let mut out = BTreeSet::new();
    for (i, t) in tokens.iter().enumerate() {
        if t == "mod" && tokens.get(i + 2).is_some_and(|t| t == ";") {
            if let Some(name) = tokens.get(i + 1).filter(|n| is_ident(n)) {
                out.insert(name.clone());
            }
        }
    }
    out
}

/// Identifiers, `::` and single punctuation characters, in order.
fn tokens(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push("::".to_string());
            i += 2;
        } else if c.is_whitespace() {
            i += 1;
        } else {
            out.push(c.to_string());
            i += 1;
        }
    }
    out
}

/// A circle in `graph`, as the list of its nodes (first repeated last).
pub fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        if let Some(cycle) = cycle_from(graph, node, &mut Vec::new(), &mut done) {
            return Some(cycle);
        }
    }
    None
}

/// A cycle through `node`, if any, as the list of nodes on it.
pub fn cycle_from(
    graph: &BTreeMap<String, BTreeSet<String>>,
    node: &str,
    path: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if let Some(at) = path.iter().position(|m| m == node) {
        let mut cycle = path[at..].to_vec();
        cycle.push(node.to_string());
        return Some(cycle);
    }
    if done.contains(node) {
        return None;
    }
    path.push(node.to_string());
    for next in graph.get(node).into_iter().flatten() {
        if let Some(cycle) = cycle_from(graph, next, path, done) {
            return Some(cycle);
        }
    }
    path.pop();
    done.insert(node.to_string());
    None
}

/// Functions longer than `limit` lines: (file, first line, name, lines),
/// counted from the line of `fn` to the line of the closing brace.
pub fn long_functions(src: &Path, limit: usize) -> Vec<(String, usize, String, usize)> {
    let mut out = Vec::new();
    for file in rust_files(src) {
        let text = std::fs::read_to_string(&file).expect("readable");
        let name = display(file.strip_prefix(src).unwrap_or(&file));
        for (line, function, lines) in function_lengths(&code_only(&text)) {
            if lines > limit {
                out.push((name.clone(), line, function, lines));
            }
        }
    }
    out
}

/// Every function with a body in `code` (comments and literals blanked):
/// (line of `fn`, name, lines from `fn` to the closing brace).
pub fn function_lengths(code: &str) -> Vec<(usize, String, usize)> {
    let bytes = code.as_bytes();
    let line_of = |at: usize| code[..at].bytes().filter(|&b| b == b'\n').count() + 1;
    let mut out = Vec::new();
    let mut search = 0;
    while let Some(found) = code[search..].find("fn ") {
        let at = search + found;
        search = at + 3;
        if is_ident_byte(prev(bytes, at)) {
            continue;
        }
        let name: String = code[at + 3..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        // The body opens at the first `{` before any `;` (a declaration
        // without a body, as in a trait, has none).
        let Some(open) = code[at..].find(['{', ';']).map(|p| at + p) else {
            continue;
        };
        if bytes[open] == b';' {
            continue;
        }
        let mut depth = 0usize;
        let mut close = open;
        for (j, &b) in bytes.iter().enumerate().skip(open) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = j;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push((line_of(at), name, line_of(close) - line_of(at) + 1));
    }
    out
}

#[test]
fn the_reader_blanks_literals_and_comments() {
    let code = code_only(
        "fn a() { let s = \"}{\"; let c = '{'; let r = r#\"}\"#; // }\n let l: &'static str = \"\"; /* { /* } */ */ }\n",
    );
    assert_eq!(code.matches('{').count(), 1, "{code}");
    assert_eq!(code.matches('}').count(), 1, "{code}");
    assert!(code.contains("&'static"), "a lifetime is code: {code}");
    assert_eq!(function_lengths(&code), [(1, "a".to_string(), 2)]);
}

#[test]
fn the_reader_finds_named_paths() {
    let me = vec!["resolve".to_string(), "names".to_string()];
    let paths = named_paths(
        "mod child; use super::{expr::{Expr, BinOp}, model}; use crate::units::Unit; fn f() { child::g(); }\n\
         pub(super) fn h(&self) {} pub(in crate::check) fn i() {}",
        &me,
    );
    let has = |p: &[&str]| paths.iter().any(|q| q == p);
    assert!(has(&["resolve", "expr", "Expr"]), "{paths:?}");
    assert!(has(&["resolve", "expr", "BinOp"]), "{paths:?}");
    assert!(has(&["resolve", "model"]), "{paths:?}");
    assert!(has(&["units", "Unit"]), "{paths:?}");
    assert!(has(&["resolve", "names", "child", "g"]), "{paths:?}");
    // Visibilities name no file.
    assert!(!has(&["resolve"]) && !has(&["check"]), "{paths:?}");
}
