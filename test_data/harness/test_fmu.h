/* A minimal FMI 2.0 Model Exchange frame for the harness's hand-written test FMUs.
 *
 * The including file defines N_REALS, N_STATES, N_INDICATORS, and either the
 * initializer lists STATE_VRS and DERIVATIVE_VRS (value references, one per state) or
 * the macros STATE_VR(i) and DERIVATIVE_VR(i); then, after including this file, the
 * hooks declared below. Every Real variable is r[valueReference].
 *
 * Switches for misbehaving variants (passed with -D):
 *   OMIT_GET_DERIVATIVES  do not export fmi2GetDerivatives
 *   INSTANTIATE_FAILS     log an error and return NULL from fmi2Instantiate
 *   DERIVATIVES_FAIL      log an error and return fmi2Error from fmi2GetDerivatives
 *                         once time exceeds 0.25
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

/* FMI 2.0 types, written out here rather than taken from the standard headers. */
typedef void *fmi2Component;
typedef void *fmi2ComponentEnvironment;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef const char *fmi2String;
typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;
typedef void (*fmi2Logger)(fmi2ComponentEnvironment, fmi2String, fmi2Status, fmi2String,
                           fmi2String, ...);
typedef struct {
    fmi2Logger logger;
    void *(*allocateMemory)(size_t, size_t);
    void (*freeMemory)(void *);
    void (*stepFinished)(fmi2ComponentEnvironment, fmi2Status);
    fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;
typedef struct {
    fmi2Boolean newDiscreteStatesNeeded;
    fmi2Boolean terminateSimulation;
    fmi2Boolean nominalsOfContinuousStatesChanged;
    fmi2Boolean valuesOfContinuousStatesChanged;
    fmi2Boolean nextEventTimeDefined;
    fmi2Real nextEventTime;
} fmi2EventInfo;

#define EXPORT __attribute__((visibility("default")))

typedef struct {
    double time;
    double r[N_REALS];
    fmi2CallbackFunctions callbacks;
    char name[64];
} Model;

#ifdef STATE_VRS
static const fmi2ValueReference state_vrs[] = STATE_VRS;
static const fmi2ValueReference derivative_vrs[] = DERIVATIVE_VRS;
#define STATE_VR(i) state_vrs[i]
#define DERIVATIVE_VR(i) derivative_vrs[i]
#endif

/* Hooks of the including model. */
static void model_start(Model *m);                        /* start values */
static void model_compute(Model *m);                      /* derivatives, outputs */
static void model_indicators(Model *m, double *z);        /* N_INDICATORS values */
static void model_event(Model *m, fmi2EventInfo *info);   /* discrete update */

#define LOG(m, status, ...) \
    (m)->callbacks.logger((m)->callbacks.componentEnvironment, (m)->name, status, \
                          "logStatusError", __VA_ARGS__)

EXPORT const char *fmi2GetTypesPlatform(void) { return "default"; }
EXPORT const char *fmi2GetVersion(void) { return "2.0"; }

EXPORT fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean on, size_t n,
                                      const fmi2String categories[]) {
    (void)c; (void)on; (void)n; (void)categories;
    return fmi2OK;
}

EXPORT fmi2Component fmi2Instantiate(fmi2String name, fmi2Type type, fmi2String guid,
                                     fmi2String resources,
                                     const fmi2CallbackFunctions *functions,
                                     fmi2Boolean visible, fmi2Boolean logging) {
    (void)guid; (void)resources; (void)visible; (void)logging;
    if (functions == NULL || functions->allocateMemory == NULL || type != fmi2ModelExchange) {
        return NULL;
    }
#ifdef INSTANTIATE_FAILS
    functions->logger(functions->componentEnvironment, name, fmi2Error, "logStatusError",
                      "instance %s refuses to start (code %d)", name, 42);
    return NULL;
#endif
    Model *m = functions->allocateMemory(1, sizeof(Model));
    if (m == NULL) {
        return NULL;
    }
    m->callbacks = *functions;
    strncpy(m->name, name ? name : "", sizeof m->name - 1);
    model_start(m);
    return m;
}

EXPORT void fmi2FreeInstance(fmi2Component c) {
    Model *m = c;
    if (m != NULL) {
        m->callbacks.freeMemory(m);
    }
}

EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean tolDefined, fmi2Real tol,
                                      fmi2Real start, fmi2Boolean stopDefined, fmi2Real stop) {
    (void)tolDefined; (void)tol; (void)stopDefined; (void)stop;
    ((Model *)c)->time = start;
    return fmi2OK;
}

EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component c) { (void)c; return fmi2OK; }
EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c) { (void)c; return fmi2OK; }
EXPORT fmi2Status fmi2Terminate(fmi2Component c) { (void)c; return fmi2OK; }
EXPORT fmi2Status fmi2Reset(fmi2Component c) { model_start(c); return fmi2OK; }

EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                              fmi2Real value[]) {
    Model *m = c;
    model_compute(m);
    for (size_t i = 0; i < n; i++) {
        if (vr[i] >= N_REALS) {
            LOG(m, fmi2Error, "fmi2GetReal: no Real with value reference %u", vr[i]);
            return fmi2Error;
        }
        value[i] = m->r[vr[i]];
    }
    return fmi2OK;
}

EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                              const fmi2Real value[]) {
    Model *m = c;
    for (size_t i = 0; i < n; i++) {
        if (vr[i] >= N_REALS) {
            LOG(m, fmi2Error, "fmi2SetReal: no Real with value reference %u", vr[i]);
            return fmi2Error;
        }
        m->r[vr[i]] = value[i];
    }
    return fmi2OK;
}

/* The test models have no Integer or Boolean variables. */
EXPORT fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                 fmi2Integer value[]) {
    (void)c; (void)vr; (void)value;
    return n == 0 ? fmi2OK : fmi2Error;
}
EXPORT fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                 const fmi2Integer value[]) {
    (void)c; (void)vr; (void)value;
    return n == 0 ? fmi2OK : fmi2Error;
}
EXPORT fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                 fmi2Boolean value[]) {
    (void)c; (void)vr; (void)value;
    return n == 0 ? fmi2OK : fmi2Error;
}
EXPORT fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                 const fmi2Boolean value[]) {
    (void)c; (void)vr; (void)value;
    return n == 0 ? fmi2OK : fmi2Error;
}

EXPORT fmi2Status fmi2EnterEventMode(fmi2Component c) { (void)c; return fmi2OK; }

EXPORT fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo *info) {
    memset(info, 0, sizeof *info);
    model_event(c, info);
    return fmi2OK;
}

EXPORT fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) { (void)c; return fmi2OK; }

EXPORT fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean noSetPrior,
                                              fmi2Boolean *enterEventMode,
                                              fmi2Boolean *terminateSimulation) {
    (void)c; (void)noSetPrior;
    *enterEventMode = 0;
    *terminateSimulation = 0;
    return fmi2OK;
}

EXPORT fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time) {
    ((Model *)c)->time = time;
    return fmi2OK;
}

EXPORT fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t n) {
    Model *m = c;
    for (size_t i = 0; i < n && i < N_STATES; i++) {
        m->r[STATE_VR(i)] = x[i];
    }
    return fmi2OK;
}

#ifndef OMIT_GET_DERIVATIVES
EXPORT fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real dx[], size_t n) {
    Model *m = c;
#ifdef DERIVATIVES_FAIL
    if (m->time > 0.25) {
        LOG(m, fmi2Error, "derivatives failed at t = %g (x = %.3f)", m->time, m->r[STATE_VR(0)]);
        return fmi2Error;
    }
#endif
    model_compute(m);
    for (size_t i = 0; i < n && i < N_STATES; i++) {
        dx[i] = m->r[DERIVATIVE_VR(i)];
    }
    return fmi2OK;
}
#endif

EXPORT fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real z[], size_t n) {
    double all[N_INDICATORS + 1];
    model_indicators(c, all);
    for (size_t i = 0; i < n && i < N_INDICATORS; i++) {
        z[i] = all[i];
    }
    return fmi2OK;
}

EXPORT fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t n) {
    Model *m = c;
    for (size_t i = 0; i < n && i < N_STATES; i++) {
        x[i] = m->r[STATE_VR(i)];
    }
    return fmi2OK;
}

EXPORT fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x[], size_t n) {
    (void)c;
    for (size_t i = 0; i < n; i++) {
        x[i] = 1.0;
    }
    return fmi2OK;
}

/* The rest of the FMI 2.0 API must be exported too; these models do not support it. */
typedef void *fmi2FMUstate;
typedef unsigned char fmi2Byte;

EXPORT fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                fmi2String value[]) {
    (void)c; (void)vr; (void)value;
    return n == 0 ? fmi2OK : fmi2Error;
}
EXPORT fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                const fmi2String value[]) {
    (void)c; (void)vr; (void)value;
    return n == 0 ? fmi2OK : fmi2Error;
}
EXPORT fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate *state) {
    (void)c; (void)state;
    return fmi2Error;
}
EXPORT fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate state) {
    (void)c; (void)state;
    return fmi2Error;
}
EXPORT fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate *state) {
    (void)c; (void)state;
    return fmi2Error;
}
EXPORT fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate state, size_t *size) {
    (void)c; (void)state; (void)size;
    return fmi2Error;
}
EXPORT fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate state, fmi2Byte bytes[],
                                        size_t size) {
    (void)c; (void)state; (void)bytes; (void)size;
    return fmi2Error;
}
EXPORT fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte bytes[], size_t size,
                                          fmi2FMUstate *state) {
    (void)c; (void)bytes; (void)size; (void)state;
    return fmi2Error;
}
EXPORT fmi2Status fmi2GetDirectionalDerivative(fmi2Component c,
                                               const fmi2ValueReference unknowns[], size_t nu,
                                               const fmi2ValueReference knowns[], size_t nk,
                                               const fmi2Real dv_known[], fmi2Real dv_unknown[]) {
    (void)c; (void)unknowns; (void)nu; (void)knowns; (void)nk; (void)dv_known; (void)dv_unknown;
    return fmi2Error;
}
