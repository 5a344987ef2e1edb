//! How a class declares a variable, as the class sees it: its causality
//! and its variability. A floor below the resolved expression (a member
//! reference carries both) and the class model.

/// Causality of a variable as seen from inside the class that declares it:
/// whether the class receives it or determines it (not FMI causality, which
/// is `fmu::description::table::Causality`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassCausality {
    /// Known inside the class (an input, or a connector variable the
    /// class receives).
    Input,
    /// To be determined by the class.
    Output,
    /// Neither: a protected or public variable of the class itself.
    Local,
}

/// Variability of a variable as the class declares it (not FMI
/// variability, which is `fmu::description::table::Variability`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassVariability {
    Constant,
    Parameter,
    Continuous,
}
