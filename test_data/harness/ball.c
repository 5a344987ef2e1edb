/* A bouncing ball: h' = v, v' = -g, event indicator h. At an impact (h <= 0 while
 * falling) the event update sets h = 0 and v = -e v, like Modelica's reinit.
 * First impact from h0 at rest: t1 = sqrt(2 h0 / g); impact k + 1 follows impact k
 * after 2 e^k t1.
 * Value references: 0 h, 1 v, 2 der(h), 3 der(v), 4 g, 5 e. */
#define N_REALS 6
#define N_STATES 2
#define N_INDICATORS 1
#define STATE_VRS {0, 1}
#define DERIVATIVE_VRS {2, 3}
#include "test_fmu.h"

static void model_start(Model *m) {
    m->r[0] = 1.0;
    m->r[1] = 0.0;
    m->r[4] = 9.81;
    m->r[5] = 0.7;
}

static void model_compute(Model *m) {
    m->r[2] = m->r[1];
    m->r[3] = -m->r[4];
}

static void model_indicators(Model *m, double *z) { z[0] = m->r[0]; }

static void model_event(Model *m, fmi2EventInfo *info) {
    if (m->r[0] <= 0.0 && m->r[1] < 0.0) {
        m->r[0] = 0.0;
        m->r[1] = -m->r[5] * m->r[1];
        info->valuesOfContinuousStatesChanged = 1;
    }
}
