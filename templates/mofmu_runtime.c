/* The static FMI 2.0 runtime of every mofmu FMU (Model Exchange and
 * Co-Simulation).
 *
 * This file knows nothing about a particular model: it reaches the model
 * only through the tables and the two functions of mofmu_model.h, which the
 * generated system file provides. It implements every FMI 2.0 entry point,
 * guards each one by the interface (Model Exchange or Co-Simulation) and the
 * set of states in which the standard allows it, evaluates the model
 * lazily, and stores everything in the instance: there is no global mutable
 * state, so any number of instances may run in any threads.
 *
 * Error policy. A misuse (call in a wrong state, NULL array, unknown value
 * reference, wrong array size, non-settable variable, non-finite value)
 * returns fmi2Error and changes nothing, not even the state: the call had no
 * effect, so the instance is still consistent. A failure of the model itself
 * (mofmu_fail, a non-finite output) returns fmi2Error and moves the instance
 * into the error state, as FMI 2.0 requires; from there only getters (for
 * debugging), fmi2SetFMUstate, fmi2Reset and fmi2FreeInstance help. A
 * non-finite derivative or event indicator in continuous-time mode is
 * fmi2Discard instead, so the integrator can retry with a smaller step. */

/* One translation unit. The runtime is split along the standard into parts
 * (the *.inc files beside this one) that this file includes in order, over
 * one internal header, mofmu_runtime.h. A part is not a unit of its own: it
 * refuses to compile alone, and an importer that compiles every *.c file of
 * sources/ never sees it. So the helpers stay static, the library exports
 * only the FMI API, the compiler inlines across parts, and the FMU lists
 * this one file for the runtime in <SourceFiles>. mofmu_fmi3.c includes
 * this file whole. */
#define MOFMU_RUNTIME_UNIT
#include "mofmu_runtime.h"

/* Logging and the argument checks of every entry point. */
#include "mofmu_logging.inc"
/* resources/mofmu_system.bin: the tables and the schedule. */
#include "mofmu_resource.inc"
/* The schedule executor. */
#include "mofmu_schedule.inc"
/* Where a run-time failure starts in the Modelica source. */
#include "mofmu_locations.inc"
/* Lazy evaluation into the instance, finiteness checks, the arrays. */
#include "mofmu_evaluation.inc"
/* The FMI 2.0 entry points but events, FMU state and Co-Simulation. */
#include "mofmu_fmi2_functions.inc"
/* FMU state: get, set, serialize. */
#include "mofmu_state.inc"
/* Events: event mode and the relations. */
#include "mofmu_events.inc"
/* The system's evaluation and the linear-response (tearing) solve. */
#include "mofmu_linear_response.inc"
/* Co-Simulation: its solver's iteration matrix, then fmi2DoStep. */
#include "mofmu_cosim_matrix.inc"
#include "mofmu_cosim.inc"
