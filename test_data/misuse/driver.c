/* Misuse driver for a real exported FMU. It is compiled together with the
 * FMU's own `sources/` (runtime, class kernels, system file) into one
 * executable, so it can also be built with AddressSanitizer and
 * UndefinedBehaviorSanitizer; it reads the model's sizes, GUID and variable
 * kinds from the FMU's system resource with the runtime's own loader
 * (mofmu_system_load, mofmu_model.h) and so works for any model.
 *
 * It checks, with one line per failed check and a summary at the end:
 *   - every FMI function in every Model Exchange state: fmi2Error where the
 *     FMI 2.0 state table forbids the call (and the state is unchanged),
 *     no fmi2Error where it allows it;
 *   - NULL instance, NULL arrays, unknown value references, wrong array
 *     sizes, non-finite values, corrupt FMU states, double terminate,
 *     fmi2FreeInstance(NULL);
 *   - a fixed-step simulation with events, run again after fmi2Reset and in
 *     four threads at once: all bit-identical;
 *   - the same for a Co-Simulation instance: every FMI function in every
 *     Co-Simulation state, fmi2DoStep's arguments (communication points
 *     within rounding, wrong points, non-positive steps), input derivatives,
 *     status queries, and save-step-restore-step and serialization round
 *     trips that repeat a step bit for bit.
 *
 * Usage: driver [stop_time] */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mofmu_fmi2.h"
#include "mofmu_model.h"

/* ------------------------------------------------------------------------
 * Checks
 * ------------------------------------------------------------------------ */

/* The model's tables, loaded from the FMU's resources as the runtime loads
 * them, and the resource location (the driver's second argument). */
static mofmu_system *SYS;
static const char *RESOURCES;

static int n_checks;
static int n_failures;
static pthread_mutex_t check_lock = PTHREAD_MUTEX_INITIALIZER;

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        int passed_ = (cond) ? 1 : 0;                                                          \
        pthread_mutex_lock(&check_lock);                                                       \
        n_checks++;                                                                            \
        if (!passed_) {                                                                        \
            n_failures++;                                                                      \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                        \
            printf(__VA_ARGS__);                                                               \
            printf("\n");                                                                      \
        }                                                                                      \
        pthread_mutex_unlock(&check_lock);                                                     \
    } while (0)

/* The logger keeps the last message of its instance. */
typedef struct {
    char last[1024];
    fmi2Status last_status;
    int count;
} Log;

static void logger(fmi2ComponentEnvironment env, fmi2String instance, fmi2Status status,
                   fmi2String category, fmi2String message, ...)
{
    Log *log = (Log *)env;
    va_list args;
    (void)instance;
    (void)category;
    if (log == NULL) return;
    va_start(args, message);
    vsnprintf(log->last, sizeof log->last, message, args);
    va_end(args);
    log->last_status = status;
    log->count++;
}

static fmi2Component instantiate(Log *log)
{
    fmi2CallbackFunctions functions = {logger, calloc, free, NULL, log};
    memset(log, 0, sizeof *log);
    return fmi2Instantiate("misuse", fmi2ModelExchange, SYS->guid, RESOURCES, &functions, fmi2False,
                           fmi2False);
}

/* ------------------------------------------------------------------------
 * The model, seen through its tables
 * ------------------------------------------------------------------------ */

#define NX SYS->n_states
#define NZ SYS->n_event_indicators

/* Some settable real (a parameter or a state start), or -1. */
static long settable_real(void)
{
    size_t i;
    for (i = 0; i < SYS->n_reals; i++) {
        if (SYS->real_kind[i] == MOFMU_KIND_PARAMETER || SYS->real_kind[i] == MOFMU_KIND_STATE ||
            SYS->real_kind[i] == MOFMU_KIND_INPUT) {
            return (long)i;
        }
    }
    return -1;
}

/* Arrays large enough for any call, never smaller than one element. */
static double *xbuf, *zbuf;

/* ------------------------------------------------------------------------
 * States of the FMI 2.0 Model Exchange state machine
 * ------------------------------------------------------------------------ */

enum { S_INST, S_INIT, S_EVENT, S_CONT, S_TERM, S_ERROR, N_STATES };
static const char *const STATE_NAMES[N_STATES] = {"instantiated", "initializationMode",
                                                  "eventMode",    "continuousTimeMode",
                                                  "terminated",   "error"};
#define B(s) (1u << (s))
#define ANY (B(S_INST) | B(S_INIT) | B(S_EVENT) | B(S_CONT) | B(S_TERM) | B(S_ERROR))
#define GETTERS (B(S_INIT) | B(S_EVENT) | B(S_CONT) | B(S_TERM) | B(S_ERROR))

/* The value of a real parameter that makes the model fail during
 * initialization (found by search), or none. `failing_vr` equal to
 * SYS->n_reals stands for "every parameter and state start at once". */
static long failing_vr = -1;
static double failing_value;

static void set_failing(fmi2Component c)
{
    size_t i;
    for (i = 0; i < SYS->n_reals; i++) {
        fmi2ValueReference vr = (fmi2ValueReference)i;
        if ((long)i == failing_vr ||
            ((size_t)failing_vr == SYS->n_reals && (SYS->real_kind[i] == MOFMU_KIND_PARAMETER ||
                                                     SYS->real_kind[i] == MOFMU_KIND_STATE))) {
            fmi2SetReal(c, &vr, 1, &failing_value);
        }
    }
}

/* A fresh instance brought into `state`; NULL when it cannot be reached. */
static fmi2Component in_state(int state, Log *log)
{
    fmi2Component c = instantiate(log);
    fmi2EventInfo info;
    if (c == NULL) return NULL;
    if (state == S_INST) return c;
    if (state == S_ERROR) {
        if (failing_vr < 0) {
            fmi2FreeInstance(c);
            return NULL;
        }
        set_failing(c);
        fmi2EnterInitializationMode(c);
        if (fmi2GetDerivatives(c, xbuf, NX) != fmi2Error) {
            fmi2FreeInstance(c);
            return NULL;
        }
        return c;
    }
    if (fmi2SetupExperiment(c, fmi2False, 0.0, 0.0, fmi2False, 0.0) != fmi2OK ||
        fmi2EnterInitializationMode(c) != fmi2OK) {
        fmi2FreeInstance(c);
        return NULL;
    }
    if (state == S_INIT) return c;
    fmi2ExitInitializationMode(c);
    do {
        if (fmi2NewDiscreteStates(c, &info) != fmi2OK) break;
    } while (info.newDiscreteStatesNeeded);
    if (state == S_EVENT) return c;
    fmi2EnterContinuousTimeMode(c);
    if (state == S_CONT) return c;
    fmi2Terminate(c);
    return c;
}

/* Searches a parameter value that makes evaluation fail in initialization
 * (a division by zero, a singular tearing, ...). */
static void find_failure(void)
{
    static const double candidates[] = {0.0, -1.0, 1e308, -1e308};
    size_t i, k;
    /* One parameter at a time, then all parameters and state starts (a
     * product of two large values overflows). */
    for (i = 0; i <= SYS->n_reals && failing_vr < 0; i++) {
        if (i < SYS->n_reals && SYS->real_kind[i] != MOFMU_KIND_PARAMETER) continue;
        for (k = 0; k < sizeof candidates / sizeof candidates[0]; k++) {
            Log log;
            fmi2Component c = instantiate(&log);
            fmi2Status st;
            failing_vr = (long)i;
            failing_value = candidates[k];
            set_failing(c);
            fmi2EnterInitializationMode(c);
            st = fmi2GetDerivatives(c, xbuf, NX);
            fmi2FreeInstance(c);
            if (st == fmi2Error) break;
            failing_vr = -1;
        }
    }
}

/* ------------------------------------------------------------------------
 * Every function in every state
 * ------------------------------------------------------------------------ */

typedef struct {
    const char *name;
    /* States in which FMI 2.0 allows the call (Model Exchange table). */
    unsigned allowed;
    /* States in which mofmu also accepts it, on purpose (see below). */
    unsigned extension;
} Call;

/* The Model Exchange columns of the FMI 2.0 calling-sequence table
 * (section 3.2.3). Co-simulation functions are allowed in no Model
 * Exchange state. Extensions of the mofmu runtime, each a query or a
 * no-op that importers make in practice:
 *   - fmi2Terminate in terminated: a second terminate is harmless;
 *   - fmi2GetDerivatives and fmi2GetNominalsOfContinuousStates in
 *     initialization mode. */
static const Call CALLS[] = {
    {"SetDebugLogging", ANY, 0},
    {"SetupExperiment", B(S_INST), 0},
    {"EnterInitializationMode", B(S_INST), 0},
    {"ExitInitializationMode", B(S_INIT), 0},
    {"Terminate", B(S_EVENT) | B(S_CONT), B(S_TERM)},
    {"Reset", ANY, 0},
    {"GetReal", GETTERS, 0},
    {"GetInteger", GETTERS, 0},
    {"GetBoolean", GETTERS, 0},
    {"GetString", GETTERS, 0},
    {"SetReal", B(S_INST) | B(S_INIT) | B(S_EVENT) | B(S_CONT), 0},
    {"SetInteger", B(S_INST) | B(S_INIT) | B(S_EVENT), 0},
    {"SetBoolean", B(S_INST) | B(S_INIT) | B(S_EVENT), 0},
    {"SetString", B(S_INST) | B(S_INIT) | B(S_EVENT), 0},
    {"GetFMUstate", ANY, 0},
    {"SetFMUstate", ANY, 0},
    {"FreeFMUstate", ANY, 0},
    {"SerializedFMUstateSize", ANY, 0},
    {"SerializeFMUstate", ANY, 0},
    {"DeSerializeFMUstate", ANY, 0},
    {"GetDirectionalDerivative", GETTERS, 0},
    {"EnterEventMode", B(S_EVENT) | B(S_CONT), 0},
    {"NewDiscreteStates", B(S_EVENT), 0},
    {"EnterContinuousTimeMode", B(S_EVENT), 0},
    {"CompletedIntegratorStep", B(S_CONT), 0},
    {"SetTime", B(S_EVENT) | B(S_CONT), 0},
    {"SetContinuousStates", B(S_CONT), 0},
    {"GetEventIndicators", GETTERS, 0},
    {"GetContinuousStates", GETTERS, 0},
    {"GetDerivatives", B(S_EVENT) | B(S_CONT) | B(S_TERM) | B(S_ERROR), B(S_INIT)},
    {"GetNominalsOfContinuousStates", B(S_INST) | B(S_EVENT) | B(S_CONT) | B(S_TERM) |
                                          B(S_ERROR),
     B(S_INIT)},
    {"SetRealInputDerivatives", 0, 0},
    {"GetRealOutputDerivatives", 0, 0},
    {"DoStep", 0, 0},
    {"CancelStep", 0, 0},
    {"GetStatus", 0, 0},
    {"GetRealStatus", 0, 0},
    {"GetIntegerStatus", 0, 0},
    {"GetBooleanStatus", 0, 0},
    {"GetStringStatus", 0, 0},
};

/* Calls `name` with valid arguments (a state snapshot `fmu_state` taken
 * from the same instance, a serialized copy in `bytes`). */
static fmi2Status call(fmi2Component c, const char *name, fmi2FMUstate *fmu_state,
                       const fmi2Byte *bytes, size_t n_bytes)
{
    fmi2ValueReference vr0 = 0, vr_set = (fmi2ValueReference)settable_real();
    double r = 0.0, seed = 1.0, out = 0.0;
    fmi2Integer i = 0;
    fmi2Boolean b = fmi2False, b2 = fmi2False;
    fmi2String s = NULL;
    fmi2EventInfo info;
    fmi2Status st;
    size_t size = 0;
    static fmi2Byte buffer[1 << 16];
    if (!strcmp(name, "SetDebugLogging")) return fmi2SetDebugLogging(c, fmi2False, 0, NULL);
    if (!strcmp(name, "SetupExperiment"))
        return fmi2SetupExperiment(c, fmi2False, 0.0, 0.0, fmi2False, 0.0);
    if (!strcmp(name, "EnterInitializationMode")) return fmi2EnterInitializationMode(c);
    if (!strcmp(name, "ExitInitializationMode")) return fmi2ExitInitializationMode(c);
    if (!strcmp(name, "Terminate")) return fmi2Terminate(c);
    if (!strcmp(name, "Reset")) return fmi2Reset(c);
    /* Value reference 0 is time (Real) and, when there is one, the first
     * Integer constant; zero-length requests for the other types. */
    if (!strcmp(name, "GetReal")) return fmi2GetReal(c, &vr0, 1, &r);
    if (!strcmp(name, "GetInteger")) return fmi2GetInteger(c, &vr0, SYS->n_integers > 0, &i);
    if (!strcmp(name, "GetBoolean")) return fmi2GetBoolean(c, &vr0, 0, &b);
    if (!strcmp(name, "GetString")) return fmi2GetString(c, &vr0, 0, &s);
    if (!strcmp(name, "SetReal")) {
        /* Inputs are settable in continuous-time mode, parameters and
         * starts only before; an empty request is allowed in all four. */
        return fmi2SetReal(c, &vr_set, 0, &r);
    }
    if (!strcmp(name, "SetInteger")) return fmi2SetInteger(c, &vr0, 0, &i);
    if (!strcmp(name, "SetBoolean")) return fmi2SetBoolean(c, &vr0, 0, &b);
    if (!strcmp(name, "SetString")) return fmi2SetString(c, &vr0, 0, &s);
    if (!strcmp(name, "GetFMUstate")) return fmi2GetFMUstate(c, fmu_state);
    if (!strcmp(name, "SetFMUstate")) return fmi2SetFMUstate(c, *fmu_state);
    if (!strcmp(name, "FreeFMUstate")) {
        fmi2FMUstate copy = NULL;
        /* Free a fresh copy, so that the snapshot survives for later calls. */
        st = fmi2DeSerializeFMUstate(c, bytes, n_bytes, &copy);
        if (st == fmi2Error) return fmi2FreeFMUstate(c, &copy);
        return fmi2FreeFMUstate(c, &copy);
    }
    if (!strcmp(name, "SerializedFMUstateSize"))
        return fmi2SerializedFMUstateSize(c, *fmu_state, &size);
    if (!strcmp(name, "SerializeFMUstate")) {
        if (n_bytes > sizeof buffer) return fmi2Error;
        return fmi2SerializeFMUstate(c, *fmu_state, buffer, n_bytes);
    }
    if (!strcmp(name, "DeSerializeFMUstate")) {
        fmi2FMUstate copy = NULL;
        st = fmi2DeSerializeFMUstate(c, bytes, n_bytes, &copy);
        if (copy != NULL) fmi2FreeFMUstate(c, &copy);
        return st;
    }
    if (!strcmp(name, "GetDirectionalDerivative")) {
        /* d der(x1) / d x1 when there is a state, else an empty request. */
        fmi2ValueReference unknown = NX > 0 ? SYS->derivative_vr[0] : 0;
        fmi2ValueReference known = NX > 0 ? SYS->state_vr[0] : 0;
        size_t n = NX > 0;
        return fmi2GetDirectionalDerivative(c, &unknown, n, &known, n, &seed, &out);
    }
    if (!strcmp(name, "EnterEventMode")) return fmi2EnterEventMode(c);
    if (!strcmp(name, "NewDiscreteStates")) return fmi2NewDiscreteStates(c, &info);
    if (!strcmp(name, "EnterContinuousTimeMode")) return fmi2EnterContinuousTimeMode(c);
    if (!strcmp(name, "CompletedIntegratorStep"))
        return fmi2CompletedIntegratorStep(c, fmi2True, &b, &b2);
    if (!strcmp(name, "SetTime")) return fmi2SetTime(c, 0.0);
    if (!strcmp(name, "SetContinuousStates")) {
        st = fmi2GetContinuousStates(c, xbuf, NX);
        (void)st;
        return fmi2SetContinuousStates(c, xbuf, NX);
    }
    if (!strcmp(name, "GetEventIndicators")) return fmi2GetEventIndicators(c, zbuf, NZ);
    if (!strcmp(name, "GetContinuousStates")) return fmi2GetContinuousStates(c, xbuf, NX);
    if (!strcmp(name, "GetDerivatives")) return fmi2GetDerivatives(c, xbuf, NX);
    if (!strcmp(name, "GetNominalsOfContinuousStates"))
        return fmi2GetNominalsOfContinuousStates(c, xbuf, NX);
    if (!strcmp(name, "SetRealInputDerivatives"))
        return fmi2SetRealInputDerivatives(c, &vr0, 0, &i, &r);
    if (!strcmp(name, "GetRealOutputDerivatives"))
        return fmi2GetRealOutputDerivatives(c, &vr0, 0, &i, &r);
    if (!strcmp(name, "DoStep")) return fmi2DoStep(c, 0.0, 0.1, fmi2True);
    if (!strcmp(name, "CancelStep")) return fmi2CancelStep(c);
    if (!strcmp(name, "GetStatus")) return fmi2GetStatus(c, fmi2DoStepStatus, &st);
    if (!strcmp(name, "GetRealStatus")) return fmi2GetRealStatus(c, fmi2LastSuccessfulTime, &r);
    if (!strcmp(name, "GetIntegerStatus")) return fmi2GetIntegerStatus(c, fmi2DoStepStatus, &i);
    if (!strcmp(name, "GetBooleanStatus")) return fmi2GetBooleanStatus(c, fmi2Terminated, &b);
    if (!strcmp(name, "GetStringStatus")) return fmi2GetStringStatus(c, fmi2PendingStatus, &s);
    printf("driver bug: unknown call %s\n", name);
    exit(2);
}

static int state_reached[N_STATES];

static void test_state_table(void)
{
    size_t k;
    int state;
    for (k = 0; k < sizeof CALLS / sizeof CALLS[0]; k++) {
        for (state = 0; state < N_STATES; state++) {
            Log log;
            fmi2Component c = in_state(state, &log);
            fmi2FMUstate snapshot = NULL;
            fmi2Byte *bytes = NULL;
            size_t n_bytes = 0;
            fmi2Status st, again;
            unsigned bit = B(state);
            if (c == NULL) continue;
            state_reached[state] = 1;
            /* A snapshot of this very state, for the FMU state calls. */
            CHECK(fmi2GetFMUstate(c, &snapshot) == fmi2OK && snapshot != NULL,
                  "fmi2GetFMUstate in %s", STATE_NAMES[state]);
            CHECK(fmi2SerializedFMUstateSize(c, snapshot, &n_bytes) == fmi2OK,
                  "fmi2SerializedFMUstateSize in %s", STATE_NAMES[state]);
            bytes = (fmi2Byte *)malloc(n_bytes > 0 ? n_bytes : 1);
            CHECK(fmi2SerializeFMUstate(c, snapshot, bytes, n_bytes) == fmi2OK,
                  "fmi2SerializeFMUstate in %s", STATE_NAMES[state]);
            memset(&log, 0, sizeof log);
            st = call(c, CALLS[k].name, &snapshot, bytes, n_bytes);
            if (((CALLS[k].allowed | CALLS[k].extension) & bit) &&
                !strcmp(CALLS[k].name, "GetDirectionalDerivative") && st == fmi2Error &&
                strstr(log.last, "not supported") != NULL) {
                /* An FMU that does not provide directional derivatives
                 * refuses them everywhere, with a message saying so. */
            } else if ((CALLS[k].allowed | CALLS[k].extension) & bit) {
                CHECK(st != fmi2Error && st != fmi2Fatal, "fmi2%s in state %s returned %d: %s",
                      CALLS[k].name, STATE_NAMES[state], (int)st, log.last);
            } else {
                CHECK(st == fmi2Error && log.last_status == fmi2Error && log.count > 0,
                      "fmi2%s in state %s (not allowed) returned %d, logged \"%s\"",
                      CALLS[k].name, STATE_NAMES[state], (int)st, log.last);
                /* The refusal changed nothing: refused again. */
                again = call(c, CALLS[k].name, &snapshot, bytes, n_bytes);
                CHECK(again == fmi2Error, "second fmi2%s in state %s returned %d",
                      CALLS[k].name, STATE_NAMES[state], (int)again);
            }
            fmi2FreeFMUstate(c, &snapshot);
            free(bytes);
            fmi2FreeInstance(c);
        }
    }
    for (state = 0; state < N_STATES; state++) {
        if (state == S_ERROR && failing_vr < 0) {
            printf("note: no parameter value makes this model fail; error state not tested\n");
            continue;
        }
        CHECK(state_reached[state], "state %s could not be reached", STATE_NAMES[state]);
    }
}

/* ------------------------------------------------------------------------
 * Bad arguments
 * ------------------------------------------------------------------------ */

static void test_arguments(void)
{
    Log log;
    fmi2Component c;
    fmi2ValueReference bad[2] = {(fmi2ValueReference)SYS->n_reals, 0xFFFFFFFFu};
    fmi2ValueReference vr_set = (fmi2ValueReference)settable_real();
    double values[2] = {0.0, 0.0}, nan = NAN, inf = INFINITY, before, after;
    fmi2FMUstate state = NULL, garbage = NULL;
    fmi2Byte junk[64];
    fmi2EventInfo info;

    /* The NULL instance and fmi2FreeInstance(NULL). */
    fmi2FreeInstance(NULL);
    CHECK(fmi2GetReal(NULL, bad, 1, values) == fmi2Error, "GetReal on NULL");
    CHECK(fmi2SetReal(NULL, bad, 1, values) == fmi2Error, "SetReal on NULL");
    CHECK(fmi2EnterInitializationMode(NULL) == fmi2Error, "EnterInit on NULL");
    CHECK(fmi2Terminate(NULL) == fmi2Error, "Terminate on NULL");
    CHECK(fmi2Reset(NULL) == fmi2Error, "Reset on NULL");
    CHECK(fmi2GetDerivatives(NULL, xbuf, NX) == fmi2Error, "GetDerivatives on NULL");
    CHECK(fmi2GetFMUstate(NULL, &state) == fmi2Error, "GetFMUstate on NULL");

    /* Instantiation refusals. */
    {
        fmi2CallbackFunctions functions = {logger, calloc, free, NULL, &log};
        memset(&log, 0, sizeof log);
        CHECK(fmi2Instantiate("x", fmi2ModelExchange, "{not the guid}", RESOURCES, &functions, 0,
                              0) == NULL,
              "wrong GUID accepted");
        CHECK(fmi2Instantiate("x", fmi2ModelExchange, SYS->guid, "file:///nonexistent/dir",
                              &functions, 0, 0) == NULL,
              "missing system resource accepted");
        CHECK(fmi2Instantiate("x", fmi2ModelExchange, NULL, "", &functions, 0, 0) == NULL,
              "NULL GUID accepted");
        CHECK(fmi2Instantiate("x", (fmi2Type)2, SYS->guid, "", &functions, 0, 0) == NULL,
              "FMU type 2 accepted");
        CHECK(fmi2Instantiate("x", fmi2ModelExchange, SYS->guid, "", NULL, 0, 0) == NULL,
              "NULL callbacks accepted");
        CHECK(fmi2Instantiate(NULL, fmi2ModelExchange, SYS->guid, "", &functions, 0, 0) == NULL,
              "NULL name accepted");
    }

    c = in_state(S_INIT, &log);
    CHECK(c != NULL, "initialization mode");
    if (c == NULL) return;
    /* NULL arrays with n > 0. */
    CHECK(fmi2GetReal(c, NULL, 1, values) == fmi2Error, "GetReal NULL vr");
    CHECK(fmi2GetReal(c, &vr_set, 1, NULL) == fmi2Error, "GetReal NULL value");
    CHECK(fmi2SetReal(c, NULL, 1, values) == fmi2Error, "SetReal NULL vr");
    CHECK(fmi2SetReal(c, &vr_set, 1, NULL) == fmi2Error, "SetReal NULL value");
    CHECK(fmi2GetInteger(c, NULL, 1, NULL) == fmi2Error, "GetInteger NULL");
    CHECK(fmi2GetContinuousStates(c, NULL, NX) == fmi2Error || NX == 0, "NULL states");
    CHECK(fmi2GetDerivatives(c, NULL, NX) == fmi2Error || NX == 0, "NULL derivatives");
    CHECK(fmi2GetEventIndicators(c, NULL, NZ) == fmi2Error || NZ == 0, "NULL indicators");
    CHECK(fmi2SetDebugLogging(c, fmi2True, 1, NULL) == fmi2Error, "NULL categories");
    CHECK(fmi2GetFMUstate(c, NULL) == fmi2Error, "GetFMUstate NULL slot");
    CHECK(fmi2SetFMUstate(c, NULL) == fmi2Error, "SetFMUstate NULL");
    /* Freeing nothing is harmless, like free(NULL). */
    CHECK(fmi2FreeFMUstate(c, NULL) == fmi2OK, "FreeFMUstate NULL slot");
    CHECK(fmi2FreeFMUstate(c, &garbage) == fmi2OK, "FreeFMUstate of a NULL state");
    CHECK(fmi2DeSerializeFMUstate(c, NULL, 8, &garbage) == fmi2Error, "DeSerialize NULL");
    /* Unknown value references, alone and among good ones. */
    CHECK(fmi2GetReal(c, bad, 1, values) == fmi2Error, "GetReal vr = n_reals");
    CHECK(fmi2GetReal(c, bad + 1, 1, values) == fmi2Error, "GetReal vr = UINT_MAX");
    CHECK(fmi2SetReal(c, bad, 1, values) == fmi2Error, "SetReal vr = n_reals");
    CHECK(fmi2GetInteger(c, bad + 1, 1, (fmi2Integer *)junk) == fmi2Error, "GetInteger bad vr");
    CHECK(fmi2GetBoolean(c, bad + 1, 1, (fmi2Boolean *)junk) == fmi2Error, "GetBoolean bad vr");
    {
        fmi2String strings[1];
        CHECK(fmi2GetString(c, bad + 1, 1, strings) == fmi2Error, "GetString bad vr");
    }
    if (vr_set != (fmi2ValueReference)-1) {
        fmi2ValueReference mixed[2];
        double v2[2];
        mixed[0] = vr_set;
        mixed[1] = bad[0];
        CHECK(fmi2GetReal(c, &vr_set, 1, &before) == fmi2OK, "GetReal settable");
        v2[0] = before + 1.0;
        v2[1] = 1.0;
        CHECK(fmi2SetReal(c, mixed, 2, v2) == fmi2Error, "SetReal with one bad vr");
        CHECK(fmi2GetReal(c, &vr_set, 1, &after) == fmi2OK && after == before,
              "a refused SetReal stored a value");
        /* Non-finite values. */
        CHECK(fmi2SetReal(c, &vr_set, 1, &nan) == fmi2Error, "SetReal NaN");
        CHECK(fmi2SetReal(c, &vr_set, 1, &inf) == fmi2Error, "SetReal Inf");
        CHECK(fmi2GetReal(c, &vr_set, 1, &after) == fmi2OK && after == before,
              "a non-finite SetReal stored a value");
    }
    /* Wrong sizes. */
    CHECK(fmi2GetContinuousStates(c, xbuf, NX + 1) == fmi2Error, "states nx + 1");
    CHECK(fmi2GetDerivatives(c, xbuf, NX + 1) == fmi2Error, "derivatives nx + 1");
    CHECK(fmi2GetEventIndicators(c, zbuf, NZ + 1) == fmi2Error, "indicators nz + 1");
    CHECK(NX == 0 || fmi2GetNominalsOfContinuousStates(c, xbuf, NX - 1) == fmi2Error,
          "nominals nx - 1");
    /* Corrupt serialized states. */
    memset(junk, 0xA5, sizeof junk);
    CHECK(fmi2DeSerializeFMUstate(c, junk, sizeof junk, &garbage) == fmi2Error && garbage == NULL,
          "garbage state accepted");
    CHECK(fmi2SetFMUstate(c, (fmi2FMUstate)junk) == fmi2Error, "foreign pointer accepted");

    /* Continuous-time mode. */
    CHECK(fmi2ExitInitializationMode(c) == fmi2OK, "exit init");
    do {
        CHECK(fmi2NewDiscreteStates(c, &info) == fmi2OK, "event iteration");
    } while (info.newDiscreteStatesNeeded);
    CHECK(fmi2EnterContinuousTimeMode(c) == fmi2OK, "continuous-time mode");
    CHECK(fmi2SetTime(c, nan) == fmi2Error, "SetTime NaN");
    CHECK(fmi2SetTime(c, inf) == fmi2Error, "SetTime Inf");
    if (NX > 0) {
        CHECK(fmi2GetContinuousStates(c, xbuf, NX) == fmi2OK, "states");
        before = xbuf[NX - 1];
        xbuf[NX - 1] = nan;
        CHECK(fmi2SetContinuousStates(c, xbuf, NX) == fmi2Error, "NaN state accepted");
        xbuf[NX - 1] = -inf;
        CHECK(fmi2SetContinuousStates(c, xbuf, NX) == fmi2Error, "-Inf state accepted");
        CHECK(fmi2GetContinuousStates(c, xbuf, NX) == fmi2OK && xbuf[NX - 1] == before,
              "a refused state was stored");
        CHECK(fmi2SetContinuousStates(c, xbuf, NX + 1) == fmi2Error, "SetContinuousStates nx+1");
        CHECK(fmi2SetContinuousStates(c, NULL, NX) == fmi2Error, "SetContinuousStates NULL");
        {
            fmi2ValueReference unknown = SYS->derivative_vr[0];
            double seed = 1.0, out = 0.0;
            CHECK(fmi2GetDirectionalDerivative(c, &unknown, 1, NULL, 1, &seed, &out) ==
                      fmi2Error,
                  "directional derivative with NULL knowns");
            CHECK(fmi2GetDirectionalDerivative(c, &unknown, 1, bad, 1, &seed, &out) == fmi2Error,
                  "directional derivative with a bad known");
        }
    }
    if (vr_set != (fmi2ValueReference)-1 && SYS->real_kind[vr_set] == MOFMU_KIND_PARAMETER) {
        CHECK(fmi2SetReal(c, &vr_set, 1, values) == fmi2Error,
              "parameter set in continuous-time mode");
    }
    /* Double terminate, then outputs are still readable. */
    CHECK(fmi2Terminate(c) == fmi2OK, "terminate");
    CHECK(fmi2Terminate(c) == fmi2OK, "second terminate");
    CHECK(fmi2GetReal(c, bad + 1, 0, values) == fmi2OK, "empty GetReal after terminate");
    fmi2FreeInstance(c);
}

/* ------------------------------------------------------------------------
 * Simulation: fixed-step Heun with events at step ends
 * ------------------------------------------------------------------------ */

typedef struct {
    int ok;
    int n_events;
    double *result; /* every real at the end, SYS->n_reals values */
} Run;

static double stop_time = 1.0;

static int event_iteration(fmi2Component c, fmi2EventInfo *info)
{
    int k = 0;
    do {
        if (fmi2NewDiscreteStates(c, info) != fmi2OK) return 0;
    } while (info->newDiscreteStatesNeeded && ++k < 100);
    return !info->newDiscreteStatesNeeded;
}

static void simulate(fmi2Component c, Run *run)
{
    const int steps = 400;
    double h = stop_time / steps, t = 0.0;
    double *x = calloc(NX + 1, sizeof(double)), *dx = calloc(NX + 1, sizeof(double));
    double *x1 = calloc(NX + 1, sizeof(double)), *dx1 = calloc(NX + 1, sizeof(double));
    double *z = calloc(NZ + 1, sizeof(double)), *z1 = calloc(NZ + 1, sizeof(double));
    fmi2ValueReference *all = calloc(SYS->n_reals, sizeof(fmi2ValueReference));
    fmi2EventInfo info;
    fmi2Boolean enter = fmi2False, terminate = fmi2False;
    size_t i;
    run->ok = 0;
    run->n_events = 0;
    run->result = calloc(SYS->n_reals, sizeof(double));
    if (c == NULL || fmi2SetupExperiment(c, fmi2False, 0.0, 0.0, fmi2True, stop_time) != fmi2OK ||
        fmi2EnterInitializationMode(c) != fmi2OK || fmi2ExitInitializationMode(c) != fmi2OK ||
        !event_iteration(c, &info) || fmi2EnterContinuousTimeMode(c) != fmi2OK ||
        fmi2GetContinuousStates(c, x, NX) != fmi2OK || fmi2GetEventIndicators(c, z, NZ) != fmi2OK) {
        goto done;
    }
    while (t < stop_time) {
        double t1 = t + h > stop_time - 0.5 * h ? stop_time : t + h;
        int event = 0;
        if (info.nextEventTimeDefined && info.nextEventTime <= t1) {
            t1 = info.nextEventTime;
            event = 1;
        }
        if (fmi2GetDerivatives(c, dx, NX) != fmi2OK) goto done;
        for (i = 0; i < NX; i++) x1[i] = x[i] + (t1 - t) * dx[i];
        if (fmi2SetTime(c, t1) != fmi2OK || fmi2SetContinuousStates(c, x1, NX) != fmi2OK ||
            fmi2GetDerivatives(c, dx1, NX) != fmi2OK)
            goto done;
        for (i = 0; i < NX; i++) x1[i] = x[i] + 0.5 * (t1 - t) * (dx[i] + dx1[i]);
        if (fmi2SetContinuousStates(c, x1, NX) != fmi2OK ||
            fmi2GetEventIndicators(c, z1, NZ) != fmi2OK ||
            fmi2CompletedIntegratorStep(c, fmi2True, &enter, &terminate) != fmi2OK)
            goto done;
        for (i = 0; i < NZ; i++) {
            if ((z[i] > 0) != (z1[i] > 0)) event = 1;
        }
        t = t1;
        memcpy(x, x1, NX * sizeof(double));
        if (event || enter) {
            run->n_events++;
            if (fmi2EnterEventMode(c) != fmi2OK || !event_iteration(c, &info) ||
                fmi2EnterContinuousTimeMode(c) != fmi2OK ||
                fmi2GetContinuousStates(c, x, NX) != fmi2OK)
                goto done;
        }
        if (fmi2GetEventIndicators(c, z, NZ) != fmi2OK) goto done;
    }
    for (i = 0; i < SYS->n_reals; i++) all[i] = (fmi2ValueReference)i;
    if (fmi2GetReal(c, all, SYS->n_reals, run->result) != fmi2OK) goto done;
    run->ok = fmi2Terminate(c) == fmi2OK;
done:
    free(x);
    free(dx);
    free(x1);
    free(dx1);
    free(z);
    free(z1);
    free(all);
}

static int same(const Run *a, const Run *b)
{
    return a->ok && b->ok && a->n_events == b->n_events &&
           memcmp(a->result, b->result, SYS->n_reals * sizeof(double)) == 0;
}

#define N_THREADS 4

typedef struct {
    Log log;
    Run run;
} ThreadRun;

static void *thread_main(void *argument)
{
    ThreadRun *tr = (ThreadRun *)argument;
    fmi2Component c = instantiate(&tr->log);
    simulate(c, &tr->run);
    fmi2FreeInstance(c);
    return NULL;
}

/* FMU state round trip in continuous-time mode: the derivatives after
 * restoring a state (directly, and through serialization) are bit for bit
 * those at the moment it was taken. */
static void test_state_round_trip(void)
{
    Log log;
    fmi2EventInfo info;
    fmi2FMUstate taken = NULL, restored = NULL;
    size_t size = 0, i;
    fmi2Byte *bytes = NULL;
    double *x = calloc(NX + 1, sizeof(double)), *d0 = calloc(NX + 1, sizeof(double));
    double *d1 = calloc(NX + 1, sizeof(double)), *d2 = calloc(NX + 1, sizeof(double));
    fmi2Component c = instantiate(&log);
    CHECK(c != NULL, "instantiate: %s", log.last);
    if (c == NULL) goto done;
    CHECK(fmi2SetupExperiment(c, fmi2False, 0.0, 0.0, fmi2True, stop_time) == fmi2OK &&
              fmi2EnterInitializationMode(c) == fmi2OK && fmi2ExitInitializationMode(c) == fmi2OK &&
              event_iteration(c, &info) && fmi2EnterContinuousTimeMode(c) == fmi2OK,
          "initialization for the state round trip: %s", log.last);
    CHECK(fmi2SetTime(c, 0.25 * stop_time) == fmi2OK, "set time");
    CHECK(fmi2GetContinuousStates(c, x, NX) == fmi2OK, "get states");
    for (i = 0; i < NX; i++) x[i] = x[i] * 1.01 + 0.001;
    CHECK(fmi2SetContinuousStates(c, x, NX) == fmi2OK, "set states");
    CHECK(fmi2GetDerivatives(c, d0, NX) == fmi2OK, "derivatives before: %s", log.last);
    CHECK(fmi2GetFMUstate(c, &taken) == fmi2OK, "get FMU state");
    CHECK(fmi2SerializedFMUstateSize(c, taken, &size) == fmi2OK && size > 0, "serialized size");
    bytes = calloc(size + 1, 1);
    CHECK(fmi2SerializeFMUstate(c, taken, bytes, size) == fmi2OK, "serialize");
    /* Move away: other time and states. */
    for (i = 0; i < NX; i++) x[i] = x[i] * 0.5 - 0.1;
    CHECK(fmi2SetTime(c, 0.5 * stop_time) == fmi2OK && fmi2SetContinuousStates(c, x, NX) == fmi2OK &&
              fmi2GetDerivatives(c, d1, NX) == fmi2OK,
          "moving away: %s", log.last);
    CHECK(fmi2SetFMUstate(c, taken) == fmi2OK && fmi2GetDerivatives(c, d1, NX) == fmi2OK,
          "restore the state: %s", log.last);
    CHECK(memcmp(d0, d1, NX * sizeof(double)) == 0, "derivatives after fmi2SetFMUstate differ");
    CHECK(fmi2DeSerializeFMUstate(c, bytes, size, &restored) == fmi2OK, "deserialize: %s", log.last);
    CHECK(fmi2SetTime(c, 0.75 * stop_time) == fmi2OK, "moving away again");
    CHECK(fmi2SetFMUstate(c, restored) == fmi2OK && fmi2GetDerivatives(c, d2, NX) == fmi2OK,
          "restore the deserialized state: %s", log.last);
    CHECK(memcmp(d0, d2, NX * sizeof(double)) == 0,
          "derivatives after a serialization round trip differ");
    fmi2FreeFMUstate(c, &taken);
    fmi2FreeFMUstate(c, &restored);
    fmi2FreeInstance(c);
    printf("FMU state round trip (get/set and serialize, %zu bytes): derivatives bit-identical\n",
           size);
done:
    free(bytes);
    free(x);
    free(d0);
    free(d1);
    free(d2);
}

static void test_runs(void)
{
    Log log;
    Run reference, again, after_state;
    ThreadRun runs[N_THREADS];
    pthread_t threads[N_THREADS];
    fmi2FMUstate at_start = NULL;
    int started[N_THREADS];
    int k;
    fmi2Component c = instantiate(&log);
    CHECK(c != NULL, "instantiate: %s", log.last);
    if (c == NULL) return;
    CHECK(fmi2GetFMUstate(c, &at_start) == fmi2OK, "snapshot after instantiation");
    simulate(c, &reference);
    CHECK(reference.ok, "simulation failed: %s", log.last);
    for (k = 0; k < (int)SYS->n_reals; k++) {
        CHECK(isfinite(reference.result[k]) || isnan(SYS->real_start[k]) ||
                  SYS->real_kind[k] == MOFMU_KIND_CONSTANT,
              "%s is not finite at the end: %g", (SYS->names + SYS->real_name_at[k]), reference.result[k]);
    }
    /* Reset, then the same run again. */
    CHECK(fmi2Reset(c) == fmi2OK, "reset");
    simulate(c, &again);
    CHECK(same(&reference, &again), "the run after fmi2Reset differs");
    /* Restoring the snapshot taken right after instantiation. */
    CHECK(fmi2SetFMUstate(c, at_start) == fmi2OK, "restore the first snapshot");
    simulate(c, &after_state);
    CHECK(same(&reference, &after_state), "the run after fmi2SetFMUstate differs");
    fmi2FreeFMUstate(c, &at_start);
    fmi2FreeInstance(c);

    /* Four instances in four threads at once. */
    for (k = 0; k < N_THREADS; k++) {
        memset(&runs[k], 0, sizeof runs[k]);
        started[k] = pthread_create(&threads[k], NULL, thread_main, &runs[k]) == 0;
        CHECK(started[k], "could not start thread %d", k);
    }
    for (k = 0; k < N_THREADS; k++) {
        if (!started[k]) continue;
        pthread_join(threads[k], NULL);
        CHECK(same(&reference, &runs[k].run), "thread %d differs from the reference", k);
        free(runs[k].run.result);
    }
    printf("simulated to t = %g with %d events; reset, restored and %d threaded runs "
           "bit-identical\n",
           stop_time, reference.n_events, N_THREADS);
    free(reference.result);
    free(again.result);
    free(after_state.result);
}

/* ------------------------------------------------------------------------
 * Co-Simulation
 * ------------------------------------------------------------------------ */

static fmi2Component instantiate_cs(Log *log)
{
    fmi2CallbackFunctions functions = {logger, calloc, free, NULL, log};
    memset(log, 0, sizeof *log);
    return fmi2Instantiate("misuse-cs", fmi2CoSimulation, SYS->guid, RESOURCES, &functions,
                           fmi2False,
                           fmi2False);
}

enum { C_INST, C_INIT, C_COMPLETE, C_FAILED, C_TERM, C_ERROR, N_CS_STATES };
static const char *const CS_STATE_NAMES[N_CS_STATES] = {
    "instantiated", "initializationMode", "stepComplete", "stepFailed", "terminated", "error"};
#define CS_ANY                                                                                 \
    (B(C_INST) | B(C_INIT) | B(C_COMPLETE) | B(C_FAILED) | B(C_TERM) | B(C_ERROR))
#define CS_GETTERS (B(C_INIT) | B(C_COMPLETE) | B(C_FAILED) | B(C_TERM) | B(C_ERROR))
#define CS_SETTERS (B(C_INST) | B(C_INIT) | B(C_COMPLETE))

/* The Co-Simulation columns of the FMI 2.0 calling-sequence table (section
 * 4.2.4). stepInProgress and stepCanceled need an asynchronous fmi2DoStep,
 * which mofmu does not offer, so fmi2CancelStep is refused everywhere.
 * Extension as for Model Exchange: fmi2Terminate in terminated. */
static const Call CS_CALLS[] = {
    {"SetDebugLogging", CS_ANY, 0},
    {"SetupExperiment", B(C_INST), 0},
    {"EnterInitializationMode", B(C_INST), 0},
    {"ExitInitializationMode", B(C_INIT), 0},
    {"Terminate", B(C_COMPLETE) | B(C_FAILED), B(C_TERM)},
    {"Reset", CS_ANY, 0},
    {"GetReal", CS_GETTERS, 0},
    {"GetInteger", CS_GETTERS, 0},
    {"GetBoolean", CS_GETTERS, 0},
    {"GetString", CS_GETTERS, 0},
    {"SetReal", CS_SETTERS, 0},
    {"SetInteger", CS_SETTERS, 0},
    {"SetBoolean", CS_SETTERS, 0},
    {"SetString", CS_SETTERS, 0},
    {"GetFMUstate", CS_ANY, 0},
    {"SetFMUstate", CS_ANY, 0},
    {"FreeFMUstate", CS_ANY, 0},
    {"SerializedFMUstateSize", CS_ANY, 0},
    {"SerializeFMUstate", CS_ANY, 0},
    {"DeSerializeFMUstate", CS_ANY, 0},
    {"GetDirectionalDerivative", CS_GETTERS, 0},
    {"EnterEventMode", 0, 0},
    {"NewDiscreteStates", 0, 0},
    {"EnterContinuousTimeMode", 0, 0},
    {"CompletedIntegratorStep", 0, 0},
    {"SetTime", 0, 0},
    {"SetContinuousStates", 0, 0},
    {"GetEventIndicators", 0, 0},
    {"GetContinuousStates", 0, 0},
    {"GetDerivatives", 0, 0},
    {"GetNominalsOfContinuousStates", 0, 0},
    {"SetRealInputDerivatives", CS_SETTERS, 0},
    {"GetRealOutputDerivatives", B(C_COMPLETE) | B(C_FAILED) | B(C_TERM) | B(C_ERROR), 0},
    {"DoStep", B(C_COMPLETE), 0},
    {"CancelStep", 0, 0},
    {"GetStatus", B(C_COMPLETE) | B(C_FAILED) | B(C_TERM), 0},
    {"GetRealStatus", B(C_COMPLETE) | B(C_FAILED) | B(C_TERM), 0},
    {"GetIntegerStatus", B(C_COMPLETE) | B(C_FAILED) | B(C_TERM), 0},
    {"GetBooleanStatus", B(C_COMPLETE) | B(C_FAILED) | B(C_TERM), 0},
    {"GetStringStatus", B(C_COMPLETE) | B(C_FAILED) | B(C_TERM), 0},
};

/* Byte offset of the instance state in a serialized FMU state (see the
 * layout in mofmu_runtime.c): magic, GUID length and bytes, three u64
 * sizes, the interface. */
static size_t serialized_state_offset(void)
{
    return 8 + 4 + strlen(SYS->guid) + 3 * 8 + 4;
}

/* A fresh Co-Simulation instance in `state`; NULL when unreachable. A
 * failed step is reached through the FMU state of a completed step with
 * its state field set to stepFailed, the one way that works for every
 * model (a real fmi2Discard is provoked in test_cs_arguments). */
static fmi2Component cs_in_state(int state, Log *log)
{
    fmi2Component c = instantiate_cs(log);
    if (c == NULL) return NULL;
    if (state == C_INST) return c;
    if (state == C_ERROR) {
        if (failing_vr < 0) {
            fmi2FreeInstance(c);
            return NULL;
        }
        set_failing(c);
        fmi2EnterInitializationMode(c);
        if (fmi2ExitInitializationMode(c) != fmi2Error) {
            fmi2FreeInstance(c);
            return NULL;
        }
        return c;
    }
    if (fmi2SetupExperiment(c, fmi2False, 0.0, 0.0, fmi2False, 0.0) != fmi2OK ||
        fmi2EnterInitializationMode(c) != fmi2OK) {
        fmi2FreeInstance(c);
        return NULL;
    }
    if (state == C_INIT) return c;
    if (fmi2ExitInitializationMode(c) != fmi2OK) {
        fmi2FreeInstance(c);
        return NULL;
    }
    if (state == C_COMPLETE) return c;
    if (state == C_FAILED) {
        fmi2FMUstate s = NULL;
        size_t n = 0;
        fmi2Byte *bytes;
        int ok = 0;
        if (fmi2GetFMUstate(c, &s) == fmi2OK && fmi2SerializedFMUstateSize(c, s, &n) == fmi2OK) {
            bytes = (fmi2Byte *)malloc(n);
            if (bytes != NULL && fmi2SerializeFMUstate(c, s, bytes, n) == fmi2OK) {
                uint32_t failed = 1u << 8; /* STATE_STEP_FAILED */
                size_t at = serialized_state_offset(), k;
                for (k = 0; k < 4; k++) bytes[at + k] = (fmi2Byte)(failed >> (8 * k));
                ok = fmi2DeSerializeFMUstate(c, bytes, n, &s) == fmi2OK &&
                     fmi2SetFMUstate(c, s) == fmi2OK;
            }
            free(bytes);
        }
        fmi2FreeFMUstate(c, &s);
        if (!ok) {
            fmi2FreeInstance(c);
            return NULL;
        }
        return c;
    }
    fmi2Terminate(c);
    return c;
}

static void test_cs_state_table(void)
{
    size_t k;
    int state, reached[N_CS_STATES] = {0};
    for (k = 0; k < sizeof CS_CALLS / sizeof CS_CALLS[0]; k++) {
        for (state = 0; state < N_CS_STATES; state++) {
            Log log;
            fmi2Component c = cs_in_state(state, &log);
            fmi2FMUstate snapshot = NULL;
            fmi2Byte *bytes = NULL;
            size_t n_bytes = 0;
            fmi2Status st, again;
            unsigned bit = B(state);
            if (c == NULL) continue;
            reached[state] = 1;
            CHECK(fmi2GetFMUstate(c, &snapshot) == fmi2OK && snapshot != NULL,
                  "CS fmi2GetFMUstate in %s", CS_STATE_NAMES[state]);
            CHECK(fmi2SerializedFMUstateSize(c, snapshot, &n_bytes) == fmi2OK,
                  "CS fmi2SerializedFMUstateSize in %s", CS_STATE_NAMES[state]);
            bytes = (fmi2Byte *)malloc(n_bytes > 0 ? n_bytes : 1);
            CHECK(fmi2SerializeFMUstate(c, snapshot, bytes, n_bytes) == fmi2OK,
                  "CS fmi2SerializeFMUstate in %s", CS_STATE_NAMES[state]);
            memset(&log, 0, sizeof log);
            st = call(c, CS_CALLS[k].name, &snapshot, bytes, n_bytes);
            if ((CS_CALLS[k].allowed | CS_CALLS[k].extension) & bit) {
                CHECK(st != fmi2Error && st != fmi2Fatal,
                      "CS fmi2%s in state %s returned %d: %s", CS_CALLS[k].name,
                      CS_STATE_NAMES[state], (int)st, log.last);
            } else {
                CHECK(st == fmi2Error && log.last_status == fmi2Error && log.count > 0,
                      "CS fmi2%s in state %s (not allowed) returned %d, logged \"%s\"",
                      CS_CALLS[k].name, CS_STATE_NAMES[state], (int)st, log.last);
                again = call(c, CS_CALLS[k].name, &snapshot, bytes, n_bytes);
                CHECK(again == fmi2Error, "second CS fmi2%s in state %s returned %d",
                      CS_CALLS[k].name, CS_STATE_NAMES[state], (int)again);
            }
            fmi2FreeFMUstate(c, &snapshot);
            free(bytes);
            fmi2FreeInstance(c);
        }
    }
    for (state = 0; state < N_CS_STATES; state++) {
        if (state == C_ERROR && failing_vr < 0) continue;
        CHECK(reached[state], "CS state %s could not be reached", CS_STATE_NAMES[state]);
    }
}

/* Every real of the instance, into `out`. */
static int get_all(fmi2Component c, double *out)
{
    size_t i;
    for (i = 0; i < SYS->n_reals; i++) {
        fmi2ValueReference vr = (fmi2ValueReference)i;
        if (fmi2GetReal(c, &vr, 1, &out[i]) != fmi2OK) return 0;
    }
    return 1;
}

/* The first Real input, or -1. */
static long first_input(void)
{
    size_t i;
    for (i = 0; i < SYS->n_reals; i++) {
        if (SYS->real_kind[i] == MOFMU_KIND_INPUT) return (long)i;
    }
    return -1;
}

static void test_cs_arguments(void)
{
    Log log;
    fmi2Component c = cs_in_state(C_COMPLETE, &log), me;
    fmi2Status status = fmi2OK;
    double r = 0.0, h = stop_time / 10;
    fmi2Integer order = 1, two = 2;
    fmi2Boolean b = fmi2True;
    fmi2ValueReference time_vr = 0;
    long input = first_input();
    fmi2FMUstate me_state = NULL;
    CHECK(c != NULL, "CS instance: %s", log.last);
    if (c == NULL) return;
    CHECK(fmi2DoStep(c, 1.0 + h, h, fmi2True) == fmi2Error, "DoStep from a wrong point");
    CHECK(fmi2DoStep(c, 0.0, 0.0, fmi2True) == fmi2Error, "DoStep with step 0");
    CHECK(fmi2DoStep(c, 0.0, -h, fmi2True) == fmi2Error, "DoStep with a negative step");
    CHECK(fmi2DoStep(c, NAN, h, fmi2True) == fmi2Error, "DoStep from NaN");
    CHECK(fmi2DoStep(c, 0.0, INFINITY, fmi2True) == fmi2Error, "DoStep by infinity");
    CHECK(fmi2GetReal(c, &time_vr, 1, &r) == fmi2OK && r == 0.0,
          "refused steps moved time to %g", r);
    /* A master's accumulated rounding is not a wrong point. */
    CHECK(fmi2DoStep(c, 0.0, h, fmi2True) == fmi2OK, "DoStep: %s", log.last);
    CHECK(fmi2DoStep(c, h * (1.0 + 1e-14), h, fmi2False) == fmi2OK,
          "DoStep from a point off by rounding: %s", log.last);
    CHECK(fmi2GetRealStatus(c, fmi2LastSuccessfulTime, &r) == fmi2OK &&
              fabs(r - 2 * h) <= 1e-12 * stop_time,
          "last successful time %g, expected %g", r, 2 * h);
    CHECK(fmi2GetStatus(c, fmi2DoStepStatus, &status) == fmi2OK && status == fmi2OK,
          "DoStep status %d", (int)status);
    CHECK(fmi2GetBooleanStatus(c, fmi2Terminated, &b) == fmi2OK && b == fmi2False,
          "terminated status");
    CHECK(fmi2GetStatus(c, (fmi2StatusKind)7, &status) == fmi2Error, "unknown status kind");
    CHECK(fmi2GetRealStatus(c, fmi2LastSuccessfulTime, NULL) == fmi2Error, "NULL status value");
    CHECK(fmi2GetRealStatus(c, fmi2DoStepStatus, &r) == fmi2Discard,
          "a status kind of another type is fmi2Discard");
    CHECK(fmi2CancelStep(c) == fmi2Error, "CancelStep without a step in progress");
    CHECK(fmi2SetRealInputDerivatives(c, &time_vr, 1, &order, &r) == fmi2Error,
          "input derivative of time");
    CHECK(fmi2SetRealInputDerivatives(c, NULL, 1, &order, &r) == fmi2Error,
          "input derivatives with NULL vr");
    if (input >= 0) {
        fmi2ValueReference vr = (fmi2ValueReference)input;
        double nan = NAN;
        CHECK(fmi2SetRealInputDerivatives(c, &vr, 1, &two, &r) == fmi2Error,
              "second-order input derivative");
        CHECK(fmi2SetRealInputDerivatives(c, &vr, 1, &order, &nan) == fmi2Error,
              "NaN input derivative");
        r = 0.5;
        CHECK(fmi2SetRealInputDerivatives(c, &vr, 1, &order, &r) == fmi2OK,
              "input derivative: %s", log.last);
    }
    /* ME calls and ME states are refused. */
    CHECK(fmi2GetDerivatives(c, xbuf, NX) == fmi2Error, "GetDerivatives in CS");
    me = in_state(S_CONT, &log);
    if (me != NULL) {
        CHECK(fmi2DoStep(me, 0.0, h, fmi2True) == fmi2Error, "DoStep in ME");
        CHECK(fmi2GetFMUstate(me, &me_state) == fmi2OK, "ME state");
        CHECK(fmi2SetFMUstate(c, me_state) == fmi2Error, "an ME state set into a CS instance");
        fmi2FreeFMUstate(me, &me_state);
        fmi2FreeInstance(me);
    }
    fmi2FreeInstance(c);
    printf("Co-Simulation arguments checked%s\n", input >= 0 ? " (with an input)" : "");
}

/* fmi2GetRealOutputDerivatives: wrong orders, non-outputs, unknown value
 * references and NULL arrays are refused; the first derivative of every
 * output agrees with the output's change over a short step (saved and
 * restored around it, so the instance is left as it was). */
static void test_cs_output_derivatives(void)
{
    Log log;
    fmi2Component c = cs_in_state(C_COMPLETE, &log);
    double h = stop_time / 10, r = 0.0, y0 = 0.0, y1 = 0.0, dy = 0.0, tiny;
    fmi2Integer one = 1, two = 2, zero = 0;
    fmi2ValueReference time_vr = 0, bad = (fmi2ValueReference)(SYS->n_reals + 3);
    fmi2FMUstate saved = NULL;
    size_t i;
    long output = -1;
    CHECK(c != NULL, "CS instance: %s", log.last);
    if (c == NULL) return;
    for (i = 0; i < SYS->n_reals && output < 0; i++) {
        if (SYS->real_kind[i] == MOFMU_KIND_OUTPUT) output = (long)i;
    }
    CHECK(fmi2DoStep(c, 0.0, h, fmi2True) == fmi2OK, "DoStep: %s", log.last);
    CHECK(fmi2GetRealOutputDerivatives(c, &time_vr, 1, &one, &r) == fmi2Error,
          "output derivative of time");
    CHECK(fmi2GetRealOutputDerivatives(c, &bad, 1, &one, &r) == fmi2Error,
          "output derivative of an unknown value reference");
    CHECK(fmi2GetRealOutputDerivatives(c, NULL, 1, &one, &r) == fmi2Error,
          "output derivatives with NULL vr");
    if (output >= 0) {
        fmi2ValueReference vr = (fmi2ValueReference)output;
        CHECK(fmi2GetRealOutputDerivatives(c, &vr, 1, &two, &r) == fmi2Error,
              "second-order output derivative");
        CHECK(fmi2GetRealOutputDerivatives(c, &vr, 1, &zero, &r) == fmi2Error,
              "zeroth-order output derivative");
        CHECK(fmi2GetRealOutputDerivatives(c, &vr, 1, NULL, &r) == fmi2Error,
              "output derivatives with NULL order");
        CHECK(fmi2GetRealOutputDerivatives(c, &vr, 1, &one, NULL) == fmi2Error,
              "output derivatives with NULL value");
        CHECK(fmi2GetReal(c, &vr, 1, &y0) == fmi2OK, "output");
        CHECK(fmi2GetRealOutputDerivatives(c, &vr, 1, &one, &dy) == fmi2OK && isfinite(dy),
              "output derivative: %s", log.last);
        CHECK(fmi2GetReal(c, &vr, 1, &r) == fmi2OK && r == y0,
              "the output derivative changed the output from %.17g to %.17g", y0, r);
        CHECK(fmi2GetFMUstate(c, &saved) == fmi2OK, "save");
        tiny = h * 1e-6;
        CHECK(fmi2DoStep(c, h, tiny, fmi2False) == fmi2OK, "short step: %s", log.last);
        CHECK(fmi2GetReal(c, &vr, 1, &y1) == fmi2OK, "output after the short step");
        CHECK(fabs((y1 - y0) / tiny - dy) <= 1e-3 * (fabs(dy) + fabs(y0) / stop_time) + 1e-9,
              "d%s/dt = %.17g, but the output changed at %.17g over a short step",
              SYS->names + SYS->real_name_at[vr], dy, (y1 - y0) / tiny);
        CHECK(fmi2SetFMUstate(c, saved) == fmi2OK, "restore");
        fmi2FreeFMUstate(c, &saved);
    }
    fmi2FreeInstance(c);
    printf("output derivatives checked%s\n", output >= 0 ? " (with an output)" : "");
}

/* Save, step, restore, step: bit-identical; likewise through the
 * serialized bytes. */
static void test_cs_round_trip(void)
{
    Log log;
    fmi2Component c = cs_in_state(C_COMPLETE, &log);
    double h = stop_time / 7, t = 0.0;
    double *a = calloc(SYS->n_reals + 1, sizeof(double));
    double *b = calloc(SYS->n_reals + 1, sizeof(double));
    double *d = calloc(SYS->n_reals + 1, sizeof(double));
    fmi2FMUstate saved = NULL, back = NULL;
    fmi2Byte *bytes = NULL;
    size_t size = 0;
    long input = first_input();
    int k;
    CHECK(c != NULL, "CS instance: %s", log.last);
    if (c == NULL) goto done;
    for (k = 0; k < 3; k++, t += h) {
        CHECK(fmi2DoStep(c, t, h, fmi2False) == fmi2OK, "DoStep %d: %s", k, log.last);
    }
    if (input >= 0) {
        fmi2ValueReference vr = (fmi2ValueReference)input;
        fmi2Integer order = 1;
        double du = 0.25;
        CHECK(fmi2SetRealInputDerivatives(c, &vr, 1, &order, &du) == fmi2OK,
              "input derivative before the save");
    }
    CHECK(fmi2GetFMUstate(c, &saved) == fmi2OK, "save");
    CHECK(fmi2SerializedFMUstateSize(c, saved, &size) == fmi2OK, "size");
    bytes = calloc(size + 1, 1);
    CHECK(fmi2SerializeFMUstate(c, saved, bytes, size) == fmi2OK, "serialize");
    CHECK(fmi2DoStep(c, t, h, fmi2False) == fmi2OK && get_all(c, a), "step: %s", log.last);
    CHECK(fmi2DoStep(c, t + h, h, fmi2False) == fmi2OK, "step on");
    CHECK(fmi2SetFMUstate(c, saved) == fmi2OK, "restore");
    CHECK(fmi2DoStep(c, t, h, fmi2False) == fmi2OK && get_all(c, b), "step again: %s", log.last);
    CHECK(memcmp(a, b, SYS->n_reals * sizeof(double)) == 0,
          "save-step-restore-step is not bit-identical");
    CHECK(fmi2DeSerializeFMUstate(c, bytes, size, &back) == fmi2OK && fmi2SetFMUstate(c, back) ==
                                                                          fmi2OK,
          "deserialize and restore: %s", log.last);
    CHECK(fmi2DoStep(c, t, h, fmi2False) == fmi2OK && get_all(c, d), "step after deserialize");
    CHECK(memcmp(a, d, SYS->n_reals * sizeof(double)) == 0,
          "serialize-step-deserialize-step is not bit-identical");
    /* Run to the end with variable steps. */
    t += h;
    while (t < stop_time - 1e-12 * stop_time) {
        double step = (t + 2 * h > stop_time) ? stop_time - t : (k++ % 2 ? h : 0.5 * h);
        if (fmi2DoStep(c, t, step, fmi2True) != fmi2OK) {
            CHECK(0, "DoStep at %g: %s", t, log.last);
            break;
        }
        t += step;
    }
    CHECK(fmi2Terminate(c) == fmi2OK, "terminate");
    printf("Co-Simulation: save-step-restore-step and serialization (%zu bytes) bit-identical; "
           "variable steps to t = %g\n",
           size, t);
    fmi2FreeFMUstate(c, &saved);
    fmi2FreeFMUstate(c, &back);
    fmi2FreeInstance(c);
done:
    free(bytes);
    free(a);
    free(b);
    free(d);
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
    SYS = mofmu_system_load(RESOURCES, problem, sizeof problem);
    if (SYS == NULL) {
        printf("FAIL: %s\n", problem);
        return 1;
    }
    xbuf = calloc(NX + 2, sizeof(double));
    zbuf = calloc(NZ + 2, sizeof(double));
    find_failure();
    if (failing_vr >= 0) {
        printf("error state: %s = %g makes initialization fail\n",
               (size_t)failing_vr == SYS->n_reals ? "every parameter and start"
                                                   : (SYS->names + SYS->real_name_at[failing_vr]),
               failing_value);
    }
    test_state_table();
    test_arguments();
    test_runs();
    test_state_round_trip();
    test_cs_state_table();
    test_cs_arguments();
    test_cs_output_derivatives();
    test_cs_round_trip();
    free(xbuf);
    free(zbuf);
    mofmu_system_free(SYS);
    printf("%d checks, %d failures\n", n_checks, n_failures);
    return n_failures == 0 ? 0 : 1;
}
