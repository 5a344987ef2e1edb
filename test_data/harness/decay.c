/* Exponential decay dx/dt = -k x with output y = 2 x. The rate is k1 until a time
 * event at t_switch, then k2. Closed form: x = exp(-k1 t) before, and
 * exp(-k1 t_switch) exp(-k2 (t - t_switch)) after.
 * Value references: 0 x, 1 der(x), 2 y, 3 k1, 4 k2, 5 t_switch, 6 phase (internal). */
#define N_REALS 7
#define N_STATES 1
#define N_INDICATORS 0
#define STATE_VRS {0}
#define DERIVATIVE_VRS {1}
#include "test_fmu.h"

static void model_start(Model *m) {
    m->r[0] = 1.0;
    m->r[3] = 1.0;
    m->r[4] = 2.0;
    m->r[5] = 0.5;
    m->r[6] = 0.0;
}

static void model_compute(Model *m) {
    double k = m->r[6] > 0.5 ? m->r[4] : m->r[3];
    m->r[1] = -k * m->r[0];
    m->r[2] = 2.0 * m->r[0];
}

static void model_indicators(Model *m, double *z) { (void)m; (void)z; }

static void model_event(Model *m, fmi2EventInfo *info) {
    if (m->time >= m->r[5]) {
        m->r[6] = 1.0;
    } else {
        info->nextEventTimeDefined = 1;
        info->nextEventTime = m->r[5];
    }
}
