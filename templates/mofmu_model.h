/* The narrow interface between the static FMI runtime (mofmu_runtime.c)
 * and the code mofmu generates for one model (class kernels and the system
 * file). Generated code never calls the FMI API; the runtime never knows a
 * class. Everything here is plain C99 with no global mutable state: all
 * run-time data lives in the arrays the runtime allocates per instance. */
#ifndef MOFMU_MODEL_H
#define MOFMU_MODEL_H

#include <stddef.h>
#include <stdint.h>

/* Evaluation context passed to every generated function. */
typedef struct mofmu_ctx {
    /* Current simulation time. */
    double time;
    /* Nonzero in initialization and event mode: relations are re-evaluated
     * and their new values stored in `relations`. Zero in continuous-time
     * mode: relations return their frozen values. */
    int event_mode;
    /* Smallest time event strictly after `time` found while evaluating in
     * event mode; the runtime sets it to INFINITY before each evaluation. */
    double next_time_event;
    /* Frozen relation values, one byte per relation slot. */
    unsigned char *relations;
    /* Event indicator values written during evaluation, or NULL when the
     * caller does not want them. */
    double *indicators;
    /* mofmu_scratch_size doubles owned by the instance, used by the runtime
     * to solve linear responses. */
    double *scratch;
    /* Set by mofmu_fail: evaluation stops being trusted and the runtime
     * returns fmi2Error with `message`. */
    int failed;
    char message[512];
} mofmu_ctx;

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

/* A relation between continuous-time values: frozen outside event mode,
 * and `a - b` is reported as event indicator `indicator` (when >= 0). */
int mofmu_relation(mofmu_ctx *ctx, int32_t slot, int32_t indicator, int op, double a, double b);

/* A relation between `time` and a threshold that does not change between
 * events: frozen outside event mode, and the threshold becomes the next
 * time event when it lies after the current time. `time > T` is treated as
 * `time >= T` at the event instant (and `<=` as `<`), so a time event never
 * needs to happen "just after" an instant. */
int mofmu_time_relation(mofmu_ctx *ctx, int32_t slot, int op, double threshold);

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

/* ---- Provided by the generated system file (one per model) ---- */
extern const char mofmu_model_identifier[];
extern const char mofmu_guid[];
extern const size_t mofmu_n_reals;
extern const size_t mofmu_n_integers;
extern const size_t mofmu_n_states;
extern const size_t mofmu_n_event_indicators;
extern const size_t mofmu_n_relations;
/* Doubles of scratch memory the tearing solve needs per instance:
 * n_reals + n_balances^2 + n_balances when there are balances, else 0. */
extern const size_t mofmu_scratch_size;
/* Start value of every real (NaN where a variable has none). */
extern const double mofmu_real_start[];
/* MOFMU_KIND_* of every real. */
extern const unsigned char mofmu_real_kind[];
/* Flat names of the reals, for messages. */
extern const char *const mofmu_real_name[];
/* Values of the Integer variables (all constants). */
extern const int64_t mofmu_integer_value[];
/* Values of the Boolean variables (all constants). */
extern const size_t mofmu_n_booleans;
extern const unsigned char mofmu_boolean_value[];
/* Value references of the states and of their derivatives, in state order. */
extern const uint32_t mofmu_state_vr[];
extern const uint32_t mofmu_derivative_vr[];

/* Computes calculated parameters, then the start values of states whose
 * start is an expression of parameters. Called by the runtime before the
 * first evaluation after a parameter or start value changed, only while the
 * FMU is instantiated or initializing. */
void mofmu_compute_parameters(double *R, mofmu_ctx *ctx);

/* Declared tearing: the balances of the linear responses (value
 * references), the residuals that must vanish (in the same order) and the
 * responses' names for messages. The runtime chooses the balances: the
 * residuals are affine in them (checked at export, MC066). */
extern const size_t mofmu_n_balances;
extern const uint32_t mofmu_balance_vr[];
extern const uint32_t mofmu_residual_vr[];
extern const char *const mofmu_balance_name[];

/* Sets R[0] to the time and runs the block schedule once: every output,
 * local, derivative and residual from time, states, inputs, parameters and
 * the balances as they stand. */
void mofmu_schedule(double *R, mofmu_ctx *ctx);

/* The schedule's tangent at the point R: dR holds the tangents of the
 * states, inputs and balances (zero where not seeded) and receives the
 * tangents of every variable the schedule computes. */
void mofmu_schedule_tangent(const double *R, double *dR, mofmu_ctx *ctx);

#endif
