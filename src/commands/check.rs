//! `mofmu check`: the library's compliance diagnostics, once, on every
//! save (`--watch`), or with the machine-applicable suggestions applied
//! (`--fix`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;

use mofmu::library::{check_library_with, load_library};
use mofmu::loader::load_paths;

use super::common::{print_diagnostics, MessageFormat};
use crate::watch;

#[derive(Args)]
pub struct CheckArgs {
    /// How diagnostics are printed.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    message_format: MessageFormat,
    /// Skip unit checking (to measure what it costs).
    #[arg(long, hide = true)]
    no_units: bool,
    /// Keep running: re-check whenever a file under PATH is saved and
    /// print what changed (new diagnostics, fixed ones, or "clean").
    #[arg(long, conflicts_with = "fix")]
    watch: bool,
    /// Apply the machine-applicable suggestions (check again, repeat)
    /// and print the changes as a unified diff; the files are left
    /// untouched unless --write is given. What cannot be fixed is
    /// reported with its explanation.
    #[arg(long)]
    fix: bool,
    /// With --fix: write the fixed files (each whole, through a
    /// temporary file renamed over it).
    #[arg(long, requires = "fix")]
    write: bool,
    /// .mo files or library directories (package.mo + package.order),
    /// loaded in the order given; the methodology's Base is built in (loaded
    /// first when a file names `Base` and none declares it).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

/// `mofmu check`: exit 0 when the library is compliant, 1 otherwise.
pub fn run(args: CheckArgs) -> Result<ExitCode> {
    let CheckArgs {
        message_format,
        paths,
        no_units,
        watch,
        fix,
        write,
    } = args;
    if fix {
        return check_fix(&paths, !no_units, write, message_format);
    }
    if watch {
        let format = match message_format {
            MessageFormat::Human => watch::Format::Human,
            MessageFormat::Short => watch::Format::Short,
            MessageFormat::Json => {
                bail!("--watch prints diagnostics as `human` or `short`, not `json`")
            }
        };
        return watch::watch(&paths, format, !no_units);
    }
    let lib = load_library(load_paths(&paths)?);
    let diags = check_library_with(&lib, !no_units);
    if diags.is_empty() {
        if message_format == MessageFormat::Human {
            eprintln!(
                "ok: {} classes checked, no diagnostics",
                lib.tree.classes.len()
            );
        }
        Ok(ExitCode::SUCCESS)
    } else {
        print_diagnostics(&lib, &diags, message_format);
        Ok(ExitCode::from(1))
    }
}

/// `mofmu check --fix [--write]`: the diff of what the suggestions change
/// (written with --write), then what is left. Exit 0 when the fixed
/// library is compliant, 1 otherwise.
fn check_fix(
    paths: &[PathBuf],
    check_units: bool,
    write: bool,
    format: MessageFormat,
) -> Result<ExitCode> {
    let fixed = mofmu::fix::fix(load_paths(paths)?, check_units);
    let mut changed = 0;
    for (name, before, after) in &fixed.files {
        if before == after {
            continue;
        }
        changed += 1;
        print!("{}", mofmu::fix::unified_diff(name, before, after));
        if write {
            mofmu::fix::write_atomically(std::path::Path::new(name), after.as_bytes())
                .with_context(|| format!("writing {name}"))?;
        }
    }
    let verb = if write { "applied" } else { "would apply" };
    eprintln!(
        "fix: {verb} {} edit{} in {changed} file{}{}",
        fixed.edits,
        if fixed.edits == 1 { "" } else { "s" },
        if changed == 1 { "" } else { "s" },
        if write || changed == 0 {
            ""
        } else {
            " (run with --write to apply)"
        }
    );
    if fixed.remaining.is_empty() {
        eprintln!(
            "ok: {} classes checked, no diagnostics{}",
            fixed.library.tree.classes.len(),
            if write || changed == 0 {
                ""
            } else {
                " after the fixes"
            }
        );
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!("left after the fixes:");
        print_diagnostics(&fixed.library, &fixed.remaining, format);
        Ok(ExitCode::from(1))
    }
}
