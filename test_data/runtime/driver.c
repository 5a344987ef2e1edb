/* Test driver for the static runtime: loads an FMU binary built from
 * templates/mofmu_runtime.c and test_data/runtime/fake_system.c with
 * dlopen, walks through the FMI 2.0 Model Exchange calls an importer makes,
 * compares the simulation with the model's closed-form solution, and then
 * misuses every function. Prints one line per failed check and a summary;
 * exits with status 0 only when every check passed.
 *
 * Usage: driver path/to/FakeSystem.so */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mofmu_fmi2.h"

static const char GUID[] = "{6d6f666d-7566-616b-6573-797374656d31}";

/* Value references of the fake model. */
enum { VR_X, VR_V, VR_K, VR_X0V, VR_K2, VR_DER_X, VR_DER_V, VR_Y, VR_HIGH, VR_U, VR_W, VR_C };
#define N_REALS 12
#define NX 2
#define NZ 1

/* ------------------------------------------------------------------------
 * Checks
 * ------------------------------------------------------------------------ */

static int n_checks;
static int n_failures;
/* Checks also run in the threads of test_threads. */
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

/* ------------------------------------------------------------------------
 * The logger: remembers the last message and counts messages by status.
 * ------------------------------------------------------------------------ */

typedef struct {
    char last[2048];
    char last_category[64];
    fmi2Status last_status;
    int count;
} LogRecord;

static void logger(fmi2ComponentEnvironment env, fmi2String instance, fmi2Status status,
                   fmi2String category, fmi2String message, ...)
{
    LogRecord *log = (LogRecord *)env;
    va_list args;
    (void)instance;
    va_start(args, message);
    vsnprintf(log->last, sizeof log->last, message, args);
    va_end(args);
    snprintf(log->last_category, sizeof log->last_category, "%s", category);
    log->last_status = status;
    log->count++;
    if (getenv("MOFMU_DRIVER_VERBOSE") != NULL) {
        printf("  log [%s] %s\n", category, log->last);
    }
}

static void clear_log(LogRecord *log)
{
    log->last[0] = '\0';
    log->last_category[0] = '\0';
    log->last_status = fmi2OK;
    log->count = 0;
}

static int logged(const LogRecord *log, const char *fragment)
{
    return strstr(log->last, fragment) != NULL;
}

/* ------------------------------------------------------------------------
 * The loaded FMU
 * ------------------------------------------------------------------------ */

typedef struct {
    const char *(*GetTypesPlatform)(void);
    const char *(*GetVersion)(void);
    fmi2Status (*SetDebugLogging)(fmi2Component, fmi2Boolean, size_t, const fmi2String[]);
    fmi2Component (*Instantiate)(fmi2String, fmi2Type, fmi2String, fmi2String,
                                 const fmi2CallbackFunctions *, fmi2Boolean, fmi2Boolean);
    void (*FreeInstance)(fmi2Component);
    fmi2Status (*SetupExperiment)(fmi2Component, fmi2Boolean, fmi2Real, fmi2Real, fmi2Boolean,
                                  fmi2Real);
    fmi2Status (*EnterInitializationMode)(fmi2Component);
    fmi2Status (*ExitInitializationMode)(fmi2Component);
    fmi2Status (*Terminate)(fmi2Component);
    fmi2Status (*Reset)(fmi2Component);
    fmi2Status (*GetReal)(fmi2Component, const fmi2ValueReference[], size_t, fmi2Real[]);
    fmi2Status (*GetInteger)(fmi2Component, const fmi2ValueReference[], size_t, fmi2Integer[]);
    fmi2Status (*GetBoolean)(fmi2Component, const fmi2ValueReference[], size_t, fmi2Boolean[]);
    fmi2Status (*GetString)(fmi2Component, const fmi2ValueReference[], size_t, fmi2String[]);
    fmi2Status (*SetReal)(fmi2Component, const fmi2ValueReference[], size_t, const fmi2Real[]);
    fmi2Status (*SetInteger)(fmi2Component, const fmi2ValueReference[], size_t,
                             const fmi2Integer[]);
    fmi2Status (*SetBoolean)(fmi2Component, const fmi2ValueReference[], size_t,
                             const fmi2Boolean[]);
    fmi2Status (*SetString)(fmi2Component, const fmi2ValueReference[], size_t,
                            const fmi2String[]);
    fmi2Status (*GetFMUstate)(fmi2Component, fmi2FMUstate *);
    fmi2Status (*SetFMUstate)(fmi2Component, fmi2FMUstate);
    fmi2Status (*FreeFMUstate)(fmi2Component, fmi2FMUstate *);
    fmi2Status (*SerializedFMUstateSize)(fmi2Component, fmi2FMUstate, size_t *);
    fmi2Status (*SerializeFMUstate)(fmi2Component, fmi2FMUstate, fmi2Byte[], size_t);
    fmi2Status (*DeSerializeFMUstate)(fmi2Component, const fmi2Byte[], size_t, fmi2FMUstate *);
    fmi2Status (*GetDirectionalDerivative)(fmi2Component, const fmi2ValueReference[], size_t,
                                           const fmi2ValueReference[], size_t, const fmi2Real[],
                                           fmi2Real[]);
    fmi2Status (*EnterEventMode)(fmi2Component);
    fmi2Status (*NewDiscreteStates)(fmi2Component, fmi2EventInfo *);
    fmi2Status (*EnterContinuousTimeMode)(fmi2Component);
    fmi2Status (*CompletedIntegratorStep)(fmi2Component, fmi2Boolean, fmi2Boolean *,
                                          fmi2Boolean *);
    fmi2Status (*SetTime)(fmi2Component, fmi2Real);
    fmi2Status (*SetContinuousStates)(fmi2Component, const fmi2Real[], size_t);
    fmi2Status (*GetDerivatives)(fmi2Component, fmi2Real[], size_t);
    fmi2Status (*GetEventIndicators)(fmi2Component, fmi2Real[], size_t);
    fmi2Status (*GetContinuousStates)(fmi2Component, fmi2Real[], size_t);
    fmi2Status (*GetNominalsOfContinuousStates)(fmi2Component, fmi2Real[], size_t);
    fmi2Status (*SetRealInputDerivatives)(fmi2Component, const fmi2ValueReference[], size_t,
                                          const fmi2Integer[], const fmi2Real[]);
    fmi2Status (*GetRealOutputDerivatives)(fmi2Component, const fmi2ValueReference[], size_t,
                                           const fmi2Integer[], fmi2Real[]);
    fmi2Status (*DoStep)(fmi2Component, fmi2Real, fmi2Real, fmi2Boolean);
    fmi2Status (*CancelStep)(fmi2Component);
    fmi2Status (*GetStatus)(fmi2Component, const fmi2StatusKind, fmi2Status *);
    fmi2Status (*GetRealStatus)(fmi2Component, const fmi2StatusKind, fmi2Real *);
    fmi2Status (*GetIntegerStatus)(fmi2Component, const fmi2StatusKind, fmi2Integer *);
    fmi2Status (*GetBooleanStatus)(fmi2Component, const fmi2StatusKind, fmi2Boolean *);
    fmi2Status (*GetStringStatus)(fmi2Component, const fmi2StatusKind, fmi2String *);
} Fmi;

static Fmi F;
/* The fmuResourceLocation of the fake system (the driver's second argument). */
static const char *RESOURCES;

/* POSIX guarantees that a dlsym result can be stored into a function
 * pointer through an object-pointer view of it. */
#define LOAD(handle, name)                                                                     \
    do {                                                                                       \
        void *symbol = dlsym(handle, "fmi2" #name);                                            \
        if (symbol == NULL) {                                                                  \
            printf("FAIL: symbol fmi2" #name " is not exported\n");                            \
            exit(1);                                                                           \
        }                                                                                      \
        memcpy(&F.name, &symbol, sizeof symbol);                                               \
    } while (0)

static void load(void *h)
{
    LOAD(h, GetTypesPlatform);
    LOAD(h, GetVersion);
    LOAD(h, SetDebugLogging);
    LOAD(h, Instantiate);
    LOAD(h, FreeInstance);
    LOAD(h, SetupExperiment);
    LOAD(h, EnterInitializationMode);
    LOAD(h, ExitInitializationMode);
    LOAD(h, Terminate);
    LOAD(h, Reset);
    LOAD(h, GetReal);
    LOAD(h, GetInteger);
    LOAD(h, GetBoolean);
    LOAD(h, GetString);
    LOAD(h, SetReal);
    LOAD(h, SetInteger);
    LOAD(h, SetBoolean);
    LOAD(h, SetString);
    LOAD(h, GetFMUstate);
    LOAD(h, SetFMUstate);
    LOAD(h, FreeFMUstate);
    LOAD(h, SerializedFMUstateSize);
    LOAD(h, SerializeFMUstate);
    LOAD(h, DeSerializeFMUstate);
    LOAD(h, GetDirectionalDerivative);
    LOAD(h, EnterEventMode);
    LOAD(h, NewDiscreteStates);
    LOAD(h, EnterContinuousTimeMode);
    LOAD(h, CompletedIntegratorStep);
    LOAD(h, SetTime);
    LOAD(h, SetContinuousStates);
    LOAD(h, GetDerivatives);
    LOAD(h, GetEventIndicators);
    LOAD(h, GetContinuousStates);
    LOAD(h, GetNominalsOfContinuousStates);
    LOAD(h, SetRealInputDerivatives);
    LOAD(h, GetRealOutputDerivatives);
    LOAD(h, DoStep);
    LOAD(h, CancelStep);
    LOAD(h, GetStatus);
    LOAD(h, GetRealStatus);
    LOAD(h, GetIntegerStatus);
    LOAD(h, GetBooleanStatus);
    LOAD(h, GetStringStatus);
}

static fmi2Component instantiate(const char *name, LogRecord *log)
{
    fmi2CallbackFunctions functions = {logger, calloc, free, NULL, log};
    return F.Instantiate(name, fmi2ModelExchange, GUID, RESOURCES, &functions, fmi2False,
                         fmi2False);
}

static double get_real(fmi2Component c, fmi2ValueReference vr)
{
    double value = NAN;
    fmi2Status status = F.GetReal(c, &vr, 1, &value);
    CHECK(status == fmi2OK, "fmi2GetReal(%u) returned %d", vr, (int)status);
    return value;
}

static fmi2Status set_real(fmi2Component c, fmi2ValueReference vr, double value)
{
    return F.SetReal(c, &vr, 1, &value);
}

/* ------------------------------------------------------------------------
 * A small Model Exchange simulator: classic Runge-Kutta with a fixed step,
 * time events hit exactly, state events located by bisection.
 * ------------------------------------------------------------------------ */

typedef struct {
    fmi2Component c;
    double t, t_end, h;
    double x[NX];
    double z;
    fmi2EventInfo info;
    int n_time_events;
    int n_state_events;
    /* Event iterations whose first fmi2NewDiscreteStates saw a relation
     * change. */
    int n_relation_changes;
    double state_event_time;
    int ok;
    /* Results at t_end. */
    double result[N_REALS];
} Sim;

static int derivatives_at(Sim *s, double t, const double x[NX], double dx[NX])
{
    return F.SetTime(s->c, t) == fmi2OK && F.SetContinuousStates(s->c, x, NX) == fmi2OK &&
           F.GetDerivatives(s->c, dx, NX) == fmi2OK;
}

/* One Runge-Kutta step from (s->t, s->x) to `t1`, into `x1`. */
static int rk4(Sim *s, double t1, double x1[NX])
{
    double k1[NX], k2[NX], k3[NX], k4[NX], tmp[NX];
    double h = t1 - s->t;
    int i;
    if (!derivatives_at(s, s->t, s->x, k1)) return 0;
    for (i = 0; i < NX; i++) tmp[i] = s->x[i] + 0.5 * h * k1[i];
    if (!derivatives_at(s, s->t + 0.5 * h, tmp, k2)) return 0;
    for (i = 0; i < NX; i++) tmp[i] = s->x[i] + 0.5 * h * k2[i];
    if (!derivatives_at(s, s->t + 0.5 * h, tmp, k3)) return 0;
    for (i = 0; i < NX; i++) tmp[i] = s->x[i] + h * k3[i];
    if (!derivatives_at(s, t1, tmp, k4)) return 0;
    for (i = 0; i < NX; i++) x1[i] = s->x[i] + h / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    return 1;
}

static int indicator_at(Sim *s, double t, const double x[NX], double *z)
{
    return F.SetTime(s->c, t) == fmi2OK && F.SetContinuousStates(s->c, x, NX) == fmi2OK &&
           F.GetEventIndicators(s->c, z, NZ) == fmi2OK;
}

static int event_iteration(Sim *s)
{
    int iterations = 0;
    do {
        if (F.NewDiscreteStates(s->c, &s->info) != fmi2OK) return 0;
        if (iterations == 0 && s->info.newDiscreteStatesNeeded) s->n_relation_changes++;
        iterations++;
    } while (s->info.newDiscreteStatesNeeded && iterations < 10);
    CHECK(!s->info.newDiscreteStatesNeeded, "event iteration did not converge");
    CHECK(!s->info.terminateSimulation && !s->info.valuesOfContinuousStatesChanged &&
              !s->info.nominalsOfContinuousStatesChanged,
          "unexpected event info flags");
    return 1;
}

/* Instantiated component -> continuous-time mode at t = 0. */
static void sim_start(Sim *s, fmi2Component c, double k)
{
    memset(s, 0, sizeof *s);
    s->c = c;
    s->t = 0.0;
    s->t_end = 1.0;
    s->h = 1.0 / 1024.0;
    s->ok = c != NULL && F.SetupExperiment(c, fmi2False, 0.0, 0.0, fmi2True, 1.0) == fmi2OK &&
            set_real(c, VR_K, k) == fmi2OK && F.EnterInitializationMode(c) == fmi2OK &&
            F.ExitInitializationMode(c) == fmi2OK && event_iteration(s) &&
            F.EnterContinuousTimeMode(c) == fmi2OK &&
            F.GetContinuousStates(c, s->x, NX) == fmi2OK &&
            F.GetEventIndicators(c, &s->z, NZ) == fmi2OK;
    CHECK(s->ok, "simulation start failed");
    CHECK(s->info.nextEventTimeDefined && s->info.nextEventTime == 0.5,
          "first time event should be 0.5, got defined=%d time=%g", s->info.nextEventTimeDefined,
          s->info.nextEventTime);
}

static int handle_event(Sim *s)
{
    return F.EnterEventMode(s->c) == fmi2OK && event_iteration(s) &&
           F.EnterContinuousTimeMode(s->c) == fmi2OK &&
           F.GetContinuousStates(s->c, s->x, NX) == fmi2OK &&
           F.GetEventIndicators(s->c, &s->z, NZ) == fmi2OK;
}

/* Advances by one step (or up to an event); returns 0 when done. */
static int sim_step(Sim *s)
{
    double t1, x1[NX], z1;
    int time_event = 0, state_event = 0;
    fmi2Boolean enter_event = fmi2False, terminate = fmi2False;
    if (!s->ok || s->t >= s->t_end) return 0;
    t1 = s->t + s->h;
    if (t1 > s->t_end) t1 = s->t_end;
    if (s->info.nextEventTimeDefined && s->info.nextEventTime <= t1) {
        t1 = s->info.nextEventTime;
        time_event = 1;
    }
    if (!rk4(s, t1, x1) || !indicator_at(s, t1, x1, &z1)) {
        s->ok = 0;
        CHECK(0, "step at t=%g failed", s->t);
        return 0;
    }
    if ((s->z > 0) != (z1 > 0)) {
        /* Bisect for the first point past the crossing. */
        double lo = s->t, hi = t1, xm[NX], zm;
        int i;
        for (i = 0; i < 60 && hi - lo > 1e-13; i++) {
            double mid = 0.5 * (lo + hi);
            if (!rk4(s, mid, xm) || !indicator_at(s, mid, xm, &zm)) {
                s->ok = 0;
                return 0;
            }
            if ((s->z > 0) != (zm > 0)) hi = mid; else lo = mid;
        }
        t1 = hi;
        if (!rk4(s, t1, x1) || !indicator_at(s, t1, x1, &z1)) {
            s->ok = 0;
            return 0;
        }
        state_event = 1;
        time_event = 0;
        s->n_state_events++;
        s->state_event_time = t1;
    }
    s->t = t1;
    memcpy(s->x, x1, sizeof x1);
    s->z = z1;
    if (F.CompletedIntegratorStep(s->c, fmi2True, &enter_event, &terminate) != fmi2OK) {
        s->ok = 0;
        return 0;
    }
    CHECK(!enter_event && !terminate, "completed integrator step asked for something");
    if (time_event) s->n_time_events++;
    if (time_event || state_event) {
        if (!handle_event(s)) {
            s->ok = 0;
            CHECK(0, "event handling at t=%g failed", s->t);
            return 0;
        }
    }
    if (s->t >= s->t_end) {
        fmi2ValueReference all[N_REALS];
        int i;
        for (i = 0; i < N_REALS; i++) all[i] = (fmi2ValueReference)i;
        s->ok = F.GetReal(s->c, all, N_REALS, s->result) == fmi2OK;
        CHECK(s->ok, "final fmi2GetReal failed");
        return 0;
    }
    return 1;
}

static void sim_run(Sim *s)
{
    while (sim_step(s)) {
    }
}

/* ------------------------------------------------------------------------
 * Happy path
 * ------------------------------------------------------------------------ */

static void check_against_closed_form(const Sim *s, double k, double x0v)
{
    double x = exp(-k), v = x0v * exp(-0.5);
    double crossing = log(1.0 / 0.3) / k;
    CHECK(s->ok, "simulation failed");
    CHECK(fabs(s->result[VR_X] - x) < 1e-9, "x(1) = %.15g, expected %.15g", s->result[VR_X], x);
    CHECK(fabs(s->result[VR_V] - v) < 1e-9, "v(1) = %.15g, expected %.15g", s->result[VR_V], v);
    CHECK(fabs(s->result[VR_Y] - (x + v)) < 1e-9, "y(1) = %.15g", s->result[VR_Y]);
    CHECK(s->result[VR_HIGH] == 0.0, "high(1) = %g, expected 0", s->result[VR_HIGH]);
    CHECK(s->result[VR_K2] == 2 * k, "k2 = %g", s->result[VR_K2]);
    CHECK(fabs(s->result[VR_W] - (2 * k * x + 1.0)) < 1e-8, "w(1) = %g", s->result[VR_W]);
    CHECK(s->result[VR_C] == 3.0, "c = %g", s->result[VR_C]);
    CHECK(s->n_time_events == 1, "%d time events, expected 1", s->n_time_events);
    CHECK(s->n_state_events == 1, "%d state events, expected 1", s->n_state_events);
    /* Both events flip a relation; the initial event iteration does not. */
    CHECK(s->n_relation_changes == 2, "%d event iterations saw a relation change, expected 2",
          s->n_relation_changes);
    CHECK(fabs(s->state_event_time - crossing) < 1e-9, "state event at %.15g, expected %.15g",
          s->state_event_time, crossing);
}

static void test_happy_path(Sim *reference)
{
    LogRecord log;
    fmi2Component c;
    fmi2ValueReference vr_n = 0;
    fmi2Integer n = 0;
    double before[N_REALS];
    Sim again;

    CHECK(strcmp(F.GetTypesPlatform(), "default") == 0, "types platform");
    CHECK(strcmp(F.GetVersion(), "2.0") == 0, "version");

    clear_log(&log);
    c = instantiate("happy", &log);
    CHECK(c != NULL, "instantiate failed: %s", log.last);
    if (c == NULL) return;

    /* Parameters, calculated parameters and calculated starts before the
     * simulation. */
    CHECK(F.SetupExperiment(c, fmi2True, 1e-6, 0.0, fmi2False, 0.0) == fmi2OK, "setup");
    CHECK(set_real(c, VR_X0V, 0.7) == fmi2OK, "set x0v");
    CHECK(F.EnterInitializationMode(c) == fmi2OK, "enter init");
    CHECK(get_real(c, VR_K2) == 4.0, "k2 from default k");
    CHECK(get_real(c, VR_V) == 0.7, "v start from x0v");
    CHECK(set_real(c, VR_K, 3.0) == fmi2OK, "set k in init");
    CHECK(get_real(c, VR_K2) == 6.0, "k2 follows k");
    CHECK(get_real(c, VR_DER_X) == -3.0, "der(x) at start");
    CHECK(get_real(c, VR_Y) == 1.7, "y at start");
    CHECK(get_real(c, VR_HIGH) == 1.0, "high at start");
    CHECK(F.GetInteger(c, &vr_n, 1, &n) == fmi2OK && n == 2, "integer n");
    CHECK(F.Terminate(c) == fmi2Error, "terminate in init must fail");
    F.FreeInstance(c);

    /* A full run against the closed form, with default x0v = 0.5. */
    clear_log(&log);
    c = instantiate("reference", &log);
    sim_start(reference, c, 2.0);
    sim_run(reference);
    check_against_closed_form(reference, 2.0, 0.5);
    memcpy(before, reference->result, sizeof before);

    /* Reset, run again: bit-identical. */
    CHECK(F.Terminate(c) == fmi2OK, "terminate");
    CHECK(F.Reset(c) == fmi2OK, "reset");
    sim_start(&again, c, 2.0);
    sim_run(&again);
    CHECK(memcmp(before, again.result, sizeof before) == 0, "reset run differs");
    CHECK(again.state_event_time == reference->state_event_time, "reset event time differs");
    CHECK(F.Terminate(c) == fmi2OK, "terminate");
    F.FreeInstance(c);
}

static void test_interleaved(const Sim *reference)
{
    LogRecord log_a, log_b;
    Sim a, b;
    int more_a = 1, more_b = 1;
    clear_log(&log_a);
    clear_log(&log_b);
    sim_start(&a, instantiate("a", &log_a), 2.0);
    sim_start(&b, instantiate("b", &log_b), 2.0);
    while (more_a || more_b) {
        if (more_a) more_a = sim_step(&a);
        if (more_b) more_b = sim_step(&b);
    }
    CHECK(a.ok && b.ok, "interleaved runs failed");
    CHECK(memcmp(a.result, reference->result, sizeof a.result) == 0, "instance a differs");
    CHECK(memcmp(b.result, reference->result, sizeof b.result) == 0, "instance b differs");
    F.FreeInstance(a.c);
    F.FreeInstance(b.c);
}

/* Several instances simulating at the same time in their own threads. */
#define N_THREADS 4

typedef struct {
    Sim sim;
    LogRecord log;
} ThreadRun;

static void *thread_main(void *argument)
{
    ThreadRun *run = (ThreadRun *)argument;
    clear_log(&run->log);
    sim_start(&run->sim, instantiate("threaded", &run->log), 2.0);
    sim_run(&run->sim);
    F.FreeInstance(run->sim.c);
    return NULL;
}

static void test_threads(const Sim *reference)
{
    ThreadRun runs[N_THREADS];
    pthread_t threads[N_THREADS];
    int started[N_THREADS];
    int i;
    for (i = 0; i < N_THREADS; i++) {
        started[i] = pthread_create(&threads[i], NULL, thread_main, &runs[i]) == 0;
        CHECK(started[i], "could not start thread %d", i);
    }
    for (i = 0; i < N_THREADS; i++) {
        if (!started[i]) continue;
        pthread_join(threads[i], NULL);
        CHECK(runs[i].sim.ok &&
                  memcmp(runs[i].sim.result, reference->result, sizeof reference->result) == 0,
              "thread %d differs from the reference", i);
    }
}

/* ------------------------------------------------------------------------
 * FMU state: copy, restore, serialize
 * ------------------------------------------------------------------------ */

static void test_fmu_state(const Sim *reference)
{
    LogRecord log;
    Sim s, resumed;
    fmi2FMUstate saved = NULL, restored = NULL;
    size_t size = 0;
    fmi2Byte *bytes;
    double saved_t, saved_x[NX], saved_z;
    fmi2EventInfo saved_info;
    int saved_time_events, saved_state_events;

    clear_log(&log);
    sim_start(&s, instantiate("state", &log), 2.0);
    /* Run to t = 0.25 (before both events), save. */
    while (s.t < 0.25 && sim_step(&s)) {
    }
    CHECK(F.GetFMUstate(s.c, &saved) == fmi2OK && saved != NULL, "get FMU state");
    saved_t = s.t;
    memcpy(saved_x, s.x, sizeof saved_x);
    saved_z = s.z;
    saved_info = s.info;
    saved_time_events = s.n_time_events;
    saved_state_events = s.n_state_events;
    sim_run(&s);
    CHECK(memcmp(s.result, reference->result, sizeof s.result) == 0, "saving changed the run");

    /* Terminated now; restoring brings back continuous-time mode at 0.25. */
    CHECK(F.SetFMUstate(s.c, saved) == fmi2OK, "set FMU state");
    resumed = s;
    resumed.t = saved_t;
    memcpy(resumed.x, saved_x, sizeof saved_x);
    resumed.z = saved_z;
    resumed.info = saved_info;
    resumed.n_time_events = saved_time_events;
    resumed.n_state_events = saved_state_events;
    sim_run(&resumed);
    CHECK(resumed.ok && memcmp(resumed.result, reference->result, sizeof s.result) == 0,
          "resumed run differs");

    /* Serialize, deserialize into a new state, restore, run again. */
    CHECK(F.SerializedFMUstateSize(s.c, saved, &size) == fmi2OK && size > 8, "state size");
    bytes = (fmi2Byte *)malloc(size);
    CHECK(F.SerializeFMUstate(s.c, saved, bytes, size) == fmi2OK, "serialize");
    CHECK(memcmp(bytes, "MOFMUST2", 8) == 0, "serialized magic");
    CHECK(F.SerializeFMUstate(s.c, saved, bytes, size - 1) == fmi2Error, "short buffer");
    CHECK(F.DeSerializeFMUstate(s.c, bytes, size, &restored) == fmi2OK && restored != NULL,
          "deserialize");
    CHECK(F.SetFMUstate(s.c, restored) == fmi2OK, "set deserialized state");
    resumed.t = saved_t;
    memcpy(resumed.x, saved_x, sizeof saved_x);
    resumed.z = saved_z;
    resumed.info = saved_info;
    resumed.n_time_events = saved_time_events;
    resumed.n_state_events = saved_state_events;
    sim_run(&resumed);
    CHECK(resumed.ok && memcmp(resumed.result, reference->result, sizeof s.result) == 0,
          "run from deserialized state differs");

    /* Corrupt inputs are refused. */
    {
        fmi2FMUstate other = NULL;
        CHECK(F.DeSerializeFMUstate(s.c, bytes, size - 1, &other) == fmi2Error && other == NULL,
              "wrong size accepted");
        bytes[0] = 'X';
        CHECK(F.DeSerializeFMUstate(s.c, bytes, size, &other) == fmi2Error && other == NULL,
              "wrong magic accepted");
        bytes[0] = 'M';
        bytes[12] ^= 1; /* first GUID byte */
        CHECK(F.DeSerializeFMUstate(s.c, bytes, size, &other) == fmi2Error && other == NULL &&
                  logged(&log, "GUID"),
              "wrong GUID accepted: %s", log.last);
        bytes[12] ^= 1;
        CHECK(F.SetFMUstate(s.c, (fmi2FMUstate)bytes) == fmi2Error, "foreign pointer accepted");
        CHECK(F.SetFMUstate(s.c, NULL) == fmi2Error, "NULL state accepted");
    }
    /* Re-using an existing state object overwrites it. */
    CHECK(F.GetFMUstate(s.c, &restored) == fmi2OK, "reuse state object");
    CHECK(F.FreeFMUstate(s.c, &saved) == fmi2OK && saved == NULL, "free state");
    CHECK(F.FreeFMUstate(s.c, &restored) == fmi2OK && restored == NULL, "free state");
    CHECK(F.FreeFMUstate(s.c, &restored) == fmi2OK, "free NULL state");
    free(bytes);
    F.FreeInstance(s.c);
}

/* ------------------------------------------------------------------------
 * Misuse
 * ------------------------------------------------------------------------ */

enum { S_INST, S_INIT, S_EVENT, S_CONT, S_TERM, S_ERROR, N_STATES };
static const char *const STATE_NAMES[N_STATES] = {
    "instantiated", "initializationMode", "eventMode", "continuousTimeMode", "terminated",
    "error"};
#define B(s) (1u << (s))
#define ALL (B(S_INST) | B(S_INIT) | B(S_EVENT) | B(S_CONT) | B(S_TERM) | B(S_ERROR))
#define GETS (B(S_INIT) | B(S_EVENT) | B(S_CONT) | B(S_TERM) | B(S_ERROR))

/* A fresh instance brought into state `state`. */
static fmi2Component in_state(int state, LogRecord *log)
{
    fmi2Component c = instantiate("misuse", log);
    fmi2EventInfo info;
    if (c == NULL) return NULL;
    if (state == S_INST) return c;
    F.EnterInitializationMode(c);
    if (state == S_ERROR) {
        fmi2ValueReference vr = VR_Y;
        double y;
        set_real(c, VR_U, -200.0);
        CHECK(F.GetReal(c, &vr, 1, &y) == fmi2Error && logged(log, "below -100"),
              "model failure not reported: %s", log->last);
        return c;
    }
    if (state == S_INIT) return c;
    F.ExitInitializationMode(c);
    F.NewDiscreteStates(c, &info);
    if (state == S_EVENT) return c;
    F.EnterContinuousTimeMode(c);
    if (state == S_CONT) return c;
    F.Terminate(c);
    return c;
}

typedef struct {
    const char *name;
    unsigned allowed;
} Call;

/* The FMI 2.0 Model Exchange state table, restated independently. */
static const Call CALLS[] = {
    {"SetDebugLogging", ALL},
    {"SetupExperiment", B(S_INST)},
    {"EnterInitializationMode", B(S_INST)},
    {"ExitInitializationMode", B(S_INIT)},
    {"Terminate", B(S_EVENT) | B(S_CONT) | B(S_TERM)},
    {"Reset", ALL},
    {"GetReal", GETS},
    {"GetInteger", GETS},
    {"GetBoolean", GETS},
    {"GetString", GETS},
    {"SetReal", B(S_INST) | B(S_INIT) | B(S_EVENT) | B(S_CONT)},
    {"SetInteger", B(S_INST) | B(S_INIT) | B(S_EVENT)},
    {"SetBoolean", B(S_INST) | B(S_INIT) | B(S_EVENT)},
    {"SetString", B(S_INST) | B(S_INIT) | B(S_EVENT)},
    {"GetFMUstate", ALL},
    {"SetFMUstate", ALL},
    {"Serialize", ALL},
    {"EnterEventMode", B(S_EVENT) | B(S_CONT)},
    {"NewDiscreteStates", B(S_EVENT)},
    {"EnterContinuousTimeMode", B(S_EVENT)},
    {"CompletedIntegratorStep", B(S_CONT)},
    {"SetTime", B(S_EVENT) | B(S_CONT)},
    {"SetContinuousStates", B(S_CONT)},
    {"GetDerivatives", GETS},
    {"GetEventIndicators", GETS},
    {"GetContinuousStates", GETS},
    {"GetNominalsOfContinuousStates", GETS | B(S_INST)},
};

/* Calls function `name` with valid arguments. */
static fmi2Status call(fmi2Component c, const char *name)
{
    fmi2ValueReference vr_u = VR_U, vr_n = 0;
    double value = 0.25, x[NX] = {1.0, 0.5}, z[NZ];
    fmi2Integer integer;
    fmi2EventInfo info;
    fmi2Boolean a, b;
    fmi2String category = "logEvents";
    if (!strcmp(name, "SetDebugLogging")) return F.SetDebugLogging(c, fmi2True, 1, &category);
    if (!strcmp(name, "SetupExperiment")) return F.SetupExperiment(c, 0, 0, 0, 0, 0);
    if (!strcmp(name, "EnterInitializationMode")) return F.EnterInitializationMode(c);
    if (!strcmp(name, "ExitInitializationMode")) return F.ExitInitializationMode(c);
    if (!strcmp(name, "Terminate")) return F.Terminate(c);
    if (!strcmp(name, "Reset")) return F.Reset(c);
    if (!strcmp(name, "GetReal")) return F.GetReal(c, &vr_u, 1, &value);
    if (!strcmp(name, "GetInteger")) return F.GetInteger(c, &vr_n, 1, &integer);
    if (!strcmp(name, "GetBoolean")) return F.GetBoolean(c, NULL, 0, NULL);
    if (!strcmp(name, "GetString")) return F.GetString(c, NULL, 0, NULL);
    if (!strcmp(name, "SetReal")) return F.SetReal(c, &vr_u, 1, &value);
    if (!strcmp(name, "SetInteger")) return F.SetInteger(c, NULL, 0, NULL);
    if (!strcmp(name, "SetBoolean")) return F.SetBoolean(c, NULL, 0, NULL);
    if (!strcmp(name, "SetString")) return F.SetString(c, NULL, 0, NULL);
    if (!strcmp(name, "GetFMUstate") || !strcmp(name, "SetFMUstate") ||
        !strcmp(name, "Serialize")) {
        fmi2FMUstate s = NULL, d = NULL;
        fmi2Status st = F.GetFMUstate(c, &s);
        size_t size = 0;
        char buffer[1024];
        if (st != fmi2OK) return st;
        if (!strcmp(name, "SetFMUstate")) st = F.SetFMUstate(c, s);
        if (!strcmp(name, "Serialize")) {
            st = F.SerializedFMUstateSize(c, s, &size);
            if (st == fmi2OK && size <= sizeof buffer) {
                st = F.SerializeFMUstate(c, s, buffer, size);
                if (st == fmi2OK) st = F.DeSerializeFMUstate(c, buffer, size, &d);
                if (st == fmi2OK) st = F.FreeFMUstate(c, &d);
            } else if (st == fmi2OK) {
                st = fmi2Error;
            }
        }
        if (F.FreeFMUstate(c, &s) != fmi2OK) st = fmi2Error;
        return st;
    }
    if (!strcmp(name, "EnterEventMode")) return F.EnterEventMode(c);
    if (!strcmp(name, "NewDiscreteStates")) return F.NewDiscreteStates(c, &info);
    if (!strcmp(name, "EnterContinuousTimeMode")) return F.EnterContinuousTimeMode(c);
    if (!strcmp(name, "CompletedIntegratorStep"))
        return F.CompletedIntegratorStep(c, fmi2True, &a, &b);
    if (!strcmp(name, "SetTime")) return F.SetTime(c, 0.125);
    if (!strcmp(name, "SetContinuousStates")) return F.SetContinuousStates(c, x, NX);
    if (!strcmp(name, "GetDerivatives")) return F.GetDerivatives(c, x, NX);
    if (!strcmp(name, "GetEventIndicators")) return F.GetEventIndicators(c, z, NZ);
    if (!strcmp(name, "GetContinuousStates")) return F.GetContinuousStates(c, x, NX);
    if (!strcmp(name, "GetNominalsOfContinuousStates"))
        return F.GetNominalsOfContinuousStates(c, x, NX);
    printf("driver bug: unknown call %s\n", name);
    exit(2);
}

static void test_state_table(void)
{
    size_t i;
    int state;
    char expected[256];
    for (i = 0; i < sizeof CALLS / sizeof CALLS[0]; i++) {
        for (state = 0; state < N_STATES; state++) {
            LogRecord log;
            fmi2Component c;
            fmi2Status st;
            clear_log(&log);
            c = in_state(state, &log);
            CHECK(c != NULL, "could not reach state %s", STATE_NAMES[state]);
            if (c == NULL) continue;
            clear_log(&log);
            st = call(c, CALLS[i].name);
            if (CALLS[i].allowed & B(state)) {
                CHECK(st == fmi2OK, "fmi2%s in state %s returned %d: %s", CALLS[i].name,
                      STATE_NAMES[state], (int)st, log.last);
            } else {
                snprintf(expected, sizeof expected, "fmi2%s: not allowed in state %s",
                         CALLS[i].name, STATE_NAMES[state]);
                CHECK(st == fmi2Error && strcmp(log.last, expected) == 0 &&
                          log.last_status == fmi2Error &&
                          strcmp(log.last_category, "logStatusError") == 0,
                      "fmi2%s in state %s returned %d, logged \"%s\"", CALLS[i].name,
                      STATE_NAMES[state], (int)st, log.last);
                /* The refusal left the state alone. */
                clear_log(&log);
                st = call(c, CALLS[i].name);
                CHECK(st == fmi2Error && strcmp(log.last, expected) == 0,
                      "second fmi2%s in state %s: state changed? \"%s\"", CALLS[i].name,
                      STATE_NAMES[state], log.last);
            }
            F.FreeInstance(c);
        }
    }
}

static void test_instantiate_errors(void)
{
    LogRecord log;
    fmi2CallbackFunctions functions = {logger, calloc, free, NULL, &log};
    fmi2Component c;
    clear_log(&log);
    c = F.Instantiate("bad", fmi2ModelExchange, "{wrong}", RESOURCES, &functions, 0, 0);
    CHECK(c == NULL && logged(&log, "GUID"), "wrong GUID accepted: %s", log.last);
    clear_log(&log);
    c = F.Instantiate("bad", fmi2ModelExchange, GUID, "file:///nonexistent", &functions, 0, 0);
    CHECK(c == NULL && logged(&log, "/nonexistent/mofmu_system.bin"),
          "missing resource accepted: %s", log.last);
    clear_log(&log);
    c = F.Instantiate("bad", fmi2ModelExchange, GUID, "", &functions, 0, 0);
    CHECK(c == NULL && logged(&log, "no resource location"), "empty resource location accepted: %s",
          log.last);
    c = F.Instantiate("bad", fmi2ModelExchange, NULL, "", &functions, 0, 0);
    CHECK(c == NULL, "NULL GUID accepted");
    clear_log(&log);
    c = F.Instantiate("bad", (fmi2Type)2, GUID, "", &functions, 0, 0);
    CHECK(c == NULL && logged(&log, "FMU type 2"), "FMU type 2 accepted: %s", log.last);
    c = F.Instantiate("bad", fmi2ModelExchange, GUID, "", NULL, 0, 0);
    CHECK(c == NULL, "NULL callbacks accepted");
    c = F.Instantiate("", fmi2ModelExchange, GUID, "", &functions, 0, 0);
    CHECK(c == NULL, "empty name accepted");
    c = F.Instantiate(NULL, fmi2ModelExchange, GUID, "", &functions, 0, 0);
    CHECK(c == NULL, "NULL name accepted");
    {
        /* A NULL logger is allowed. */
        fmi2CallbackFunctions quiet = {NULL, calloc, free, NULL, NULL};
        double y = 0;
        fmi2ValueReference vr = VR_HIGH;
        c = F.Instantiate("quiet", fmi2ModelExchange, GUID, RESOURCES, &quiet, 0, 1);
        CHECK(c != NULL, "NULL logger refused");
        CHECK(F.Terminate(c) == fmi2Error, "terminate in instantiated");
        CHECK(F.EnterInitializationMode(c) == fmi2OK && F.GetReal(c, &vr, 1, &y) == fmi2OK &&
                  y == 1.0,
              "quiet instance does not work");
        F.FreeInstance(c);
    }
    F.FreeInstance(NULL);
    /* Calls on NULL do not crash. */
    CHECK(F.GetReal(NULL, NULL, 0, NULL) == fmi2Error, "NULL instance accepted");
    CHECK(F.Terminate(NULL) == fmi2Error, "NULL instance accepted");
    CHECK(F.DoStep(NULL, 0, 1, 0) == fmi2Error, "DoStep on NULL");
}

static void test_arguments(void)
{
    LogRecord log;
    fmi2Component c;
    fmi2ValueReference vr[3] = {VR_X, VR_Y, 0};
    double values[3], x[NX + 1];
    fmi2Integer ints[2];
    fmi2Boolean bools[1];
    fmi2String strings[1];
    fmi2String categories[2] = {"logEvents", "logNoSuchThing"};
    fmi2EventInfo info;

    clear_log(&log);
    c = in_state(S_INIT, &log);

    /* NULL arrays with n > 0; NULL is fine with n = 0. */
    CHECK(F.GetReal(c, NULL, 1, values) == fmi2Error && logged(&log, "vr"), "NULL vr");
    CHECK(F.GetReal(c, vr, 1, NULL) == fmi2Error && logged(&log, "value"), "NULL value");
    CHECK(F.GetReal(c, NULL, 0, NULL) == fmi2OK, "empty GetReal");
    CHECK(F.SetReal(c, NULL, 1, values) == fmi2Error, "NULL vr in SetReal");
    CHECK(F.GetDerivatives(c, NULL, NX) == fmi2Error, "NULL derivatives");
    CHECK(F.GetEventIndicators(c, NULL, NZ) == fmi2Error, "NULL indicators");
    CHECK(F.GetContinuousStates(c, NULL, NX) == fmi2Error, "NULL states");
    CHECK(F.GetNominalsOfContinuousStates(c, NULL, NX) == fmi2Error, "NULL nominals");
    CHECK(F.SetDebugLogging(c, fmi2True, 1, NULL) == fmi2Error, "NULL categories");

    /* Unknown value references. */
    vr[0] = N_REALS;
    CHECK(F.GetReal(c, vr, 1, values) == fmi2Error && logged(&log, "value reference 12"),
          "vr out of range: %s", log.last);
    CHECK(F.SetReal(c, vr, 1, values) == fmi2Error, "SetReal vr out of range");
    vr[0] = 1;
    CHECK(F.GetInteger(c, vr, 1, ints) == fmi2Error, "GetInteger vr 1");
    vr[0] = 0;
    CHECK(F.GetBoolean(c, vr, 1, bools) == fmi2Error, "GetBoolean vr 0");
    CHECK(F.GetString(c, vr, 1, strings) == fmi2Error, "GetString vr 0");
    CHECK(F.SetBoolean(c, vr, 1, bools) == fmi2Error, "SetBoolean vr 0");
    CHECK(F.SetString(c, vr, 1, strings) == fmi2Error, "SetString vr 0");
    ints[0] = 5;
    CHECK(F.SetInteger(c, vr, 1, ints) == fmi2Error && logged(&log, "constant"),
          "SetInteger of a constant");

    /* Wrong sizes. */
    CHECK(F.GetContinuousStates(c, x, NX - 1) == fmi2Error && logged(&log, "nx = 1"),
          "nx = 1: %s", log.last);
    CHECK(F.GetContinuousStates(c, x, NX + 1) == fmi2Error, "nx = 3");
    CHECK(F.GetDerivatives(c, x, NX + 1) == fmi2Error, "derivatives nx = 3");
    CHECK(F.GetNominalsOfContinuousStates(c, x, 0) == fmi2Error, "nominals nx = 0");
    CHECK(F.GetEventIndicators(c, x, NZ + 1) == fmi2Error, "ni = 2");

    /* Non-settable variables, named in the message. */
    {
        static const struct {
            fmi2ValueReference vr;
            const char *fragment;
        } refused[] = {{VR_Y, "y is an output"},           {VR_HIGH, "high is an output"},
                       {VR_DER_X, "der(x) is a derivative"}, {VR_K2, "k2 is a calculated"},
                       {VR_V, "v is a state with a calculated start"},
                       {VR_W, "w is a local"},             {VR_C, "c is a constant"}};
        size_t i;
        for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
            double before = get_real(c, refused[i].vr);
            clear_log(&log);
            CHECK(set_real(c, refused[i].vr, 1.5) == fmi2Error &&
                      logged(&log, refused[i].fragment),
                  "SetReal(%s) logged \"%s\"", refused[i].fragment, log.last);
            CHECK(get_real(c, refused[i].vr) == before ||
                      (isnan(before) && isnan(get_real(c, refused[i].vr))),
                  "refused SetReal changed %s", refused[i].fragment);
        }
    }

    /* A request with one bad entry stores nothing. */
    {
        fmi2ValueReference two[2] = {VR_K, VR_Y};
        double v2[2] = {9.0, 9.0};
        CHECK(F.SetReal(c, two, 2, v2) == fmi2Error, "partly bad SetReal");
        CHECK(get_real(c, VR_K) == 2.0, "partly bad SetReal stored k");
    }

    /* Non-finite values. */
    CHECK(set_real(c, VR_K, NAN) == fmi2Error && logged(&log, "not finite"), "NaN k");
    CHECK(set_real(c, VR_U, INFINITY) == fmi2Error, "Inf u");
    CHECK(get_real(c, VR_K) == 2.0 && get_real(c, VR_U) == 0.0, "non-finite value stored");

    /* Unknown log category, changes nothing. */
    CHECK(F.SetDebugLogging(c, fmi2True, 2, categories) == fmi2Error &&
              logged(&log, "logNoSuchThing"),
          "unknown category accepted");
    CHECK(F.SetDebugLogging(c, fmi2True, 1, categories) == fmi2OK, "known category refused");
    CHECK(F.SetDebugLogging(c, fmi2False, 0, NULL) == fmi2OK, "all categories off");

    /* Continuous-time mode: states, time, parameters and inputs. */
    CHECK(F.ExitInitializationMode(c) == fmi2OK && F.NewDiscreteStates(c, &info) == fmi2OK &&
              F.EnterContinuousTimeMode(c) == fmi2OK,
          "reaching continuous-time mode");
    x[0] = 1.0;
    x[1] = INFINITY;
    CHECK(F.SetContinuousStates(c, x, NX) == fmi2Error && logged(&log, "state v"),
          "Inf state: %s", log.last);
    CHECK(get_real(c, VR_X) == 1.0, "partly bad SetContinuousStates stored x");
    CHECK(F.SetContinuousStates(c, x, NX + 1) == fmi2Error, "SetContinuousStates nx = 3");
    CHECK(F.SetTime(c, NAN) == fmi2Error && logged(&log, "not finite"), "NaN time");
    CHECK(set_real(c, VR_K, 5.0) == fmi2Error && logged(&log, "cannot be set in state"),
          "parameter set in continuous-time mode");
    CHECK(set_real(c, VR_X, 5.0) == fmi2Error, "state start set in continuous-time mode");
    CHECK(set_real(c, VR_U, 0.5) == fmi2OK && get_real(c, VR_Y) == 2.0, "input in ct mode");
    CHECK(get_real(c, VR_W) == 4.0, "w at time 0");
    CHECK(F.SetTime(c, 0.75) == fmi2OK && get_real(c, VR_W) == 4.75, "w after fmi2SetTime");
    /* Relations stay frozen in continuous-time mode: still before 0.5. */
    CHECK(get_real(c, VR_DER_V) == 0.0, "time relation not frozen");

    /* A non-finite derivative is fmi2Discard here, and recoverable. */
    CHECK(set_real(c, VR_U, -70.0) == fmi2OK, "set u = -70");
    clear_log(&log);
    CHECK(F.GetDerivatives(c, x, NX) == fmi2Discard, "NaN derivative not discarded");
    CHECK(log.count == 0, "discard logged although logging is off: %s", log.last);
    CHECK(set_real(c, VR_U, 0.0) == fmi2OK && F.GetDerivatives(c, x, NX) == fmi2OK &&
              x[0] == -2.0,
          "recovery after discard");

    /* fmi2GetDirectionalDerivative: d der(x)/dx = -k and dy/dx = 1; only
     * states and inputs are knowns. */
    {
        fmi2ValueReference unknown[2] = {VR_DER_X, VR_Y}, known = VR_X, param = VR_K;
        double seed = 1.0, out[2] = {0.0, 0.0};
        CHECK(F.GetDirectionalDerivative(c, unknown, 2, &known, 1, &seed, out) == fmi2OK &&
                  out[0] == -get_real(c, VR_K) && out[1] == 1.0,
              "directional derivative: %g %g", out[0], out[1]);
        CHECK(F.GetDirectionalDerivative(c, unknown, 2, &param, 1, &seed, out) == fmi2Error &&
                  logged(&log, "not a state or an input"),
              "directional derivative with a parameter as known");
    }

    /* Co-simulation functions are refused by a Model Exchange instance. */
    {
        fmi2Status st;
        fmi2Real r;
        fmi2Integer i;
        fmi2Boolean bo;
        fmi2String s;
        clear_log(&log);
        CHECK(F.DoStep(c, 0.0, 0.1, fmi2True) == fmi2Error &&
                  logged(&log, "not available in a Model Exchange instance"),
              "DoStep");
        CHECK(F.CancelStep(c) == fmi2Error, "CancelStep");
        CHECK(F.SetRealInputDerivatives(c, NULL, 0, NULL, NULL) == fmi2Error, "SetRID");
        CHECK(F.GetRealOutputDerivatives(c, NULL, 0, NULL, NULL) == fmi2Error, "GetROD");
        CHECK(F.GetStatus(c, fmi2DoStepStatus, &st) == fmi2Error, "GetStatus");
        CHECK(F.GetRealStatus(c, fmi2LastSuccessfulTime, &r) == fmi2Error, "GetRealStatus");
        CHECK(F.GetIntegerStatus(c, fmi2DoStepStatus, &i) == fmi2Error, "GetIntegerStatus");
        CHECK(F.GetBooleanStatus(c, fmi2Terminated, &bo) == fmi2Error, "GetBooleanStatus");
        CHECK(F.GetStringStatus(c, fmi2PendingStatus, &s) == fmi2Error, "GetStringStatus");
        CHECK(log.count == 9, "co-simulation refusals logged %d times", log.count);
    }

    /* Double terminate: harmless, a warning when warnings are logged. */
    CHECK(F.Terminate(c) == fmi2OK, "terminate");
    clear_log(&log);
    CHECK(F.Terminate(c) == fmi2OK && log.count == 0, "second terminate (quiet)");
    CHECK(F.SetDebugLogging(c, fmi2True, 0, NULL) == fmi2OK, "logging on");
    CHECK(F.Terminate(c) == fmi2OK && log.last_status == fmi2Warning &&
              logged(&log, "already terminated"),
          "second terminate (logged): %s", log.last);
    CHECK(get_real(c, VR_Y) == 1.5, "outputs after terminate");
    F.FreeInstance(c);
}

/* States set to the bits they already hold keep the values computed from
 * them (an importer often sets the same states again before a getter); one
 * changed bit, even 0.0 against -0.0, evaluates again. */
static void test_same_states(const long *block_calls)
{
    LogRecord log;
    fmi2Component c;
    double x[NX], y;
    long calls;
    clear_log(&log);
    c = in_state(S_CONT, &log);
    CHECK(F.GetContinuousStates(c, x, NX) == fmi2OK, "states in continuous-time mode");
    y = get_real(c, VR_Y);
    calls = *block_calls;
    CHECK(F.SetContinuousStates(c, x, NX) == fmi2OK && get_real(c, VR_Y) == y &&
              *block_calls == calls,
          "the same states evaluated again (%ld evaluations)", *block_calls - calls);
    x[1] = nextafter(x[1], 2.0);
    CHECK(F.SetContinuousStates(c, x, NX) == fmi2OK && get_real(c, VR_Y) >= y &&
              *block_calls == calls + 1,
          "a state one bit higher: %ld evaluations", *block_calls - calls);
    x[0] = 0.0;
    CHECK(F.SetContinuousStates(c, x, NX) == fmi2OK && get_real(c, VR_Y) < y &&
              *block_calls == calls + 2,
          "x = 0: %ld evaluations", *block_calls - calls);
    x[0] = -0.0;
    CHECK(F.SetContinuousStates(c, x, NX) == fmi2OK && get_real(c, VR_DER_X) == 0.0 &&
              *block_calls == calls + 3,
          "x = -0.0 after 0.0: %ld evaluations", *block_calls - calls);
    F.FreeInstance(c);
}

static void test_model_failure(const Sim *reference)
{
    LogRecord log;
    fmi2Component c;
    fmi2ValueReference vr = VR_Y;
    double y;
    Sim s;
    clear_log(&log);
    c = in_state(S_ERROR, &log);
    CHECK(strcmp(log.last_category, "logStatusError") == 0 && log.last_status == fmi2Error,
          "model failure category %s", log.last_category);
    CHECK(F.GetReal(c, &vr, 1, &y) == fmi2OK, "getters work in the error state");
    CHECK(F.ExitInitializationMode(c) == fmi2Error, "exit init from error state");
    CHECK(F.Reset(c) == fmi2OK, "reset from error state");
    sim_start(&s, c, 2.0);
    sim_run(&s);
    CHECK(memcmp(s.result, reference->result, sizeof s.result) == 0, "run after error differs");
    F.FreeInstance(c);

    /* A failure while exiting initialization keeps the instance out of
     * event mode. */
    clear_log(&log);
    c = instantiate("failing", &log);
    CHECK(set_real(c, VR_U, -500.0) == fmi2OK, "set u");
    CHECK(F.EnterInitializationMode(c) == fmi2OK, "enter init");
    CHECK(F.ExitInitializationMode(c) == fmi2Error && logged(&log, "source: input u"),
          "failing exit: %s", log.last);
    CHECK(F.EnterContinuousTimeMode(c) == fmi2Error && logged(&log, "in state error"),
          "state after failing exit: %s", log.last);
    F.FreeInstance(c);
}

int main(int argc, char **argv)
{
    void *handle;
    const long *block_calls;
    Sim reference;
    if (argc != 3) {
        fprintf(stderr, "usage: %s path/to/FakeSystem.so file:///resources/dir\n", argv[0]);
        return 2;
    }
    RESOURCES = argv[2];
    handle = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        printf("FAIL: dlopen: %s\n", dlerror());
        return 1;
    }
    load(handle);
    CHECK(dlsym(handle, "mofmu_schedule") == NULL && dlsym(handle, "mofmu_relation") == NULL,
          "model and helper symbols must stay hidden");

    test_happy_path(&reference);
    test_interleaved(&reference);
    test_threads(&reference);
    test_fmu_state(&reference);
    test_instantiate_errors();
    test_state_table();
    test_arguments();
    test_model_failure(&reference);
    block_calls = (const long *)dlsym(handle, "fake_block_calls");
    CHECK(block_calls != NULL, "the fake system's call counter");
    if (block_calls != NULL) {
        test_same_states(block_calls);
    }

    dlclose(handle);
    printf("%d checks, %d failures\n", n_checks, n_failures);
    return n_failures == 0 ? 0 : 1;
}
