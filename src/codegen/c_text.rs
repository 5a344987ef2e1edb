//! The C spelling shared by class kernels and user functions: the
//! prelude of a unit, prototypes of the user functions it calls, literals,
//! operators and built-in functions.

use std::fmt::Write;

use crate::ir::{Arith, Func, RelOp};

/// What every generated C unit (a class kernel, a user function) starts
/// with after its title comment.
pub const C_PRELUDE: &str = "#include <math.h>\n#include \"mofmu_model.h\"\n\n";

/// Prototypes of the functions `(symbol, number of inputs)` and of their
/// tangent twins, for a unit that calls them.
pub fn prototypes_for(calls: &[(String, usize)]) -> String {
    let mut s = String::new();
    for (sym, n) in calls {
        let args = |k: usize| -> String {
            let mut a = vec![
                "mofmu_ctx *ctx".to_string(),
                "const char *instance".to_string(),
            ];
            a.extend((0..k).map(|i| format!("double a{i}")));
            a.join(", ")
        };
        let _ = writeln!(s, "double {sym}({});", args(*n));
        let _ = writeln!(s, "double {sym}_t({});", args(2 * n));
    }
    if !s.is_empty() {
        s.push('\n');
    }
    s
}

/// The C text of a Real arithmetic operation on the C texts of its
/// operands. A kernel writes a square as a product instead
/// (`kernel::real_arith`); Boolean operations are the caller's.
pub fn arith(op: Arith, x: &str, y: &str) -> String {
    match op {
        Arith::Add => format!("({x} + {y})"),
        Arith::Sub => format!("({x} - {y})"),
        Arith::Mul => format!("({x} * {y})"),
        Arith::Div => format!("({x} / {y})"),
        Arith::Pow => format!("pow({x}, {y})"),
        Arith::And | Arith::Or => unreachable!("a Boolean operation is rendered by its caller"),
    }
}

/// The C function of a built-in function.
pub fn func_name(f: Func) -> &'static str {
    match f {
        Func::Sin => "sin",
        Func::Cos => "cos",
        Func::Tan => "tan",
        Func::Asin => "asin",
        Func::Acos => "acos",
        Func::Atan => "atan",
        Func::Atan2 => "atan2",
        Func::Sinh => "sinh",
        Func::Cosh => "cosh",
        Func::Tanh => "tanh",
        Func::Exp => "exp",
        Func::Log => "log",
        Func::Log10 => "log10",
        Func::Sqrt => "sqrt",
        Func::Abs => "fabs",
        Func::Sign => "mofmu_sign_",
        Func::Min => "mofmu_min",
        Func::Max => "mofmu_max",
    }
}

/// A variable name inside a C string literal.
pub fn c_string(name: &str) -> String {
    name.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The C operator of a relation.
pub fn c_rel(op: RelOp) -> &'static str {
    match op {
        RelOp::Lt => "<",
        RelOp::Le => "<=",
        RelOp::Gt => ">",
        RelOp::Ge => ">=",
        RelOp::Eq => "==",
        RelOp::Ne => "!=",
    }
}

/// A C double literal that reads back as exactly `r`. A non-finite one is
/// a division by zero that the C compiler keeps (GCC does not fold a
/// division that raises a floating-point exception), so using it raises
/// invalid or division by zero: the runtime's finiteness check watches
/// those flags instead of scanning every derivative (mofmu_evaluation.inc,
/// run_evaluation).
pub fn real_literal(r: f64) -> String {
    if r.is_nan() {
        return "(0.0 / 0.0)".into();
    }
    if r.is_infinite() {
        return if r > 0.0 {
            "(1.0 / 0.0)".into()
        } else {
            "(-1.0 / 0.0)".into()
        };
    }
    let s = format!("{r:?}");
    if r < 0.0 {
        format!("({s})")
    } else {
        s
    }
}
