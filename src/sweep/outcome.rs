//! What a sweep found: each case's row and how it ended.

/// How a case ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Ok,
    /// The simulation failed (FMI error, solver failure, bad start value).
    Failed,
    /// The simulation finished but a recorded value is not finite.
    NotFinite,
}

impl Status {
    /// The name in the summary's `status` column.
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Failed => "failed",
            Status::NotFinite => "nan",
        }
    }

    pub(crate) fn parse(name: &str) -> Option<Status> {
        [Status::Ok, Status::Failed, Status::NotFinite]
            .into_iter()
            .find(|s| s.name() == name)
    }
}

/// One row of the summary.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseResult {
    pub case: usize,
    /// The case's parameter values, in the order of [`Cases::names`](crate::sweep::Cases::names).
    pub values: Vec<f64>,
    pub status: Status,
    /// Why the case failed; empty when it did not.
    pub message: String,
    /// Wall time of the simulation, seconds.
    pub wall_s: f64,
    /// Final value of each output (NaN when the case failed).
    pub finals: Vec<f64>,
}

/// What a sweep did.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub names: Vec<String>,
    pub outputs: Vec<String>,
    /// Every case's row, in case order.
    pub results: Vec<CaseResult>,
    /// Cases simulated by this run.
    pub ran: usize,
    /// Cases found done in the dataset and skipped.
    pub skipped: usize,
}

impl Summary {
    /// Cases whose status is not `ok`.
    pub fn failed(&self) -> usize {
        self.results
            .iter()
            .filter(|r| r.status != Status::Ok)
            .count()
    }
}
