/* FMI 3.0 misuse driver for a real exported FMU (`export --fmi-version 3`),
 * the FMI 3 twin of driver.c. It is compiled together with the FMU's own
 * `sources/` (mofmu_fmi3.c, which includes the runtime, the class kernels,
 * the system file) into one executable, so it also runs under
 * AddressSanitizer and UndefinedBehaviorSanitizer; it reads the model's
 * sizes, token and variable kinds with the runtime's own loader
 * (mofmu_system_load) and the FMI 3 arrays from resources/mofmu_fmi3.bin,
 * and so works for any model.
 *
 * It checks, with one line per failed check and a summary at the end:
 *   - every fmi3 function in every Model Exchange state of the FMI 3.0
 *     state machine (instantiated, initialization, event, continuous-time,
 *     terminated): fmi3Error with a logged error where FMI 3.0 forbids the
 *     call, and again on a second try (the refusal changed nothing); no
 *     fmi3Error where it allows it; Co-Simulation functions (fmi3DoStep,
 *     fmi3GetOutputDerivatives, fmi3EnterStepMode) are refused in every
 *     Model Exchange state, and so is fmi3EnterConfigurationMode unless the
 *     FMU has a structural parameter (resources/mofmu_struct.bin): then it
 *     is allowed in Instantiated and returns there through
 *     fmi3ExitConfigurationMode;
 *   - NULL instance, NULL arrays and outputs, unknown value references, a
 *     value reference of the wrong type, an array's inner element, nValues
 *     that does not count an array's elements, setting a constant, a
 *     calculated parameter or time, non-finite seeds, a wrong token;
 *   - fmi3GetOutputDerivatives of a Co-Simulation instance with an order
 *     other than 1, and fmi3DoStep with NULL outputs;
 *   - an explicit-Euler run through the fmi3 functions, repeated after
 *     fmi3Reset and bit-identical.
 *
 * Usage: driver3 STOP_TIME file:///path/to/resources */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mofmu_fmi3.h"
#include "mofmu_model.h"

/* The fmi3 functions the driver calls, as mofmu_fmi3.c defines them. */
fmi3Instance fmi3InstantiateModelExchange(fmi3String, fmi3String, fmi3String, fmi3Boolean,
                                          fmi3Boolean, fmi3InstanceEnvironment,
                                          fmi3LogMessageCallback);
fmi3Instance fmi3InstantiateCoSimulation(fmi3String, fmi3String, fmi3String, fmi3Boolean,
                                         fmi3Boolean, fmi3Boolean, fmi3Boolean,
                                         const fmi3ValueReference[], size_t,
                                         fmi3InstanceEnvironment, fmi3LogMessageCallback,
                                         fmi3IntermediateUpdateCallback);
fmi3Instance fmi3InstantiateScheduledExecution(fmi3String, fmi3String, fmi3String, fmi3Boolean,
                                               fmi3Boolean, fmi3InstanceEnvironment,
                                               fmi3LogMessageCallback, fmi3ClockUpdateCallback,
                                               fmi3LockPreemptionCallback,
                                               fmi3UnlockPreemptionCallback);
void fmi3FreeInstance(fmi3Instance);
fmi3Status fmi3SetDebugLogging(fmi3Instance, fmi3Boolean, size_t, const fmi3String[]);
fmi3Status fmi3EnterInitializationMode(fmi3Instance, fmi3Boolean, fmi3Float64, fmi3Float64,
                                       fmi3Boolean, fmi3Float64);
fmi3Status fmi3ExitInitializationMode(fmi3Instance);
fmi3Status fmi3EnterEventMode(fmi3Instance);
fmi3Status fmi3Terminate(fmi3Instance);
fmi3Status fmi3Reset(fmi3Instance);
fmi3Status fmi3GetFloat64(fmi3Instance, const fmi3ValueReference[], size_t, fmi3Float64[],
                          size_t);
fmi3Status fmi3SetFloat64(fmi3Instance, const fmi3ValueReference[], size_t,
                          const fmi3Float64[], size_t);
fmi3Status fmi3GetInt32(fmi3Instance, const fmi3ValueReference[], size_t, fmi3Int32[], size_t);
fmi3Status fmi3SetInt32(fmi3Instance, const fmi3ValueReference[], size_t, const fmi3Int32[],
                        size_t);
fmi3Status fmi3GetBoolean(fmi3Instance, const fmi3ValueReference[], size_t, fmi3Boolean[],
                          size_t);
fmi3Status fmi3SetBoolean(fmi3Instance, const fmi3ValueReference[], size_t,
                          const fmi3Boolean[], size_t);
fmi3Status fmi3GetFloat32(fmi3Instance, const fmi3ValueReference[], size_t, fmi3Float32[],
                          size_t);
fmi3Status fmi3GetFMUState(fmi3Instance, fmi3FMUState *);
fmi3Status fmi3SetFMUState(fmi3Instance, fmi3FMUState);
fmi3Status fmi3FreeFMUState(fmi3Instance, fmi3FMUState *);
fmi3Status fmi3SerializedFMUStateSize(fmi3Instance, fmi3FMUState, size_t *);
fmi3Status fmi3GetDirectionalDerivative(fmi3Instance, const fmi3ValueReference[], size_t,
                                        const fmi3ValueReference[], size_t,
                                        const fmi3Float64[], size_t, fmi3Float64[], size_t);
fmi3Status fmi3GetAdjointDerivative(fmi3Instance, const fmi3ValueReference[], size_t,
                                    const fmi3ValueReference[], size_t, const fmi3Float64[],
                                    size_t, fmi3Float64[], size_t);
fmi3Status fmi3EnterConfigurationMode(fmi3Instance);
fmi3Status fmi3ExitConfigurationMode(fmi3Instance);
fmi3Status fmi3EvaluateDiscreteStates(fmi3Instance);
fmi3Status fmi3EnterStepMode(fmi3Instance);
fmi3Status fmi3UpdateDiscreteStates(fmi3Instance, fmi3Boolean *, fmi3Boolean *, fmi3Boolean *,
                                    fmi3Boolean *, fmi3Boolean *, fmi3Float64 *);
fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance);
fmi3Status fmi3CompletedIntegratorStep(fmi3Instance, fmi3Boolean, fmi3Boolean *,
                                       fmi3Boolean *);
fmi3Status fmi3SetTime(fmi3Instance, fmi3Float64);
fmi3Status fmi3SetContinuousStates(fmi3Instance, const fmi3Float64[], size_t);
fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance, fmi3Float64[], size_t);
fmi3Status fmi3GetEventIndicators(fmi3Instance, fmi3Float64[], size_t);
fmi3Status fmi3GetContinuousStates(fmi3Instance, fmi3Float64[], size_t);
fmi3Status fmi3GetNominalsOfContinuousStates(fmi3Instance, fmi3Float64[], size_t);
fmi3Status fmi3GetNumberOfEventIndicators(fmi3Instance, size_t *);
fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance, size_t *);
fmi3Status fmi3GetOutputDerivatives(fmi3Instance, const fmi3ValueReference[], size_t,
                                    const fmi3Int32[], fmi3Float64[], size_t);
fmi3Status fmi3DoStep(fmi3Instance, fmi3Float64, fmi3Float64, fmi3Boolean, fmi3Boolean *,
                      fmi3Boolean *, fmi3Boolean *, fmi3Float64 *);

/* The same value reference bases as mofmu_fmi3.c and src/fmu/description/fmi3.rs. */
#define INTEGER_BASE 0x40000000u
#define BOOLEAN_BASE 0x60000000u

/* ------------------------------------------------------------------------
 * Checks
 * ------------------------------------------------------------------------ */

static mofmu_system *SYS;
static const char *RESOURCES;
/* The FMU has a structural parameter (configuration mode is offered). */
static int structural;
static double stop_time;
static int n_checks;
static int n_failures;

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        n_checks++;                                                                            \
        if (!(cond)) {                                                                         \
            n_failures++;                                                                      \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                        \
            printf(__VA_ARGS__);                                                               \
            printf("\n");                                                                      \
        }                                                                                      \
    } while (0)

/* The logger keeps the last message of its instance. */
typedef struct {
    char last[1024];
    fmi3Status last_status;
    int count;
} Log;

static void logger(fmi3InstanceEnvironment env, fmi3Status status, fmi3String category,
                   fmi3String message)
{
    Log *log = (Log *)env;
    (void)category;
    if (log == NULL) return;
    /* An FMI 3 FMU speaks of FMI 3 functions. */
    CHECK(strstr(message, "fmi2") == NULL, "a message names an FMI 2 function: %s", message);
    snprintf(log->last, sizeof log->last, "%s", message);
    log->last_status = status;
    log->count++;
}

/* A refusal: fmi3Error and an error logged that names the function; the
 * variable arguments describe the call. */
#define REFUSED(log, call, function, ...)                                                      \
    do {                                                                                       \
        fmi3Status st_;                                                                        \
        int ok_;                                                                               \
        memset(&(log), 0, sizeof(log));                                                        \
        st_ = (call);                                                                          \
        ok_ = st_ == fmi3Error && (log).count > 0 && (log).last_status == fmi3Error &&          \
              strstr((log).last, function) != NULL;                                            \
        CHECK(ok_, __VA_ARGS__);                                                               \
        if (!ok_) {                                                                            \
            printf("  want fmi3Error and a message from %s, got %d, \"%s\"\n", function,       \
                   (int)st_, (log).last);                                                      \
        }                                                                                      \
    } while (0)

static fmi3Instance instantiate(Log *log)
{
    memset(log, 0, sizeof *log);
    return fmi3InstantiateModelExchange("misuse3", SYS->guid, RESOURCES, false, false, log,
                                        logger);
}

static fmi3Instance instantiate_cs(Log *log)
{
    memset(log, 0, sizeof *log);
    return fmi3InstantiateCoSimulation("misuse3", SYS->guid, RESOURCES, false, false, false,
                                       false, NULL, 0, log, logger, NULL);
}

/* ------------------------------------------------------------------------
 * The model, seen through its tables
 * ------------------------------------------------------------------------ */

#define NX SYS->n_states
#define NZ SYS->n_event_indicators

/* The arrays of resources/mofmu_fmi3.bin (value reference, length). */
static uint32_t array_vr[64], array_len[64];
static size_t n_arrays;

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void load_arrays(void)
{
    char path[4096];
    unsigned char bytes[24 + 8 * 64];
    size_t size, i;
    FILE *f;
    const char *dir = strncmp(RESOURCES, "file://", 7) == 0 ? RESOURCES + 7 : RESOURCES;
    snprintf(path, sizeof path, "%s/mofmu_fmi3.bin", dir);
    f = fopen(path, "rb");
    CHECK(f != NULL, "cannot open %s", path);
    if (f == NULL) return;
    size = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    CHECK(size >= 24 && memcmp(bytes, "MOFMUFM3", 8) == 0, "%s is not the FMI 3 resource", path);
    if (size < 24) return;
    n_arrays = le32(bytes + 12);
    if (n_arrays > 64) n_arrays = 64;
    for (i = 0; i < n_arrays && 24 + 8 * i <= size; i++) {
        array_vr[i] = le32(bytes + 16 + 8 * i);
        array_len[i] = le32(bytes + 20 + 8 * i);
    }
}

/* The first real of `kind`, or -1; arrays' inner elements are not
 * variables of the FMI 3 description, so a variable is a real that is no
 * array's inner element. */
static long first_of_kind(int kind)
{
    size_t i, a;
    for (i = 0; i < SYS->n_reals; i++) {
        int inner = 0;
        for (a = 0; a < n_arrays; a++) {
            inner |= i > array_vr[a] && i < array_vr[a] + array_len[a];
        }
        if (!inner && SYS->real_kind[i] == kind) return (long)i;
    }
    return -1;
}

/* Buffers large enough for any call, never smaller than one element. */
static double *xbuf, *zbuf, *vbuf;

/* ------------------------------------------------------------------------
 * States of the FMI 3.0 Model Exchange state machine
 * ------------------------------------------------------------------------ */

enum { S_INST, S_INIT, S_EVENT, S_CONT, S_TERM, N_STATES };
static const char *const STATE_NAMES[N_STATES] = {
    "Instantiated", "InitializationMode", "EventMode", "ContinuousTimeMode", "Terminated"};
#define B(s) (1u << (s))
#define ANY (B(S_INST) | B(S_INIT) | B(S_EVENT) | B(S_CONT) | B(S_TERM))
#define GETTERS (B(S_INIT) | B(S_EVENT) | B(S_CONT) | B(S_TERM))
/* fmi3Get{VariableType}: FMI 3.0 also allows them in Instantiated (the
 * start values, section "State: Instantiated"). */
#define VALUE_GETTERS (B(S_INST) | GETTERS)

/* A fresh instance brought into `state`; NULL when it cannot be reached. */
static fmi3Instance in_state(int state, Log *log)
{
    fmi3Instance c = instantiate(log);
    fmi3Boolean update = true, b1, b2, b3, defined;
    double next;
    if (c == NULL || state == S_INST) return c;
    if (fmi3EnterInitializationMode(c, false, 0.0, 0.0, false, 0.0) != fmi3OK) {
        fmi3FreeInstance(c);
        return NULL;
    }
    if (state == S_INIT) return c;
    fmi3ExitInitializationMode(c);
    while (update) {
        if (fmi3UpdateDiscreteStates(c, &update, &b1, &b2, &b3, &defined, &next) != fmi3OK) break;
    }
    if (state == S_EVENT) return c;
    fmi3EnterContinuousTimeMode(c);
    if (state == S_CONT) return c;
    fmi3Terminate(c);
    return c;
}

/* ------------------------------------------------------------------------
 * Every function in every state
 * ------------------------------------------------------------------------ */

typedef struct {
    const char *name;
    /* States in which FMI 3.0 allows the call (Model Exchange). */
    unsigned allowed;
    /* States in which mofmu also accepts it, on purpose: the FMI 2.0 rules
     * of the runtime the fmi3 functions wrap, each a query or a no-op. */
    unsigned extension;
} Call;

/* The Model Exchange state machine of FMI 3.0 (section 3.2). Extensions:
 * fmi3Terminate in Terminated (a second terminate is harmless),
 * fmi3EnterEventMode in EventMode (a no-op), fmi3GetNominalsOfContinuous-
 * States in InitializationMode. Configuration mode needs a structural
 * parameter, which these FMUs have none of; Co-Simulation functions and
 * fmi3EvaluateDiscreteStates (providesEvaluateDiscreteStates="false") are
 * refused in every state. */
static const Call CALLS[] = {
    {"SetDebugLogging", ANY, 0},
    {"EnterInitializationMode", B(S_INST), 0},
    {"ExitInitializationMode", B(S_INIT), 0},
    {"EnterEventMode", B(S_CONT), B(S_EVENT)},
    {"Terminate", B(S_EVENT) | B(S_CONT), B(S_TERM)},
    {"Reset", ANY, 0},
    {"GetFloat64", VALUE_GETTERS, 0},
    {"GetInt32", VALUE_GETTERS, 0},
    {"GetBoolean", VALUE_GETTERS, 0},
    {"SetFloat64", B(S_INST) | B(S_INIT) | B(S_EVENT) | B(S_CONT), 0},
    {"GetFMUState", ANY, 0},
    {"SetFMUState", ANY, 0},
    {"SerializedFMUStateSize", ANY, 0},
    {"GetDirectionalDerivative", GETTERS, 0},
    {"GetAdjointDerivative", GETTERS, 0},
    {"UpdateDiscreteStates", B(S_EVENT), 0},
    {"EnterContinuousTimeMode", B(S_EVENT), 0},
    {"CompletedIntegratorStep", B(S_CONT), 0},
    {"SetTime", B(S_EVENT) | B(S_CONT), 0},
    {"SetContinuousStates", B(S_CONT), 0},
    {"GetContinuousStateDerivatives", GETTERS, 0},
    {"GetEventIndicators", GETTERS, 0},
    {"GetContinuousStates", GETTERS, 0},
    {"GetNominalsOfContinuousStates", B(S_INST) | B(S_EVENT) | B(S_CONT) | B(S_TERM),
     B(S_INIT)},
    {"GetNumberOfEventIndicators", ANY, 0},
    {"GetNumberOfContinuousStates", ANY, 0},
    {"EnterConfigurationMode", 0, 0},
    {"EvaluateDiscreteStates", 0, 0},
    {"EnterStepMode", 0, 0},
    {"GetOutputDerivatives", 0, 0},
    {"DoStep", 0, 0},
};

/* Calls `name` with valid arguments (`snapshot` an FMU state of the same
 * instance). */
static fmi3Status call(fmi3Instance c, const char *name, fmi3FMUState snapshot)
{
    fmi3ValueReference vr0 = 0, unknown, known;
    double r = 0.0;
    fmi3Int32 i = 0, order = 1;
    fmi3Boolean b = false, b1, b2, b3, b4, b5;
    size_t size = 0, n = NX > 0;
    if (!strcmp(name, "SetDebugLogging")) return fmi3SetDebugLogging(c, false, 0, NULL);
    if (!strcmp(name, "EnterInitializationMode"))
        return fmi3EnterInitializationMode(c, false, 0.0, 0.0, false, 0.0);
    if (!strcmp(name, "ExitInitializationMode")) return fmi3ExitInitializationMode(c);
    if (!strcmp(name, "EnterEventMode")) return fmi3EnterEventMode(c);
    if (!strcmp(name, "Terminate")) return fmi3Terminate(c);
    if (!strcmp(name, "Reset")) return fmi3Reset(c);
    /* Value reference 0 is time; empty requests for the other types. */
    if (!strcmp(name, "GetFloat64")) return fmi3GetFloat64(c, &vr0, 1, &r, 1);
    if (!strcmp(name, "GetInt32")) return fmi3GetInt32(c, &vr0, 0, &i, 0);
    if (!strcmp(name, "GetBoolean")) return fmi3GetBoolean(c, &vr0, 0, &b, 0);
    if (!strcmp(name, "SetFloat64")) return fmi3SetFloat64(c, &vr0, 0, &r, 0);
    if (!strcmp(name, "GetFMUState")) {
        fmi3FMUState copy = NULL;
        fmi3Status st = fmi3GetFMUState(c, &copy);
        if (copy != NULL) fmi3FreeFMUState(c, &copy);
        return st;
    }
    if (!strcmp(name, "SetFMUState")) return fmi3SetFMUState(c, snapshot);
    if (!strcmp(name, "SerializedFMUStateSize"))
        return fmi3SerializedFMUStateSize(c, snapshot, &size);
    /* d der(x1) / d x1 when there is a state, else an empty request. */
    unknown = NX > 0 ? SYS->derivative_vr[0] : 0;
    known = NX > 0 ? SYS->state_vr[0] : 0;
    if (!strcmp(name, "GetDirectionalDerivative") || !strcmp(name, "GetAdjointDerivative")) {
        size_t a, len = 1;
        /* An array stands for all its elements: seed and sensitivity have
         * as many (the same array length for a state and its derivative). */
        for (a = 0; a < n_arrays; a++) {
            if (array_vr[a] == known) len = array_len[a];
        }
        for (a = 0; a < len; a++) xbuf[a] = 1.0;
        if (name[3] == 'D')
            return fmi3GetDirectionalDerivative(c, &unknown, n, &known, n, xbuf, n * len, vbuf,
                                                n * len);
        return fmi3GetAdjointDerivative(c, &unknown, n, &known, n, xbuf, n * len, vbuf, n * len);
    }
    if (!strcmp(name, "UpdateDiscreteStates"))
        return fmi3UpdateDiscreteStates(c, &b1, &b2, &b3, &b4, &b5, &r);
    if (!strcmp(name, "EnterContinuousTimeMode")) return fmi3EnterContinuousTimeMode(c);
    if (!strcmp(name, "CompletedIntegratorStep"))
        return fmi3CompletedIntegratorStep(c, true, &b1, &b2);
    if (!strcmp(name, "SetTime")) return fmi3SetTime(c, 0.0);
    if (!strcmp(name, "SetContinuousStates")) {
        (void)fmi3GetContinuousStates(c, xbuf, NX);
        return fmi3SetContinuousStates(c, xbuf, NX);
    }
    if (!strcmp(name, "GetContinuousStateDerivatives"))
        return fmi3GetContinuousStateDerivatives(c, xbuf, NX);
    if (!strcmp(name, "GetEventIndicators")) return fmi3GetEventIndicators(c, zbuf, NZ);
    if (!strcmp(name, "GetContinuousStates")) return fmi3GetContinuousStates(c, xbuf, NX);
    if (!strcmp(name, "GetNominalsOfContinuousStates"))
        return fmi3GetNominalsOfContinuousStates(c, xbuf, NX);
    if (!strcmp(name, "GetNumberOfEventIndicators"))
        return fmi3GetNumberOfEventIndicators(c, &size);
    if (!strcmp(name, "GetNumberOfContinuousStates"))
        return fmi3GetNumberOfContinuousStates(c, &size);
    if (!strcmp(name, "EnterConfigurationMode")) return fmi3EnterConfigurationMode(c);
    if (!strcmp(name, "EvaluateDiscreteStates")) return fmi3EvaluateDiscreteStates(c);
    if (!strcmp(name, "EnterStepMode")) return fmi3EnterStepMode(c);
    if (!strcmp(name, "GetOutputDerivatives"))
        return fmi3GetOutputDerivatives(c, &unknown, n, &order, xbuf, n);
    if (!strcmp(name, "DoStep")) return fmi3DoStep(c, 0.0, 0.1, true, &b1, &b2, &b3, &r);
    printf("driver bug: unknown call %s\n", name);
    exit(2);
}

static void test_state_table(void)
{
    size_t k;
    int state;
    for (k = 0; k < sizeof CALLS / sizeof CALLS[0]; k++) {
        for (state = 0; state < N_STATES; state++) {
            Log log;
            fmi3Instance c = in_state(state, &log);
            fmi3FMUState snapshot = NULL;
            fmi3Status st, again;
            unsigned bit = B(state);
            CHECK(c != NULL, "state %s could not be reached: %s", STATE_NAMES[state], log.last);
            if (c == NULL) continue;
            CHECK(fmi3GetFMUState(c, &snapshot) == fmi3OK && snapshot != NULL,
                  "fmi3GetFMUState in %s", STATE_NAMES[state]);
            memset(&log, 0, sizeof log);
            st = call(c, CALLS[k].name, snapshot);
            unsigned allowed = CALLS[k].allowed | CALLS[k].extension;
            if (structural && !strcmp(CALLS[k].name, "EnterConfigurationMode")) {
                allowed |= B(S_INST);
            }
            if (allowed & bit) {
                CHECK(st != fmi3Error && st != fmi3Fatal, "fmi3%s in state %s returned %d: %s",
                      CALLS[k].name, STATE_NAMES[state], (int)st, log.last);
            } else {
                CHECK(st == fmi3Error && log.last_status == fmi3Error && log.count > 0,
                      "fmi3%s in state %s (not allowed) returned %d, logged \"%s\"",
                      CALLS[k].name, STATE_NAMES[state], (int)st, log.last);
                again = call(c, CALLS[k].name, snapshot);
                CHECK(again == fmi3Error, "second fmi3%s in state %s returned %d",
                      CALLS[k].name, STATE_NAMES[state], (int)again);
            }
            fmi3FreeFMUState(c, &snapshot);
            fmi3FreeInstance(c);
        }
    }
}

/* ------------------------------------------------------------------------
 * Bad arguments
 * ------------------------------------------------------------------------ */

static void test_null_instance(void)
{
    Log log;
    fmi3ValueReference vr0 = 0;
    double r = 0.0;
    fmi3FMUState state = NULL;
    size_t n = 0;
    fmi3FreeInstance(NULL);
    CHECK(fmi3GetFloat64(NULL, &vr0, 1, &r, 1) == fmi3Error, "GetFloat64 on NULL");
    CHECK(fmi3SetFloat64(NULL, &vr0, 1, &r, 1) == fmi3Error, "SetFloat64 on NULL");
    CHECK(fmi3EnterInitializationMode(NULL, false, 0, 0, false, 0) == fmi3Error,
          "EnterInitializationMode on NULL");
    CHECK(fmi3Terminate(NULL) == fmi3Error, "Terminate on NULL");
    CHECK(fmi3Reset(NULL) == fmi3Error, "Reset on NULL");
    CHECK(fmi3GetContinuousStateDerivatives(NULL, xbuf, NX) == fmi3Error,
          "GetContinuousStateDerivatives on NULL");
    CHECK(fmi3GetFMUState(NULL, &state) == fmi3Error, "GetFMUState on NULL");
    CHECK(fmi3GetNumberOfContinuousStates(NULL, &n) == fmi3Error,
          "GetNumberOfContinuousStates on NULL");
    CHECK(fmi3GetAdjointDerivative(NULL, &vr0, 0, &vr0, 0, &r, 0, &r, 0) == fmi3Error,
          "GetAdjointDerivative on NULL");
    CHECK(fmi3EnterConfigurationMode(NULL) == fmi3Error, "EnterConfigurationMode on NULL");
    /* Instantiation refusals. */
    memset(&log, 0, sizeof log);
    CHECK(fmi3InstantiateModelExchange("x", "{not the token}", RESOURCES, false, false, &log,
                                       logger) == NULL,
          "wrong instantiation token accepted");
    CHECK(fmi3InstantiateModelExchange("x", SYS->guid, "file:///nonexistent/dir", false, false,
                                       &log, logger) == NULL,
          "missing resources accepted");
    memset(&log, 0, sizeof log);
    CHECK(fmi3InstantiateScheduledExecution("x", SYS->guid, RESOURCES, false, false, &log, logger,
                                            NULL, NULL, NULL) == NULL &&
              log.last_status == fmi3Error && log.count > 0,
          "Scheduled Execution instantiated");
    memset(&log, 0, sizeof log);
    CHECK(fmi3InstantiateCoSimulation("x", SYS->guid, RESOURCES, false, false, true, false, NULL,
                                      0, &log, logger, NULL) == NULL &&
              log.last_status == fmi3Error && log.count > 0,
          "Co-Simulation with event mode instantiated (hasEventMode=\"false\")");
}

/* Setting a variable that is not settable: a constant, a calculated
 * parameter, time. */
static void test_unsettable(fmi3Instance c, Log *log, const char *where)
{
    static const int KINDS[] = {MOFMU_KIND_CONSTANT, MOFMU_KIND_CALCULATED_PARAMETER,
                                MOFMU_KIND_TIME};
    static const char *const KIND_NAMES[] = {"a constant", "a calculated parameter", "time"};
    size_t k;
    for (k = 0; k < sizeof KINDS / sizeof KINDS[0]; k++) {
        long vr = first_of_kind(KINDS[k]);
        fmi3ValueReference ref = (fmi3ValueReference)vr;
        size_t a, len = 1;
        if (vr < 0) continue;
        for (a = 0; a < n_arrays; a++) {
            if (array_vr[a] == ref) len = array_len[a];
        }
        REFUSED(*log, fmi3SetFloat64(c, &ref, 1, vbuf, len), "fmi3SetFloat64", "set %s (%s) in %s",
                KIND_NAMES[k], SYS->names + SYS->real_name_at[vr], where);
    }
}

static void test_arguments(void)
{
    Log log;
    fmi3Instance c;
    fmi3ValueReference bad[2] = {(fmi3ValueReference)SYS->n_reals, 0x3fffffffu};
    fmi3ValueReference vr0 = 0, unknown, known;
    fmi3ValueReference boolean_bad = BOOLEAN_BASE + (fmi3ValueReference)SYS->n_booleans;
    fmi3ValueReference integer_bad = INTEGER_BASE + (fmi3ValueReference)SYS->n_integers;
    fmi3Boolean b = false;
    fmi3Int32 i32 = 0;
    fmi3Float32 f32 = 0;
    double r = 0.0, nan = NAN;
    size_t a;

    c = instantiate(&log);
    CHECK(c != NULL, "instantiation: %s", log.last);
    if (c == NULL) return;
    test_unsettable(c, &log, "Instantiated");
    if (structural) {
        CHECK(fmi3EnterConfigurationMode(c) == fmi3OK, "configuration mode: %s", log.last);
        CHECK(fmi3ExitConfigurationMode(c) == fmi3OK, "back to Instantiated: %s", log.last);
    } else {
        REFUSED(log, fmi3EnterConfigurationMode(c), "fmi3EnterConfigurationMode",
                "configuration mode without structural parameters");
        CHECK(strstr(log.last, "structural parameter") != NULL, "the refusal says why: %s",
              log.last);
    }
    /* FMI 3.0 lets an importer read the start values in Instantiated. */
    CHECK(fmi3GetFloat64(c, &vr0, 1, &r, 1) == fmi3OK, "GetFloat64 when Instantiated: %s",
          log.last);
    REFUSED(log, fmi3DoStep(c, 0.0, 0.1, true, &b, &b, &b, &r), "fmi3DoStep",
            "DoStep of a Model Exchange instance");
    REFUSED(log, fmi3DoStep(c, 0.0, 0.1, true, NULL, &b, &b, &r), "fmi3DoStep",
            "DoStep NULL output");
    CHECK(fmi3EnterInitializationMode(c, false, 0.0, 0.0, false, 0.0) == fmi3OK,
          "initialization mode: %s", log.last);
    test_unsettable(c, &log, "InitializationMode");

    /* NULL arrays with n > 0. */
    REFUSED(log, fmi3GetFloat64(c, NULL, 1, &r, 1), "fmi3GetFloat64", "GetFloat64 NULL vr%s", "");
    REFUSED(log, fmi3GetFloat64(c, &vr0, 1, NULL, 1), "fmi3GetFloat64", "GetFloat64 NULL value%s",
            "");
    REFUSED(log, fmi3SetFloat64(c, NULL, 1, &r, 1), "fmi3SetFloat64", "SetFloat64 NULL vr%s", "");
    REFUSED(log, fmi3GetInt32(c, NULL, 1, &i32, 1), "fmi3GetInt32", "GetInt32 NULL vr%s", "");
    REFUSED(log, fmi3GetBoolean(c, &vr0, 1, NULL, 1), "fmi3GetBoolean", "GetBoolean NULL%s", "");
    /* Unknown value references and the wrong type. */
    REFUSED(log, fmi3GetFloat64(c, bad, 1, &r, 1), "fmi3GetFloat64", "GetFloat64 vr %u", bad[0]);
    REFUSED(log, fmi3GetFloat64(c, bad + 1, 1, &r, 1), "fmi3GetFloat64", "GetFloat64 vr %u", bad[1]);
    REFUSED(log, fmi3SetFloat64(c, bad, 1, &r, 1), "fmi3SetFloat64", "SetFloat64 vr %u", bad[0]);
    REFUSED(log, fmi3GetInt32(c, &vr0, 1, &i32, 1), "fmi3GetInt32", "GetInt32 of time%s", "");
    REFUSED(log, fmi3GetInt32(c, &integer_bad, 1, &i32, 1), "fmi3GetInt32", "GetInt32 vr %u",
            integer_bad);
    REFUSED(log, fmi3GetBoolean(c, &boolean_bad, 1, &b, 1), "fmi3GetBoolean",
            "GetBoolean vr %u", boolean_bad);
    REFUSED(log, fmi3GetFloat32(c, &vr0, 1, &f32, 1), "fmi3GetFloat32", "GetFloat32%s", "");
    /* nValues must count values. */
    {
        fmi3ValueReference two[2] = {0, 0};
        double values[2];
        REFUSED(log, fmi3GetFloat64(c, two, 2, values, 1), "fmi3GetFloat64",
                "GetFloat64 nValues%s", "");
        REFUSED(log, fmi3SetFloat64(c, two, 2, values, 3), "fmi3SetFloat64",
                "SetFloat64 nValues%s", "");
        REFUSED(log, fmi3GetInt32(c, two, 2, &i32, 1), "fmi3GetInt32", "GetInt32 nValues%s", "");
    }
    /* Arrays: nValues counts elements; an inner element names no variable. */
    for (a = 0; a < n_arrays; a++) {
        fmi3ValueReference first = array_vr[a], inner = array_vr[a] + 1;
        REFUSED(log, fmi3GetFloat64(c, &first, 1, vbuf, 1), "fmi3GetFloat64",
                "array %u of %u read as one value", first, array_len[a]);
        REFUSED(log, fmi3GetFloat64(c, &first, 1, vbuf, array_len[a] + 1), "fmi3GetFloat64",
                "array %u read as %u values", first, array_len[a] + 1);
        REFUSED(log, fmi3SetFloat64(c, &first, 1, vbuf, array_len[a] - 1), "fmi3SetFloat64",
                "array %u written with one value short", first);
        if (array_len[a] > 1) {
            REFUSED(log, fmi3GetFloat64(c, &inner, 1, vbuf, 1), "fmi3GetFloat64",
                    "inner element %u", inner);
        }
        CHECK(fmi3GetFloat64(c, &first, 1, vbuf, array_len[a]) == fmi3OK,
              "array %u read whole: %s", first, log.last);
    }
    /* Derivatives: wrong counts, NULL seed, non-finite seed, a known that is
     * no state. */
    if (NX > 0) {
        size_t len = 1;
        unknown = SYS->derivative_vr[0];
        known = SYS->state_vr[0];
        for (a = 0; a < n_arrays; a++) {
            if (array_vr[a] == known) len = array_len[a];
        }
        for (a = 0; a < len; a++) xbuf[a] = 1.0;
        REFUSED(log,
                fmi3GetDirectionalDerivative(c, &unknown, 1, &known, 1, xbuf, len + 1, vbuf, len),
                "fmi3GetDirectionalDerivative", "directional nSeed%s", "");
        REFUSED(log, fmi3GetAdjointDerivative(c, &unknown, 1, &known, 1, xbuf, len, vbuf, len + 1),
                "fmi3GetAdjointDerivative", "adjoint nSensitivity%s", "");
        REFUSED(log, fmi3GetAdjointDerivative(c, &unknown, 1, &known, 1, NULL, len, vbuf, len),
                "fmi3GetAdjointDerivative", "adjoint NULL seed%s", "");
        xbuf[0] = nan;
        REFUSED(log, fmi3GetAdjointDerivative(c, &unknown, 1, &known, 1, xbuf, len, vbuf, len),
                "fmi3GetAdjointDerivative", "adjoint NaN seed%s", "");
        xbuf[0] = 1.0;
        REFUSED(log, fmi3GetAdjointDerivative(c, &unknown, 1, &vr0, 1, xbuf, len, vbuf, 1),
                "fmi3GetAdjointDerivative", "adjoint with respect to time%s", "");
        REFUSED(log, fmi3GetAdjointDerivative(c, &unknown, 1, bad, 1, xbuf, len, vbuf, 1),
                "fmi3GetAdjointDerivative", "adjoint known vr %u", bad[0]);
        CHECK(fmi3GetAdjointDerivative(c, &unknown, 1, &known, 1, xbuf, len, vbuf, len) == fmi3OK,
              "adjoint after the refusals: %s", log.last);
    }
    /* NULL outputs. */
    REFUSED(log, fmi3GetNumberOfContinuousStates(c, NULL), "fmi3GetNumberOfContinuousStates",
            "GetNumberOfContinuousStates NULL%s", "");
    REFUSED(log, fmi3GetNumberOfEventIndicators(c, NULL), "fmi3GetNumberOfEventIndicators",
            "GetNumberOfEventIndicators NULL%s", "");
    REFUSED(log, fmi3GetContinuousStateDerivatives(c, NULL, NX + 1), "fmi3GetContinuousStateDerivatives",
            "GetContinuousStateDerivatives NULL%s", "");
    CHECK(fmi3ExitInitializationMode(c) == fmi3OK, "exit initialization: %s", log.last);
    REFUSED(log, fmi3UpdateDiscreteStates(c, NULL, &b, &b, &b, &b, &r), "fmi3UpdateDiscreteStates",
            "UpdateDiscreteStates NULL%s", "");
    /* Wrong sizes of the state vectors. */
    REFUSED(log, fmi3GetContinuousStates(c, xbuf, NX + 1), "fmi3GetContinuousStates",
            "GetContinuousStates n+1%s", "");
    REFUSED(log, fmi3GetEventIndicators(c, zbuf, NZ + 1), "fmi3GetEventIndicators",
            "GetEventIndicators n+1%s", "");
    fmi3FreeInstance(c);
}

/* fmi3GetOutputDerivatives of a Co-Simulation instance: only first
 * derivatives, nValues counts elements; fmi3DoStep's outputs. */
static void test_cs(void)
{
    Log log;
    fmi3Instance c = instantiate_cs(&log);
    fmi3ValueReference vr;
    fmi3Int32 orders[3] = {0, 2, -1};
    fmi3Boolean b1, b2, b3;
    double last = 0.0;
    size_t k, len = 1, a;
    CHECK(c != NULL, "Co-Simulation instantiation: %s", log.last);
    if (c == NULL) return;
    if (NX == 0) {
        fmi3FreeInstance(c);
        return;
    }
    vr = SYS->state_vr[0];
    for (a = 0; a < n_arrays; a++) {
        if (array_vr[a] == vr) len = array_len[a];
    }
    CHECK(fmi3EnterInitializationMode(c, true, 1e-8, 0.0, true, stop_time) == fmi3OK &&
              fmi3ExitInitializationMode(c) == fmi3OK,
          "Co-Simulation initialization: %s", log.last);
    REFUSED(log, fmi3DoStep(c, 0.0, stop_time / 10, true, &b1, &b2, NULL, &last), "fmi3DoStep",
            "DoStep NULL earlyReturn%s", "");
    CHECK(fmi3DoStep(c, 0.0, stop_time / 10, true, &b1, &b2, &b3, &last) == fmi3OK &&
              last == stop_time / 10,
          "a step to %g: %s", last, log.last);
    REFUSED(log, fmi3DoStep(c, 0.0, stop_time / 10, true, &b1, &b2, &b3, &last), "fmi3DoStep",
            "DoStep from the wrong point%s", "");
    /* A state that is not an output is refused; so is an output's
     * derivative of any order but 1. */
    {
        fmi3Int32 one = 1;
        long output = first_of_kind(MOFMU_KIND_OUTPUT);
        if (SYS->real_kind[vr] != MOFMU_KIND_OUTPUT) {
            REFUSED(log, fmi3GetOutputDerivatives(c, &vr, 1, &one, vbuf, len),
                    "is not an output", "output derivative of the state %u", vr);
        }
        if (output >= 0) {
            vr = (fmi3ValueReference)output;
            len = 1;
            for (a = 0; a < n_arrays; a++) {
                if (array_vr[a] == vr) len = array_len[a];
            }
            for (k = 0; k < sizeof orders / sizeof orders[0]; k++) {
                REFUSED(log, fmi3GetOutputDerivatives(c, &vr, 1, orders + k, vbuf, len),
                        "only first derivatives", "output derivative of order %d", orders[k]);
            }
            REFUSED(log, fmi3GetOutputDerivatives(c, &vr, 1, orders, NULL, len),
                    "fmi3GetOutputDerivatives", "output derivatives NULL values%s", "");
            REFUSED(log, fmi3GetOutputDerivatives(c, &vr, 1, &one, vbuf, len + 1),
                    "fmi3GetOutputDerivatives", "output derivatives nValues %zu", len + 1);
            CHECK(fmi3GetOutputDerivatives(c, &vr, 1, &one, vbuf, len) == fmi3OK,
                  "first output derivative: %s", log.last);
        }
    }
    REFUSED(log, fmi3UpdateDiscreteStates(c, &b1, &b2, &b3, &b1, &b2, &last),
            "fmi3UpdateDiscreteStates", "UpdateDiscreteStates in Co-Simulation%s", "");
    fmi3FreeInstance(c);
}

/* ------------------------------------------------------------------------
 * An explicit-Euler run, repeated after fmi3Reset
 * ------------------------------------------------------------------------ */

static int euler(fmi3Instance c, double *final_states)
{
    size_t steps = 200, k;
    double h = stop_time / (double)steps, t = 0.0, *x = xbuf, *dx = vbuf;
    fmi3Boolean update = true, terminate, b1, b2, defined, event;
    double next = 0.0;
    if (fmi3EnterInitializationMode(c, false, 0.0, 0.0, true, stop_time) != fmi3OK ||
        fmi3ExitInitializationMode(c) != fmi3OK) {
        return 0;
    }
    while (update) {
        if (fmi3UpdateDiscreteStates(c, &update, &terminate, &b1, &b2, &defined, &next) !=
            fmi3OK)
            return 0;
    }
    if (fmi3EnterContinuousTimeMode(c) != fmi3OK) return 0;
    for (k = 0; k < steps; k++) {
        size_t i;
        if (fmi3GetContinuousStates(c, x, NX) != fmi3OK ||
            fmi3GetContinuousStateDerivatives(c, dx, NX) != fmi3OK)
            return 0;
        for (i = 0; i < NX; i++) x[i] += h * dx[i];
        t = (double)(k + 1) * h;
        if (fmi3SetTime(c, t) != fmi3OK || fmi3SetContinuousStates(c, x, NX) != fmi3OK ||
            fmi3CompletedIntegratorStep(c, true, &event, &terminate) != fmi3OK)
            return 0;
        if (event || (defined && next <= t)) {
            if (fmi3EnterEventMode(c) != fmi3OK) return 0;
            update = true;
            while (update) {
                if (fmi3UpdateDiscreteStates(c, &update, &terminate, &b1, &b2, &defined,
                                             &next) != fmi3OK)
                    return 0;
            }
            if (fmi3EnterContinuousTimeMode(c) != fmi3OK) return 0;
        }
    }
    if (fmi3GetContinuousStates(c, final_states, NX) != fmi3OK) return 0;
    return fmi3Terminate(c) == fmi3OK;
}

static void test_runs(void)
{
    Log log;
    fmi3Instance c = instantiate(&log);
    double *first = calloc(NX + 1, sizeof(double)), *second = calloc(NX + 1, sizeof(double));
    CHECK(c != NULL && first != NULL && second != NULL, "instantiation: %s", log.last);
    if (c != NULL && first != NULL && second != NULL) {
        CHECK(euler(c, first), "the first Euler run: %s", log.last);
        CHECK(fmi3Reset(c) == fmi3OK, "reset: %s", log.last);
        CHECK(euler(c, second), "the Euler run after fmi3Reset: %s", log.last);
        CHECK(memcmp(first, second, NX * sizeof(double)) == 0,
              "the run after fmi3Reset differs");
        printf("simulated to t = %g by explicit Euler through the fmi3 functions, again after "
               "fmi3Reset: bit-identical\n",
               stop_time);
    }
    fmi3FreeInstance(c);
    free(first);
    free(second);
}

int main(int argc, char **argv)
{
    char problem[1200];
    if (argc != 3) {
        fprintf(stderr, "usage: %s STOP_TIME file:///path/to/resources\n", argv[0]);
        return 2;
    }
    stop_time = atof(argv[1]);
    RESOURCES = argv[2];
    {
        char path[4096];
        const char *dir = strncmp(RESOURCES, "file://", 7) == 0 ? RESOURCES + 7 : RESOURCES;
        FILE *f;
        snprintf(path, sizeof path, "%s/mofmu_struct.bin", dir);
        f = fopen(path, "rb");
        structural = f != NULL;
        if (f != NULL) fclose(f);
    }
    SYS = mofmu_system_load(RESOURCES, problem, sizeof problem);
    if (SYS == NULL) {
        printf("FAIL: %s\n", problem);
        return 1;
    }
    xbuf = calloc(SYS->n_reals + 2, sizeof(double));
    zbuf = calloc(NZ + 2, sizeof(double));
    vbuf = calloc(SYS->n_reals + 2, sizeof(double));
    load_arrays();
    printf("%zu arrays, %zu states, %zu event indicators\n", n_arrays, (size_t)NX, (size_t)NZ);
    test_state_table();
    test_null_instance();
    test_arguments();
    test_cs();
    test_runs();
    free(xbuf);
    free(zbuf);
    free(vbuf);
    mofmu_system_free(SYS);
    printf("%d checks, %d failures\n", n_checks, n_failures);
    return n_failures == 0 ? 0 : 1;
}
