/* No states: an output y = sin(w t) computed from time alone.
 * Value references: 0 y, 1 w. */
#define N_REALS 2
#define N_STATES 0
#define N_INDICATORS 0
#define STATE_VR(i) 0
#define DERIVATIVE_VR(i) 0
#include "test_fmu.h"

static void model_start(Model *m) { m->r[1] = 2.0; }
static void model_compute(Model *m) { m->r[0] = sin(m->r[1] * m->time); }
static void model_indicators(Model *m, double *z) { (void)m; (void)z; }
static void model_event(Model *m, fmi2EventInfo *info) { (void)m; (void)info; }
