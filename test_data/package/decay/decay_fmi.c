/* A minimal FMI 2.0 Model Exchange layer for the decay test FMU, with its
 * own copies of the few FMI types it needs. It checks value references
 * and the calling sequence only as far as the tests need. */
#include <stdlib.h>
#include <string.h>
#include "decay.h"

#define EXPORT __attribute__((visibility("default")))

typedef void *fmi2Component;
typedef void *fmi2ComponentEnvironment;
typedef void *fmi2FMUstate;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char *fmi2String;
typedef char fmi2Byte;

typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;
typedef enum { fmi2DoStepStatus, fmi2PendingStatus, fmi2LastSuccessfulTime, fmi2Terminated } fmi2StatusKind;

typedef struct {
    void (*logger)(fmi2ComponentEnvironment, fmi2String, fmi2Status, fmi2String, fmi2String, ...);
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

typedef struct {
    double time;
    double R[DECAY_N_REALS];
} Instance;

EXPORT const char *fmi2GetTypesPlatform(void) { return "default"; }
EXPORT const char *fmi2GetVersion(void) { return "2.0"; }

EXPORT fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean on, size_t n, const fmi2String cats[])
{
    (void)c; (void)on; (void)n; (void)cats;
    return fmi2OK;
}

EXPORT fmi2Component fmi2Instantiate(fmi2String name, fmi2Type type, fmi2String guid, fmi2String resources,
                                     const fmi2CallbackFunctions *functions, fmi2Boolean visible,
                                     fmi2Boolean logging)
{
    Instance *inst;
    (void)name; (void)resources; (void)functions; (void)visible; (void)logging;
    if (type != fmi2ModelExchange || guid == NULL || strcmp(guid, decay_guid) != 0) return NULL;
    inst = calloc(1, sizeof *inst);
    if (inst != NULL) decay_start_values(inst->R);
    return inst;
}

EXPORT void fmi2FreeInstance(fmi2Component c) { free(c); }

EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean tolDefined, fmi2Real tol, fmi2Real start,
                                      fmi2Boolean stopDefined, fmi2Real stop)
{
    (void)tolDefined; (void)tol; (void)stopDefined; (void)stop;
    ((Instance *)c)->time = start;
    return fmi2OK;
}

EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component c) { (void)c; return fmi2OK; }

EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c)
{
    decay_evaluate(((Instance *)c)->R);
    return fmi2OK;
}

EXPORT fmi2Status fmi2Terminate(fmi2Component c) { (void)c; return fmi2OK; }

EXPORT fmi2Status fmi2Reset(fmi2Component c)
{
    Instance *inst = c;
    inst->time = 0.0;
    decay_start_values(inst->R);
    return fmi2OK;
}

EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Real value[])
{
    Instance *inst = c;
    size_t i;
    decay_evaluate(inst->R);
    for (i = 0; i < n; i++) {
        if (vr[i] >= DECAY_N_REALS) return fmi2Error;
        value[i] = inst->R[vr[i]];
    }
    return fmi2OK;
}

EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Real value[])
{
    Instance *inst = c;
    size_t i;
    for (i = 0; i < n; i++) {
        if (vr[i] >= DECAY_N_REALS || vr[i] == DECAY_VR_DER_X) return fmi2Error;
        inst->R[vr[i]] = value[i];
    }
    return fmi2OK;
}

static fmi2Status none(size_t n) { return n == 0 ? fmi2OK : fmi2Error; }

EXPORT fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Integer v[])
{ (void)c; (void)vr; (void)v; return none(n); }
EXPORT fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Boolean v[])
{ (void)c; (void)vr; (void)v; return none(n); }
EXPORT fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2String v[])
{ (void)c; (void)vr; (void)v; return none(n); }
EXPORT fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Integer v[])
{ (void)c; (void)vr; (void)v; return none(n); }
EXPORT fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Boolean v[])
{ (void)c; (void)vr; (void)v; return none(n); }
EXPORT fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2String v[])
{ (void)c; (void)vr; (void)v; return none(n); }

EXPORT fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate *s) { (void)c; (void)s; return fmi2Error; }
EXPORT fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate s) { (void)c; (void)s; return fmi2Error; }
EXPORT fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate *s) { (void)c; (void)s; return fmi2Error; }
EXPORT fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate s, size_t *n)
{ (void)c; (void)s; (void)n; return fmi2Error; }
EXPORT fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate s, fmi2Byte b[], size_t n)
{ (void)c; (void)s; (void)b; (void)n; return fmi2Error; }
EXPORT fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte b[], size_t n, fmi2FMUstate *s)
{ (void)c; (void)b; (void)n; (void)s; return fmi2Error; }
EXPORT fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference u[], size_t nu,
                                               const fmi2ValueReference z[], size_t nz,
                                               const fmi2Real dv[], fmi2Real dz[])
{ (void)c; (void)u; (void)nu; (void)z; (void)nz; (void)dv; (void)dz; return fmi2Error; }

EXPORT fmi2Status fmi2EnterEventMode(fmi2Component c) { (void)c; return fmi2OK; }

EXPORT fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo *info)
{
    (void)c;
    memset(info, 0, sizeof *info);
    return fmi2OK;
}

EXPORT fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) { (void)c; return fmi2OK; }

EXPORT fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean noSetPrior,
                                              fmi2Boolean *enterEventMode, fmi2Boolean *terminate)
{
    (void)c; (void)noSetPrior;
    *enterEventMode = 0;
    *terminate = 0;
    return fmi2OK;
}

EXPORT fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time)
{
    ((Instance *)c)->time = time;
    return fmi2OK;
}

EXPORT fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t n)
{
    if (n != 1) return fmi2Error;
    ((Instance *)c)->R[DECAY_VR_X] = x[0];
    return fmi2OK;
}

EXPORT fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real dx[], size_t n)
{
    Instance *inst = c;
    if (n != 1) return fmi2Error;
    decay_evaluate(inst->R);
    dx[0] = inst->R[DECAY_VR_DER_X];
    return fmi2OK;
}

EXPORT fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real z[], size_t n)
{ (void)c; (void)z; return none(n); }

EXPORT fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t n)
{
    if (n != 1) return fmi2Error;
    x[0] = ((Instance *)c)->R[DECAY_VR_X];
    return fmi2OK;
}

EXPORT fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x[], size_t n)
{
    (void)c;
    if (n != 1) return fmi2Error;
    x[0] = 1.0;
    return fmi2OK;
}
