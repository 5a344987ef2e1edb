/* The narrow interface between the static FMI runtime (mofmu_runtime.c)
 * and the code mofmu generates for one model (class kernels and the system
 * file). Generated code never calls the FMI API; the runtime never knows a
 * class. Everything here is plain C99 with no global mutable state: all
 * run-time data lives in the arrays the runtime allocates per instance. */
#ifndef MOFMU_MODEL_H
#define MOFMU_MODEL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* Evaluation context passed to every generated function. */
struct mofmu_system;

typedef struct mofmu_ctx {
    /* Current simulation time. */
    double time;
    /* Nonzero in initialization and event mode: relations are re-evaluated
     * and their new values stored in `relations`. Zero in continuous-time
     * mode: relations return their frozen values. MOFMU_AT_EVENT (rather
     * than 1) after initialization, where an indicator that has just reached
     * exactly zero is crossing (see mofmu_relation). */
    int event_mode;
    /* Smallest time event strictly after `time` found while evaluating in
     * event mode; the runtime sets it to INFINITY before each evaluation. */
    double next_time_event;
    /* Frozen relation values, one byte per relation slot: bit 0 the value,
     * bit 1 set when the last evaluation in event mode found a tie (a == b). */
    unsigned char *relations;
    /* Event indicator values written during evaluation, or NULL when the
     * caller does not want them. */
    double *indicators;
    /* system->scratch_size doubles owned by the instance, used by the
     * runtime to solve linear responses. */
    double *scratch;
    /* The loaded system of the instance (read by the runtime, not by
     * generated code). */
    const struct mofmu_system *system;
    /* Set by mofmu_fail: evaluation stops being trusted and the runtime
     * returns fmi2Error with `message`. */
    int failed;
    char message[512];
    /* Zero, or while fmi2GetDerivatives evaluates straight into the
     * importer's array: the reals der_from + k * der_stride of R for
     * k < der_count (the derivatives, consecutive when der_stride is 1, else
     * one per element of an array of components) are written to der_to[k]
     * instead. */
    size_t der_from, der_count, der_stride;
    double *der_to;
    /* The runtime's cache of the linear responses' tangent columns at the
     * point of the last evaluation, or NULL (then every directional
     * derivative takes them afresh). Never read by generated code. */
    struct mofmu_lr_cache *lr;
    /* Nonzero in an evaluation whose only results are the derivatives, the
     * event indicators and what the runtime reads of it (residuals,
     * outputs): fmi2GetDerivatives's and fmi2GetEventIndicators's in
     * continuous time, and Co-Simulation's right-hand sides but the one a
     * Jacobian follows. A compiled schedule then runs its lean functions,
     * which leave out the stores of locals that nothing reads from R in such
     * an evaluation (but the last round's, stored after the loop) and the
     * single copies nothing reads (src/fmu/image/compiled/lean.rs). R's other
     * locals are stale until the next full evaluation, which every other
     * getter runs. */
    int lean;
    /* Set while the runtime moves what the instance keeps across events
     * (a class's events entry, DESIGN §2.2c): how many reals took a new
     * left limit, and where in R the first MOFMU_NOTED of them are (to
     * name what keeps changing when an event iteration does not settle);
     * the first `terminate` that fired, and its instance. */
    size_t n_changed;
    int32_t changed_at[4];
    const char *terminate_message;
    const char *terminate_instance;
    /* Set in continuous time when a relation with an event indicator finds
     * its operands on the other side of its frozen value (mofmu_relation):
     * 1 + the index of that indicator, 0 when none does. */
    int relation_disagrees;
} mofmu_ctx;

/* How many changed reals mofmu_ctx.changed_at notes. */
#define MOFMU_NOTED 4

/* Modelica's max and min of two reals, as C99 fmax and fmin (a NaN argument
 * yields the other), defined here so that the C compiler inlines them: it
 * calls the library's fmax otherwise, and a call inside a loop over elements
 * spills every live register. The comparisons are quiet: they raise no
 * floating-point flag, as fmax raises none. */
static inline double mofmu_max(double a, double b)
{
    return (isgreater(a, b) || isnan(b)) ? a : b;
}

static inline double mofmu_min(double a, double b)
{
    return (isless(a, b) || isnan(b)) ? a : b;
}

/* Where a kernel writes (and reads) the derivative slot at R + off: there,
 * or the same element of ctx->der_to (an array derivative lies wholly
 * inside the derivatives, since they are all its elements; with a stride
 * above 1 every derivative is a scalar, as an array's elements would lie
 * next to each other). */
static inline double *mofmu_der(double *R, ptrdiff_t off, const mofmu_ctx *ctx)
{
    size_t k = (size_t)off - ctx->der_from;
    if (ctx->der_stride == 1) {
        return k < ctx->der_count ? ctx->der_to + k : R + off;
    }
    return k < ctx->der_count * ctx->der_stride && k % ctx->der_stride == 0
               ? ctx->der_to + k / ctx->der_stride
               : R + off;
}

/* Where the derivative slots R + off + e * stride, e < count, of a batched
 * kernel entry are: their first element's place, with *step the distance
 * between two, when they are all in R or all in ctx->der_to; NULL when
 * some are in each (the entry then runs instance by instance). */
static inline double *mofmu_der_n(double *R, ptrdiff_t off, size_t count, ptrdiff_t stride,
                                  const mofmu_ctx *ctx, ptrdiff_t *step)
{
    ptrdiff_t last = off + (ptrdiff_t)(count - 1) * stride, m = (ptrdiff_t)ctx->der_stride;
    ptrdiff_t low = off < last ? off : last, high = off < last ? last : off;
    ptrdiff_t from = (ptrdiff_t)ctx->der_from, to = from + ((ptrdiff_t)ctx->der_count - 1) * m;
    double *first;
    *step = stride;
    if (ctx->der_count == 0 || count <= 1 || high < from || low > to) {
        return count == 0 ? R + off : mofmu_der(R, off, ctx);
    }
    first = mofmu_der(R, off, ctx);
    if (stride % m != 0) {
        return NULL;
    }
    if (first != R + off && mofmu_der(R, last, ctx) != R + last) {
        /* Every element lies between two mapped ones, in step with them. */
        *step = stride / m;
        return first;
    }
    /* In step with the derivatives: all unmapped when the first is. */
    return (off - from) % m != 0 ? R + off : NULL;
}

/* What generated code knows about one instance of a class. */
typedef struct mofmu_inst {
    /* Flat instance path ("rod", "pi.integrator"), for messages. */
    const char *name;
    /* Offsets into the real vector R of every variable slot of the class
     * (its own variables and the sub-component variables it refers to), in
     * the order the class kernel numbers them. Arrays are contiguous. */
    const int32_t *off;
    /* Values of the class's Integer parameters (array sizes among them). */
    const int64_t *ints;
    /* First relation slot and first event indicator of this instance. */
    int32_t relation_base;
    int32_t indicator_base;
    /* One byte per parameter slot of the class: 1 when the class's own
     * binding computes the parameter, 0 when its value is given from
     * outside (a start value or the enclosing instance's modifier). */
    const unsigned char *own_binding;
} mofmu_inst;

/* Comparison operators of relations. */
enum { MOFMU_LT = 0, MOFMU_LE = 1, MOFMU_GT = 2, MOFMU_GE = 3, MOFMU_EQ = 4, MOFMU_NE = 5 };

/* The value of mofmu_ctx.event_mode at an event after initialization. */
enum { MOFMU_AT_EVENT = 2 };

/* A relation between continuous-time values: frozen outside event mode,
 * and `a - b` is reported as event indicator `indicator` (when >= 0).
 * At an event where an indicator has reached exactly zero from a strict
 * side (a tie that the last event did not see), the relation takes the
 * value of the side the indicator is heading to, the opposite of its
 * frozen value: importers do not report an indicator leaving zero as a
 * crossing, so the relation must already hold its value after the tie. A
 * tie that persists from one event to the next keeps its value; a tie in
 * initialization takes the plain comparison. */
int mofmu_relation(mofmu_ctx *ctx, int32_t slot, int32_t indicator, int op, double a, double b);

/* A relation between `time` and a threshold that does not change between
 * events: frozen outside event mode, and the threshold becomes the next
 * time event when it lies after the current time. `time > T` is treated as
 * `time >= T` at the event instant (and `<=` as `<`), so a time event never
 * needs to happen "just after" an instant. */
int mofmu_time_relation(mofmu_ctx *ctx, int32_t slot, int op, double threshold);

/* The tick of a clocked partition (a periodic clock of `interval` seconds
 * whose first tick is at the start time). `*ticks` counts the ticks so far
 * and `*first` is the time of the first; both live in the instance's reals,
 * so FMU state saves them. Outside event mode nothing ticks (0). In
 * initialization the first tick runs (3): `*first` becomes the time. At an
 * event: a new tick when the time has reached the next one (2), the same
 * tick again when the time is the last tick's instant (1, an event
 * iteration there: the partition recomputes from the same previous
 * values), else 0. In event mode the next tick becomes a time event. A
 * non-positive or non-finite interval gives -1 (in event mode), and the
 * kernel then calls mofmu_clock_fault on each part of the clock. */
int mofmu_clock(mofmu_ctx *ctx, const mofmu_inst *in, double *ticks, double *first, double interval);

/* What a class's events entry reports (bits of its result). */
enum {
    /* A left limit took a new value: the event iteration goes on. */
    MOFMU_EVENTS_PRE = 1,
    /* A state took a new value (reinit). */
    MOFMU_EVENTS_REINIT = 2,
    /* A `terminate` fired. */
    MOFMU_EVENTS_TERMINATE = 4
};

/* pre := value for the `count` reals at R + value_at and R + pre_at of
 * instance `in`; MOFMU_EVENTS_PRE when one of them changed (the runtime
 * notes which, to name what keeps changing in an event iteration that does
 * not settle). */
int mofmu_pre(double *R, mofmu_ctx *ctx, const mofmu_inst *in, int32_t value_at, int32_t pre_at,
              int64_t count);

/* state := value where they differ: MOFMU_EVENTS_REINIT then. */
int mofmu_reinit(double *R, mofmu_ctx *ctx, const mofmu_inst *in, int32_t state_at,
                 int32_t value_at);

/* A `terminate("message")` of instance `in` fired: MOFMU_EVENTS_TERMINATE. */
int mofmu_terminate(mofmu_ctx *ctx, const mofmu_inst *in, const char *message);

/* Stops the evaluation when `value`, the `role` ("interval", "counter",
 * "resolution", "factor") of the clock written `clock`, is not a positive
 * finite number; `written` is the part as written ("" for the whole
 * interval), and `parameter` the place in R of the one parameter it is, or
 * -1 (the message then names the parameter by its flat name, as the
 * export's MX047 does). */
void mofmu_clock_fault(mofmu_ctx *ctx, const mofmu_inst *in, const char *role, const char *written,
                       int32_t parameter, const char *clock, double value);

/* Record the first failure (e.g. a non-finite value) with a message. */
void mofmu_fail(mofmu_ctx *ctx, const char *instance, const char *message);


/* ---- Kinds of real variables, for the runtime's set/get checks ---- */
enum {
    MOFMU_KIND_CONSTANT = 0,
    MOFMU_KIND_PARAMETER = 1,            /* causality parameter, fixed */
    MOFMU_KIND_CALCULATED_PARAMETER = 2, /* computed from parameters */
    MOFMU_KIND_STATE = 3,                /* continuous state, start settable */
    MOFMU_KIND_STATE_CALCULATED = 4,     /* state whose start is computed */
    MOFMU_KIND_DERIVATIVE = 5,
    MOFMU_KIND_INPUT = 6,
    MOFMU_KIND_OUTPUT = 7,
    MOFMU_KIND_LOCAL = 8,
    MOFMU_KIND_TIME = 9                  /* the independent variable */
};

/* ---- Provided by the generated system file (one per model) ----
 *
 * Only what depends on the model's classes, never on array sizes or
 * parameter values: the model identifier and one record per class with its
 * kernel's entry points. Everything that grows with the model (variables,
 * instances, the schedule) is data in resources/mofmu_system.bin, so that
 * the shared library of a model is the same for every size. */

/* A block of a class kernel, and its tangent. */
typedef void (*mofmu_block_fn)(double *R, const mofmu_inst *in, mofmu_ctx *ctx);
typedef void (*mofmu_tangent_fn)(const double *R, double *dR, const mofmu_inst *in,
                                 mofmu_ctx *ctx);
/* A block (its tangent) over a run of `count` instances of its class: the
 * first is `in0`, each next one `inst_stride` records on, with every
 * variable `real_stride` reals on (a shareable parameter: on, or at the
 * same place in every round) and the same Integer parameters (the
 * runtime checks both). One loop of the block's code, round after round,
 * bit-identical to calling the block on each instance in turn. */
typedef void (*mofmu_block_n_fn)(double *R, const mofmu_inst *in0, size_t count,
                                 ptrdiff_t inst_stride, ptrdiff_t real_stride, mofmu_ctx *ctx);
typedef void (*mofmu_tangent_n_fn)(const double *R, double *dR, const mofmu_inst *in0,
                                   size_t count, ptrdiff_t inst_stride, ptrdiff_t real_stride,
                                   mofmu_ctx *ctx);

/* A class's `events` entry (DESIGN §2.2c): after an evaluation at an event,
 * moves what the instance keeps across events through mofmu_pre,
 * mofmu_reinit and mofmu_terminate, and returns what changed. */
typedef int (*mofmu_events_fn)(double *R, const mofmu_inst *in, mofmu_ctx *ctx);

typedef struct mofmu_class {
    /* Qualified Modelica name, for messages and to match the resource. */
    const char *name;
    /* Computes the class's calculated parameters of one instance. */
    mofmu_block_fn params;
    /* Computes the start values of states whose start is an expression of
     * parameters. */
    mofmu_block_fn starts;
    /* The blocks and their tangents, in the kernel's numbering (NULL when
     * there are none). */
    uint32_t n_blocks;
    const mofmu_block_fn *blocks;
    const mofmu_tangent_fn *tangents;
    /* Lengths of an instance's `off`, `ints` and `own_binding`: the loader
     * refuses a resource whose instances do not match. */
    uint32_t n_slots;
    uint32_t n_ints;
    uint32_t n_own;
    /* The blocks' and tangents' batched entries, in the same numbering
     * (NULL when there are none: the runtime then calls the blocks one
     * instance at a time). */
    const mofmu_block_n_fn *blocks_n;
    const mofmu_tangent_n_fn *tangents_n;
    /* The class's events entry, or NULL when it keeps nothing across
     * events (no `when`, no `pre`). */
    mofmu_events_fn events;
    /* Bit s (s < 64): slot s is a parameter the batched entries step by
     * its own stride, so the elements of a run may share it (every
     * element reading one model parameter); the other slots advance with
     * the instance. */
    uint64_t shareable;
} mofmu_class;

extern const char mofmu_model_identifier[];
extern const size_t mofmu_n_classes;
extern const mofmu_class mofmu_classes[];

/* ---- The compiled schedule (docs/fmu.md, "Two tiers of schedule") ----
 *
 * A schedule compiled to C for one *shape*: the kinds of its steps, the
 * class and block of each block, the form of each copy, the body of each
 * repeat and the units of each fused loop, written as the words that
 * schedule_has_shape (mofmu_resource.inc) compares with a loaded
 * schedule. Counts, offsets, strides and skews stay data, read from the
 * loaded system, so one compiled schedule serves every size. The runtime
 * runs it in place of its interpreter when the loaded schedule has its
 * shape, and interprets otherwise; both give the same bits. */
/* The passes of a tearing solve (src/fmu/image/responses.rs, `pass`), as bits
 * of mofmu_step.reached: the final pass with the balances found, and the
 * tangent passes of directional derivatives, run the steps a balance
 * reaches (REACHED); the tangent passes of the tearing matrix those of
 * them a residual depends on (COLUMNS); the first pass, at zero balances,
 * every step but those a balance reaches and no residual depends on, whose
 * values only the final pass gives (FIRST). */
#define MOFMU_PASS_REACHED 1
#define MOFMU_PASS_COLUMNS 2
#define MOFMU_PASS_FIRST 4

struct mofmu_system;
typedef void (*mofmu_schedule_fn)(const struct mofmu_system *sys, double *R, double *dR,
                                  mofmu_ctx *ctx, int reached);
typedef struct mofmu_compiled_schedule {
    const uint32_t *shape;
    size_t shape_len;
    /* Runs the schedule (dR NULL) or its tangent; with `reached` nonzero
     * (one of MOFMU_PASS_*), only the steps whose mofmu_step.reached has
     * that bit: what the interpreter's run_schedule_or_tangent does, to
     * the bit. */
    mofmu_schedule_fn run;
} mofmu_compiled_schedule;

/* The model's compiled schedule, or NULL when it was exported with the
 * interpreted tier. */
extern const mofmu_compiled_schedule *const mofmu_compiled;

/* ---- The system, loaded by the runtime from resources/mofmu_system.bin ----
 *
 * The file format is documented in docs/fmu.md ("The system resource"). */

/* One step of the schedule. */
enum {
    MOFMU_STEP_TIME = 0,
    MOFMU_STEP_BLOCK = 1,
    MOFMU_STEP_COPY = 2,
    MOFMU_STEP_REPEAT = 3,
    MOFMU_STEP_FUSE = 4
};

typedef struct mofmu_step {
    uint32_t tag;
    /* TIME: R[target] = time. BLOCK: block `block` of instance `instance`.
     * COPY: R[target + e] = coefficient * (sum of the signed sources
     * R[source + e]) for e < len. REPEAT: the next `body` steps, `count`
     * times; in round r (from 0) a BLOCK's instance and a COPY's target
     * and sources are advanced by r times their strides. FUSE: the next
     * `count` units (a repeat with its body, or one block or copy), which
     * span the next `body` steps, run as one loop of `len` rounds (both
     * found at loading), unit u's round r in the loop's round
     * r + fuse_skew[first_source + u], the units of a round in order. */
    uint32_t target;
    uint32_t len;
    uint32_t instance;
    uint32_t block;
    int32_t stride;
    uint32_t count;
    uint32_t body;
    /* COPY: sources first_source .. first_source + n_sources - 1 of the
     * system's source tables. */
    uint32_t first_source;
    uint32_t n_sources;
    double coefficient;
    /* BLOCK, resolved at loading: the kernel's block, its tangent and the
     * instance. */
    mofmu_block_fn fn;
    mofmu_tangent_fn tangent;
    const mofmu_inst *inst;
    /* BLOCK in a repeat whose instances lie `real_stride` reals apart
     * (found at loading): the batched entries (which run the whole repeat
     * when the block is alone in it), else NULL. REPEAT: nonzero when its body of copies may run step by
     * step, each over every round (no step writes what another reads or
     * writes), instead of round by round. */
    mofmu_block_n_fn fn_n;
    mofmu_tangent_n_fn tangent_n;
    ptrdiff_t real_stride;
    /* BLOCK with fn_n: bit s set when slot s (a shareable one) lies at
     * the same offset in every round, not real_stride on. */
    uint64_t fixed;
    int by_step;
    /* The passes of a tearing solve that run the step (MOFMU_PASS_* bits;
     * a repeat or fused loop: those of the steps it holds). A model
     * without balances runs every step in its one pass. */
    unsigned char reached;
} mofmu_step;

typedef struct mofmu_system {
    /* The GUID the FMU was exported with (NUL-terminated). */
    char *guid;
    size_t n_reals;
    size_t n_integers;
    size_t n_booleans;
    size_t n_states;
    size_t n_event_indicators;
    size_t n_relations;
    size_t n_balances;
    size_t n_instances;
    size_t n_steps;
    /* Doubles of scratch memory the tearing solve needs per instance:
     * n_reals + n_balances^2 + n_balances when there are balances, else 0. */
    size_t scratch_size;
    /* Start value of every real (NaN where a variable has none). */
    double *real_start;
    /* MOFMU_KIND_* of every real. */
    unsigned char *real_kind;
    /* Flat names, NUL-terminated in `names`: real i is names + real_name_at[i]. */
    char *names;
    uint32_t *real_name_at;
    /* Values of the Integer and Boolean parameters (constants); a discrete
     * variable's value lives in R, at integer_real[vr] (boolean_real[vr]),
     * which is MOFMU_NOT_IN_R for a parameter. */
    int64_t *integer_value;
    unsigned char *boolean_value;
    uint32_t *integer_real;
    uint32_t *boolean_real;
    /* Value references of the states and of their derivatives, in state order. */
    uint32_t *state_vr;
    uint32_t *derivative_vr;
    /* The instances (their `name`, `off`, `ints` and `own_binding` point
     * into the pools below) and the class of each. */
    mofmu_inst *instances;
    uint32_t *instance_class;
    int32_t *off_pool;
    int64_t *ints_pool;
    unsigned char *own_pool;
    /* The schedule, and the sources of its copies. */
    mofmu_step *steps;
    uint32_t *source_offset;
    int32_t *source_stride;
    unsigned char *source_negative;
    /* The skews of the fused loops' units (see MOFMU_STEP_FUSE). */
    uint32_t *fuse_skew;
    /* Declared tearing: the balances of the linear responses (value
     * references), the residuals that must vanish (in the same order) and
     * the responses' names (offsets into `names`). The residuals are affine
     * in the balances (checked at export, MC066). */
    uint32_t *balance_vr;
    uint32_t *residual_vr;
    uint32_t *balance_name_at;
    /* The pattern of d(der x)/dx, row i (state i's derivative) in compressed
     * form: the states jac_col[jac_row_start[i] .. jac_row_start[i + 1]),
     * ascending, unless jac_full_row[i] says the row depends on every state
     * (then it lists none). The Co-Simulation solver colours and orders the
     * Jacobian's columns from it. */
    size_t *jac_row_start;
    uint32_t *jac_col;
    unsigned char *jac_full_row;
    /* mofmu_compiled when the schedule has its shape (found at loading),
     * else NULL: the schedule is interpreted. */
    const mofmu_compiled_schedule *compiled;
    /* 1 for the system loaded from the FMU's own resource, the one its
     * compiled schedule was generated for: only there may an evaluation be
     * lean (mofmu_ctx.lean), since which stores it leaves out was found on
     * that system. 0 for one a structural parameter laid out at another
     * size. */
    int lean_ok;
    /* The path of resources/mofmu_locations.txt until it is read, and then
     * its table: where each class's blocks come from in the Modelica
     * source, read only to explain a failure (mofmu_locations.inc). */
    char *locations_path;
    struct mofmu_locations *locations;
} mofmu_system;

/* Reads `resource_location`/mofmu_system.bin (a file: URI or a plain
 * directory) and checks it against this binary's classes. Returns NULL with
 * a message in `error` when the file is missing, unreadable, corrupt or
 * made for another binary. */
mofmu_system *mofmu_system_load(const char *resource_location, char *error, size_t error_size);
void mofmu_system_free(mofmu_system *system);

#endif
