/* A minimal FMI 3.0 frame for the harness's hand-written FMI 3 test FMUs (FMUs
 * that mofmu did not write): the
 * whole FMI 3.0 API (what a model does not offer answers fmi3Error), Model
 * Exchange and, with HAS_CS, Co-Simulation; with NO_ME, Co-Simulation only.
 *
 * The including file defines N_REALS (room for every Float64 element at the
 * largest size), and after including this file the hooks declared below.
 * Every Float64 element is r[valueReference + k]: an array is named by its
 * first element's value reference and its elements follow it. With
 * STRUCTURAL_VR the model has one structural parameter, a UInt64 `n` at
 * that value reference (between N_MIN and N_MAX), set in configuration mode.
 * FMI 3.0's types are written out here rather than taken from the standard's
 * headers. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef void *fmi3Instance;
typedef void *fmi3InstanceEnvironment;
typedef void *fmi3FMUState;
typedef uint32_t fmi3ValueReference;
typedef enum { fmi3OK, fmi3Warning, fmi3Discard, fmi3Error, fmi3Fatal } fmi3Status;
typedef void (*fmi3LogMessageCallback)(fmi3InstanceEnvironment, fmi3Status, const char *,
                                       const char *);

#define EXPORT __attribute__((visibility("default")))

enum { S_INSTANTIATED, S_CONFIGURATION, S_INIT, S_EVENT, S_CONTINUOUS, S_STEP, S_TERMINATED };

typedef struct {
    int cs;
    int state;
    double time;
    double r[N_REALS];
    uint64_t n;
    fmi3LogMessageCallback log;
    fmi3InstanceEnvironment env;
} Model;

/* Hooks of the including model. */
static void model_start(Model *m);                   /* start values at size m->n */
static size_t model_length(const Model *m, fmi3ValueReference vr); /* 0: no Float64 */
static size_t model_states(const Model *m);          /* continuous states */
static fmi3ValueReference model_state_vr(const Model *m, size_t i);
static fmi3ValueReference model_derivative_vr(const Model *m, size_t i);
static void model_compute(Model *m);                 /* derivatives, outputs */
static size_t model_indicators(const Model *m, double *z); /* writes them, returns count */
static int model_event(Model *m);                    /* discrete update; 1: states changed */
static double model_next_event(const Model *m);      /* next time event, INFINITY: none */
static void model_step(Model *m, double h);          /* Co-Simulation: advance by h */

static fmi3Status fail(Model *m, const char *function, const char *why)
{
    if (m != NULL && m->log != NULL) m->log(m->env, fmi3Error, "logStatusError", why);
    (void)function;
    return fmi3Error;
}

#define MODEL(instance) ((Model *)(instance))

static fmi3Instance instantiate(int cs, fmi3InstanceEnvironment env, fmi3LogMessageCallback log)
{
    Model *m = (Model *)calloc(1, sizeof *m);
    if (m == NULL) return NULL;
    m->cs = cs;
    m->log = log;
    m->env = env;
#ifdef STRUCTURAL_VR
    m->n = N_START;
#endif
    model_start(m);
    return m;
}

EXPORT const char *fmi3GetVersion(void) { return "3.0"; }

EXPORT fmi3Status fmi3SetDebugLogging(fmi3Instance i, bool on, size_t n, const char *const c[])
{
    (void)i; (void)on; (void)n; (void)c;
    return fmi3OK;
}

/* Both instantiation functions are exported whatever the model offers
 * (importers such as FMPy resolve every function of the API); the one of an
 * interface the description does not declare answers NULL. */
EXPORT fmi3Instance fmi3InstantiateModelExchange(const char *name, const char *token,
                                                 const char *resources, bool visible,
                                                 bool logging, fmi3InstanceEnvironment env,
                                                 fmi3LogMessageCallback log)
{
    (void)name; (void)token; (void)resources; (void)visible; (void)logging;
#ifdef NO_ME
    if (log != NULL) log(env, fmi3Error, "logStatusError", "no Model Exchange in this FMU");
    return NULL;
#else
    return instantiate(0, env, log);
#endif
}

EXPORT fmi3Instance fmi3InstantiateCoSimulation(
    const char *name, const char *token, const char *resources, bool visible, bool logging,
    bool eventModeUsed, bool earlyReturnAllowed, const fmi3ValueReference required[],
    size_t nRequired, fmi3InstanceEnvironment env, fmi3LogMessageCallback log,
    void *intermediateUpdate)
{
    (void)name; (void)token; (void)resources; (void)visible; (void)logging;
    (void)earlyReturnAllowed; (void)required; (void)nRequired; (void)intermediateUpdate;
#ifdef HAS_CS
    if (eventModeUsed) return NULL;
    return instantiate(1, env, log);
#else
    (void)eventModeUsed;
    if (log != NULL) log(env, fmi3Error, "logStatusError", "no Co-Simulation in this FMU");
    return NULL;
#endif
}

EXPORT fmi3Instance fmi3InstantiateScheduledExecution(void) { return NULL; }

EXPORT void fmi3FreeInstance(fmi3Instance i) { free(i); }

EXPORT fmi3Status fmi3EnterConfigurationMode(fmi3Instance i)
{
#ifdef STRUCTURAL_VR
    if (MODEL(i)->state != S_INSTANTIATED) return fail(MODEL(i), "", "fmi3EnterConfigurationMode: not in Instantiated");
    MODEL(i)->state = S_CONFIGURATION;
    return fmi3OK;
#else
    return fail(MODEL(i), "", "fmi3EnterConfigurationMode: no structural parameters");
#endif
}

EXPORT fmi3Status fmi3ExitConfigurationMode(fmi3Instance i)
{
    if (MODEL(i)->state != S_CONFIGURATION) return fail(MODEL(i), "", "fmi3ExitConfigurationMode: not in configuration mode");
    MODEL(i)->state = S_INSTANTIATED;
    model_start(MODEL(i));
    return fmi3OK;
}

EXPORT fmi3Status fmi3EnterInitializationMode(fmi3Instance i, bool tolDefined, double tol,
                                              double start, bool stopDefined, double stop)
{
    Model *m = MODEL(i);
    (void)tolDefined; (void)tol; (void)stopDefined; (void)stop;
    if (m->state != S_INSTANTIATED) return fail(m, "", "fmi3EnterInitializationMode: not in Instantiated");
    m->time = start;
    m->state = S_INIT;
    return fmi3OK;
}

EXPORT fmi3Status fmi3ExitInitializationMode(fmi3Instance i)
{
    Model *m = MODEL(i);
    if (m->state != S_INIT) return fail(m, "", "fmi3ExitInitializationMode: not in initialization mode");
    model_compute(m);
    m->state = m->cs ? S_STEP : S_EVENT;
    return fmi3OK;
}

EXPORT fmi3Status fmi3EnterEventMode(fmi3Instance i)
{
    if (MODEL(i)->cs) return fail(MODEL(i), "", "fmi3EnterEventMode: no event mode in Co-Simulation");
    MODEL(i)->state = S_EVENT;
    return fmi3OK;
}

EXPORT fmi3Status fmi3Terminate(fmi3Instance i)
{
    MODEL(i)->state = S_TERMINATED;
    return fmi3OK;
}

EXPORT fmi3Status fmi3Reset(fmi3Instance i)
{
    Model *m = MODEL(i);
    m->state = S_INSTANTIATED;
    m->time = 0;
#ifdef STRUCTURAL_VR
    m->n = N_START;
#endif
    model_start(m);
    return fmi3OK;
}

EXPORT fmi3Status fmi3GetFloat64(fmi3Instance i, const fmi3ValueReference vr[], size_t nvr,
                                 double values[], size_t nValues)
{
    Model *m = MODEL(i);
    size_t k, at = 0;
    if (m->state != S_INSTANTIATED && m->state != S_CONFIGURATION) model_compute(m);
    for (k = 0; k < nvr; k++) {
        size_t len = vr[k] == 0 ? 1 : model_length(m, vr[k]);
        if (len == 0 || at + len > nValues) return fail(m, "", "fmi3GetFloat64: bad value reference or nValues");
        if (vr[k] == 0) values[at] = m->time;
        else memcpy(values + at, m->r + vr[k], len * sizeof *values);
        at += len;
    }
    return at == nValues ? fmi3OK : fail(m, "", "fmi3GetFloat64: nValues");
}

EXPORT fmi3Status fmi3SetFloat64(fmi3Instance i, const fmi3ValueReference vr[], size_t nvr,
                                 const double values[], size_t nValues)
{
    Model *m = MODEL(i);
    size_t k, at = 0;
    for (k = 0; k < nvr; k++) {
        size_t len = model_length(m, vr[k]);
        if (vr[k] == 0 || len == 0 || at + len > nValues) return fail(m, "", "fmi3SetFloat64: bad value reference or nValues");
        memcpy(m->r + vr[k], values + at, len * sizeof *values);
        at += len;
    }
    return at == nValues ? fmi3OK : fail(m, "", "fmi3SetFloat64: nValues");
}

EXPORT fmi3Status fmi3GetUInt64(fmi3Instance i, const fmi3ValueReference vr[], size_t nvr,
                                uint64_t values[], size_t nValues)
{
    size_t k;
    (void)vr; (void)values; (void)nValues;
    for (k = 0; k < nvr; k++) {
#ifdef STRUCTURAL_VR
        if (vr[k] == STRUCTURAL_VR) {
            values[k] = MODEL(i)->n;
            continue;
        }
#endif
        return fail(MODEL(i), "", "fmi3GetUInt64: no such variable");
    }
    return fmi3OK;
}

EXPORT fmi3Status fmi3SetUInt64(fmi3Instance i, const fmi3ValueReference vr[], size_t nvr,
                                const uint64_t values[], size_t nValues)
{
    size_t k;
    (void)vr; (void)values; (void)nValues;
    for (k = 0; k < nvr; k++) {
#ifdef STRUCTURAL_VR
        if (vr[k] == STRUCTURAL_VR && MODEL(i)->state == S_CONFIGURATION &&
            values[k] >= N_MIN && values[k] <= N_MAX) {
            MODEL(i)->n = values[k];
            continue;
        }
#endif
        return fail(MODEL(i), "", "fmi3SetUInt64: not settable");
    }
    return fmi3OK;
}

/* The other types: this frame's models have no variables of them. */
#define ABSENT(Name, T)                                                                        \
    EXPORT fmi3Status fmi3Get##Name(fmi3Instance i, const fmi3ValueReference vr[], size_t n,  \
                                    T v[], size_t nv)                                          \
    {                                                                                          \
        (void)vr; (void)v; (void)nv;                                                           \
        return n == 0 ? fmi3OK : fail(MODEL(i), "", "fmi3Get" #Name ": no such variable");    \
    }                                                                                          \
    EXPORT fmi3Status fmi3Set##Name(fmi3Instance i, const fmi3ValueReference vr[], size_t n,  \
                                    const T v[], size_t nv)                                    \
    {                                                                                          \
        (void)vr; (void)v; (void)nv;                                                           \
        return n == 0 ? fmi3OK : fail(MODEL(i), "", "fmi3Set" #Name ": no such variable");    \
    }
ABSENT(Float32, float)
ABSENT(Int8, int8_t)
ABSENT(UInt8, uint8_t)
ABSENT(Int16, int16_t)
ABSENT(UInt16, uint16_t)
ABSENT(Int32, int32_t)
ABSENT(UInt32, uint32_t)
ABSENT(Int64, int64_t)
ABSENT(Boolean, bool)
ABSENT(String, const char *)

/* Not offered: each answers fmi3Error. Declared with the instance only: the
 * caller's other arguments go unread. */
#define REFUSE(Name)                                                                           \
    EXPORT fmi3Status fmi3##Name(fmi3Instance i) { return fail(MODEL(i), "", "fmi3" #Name ": not offered"); }
REFUSE(GetBinary)
REFUSE(SetBinary)
REFUSE(GetClock)
REFUSE(SetClock)
REFUSE(GetFMUState)
REFUSE(SetFMUState)
REFUSE(FreeFMUState)
REFUSE(SerializedFMUStateSize)
REFUSE(SerializeFMUState)
REFUSE(DeserializeFMUState)
REFUSE(GetDirectionalDerivative)
REFUSE(GetAdjointDerivative)
REFUSE(GetOutputDerivatives)
REFUSE(GetNumberOfVariableDependencies)
REFUSE(GetVariableDependencies)
REFUSE(GetIntervalDecimal)
REFUSE(GetIntervalFraction)
REFUSE(GetShiftDecimal)
REFUSE(GetShiftFraction)
REFUSE(SetIntervalDecimal)
REFUSE(SetIntervalFraction)
REFUSE(SetShiftDecimal)
REFUSE(SetShiftFraction)
REFUSE(EvaluateDiscreteStates)
REFUSE(ActivateModelPartition)
REFUSE(EnterStepMode)

EXPORT fmi3Status fmi3UpdateDiscreteStates(fmi3Instance i, bool *update, bool *terminate,
                                           bool *nominals, bool *values, bool *defined,
                                           double *next)
{
    Model *m = MODEL(i);
    double te;
    if (m->state != S_EVENT) return fail(m, "", "fmi3UpdateDiscreteStates: not in event mode");
    *values = model_event(m) != 0;
    *update = false;
    *terminate = false;
    *nominals = false;
    te = model_next_event(m);
    *defined = isfinite(te);
    *next = *defined ? te : 0.0;
    return fmi3OK;
}

EXPORT fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance i)
{
    if (MODEL(i)->state != S_EVENT) return fail(MODEL(i), "", "fmi3EnterContinuousTimeMode: not in event mode");
    MODEL(i)->state = S_CONTINUOUS;
    return fmi3OK;
}

EXPORT fmi3Status fmi3CompletedIntegratorStep(fmi3Instance i, bool noSet, bool *event,
                                              bool *terminate)
{
    (void)i; (void)noSet;
    *event = false;
    *terminate = false;
    return fmi3OK;
}

EXPORT fmi3Status fmi3SetTime(fmi3Instance i, double t)
{
    MODEL(i)->time = t;
    return fmi3OK;
}

EXPORT fmi3Status fmi3SetContinuousStates(fmi3Instance i, const double x[], size_t nx)
{
    Model *m = MODEL(i);
    size_t k;
    if (nx != model_states(m)) return fail(m, "", "fmi3SetContinuousStates: wrong count");
    for (k = 0; k < nx; k++) m->r[model_state_vr(m, k)] = x[k];
    return fmi3OK;
}

EXPORT fmi3Status fmi3GetContinuousStates(fmi3Instance i, double x[], size_t nx)
{
    Model *m = MODEL(i);
    size_t k;
    if (nx != model_states(m)) return fail(m, "", "fmi3GetContinuousStates: wrong count");
    for (k = 0; k < nx; k++) x[k] = m->r[model_state_vr(m, k)];
    return fmi3OK;
}

EXPORT fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance i, double dx[], size_t nx)
{
    Model *m = MODEL(i);
    size_t k;
    if (nx != model_states(m)) return fail(m, "", "fmi3GetContinuousStateDerivatives: wrong count");
    model_compute(m);
    for (k = 0; k < nx; k++) dx[k] = m->r[model_derivative_vr(m, k)];
    return fmi3OK;
}

EXPORT fmi3Status fmi3GetNominalsOfContinuousStates(fmi3Instance i, double x[], size_t nx)
{
    size_t k;
    (void)i;
    for (k = 0; k < nx; k++) x[k] = 1.0;
    return fmi3OK;
}

EXPORT fmi3Status fmi3GetEventIndicators(fmi3Instance i, double z[], size_t nz)
{
    Model *m = MODEL(i);
    double all[16];
    size_t n = model_indicators(m, all);
    if (nz != n) return fail(m, "", "fmi3GetEventIndicators: wrong count");
    memcpy(z, all, n * sizeof *z);
    return fmi3OK;
}

EXPORT fmi3Status fmi3GetNumberOfEventIndicators(fmi3Instance i, size_t *n)
{
    double all[16];
    *n = model_indicators(MODEL(i), all);
    return fmi3OK;
}

EXPORT fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance i, size_t *n)
{
    *n = model_states(MODEL(i));
    return fmi3OK;
}

EXPORT fmi3Status fmi3DoStep(fmi3Instance i, double t, double h, bool noSet, bool *event,
                             bool *terminate, bool *early, double *last)
{
    Model *m = MODEL(i);
    (void)noSet;
    if (!m->cs || m->state != S_STEP) return fail(m, "", "fmi3DoStep: not in step mode");
    if (fabs(t - m->time) > 1e-9 * (1.0 + fabs(t))) return fail(m, "", "fmi3DoStep: wrong point");
    model_step(m, h);
    m->time = t + h;
    *event = false;
    *terminate = false;
    *early = false;
    *last = m->time;
    return fmi3OK;
}
