/* One fmi2SetContinuousStates + fmi2GetDerivatives of a rod FMU at n states against
 * the FMI-API limit: what any FMI model must at least do for that call pair, copy the
 * states in and run one hand-written loop into the caller's array; and against the
 * raw hand loop alone. The hand loops are the twins of the two rods, linked in:
 *   style 0: Thermal.Examples.RodHeating (benches/twins/rod_twin.c),
 *   style 1: RodOtherStyle.Heating (benches/twins/rod_other_twin.c).
 * Its heap arrays fall where they fall, and glibc's memcpy of the limit is `rep movsb`,
 * twenty times slower on AMD Zen 3 when the destination lies 8 to 56 bytes past the
 * source modulo 4096: so its limit is bimodal between processes (7 or 40 us at 10^4).
 * Timings come from benches/interleaved/ (whose arrays are placed); this driver stays
 * for callgrind.sh's instruction counts, which placement does not change. Timed in CPU time of this process (the
 * machine is shared), batches of REPS calls of each kind interleaved, medians and
 * ranges over the batches. Also prints the largest relative difference between the
 * FMU's derivatives and the twin's.
 *
 * usage: limit UNZIPPED_FMU_DIR LIBRARY.so GUID STYLE N BATCHES  (run.sh builds and runs it) */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void *Component;
typedef void (*Logger)(void *, const char *, int, const char *, const char *, ...);
typedef struct {
    Logger logger;
    void *(*allocate)(size_t, size_t);
    void (*free)(void *);
    void (*step_finished)(void *, int);
    void *environment;
} Callbacks;
typedef Component (*InstantiateFn)(const char *, int, const char *, const char *, const Callbacks *,
                                   int, int);
typedef int (*SetupFn)(Component, int, double, double, int, double);
typedef int (*VoidFn)(Component);
typedef int (*ArrayFn)(Component, double *, size_t);
typedef int (*ConstArrayFn)(Component, const double *, size_t);

static void logger(void *e, const char *i, int s, const char *c, const char *m, ...)
{
    (void)e, (void)i, (void)s, (void)c;
    fprintf(stderr, "FMU: %s\n", m);
}

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The hand loops: the twins of benches/twins/, linked in by run.sh. */
void rod_twin_derivatives(size_t n, const double *T, double *dT);
void rod_other_twin_derivatives(size_t n, const double *T, double *dT);

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: %s DIR LIBRARY GUID STYLE N BATCHES\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1], *library = argv[2], *guid = argv[3];
    int style = atoi(argv[4]);
    size_t n = (size_t)atol(argv[5]);
    int batches = atoi(argv[6]);
    void (*twin)(size_t, const double *, double *) =
        style ? rod_other_twin_derivatives : rod_twin_derivatives;
    void *h = dlopen(library, RTLD_NOW);
    if (h == NULL) {
        fprintf(stderr, "%s\n", dlerror());
        return 1;
    }
    InstantiateFn instantiate = (InstantiateFn)dlsym(h, "fmi2Instantiate");
    SetupFn setup = (SetupFn)dlsym(h, "fmi2SetupExperiment");
    VoidFn enter_init = (VoidFn)dlsym(h, "fmi2EnterInitializationMode");
    VoidFn exit_init = (VoidFn)dlsym(h, "fmi2ExitInitializationMode");
    VoidFn continuous = (VoidFn)dlsym(h, "fmi2EnterContinuousTimeMode");
    ConstArrayFn set_states = (ConstArrayFn)dlsym(h, "fmi2SetContinuousStates");
    ArrayFn get_derivatives = (ArrayFn)dlsym(h, "fmi2GetDerivatives");
    Callbacks callbacks = {logger, calloc, free, NULL, NULL};
    char uri[4096];
    snprintf(uri, sizeof uri, "file://%s/resources", dir);
    Component fmu = instantiate("limit", 0 /* fmi2ModelExchange */, guid, uri, &callbacks, 0, 0);
    if (fmu == NULL || setup(fmu, 0, 0.0, 0.0, 0, 0.0) || enter_init(fmu) || exit_init(fmu) ||
        continuous(fmu)) {
        fprintf(stderr, "the FMU did not initialise\n");
        return 1;
    }
    double *x = malloc(n * sizeof *x), *d = malloc(n * sizeof *d);
    double *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    double *t_fmu = malloc((size_t)batches * sizeof(double));
    double *t_limit = malloc((size_t)batches * sizeof(double));
    double *t_loop = malloc((size_t)batches * sizeof(double));
    size_t i;
    for (i = 0; i < n; i++) {
        x[i] = 300.0 + 100.0 * sin((double)i / (double)n * 3.0);
    }
    /* The FMU's derivatives against the twin's. */
    if (set_states(fmu, x, n) || get_derivatives(fmu, d, n)) {
        fprintf(stderr, "fmi2GetDerivatives failed\n");
        return 1;
    }
    twin(n, x, out);
    double worst = 0.0;
    for (i = 0; i < n; i++) {
        double scale = fmax(fabs(out[i]), 1e-300);
        worst = fmax(worst, fabs(d[i] - out[i]) / scale);
    }
    const int reps = (int)(2e6 / (double)n) + 1;
    for (int b = 0; b < batches; b++) {
        double t0 = cpu();
        for (int r = 0; r < reps; r++) {
            x[r % n] += 1e-9;
            if (set_states(fmu, x, n) || get_derivatives(fmu, d, n)) {
                fprintf(stderr, "an FMI call failed\n");
                return 1;
            }
        }
        double t1 = cpu();
        for (int r = 0; r < reps; r++) {
            x[r % n] += 1e-9;
            memcpy(in, x, n * sizeof *x);
            twin(n, in, out);
        }
        double t2 = cpu();
        for (int r = 0; r < reps; r++) {
            in[r % n] += 1e-9;
            twin(n, in, out);
        }
        double t3 = cpu();
        t_fmu[b] = (t1 - t0) / reps * 1e6;
        t_limit[b] = (t2 - t1) / reps * 1e6;
        t_loop[b] = (t3 - t2) / reps * 1e6;
    }
    qsort(t_fmu, (size_t)batches, sizeof(double), by_value);
    qsort(t_limit, (size_t)batches, sizeof(double), by_value);
    qsort(t_loop, (size_t)batches, sizeof(double), by_value);
    int m = batches / 2;
    printf("%s n=%zu (CPU time, median of %d batches of %d): FMU %.2f us [%.2f..%.2f], "
           "FMI-API limit %.2f us [%.2f..%.2f], hand loop %.2f us; FMU/limit %.3f, "
           "FMU/loop %.3f; largest relative difference from the twin %.1e\n",
           style ? "other-style rod" : "bundled rod", n, batches, reps, t_fmu[m], t_fmu[0],
           t_fmu[batches - 1], t_limit[m], t_limit[0], t_limit[batches - 1], t_loop[m],
           t_fmu[m] / t_limit[m], t_fmu[m] / t_loop[m], worst);
    return 0;
}
