/* The static FMI 2.0 Model Exchange runtime of every mofmu FMU.
 *
 * This file knows nothing about a particular model: it reaches the model
 * only through the tables and the two functions of mofmu_model.h, which the
 * generated system file provides. It implements every FMI 2.0 entry point,
 * guards each one by the interface (Model Exchange or Co-Simulation) and the
 * set of states in which the standard allows it, evaluates the model
 * lazily, and stores everything in the instance: there is no global mutable
 * state, so any number of instances may run in any threads. The
 * Co-Simulation part (fmi2DoStep and its embedded integrator) lives in
 * mofmu_cosim.h, which is included at the end of this file.
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
#include <fenv.h>
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

static const char *state_name(unsigned state)
{
    switch (state) {
    case STATE_INSTANTIATED: return "instantiated";
    case STATE_INITIALIZATION: return "initializationMode";
    case STATE_EVENT: return "eventMode";
    case STATE_CONTINUOUS: return "continuousTimeMode";
    case STATE_TERMINATED: return "terminated";
    case STATE_ERROR: return "error";
    case STATE_FATAL: return "fatal";
    case STATE_STEP_COMPLETE: return "stepComplete";
    case STATE_STEP_FAILED: return "stepFailed";
    case STATE_STEP_CANCELED: return "stepCanceled";
    default: return "unknown";
    }
}

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
 * FMU state must hold of it (mofmu_cosim.h). Zero in a Model Exchange
 * instance. */
typedef struct {
    /* The integrator's next step size, 0 when it must estimate one. Part of
     * the FMU state, so that restoring a state repeats a step bit for bit. */
    double next_step;
    /* Time the last fmi2DoStep reached (fmi2LastSuccessfulTime). */
    double last_successful_time;
    /* Status of the last fmi2DoStep (fmi2DoStepStatus). */
    int last_step_status;
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
    /* R (outputs, locals, derivatives) and `indicators` are up to date with
     * time, states, inputs and parameters. */
    int valid;
    /* The latest time event found while evaluating in event mode. */
    double next_time_event;

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
    /* When they are not consecutive but lie a constant stride apart (an
     * array of components: one state per element), the first and the
     * stride (else 0): they are copied by one strided loop instead of
     * through the reference tables. */
    size_t states_first, states_stride;
    size_t derivatives_first, derivatives_stride;
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

/* Provided by mofmu_cosim.h. */
static size_t cs_n_inputs(const mofmu_system *sys);
static void cs_describe_solver(const Instance *inst);
static int cs_allocate(Instance *inst);
static void cs_free(Instance *inst);
static void cs_reset(Instance *inst);
static fmi2Status cs_exit_initialization(Instance *inst);

/* ------------------------------------------------------------------------
 * Logging
 * ------------------------------------------------------------------------ */

static unsigned category_bit(const char *category)
{
    size_t i;
    for (i = 0; i < N_LOG_CATEGORIES; i++) {
        if (strcmp(category, log_category_names[i]) == 0) {
            return 1u << i;
        }
    }
    return 0;
}

static const char *category_name(unsigned bit)
{
    size_t i;
    for (i = 0; i < N_LOG_CATEGORIES; i++) {
        if (bit == 1u << i) {
            return log_category_names[i];
        }
    }
    return "logAll";
}

/* Formats a message and hands it to the importer's logger, when the
 * category is switched on. Errors are always reported. The formatted text
 * is passed as an argument of a constant "%s" format, so nothing a user
 * controls (instance or variable names) is ever read as a format. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static void
log_message(const Instance *inst, fmi2Status status, unsigned category, const char *format, ...)
{
    char text[1024];
    va_list args;
    int wanted;
    if (inst == NULL || inst->logger == NULL) {
        return;
    }
    wanted = status == fmi2Error || status == fmi2Fatal ||
             (inst->log_categories & (category | LOG_ALL)) != 0;
    if (!wanted) {
        return;
    }
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    inst->logger(inst->environment, inst->instance_name, status, category_name(category), "%s",
                 text);
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static fmi2Status
log_error(const Instance *inst, const char *format, ...)
{
    char text[1024];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    log_message(inst, fmi2Error, LOG_STATUS_ERROR, "%s", text);
    return fmi2Error;
}

/* ------------------------------------------------------------------------
 * Argument checks shared by the entry points
 * ------------------------------------------------------------------------ */

/* Returns the instance behind `c`, or NULL when `c` is not one (nothing
 * can be logged then: the logger lives in the instance). */
static Instance *as_instance(fmi2Component c)
{
    Instance *inst = (Instance *)c;
    if (inst == NULL || inst->tag != instance_tag) {
        return NULL;
    }
    return inst;
}

static int not_allowed(const Instance *inst, const char *function, unsigned mask)
{
    unsigned interface_bit = inst->type == fmi2CoSimulation ? FOR_CS : FOR_ME;
    if ((mask & interface_bit) == 0) {
        log_error(inst, "%s: not available in a %s instance", function,
                  inst->type == fmi2CoSimulation ? "Co-Simulation" : "Model Exchange");
        return 1;
    }
    if ((inst->state & mask) != 0) {
        return 0;
    }
    log_error(inst, "%s: not allowed in state %s", function, state_name(inst->state));
    return 1;
}

static int null_array(const Instance *inst, const char *function, const char *argument,
                      const void *pointer, size_t n)
{
    if (n == 0 || pointer != NULL) {
        return 0;
    }
    log_error(inst, "%s: argument %s is NULL", function, argument);
    return 1;
}

static int null_pointer(const Instance *inst, const char *function, const char *argument,
                        const void *pointer)
{
    return null_array(inst, function, argument, pointer, 1);
}

static int wrong_size(const Instance *inst, const char *function, const char *argument,
                      size_t given, size_t expected)
{
    if (given == expected) {
        return 0;
    }
    log_error(inst, "%s: argument %s = %lu, but the model has %lu", function, argument,
              (unsigned long)given, (unsigned long)expected);
    return 1;
}

static int bad_vrs(const Instance *inst, const char *function, const char *type,
                   const fmi2ValueReference vr[], size_t nvr, size_t count)
{
    size_t i;
    for (i = 0; i < nvr; i++) {
        if ((size_t)vr[i] >= count) {
            log_error(inst, "%s: value reference %u is not a %s variable of this model",
                      function, vr[i], type);
            return 1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * The system resource: resources/mofmu_system.bin (layout in docs/fmu.md)
 *
 * Everything about the model that grows with it is data, so that this
 * library is the same for every array size and parameter value. The file is
 * read whole, its checksum verified, every count and index checked against
 * the file's length and the tables it indexes, and its classes compared
 * with the ones compiled into this library, before anything is used.
 * ------------------------------------------------------------------------ */

static const char system_magic[8] = {'M', 'O', 'F', 'M', 'U', 'S', 'Y', 'S'};
#define SYSTEM_VERSION 6u
/* An Integer or Boolean that is a parameter, not a discrete variable in R. */
#define MOFMU_NOT_IN_R 0xFFFFFFFFu
#define SYSTEM_FILE "mofmu_system.bin"

static uint32_t get_u32(const unsigned char **p)
{
    uint32_t v = 0;
    int i;
    for (i = 0; i < 4; i++) {
        v |= (uint32_t)(*(*p)++) << (8 * i);
    }
    return v;
}

static uint64_t get_u64(const unsigned char **p)
{
    uint64_t v = 0;
    int i;
    for (i = 0; i < 8; i++) {
        v |= (uint64_t)(*(*p)++) << (8 * i);
    }
    return v;
}

static double get_f64(const unsigned char **p)
{
    uint64_t bits = get_u64(p);
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* calloc that never asks for zero bytes, so NULL always means failure. */
static void *allocate(size_t count, size_t size)
{
    return calloc(count > 0 ? count : 1, size);
}

static const char *real_name(const mofmu_system *sys, size_t i)
{
    return sys->names + sys->real_name_at[i];
}

/* A bounded cursor over the file: a read past the end sets `bad` and reads
 * zeros, so the parser checks once per table instead of once per number. */
typedef struct {
    const unsigned char *p;
    size_t left;
    int bad;
    /* The string pool being filled and its capacity. */
    char *pool;
    size_t pool_used, pool_size;
} Reader;

static const unsigned char *take(Reader *r, size_t n)
{
    static const unsigned char zeros[8] = {0};
    const unsigned char *at = r->p;
    if (r->bad || n > r->left) {
        r->bad = 1;
        return zeros;
    }
    r->p += n;
    r->left -= n;
    return at;
}

static uint32_t read_u32(Reader *r)
{
    const unsigned char *b = take(r, 4);
    return get_u32(&b);
}

static int32_t read_i32(Reader *r)
{
    uint32_t u = read_u32(r);
    int32_t v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static int64_t read_i64(Reader *r)
{
    const unsigned char *b = take(r, 8);
    uint64_t u = get_u64(&b);
    int64_t v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static double read_f64(Reader *r)
{
    const unsigned char *b = take(r, 8);
    return get_f64(&b);
}

/* Copies a length-prefixed string into the pool; returns its offset there. */
static uint32_t read_str(Reader *r)
{
    uint32_t n = read_u32(r);
    const unsigned char *b;
    size_t at = r->pool_used;
    if (r->bad || n > r->left || (size_t)n + 1 > r->pool_size - r->pool_used ||
        at > UINT32_MAX) {
        r->bad = 1;
        return 0;
    }
    b = take(r, n);
    memcpy(r->pool + at, b, n);
    r->pool[at + n] = '\0';
    r->pool_used += (size_t)n + 1;
    return (uint32_t)at;
}

/* Whether `count` items of at least `size` bytes each can still follow: a
 * count beyond that is corrupt, and must not become an allocation. */
static int fits(Reader *r, size_t count, size_t size)
{
    if (r->bad || (size > 0 && count > r->left / size)) {
        r->bad = 1;
        return 0;
    }
    return 1;
}

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

void mofmu_system_free(mofmu_system *sys)
{
    if (sys == NULL) {
        return;
    }
    free(sys->guid);
    free(sys->real_start);
    free(sys->real_kind);
    free(sys->names);
    free(sys->real_name_at);
    free(sys->integer_value);
    free(sys->boolean_value);
    free(sys->integer_real);
    free(sys->boolean_real);
    free(sys->state_vr);
    free(sys->derivative_vr);
    free(sys->jac_row_start);
    free(sys->jac_col);
    free(sys->jac_full_row);
    free(sys->instances);
    free(sys->instance_class);
    free(sys->off_pool);
    free(sys->ints_pool);
    free(sys->own_pool);
    free(sys->steps);
    free(sys->source_offset);
    free(sys->source_negative);
    free(sys->source_stride);
    free(sys->fuse_skew);
    free(sys->balance_vr);
    free(sys->residual_vr);
    free(sys->balance_name_at);
    free(sys);
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The path of the system file under `location`: a file: URI (file:///dir,
 * file://localhost/dir, file:/dir, percent-escapes decoded) or, as some
 * importers pass, a plain directory. NULL with a message on failure. */
static char *system_file_path(const char *location, char *error, size_t error_size)
{
    const char *p = location;
    size_t n, used = 0;
    char *path;
    if (location == NULL || location[0] == '\0') {
        snprintf(error, error_size, "no resource location was given; the FMU's "
                                    "resources/" SYSTEM_FILE " holds the model");
        return NULL;
    }
    if (strncmp(p, "file://", 7) == 0) {
        p += 7;
        if (strncmp(p, "localhost/", 10) == 0) {
            p += 9;
        } else if (*p != '/') {
            snprintf(error, error_size, "resource location \"%s\" names a remote host",
                     location);
            return NULL;
        }
    } else if (strncmp(p, "file:", 5) == 0) {
        p += 5;
    }
#ifdef _WIN32
    /* file:///C:/dir is the drive path C:/dir. */
    if (p[0] == '/' && p[1] != '\0' && p[2] == ':') {
        p++;
    }
#endif
    n = strlen(p);
    path = (char *)allocate(n + sizeof "/" SYSTEM_FILE, 1);
    if (path == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    while (*p != '\0') {
        if (p[0] == '%') {
            int hi = hex_digit(p[1]), lo = hi < 0 ? -1 : hex_digit(p[2]);
            if (hi < 0 || lo < 0) {
                snprintf(error, error_size,
                         "resource location \"%s\" has a malformed percent-escape", location);
                free(path);
                return NULL;
            }
            path[used++] = (char)(hi * 16 + lo);
            p += 3;
        } else {
            path[used++] = *p++;
        }
    }
    if (used == 0 || path[used - 1] != '/') {
        path[used++] = '/';
    }
    memcpy(path + used, SYSTEM_FILE, sizeof SYSTEM_FILE);
    return path;
}

/* The file's bytes, or NULL with a message. */
static unsigned char *read_whole_file(const char *path, size_t *size, char *error,
                                      size_t error_size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *bytes = NULL;
    size_t capacity = 0, used = 0;
    if (f == NULL) {
        snprintf(error, error_size, "cannot open %s", path);
        return NULL;
    }
    for (;;) {
        size_t got;
        if (used == capacity) {
            size_t grown = capacity == 0 ? 65536 : capacity * 2;
            unsigned char *more = (unsigned char *)realloc(bytes, grown);
            if (more == NULL || grown < capacity) {
                free(more == NULL ? bytes : more);
                fclose(f);
                snprintf(error, error_size, "out of memory reading %s", path);
                return NULL;
            }
            bytes = more;
            capacity = grown;
        }
        got = fread(bytes + used, 1, capacity - used, f);
        used += got;
        if (got == 0) {
            break;
        }
    }
    if (ferror(f)) {
        free(bytes);
        fclose(f);
        snprintf(error, error_size, "cannot read %s", path);
        return NULL;
    }
    fclose(f);
    *size = used;
    return bytes;
}

/* Parses the checked bytes into `sys`. Returns a message, or NULL. */
/* The state Jacobian's pattern: per state a u32 count (0xFFFFFFFF: the row
 * depends on every state) and that many ascending state indices. A first
 * pass over a copy of the cursor counts the entries before anything is
 * allocated. */
static const char *parse_jacobian_pattern(mofmu_system *sys, Reader *r)
{
    Reader probe = *r;
    size_t i, k, n = sys->n_states, nnz = 0;
    for (i = 0; i < n; i++) {
        uint32_t count = read_u32(&probe);
        if (count == UINT32_MAX) {
            continue;
        }
        if (!fits(&probe, count, 4)) {
            return "its Jacobian pattern exceeds its length";
        }
        take(&probe, (size_t)count * 4);
        nnz += count;
    }
    if (probe.bad) {
        return "it ends inside the Jacobian pattern";
    }
    sys->jac_row_start = (size_t *)allocate(n + 1, sizeof(size_t));
    sys->jac_col = (uint32_t *)allocate(nnz, sizeof(uint32_t));
    sys->jac_full_row = (unsigned char *)allocate(n, 1);
    if (sys->jac_row_start == NULL || sys->jac_col == NULL || sys->jac_full_row == NULL) {
        return "out of memory";
    }
    for (i = 0, k = 0; i < n; i++) {
        uint32_t count = read_u32(r), c;
        sys->jac_row_start[i] = k;
        if (count == UINT32_MAX) {
            sys->jac_full_row[i] = 1;
            continue;
        }
        for (c = 0; c < count; c++, k++) {
            sys->jac_col[k] = read_u32(r);
            if (sys->jac_col[k] >= n || (c > 0 && sys->jac_col[k] <= sys->jac_col[k - 1])) {
                return "its Jacobian pattern names a state that does not exist or twice";
            }
        }
    }
    sys->jac_row_start[n] = k;
    return r->bad ? "it ends inside the Jacobian pattern" : NULL;
}

/* Whether `base + r * stride` lies in [0, limit - len] for every round r
 * below `count` (it is linear in r, so the first and last round tell). */
static int strided_within(uint32_t base, int32_t stride, uint32_t count, size_t len,
                          size_t limit)
{
    int64_t last = (int64_t)base + (int64_t)stride * ((int64_t)count - 1);
    return (size_t)base + len <= limit && last >= 0 && (size_t)last + len <= limit;
}

/* One block or copy of the schedule, in a repeat of `count` rounds (1
 * outside a repeat). */
static const char *parse_step(mofmu_system *sys, Reader *r, mofmu_step *st, uint32_t count,
                              size_t *n_sources_total)
{
    size_t j;
    if (st->tag == MOFMU_STEP_BLOCK) {
        const mofmu_class *k;
        uint32_t c;
        st->instance = read_u32(r);
        st->stride = read_i32(r);
        st->block = read_u32(r);
        if (r->bad || !strided_within(st->instance, st->stride, count, 1, sys->n_instances)) {
            return "the schedule names an unknown instance";
        }
        k = &mofmu_classes[sys->instance_class[st->instance]];
        if (st->block >= k->n_blocks) {
            return "the schedule names an unknown block";
        }
        /* Every round's instance must have the class whose block runs. */
        for (c = 1; c < count; c++) {
            if (sys->instance_class[st->instance + (int64_t)st->stride * c] !=
                sys->instance_class[st->instance]) {
                return "a repeat of the schedule mixes classes";
            }
        }
        st->fn = k->blocks[st->block];
        st->tangent = k->tangents[st->block];
        st->inst = &sys->instances[st->instance];
        return NULL;
    }
    st->target = read_u32(r);
    st->stride = read_i32(r);
    st->len = read_u32(r);
    st->coefficient = read_f64(r);
    st->n_sources = read_u32(r);
    st->first_source = (uint32_t)*n_sources_total;
    if (r->bad || !strided_within(st->target, st->stride, count, st->len, sys->n_reals)) {
        return "the schedule writes outside the variables";
    }
    for (j = 0; j < st->n_sources; j++) {
        uint32_t o = read_u32(r);
        int32_t stride = read_i32(r);
        if (r->bad || !strided_within(o, stride, count, st->len, sys->n_reals)) {
            return "the schedule reads outside the variables";
        }
        sys->source_offset[*n_sources_total] = o;
        sys->source_stride[*n_sources_total] = stride;
        sys->source_negative[*n_sources_total] = *take(r, 1) != 0;
        (*n_sources_total)++;
    }
    return NULL;
}

/* The schedule's steps (their number and sources were counted before). A
 * repeat's body holds blocks and copies only; outside a repeat, strides
 * are 0. */
static const char *parse_schedule(mofmu_system *sys, Reader *r)
{
    size_t i, k, n_sources_total = 0, n_skews_total = 0, body_left = 0;
    uint32_t count = 1;
    for (i = 0; i < sys->n_steps; i++) {
        mofmu_step *st = &sys->steps[i];
        const char *problem;
        st->tag = *take(r, 1);
        if (body_left == 0) {
            count = 1;
        }
        if (st->tag == MOFMU_STEP_FUSE) {
            if (body_left > 0) {
                return "a repeat of the schedule holds a fused loop";
            }
            st->count = read_u32(r);
            st->first_source = (uint32_t)n_skews_total;
            for (k = 0; k < st->count; k++) {
                sys->fuse_skew[n_skews_total++] = read_u32(r);
            }
            if (r->bad) {
                return "it ends inside the schedule";
            }
            continue;
        }
        if (st->tag == MOFMU_STEP_TIME || st->tag == MOFMU_STEP_REPEAT) {
            if (body_left > 0) {
                return "a repeat of the schedule holds a time or repeat step";
            }
            if (st->tag == MOFMU_STEP_TIME) {
                st->target = read_u32(r);
                if (st->target >= sys->n_reals) {
                    return "the schedule writes outside the variables";
                }
                continue;
            }
            st->count = read_u32(r);
            st->body = read_u32(r);
            if (st->count == 0 || st->body == 0 || st->body > sys->n_steps - i - 1) {
                return "a repeat of the schedule has no rounds or runs past its end";
            }
            count = st->count;
            body_left = st->body;
            continue;
        }
        problem = parse_step(sys, r, st, count, &n_sources_total);
        if (problem != NULL) {
            return problem;
        }
        if (body_left > 0) {
            body_left--;
            continue;
        }
        if (st->stride != 0) {
            return "a step outside a repeat has a stride";
        }
        for (k = 0; st->tag == MOFMU_STEP_COPY && k < st->n_sources; k++) {
            if (sys->source_stride[st->first_source + k] != 0) {
                return "a step outside a repeat has a stride";
            }
        }
    }
    return NULL;
}

/* The extent of every fused loop of the schedule: the steps its units span
 * (st->body) and its number of rounds (st->len), the largest of a unit's
 * rounds plus its skew. Its units must be repeats, blocks and copies, and
 * lie inside the schedule. */
static const char *plan_fused_loops(mofmu_system *sys)
{
    size_t i, j, u;
    for (i = 0; i < sys->n_steps; i++) {
        mofmu_step *fuse = &sys->steps[i];
        uint64_t rounds = 0;
        if (fuse->tag != MOFMU_STEP_FUSE) {
            continue;
        }
        if (fuse->count == 0) {
            return "a fused loop of the schedule has no units";
        }
        for (u = 0, j = i + 1; u < fuse->count; u++) {
            const mofmu_step *st;
            uint64_t count = 1;
            if (j >= sys->n_steps) {
                return "a fused loop of the schedule runs past its end";
            }
            st = &sys->steps[j];
            if (st->tag == MOFMU_STEP_TIME || st->tag == MOFMU_STEP_FUSE) {
                return "a fused loop of the schedule holds a time step or a fused loop";
            }
            if (st->tag == MOFMU_STEP_REPEAT) {
                count = st->count;
                j += st->body;
            }
            j++;
            if (count + sys->fuse_skew[fuse->first_source + u] > rounds) {
                rounds = count + sys->fuse_skew[fuse->first_source + u];
            }
        }
        if (rounds >= UINT32_MAX) {
            return "a fused loop of the schedule has too many rounds";
        }
        fuse->body = (uint32_t)(j - i - 1);
        fuse->len = (uint32_t)rounds;
        i = j - 1;
    }
    return NULL;
}

/* Whether the `count` instances of a block alone in a repeat lie in R as
 * the first one shifted by a constant stride (every slot offset advancing
 * by the same number of reals per round) with the same Integer parameters:
 * then the kernel's batched entry runs the repeat (st->fn_n). */
static void plan_batched_block(const mofmu_system *sys, mofmu_step *st, uint32_t count)
{
    const mofmu_class *k = &mofmu_classes[sys->instance_class[st->instance]];
    const mofmu_inst *first = st->inst;
    int64_t d = 0;
    uint32_t c;
    size_t j;
    if (k->blocks_n == NULL || k->tangents_n == NULL || count < 2) {
        return;
    }
    if (k->n_slots > 0) {
        d = (int64_t)first[st->stride].off[0] - first->off[0];
    }
    for (c = 1; c < count; c++) {
        const mofmu_inst *in = first + (int64_t)st->stride * c;
        for (j = 0; j < k->n_slots; j++) {
            if ((int64_t)in->off[j] != (int64_t)first->off[j] + d * c) {
                return;
            }
        }
        for (j = 0; j < k->n_ints; j++) {
            if (in->ints[j] != first->ints[j]) {
                return;
            }
        }
    }
    st->fn_n = k->blocks_n[st->block];
    st->tangent_n = k->tangents_n[st->block];
    st->real_stride = (ptrdiff_t)d;
}

/* Whether the progressions a + r*s and b + q*t (r, q below `count`) meet;
 * with different strides, whether their ranges overlap (conservative). */
static int progressions_meet(int64_t a, int64_t s, int64_t b, int64_t t, uint32_t count)
{
    int64_t a_lo, a_hi, b_lo, b_hi, span = (int64_t)count - 1;
    if (s == t) {
        if (s == 0) {
            return a == b;
        }
        return (b - a) % s == 0 && (b - a) / s <= span && (a - b) / s <= span;
    }
    a_lo = s < 0 ? a + s * span : a;
    a_hi = s < 0 ? a : a + s * span;
    b_lo = t < 0 ? b + t * span : b;
    b_hi = t < 0 ? b : b + t * span;
    return a_lo <= b_hi && b_lo <= a_hi;
}

/* Whether a repeat's body of scalar copies may run step by step, each
 * over every round: no step writes what another step reads or writes, in
 * any round, so the order of the rounds' steps cannot matter. */
static int copies_commute(const mofmu_system *sys, const mofmu_step *body, uint32_t n,
                          uint32_t count)
{
    uint32_t a, b, k;
    for (a = 0; a < n; a++) {
        if (body[a].tag != MOFMU_STEP_COPY || body[a].len != 1) {
            return 0;
        }
    }
    for (a = 0; a < n; a++) {
        for (b = 0; b < n; b++) {
            const mofmu_step *w = &body[a], *o = &body[b];
            if (a == b) {
                continue;
            }
            if (progressions_meet(w->target, w->stride, o->target, o->stride, count)) {
                return 0;
            }
            for (k = 0; k < o->n_sources; k++) {
                if (progressions_meet(w->target, w->stride,
                                      sys->source_offset[o->first_source + k],
                                      sys->source_stride[o->first_source + k], count)) {
                    return 0;
                }
            }
        }
    }
    return 1;
}

/* How each repeat runs: a block alone through its kernel's batched entry,
 * a body of commuting copies step by step (see run_repeat). */
static void plan_repeats(mofmu_system *sys)
{
    size_t i;
    for (i = 0; i < sys->n_steps; i++) {
        mofmu_step *rep = &sys->steps[i];
        if (rep->tag != MOFMU_STEP_REPEAT) {
            continue;
        }
        if (rep->body == 1 && rep[1].tag == MOFMU_STEP_BLOCK) {
            plan_batched_block(sys, &rep[1], rep->count);
        } else {
            rep->by_step = copies_commute(sys, rep + 1, rep->body, rep->count);
        }
        i += rep->body;
    }
}

static const char *parse_system(mofmu_system *sys, Reader *r)
{
    size_t i, j, n_classes, n_sources_total = 0, n_skews_total = 0, n_off = 0, n_ints = 0,
           n_own = 0, nb;
    uint32_t at;
    const unsigned char *magic = take(r, sizeof system_magic);
    const unsigned char *after_counts;
    size_t left_after_counts;
    if (r->bad || memcmp(magic, system_magic, sizeof system_magic) != 0) {
        return "it is not a mofmu system resource";
    }
    if (read_u32(r) != SYSTEM_VERSION) {
        return "it was written by another version of mofmu";
    }
    at = read_str(r);
    sys->guid = (char *)allocate(strlen(r->pool + at) + 1, 1);
    if (sys->guid == NULL) {
        return "out of memory";
    }
    strcpy(sys->guid, r->pool + at);
    r->pool_used = 0;
    at = read_str(r);
    if (r->bad || strcmp(r->pool + at, mofmu_model_identifier) != 0) {
        return "it belongs to another model";
    }
    r->pool_used = 0;
    n_classes = read_u32(r);
    if (n_classes != mofmu_n_classes) {
        return "its classes differ from the ones compiled into this binary";
    }
    for (i = 0; i < n_classes; i++) {
        const mofmu_class *c = &mofmu_classes[i];
        at = read_str(r);
        if (r->bad || strcmp(r->pool + at, c->name) != 0 || read_u32(r) != c->n_blocks ||
            read_u32(r) != c->n_slots || read_u32(r) != c->n_ints ||
            read_u32(r) != c->n_own) {
            return "its classes differ from the ones compiled into this binary";
        }
        r->pool_used = 0;
    }
    sys->n_reals = read_u32(r);
    sys->n_integers = read_u32(r);
    sys->n_booleans = read_u32(r);
    sys->n_states = read_u32(r);
    sys->n_event_indicators = read_u32(r);
    sys->n_relations = read_u32(r);
    sys->n_instances = read_u32(r);
    sys->n_steps = read_u32(r);
    sys->n_balances = nb = read_u32(r);
    /* Every real takes 13 bytes at least, every instance 16, every step 5,
     * every balance 12: larger counts are corrupt. */
    if (!fits(r, sys->n_reals, 13) || !fits(r, sys->n_integers, 12) ||
        !fits(r, sys->n_booleans, 5) || !fits(r, sys->n_states, 8) ||
        !fits(r, sys->n_instances, 16) || !fits(r, sys->n_steps, 5) || !fits(r, nb, 12)) {
        return "its counts exceed its length";
    }
    /* The names fill the pool from its start (the header's strings were
     * only compared or copied). */
    r->pool_used = 0;
    sys->real_start = (double *)allocate(sys->n_reals, sizeof(double));
    sys->real_kind = (unsigned char *)allocate(sys->n_reals, 1);
    sys->real_name_at = (uint32_t *)allocate(sys->n_reals, sizeof(uint32_t));
    sys->integer_value = (int64_t *)allocate(sys->n_integers, sizeof(int64_t));
    sys->boolean_value = (unsigned char *)allocate(sys->n_booleans, 1);
    sys->integer_real = (uint32_t *)allocate(sys->n_integers, sizeof(uint32_t));
    sys->boolean_real = (uint32_t *)allocate(sys->n_booleans, sizeof(uint32_t));
    sys->state_vr = (uint32_t *)allocate(sys->n_states, sizeof(uint32_t));
    sys->derivative_vr = (uint32_t *)allocate(sys->n_states, sizeof(uint32_t));
    sys->instances = (mofmu_inst *)allocate(sys->n_instances, sizeof(mofmu_inst));
    sys->instance_class = (uint32_t *)allocate(sys->n_instances, sizeof(uint32_t));
    sys->steps = (mofmu_step *)allocate(sys->n_steps, sizeof(mofmu_step));
    sys->balance_vr = (uint32_t *)allocate(nb, sizeof(uint32_t));
    sys->residual_vr = (uint32_t *)allocate(nb, sizeof(uint32_t));
    sys->balance_name_at = (uint32_t *)allocate(nb, sizeof(uint32_t));
    if (sys->real_start == NULL || sys->real_kind == NULL ||
        sys->real_name_at == NULL || sys->integer_value == NULL ||
        sys->boolean_value == NULL || sys->integer_real == NULL ||
        sys->boolean_real == NULL || sys->state_vr == NULL || sys->derivative_vr == NULL ||
        sys->instances == NULL || sys->instance_class == NULL || sys->steps == NULL ||
        sys->balance_vr == NULL || sys->residual_vr == NULL || sys->balance_name_at == NULL) {
        return "out of memory";
    }
    for (i = 0; i < sys->n_reals; i++) {
        sys->real_start[i] = read_f64(r);
    }
    for (i = 0; i < sys->n_reals; i++) {
        sys->real_kind[i] = *take(r, 1);
        if (sys->real_kind[i] > MOFMU_KIND_TIME) {
            return "a variable has an unknown kind";
        }
    }
    for (i = 0; i < sys->n_reals; i++) {
        sys->real_name_at[i] = read_str(r);
    }
    for (i = 0; i < sys->n_integers; i++) {
        sys->integer_value[i] = read_i64(r);
    }
    for (i = 0; i < sys->n_booleans; i++) {
        sys->boolean_value[i] = *take(r, 1) != 0;
    }
    for (i = 0; i < sys->n_integers; i++) {
        sys->integer_real[i] = read_u32(r);
    }
    for (i = 0; i < sys->n_booleans; i++) {
        sys->boolean_real[i] = read_u32(r);
    }
    for (i = 0; i < sys->n_states; i++) {
        sys->state_vr[i] = read_u32(r);
    }
    for (i = 0; i < sys->n_states; i++) {
        sys->derivative_vr[i] = read_u32(r);
    }
    if (r->bad) {
        return "it ends inside the variables";
    }
    for (i = 0; i < sys->n_states; i++) {
        uint32_t s = sys->state_vr[i], d = sys->derivative_vr[i];
        if (s >= sys->n_reals || d >= sys->n_reals ||
            (sys->real_kind[s] != MOFMU_KIND_STATE &&
             sys->real_kind[s] != MOFMU_KIND_STATE_CALCULATED) ||
            sys->real_kind[d] != MOFMU_KIND_DERIVATIVE) {
            return "the state and derivative tables do not match the variable kinds";
        }
    }
    for (i = 0; i < sys->n_integers + sys->n_booleans; i++) {
        uint32_t at = i < sys->n_integers ? sys->integer_real[i]
                                          : sys->boolean_real[i - sys->n_integers];
        if (at != MOFMU_NOT_IN_R &&
            (at >= sys->n_reals || (sys->real_kind[at] != MOFMU_KIND_LOCAL &&
                                    sys->real_kind[at] != MOFMU_KIND_OUTPUT))) {
            return "a discrete variable is not a computed variable";
        }
    }
    /* The instances: first the sizes of the pools, by class. */
    after_counts = r->p;
    left_after_counts = r->left;
    for (i = 0; i < sys->n_instances && !r->bad; i++) {
        uint32_t c = read_u32(r);
        uint32_t name_length;
        const mofmu_class *k;
        if (c >= n_classes) {
            return "an instance has an unknown class";
        }
        k = &mofmu_classes[c];
        name_length = read_u32(r);
        take(r, (size_t)name_length + 8 + 4 * (size_t)k->n_slots + 8 * (size_t)k->n_ints +
                    k->n_own);
        n_off += k->n_slots;
        n_ints += k->n_ints;
        n_own += k->n_own;
    }
    if (r->bad) {
        return "it ends inside the instances";
    }
    r->p = after_counts;
    r->left = left_after_counts;
    sys->off_pool = (int32_t *)allocate(n_off, sizeof(int32_t));
    sys->ints_pool = (int64_t *)allocate(n_ints, sizeof(int64_t));
    sys->own_pool = (unsigned char *)allocate(n_own, 1);
    if (sys->off_pool == NULL || sys->ints_pool == NULL || sys->own_pool == NULL) {
        return "out of memory";
    }
    n_off = n_ints = n_own = 0;
    for (i = 0; i < sys->n_instances; i++) {
        mofmu_inst *inst = &sys->instances[i];
        const mofmu_class *k = &mofmu_classes[read_u32(r)];
        sys->instance_class[i] = (uint32_t)(k - mofmu_classes);
        inst->name = sys->names + read_str(r);
        inst->relation_base = read_i32(r);
        inst->indicator_base = read_i32(r);
        if (inst->relation_base < 0 || (size_t)inst->relation_base > sys->n_relations ||
            inst->indicator_base < 0 ||
            (size_t)inst->indicator_base > sys->n_event_indicators) {
            return "an instance's relations lie outside the model's";
        }
        inst->off = sys->off_pool + n_off;
        for (j = 0; j < k->n_slots; j++) {
            int32_t o = read_i32(r);
            if (o < 0 || (size_t)o > sys->n_reals) {
                return "an instance's variable lies outside the model's";
            }
            sys->off_pool[n_off++] = o;
        }
        inst->ints = sys->ints_pool + n_ints;
        for (j = 0; j < k->n_ints; j++) {
            sys->ints_pool[n_ints++] = read_i64(r);
        }
        inst->own_binding = sys->own_pool + n_own;
        for (j = 0; j < k->n_own; j++) {
            sys->own_pool[n_own++] = *take(r, 1);
        }
    }
    /* The schedule: first the number of copy sources. */
    after_counts = r->p;
    left_after_counts = r->left;
    for (i = 0; i < sys->n_steps && !r->bad; i++) {
        unsigned tag = *take(r, 1);
        if (tag == MOFMU_STEP_TIME) {
            take(r, 4);
        } else if (tag == MOFMU_STEP_BLOCK) {
            take(r, 12);
        } else if (tag == MOFMU_STEP_REPEAT) {
            take(r, 8);
        } else if (tag == MOFMU_STEP_FUSE) {
            uint32_t n = read_u32(r);
            if (!fits(r, n, 4)) {
                break;
            }
            take(r, 4 * (size_t)n);
            n_skews_total += n;
        } else if (tag == MOFMU_STEP_COPY) {
            uint32_t n;
            take(r, 20);
            n = read_u32(r);
            if (!fits(r, n, 9)) {
                break;
            }
            take(r, 9 * (size_t)n);
            n_sources_total += n;
        } else {
            return "a step of the schedule has an unknown kind";
        }
    }
    if (r->bad) {
        return "it ends inside the schedule";
    }
    r->p = after_counts;
    r->left = left_after_counts;
    sys->source_offset = (uint32_t *)allocate(n_sources_total, sizeof(uint32_t));
    sys->source_stride = (int32_t *)allocate(n_sources_total, sizeof(int32_t));
    sys->source_negative = (unsigned char *)allocate(n_sources_total, 1);
    sys->fuse_skew = (uint32_t *)allocate(n_skews_total, sizeof(uint32_t));
    if (sys->source_offset == NULL || sys->source_stride == NULL ||
        sys->source_negative == NULL || sys->fuse_skew == NULL) {
        return "out of memory";
    }
    {
        const char *problem = parse_schedule(sys, r);
        if (problem != NULL) {
            return problem;
        }
        problem = plan_fused_loops(sys);
        if (problem != NULL) {
            return problem;
        }
        plan_repeats(sys);
    }
    for (i = 0; i < nb; i++) {
        sys->balance_vr[i] = read_u32(r);
    }
    for (i = 0; i < nb; i++) {
        sys->residual_vr[i] = read_u32(r);
    }
    for (i = 0; i < nb; i++) {
        sys->balance_name_at[i] = read_str(r);
        if (sys->balance_vr[i] >= sys->n_reals || sys->residual_vr[i] >= sys->n_reals) {
            return "a linear response lies outside the variables";
        }
    }
    if (!fits(r, sys->n_steps, 1)) {
        return "it ends inside the steps balances reach";
    }
    for (i = 0; i < sys->n_steps; i++) {
        const unsigned char *b = take(r, 1);
        sys->steps[i].reached = b != NULL && *b != 0;
    }
    {
        const char *problem = parse_jacobian_pattern(sys, r);
        if (problem != NULL) {
            return problem;
        }
    }
    if (r->bad || r->left != 0) {
        return "its length does not match its contents";
    }
    if (nb > 0) {
        if (nb > (SIZE_MAX / sizeof(double) - sys->n_reals) / (nb + 1)) {
            return "its linear responses are too many";
        }
        sys->scratch_size = sys->n_reals + nb * nb + nb;
    }
    return NULL;
}

mofmu_system *mofmu_system_load(const char *resource_location, char *error, size_t error_size)
{
    size_t size = 0;
    char *path = system_file_path(resource_location, error, error_size);
    unsigned char *bytes;
    mofmu_system *sys;
    Reader r;
    const char *problem;
    if (path == NULL) {
        return NULL;
    }
    bytes = read_whole_file(path, &size, error, error_size);
    if (bytes == NULL) {
        free(path);
        return NULL;
    }
    if (size < sizeof system_magic + 8) {
        problem = "it is too short";
    } else {
        const unsigned char *sum = bytes + size - 8;
        problem = get_u64(&sum) != fnv1a(bytes, size - 8)
                      ? "its checksum does not match (the file is damaged)"
                      : NULL;
    }
    sys = (mofmu_system *)allocate(1, sizeof *sys);
    memset(&r, 0, sizeof r);
    r.p = bytes;
    r.left = size >= 8 ? size - 8 : 0;
    /* One pool for every string, owned by the system: each string is
     * preceded by its 4-byte length, so their bytes plus a terminator each
     * fit in the file's length and a quarter. */
    if (problem == NULL && sys != NULL) {
        r.pool_size = r.left + r.left / 4 + 1;
        sys->names = r.pool = (char *)allocate(r.pool_size, 1);
    }
    if (problem == NULL && (sys == NULL || r.pool == NULL)) {
        problem = "out of memory";
    }
    if (problem == NULL) {
        problem = parse_system(sys, &r);
    }
    free(bytes);
    if (problem != NULL) {
        snprintf(error, error_size, "%s: %s", path, problem);
        mofmu_system_free(sys);
        free(path);
        return NULL;
    }
    free(path);
    return sys;
}

/* Runs the schedule once: time, kernel blocks and connection copies. */
/* A copy in round `round` of its repeat (0 outside one). */
static void copy_step(const mofmu_system *sys, const mofmu_step *st, ptrdiff_t round, double *R)
{
    const uint32_t *src = sys->source_offset + st->first_source;
    const int32_t *stride = sys->source_stride + st->first_source;
    const unsigned char *negative = sys->source_negative + st->first_source;
    double *target = R + st->target + round * st->stride;
    size_t e, k;
    if (st->len == 1 && st->n_sources == 1) {
        /* A connection of two scalars, the most common copy: as below,
         * without the loops. */
        double t = R[src[0] + round * stride[0]];
        target[0] = st->coefficient * (negative[0] ? -t : t);
        return;
    }
    for (e = 0; e < st->len; e++) {
        double sum = 0.0;
        if (st->n_sources > 0) {
            double t = R[src[0] + round * stride[0] + (ptrdiff_t)e];
            sum = negative[0] ? -t : t;
            for (k = 1; k < st->n_sources; k++) {
                t = R[src[k] + round * stride[k] + (ptrdiff_t)e];
                sum = negative[k] ? sum - t : sum + t;
            }
        }
        target[e] = st->coefficient * sum;
    }
}

/* A copy of one scalar from one source, over every round of its repeat:
 * the common connection of an array of components, as a strided loop. */
static void copy_rounds_1(const mofmu_system *sys, const mofmu_step *st, ptrdiff_t first,
                          size_t count, double *R)
{
    size_t src = st->first_source;
    ptrdiff_t a = sys->source_stride[src], b = st->stride, r;
    const double *from = R + sys->source_offset[src] + first * a;
    double *to = R + st->target + first * b;
    double c = sys->source_negative[src] ? -st->coefficient : st->coefficient;
    if (c == 1.0) {
        for (r = 0; r < (ptrdiff_t)count; r++) {
            to[r * b] = from[r * a];
        }
    } else {
        /* coefficient * (-x) is -(coefficient * x), bit for bit. */
        for (r = 0; r < (ptrdiff_t)count; r++) {
            to[r * b] = c * from[r * a];
        }
    }
}

/* A copy of one scalar from two sources, over every round of its repeat
 * (a flow balance of an array of components), as copy_step computes it. */
static void copy_rounds_2(const mofmu_system *sys, const mofmu_step *st, ptrdiff_t first,
                          size_t count, double *R)
{
    size_t src = st->first_source;
    ptrdiff_t a0 = sys->source_stride[src], a1 = sys->source_stride[src + 1], b = st->stride, r;
    const double *f0 = R + sys->source_offset[src] + first * a0;
    const double *f1 = R + sys->source_offset[src + 1] + first * a1;
    double *to = R + st->target + first * b;
    int n0 = sys->source_negative[src], n1 = sys->source_negative[src + 1];
    double c = st->coefficient;
    for (r = 0; r < (ptrdiff_t)count; r++) {
        double t0 = f0[r * a0], t1 = f1[r * a1];
        double sum = n0 ? -t0 : t0;
        sum = n1 ? sum - t1 : sum + t1;
        to[r * b] = c * sum;
    }
}

/* A copy over `count` rounds of its repeat from round `first`, as one loop. */
static void copy_rounds(const mofmu_system *sys, const mofmu_step *st, size_t first,
                        size_t count, double *R)
{
    size_t r;
    if (st->len == 1 && st->n_sources == 1) {
        copy_rounds_1(sys, st, (ptrdiff_t)first, count, R);
    } else if (st->len == 1 && st->n_sources == 2) {
        copy_rounds_2(sys, st, (ptrdiff_t)first, count, R);
    } else {
        for (r = first; r < first + count; r++) {
            copy_step(sys, st, (ptrdiff_t)r, R);
        }
    }
}

/* Runs steps [st, st + n) in round `round`, or their tangents when dR is
 * not NULL (then copies act on dR). */
static void run_steps(const mofmu_system *sys, const mofmu_step *st, size_t n, ptrdiff_t round,
                      double *R, double *dR, mofmu_ctx *ctx, int reached)
{
    const mofmu_step *end = st + n;
    for (; st < end; st++) {
        if (reached && !st->reached) {
            continue;
        }
        if (st->tag == MOFMU_STEP_BLOCK) {
            const mofmu_inst *in = st->inst + round * st->stride;
            if (dR == NULL) {
                st->fn(R, in, ctx);
            } else {
                st->tangent(R, dR, in, ctx);
            }
        } else {
            copy_step(sys, st, round, dR == NULL ? R : dR);
        }
    }
}

/* Rounds [first, first + count) of a repeat. A block alone runs through
 * its batched entry when plan_repeats found one, a copy alone or a body of
 * commuting copies as one loop per copy; any other body round by round. */
static void run_repeat_rounds(const mofmu_system *sys, const mofmu_step *rep, size_t first,
                              size_t count, double *R, double *dR, mofmu_ctx *ctx, int reached)
{
    const mofmu_step *st = rep + 1;
    size_t r;
    if (reached && !rep->reached) {
        return;
    }
    if (rep->body == 1 && st->fn_n != NULL) {
        const mofmu_inst *in0 = st->inst + (ptrdiff_t)first * st->stride;
        if (dR == NULL) {
            st->fn_n(R, in0, count, st->stride, st->real_stride, ctx);
        } else {
            st->tangent_n(R, dR, in0, count, st->stride, st->real_stride, ctx);
        }
        return;
    }
    if (rep->body == 1 && st->tag == MOFMU_STEP_BLOCK) {
        const mofmu_inst *in = st->inst + (ptrdiff_t)first * st->stride;
        ptrdiff_t stride = st->stride;
        if (dR == NULL) {
            for (r = 0; r < count; r++, in += stride) {
                st->fn(R, in, ctx);
            }
        } else {
            for (r = 0; r < count; r++, in += stride) {
                st->tangent(R, dR, in, ctx);
            }
        }
        return;
    }
    if (rep->body == 1 || rep->by_step) {
        for (r = 0; r < rep->body; r++) {
            if (!reached || st[r].reached) {
                copy_rounds(sys, st + r, first, count, dR == NULL ? R : dR);
            }
        }
        return;
    }
    for (r = first; r < first + count; r++) {
        run_steps(sys, st, rep->body, (ptrdiff_t)r, R, dR, ctx, reached);
    }
}

/* A repeat: its body `count` times. */
static void run_repeat(const mofmu_system *sys, const mofmu_step *rep, double *R, double *dR,
                       mofmu_ctx *ctx, int reached)
{
    run_repeat_rounds(sys, rep, 0, rep->count, R, dR, ctx, reached);
}

/* Rounds of a fused loop run together: the variables of this many
 * elements of an array of components (a dozen reals each in a chain of
 * conductors and capacitors) stay in the first-level cache from the first
 * unit of the loop to the last. */
#ifndef FUSE_TILE
#define FUSE_TILE 128
#endif

/* A fused loop (MOFMU_STEP_FUSE): tile by tile, each unit's rounds that
 * fall in the tile, unit after unit. */
static void run_fused(const mofmu_system *sys, const mofmu_step *fuse, double *R, double *dR,
                      mofmu_ctx *ctx, int reached)
{
    const uint32_t *skew = sys->fuse_skew + fuse->first_source;
    size_t t0, u;
    for (t0 = 0; t0 < fuse->len; t0 += FUSE_TILE) {
        const mofmu_step *st = fuse + 1;
        for (u = 0; u < fuse->count; u++) {
            size_t s = skew[u], count = st->tag == MOFMU_STEP_REPEAT ? st->count : 1;
            size_t lo = t0 > s ? t0 - s : 0, hi = t0 + FUSE_TILE > s ? t0 + FUSE_TILE - s : 0;
            if (hi > count) {
                hi = count;
            }
            if (st->tag == MOFMU_STEP_REPEAT) {
                if (lo < hi) {
                    run_repeat_rounds(sys, st, lo, hi - lo, R, dR, ctx, reached);
                }
                st += 1 + st->body;
            } else {
                if (lo < hi) {
                    run_steps(sys, st, 1, 0, R, dR, ctx, reached);
                }
                st++;
            }
        }
    }
}

/* Runs the schedule (time, kernel blocks, connection copies, repeats), or
 * with dR its tangent at the point R: dR holds the tangents of the states,
 * inputs and balances (zero where not seeded) and receives the tangents of
 * every variable the schedule computes. With `reached`, only the steps the
 * balances reach (mofmu_step.reached): after a whole pass, when only the
 * balances (or their tangents) have changed, those are the steps whose
 * results can change; every other result stays as that pass left it. */
static void run_schedule_or_tangent(const mofmu_system *sys, double *R, double *dR,
                                    mofmu_ctx *ctx, int reached)
{
    const mofmu_step *st = sys->steps, *end = sys->steps + sys->n_steps;
    while (st < end) {
        if (reached && !st->reached) {
            st += st->tag == MOFMU_STEP_FUSE || st->tag == MOFMU_STEP_REPEAT ? 1 + st->body : 1;
        } else if (st->tag == MOFMU_STEP_FUSE) {
            run_fused(sys, st, R, dR, ctx, reached);
            st += 1 + st->body;
        } else if (st->tag == MOFMU_STEP_REPEAT) {
            run_repeat(sys, st, R, dR, ctx, reached);
            st += 1 + st->body;
        } else if (st->tag == MOFMU_STEP_TIME) {
            if (dR == NULL) {
                R[st->target] = ctx->time;
            }
            st++;
        } else {
            run_steps(sys, st, 1, 0, R, dR, ctx, reached);
            st++;
        }
    }
}

static void run_schedule(const mofmu_system *sys, double *R, mofmu_ctx *ctx)
{
    run_schedule_or_tangent(sys, R, NULL, ctx, 0);
}

/* The schedule's tangent at the point R (see run_schedule_or_tangent). */
static void run_schedule_tangent(const mofmu_system *sys, const double *R, double *dR,
                                 mofmu_ctx *ctx)
{
    run_schedule_or_tangent(sys, (double *)R, dR, ctx, 0);
}

/* The passes of a tearing solve after the first: the steps the balances
 * reach, as values (dR NULL) or tangents. */
static void run_reached(const mofmu_system *sys, const double *R, double *dR, mofmu_ctx *ctx)
{
    run_schedule_or_tangent(sys, (double *)R, dR, ctx, 1);
}

/* Computes calculated parameters, then the start values of states whose
 * start is an expression of parameters, instance by instance. */
static void compute_parameters(const mofmu_system *sys, double *R, mofmu_ctx *ctx)
{
    size_t i;
    for (i = 0; i < sys->n_instances; i++) {
        mofmu_classes[sys->instance_class[i]].params(R, &sys->instances[i], ctx);
    }
    for (i = 0; i < sys->n_instances; i++) {
        mofmu_classes[sys->instance_class[i]].starts(R, &sys->instances[i], ctx);
    }
}

/* ------------------------------------------------------------------------
 * Evaluation
 * ------------------------------------------------------------------------ */

static void init_ctx(Instance *inst, mofmu_ctx *ctx, int event_mode)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->time = inst->time;
    ctx->event_mode = event_mode;
    ctx->next_time_event = INFINITY;
    ctx->relations = inst->relations;
    ctx->indicators = inst->indicators;
    ctx->scratch = inst->scratch;
    ctx->lr = inst->sys->n_balances > 0 ? &inst->lr : NULL;
    ctx->system = inst->sys;
    ctx->failed = 0;
    ctx->message[0] = '\0';
    if (inst->evaluate_into != NULL) {
        ctx->der_from = inst->direct_first;
        ctx->der_stride = inst->direct_stride;
        ctx->der_count = inst->sys->n_states;
        ctx->der_to = inst->evaluate_into;
    }
}

/* A model failure: the instance can no longer be trusted. */
static fmi2Status model_failure(Instance *inst, const char *function, const char *message)
{
    inst->state = STATE_ERROR;
    inst->valid = 0;
    return log_error(inst, "%s: %s", function, message);
}

/* Computes calculated parameters and calculated state starts when stale.
 * Only meaningful before the end of initialization: afterwards parameters
 * cannot change. In the error state nothing is computed, so getters show
 * the values at the failure. */
static fmi2Status update_parameters(Instance *inst, const char *function)
{
    mofmu_ctx ctx;
    if (!inst->parameters_dirty ||
        (inst->state & (STATE_INSTANTIATED | STATE_INITIALIZATION)) == 0) {
        return fmi2OK;
    }
    init_ctx(inst, &ctx, 1);
    compute_parameters(inst->sys, inst->R, &ctx);
    if (ctx.failed) {
        return model_failure(inst, function, ctx.message);
    }
    inst->parameters_dirty = 0;
    inst->valid = 0;
    return fmi2OK;
}

/* The first real of kind `kind` that is not finite, or -1. */
/* Nonzero when every x[i] is finite: x - x is +0.0 (all bits zero) for a
 * finite x and NaN otherwise, so OR-ing the bits of x - x over the vector
 * finds any infinity or NaN without a branch per element. Four elements at a
 * time through the compiler's vector extension (two SSE2 registers on x86-64), so
 * checking a large vector costs little next to evaluating it. The
 * subtraction is never folded: without -ffast-math x - x is not 0 for NaN. */
typedef double mofmu_v2d_ __attribute__((vector_size(16)));
typedef int64_t mofmu_v2i_ __attribute__((vector_size(16)));

static int all_finite_sse2(const double *x, size_t n)
{
    mofmu_v2i_ acc0 = {0, 0}, acc1 = {0, 0};
    int64_t bits = 0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        mofmu_v2d_ v0, v1;
        mofmu_v2i_ d0, d1;
        memcpy(&v0, x + i, sizeof v0);
        memcpy(&v1, x + i + 2, sizeof v1);
        v0 = v0 - v0;
        v1 = v1 - v1;
        memcpy(&d0, &v0, sizeof d0);
        memcpy(&d1, &v1, sizeof d1);
        acc0 |= d0;
        acc1 |= d1;
    }
    for (; i < n; i++) {
        double v = x[i] - x[i];
        int64_t b;
        memcpy(&b, &v, sizeof b);
        bits |= b;
    }
    acc0 |= acc1;
    bits |= acc0[0] | acc0[1];
    return bits == 0;
}

/* Copies x[0..n) to dst and says, as all_finite, whether every value is
 * finite: one pass where a check and a copy would take two. */
static int copy_all_finite_sse2(double *dst, const double *x, size_t n)
{
    mofmu_v2i_ acc0 = {0, 0}, acc1 = {0, 0};
    int64_t bits = 0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        mofmu_v2d_ v0, v1, z0, z1;
        mofmu_v2i_ d0, d1;
        memcpy(&v0, x + i, sizeof v0);
        memcpy(&v1, x + i + 2, sizeof v1);
        memcpy(dst + i, &v0, sizeof v0);
        memcpy(dst + i + 2, &v1, sizeof v1);
        z0 = v0 - v0;
        z1 = v1 - v1;
        memcpy(&d0, &z0, sizeof d0);
        memcpy(&d1, &z1, sizeof d1);
        acc0 |= d0;
        acc1 |= d1;
    }
    for (; i < n; i++) {
        double v = x[i], z = v - v;
        int64_t b;
        dst[i] = v;
        memcpy(&b, &z, sizeof b);
        bits |= b;
    }
    acc0 |= acc1;
    bits |= acc0[0] | acc0[1];
    return bits == 0;
}

/* The same two passes with 256-bit vectors, for x86-64 processors with AVX2
 * (chosen at run time; the FMU is still built with the baseline flags): half
 * the instructions per element, so the copy runs at memcpy's speed and the
 * check in half the time. The results are the same bits as the SSE2 loops'. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define MOFMU_HAVE_AVX2_PATH 1
typedef double mofmu_v4d_ __attribute__((vector_size(32)));
typedef int64_t mofmu_v4i_ __attribute__((vector_size(32)));

/* x * 0 is +-0 for a finite x and NaN otherwise: OR-ing the bits gathers
 * at most a sign bit from finite values, the exponent bits of any NaN. One
 * multiply (with its load folded) and one OR per four values, sixteen values
 * a time. */
__attribute__((target("avx2"))) static int all_finite_avx2(const double *x, size_t n)
{
    const mofmu_v4d_ zero = {0.0, 0.0, 0.0, 0.0};
    mofmu_v4i_ acc0 = {0, 0, 0, 0}, acc1 = acc0, acc2 = acc0, acc3 = acc0;
    int64_t bits;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        mofmu_v4d_ v0, v1, v2, v3;
        mofmu_v4i_ d0, d1, d2, d3;
        memcpy(&v0, x + i, sizeof v0);
        memcpy(&v1, x + i + 4, sizeof v1);
        memcpy(&v2, x + i + 8, sizeof v2);
        memcpy(&v3, x + i + 12, sizeof v3);
        v0 = v0 * zero;
        v1 = v1 * zero;
        v2 = v2 * zero;
        v3 = v3 * zero;
        memcpy(&d0, &v0, sizeof d0);
        memcpy(&d1, &v1, sizeof d1);
        memcpy(&d2, &v2, sizeof d2);
        memcpy(&d3, &v3, sizeof d3);
        acc0 |= d0;
        acc1 |= d1;
        acc2 |= d2;
        acc3 |= d3;
    }
    acc0 |= acc1 | acc2 | acc3;
    bits = acc0[0] | acc0[1] | acc0[2] | acc0[3];
    return (bits & INT64_C(0x7ff0000000000000)) == 0 && all_finite_sse2(x + i, n - i);
}

__attribute__((target("avx2"))) static int copy_all_finite_avx2(double *dst, const double *x,
                                                                size_t n)
{
    mofmu_v4i_ acc0 = {0, 0, 0, 0}, acc1 = {0, 0, 0, 0};
    int64_t bits = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        mofmu_v4d_ v0, v1, z0, z1;
        mofmu_v4i_ d0, d1;
        memcpy(&v0, x + i, sizeof v0);
        memcpy(&v1, x + i + 4, sizeof v1);
        memcpy(dst + i, &v0, sizeof v0);
        memcpy(dst + i + 4, &v1, sizeof v1);
        z0 = v0 - v0;
        z1 = v1 - v1;
        memcpy(&d0, &z0, sizeof d0);
        memcpy(&d1, &z1, sizeof d1);
        acc0 |= d0;
        acc1 |= d1;
    }
    acc0 |= acc1;
    bits = acc0[0] | acc0[1] | acc0[2] | acc0[3];
    /* The tail is copied whatever the head held, as the SSE2 loop does. */
    return copy_all_finite_sse2(dst + i, x + i, n - i) && bits == 0;
}

/* Nonzero when the processor runs the AVX2 loops (asked once per call: a
 * load of the flags libgcc filled in when the library was loaded). */
static int have_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}
#endif

static int all_finite(const double *x, size_t n)
{
#ifdef MOFMU_HAVE_AVX2_PATH
    if (n >= 64 && have_avx2()) {
        return all_finite_avx2(x, n);
    }
#endif
    return all_finite_sse2(x, n);
}

static int copy_all_finite(double *dst, const double *x, size_t n)
{
#ifdef MOFMU_HAVE_AVX2_PATH
    if (n >= 64 && have_avx2()) {
        return copy_all_finite_avx2(dst, x, n);
    }
#endif
    return copy_all_finite_sse2(dst, x, n);
}

typedef uint32_t mofmu_v4u_ __attribute__((vector_size(16)));

/* The first element of vr[0..n) when the references are consecutive, else -1.
 * An integrator asks for all states and all derivatives on every call, so
 * this scans two long arrays per directional derivative: eight references
 * at a time against the expected run, OR-ing the differences and looking
 * at them once per block of 256 (a scalar loop with a branch per element
 * cost as much as the tangent pass itself). */
static long consecutive_from(const uint32_t *vr, size_t n)
{
    const mofmu_v4u_ step = {8, 8, 8, 8};
    mofmu_v4u_ expect0, expect1;
    uint32_t first;
    size_t i = 0;
    if (n == 0) {
        return -1;
    }
    first = vr[0];
    /* A run that would pass UINT32_MAX is not consecutive (and the vector
     * arithmetic below would wrap). */
    if ((uint64_t)first + (uint64_t)(n - 1) > UINT32_MAX) {
        return -1;
    }
    expect0 = (mofmu_v4u_){first, first + 1, first + 2, first + 3};
    expect1 = expect0 + 4;
    while (i + 8 <= n) {
        size_t block_end = n - i > 256 ? i + 256 : i + (n - i) / 8 * 8;
        mofmu_v4u_ acc = {0, 0, 0, 0};
        for (; i < block_end; i += 8) {
            mofmu_v4u_ v0, v1;
            memcpy(&v0, vr + i, sizeof v0);
            memcpy(&v1, vr + i + 4, sizeof v1);
            acc |= (v0 ^ expect0) | (v1 ^ expect1);
            expect0 += step;
            expect1 += step;
        }
        if ((acc[0] | acc[1] | acc[2] | acc[3]) != 0) {
            return -1;
        }
    }
    for (; i < n; i++) {
        if (vr[i] != first + (uint32_t)i) {
            return -1;
        }
    }
    return (long)first;
}

/* Whether reals [at, at + len) over `count` rounds `stride` apart meet
 * [from, to). */
static int rounds_meet(int64_t at, int64_t len, int64_t stride, uint32_t count, int64_t from,
                       int64_t to)
{
    int64_t last = at + stride * (int64_t)(count - 1);
    int64_t low = at < last ? at : last, high = (at > last ? at : last) + len;
    return low < to && from < high;
}

/* Whether a copy's reals at + r * stride + e (r < count, e < len) meet
 * a derivative R[from + k * step] (k < n). */
static int rounds_meet_derivatives(int64_t at, int64_t len, int64_t stride, uint32_t count,
                                   int64_t from, int64_t step, int64_t n)
{
    int64_t r, e;
    if (!rounds_meet(at, len, stride, count, from, from + (n - 1) * step + 1)) {
        return 0;
    }
    if (step == 1) {
        return 1;
    }
    for (r = 0; r < (int64_t)count; r++) {
        for (e = 0; e < len; e++) {
            int64_t d = at + r * stride + e - from;
            if (d >= 0 && d % step == 0 && d / step < n) {
                return 1;
            }
        }
    }
    return 0;
}

/* Whether fmi2GetDerivatives may evaluate the derivatives R[at + k * step]
 * (k < n: consecutive when step is 1, else one per element of an array of
 * components) straight into the importer's array: only kernels
 * touch them (no connection copy reads or writes one; kernels reach them
 * through mofmu_der), and one pass computes them (no linear responses,
 * whose tangent passes read R, and no event indicators, which would then
 * need an evaluation of their own right after). */
static int derivatives_direct(const mofmu_system *sys, long at, size_t step)
{
    int64_t from = at, n = (int64_t)sys->n_states;
    uint32_t count = 1, body_left = 0;
    size_t i, k;
    if (at < 0 || sys->n_states == 0 || sys->n_balances > 0 || sys->n_event_indicators > 0) {
        return 0;
    }
    for (i = 0; i < sys->n_steps; i++) {
        const mofmu_step *st = &sys->steps[i];
        if (st->tag == MOFMU_STEP_FUSE) {
            continue;
        }
        if (st->tag == MOFMU_STEP_REPEAT) {
            count = st->count;
            body_left = st->body;
            continue;
        }
        if (body_left == 0) {
            count = 1;
        } else {
            body_left--;
        }
        if (st->tag == MOFMU_STEP_TIME &&
            rounds_meet_derivatives(st->target, 1, 0, 1, from, (int64_t)step, n)) {
            return 0;
        }
        if (st->tag != MOFMU_STEP_COPY) {
            continue;
        }
        if (rounds_meet_derivatives(st->target, st->len, st->stride, count, from, (int64_t)step,
                                    n)) {
            return 0;
        }
        for (k = st->first_source; k < st->first_source + st->n_sources; k++) {
            if (rounds_meet_derivatives(sys->source_offset[k], st->len, sys->source_stride[k],
                                        count, from, (int64_t)step, n)) {
                return 0;
            }
        }
    }
    return 1;
}

/* The stride of vr[0..n) when its references advance by one constant
 * stride above 1 (with the first in *first), else 0. */
static size_t stride_of(const uint32_t *vr, size_t n, size_t *first)
{
    size_t i, stride;
    if (n < 2 || vr[1] <= vr[0] + 1) {
        return 0;
    }
    stride = vr[1] - vr[0];
    for (i = 2; i < n; i++) {
        if (vr[i] < vr[i - 1] || vr[i] - vr[i - 1] != stride) {
            return 0;
        }
    }
    *first = vr[0];
    return stride;
}

/* Nonzero for the kinds of reals whose tangent the tangent pass computes
 * (and writes before it reads it). */
static int tangent_is_computed(unsigned char kind)
{
    return kind == MOFMU_KIND_DERIVATIVE || kind == MOFMU_KIND_OUTPUT || kind == MOFMU_KIND_LOCAL;
}

/* The number of maximal runs of reals whose tangent is not computed. */
static size_t count_zero_ranges(const mofmu_system *sys)
{
    size_t i, n = 0;
    for (i = 0; i < sys->n_reals; i++) {
        if (!tangent_is_computed(sys->real_kind[i]) &&
            (i == 0 || tangent_is_computed(sys->real_kind[i - 1]))) {
            n++;
        }
    }
    return n;
}

/* Those runs as [from, to) pairs, in `ranges` (2 * count_zero_ranges(inst->sys)). */
static void fill_zero_ranges(const mofmu_system *sys, size_t *ranges)
{
    size_t i, k = 0;
    for (i = 0; i < sys->n_reals; i++) {
        if (tangent_is_computed(sys->real_kind[i])) {
            continue;
        }
        if (i == 0 || tangent_is_computed(sys->real_kind[i - 1])) {
            ranges[2 * k] = i;
            k++;
        }
        ranges[2 * k - 1] = i + 1;
    }
}

/* Nonzero when every output in R is finite. */
static int outputs_finite(const Instance *inst)
{
    size_t i;
    for (i = inst->outputs_from; i < inst->outputs_to; i++) {
        if (inst->sys->real_kind[i] == MOFMU_KIND_OUTPUT && !isfinite(inst->R[i])) {
            return 0;
        }
    }
    return 1;
}

/* Nonzero when every derivative and output in R is finite (the common
 * case, checked quickly; first_non_finite then names the culprit). */
static int derivatives_and_outputs_finite(const Instance *inst)
{
    size_t i;
    if (!outputs_finite(inst)) {
        return 0;
    }
    if (inst->derivatives_at >= 0) {
        return all_finite(inst->R + inst->derivatives_at, inst->sys->n_states);
    }
    for (i = 0; i < inst->sys->n_states; i++) {
        if (!isfinite(inst->R[inst->sys->derivative_vr[i]])) {
            return 0;
        }
    }
    return 1;
}

static long first_non_finite(const Instance *inst, unsigned char kind)
{
    size_t i;
    for (i = 0; i < inst->sys->n_reals; i++) {
        if (inst->sys->real_kind[i] == kind && !isfinite(inst->R[i])) {
            return (long)i;
        }
    }
    return -1;
}

/* fmi2Discard in continuous-time mode, a model failure otherwise. */
static fmi2Status non_finite_trial(Instance *inst, const char *function, const char *message)
{
    if (inst->state == STATE_CONTINUOUS) {
        log_message(inst, fmi2Discard, LOG_STATUS_WARNING, "%s: %s", function, message);
        return fmi2Discard;
    }
    return model_failure(inst, function, message);
}

/* The fmi2Discard (or error) for a non-finite derivative at a trial point. */
static fmi2Status non_finite_derivative_value(Instance *inst, const char *function, long vr,
                                              double value)
{
    char message[600];
    snprintf(message, sizeof message, "derivative %s is not finite (%g) at time %.17g",
             real_name(inst->sys, vr), value, inst->time);
    return non_finite_trial(inst, function, message);
}

static fmi2Status non_finite_derivative(Instance *inst, const char *function)
{
    long bad = first_non_finite(inst, MOFMU_KIND_DERIVATIVE);
    if (bad < 0) {
        bad = 0;
    }
    return non_finite_derivative_value(inst, function, bad, inst->R[bad]);
}

/* Watching the floating-point exception flags during an evaluation. With
 * finite inputs, an IEEE 754 evaluation makes an infinity or a NaN only by
 * an operation that raises invalid, division by zero or overflow; the
 * generated code writes its non-finite constants as divisions that raise
 * them too (kernel.rs, real_literal). So when the flags stay clear, every
 * value it computed is finite and the scans for non-finite derivatives,
 * outputs and event indicators (a pass over each, as long as the states
 * themselves) can be skipped. Only where the C library raises the flags as
 * C99 Annex F asks (glibc) and with a compiler that keeps those divisions
 * (GCC: -ftrapping-math is its default); elsewhere the scans stay. The
 * caller's flags are kept: the ones it had are set again afterwards, and
 * the ones the evaluation raised stay raised, as without the watch. */
#if defined(__GLIBC__) && defined(__GNUC__) && !defined(__clang__) && defined(FE_INVALID) &&   \
    defined(FE_DIVBYZERO) && defined(FE_OVERFLOW)
#define MOFMU_FLAG_WATCH 1
#define MOFMU_NON_FINITE_FLAGS (FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW)
typedef struct {
    int before;
    fexcept_t saved;
} FlagWatch;

static void flag_watch_start(FlagWatch *w)
{
    w->before = fetestexcept(MOFMU_NON_FINITE_FLAGS);
    if (w->before != 0) {
        fegetexceptflag(&w->saved, MOFMU_NON_FINITE_FLAGS);
        feclearexcept(MOFMU_NON_FINITE_FLAGS);
    }
}

/* Nonzero when the evaluation since flag_watch_start raised none of the
 * three flags. */
static int flag_watch_clear(FlagWatch *w)
{
    int raised = fetestexcept(MOFMU_NON_FINITE_FLAGS);
    if (w->before != 0) {
        fesetexceptflag(&w->saved, w->before);
    }
    return raised == 0;
}
#endif

/* The inputs of a continuous-time evaluation were just found finite when
 * R is (see Instance.inputs_finite); scanned once per phase, at its second
 * evaluation, so that a phase of one evaluation (an event per step) costs
 * no scan. */
static void note_finite_inputs(Instance *inst, int event_mode)
{
#ifdef MOFMU_FLAG_WATCH
    if (!event_mode && inst->state == STATE_CONTINUOUS && !inst->inputs_finite &&
        ++inst->phase_evaluations == 2) {
        inst->inputs_finite = all_finite(inst->R, inst->sys->n_reals);
    }
#else
    (void)inst;
    (void)event_mode;
#endif
}

/* Forgets that the inputs are known to be finite (something other than a
 * checked setter may have written R). */
static void forget_finite_inputs(Instance *inst)
{
    inst->inputs_finite = 0;
    inst->phase_evaluations = 0;
    inst->evaluation_finite = 0;
}

/* Runs the schedule; says in inst->evaluation_finite whether everything it
 * computed is known to be finite without looking. */
static void run_evaluation(Instance *inst, mofmu_ctx *ctx, int event_mode)
{
#ifdef MOFMU_FLAG_WATCH
    if (inst->inputs_finite && !event_mode && inst->state == STATE_CONTINUOUS) {
        FlagWatch watch;
        flag_watch_start(&watch);
        mofmu_evaluate(inst->R, ctx);
        inst->evaluation_finite = flag_watch_clear(&watch);
        return;
    }
#endif
    inst->evaluation_finite = 0;
    mofmu_evaluate(inst->R, ctx);
}

/* Brings outputs, locals, derivatives and event indicators up to date.
 * With `check_derivatives` zero the caller checks the derivatives (as it
 * copies them out) and marks the values valid itself. */
static fmi2Status evaluate_checking(Instance *inst, const char *function, int check_derivatives)
{
    mofmu_ctx ctx;
    fmi2Status status;
    long bad;
    size_t i;
    int event_mode, finite;
    if (inst->state == STATE_ERROR) {
        return fmi2OK;
    }
    status = update_parameters(inst, function);
    if (status != fmi2OK) {
        return status;
    }
    if (inst->valid) {
        return fmi2OK;
    }
    event_mode = (inst->state & STATE_EVENT) != 0 ? MOFMU_AT_EVENT
                 : (inst->state & (STATE_INSTANTIATED | STATE_INITIALIZATION)) != 0;
    init_ctx(inst, &ctx, event_mode);
    run_evaluation(inst, &ctx, event_mode);
    if (ctx.failed) {
        return model_failure(inst, function, ctx.message);
    }
    if (event_mode) {
        inst->next_time_event = ctx.next_time_event;
    }
    if (inst->evaluation_finite) {
        inst->valid = check_derivatives;
        return fmi2OK;
    }
    finite = check_derivatives ? derivatives_and_outputs_finite(inst) : outputs_finite(inst);
    bad = finite ? -1 : first_non_finite(inst, MOFMU_KIND_OUTPUT);
    if (bad >= 0) {
        char message[600];
        snprintf(message, sizeof message, "output %s is not finite (%g) at time %.17g",
                 real_name(inst->sys, bad), inst->R[bad], inst->time);
        return model_failure(inst, function, message);
    }
    /* A non-finite derivative or event indicator at an integrator's trial
     * point is fmi2Discard: the point is unusable, the instance is not, and
     * staying invalid makes the next call evaluate again. */
    if (!finite && check_derivatives && first_non_finite(inst, MOFMU_KIND_DERIVATIVE) >= 0) {
        return non_finite_derivative(inst, function);
    }
    for (i = 0; i < inst->sys->n_event_indicators; i++) {
        if (!isfinite(inst->indicators[i])) {
            char message[600];
            snprintf(message, sizeof message, "event indicator %lu is not finite at time %.17g",
                     (unsigned long)i, inst->time);
            return non_finite_trial(inst, function, message);
        }
    }
    note_finite_inputs(inst, event_mode);
    /* Unchecked derivatives leave the values invalid until the caller has
     * checked them. */
    inst->valid = check_derivatives;
    return fmi2OK;
}

static fmi2Status evaluate(Instance *inst, const char *function)
{
    return evaluate_checking(inst, function, 1);
}

/* Restores the state right after fmi2Instantiate (logging settings kept). */
static void reset_values(Instance *inst)
{
    size_t i;
    for (i = 0; i < inst->sys->n_reals; i++) {
        /* Variables without a start value begin at zero; states and
         * parameters always have one (or a calculated one). */
        inst->R[i] = isnan(inst->sys->real_start[i]) ? 0.0 : inst->sys->real_start[i];
    }
    if (inst->sys->n_relations > 0) {
        memset(inst->relations, 0, inst->sys->n_relations);
    }
    for (i = 0; i < inst->sys->n_event_indicators; i++) {
        inst->indicators[i] = 0.0;
    }
    inst->state = STATE_INSTANTIATED;
    inst->time = 0.0;
    inst->start_time = 0.0;
    inst->parameters_dirty = 1;
    inst->valid = 0;
    inst->next_time_event = INFINITY;
    inst->tolerance = 0.0;
    forget_finite_inputs(inst);
    cs_reset(inst);
}

/* Frees the arrays sized by the instance's system (not the system) and
 * leaves their pointers NULL. */
static void free_arrays(Instance *inst)
{
    free(inst->R);
    free(inst->relations);
    free(inst->relations_before);
    free(inst->indicators);
    free(inst->scratch);
    free(inst->dR);
    free(inst->lr.A);
    free(inst->lr.start);
    free(inst->lr.at);
    free(inst->lr.value);
    free(inst->zero_ranges);
    cs_free(inst);
    inst->R = inst->dR = inst->indicators = inst->scratch = NULL;
    inst->relations = inst->relations_before = NULL;
    memset(&inst->lr, 0, sizeof inst->lr);
    inst->zero_ranges = NULL;
}

/* Allocates the arrays sized by `sys` into `inst` (whose array pointers,
 * the linear-response cache and the Co-Simulation work are unset) and
 * derives the layout facts the fast paths use, then resets the values.
 * Nonzero, with nothing left allocated, when memory runs out; `inst->sys`
 * is `sys` either way. Shared by fmi2Instantiate and the FMI 3 relayout at
 * a new structural size. */
static int allocate_arrays(Instance *inst, mofmu_system *sys)
{
    size_t i;
    inst->sys = sys;
    inst->R = (double *)allocate(sys->n_reals, sizeof(double));
    inst->relations = (unsigned char *)allocate(sys->n_relations, 1);
    inst->relations_before = (unsigned char *)allocate(sys->n_relations, 1);
    inst->indicators = (double *)allocate(sys->n_event_indicators, sizeof(double));
    inst->scratch = (double *)allocate(sys->scratch_size, sizeof(double));
    inst->dR = (double *)allocate(sys->n_reals, sizeof(double));
    if (sys->n_balances > 0) {
        inst->lr.A = (double *)allocate(sys->n_balances * sys->n_balances, sizeof(double));
        inst->lr.start = (size_t *)allocate(sys->n_balances + 1, sizeof(size_t));
    }
    inst->n_zero_ranges = count_zero_ranges(sys);
    inst->zero_ranges = (size_t *)allocate(2 * inst->n_zero_ranges, sizeof(size_t));
    if (inst->R == NULL || inst->relations == NULL || inst->relations_before == NULL ||
        inst->indicators == NULL || inst->scratch == NULL || inst->dR == NULL ||
        inst->zero_ranges == NULL ||
        (sys->n_balances > 0 && (inst->lr.A == NULL || inst->lr.start == NULL)) ||
        cs_allocate(inst) != 0) {
        free_arrays(inst);
        return 1;
    }
    inst->states_at = consecutive_from(sys->state_vr, sys->n_states);
    inst->derivatives_at = consecutive_from(sys->derivative_vr, sys->n_states);
    inst->states_stride = stride_of(sys->state_vr, sys->n_states, &inst->states_first);
    inst->derivatives_stride =
        stride_of(sys->derivative_vr, sys->n_states, &inst->derivatives_first);
    if (inst->derivatives_at >= 0) {
        inst->direct_first = (size_t)inst->derivatives_at;
        inst->direct_stride = 1;
    } else {
        inst->direct_first = inst->derivatives_first;
        inst->direct_stride = inst->derivatives_stride;
    }
    inst->derivatives_direct =
        inst->direct_stride > 0 &&
        derivatives_direct(sys, (long)inst->direct_first, inst->direct_stride);
    inst->outputs_from = sys->n_reals;
    inst->outputs_to = 0;
    for (i = 0; i < sys->n_reals; i++) {
        if (sys->real_kind[i] == MOFMU_KIND_OUTPUT) {
            if (i < inst->outputs_from) {
                inst->outputs_from = i;
            }
            inst->outputs_to = i + 1;
        }
    }
    fill_zero_ranges(sys, inst->zero_ranges);
    reset_values(inst);
    cs_describe_solver(inst);
    return 0;
}

static void free_instance(Instance *inst)
{
    if (inst == NULL) {
        return;
    }
    inst->tag = NULL;
    free(inst->name_storage);
    free_arrays(inst);
    mofmu_system_free(inst->sys);
    free(inst);
}

/* ------------------------------------------------------------------------
 * Common functions
 * ------------------------------------------------------------------------ */

MOFMU_EXPORT const char *fmi2GetTypesPlatform(void)
{
    return MOFMU_FMI2_TYPES_PLATFORM;
}

MOFMU_EXPORT const char *fmi2GetVersion(void)
{
    return MOFMU_FMI2_VERSION;
}

MOFMU_EXPORT fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean loggingOn,
                                            size_t nCategories, const fmi2String categories[])
{
    Instance *inst = as_instance(c);
    unsigned selected = 0;
    size_t i;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2SetDebugLogging", MASK_SetDebugLogging) ||
        null_array(inst, "fmi2SetDebugLogging", "categories", categories, nCategories)) {
        return fmi2Error;
    }
    /* Check every name before changing anything. */
    for (i = 0; i < nCategories; i++) {
        unsigned bit = categories[i] == NULL ? 0 : category_bit(categories[i]);
        if (bit == 0) {
            return log_error(inst, "fmi2SetDebugLogging: unknown log category \"%s\"",
                             categories[i] == NULL ? "(NULL)" : categories[i]);
        }
        selected |= bit;
    }
    if (nCategories == 0) {
        selected = ALL_LOG_CATEGORIES;
    }
    if (loggingOn) {
        inst->log_categories |= selected;
    } else {
        inst->log_categories &= ~selected;
    }
    return fmi2OK;
}

MOFMU_EXPORT fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType,
                                           fmi2String fmuGUID, fmi2String fmuResourceLocation,
                                           const fmi2CallbackFunctions *functions,
                                           fmi2Boolean visible, fmi2Boolean loggingOn)
{
    Instance *inst;
    Instance probe;
    mofmu_system *sys;
    char problem[1200];
    size_t name_length;
    (void)visible;
    if (functions == NULL) {
        return NULL;
    }
    /* A stack instance that only carries the logger, so that refusals can
     * be reported before anything is allocated. */
    memset(&probe, 0, sizeof probe);
    probe.tag = instance_tag;
    probe.instance_name = instanceName != NULL ? instanceName : "";
    probe.logger = functions->logger;
    probe.environment = functions->componentEnvironment;
    probe.state = STATE_INSTANTIATED;
    if (instanceName == NULL || instanceName[0] == '\0') {
        log_error(&probe, "fmi2Instantiate: the instance name must not be empty");
        return NULL;
    }
    if (fmuType != fmi2ModelExchange && fmuType != fmi2CoSimulation) {
        log_error(&probe, "fmi2Instantiate: %s supports Model Exchange (0) and Co-Simulation (1), "
                          "not the requested FMU type %d",
                  mofmu_model_identifier, (int)fmuType);
        return NULL;
    }
    if (fmuGUID == NULL) {
        log_error(&probe, "fmi2Instantiate: the GUID is NULL");
        return NULL;
    }
    sys = mofmu_system_load(fmuResourceLocation, problem, sizeof problem);
    if (sys == NULL) {
        log_error(&probe, "fmi2Instantiate: cannot load the model of %s: %s",
                  mofmu_model_identifier, problem);
        return NULL;
    }
    if (strcmp(fmuGUID, sys->guid) != 0) {
        log_error(&probe, "fmi2Instantiate: GUID \"%s\" does not match this FMU's GUID \"%s\"",
                  fmuGUID, sys->guid);
        mofmu_system_free(sys);
        return NULL;
    }
    inst = (Instance *)allocate(1, sizeof *inst);
    if (inst == NULL) {
        mofmu_system_free(sys);
        log_error(&probe, "fmi2Instantiate: out of memory");
        return NULL;
    }
    inst->sys = sys;
    inst->type = fmuType;
    name_length = strlen(instanceName);
    inst->name_storage = (char *)allocate(name_length + 1, 1);
    if (inst->name_storage == NULL) {
        free_instance(inst);
        log_error(&probe, "fmi2Instantiate: out of memory");
        return NULL;
    }
    memcpy(inst->name_storage, instanceName, name_length + 1);
    inst->instance_name = inst->name_storage;
    inst->tag = instance_tag;
    inst->logger = functions->logger;
    inst->environment = functions->componentEnvironment;
    inst->log_categories = loggingOn ? ALL_LOG_CATEGORIES : 0;
    if (allocate_arrays(inst, sys) != 0) {
        free_instance(inst);
        log_error(&probe, "fmi2Instantiate: out of memory");
        return NULL;
    }
    return inst;
}

MOFMU_EXPORT void fmi2FreeInstance(fmi2Component c)
{
    free_instance(as_instance(c));
}

MOFMU_EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean toleranceDefined,
                                            fmi2Real tolerance, fmi2Real startTime,
                                            fmi2Boolean stopTimeDefined, fmi2Real stopTime)
{
    Instance *inst = as_instance(c);
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2SetupExperiment", MASK_SetupExperiment)) {
        return fmi2Error;
    }
    if (toleranceDefined && !(tolerance > 0.0 && tolerance < 1.0)) {
        return log_error(inst, "fmi2SetupExperiment: tolerance %g is not between 0 and 1",
                         tolerance);
    }
    if (!isfinite(startTime)) {
        return log_error(inst, "fmi2SetupExperiment: start time %g is not finite", startTime);
    }
    if (stopTimeDefined && !(stopTime >= startTime)) {
        return log_error(inst, "fmi2SetupExperiment: stop time %g is before start time %g",
                         stopTime, startTime);
    }
    inst->start_time = startTime;
    inst->time = startTime;
    inst->tolerance = toleranceDefined ? tolerance : 0.0;
    inst->valid = 0;
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component c)
{
    Instance *inst = as_instance(c);
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2EnterInitializationMode", MASK_EnterInitializationMode)) {
        return fmi2Error;
    }
    inst->state = STATE_INITIALIZATION;
    inst->valid = 0;
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c)
{
    Instance *inst = as_instance(c);
    fmi2Status status;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2ExitInitializationMode", MASK_ExitInitializationMode)) {
        return fmi2Error;
    }
    /* Evaluate once more in event mode so that every relation holds its
     * initial value and the first time event is known. */
    inst->valid = 0;
    status = evaluate(inst, "fmi2ExitInitializationMode");
    if (status != fmi2OK) {
        return status;
    }
    if (inst->type == fmi2CoSimulation) {
        return cs_exit_initialization(inst);
    }
    inst->state = STATE_EVENT;
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2Terminate(fmi2Component c)
{
    Instance *inst = as_instance(c);
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2Terminate", MASK_Terminate)) {
        return fmi2Error;
    }
    if (inst->state == STATE_TERMINATED) {
        /* Importers commonly terminate twice (once when the simulation ends,
         * once while cleaning up). Nothing is left to do, so this is not an
         * error; the note helps find the double call. */
        log_message(inst, fmi2Warning, LOG_STATUS_WARNING,
                    "fmi2Terminate: the instance is already terminated");
        return fmi2OK;
    }
    inst->state = STATE_TERMINATED;
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2Reset(fmi2Component c)
{
    Instance *inst = as_instance(c);
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2Reset", MASK_Reset)) {
        return fmi2Error;
    }
    reset_values(inst);
    return fmi2OK;
}

/* ------------------------------------------------------------------------
 * Getting and setting variable values
 * ------------------------------------------------------------------------ */

MOFMU_EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                    fmi2Real value[])
{
    Instance *inst = as_instance(c);
    int need_parameters = 0;
    int need_evaluation = 0;
    size_t i;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2GetReal", MASK_Get) ||
        null_array(inst, "fmi2GetReal", "vr", vr, nvr) ||
        null_array(inst, "fmi2GetReal", "value", value, nvr) ||
        bad_vrs(inst, "fmi2GetReal", "Real", vr, nvr, inst->sys->n_reals)) {
        return fmi2Error;
    }
    for (i = 0; i < nvr; i++) {
        switch (inst->sys->real_kind[vr[i]]) {
        case MOFMU_KIND_CONSTANT:
        case MOFMU_KIND_PARAMETER:
        case MOFMU_KIND_STATE:
        case MOFMU_KIND_INPUT:
            break;
        case MOFMU_KIND_CALCULATED_PARAMETER:
        case MOFMU_KIND_STATE_CALCULATED:
            need_parameters = 1;
            break;
        default:
            need_evaluation = 1;
            break;
        }
    }
    if (need_evaluation) {
        fmi2Status status = evaluate(inst, "fmi2GetReal");
        if (status != fmi2OK) {
            return status;
        }
    } else if (need_parameters) {
        fmi2Status status = update_parameters(inst, "fmi2GetReal");
        if (status != fmi2OK) {
            return status;
        }
    }
    for (i = 0; i < nvr; i++) {
        value[i] = inst->R[vr[i]];
    }
    return fmi2OK;
}

/* Whether a request names a discrete variable (a value computed in R). */
static int discrete_requested(const uint32_t *in_r, const fmi2ValueReference vr[], size_t nvr)
{
    size_t i;
    for (i = 0; i < nvr; i++) {
        if (in_r[vr[i]] != MOFMU_NOT_IN_R) {
            return 1;
        }
    }
    return 0;
}

/* The value of Integer variable `vr`: a parameter's, or a discrete
 * variable's from R (a whole number there by construction; rounded so that
 * no representation error can move it). */
static int64_t integer_now(const Instance *inst, fmi2ValueReference vr)
{
    uint32_t at = inst->sys->integer_real[vr];
    if (at == MOFMU_NOT_IN_R) {
        return inst->sys->integer_value[vr];
    }
    return (int64_t)llround(inst->R[at]);
}

MOFMU_EXPORT fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[],
                                       size_t nvr, fmi2Integer value[])
{
    Instance *inst = as_instance(c);
    size_t i;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2GetInteger", MASK_Get) ||
        null_array(inst, "fmi2GetInteger", "vr", vr, nvr) ||
        null_array(inst, "fmi2GetInteger", "value", value, nvr) ||
        bad_vrs(inst, "fmi2GetInteger", "Integer", vr, nvr, inst->sys->n_integers)) {
        return fmi2Error;
    }
    if (discrete_requested(inst->sys->integer_real, vr, nvr)) {
        fmi2Status status = evaluate(inst, "fmi2GetInteger");
        if (status != fmi2OK) {
            return status;
        }
    }
    for (i = 0; i < nvr; i++) {
        int64_t v = integer_now(inst, vr[i]);
        if (v < INT_MIN || v > INT_MAX) {
            return log_error(inst, "fmi2GetInteger: value of variable %u does not fit an "
                                   "fmi2Integer",
                             vr[i]);
        }
    }
    for (i = 0; i < nvr; i++) {
        value[i] = (fmi2Integer)integer_now(inst, vr[i]);
    }
    return fmi2OK;
}

/* Strings (and setting Booleans, which are all constants): every value
 * reference is refused; an empty request is fine. */
static fmi2Status get_set_absent(fmi2Component c, const char *function, unsigned mask,
                                 const char *type, const fmi2ValueReference vr[], size_t nvr,
                                 const void *value)
{
    Instance *inst = as_instance(c);
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, function, mask) || null_array(inst, function, "vr", vr, nvr) ||
        null_array(inst, function, "value", value, nvr) ||
        bad_vrs(inst, function, type, vr, nvr, 0)) {
        return fmi2Error;
    }
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[],
                                       size_t nvr, fmi2Boolean value[])
{
    Instance *inst = as_instance(c);
    size_t i;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2GetBoolean", MASK_Get) ||
        null_array(inst, "fmi2GetBoolean", "vr", vr, nvr) ||
        null_array(inst, "fmi2GetBoolean", "value", value, nvr) ||
        bad_vrs(inst, "fmi2GetBoolean", "Boolean", vr, nvr, inst->sys->n_booleans)) {
        return fmi2Error;
    }
    if (discrete_requested(inst->sys->boolean_real, vr, nvr)) {
        fmi2Status status = evaluate(inst, "fmi2GetBoolean");
        if (status != fmi2OK) {
            return status;
        }
    }
    for (i = 0; i < nvr; i++) {
        uint32_t at = inst->sys->boolean_real[vr[i]];
        int on = at == MOFMU_NOT_IN_R ? inst->sys->boolean_value[vr[i]] : inst->R[at] != 0.0;
        value[i] = on ? fmi2True : fmi2False;
    }
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      fmi2String value[])
{
    return get_set_absent(c, "fmi2GetString", MASK_Get, "String", vr, nvr, value);
}

/* Whether a real of kind `kind` may be set in `state`, following FMI 2.0:
 * parameters and exact state starts before the end of initialization,
 * inputs until termination, nothing else ever. */
static int real_settable(unsigned char kind, unsigned state)
{
    switch (kind) {
    case MOFMU_KIND_PARAMETER:
    case MOFMU_KIND_STATE:
        return (state & (STATE_INSTANTIATED | STATE_INITIALIZATION)) != 0;
    case MOFMU_KIND_INPUT:
        return (state & MASK_SetReal) != 0;
    default:
        return 0;
    }
}

static const char *kind_name(unsigned char kind)
{
    switch (kind) {
    case MOFMU_KIND_CONSTANT: return "a constant";
    case MOFMU_KIND_PARAMETER: return "a parameter";
    case MOFMU_KIND_CALCULATED_PARAMETER: return "a calculated parameter";
    case MOFMU_KIND_STATE: return "a state";
    case MOFMU_KIND_STATE_CALCULATED: return "a state with a calculated start value";
    case MOFMU_KIND_DERIVATIVE: return "a derivative";
    case MOFMU_KIND_INPUT: return "an input";
    case MOFMU_KIND_OUTPUT: return "an output";
    case MOFMU_KIND_LOCAL: return "a local variable";
    default: return "of unknown kind";
    }
}

MOFMU_EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                    const fmi2Real value[])
{
    Instance *inst = as_instance(c);
    size_t i;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2SetReal", MASK_SetReal) ||
        null_array(inst, "fmi2SetReal", "vr", vr, nvr) ||
        null_array(inst, "fmi2SetReal", "value", value, nvr) ||
        bad_vrs(inst, "fmi2SetReal", "Real", vr, nvr, inst->sys->n_reals)) {
        return fmi2Error;
    }
    /* Check the whole request before storing anything. */
    for (i = 0; i < nvr; i++) {
        unsigned char kind = inst->sys->real_kind[vr[i]];
        if (!real_settable(kind, inst->state)) {
            if (kind == MOFMU_KIND_PARAMETER || kind == MOFMU_KIND_STATE ||
                kind == MOFMU_KIND_INPUT) {
                return log_error(inst, "fmi2SetReal: %s is %s and cannot be set in state %s",
                                 real_name(inst->sys, vr[i]), kind_name(kind),
                                 state_name(inst->state));
            }
            return log_error(inst, "fmi2SetReal: %s is %s and cannot be set",
                             real_name(inst->sys, vr[i]), kind_name(kind));
        }
        if (!isfinite(value[i])) {
            return log_error(inst, "fmi2SetReal: value %g for %s is not finite", value[i],
                             real_name(inst->sys, vr[i]));
        }
    }
    for (i = 0; i < nvr; i++) {
        unsigned char kind = inst->sys->real_kind[vr[i]];
        inst->R[vr[i]] = value[i];
        if (kind == MOFMU_KIND_PARAMETER || kind == MOFMU_KIND_STATE) {
            inst->parameters_dirty = 1;
        }
    }
    if (nvr > 0) {
        inst->valid = 0;
    }
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[],
                                       size_t nvr, const fmi2Integer value[])
{
    Instance *inst = as_instance(c);
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2SetInteger", MASK_SetDiscrete) ||
        null_array(inst, "fmi2SetInteger", "vr", vr, nvr) ||
        null_array(inst, "fmi2SetInteger", "value", value, nvr) ||
        bad_vrs(inst, "fmi2SetInteger", "Integer", vr, nvr, inst->sys->n_integers)) {
        return fmi2Error;
    }
    if (nvr > 0) {
        /* Every Integer of a mofmu model is a constant (array sizes). */
        return log_error(inst, "fmi2SetInteger: Integer variable %u is a constant and cannot "
                               "be set",
                         vr[0]);
    }
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[],
                                       size_t nvr, const fmi2Boolean value[])
{
    return get_set_absent(c, "fmi2SetBoolean", MASK_SetDiscrete, "Boolean", vr, nvr, value);
}

MOFMU_EXPORT fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      const fmi2String value[])
{
    return get_set_absent(c, "fmi2SetString", MASK_SetDiscrete, "String", vr, nvr, value);
}

/* ------------------------------------------------------------------------
 * FMU state: copies, serialization
 * ------------------------------------------------------------------------ */

static StoredState *as_stored_state(fmi2FMUstate s)
{
    StoredState *stored = (StoredState *)s;
    if (stored == NULL || stored->tag != fmu_state_tag) {
        return NULL;
    }
    return stored;
}

static void free_stored_state(StoredState *stored)
{
    if (stored == NULL) {
        return;
    }
    stored->tag = NULL;
    free(stored->R);
    free(stored->relations);
    free(stored->input_derivative);
    free(stored);
}

static StoredState *new_stored_state(const mofmu_system *sys)
{
    StoredState *stored = (StoredState *)allocate(1, sizeof *stored);
    if (stored == NULL) {
        return NULL;
    }
    stored->R = (double *)allocate(sys->n_reals, sizeof(double));
    stored->relations = (unsigned char *)allocate(sys->n_relations, 1);
    stored->input_derivative = (double *)allocate(cs_n_inputs(sys), sizeof(double));
    if (stored->R == NULL || stored->relations == NULL || stored->input_derivative == NULL) {
        free_stored_state(stored);
        return NULL;
    }
    stored->tag = fmu_state_tag;
    return stored;
}

/* Takes `*slot` when it holds a state of this model (the standard lets the
 * importer hand one back for reuse), else makes a new one. */
static StoredState *stored_state_for(Instance *inst, const char *function, fmi2FMUstate *slot)
{
    StoredState *stored;
    if (*slot != NULL) {
        stored = as_stored_state(*slot);
        if (stored == NULL) {
            log_error(inst, "%s: the given FMU state was not made by this FMU", function);
        }
        return stored;
    }
    stored = new_stored_state(inst->sys);
    if (stored == NULL) {
        log_error(inst, "%s: out of memory", function);
    }
    return stored;
}

MOFMU_EXPORT fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate *FMUstate)
{
    Instance *inst = as_instance(c);
    StoredState *stored;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2GetFMUstate", MASK_FMUstate) ||
        null_pointer(inst, "fmi2GetFMUstate", "FMUstate", FMUstate)) {
        return fmi2Error;
    }
    stored = stored_state_for(inst, "fmi2GetFMUstate", FMUstate);
    if (stored == NULL) {
        return fmi2Error;
    }
    stored->state = inst->state;
    stored->parameters_dirty = inst->parameters_dirty;
    stored->time = inst->time;
    stored->start_time = inst->start_time;
    stored->next_time_event = inst->next_time_event;
    stored->type = inst->type;
    stored->tolerance = inst->tolerance;
    stored->cs = inst->cs;
    if (cs_n_inputs(inst->sys) > 0) {
        memcpy(stored->input_derivative, inst->input_derivative, cs_n_inputs(inst->sys) * sizeof(double));
    }
    if (inst->sys->n_reals > 0) {
        memcpy(stored->R, inst->R, inst->sys->n_reals * sizeof(double));
    }
    if (inst->sys->n_relations > 0) {
        memcpy(stored->relations, inst->relations, inst->sys->n_relations);
    }
    *FMUstate = stored;
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate FMUstate)
{
    Instance *inst = as_instance(c);
    StoredState *stored;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2SetFMUstate", MASK_FMUstate)) {
        return fmi2Error;
    }
    stored = as_stored_state(FMUstate);
    if (stored == NULL) {
        return log_error(inst, "fmi2SetFMUstate: the given FMU state was not made by this FMU");
    }
    if (stored->type != inst->type) {
        return log_error(inst, "fmi2SetFMUstate: the state belongs to a %s instance",
                         stored->type == fmi2CoSimulation ? "Co-Simulation" : "Model Exchange");
    }
    inst->state = stored->state;
    inst->tolerance = stored->tolerance;
    inst->cs = stored->cs;
    if (cs_n_inputs(inst->sys) > 0) {
        memcpy(inst->input_derivative, stored->input_derivative, cs_n_inputs(inst->sys) * sizeof(double));
    }
    inst->parameters_dirty = stored->parameters_dirty;
    inst->time = stored->time;
    inst->start_time = stored->start_time;
    inst->next_time_event = stored->next_time_event;
    if (inst->sys->n_reals > 0) {
        memcpy(inst->R, stored->R, inst->sys->n_reals * sizeof(double));
    }
    if (inst->sys->n_relations > 0) {
        memcpy(inst->relations, stored->relations, inst->sys->n_relations);
    }
    forget_finite_inputs(inst);
    /* Evaluation is deterministic, so evaluating again reproduces the
     * values the stored instance had. */
    inst->valid = 0;
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate *FMUstate)
{
    Instance *inst = as_instance(c);
    StoredState *stored;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2FreeFMUstate", MASK_FMUstate)) {
        return fmi2Error;
    }
    if (FMUstate == NULL || *FMUstate == NULL) {
        return fmi2OK;
    }
    stored = as_stored_state(*FMUstate);
    if (stored == NULL) {
        return log_error(inst, "fmi2FreeFMUstate: the given FMU state was not made by this FMU");
    }
    free_stored_state(stored);
    *FMUstate = NULL;
    return fmi2OK;
}

/* Serialized layout, every number little-endian whatever the host:
 *   8 bytes  magic "MOFMUST2"
 *   u32      length of the GUID, then the GUID's bytes (no terminator)
 *   u64      number of reals, relations and inputs
 *   u32      interface (fmi2Type), instance state (STATE_* bit),
 *            parameters_dirty, status of the last fmi2DoStep
 *   f64      time, start time, next time event, tolerance, the
 *            integrator's next step size, the last successful time
 *            (IEEE 754 bit patterns)
 *   f64 x n  reals
 *   f64 x n  first derivatives of the inputs
 *   u8  x n  relations */
static const char serial_magic[8] = {'M', 'O', 'F', 'M', 'U', 'S', 'T', '2'};

static size_t serialized_size(const mofmu_system *sys)
{
    return sizeof serial_magic + 4 + strlen(sys->guid) + 3 * 8 + 4 * 4 + 6 * 8 +
           8 * sys->n_reals + 8 * cs_n_inputs(sys) + sys->n_relations;
}

static void put_u32(unsigned char **p, uint32_t v)
{
    int i;
    for (i = 0; i < 4; i++) {
        *(*p)++ = (unsigned char)(v >> (8 * i));
    }
}

static void put_u64(unsigned char **p, uint64_t v)
{
    int i;
    for (i = 0; i < 8; i++) {
        *(*p)++ = (unsigned char)(v >> (8 * i));
    }
}

static void put_f64(unsigned char **p, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    put_u64(p, bits);
}

MOFMU_EXPORT fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate FMUstate,
                                                   size_t *size)
{
    Instance *inst = as_instance(c);
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2SerializedFMUstateSize", MASK_FMUstate) ||
        null_pointer(inst, "fmi2SerializedFMUstateSize", "size", size)) {
        return fmi2Error;
    }
    if (as_stored_state(FMUstate) == NULL) {
        return log_error(inst, "fmi2SerializedFMUstateSize: the given FMU state was not made "
                               "by this FMU");
    }
    *size = serialized_size(inst->sys);
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate FMUstate,
                                              fmi2Byte serializedState[], size_t size)
{
    Instance *inst = as_instance(c);
    StoredState *stored;
    unsigned char *p;
    size_t guid_length = strlen(inst->sys->guid);
    size_t i, n_inputs;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2SerializeFMUstate", MASK_FMUstate) ||
        null_array(inst, "fmi2SerializeFMUstate", "serializedState", serializedState, size)) {
        return fmi2Error;
    }
    stored = as_stored_state(FMUstate);
    if (stored == NULL) {
        return log_error(inst, "fmi2SerializeFMUstate: the given FMU state was not made by "
                               "this FMU");
    }
    if (size < serialized_size(inst->sys)) {
        return log_error(inst, "fmi2SerializeFMUstate: buffer of %lu bytes is smaller than "
                               "the %lu bytes needed",
                         (unsigned long)size, (unsigned long)serialized_size(inst->sys));
    }
    p = (unsigned char *)serializedState;
    memcpy(p, serial_magic, sizeof serial_magic);
    p += sizeof serial_magic;
    put_u32(&p, (uint32_t)guid_length);
    memcpy(p, inst->sys->guid, guid_length);
    p += guid_length;
    put_u64(&p, (uint64_t)inst->sys->n_reals);
    put_u64(&p, (uint64_t)inst->sys->n_relations);
    put_u64(&p, (uint64_t)cs_n_inputs(inst->sys));
    put_u32(&p, (uint32_t)stored->type);
    put_u32(&p, (uint32_t)stored->state);
    put_u32(&p, (uint32_t)stored->parameters_dirty);
    put_u32(&p, (uint32_t)stored->cs.last_step_status);
    put_f64(&p, stored->time);
    put_f64(&p, stored->start_time);
    put_f64(&p, stored->next_time_event);
    put_f64(&p, stored->tolerance);
    put_f64(&p, stored->cs.next_step);
    put_f64(&p, stored->cs.last_successful_time);
    for (i = 0; i < inst->sys->n_reals; i++) {
        put_f64(&p, stored->R[i]);
    }
    for (i = 0, n_inputs = cs_n_inputs(inst->sys); i < n_inputs; i++) {
        put_f64(&p, stored->input_derivative[i]);
    }
    if (inst->sys->n_relations > 0) {
        memcpy(p, stored->relations, inst->sys->n_relations);
    }
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte serializedState[],
                                                size_t size, fmi2FMUstate *FMUstate)
{
    static const char *const function = "fmi2DeSerializeFMUstate";
    Instance *inst = as_instance(c);
    StoredState *stored;
    const unsigned char *p;
    size_t guid_length = strlen(inst->sys->guid);
    uint32_t type, state, parameters_dirty, last_step_status;
    double time, start_time, next_time_event, tolerance, next_step, last_successful_time;
    size_t i, n_inputs;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, function, MASK_FMUstate) ||
        null_pointer(inst, function, "serializedState", serializedState) ||
        null_pointer(inst, function, "FMUstate", FMUstate)) {
        return fmi2Error;
    }
    if (size != serialized_size(inst->sys)) {
        return log_error(inst, "%s: %lu bytes given, a state of this FMU has %lu", function,
                         (unsigned long)size, (unsigned long)serialized_size(inst->sys));
    }
    p = (const unsigned char *)serializedState;
    if (memcmp(p, serial_magic, sizeof serial_magic) != 0) {
        return log_error(inst, "%s: the bytes are not a serialized mofmu FMU state", function);
    }
    p += sizeof serial_magic;
    if (get_u32(&p) != (uint32_t)guid_length || memcmp(p, inst->sys->guid, guid_length) != 0) {
        return log_error(inst, "%s: the state was serialized by another FMU (GUID differs)",
                         function);
    }
    p += guid_length;
    if (get_u64(&p) != (uint64_t)inst->sys->n_reals || get_u64(&p) != (uint64_t)inst->sys->n_relations ||
        get_u64(&p) != (uint64_t)cs_n_inputs(inst->sys)) {
        return log_error(inst, "%s: the state's sizes do not match this FMU", function);
    }
    type = get_u32(&p);
    state = get_u32(&p);
    parameters_dirty = get_u32(&p);
    last_step_status = get_u32(&p);
    if (type != (uint32_t)inst->type) {
        return log_error(inst, "%s: the state belongs to a %s instance", function,
                         type == (uint32_t)fmi2CoSimulation ? "Co-Simulation" : "Model Exchange");
    }
    /* One state bit of this interface; stale parameters only before
     * initialization ends; a known fmi2Status. */
    if ((state & (inst->type == fmi2CoSimulation ? CS_STATES : ME_STATES)) == 0 ||
        (state & (state - 1)) != 0 || parameters_dirty > 1 ||
        (parameters_dirty && (state & (STATE_INSTANTIATED | STATE_INITIALIZATION)) == 0) ||
        last_step_status > (uint32_t)fmi2Pending) {
        return log_error(inst, "%s: the state's mode flags are corrupt", function);
    }
    time = get_f64(&p);
    start_time = get_f64(&p);
    next_time_event = get_f64(&p);
    tolerance = get_f64(&p);
    next_step = get_f64(&p);
    last_successful_time = get_f64(&p);
    if (!isfinite(time) || !isfinite(start_time) || isnan(next_time_event) ||
        !(tolerance >= 0.0 && tolerance < 1.0) || !(next_step >= 0.0) || isinf(next_step) ||
        !isfinite(last_successful_time)) {
        return log_error(inst, "%s: the state's times are corrupt", function);
    }
    stored = stored_state_for(inst, function, FMUstate);
    if (stored == NULL) {
        return fmi2Error;
    }
    stored->type = inst->type;
    stored->state = state;
    stored->parameters_dirty = (int)parameters_dirty;
    stored->time = time;
    stored->start_time = start_time;
    stored->next_time_event = next_time_event;
    stored->tolerance = tolerance;
    stored->cs.next_step = next_step;
    stored->cs.last_successful_time = last_successful_time;
    stored->cs.last_step_status = (int)last_step_status;
    for (i = 0; i < inst->sys->n_reals; i++) {
        stored->R[i] = get_f64(&p);
    }
    for (i = 0, n_inputs = cs_n_inputs(inst->sys); i < n_inputs; i++) {
        stored->input_derivative[i] = get_f64(&p);
    }
    if (inst->sys->n_relations > 0) {
        memcpy(stored->relations, p, inst->sys->n_relations);
    }
    *FMUstate = stored;
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2GetDirectionalDerivative(fmi2Component c,
                                                     const fmi2ValueReference vUnknown_ref[],
                                                     size_t nUnknown,
                                                     const fmi2ValueReference vKnown_ref[],
                                                     size_t nKnown, const fmi2Real dvKnown[],
                                                     fmi2Real dvUnknown[])
{
    Instance *inst = as_instance(c);
    fmi2Status status;
    mofmu_ctx ctx;
    size_t i;
    long known_at, unknown_at;
    int seeds_finite, known_are_states;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2GetDirectionalDerivative", MASK_GetDirectionalDerivative) ||
        null_array(inst, "fmi2GetDirectionalDerivative", "vUnknown_ref", vUnknown_ref, nUnknown) ||
        null_array(inst, "fmi2GetDirectionalDerivative", "dvUnknown", dvUnknown, nUnknown) ||
        null_array(inst, "fmi2GetDirectionalDerivative", "vKnown_ref", vKnown_ref, nKnown) ||
        null_array(inst, "fmi2GetDirectionalDerivative", "dvKnown", dvKnown, nKnown)) {
        return fmi2Error;
    }
    /* Consecutive references (all states, all derivatives: what an
     * integrator asks for) are checked as one range and copied as one
     * block. */
    known_at = consecutive_from(vKnown_ref, nKnown);
    unknown_at = consecutive_from(vUnknown_ref, nUnknown);
    if ((unknown_at < 0 || (size_t)unknown_at + nUnknown > inst->sys->n_reals) &&
        bad_vrs(inst, "fmi2GetDirectionalDerivative", "Real", vUnknown_ref, nUnknown, inst->sys->n_reals)) {
        return fmi2Error;
    }
    if ((known_at < 0 || (size_t)known_at + nKnown > inst->sys->n_reals) &&
        bad_vrs(inst, "fmi2GetDirectionalDerivative", "Real", vKnown_ref, nKnown, inst->sys->n_reals)) {
        return fmi2Error;
    }
    /* The knowns of a directional derivative are states and inputs. */
    known_are_states = known_at >= 0 && inst->states_at >= 0 && known_at >= inst->states_at &&
                       (size_t)known_at + nKnown <= (size_t)inst->states_at + inst->sys->n_states;
    /* dR is scratch that every call fills before it reads it, so a block
     * of seeds is copied in while it is checked (one pass, where a check
     * and a copy would take two); a refused call leaves nothing behind. */
    seeds_finite = known_are_states ? copy_all_finite(inst->dR + known_at, dvKnown, nKnown)
                                    : all_finite(dvKnown, nKnown);
    for (i = 0; i < nKnown && !(known_are_states && seeds_finite); i++) {
        unsigned char kind = inst->sys->real_kind[vKnown_ref[i]];
        if (kind != MOFMU_KIND_STATE && kind != MOFMU_KIND_STATE_CALCULATED && kind != MOFMU_KIND_INPUT) {
            return log_error(inst, "fmi2GetDirectionalDerivative: %s is not a state or an input",
                             real_name(inst->sys, vKnown_ref[i]));
        }
        if (!seeds_finite && !isfinite(dvKnown[i])) {
            return log_error(inst, "fmi2GetDirectionalDerivative: the seed of %s is not finite",
                             real_name(inst->sys, vKnown_ref[i]));
        }
    }
    status = evaluate(inst, "fmi2GetDirectionalDerivative");
    if (status != fmi2OK) {
        return status;
    }
    for (i = 0; i < inst->n_zero_ranges; i++) {
        size_t from = inst->zero_ranges[2 * i], to = inst->zero_ranges[2 * i + 1];
        if (known_at >= 0) {
            /* Consecutive seeds overwrite their range below: zero around it. */
            size_t seeded_from = (size_t)known_at, seeded_to = seeded_from + nKnown;
            if (from < seeded_from) {
                size_t end = to < seeded_from ? to : seeded_from;
                memset(inst->dR + from, 0, (end - from) * sizeof inst->dR[0]);
            }
            if (to > seeded_to) {
                size_t start = from > seeded_to ? from : seeded_to;
                memset(inst->dR + start, 0, (to - start) * sizeof inst->dR[0]);
            }
        } else {
            memset(inst->dR + from, 0, (to - from) * sizeof inst->dR[0]);
        }
    }
    if (known_are_states) {
        /* Copied in above. */
    } else if (known_at >= 0) {
        memcpy(inst->dR + known_at, dvKnown, nKnown * sizeof dvKnown[0]);
    } else {
        for (i = 0; i < nKnown; i++) {
            inst->dR[vKnown_ref[i]] += dvKnown[i];
        }
    }
    init_ctx(inst, &ctx, 0);
    mofmu_directional(inst->R, inst->dR, &ctx);
    if (ctx.failed) {
        return log_error(inst, "fmi2GetDirectionalDerivative: %s", ctx.message);
    }
    if (unknown_at >= 0) {
        memcpy(dvUnknown, inst->dR + unknown_at, nUnknown * sizeof dvUnknown[0]);
    } else {
        for (i = 0; i < nUnknown; i++) {
            dvUnknown[i] = inst->dR[vUnknown_ref[i]];
        }
    }
    return fmi2OK;
}

/* ------------------------------------------------------------------------
 * Model Exchange functions
 * ------------------------------------------------------------------------ */

MOFMU_EXPORT fmi2Status fmi2EnterEventMode(fmi2Component c)
{
    Instance *inst = as_instance(c);
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2EnterEventMode", MASK_EnterEventMode)) {
        return fmi2Error;
    }
    log_message(inst, fmi2OK, LOG_EVENTS, "fmi2EnterEventMode: event at time %.17g",
                inst->time);
    inst->state = STATE_EVENT;
    /* Relations are no longer frozen: the next evaluation updates them. */
    inst->valid = 0;
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo *eventInfo)
{
    Instance *inst = as_instance(c);
    fmi2Status status;
    int changed = 0;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2NewDiscreteStates", MASK_NewDiscreteStates) ||
        null_pointer(inst, "fmi2NewDiscreteStates", "eventInfo", eventInfo)) {
        return fmi2Error;
    }
    if (inst->sys->n_relations > 0) {
        memcpy(inst->relations_before, inst->relations, inst->sys->n_relations);
    }
    inst->valid = 0;
    status = evaluate(inst, "fmi2NewDiscreteStates");
    if (status != fmi2OK) {
        return status;
    }
    if (inst->sys->n_relations > 0) {
        changed = memcmp(inst->relations_before, inst->relations, inst->sys->n_relations) != 0;
    }
    eventInfo->newDiscreteStatesNeeded = changed ? fmi2True : fmi2False;
    eventInfo->terminateSimulation = fmi2False;
    eventInfo->nominalsOfContinuousStatesChanged = fmi2False;
    eventInfo->valuesOfContinuousStatesChanged = fmi2False;
    if (isfinite(inst->next_time_event)) {
        eventInfo->nextEventTimeDefined = fmi2True;
        eventInfo->nextEventTime = inst->next_time_event;
    } else {
        eventInfo->nextEventTimeDefined = fmi2False;
        eventInfo->nextEventTime = 0.0;
    }
    log_message(inst, fmi2OK, LOG_EVENTS,
                "fmi2NewDiscreteStates: time %.17g, relations %s, next time event %.17g",
                inst->time, changed ? "changed" : "unchanged", inst->next_time_event);
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c)
{
    Instance *inst = as_instance(c);
    fmi2Status status;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2EnterContinuousTimeMode", MASK_EnterContinuousTimeMode)) {
        return fmi2Error;
    }
    /* Freeze relations that agree with the latest inputs: if something was
     * set since the last evaluation, evaluate once more in event mode. */
    status = evaluate(inst, "fmi2EnterContinuousTimeMode");
    if (status != fmi2OK) {
        return status;
    }
    forget_finite_inputs(inst);
    inst->state = STATE_CONTINUOUS;
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2CompletedIntegratorStep(fmi2Component c,
                                                    fmi2Boolean noSetFMUStatePriorToCurrentPoint,
                                                    fmi2Boolean *enterEventMode,
                                                    fmi2Boolean *terminateSimulation)
{
    Instance *inst = as_instance(c);
    (void)noSetFMUStatePriorToCurrentPoint;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2CompletedIntegratorStep", MASK_CompletedIntegratorStep) ||
        null_pointer(inst, "fmi2CompletedIntegratorStep", "enterEventMode", enterEventMode) ||
        null_pointer(inst, "fmi2CompletedIntegratorStep", "terminateSimulation",
                     terminateSimulation)) {
        return fmi2Error;
    }
    *enterEventMode = fmi2False;
    *terminateSimulation = fmi2False;
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time)
{
    Instance *inst = as_instance(c);
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2SetTime", MASK_SetTime)) {
        return fmi2Error;
    }
    if (!isfinite(time)) {
        return log_error(inst, "fmi2SetTime: time %g is not finite", time);
    }
    inst->time = time;
    inst->valid = 0;
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t nx)
{
    Instance *inst = as_instance(c);
    size_t i;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2SetContinuousStates", MASK_SetContinuousStates) ||
        wrong_size(inst, "fmi2SetContinuousStates", "nx", nx, inst->sys->n_states) ||
        null_array(inst, "fmi2SetContinuousStates", "x", x, nx)) {
        return fmi2Error;
    }
    for (i = 0; i < nx; i++) {
        if (i == 0 && all_finite(x, nx)) {
            break;
        }
        if (!isfinite(x[i])) {
            return log_error(inst, "fmi2SetContinuousStates: value %g for state %s is not "
                                   "finite",
                             x[i], real_name(inst->sys, inst->sys->state_vr[i]));
        }
    }
    if (inst->states_at >= 0) {
        memcpy(inst->R + inst->states_at, x, nx * sizeof x[0]);
    } else if (inst->states_stride > 0) {
        double *to = inst->R + inst->states_first;
        size_t stride = inst->states_stride;
        for (i = 0; i < nx; i++) {
            to[i * stride] = x[i];
        }
    } else {
        for (i = 0; i < nx; i++) {
            inst->R[inst->sys->state_vr[i]] = x[i];
        }
    }
    inst->valid = 0;
    return fmi2OK;
}

/* fmi2GetDerivatives by one evaluation whose kernels write the derivatives
 * into `derivatives` itself (one pass less than writing them into R and
 * copying them out), then checked there. R's derivatives are left stale, so
 * the values stay invalid and the next getter evaluates again. On a
 * non-finite derivative (fmi2Discard) the array holds what the evaluation
 * wrote: a discarded trial point is one the importer rejects. */
static fmi2Status derivatives_into(Instance *inst, fmi2Real derivatives[], size_t nx)
{
    fmi2Status status;
    size_t i;
    inst->evaluate_into = derivatives;
    status = evaluate_checking(inst, "fmi2GetDerivatives", 0);
    inst->evaluate_into = NULL;
    inst->valid = 0;
    if (status != fmi2OK || inst->evaluation_finite || all_finite(derivatives, nx)) {
        return status;
    }
    for (i = 0; i < nx && isfinite(derivatives[i]); i++) {
    }
    return non_finite_derivative_value(inst, "fmi2GetDerivatives", inst->sys->derivative_vr[i],
                                       derivatives[i]);
}

MOFMU_EXPORT fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real derivatives[], size_t nx)
{
    Instance *inst = as_instance(c);
    fmi2Status status;
    size_t i;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2GetDerivatives", MASK_GetDerivatives) ||
        wrong_size(inst, "fmi2GetDerivatives", "nx", nx, inst->sys->n_states) ||
        null_array(inst, "fmi2GetDerivatives", "derivatives", derivatives, nx)) {
        return fmi2Error;
    }
    if (inst->derivatives_direct && !inst->valid && inst->state != STATE_ERROR) {
        return derivatives_into(inst, derivatives, nx);
    }
    if (inst->derivatives_stride > 0 && inst->state != STATE_ERROR) {
        /* Strided derivatives too, as all_finite checks. */
        const double *from;
        size_t stride = inst->derivatives_stride;
        int64_t bits = 0;
        status = evaluate_checking(inst, "fmi2GetDerivatives", 0);
        if (status != fmi2OK) {
            return status;
        }
        from = inst->R + inst->derivatives_first;
        for (i = 0; i < nx; i++) {
            double v = from[i * stride], z = v - v;
            int64_t b;
            memcpy(&b, &z, sizeof b);
            bits |= b;
            derivatives[i] = v;
        }
        if (bits != 0) {
            inst->valid = 0;
            return non_finite_derivative(inst, "fmi2GetDerivatives");
        }
        inst->valid = 1;
        return fmi2OK;
    }
    if (inst->derivatives_at >= 0 && inst->state != STATE_ERROR) {
        /* Consecutive derivatives are checked as they are copied out. */
        status = evaluate_checking(inst, "fmi2GetDerivatives", 0);
        if (status != fmi2OK) {
            return status;
        }
        if (!copy_all_finite(derivatives, inst->R + inst->derivatives_at, nx)) {
            inst->valid = 0;
            return non_finite_derivative(inst, "fmi2GetDerivatives");
        }
        inst->valid = 1;
        return fmi2OK;
    }
    /* In the error state the values are those the failure left. */
    status = evaluate(inst, "fmi2GetDerivatives");
    if (status != fmi2OK) {
        return status;
    }
    if (inst->derivatives_at >= 0) {
        memcpy(derivatives, inst->R + inst->derivatives_at, nx * sizeof derivatives[0]);
    } else {
        for (i = 0; i < nx; i++) {
            derivatives[i] = inst->R[inst->sys->derivative_vr[i]];
        }
    }
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real eventIndicators[],
                                               size_t ni)
{
    Instance *inst = as_instance(c);
    fmi2Status status;
    size_t i;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2GetEventIndicators", MASK_GetEventIndicators) ||
        wrong_size(inst, "fmi2GetEventIndicators", "ni", ni, inst->sys->n_event_indicators) ||
        null_array(inst, "fmi2GetEventIndicators", "eventIndicators", eventIndicators, ni)) {
        return fmi2Error;
    }
    status = evaluate(inst, "fmi2GetEventIndicators");
    if (status != fmi2OK) {
        return status;
    }
    for (i = 0; i < ni; i++) {
        eventIndicators[i] = inst->indicators[i];
    }
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t nx)
{
    Instance *inst = as_instance(c);
    size_t i;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2GetContinuousStates", MASK_GetContinuousStates) ||
        wrong_size(inst, "fmi2GetContinuousStates", "nx", nx, inst->sys->n_states) ||
        null_array(inst, "fmi2GetContinuousStates", "x", x, nx)) {
        return fmi2Error;
    }
    /* States with a calculated start need the parameters computed. */
    if (update_parameters(inst, "fmi2GetContinuousStates") != fmi2OK) {
        return fmi2Error;
    }
    for (i = 0; i < nx; i++) {
        x[i] = inst->R[inst->sys->state_vr[i]];
    }
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x_nominal[],
                                                          size_t nx)
{
    Instance *inst = as_instance(c);
    size_t i;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2GetNominalsOfContinuousStates",
                    MASK_GetNominalsOfContinuousStates) ||
        wrong_size(inst, "fmi2GetNominalsOfContinuousStates", "nx", nx, inst->sys->n_states) ||
        null_array(inst, "fmi2GetNominalsOfContinuousStates", "x_nominal", x_nominal, nx)) {
        return fmi2Error;
    }
    for (i = 0; i < nx; i++) {
        x_nominal[i] = 1.0;
    }
    return fmi2OK;
}

/* ------------------------------------------------------------------------
 * Helpers called by generated code (declared in mofmu_model.h)
 * ------------------------------------------------------------------------ */

static int compare(int op, double a, double b)
{
    switch (op) {
    case MOFMU_LT: return a < b;
    case MOFMU_LE: return a <= b;
    case MOFMU_GT: return a > b;
    case MOFMU_GE: return a >= b;
    case MOFMU_EQ: return a == b;
    case MOFMU_NE: return a != b;
    default: return 0;
    }
}

/* Bits of a frozen relation byte (mofmu_model.h). */
#define RELATION_VALUE 1u
#define RELATION_TIE 2u

int mofmu_relation(mofmu_ctx *ctx, int32_t slot, int32_t indicator, int op, double a, double b)
{
    if (indicator >= 0 && ctx->indicators != NULL) {
        ctx->indicators[indicator] = a - b;
    }
    if (ctx->event_mode) {
        unsigned int old = ctx->relations[slot];
        unsigned int value;
        if (a != b || indicator < 0) {
            value = compare(op, a, b) ? 1u : 0u;
        } else if (old & RELATION_TIE) {
            /* Still at the tie the last event saw: keep its value. */
            value = (old & RELATION_VALUE) | RELATION_TIE;
        } else if (ctx->event_mode == MOFMU_AT_EVENT) {
            /* Reached zero from the side of the frozen value: crossing. */
            value = ((old & RELATION_VALUE) ^ RELATION_VALUE) | RELATION_TIE;
        } else {
            value = (compare(op, a, b) ? 1u : 0u) | RELATION_TIE;
        }
        ctx->relations[slot] = (unsigned char)value;
    }
    return ctx->relations[slot] & RELATION_VALUE;
}

int mofmu_time_relation(mofmu_ctx *ctx, int32_t slot, int op, double threshold)
{
    if (ctx->event_mode) {
        int value;
        /* At the event instant the relation already takes its value after
         * the event: `>` acts as `>=` and `<=` as `<`. */
        switch (op) {
        case MOFMU_GT: value = ctx->time >= threshold; break;
        case MOFMU_LE: value = ctx->time < threshold; break;
        default: value = compare(op, ctx->time, threshold); break;
        }
        ctx->relations[slot] = (unsigned char)(value ? 1 : 0);
        if (threshold > ctx->time && threshold < ctx->next_time_event) {
            ctx->next_time_event = threshold;
        }
    }
    return ctx->relations[slot] & RELATION_VALUE;
}

void mofmu_fail(mofmu_ctx *ctx, const char *instance, const char *message)
{
    if (ctx->failed) {
        return;
    }
    ctx->failed = 1;
    if (instance != NULL && instance[0] != '\0') {
        snprintf(ctx->message, sizeof ctx->message, "%s: %s", instance, message);
    } else {
        snprintf(ctx->message, sizeof ctx->message, "%s", message);
    }
}

/* Solves A x = b in place (A is n*n, row-major, overwritten by its LU
 * factors; b is replaced by x) with partial pivoting. A pivot that is zero
 * relative to the size of its column makes the tearing singular: the
 * evaluation fails with a message naming the LinearResponse components
 * whose balances cannot be determined. */
static int mofmu_lr_solve(mofmu_ctx *ctx, size_t n, double *A, double *b,
                          const mofmu_system *sys)
{
    size_t i, j, k;
    double scale = 0.0;
    for (i = 0; i < n * n; i++) {
        if (!isfinite(A[i])) {
            mofmu_fail(ctx, "", "the tearing matrix of the linear responses is not finite");
            return 1;
        }
        if (fabs(A[i]) > scale) {
            scale = fabs(A[i]);
        }
    }
    for (k = 0; k < n; k++) {
        size_t p = k;
        double best = fabs(A[k * n + k]);
        for (i = k + 1; i < n; i++) {
            if (fabs(A[i * n + k]) > best) {
                best = fabs(A[i * n + k]);
                p = i;
            }
        }
        if (!(best > 1e-13 * scale) || scale == 0.0) {
            char list[400];
            size_t used = 0;
            list[0] = '\0';
            /* Name the responses whose columns are left undetermined. */
            for (j = k; j < n && used + 2 < sizeof list; j++) {
                int w = snprintf(list + used, sizeof list - used, "%s%s", j > k ? ", " : "",
                                 sys->names + sys->balance_name_at[j]);
                if (w < 0) {
                    break;
                }
                used += (size_t)w;
            }
            {
                char message[480];
                snprintf(message, sizeof message,
                         "the tearing matrix of the linear responses is singular: %s cannot be determined", list);
                mofmu_fail(ctx, "", message);
            }
            return 1;
        }
        if (p != k) {
            for (j = 0; j < n; j++) {
                double t = A[k * n + j];
                A[k * n + j] = A[p * n + j];
                A[p * n + j] = t;
            }
            {
                double t = b[k];
                b[k] = b[p];
                b[p] = t;
            }
        }
        for (i = k + 1; i < n; i++) {
            double f = A[i * n + k] / A[k * n + k];
            if (f == 0.0) {
                continue;
            }
            for (j = k; j < n; j++) {
                A[i * n + j] -= f * A[k * n + j];
            }
            b[i] -= f * b[k];
        }
    }
    for (k = n; k-- > 0;) {
        double sum = b[k];
        for (j = k + 1; j < n; j++) {
            sum -= A[k * n + j] * b[j];
        }
        b[k] = sum / A[k * n + k];
    }
    return 0;
}

/* The Co-Simulation interface: part of this translation unit, so that it
 * shares the instance and the static helpers above. */
#define MOFMU_RUNTIME_UNIT
/* ------------------------------------------------------------------------
 * The system's evaluation: the generated schedule, and the tearing solve of
 * declared linear responses around it
 * ------------------------------------------------------------------------ */

/* The tangent column of balance j at R in `col` (the instance's scratch of
 * n_reals values), by one pass over the steps the balances reach, seed
 * included; the caller takes the seed back (balance_column_done) once it
 * has read the column.
 *
 * `col` is not cleared: it is zero when allocated, and only these two
 * functions write it. A pass writes every tangent its steps compute (a step
 * writes all its outputs, before any later step reads them) and nothing
 * else, and the seed is taken back after each column. So an entry that no reached step
 * writes (a state, a parameter, an output of a step the balances do not
 * reach) stays zero, as the tangent with respect to a balance must be, and
 * an entry that one writes is written again before it is read. Clearing
 * all n_reals per balance instead cost as much as the pass itself in a
 * large model whose balances reach a few steps. */
static void balance_column(const double *R, double *col, size_t j, mofmu_ctx *ctx)
{
    const mofmu_system *sys = ctx->system;
    col[sys->balance_vr[j]] = 1.0;
    run_reached(sys, R, col, ctx);
}

static void balance_column_done(double *col, size_t j, const mofmu_ctx *ctx)
{
    col[ctx->system->balance_vr[j]] = 0.0;
}

/* The tearing matrix d(residuals)/d(balances) at R, column by column from
 * tangent passes, into A (row-major, n_balances squared); `col` is the
 * scratch of balance_column. */
static void tearing_matrix(const double *R, double *col, double *A, mofmu_ctx *ctx)
{
    const mofmu_system *sys = ctx->system;
    const size_t nb = sys->n_balances;
    size_t i, j;
    for (j = 0; j < nb; j++) {
        balance_column(R, col, j, ctx);
        for (i = 0; i < nb; i++) {
            A[i * nb + j] = col[sys->residual_vr[i]];
        }
        balance_column_done(col, j, ctx);
    }
}

/* Keeps the nonzero entries of `col` (the tangent column of balance j) in
 * the cache; 1 when out of memory. */
static int keep_column(struct mofmu_lr_cache *lr, const double *col, size_t n_reals, size_t j)
{
    size_t i, k = lr->start[j];
    for (i = 0; i < n_reals; i++) {
        if (col[i] == 0.0) {
            continue;
        }
        if (k == lr->capacity) {
            size_t capacity = lr->capacity < 1024 ? 1024 : 2 * lr->capacity;
            uint32_t *at = (uint32_t *)realloc(lr->at, capacity * sizeof at[0]);
            double *value;
            if (at == NULL) {
                return 1;
            }
            lr->at = at;
            value = (double *)realloc(lr->value, capacity * sizeof value[0]);
            if (value == NULL) {
                return 1;
            }
            lr->value = value;
            lr->capacity = capacity;
        }
        lr->at[k] = (uint32_t)i;
        lr->value[k] = col[i];
        k++;
    }
    lr->start[j + 1] = k;
    return 0;
}

/* Fills the cache at R: the tangent column of every balance (as
 * tearing_matrix takes them) and the tearing matrix. 0, or 1 when the
 * cache cannot be had (out of memory). */
static int fill_lr_cache(const double *R, mofmu_ctx *ctx)
{
    const mofmu_system *sys = ctx->system;
    struct mofmu_lr_cache *lr = ctx->lr;
    const size_t nb = sys->n_balances;
    double *col = ctx->scratch;
    size_t i, j;
    lr->start[0] = 0;
    for (j = 0; j < nb; j++) {
        balance_column(R, col, j, ctx);
        if (ctx->failed) {
            balance_column_done(col, j, ctx);
            return 1;
        }
        for (i = 0; i < nb; i++) {
            lr->A[i * nb + j] = col[sys->residual_vr[i]];
        }
        /* The column with its seed: the balance's own tangent. */
        if (keep_column(lr, col, sys->n_reals, j)) {
            balance_column_done(col, j, ctx);
            return 1;
        }
        balance_column_done(col, j, ctx);
    }
    lr->valid = 1;
    return 0;
}

/* Every output, local and derivative from time, states, inputs and
 * parameters. With linear responses the residuals are affine in the
 * balances: evaluate at zero balances, take the matrix from tangent passes,
 * solve, and evaluate once more with the balances found. */
static void mofmu_evaluate(double *R, mofmu_ctx *ctx)
{
    const mofmu_system *sys = ctx->system;
    const size_t nb = sys->n_balances;
    double *col, *A, *b;
    size_t i;
    int event_mode;
    if (nb == 0) {
        run_schedule(sys, R, ctx);
        return;
    }
    if (ctx->lr != NULL) {
        ctx->lr->valid = 0;
    }
    col = ctx->scratch;
    A = col + sys->n_reals;
    b = A + nb * nb;
    for (i = 0; i < nb; i++) {
        R[sys->balance_vr[i]] = 0.0;
    }
    run_schedule(sys, R, ctx);
    if (ctx->failed) {
        return;
    }
    for (i = 0; i < nb; i++) {
        b[i] = -R[sys->residual_vr[i]];
    }
    /* Relations keep the values the pass above gave them. */
    event_mode = ctx->event_mode;
    ctx->event_mode = 0;
    tearing_matrix(R, col, A, ctx);
    ctx->event_mode = event_mode;
    if (mofmu_lr_solve(ctx, nb, A, b, sys)) {
        return;
    }
    for (i = 0; i < nb; i++) {
        R[sys->balance_vr[i]] = b[i];
    }
    run_reached(sys, R, NULL, ctx);
}

/* Directional derivative at the point R (as left by mofmu_evaluate): dR
 * holds the seeds of states and inputs and receives the tangents of every
 * computed variable. Through linear responses by the implicit function
 * theorem: the balances move so that the residuals stay zero,
 * A db = -dr(seeds, db = 0). Uses ctx->scratch. */
static void mofmu_directional(const double *R, double *dR, mofmu_ctx *ctx)
{
    const mofmu_system *sys = ctx->system;
    const size_t nb = sys->n_balances;
    double *col, *A, *b;
    size_t i;
    if (nb == 0) {
        run_schedule_tangent(sys, R, dR, ctx);
        return;
    }
    col = ctx->scratch;
    A = col + sys->n_reals;
    b = A + nb * nb;
    /* The columns at this point, once per evaluation: the directional
     * derivatives of a Jacobian's colours share them. */
    if (ctx->lr != NULL && !ctx->lr->valid && fill_lr_cache(R, ctx)) {
        ctx->lr->valid = 0;
        if (ctx->failed) {
            return;
        }
    }
    for (i = 0; i < nb; i++) {
        dR[sys->balance_vr[i]] = 0.0;
    }
    run_schedule_tangent(sys, R, dR, ctx);
    for (i = 0; i < nb; i++) {
        b[i] = -dR[sys->residual_vr[i]];
    }
    if (ctx->lr != NULL && ctx->lr->valid) {
        /* The tangent is linear in the balances' tangents: the pass at zero
         * plus the columns times the tangents the residuals ask for. */
        const struct mofmu_lr_cache *lr = ctx->lr;
        size_t k;
        memcpy(A, lr->A, nb * nb * sizeof A[0]);
        if (mofmu_lr_solve(ctx, nb, A, b, sys)) {
            return;
        }
        for (i = 0; i < nb; i++) {
            for (k = lr->start[i]; k < lr->start[i + 1]; k++) {
                dR[lr->at[k]] += b[i] * lr->value[k];
            }
        }
        return;
    }
    tearing_matrix(R, col, A, ctx);
    if (mofmu_lr_solve(ctx, nb, A, b, sys)) {
        return;
    }
    for (i = 0; i < nb; i++) {
        dR[sys->balance_vr[i]] = b[i];
    }
    run_reached(sys, R, dR, ctx);
}

#include "mofmu_cosim.h"
