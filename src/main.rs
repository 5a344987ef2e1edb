//! The `mofmu` command line: check, export, simulate, sweep. This file parses
//! the arguments and hands each command to its module in `commands/`.

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

mod commands;
mod watch;

#[derive(Parser)]
#[command(
    name = "mofmu",
    version,
    about = "Compile strict-methodology Modelica libraries into FMI 2.0 or FMI 3.0 FMUs (Model Exchange and Co-Simulation)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check libraries for compliance with the methodology.
    Check(commands::check::CheckArgs),
    /// Export a model as an FMU (Model Exchange and Co-Simulation): FMI 2.0, or
    /// FMI 3.0 with --fmi-version 3.
    Export(commands::export::ExportArgs),
    /// Couple the Co-Simulation sides of two or more FMUs through a
    /// connection file (TOML, docs/cosim.md) with a fixed communication
    /// step, and write the results as CSV. Exit 0 on success, 1 when the
    /// connection file has errors, 2 when a run fails.
    Cosim(commands::cosim::CosimArgs),
    /// Compare a result with a reference inside csv-compare's tube; exit 0
    /// when every signal passes, 1 when one fails, 2 when an input cannot
    /// be read.
    Compare(commands::compare::CompareArgs),
    /// Print the unit of every variable of a model (declared, inferred or
    /// open), or without --model the unit verdict of every class.
    Units(commands::units::UnitsArgs),
    /// Simulate one FMU once per case of a grid or a table of start values,
    /// on worker threads, into a Parquet dataset (docs/sweep.md): DIR/summary.parquet
    /// and DIR/trajectories/case=<id>/part-0.parquet. Re-running resumes. Exit 0
    /// when every case ran (failed cases are rows with their status), 1 when the
    /// cases or outputs are wrong, 2 when the sweep cannot run.
    Sweep(commands::sweep::SweepArgs),
    /// Load an FMU through its shared library and simulate it. Option names
    /// follow fmusim where they mean the same.
    Simulate(commands::simulate::SimulateArgs),
    /// Serve the Language Server Protocol on stdin and stdout: live
    /// diagnostics, quick fixes, units and causality on hover (docs/editor.md).
    /// The workspace's load order comes from its mofmu-lsp.toml.
    Lsp,
}

/// The compiler allocates many small nodes, names and tables: with
/// mimalloc `mofmu check` of the 10,000-line bench library takes 35 ms
/// instead of 59 ms, and an export of 10^6 volumes a little less time and
/// memory than with the system allocator (benches/check.rs, docs/benchmarks.md).
/// The library crate leaves the choice to whoever links it.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    default_sigpipe();
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", error_chain(&e));
            ExitCode::from(2)
        }
    }
}

/// Output piped into a program that stops reading (`mofmu units … | head`)
/// ends mofmu quietly, as it ends `cat` or `grep`, instead of a panic in
/// `println!`. Rust ignores SIGPIPE by default; this restores the default.
fn default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any other thread exists;
    // it only resets one signal's disposition to the system default.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// The error and its causes, leaving out a cause whose text the message
/// before it already ends with (errors that quote their source).
fn error_chain(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if text.is_empty() {
            text = part;
        } else if !text.ends_with(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
    }
    text
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Check(args) => commands::check::run(args),
        Command::Export(args) => commands::export::run(args),
        Command::Cosim(args) => commands::cosim::run(args),
        Command::Compare(args) => commands::compare::run(args),
        Command::Units(args) => commands::units::run(args),
        Command::Sweep(args) => commands::sweep::run(args),
        Command::Simulate(args) => commands::simulate::run(args),
        Command::Lsp => {
            mofmu::lsp::serve_stdio()?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
