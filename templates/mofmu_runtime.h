/* The runtime's internal header: the instance, the allowed-state masks, the
 * log categories and the declarations its parts share.
 *
 * Only mofmu_runtime.c includes it, before its parts (the *.inc files); it
 * sits over mofmu_model.h, the interface between the runtime and the
 * generated code, and mofmu_fmi2.h, the FMI 2.0 declarations. Everything
 * declared here is static to the one translation unit. */
#ifndef MOFMU_RUNTIME_UNIT
#error "mofmu_runtime.h is part of mofmu_runtime.c and is included only there"
#endif

#ifndef MOFMU_RUNTIME_H
#define MOFMU_RUNTIME_H

#include <fenv.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mofmu_fmi2.h"
#include "mofmu_model.h"

static void mofmu_evaluate(double *R, mofmu_ctx *ctx);
static void mofmu_directional(const double *R, double *dR, mofmu_ctx *ctx);
static int mofmu_lr_solve(mofmu_ctx *ctx, size_t n, double *A, double *b,
                          const mofmu_system *sys);

/* Kernels are compiled with -fvisibility=hidden; only the FMI entry points
 * leave the shared object. */
#if defined(__GNUC__) || defined(__clang__)
#define MOFMU_EXPORT __attribute__((visibility("default")))
#else
#define MOFMU_EXPORT
#endif

/* ------------------------------------------------------------------------
 * Instance states and the allowed-state masks
 * ------------------------------------------------------------------------ */

enum {
    STATE_INSTANTIATED = 1u << 0,
    STATE_INITIALIZATION = 1u << 1,
    STATE_EVENT = 1u << 2,
    STATE_CONTINUOUS = 1u << 3,
    STATE_TERMINATED = 1u << 4,
    STATE_ERROR = 1u << 5,
    STATE_FATAL = 1u << 6,
    /* Co-Simulation states (FMI 2.0, section 4.2.4). fmi2DoStep runs
     * synchronously, so there is no stepInProgress. */
    STATE_STEP_COMPLETE = 1u << 7,
    STATE_STEP_FAILED = 1u << 8,
    STATE_STEP_CANCELED = 1u << 9
};

/* The interface a function belongs to, as bits of its mask: a Model
 * Exchange function is refused by a Co-Simulation instance and the other
 * way round, whatever the state. */
#define FOR_ME (1u << 30)
#define FOR_CS (1u << 31)
#define FOR_BOTH (FOR_ME | FOR_CS)

/* The masks follow the Model Exchange state table of FMI 2.0, with two
 * deliberate extensions: fmi2GetDerivatives and
 * fmi2GetNominalsOfContinuousStates are also accepted in initialization
 * mode. Both are queries without side effects that some importers make
 * there, and refusing them would break those importers for no safety
 * gain. */
#define ANY_BUT_FATAL                                                                          \
    (STATE_INSTANTIATED | STATE_INITIALIZATION | STATE_EVENT | STATE_CONTINUOUS |              \
     STATE_TERMINATED | STATE_ERROR | STATE_STEP_COMPLETE | STATE_STEP_FAILED |                \
     STATE_STEP_CANCELED)
/* The states an instance of each interface can be in. */
#define ME_STATES                                                                              \
    (STATE_INSTANTIATED | STATE_INITIALIZATION | STATE_EVENT | STATE_CONTINUOUS |              \
     STATE_TERMINATED | STATE_ERROR)
#define CS_STATES                                                                              \
    (STATE_INSTANTIATED | STATE_INITIALIZATION | STATE_STEP_COMPLETE | STATE_STEP_FAILED |     \
     STATE_STEP_CANCELED | STATE_TERMINATED | STATE_ERROR)
#define CS_AFTER_STEP (STATE_STEP_COMPLETE | STATE_STEP_FAILED | STATE_STEP_CANCELED)
#define MASK_SetDebugLogging (ANY_BUT_FATAL | FOR_BOTH)
#define MASK_SetupExperiment (STATE_INSTANTIATED | FOR_BOTH)
#define MASK_EnterInitializationMode (STATE_INSTANTIATED | FOR_BOTH)
#define MASK_ExitInitializationMode (STATE_INITIALIZATION | FOR_BOTH)
/* A second fmi2Terminate is answered with a warning, see fmi2Terminate. */
#define MASK_Terminate                                                                         \
    (STATE_EVENT | STATE_CONTINUOUS | CS_AFTER_STEP | STATE_TERMINATED | FOR_BOTH)
#define MASK_Reset (ANY_BUT_FATAL | FOR_BOTH)
#define ME_GET                                                                                 \
    (STATE_INITIALIZATION | STATE_EVENT | STATE_CONTINUOUS | STATE_TERMINATED | STATE_ERROR)
#define MASK_Get (ME_GET | CS_AFTER_STEP | FOR_BOTH)
#define MASK_SetReal                                                                           \
    (STATE_INSTANTIATED | STATE_INITIALIZATION | STATE_EVENT | STATE_CONTINUOUS |              \
     STATE_STEP_COMPLETE | FOR_BOTH)
#define MASK_SetDiscrete                                                                       \
    (STATE_INSTANTIATED | STATE_INITIALIZATION | STATE_EVENT | STATE_STEP_COMPLETE | FOR_BOTH)
#define MASK_FMUstate (ANY_BUT_FATAL | FOR_BOTH)
#define MASK_GetDirectionalDerivative MASK_Get
#define MASK_EnterEventMode (STATE_EVENT | STATE_CONTINUOUS | FOR_ME)
#define MASK_NewDiscreteStates (STATE_EVENT | FOR_ME)
#define MASK_EnterContinuousTimeMode (STATE_EVENT | FOR_ME)
#define MASK_CompletedIntegratorStep (STATE_CONTINUOUS | FOR_ME)
#define MASK_SetTime (STATE_EVENT | STATE_CONTINUOUS | FOR_ME)
#define MASK_SetContinuousStates (STATE_CONTINUOUS | FOR_ME)
#define MASK_GetEventIndicators (ME_GET | FOR_ME)
#define MASK_GetContinuousStates (ME_GET | FOR_ME)
#define MASK_GetDerivatives (ME_GET | FOR_ME)
#define MASK_GetNominalsOfContinuousStates (ME_GET | STATE_INSTANTIATED | FOR_ME)
/* Co-Simulation (FMI 2.0, table of section 4.2.4). fmi2CancelStep is only
 * allowed in stepInProgress, which a synchronous fmi2DoStep never enters. */
#define MASK_SetRealInputDerivatives                                                           \
    (STATE_INSTANTIATED | STATE_INITIALIZATION | STATE_STEP_COMPLETE | FOR_CS)
#define MASK_GetRealOutputDerivatives                                                          \
    (CS_AFTER_STEP | STATE_TERMINATED | STATE_ERROR | FOR_CS)
#define MASK_DoStep (STATE_STEP_COMPLETE | FOR_CS)
#define MASK_CancelStep FOR_CS
#define MASK_GetStatus (CS_AFTER_STEP | STATE_TERMINATED | FOR_CS)


/* ------------------------------------------------------------------------
 * Log categories
 * ------------------------------------------------------------------------ */

enum {
    LOG_EVENTS = 1u << 0,
    LOG_STATUS_WARNING = 1u << 1,
    LOG_STATUS_ERROR = 1u << 2,
    LOG_ALL = 1u << 3
};

/* The categories declared in modelDescription.xml, in this order. */
static const char *const log_category_names[] = {"logEvents", "logStatusWarning",
                                                 "logStatusError", "logAll"};
#define N_LOG_CATEGORIES (sizeof log_category_names / sizeof log_category_names[0])
#define ALL_LOG_CATEGORIES (LOG_EVENTS | LOG_STATUS_WARNING | LOG_STATUS_ERROR | LOG_ALL)

/* ------------------------------------------------------------------------
 * The instance
 * ------------------------------------------------------------------------ */

/* Tags that tell a live instance and a stored state of this model from any
 * other pointer an importer might pass by mistake. */
static const char instance_tag[] = "mofmu instance";
static const char fmu_state_tag[] = "mofmu FMU state";

/* What a Co-Simulation instance keeps between fmi2DoStep calls and what an
 * FMU state must hold of it (mofmu_cosim.inc). Zero in a Model Exchange
 * instance. */
typedef struct {
    /* The integrator's next step size, 0 when it must estimate one. Part of
     * the FMU state, so that restoring a state repeats a step bit for bit. */
    double next_step;
    /* Time the last fmi2DoStep reached (fmi2LastSuccessfulTime). */
    double last_successful_time;
    /* Status of the last fmi2DoStep (fmi2DoStepStatus). */
    int last_step_status;
    /* A `terminate` of the model fired (fmi2GetBooleanStatus's
     * fmi2Terminated): the last step ended at its event. */
    int terminated;
} CoSimulationState;

/* The tangent columns of the linear responses at the point R was last
 * evaluated at: column j is d(every real)/d(balance j), kept as its nonzero
 * entries, and A the tearing matrix they give. A directional derivative at
 * that point is then one tangent pass at zero balance tangents, a solve,
 * and the columns added in, where without them it takes two passes plus one
 * per balance. Every evaluation invalidates it; the first directional
 * derivative after it fills it (mofmu_directional). */
struct mofmu_lr_cache {
    int valid;
    double *A;        /* n_balances squared, row-major */
    size_t *start;    /* n_balances + 1: column j is entries start[j] .. start[j + 1] */
    uint32_t *at;     /* the real of each entry */
    double *value;    /* its tangent */
    size_t capacity;  /* entries at and value hold room for */
};

/* Entries [at, at + count) of a vector of value references (the states'
 * or the derivatives') refer to the reals R[first + k * stride]. */
typedef struct {
    size_t at, count, first;
    ptrdiff_t stride;
} mofmu_run;

/* The values of Instance.valid besides 0. */
enum { VALID = 1, VALID_ELSEWHERE = 2, VALID_LEAN = 3 };

typedef struct {
    const char *tag;
    /* The name reported to the logger; `name_storage` owns it once the
     * instance exists. */
    const char *instance_name;
    char *name_storage;
    fmi2CallbackLogger logger;
    fmi2ComponentEnvironment environment;
    unsigned log_categories; /* LOG_* bits switched on */

    unsigned state; /* one STATE_* bit */
    fmi2Type type;  /* the interface this instance was made for */
    double time;
    double start_time;

    /* The model's tables and schedule, read from the resources at
     * instantiation (owned by the instance). */
    mofmu_system *sys;
    double *R;                   /* sys->n_reals values */
    unsigned char *relations;    /* sys->n_relations frozen relations */
    unsigned char *relations_before; /* scratch for fmi2NewDiscreteStates */
    double *indicators;          /* sys->n_event_indicators values */
    double *scratch;             /* sys->scratch_size values for linear responses */
    double *dR;                  /* sys->n_reals tangents for directional derivatives */
    struct mofmu_lr_cache lr;    /* linear responses' columns (n_balances > 0) */

    /* Calculated parameters and calculated state starts are stale. */
    int parameters_dirty;
    /* VALID: R (outputs, locals, derivatives) and `indicators` are up to
     * date with time, states, inputs and parameters. VALID_ELSEWHERE: the
     * latest evaluation, at those same values, wrote the derivatives into
     * the importer's array and not into R (derivatives_into). VALID_LEAN:
     * the latest evaluation, at those same values, was lean
     * (mofmu_ctx.lean): the derivatives, outputs, residuals and `indicators`
     * are up to date, other locals of R may not be, so only
     * fmi2GetDerivatives and fmi2GetEventIndicators take them as they are.
     * 0: none of these. Whatever changes a value sets it to 0. */
    int valid;
    /* Set while fmi2GetDerivatives or fmi2GetEventIndicators evaluates:
     * the evaluation may be lean. `evaluated_lean`: whether the latest
     * evaluation was. */
    int lean_wanted;
    int evaluated_lean;
    /* The latest time event found while evaluating in event mode. */
    double next_time_event;
    /* The latest evaluation in continuous time found a relation whose
     * operands have left its frozen value without a change of sign of its
     * indicator that an importer could see: fmi2CompletedIntegratorStep
     * asks for a step event (and the Co-Simulation solver makes one). */
    int relation_disagrees;
    /* Rounds of the current event iteration that changed something
     * (fmi2NewDiscreteStates): at MOFMU_MAX_EVENT_ROUNDS it stops with an
     * error naming what still changes. */
    int event_rounds;

    /* Relative tolerance from fmi2SetupExperiment (Co-Simulation). */
    double tolerance;
    /* Co-Simulation: the state kept between steps, the first derivatives
     * of the inputs (one per Real input in value-reference order, set by
     * fmi2SetRealInputDerivatives) and the integrator's work arrays. */
    CoSimulationState cs;
    double *input_derivative;
    struct CoSimWork *work;

    /* Where the states and the derivatives start in R when their value
     * references are consecutive (one array, as in a rod), else -1: then
     * they are copied as one block instead of element by element. */
    long states_at;
    long derivatives_at;
    /* fmi2GetDerivatives may evaluate the derivatives straight into the
     * importer's array (no copy out of R) when they lie in R at
     * direct_first + k * direct_stride (consecutive, or a constant stride
     * apart) and nothing but the kernels reads them (see
     * derivatives_direct). While it does, `evaluate_into` is that array. */
    size_t direct_first, direct_stride;
    int derivatives_direct;
    double *evaluate_into;
    /* When they are not consecutive: the reference vectors split into
     * runs of one stride each (an array of components gives one run, a
     * few scalar states beside it one each), copied by one strided loop
     * per run instead of through the reference tables. */
    mofmu_run *state_runs, *derivative_runs;
    size_t n_state_runs, n_derivative_runs;
    /* The outputs lie in R[outputs_from, outputs_to): the finiteness check
     * after an evaluation looks only there for them. */
    size_t outputs_from, outputs_to;
    /* The tangent pass writes the tangent of every derivative, output and
     * local before it reads it; only the other entries of dR (time,
     * parameters, states, inputs) are read as they stand and must be zero
     * where no seed is given. They lie in the `n_zero_ranges` half-open
     * ranges [zero_ranges[2k], zero_ranges[2k+1]). */
    size_t *zero_ranges;
    size_t n_zero_ranges;

    /* The finiteness checks after an evaluation in continuous-time mode,
     * made O(1) (see run_evaluation): `inputs_finite` says that every
     * real an evaluation reads without computing it (parameters, discrete
     * values, inputs, states) is known to be finite. States, time and inputs
     * are checked as they are set; everything else can change only outside
     * continuous-time mode or through fmi2SetFMUstate, so the knowledge
     * is dropped there and found again by one scan of R, at the second
     * evaluation of the next continuous-time phase (`phase_evaluations`
     * counts them). `evaluation_finite`: the latest evaluation had finite
     * inputs and raised no floating-point exception, so everything it
     * computed is finite. */
    int inputs_finite;
    unsigned phase_evaluations;
    int evaluation_finite;
} Instance;

/* A stored copy of an instance's state (fmi2GetFMUstate). */
typedef struct {
    const char *tag;
    unsigned state;
    int parameters_dirty;
    double time;
    double start_time;
    double next_time_event;
    double *R;
    unsigned char *relations;
    fmi2Type type;
    double tolerance;
    CoSimulationState cs;
    double *input_derivative;
} StoredState;

/* Provided by mofmu_locations.inc. */
struct mofmu_locations;
static void free_locations(struct mofmu_locations *loc);

/* The most rounds of an event iteration at one instant (DESIGN §2.2c: the
 * iteration is bounded, a model whose events never settle gets an error). */
#define MOFMU_MAX_EVENT_ROUNDS 100

/* Provided by mofmu_events.inc. */
static int move_event_values(Instance *inst, mofmu_ctx *ctx);

/* Provided by mofmu_cosim.inc. */
static size_t cs_n_inputs(const mofmu_system *sys);
static void cs_describe_solver(const Instance *inst);
static int cs_allocate(Instance *inst);
static void cs_free(Instance *inst);
static void cs_reset(Instance *inst);
static fmi2Status cs_exit_initialization(Instance *inst);

#endif /* MOFMU_RUNTIME_H */
