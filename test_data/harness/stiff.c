/* A stiff linear system x' = A x with eigenvalues -1 and -1e5:
 *   A = 1/2 [[l1 + l2, l1 - l2], [l1 - l2, l1 + l2]], l1 = -1, l2 = -1e5,
 * eigenvectors (1, 1) and (1, -1). From x(0) = (1, 0):
 *   x1 = (exp(l1 t) + exp(l2 t)) / 2,  x2 = (exp(l1 t) - exp(l2 t)) / 2.
 * Value references: 0 x1, 1 x2, 2 der(x1), 3 der(x2). */
#define N_REALS 4
#define N_STATES 2
#define N_INDICATORS 0
#define STATE_VRS {0, 1}
#define DERIVATIVE_VRS {2, 3}
#include "test_fmu.h"

static const double l1 = -1.0;
static const double l2 = -1.0e5;

static void model_start(Model *m) {
    m->r[0] = 1.0;
    m->r[1] = 0.0;
}

static void model_compute(Model *m) {
    double a = 0.5 * (l1 + l2);
    double b = 0.5 * (l1 - l2);
    m->r[2] = a * m->r[0] + b * m->r[1];
    m->r[3] = b * m->r[0] + a * m->r[1];
}

static void model_indicators(Model *m, double *z) { (void)m; (void)z; }
static void model_event(Model *m, fmi2EventInfo *info) { (void)m; (void)info; }
