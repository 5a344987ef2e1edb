//! `mofmu units`: the unit of every variable of a model, or the verdict of
//! every class.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use mofmu::export::{model_units, unit_verdicts, ExportError};
use mofmu::library::load_library;
use mofmu::loader::load_paths;

use super::common::{print_diagnostics, MessageFormat};

#[derive(Args)]
pub struct UnitsArgs {
    /// .mo files or library directories, loaded in the order given.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Qualified name of the model, e.g. Thermal.Examples.RodHeating
    /// (default: the verdict of every class instead).
    #[arg(long)]
    model: Option<String>,
    /// How diagnostics are printed.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    message_format: MessageFormat,
}

/// `mofmu units`: exit 0 when the units are consistent, 1 otherwise.
pub fn run(args: UnitsArgs) -> Result<ExitCode> {
    let UnitsArgs {
        paths,
        model,
        message_format,
    } = args;
    units(&paths, model.as_deref(), message_format)
}

/// `mofmu units`: a table of the model's variables, or a verdict per class.
fn units(paths: &[PathBuf], model: Option<&str>, format: MessageFormat) -> Result<ExitCode> {
    let lib = load_library(load_paths(paths)?);
    let Some(model) = model else {
        let (verdicts, diags) = unit_verdicts(&lib);
        for v in &verdicts {
            if v.open.is_empty() {
                println!("{}: {}", v.class, v.verdict.describe());
            } else {
                println!(
                    "{}: {} (open: {})",
                    v.class,
                    v.verdict.describe(),
                    v.open.join(", ")
                );
            }
        }
        if diags.is_empty() {
            return Ok(ExitCode::SUCCESS);
        }
        print_diagnostics(&lib, &diags, format);
        return Ok(ExitCode::from(1));
    };
    let (units, diags) = match model_units(&lib, model) {
        Ok(x) => x,
        Err(ExportError::Diagnostics(d)) => {
            print_diagnostics(&lib, &d, format);
            return Ok(ExitCode::from(1));
        }
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let width = units
        .variables
        .iter()
        .map(|v| v.name.len())
        .max()
        .unwrap_or(0);
    let unit_width = units
        .variables
        .iter()
        .map(|v| {
            v.unit
                .as_ref()
                .or(v.open_form.as_ref())
                .map_or(1, String::len)
        })
        .max()
        .unwrap_or(0);
    for v in &units.variables {
        println!(
            "{:width$}  {:unit_width$}  {}",
            v.name,
            v.unit.as_deref().or(v.open_form.as_deref()).unwrap_or("?"),
            v.origin.as_str()
        );
    }
    let open = units.open();
    if open.is_empty() {
        println!("{}: {}", units.qualified, units.verdict.describe());
    } else {
        println!(
            "{}: {} (open: {})",
            units.qualified,
            units.verdict.describe(),
            open.join(", ")
        );
    }
    if diags.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        print_diagnostics(&lib, &diags, format);
        Ok(ExitCode::from(1))
    }
}
