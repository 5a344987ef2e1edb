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
const char mofmu_guid[] = "{6d6f666d-7566-616b-6573-797374656d31}";

const size_t mofmu_n_reals = 12;
const size_t mofmu_n_integers = 1;
const size_t mofmu_n_states = 2;
const size_t mofmu_n_event_indicators = 1;
const size_t mofmu_n_relations = 2;
const size_t mofmu_scratch_size = 0;
const size_t mofmu_n_booleans = 0;
const unsigned char mofmu_boolean_value[] = {0};

const double mofmu_real_start[] = {
    1.0, NAN, 2.0, 0.5, NAN, NAN, NAN, NAN, NAN, 0.0, NAN, 3.0,
};

const unsigned char mofmu_real_kind[] = {
    MOFMU_KIND_STATE,      MOFMU_KIND_STATE_CALCULATED, MOFMU_KIND_PARAMETER,
    MOFMU_KIND_PARAMETER,  MOFMU_KIND_CALCULATED_PARAMETER, MOFMU_KIND_DERIVATIVE,
    MOFMU_KIND_DERIVATIVE, MOFMU_KIND_OUTPUT,           MOFMU_KIND_OUTPUT,
    MOFMU_KIND_INPUT,      MOFMU_KIND_LOCAL,            MOFMU_KIND_CONSTANT,
};

const char *const mofmu_real_name[] = {
    "x", "v", "k", "x0v", "k2", "der(x)", "der(v)", "y", "high", "u", "w", "c",
};

const int64_t mofmu_integer_value[] = {2};

const uint32_t mofmu_state_vr[] = {0, 1};
const uint32_t mofmu_derivative_vr[] = {5, 6};

enum { X, V, K, X0V, K2, DER_X, DER_V, Y, HIGH, U, W, C };

void mofmu_compute_parameters(double *R, mofmu_ctx *ctx)
{
    (void)ctx;
    R[K2] = 2.0 * R[K];
    R[V] = R[X0V];
}

const size_t mofmu_n_balances = 0;
const uint32_t mofmu_balance_vr[] = {0};
const uint32_t mofmu_residual_vr[] = {0};
const char *const mofmu_balance_name[] = {""};

/* This fake keeps a state, not the time, in R[0]. */
void mofmu_schedule(double *R, mofmu_ctx *ctx)
{
    int before_switch;
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

/* Tangent of mofmu_schedule (the relations keep their frozen values). */
void mofmu_schedule_tangent(const double *R, double *dR, mofmu_ctx *ctx)
{
    int before_switch = ctx->relations[0];
    dR[DER_X] = -R[K] * dR[X];
    dR[DER_V] = before_switch ? 0.0 : -dR[V];
    dR[Y] = dR[X] + dR[V] + dR[U];
    dR[HIGH] = 0.0;
    dR[W] = R[K2] * dR[X];
}
