/* A hand-written stand-in for a generated system file, used to test the
 * static runtime (templates/mofmu_runtime.c) without the code generator.
 *
 * The model (value references in brackets):
 *   parameter Real k = 2                        [2]
 *   parameter Real x0v = 0.5                    [3]
 *   final parameter Real k2 = 2*k               [4]  calculated parameter
 *   constant Real c = 3                         [11]
 *   constant Integer n = 2                      Integer [0]
 *   input Real u = 0                            [9]
 *   ContinuousState x(start = 1)                [0]  der(x) [5]
 *   ContinuousState v(start = x0v)              [1]  der(v) [6]
 *   der(x) = -k*x;
 *   der(v) = (if time < 0.5 then 0 else -v) + 0*sqrt(u + 50);
 *   output Real y = x + v + u                   [7]
 *   output Real high = if x > 0.3 then 1 else 0 [8]  event indicator 0
 *   Real w = k2*x + time                        [10] local
 * and, to exercise failures, evaluation fails when u < -100 and der(v) is
 * NaN when -100 <= u < -50. */
#include <math.h>

#include "mofmu_model.h"

const char mofmu_model_identifier[] = "FakeSystem";

/* The schedule is interpreted. */
const mofmu_compiled_schedule *const mofmu_compiled = 0;

/* The tables of the model (starts, kinds, names, states, one instance and
 * a schedule of one block) are in the system resource the test writes
 * (tests/it/runtime.rs, fake_system_image). */
enum { X, V, K, X0V, K2, DER_X, DER_V, Y, HIGH, U, W, C };

static void fake_params(double *R, const mofmu_inst *in, mofmu_ctx *ctx)
{
    (void)in;
    (void)ctx;
    R[K2] = 2.0 * R[K];
    R[V] = R[X0V];
}

static void fake_starts(double *R, const mofmu_inst *in, mofmu_ctx *ctx)
{
    (void)R;
    (void)in;
    (void)ctx;
}

/* How often fake_block ran, for the driver to see when the runtime evaluates
 * (the one symbol of the model it may see). */
__attribute__((visibility("default"))) long fake_block_calls;

/* The whole model as one block. This fake keeps a state, not the time, in
 * R[0], so its schedule has no time step. */
static void fake_block(double *R, const mofmu_inst *in, mofmu_ctx *ctx)
{
    int before_switch;
    (void)in;
    fake_block_calls++;
    if (R[U] < -100.0) {
        mofmu_fail(ctx, "source", "input u must not be below -100");
        return;
    }
    R[DER_X] = -R[K] * R[X];
    before_switch = mofmu_time_relation(ctx, 0, MOFMU_LT, 0.5);
    R[DER_V] = (before_switch ? 0.0 : -R[V]) + 0.0 * sqrt(R[U] + 50.0);
    R[Y] = R[X] + R[V] + R[U];
    R[HIGH] = mofmu_relation(ctx, 1, 0, MOFMU_GT, R[X], 0.3) ? 1.0 : 0.0;
    R[W] = R[K2] * R[X] + ctx->time;
}

/* Tangent of fake_block (the relations keep their frozen values). */
static void fake_block_t(const double *R, double *dR, const mofmu_inst *in, mofmu_ctx *ctx)
{
    int before_switch = ctx->relations[0];
    (void)in;
    dR[DER_X] = -R[K] * dR[X];
    dR[DER_V] = before_switch ? 0.0 : -dR[V];
    dR[Y] = dR[X] + dR[V] + dR[U];
    dR[HIGH] = 0.0;
    dR[W] = R[K2] * dR[X];
}

static const mofmu_block_fn fake_blocks[] = {fake_block};
static const mofmu_tangent_fn fake_tangents[] = {fake_block_t};

const size_t mofmu_n_classes = 1;
const mofmu_class mofmu_classes[] = {
    /* No batched entries: the runtime calls the block one instance at a time. */
    {"FakeSystem", fake_params, fake_starts, 1, fake_blocks, fake_tangents, 0, 0, 0, NULL, NULL,
     NULL, 0},
};
