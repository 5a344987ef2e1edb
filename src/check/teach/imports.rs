//! An import of the Modelica Standard Library (`import SI =
//! Modelica.Units.SI;`, MC004): there is no Standard Library here, and the
//! help says what stands in for the part that was meant. The SI unit types
//! are `Base.Units` (examples/Base.mo, loaded before the library), so that
//! import is rewritten to `import SI = Base.Units;`; the constants and
//! mathematical functions are known by their full names without any import.

use crate::diagnostic::Diagnostic;
use crate::resolve::tree::ClassNode;
use crate::syntax::ast::{ClassBody, Element, Import};

/// The names of the Standard Library's SI unit packages.
const SI_PACKAGES: &[&str] = &["Modelica.Units.SI", "Modelica.SIunits"];

/// Adds the help (and, for the SI units, the fix) to an MC004 whose
/// import target starts with `Modelica`.
pub(super) fn standard_library_import(class: Option<&ClassNode>, d: &mut Diagnostic) {
    let Some(import) = class.and_then(|c| import_at(c, d)) else {
        return;
    };
    let target = import.name.dotted();
    if target != "Modelica" && !target.starts_with("Modelica.") {
        return;
    }
    if SI_PACKAGES.contains(&target.as_str()) {
        d.help = format!(
            "there is no Modelica Standard Library here: the methodology's SI unit types \
             (Length, Mass, Voltage, Power, ...) are `Base.Units` (examples/Base.mo, loaded \
             before the file that uses it); import it instead of `{target}`"
        );
        d.push_fix(
            format!("import `Base.Units` in place of `{target}`"),
            import.name.span,
            "Base.Units",
        );
    } else if target.starts_with("Modelica.Constants") || target.starts_with("Modelica.Math") {
        d.help = format!(
            "there is no Modelica Standard Library here; mofmu knows the names of \
             `Modelica.Constants` and `Modelica.Math` without it: drop the import and write \
             them in full where they are used (`Modelica.Constants.pi`, \
             `Modelica.Math.sin(x)`) (docs/language.md); `{target}` cannot be imported"
        );
    } else {
        d.help = format!(
            "there is no Modelica Standard Library here: `{target}` has no counterpart to \
             import; the libraries under the methodology are mofmu's examples/ (Base with \
             its `Base.Units`, Signals, Thermal, Planar, Electrical, ThermoFluidStream, \
             EnergyFlows), loaded before the file that uses them"
        );
    }
}

/// The import of `class` whose target holds the diagnostic's place.
fn import_at<'a>(class: &'a ClassNode, d: &Diagnostic) -> Option<&'a Import> {
    let ClassBody::Long(body) = &class.def.body else {
        return None;
    };
    body.elements.iter().find_map(|e| match e {
        Element::Import(i)
            if i.name.span.file == d.span.file
                && i.name.span.start <= d.span.start
                && d.span.end <= i.name.span.end =>
        {
            Some(i)
        }
        _ => None,
    })
}
