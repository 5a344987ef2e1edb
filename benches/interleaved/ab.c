/* fmi2SetContinuousStates + fmi2GetDerivatives of any number of FMI 2.0 FMUs of one model,
 * against the model's hand-written C twin and the limit, in ONE process and in interleaved
 * rounds, so that whatever the machine does (frequency, neighbours, caches) weighs on every
 * contender alike. run.sh exports the FMUs, builds this program and runs it.
 *
 *   ab CASE N ROUNDS LABEL=DIR [LABEL=DIR ...]
 *
 * CASE names the model and so the twin linked in beside this file (benches/twins/):
 *   rod        Thermal.Examples.RodHeating      rod_twin_derivatives         (bit for bit)
 *   rod_other  RodOtherStyle.Heating            rod_other_twin_derivatives   (bit for bit)
 *   chain      Acc4.Chain                       chain_twin_all, every variable kept (bit for bit)
 *   cooling    ThermoFluidStream.Examples.CoolingLoop  cooling_twin_derivatives (to 1e-10)
 *   ladder     Ladder.Ladder                    ladder_twin_all, every variable kept (bit for bit)
 *   ladder_inner  LadderInner.Ladder            ladder_twin_all, every variable kept (bit for bit)
 *   ladder_split  Ladder.LadderSplit            ladder_twin_all, every variable kept (bit for bit)
 *   grid       Grid.Grid                        grid_twin_all, every variable kept (bit for bit)
 * DIR is an unzipped FMU with N continuous states (the ladders: 2 n + 3 for n rungs; the
 * grid: n^2 for n x n cells).
 *
 * What is timed, per call and reported per state:
 *   limit  what any FMI model must at least do for the call pair: copy the N states in
 *          (memcpy), then the fastest plain C of the equations (the derivative-only twin)
 *          into the caller's array. Compiled with the kernels' flags (-std=c99 -O2
 *          -ffp-contract=off).
 *   twin   the twin the issue compares against (for the chain, the ladders and the grid it
 *          keeps every variable the FMU exposes; for the others it is the derivative-only
 *          twin), states read in place.
 *   LABEL  fmi2SetContinuousStates + fmi2GetDerivatives of that FMU.
 * Every contender alternates two state vectors (the FMU's start values, shifted two ways; the
 * cooling loop's as benches/cooling.rs: the start and the start shifted by 1e-6), so
 * no call can reuse the one before. Before anything is timed, each FMU's derivatives at both
 * vectors must equal the twin's (bit for bit, or to 1e-10 relative for the cooling loop).
 *
 * The yardstick is kept stable: every array is allocated and written before timing (no page
 * faults inside a round), at a page offset chosen here and not by the allocator (what a loop
 * writes lies half a page from what it reads: no 4 KiB aliasing), the states stay
 * far from denormals, and one untimed round warms every contender up. The placement matters:
 * glibc's large memcpy is `rep movsb`, which on AMD Zen 3 runs twenty times slower when the
 * destination lies 8 to 56 bytes past the source modulo 4096; with heap addresses the limit's
 * copy was fast in some processes and slow in others (benches/other_style_rod, 7 us or 40 us).
 * An FMU whose own copy is such a memcpy (mofmu before issue 40) still gets its lottery: where
 * its states lie in R against where the importer's array lies. AB_STATES_OFFSET=BYTES in the
 * environment puts both state vectors that far past a page boundary (default 64), to draw it. Times are this thread's CPU time; each contender's sample in a round is
 * about ROUND_SECONDS long. Prints each round, then min and median of each contender and of
 * each ratio against the limit and against the twin. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The twins (the C files of benches/twins), linked in. */
void rod_twin_derivatives(size_t n, const double *T, double *dT);
void rod_other_twin_derivatives(size_t n, const double *T, double *dT);
void chain_twin_derivatives(size_t n, const double *T, double *dT);
void chain_twin_all(size_t n, const double *T, double *dT, double *variables);
void cooling_twin_derivatives(size_t n, const double *x, double *dx);
void ladder_twin_derivatives(size_t n, const double *x, double *dx);
void ladder_twin_all(size_t n, const double *x, double *dx, double *variables);
size_t ladder_twin_variables(size_t n);
void grid_twin_derivatives(size_t n, const double *T, double *dT);
void grid_twin_all(size_t n, const double *T, double *dT, double *variables);
size_t grid_twin_variables(size_t n);

#define CHAIN_VARIABLES 9
#define MAX_FMUS 16
#define MAX_ROUNDS 256
#define ROUND_SECONDS 0.05

typedef void *Component;
typedef struct {
    void (*logger)(void *, const char *, int, const char *, const char *, ...);
    void *(*allocate)(size_t, size_t);
    void (*free)(void *);
    void (*step_finished)(void *, int);
    void *environment;
} Callbacks;

typedef struct {
    const char *label;
    Component c;
    int (*set_states)(Component, const double *, size_t);
    int (*get_derivatives)(Component, double *, size_t);
    int (*get_states)(Component, double *, size_t);
} Fmu;

typedef struct {
    const char *name;
    int exact;
    /* The derivative-only twin of the states in the FMU's order, and its size argument at N
     * states (0 if N fits no size): the loop's twin counts radiator cells, the ladder's
     * rungs, the grid's its side. */
    void (*derivatives)(size_t, const double *, double *);
    size_t (*size)(size_t states);
    /* The twin that keeps every variable (NULL if the case times the derivative-only one) and
     * how many doubles it stores at its size. */
    void (*all)(size_t, const double *, double *, double *);
    size_t (*variables)(size_t size);
} Case;

static const Case *the_case;
static size_t n, twin_size;
static double *x[2], *dx, *copy, *variables, *twin_dx;

static void fmu_log(void *e, const char *i, int s, const char *c, const char *m, ...)
{
    (void)e, (void)i, (void)c;
    if (s >= 3) {
        fprintf(stderr, "FMU: %s\n", m);
    }
}

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "ab: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double p = *(const double *)a, q = *(const double *)b;
    return (p > q) - (p < q);
}

/* `count` doubles starting `offset` bytes past a page boundary, written once (so that their
 * pages are mapped before any timing). */
static double *array(size_t count, size_t offset)
{
    char *block = NULL;
    if (posix_memalign((void **)&block, 4096, count * sizeof(double) + offset) != 0) {
        die("out of memory", NULL);
    }
    double *a = (double *)(block + offset);
    for (size_t i = 0; i < count; i++) {
        a[i] = 1.0;
    }
    return a;
}

static Fmu load(const char *label, const char *dir)
{
    char path[4096], real[4096], guid[256] = "", so[4600] = "", uri[4200], line[8192];
    Fmu m;
    snprintf(path, sizeof path, "%s/modelDescription.xml", dir);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        die("no modelDescription.xml in", dir);
    }
    while (!guid[0] && fgets(line, sizeof line, f)) {
        char *g = strstr(line, "guid=\"");
        if (g != NULL) {
            sscanf(g + 6, "%255[^\"]", guid);
        }
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/binaries/linux64", dir);
    DIR *d = opendir(path);
    if (d == NULL) {
        die("no binaries/linux64 in", dir);
    }
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (strstr(e->d_name, ".so") != NULL) {
            snprintf(so, sizeof so, "%s/%s", path, e->d_name);
        }
    }
    closedir(d);
    if (!so[0] || realpath(dir, real) == NULL) {
        die("no shared library in", dir);
    }
    snprintf(uri, sizeof uri, "file://%s/resources", real);
    void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        die(dlerror(), NULL);
    }
    Component (*instantiate)(const char *, int, const char *, const char *, const Callbacks *, int,
                             int) = (Component(*)(const char *, int, const char *, const char *,
                                                  const Callbacks *, int, int))dlsym(h, "fmi2Instantiate");
    int (*setup)(Component, int, double, double, int, double) =
        (int (*)(Component, int, double, double, int, double))dlsym(h, "fmi2SetupExperiment");
    int (*enter)(Component) = (int (*)(Component))dlsym(h, "fmi2EnterInitializationMode");
    int (*leave)(Component) = (int (*)(Component))dlsym(h, "fmi2ExitInitializationMode");
    int (*continuous)(Component) = (int (*)(Component))dlsym(h, "fmi2EnterContinuousTimeMode");
    int (*discrete)(Component, int *, int *, int *, int *, double *) =
        (int (*)(Component, int *, int *, int *, int *, double *))dlsym(h, "fmi2NewDiscreteStates");
    static Callbacks callbacks = {fmu_log, calloc, free, NULL, NULL};
    m.label = label;
    m.c = instantiate(label, 0 /* fmi2ModelExchange */, guid, uri, &callbacks, 0, 0);
    m.set_states = (int (*)(Component, const double *, size_t))dlsym(h, "fmi2SetContinuousStates");
    m.get_derivatives = (int (*)(Component, double *, size_t))dlsym(h, "fmi2GetDerivatives");
    m.get_states = (int (*)(Component, double *, size_t))dlsym(h, "fmi2GetContinuousStates");
    int a, b, c, e;
    double t;
    if (m.c == NULL || setup(m.c, 0, 0.0, 0.0, 0, 0.0) || enter(m.c) || leave(m.c) ||
        discrete(m.c, &a, &b, &c, &e, &t) || continuous(m.c)) {
        die("the FMU did not initialise:", dir);
    }
    return m;
}

/* The limit: the states copied in by memcpy (the fastest copy here, as the arrays are placed
 * where `rep movsb` runs at full speed), then the derivative-only twin. */
static void limit_call(int k)
{
    memcpy(copy, x[k & 1], n * sizeof(double));
    the_case->derivatives(twin_size, copy, dx);
}

static void twin_call(int k)
{
    if (the_case->all != NULL) {
        the_case->all(twin_size, x[k & 1], dx, variables);
    } else {
        the_case->derivatives(twin_size, x[k & 1], dx);
    }
}

static Fmu fmus[MAX_FMUS];

static void fmu_call(int which, int k)
{
    Fmu *m = &fmus[which];
    if (m->set_states(m->c, x[k & 1], n) != 0 || m->get_derivatives(m->c, dx, n) != 0) {
        die("an FMI call failed in", m->label);
    }
}

/* Contender 0 is the limit, 1 the twin, 2 + i FMU i. */
static void call(int contender, int k)
{
    if (contender == 0) {
        limit_call(k);
    } else if (contender == 1) {
        twin_call(k);
    } else {
        fmu_call(contender - 2, k);
    }
}

/* Nanoseconds per state of `reps` calls of one contender. */
static double sample(int contender, long reps)
{
    double start = cpu_now();
    for (long k = 0; k < reps; k++) {
        call(contender, (int)k);
    }
    return (cpu_now() - start) / (double)reps * 1e9 / (double)n;
}

/* The FMU's derivatives at both vectors against the twin's. */
static void check_against_twin(int which)
{
    for (int k = 0; k < 2; k++) {
        fmu_call(which, k);
        the_case->derivatives(twin_size, x[k], twin_dx);
        double worst = 0.0, scale = 0.0;
        for (size_t i = 0; i < n; i++) {
            scale = fmax(scale, fabs(twin_dx[i]));
        }
        for (size_t i = 0; i < n; i++) {
            if (the_case->exact) {
                if (memcmp(&dx[i], &twin_dx[i], sizeof(double)) != 0) {
                    fprintf(stderr, "ab: %s: derivative %zu is %.17g, the twin's %.17g\n",
                            fmus[which].label, i, dx[i], twin_dx[i]);
                    exit(1);
                }
            } else {
                double d = fabs(dx[i] - twin_dx[i]);
                worst = fmax(worst, d / fmax(fmax(fabs(twin_dx[i]), 1e-12 * scale), 1e-300));
            }
        }
        if (!the_case->exact && worst > 1e-10) {
            fprintf(stderr, "ab: %s: the derivatives differ from the twin's by %.2e (relative)\n",
                    fmus[which].label, worst);
            exit(1);
        }
    }
}

static size_t every_state(size_t states) { return states; }
static size_t radiator_cells(size_t states) { return states > 6 ? states - 6 : 0; }
static size_t ladder_rungs(size_t states)
{
    return states >= 7 && (states - 3) % 2 == 0 ? (states - 3) / 2 : 0;
}
static size_t grid_side(size_t states)
{
    size_t side = (size_t)(sqrt((double)states) + 0.5);
    return side >= 2 && side * side == states ? side : 0;
}
static size_t chain_variables(size_t size) { return CHAIN_VARIABLES * size; }

static const Case cases[] = {
    {"rod", 1, rod_twin_derivatives, every_state, NULL, NULL},
    {"rod_other", 1, rod_other_twin_derivatives, every_state, NULL, NULL},
    {"chain", 1, chain_twin_derivatives, every_state, chain_twin_all, chain_variables},
    {"cooling", 0, cooling_twin_derivatives, radiator_cells, NULL, NULL},
    {"ladder", 1, ladder_twin_derivatives, ladder_rungs, ladder_twin_all, ladder_twin_variables},
    {"ladder_inner", 1, ladder_twin_derivatives, ladder_rungs, ladder_twin_all,
     ladder_twin_variables},
    {"ladder_split", 1, ladder_twin_derivatives, ladder_rungs, ladder_twin_all,
     ladder_twin_variables},
    {"grid", 1, grid_twin_derivatives, grid_side, grid_twin_all, grid_twin_variables},
};

static void print_summary(const char *name, double *values, int rounds, const char *unit)
{
    qsort(values, (size_t)rounds, sizeof(double), by_value);
    printf("  %-34s min %8.3f%s  median %8.3f%s\n", name, values[0], unit, values[rounds / 2],
           unit);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: ab CASE N ROUNDS LABEL=DIR [LABEL=DIR ...]\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (strcmp(argv[1], cases[i].name) == 0) {
            the_case = &cases[i];
        }
    }
    if (the_case == NULL) {
        die("unknown case", argv[1]);
    }
    n = (size_t)atol(argv[2]);
    int rounds = atoi(argv[3]), n_fmus = argc - 4, contenders = 2 + n_fmus;
    if (n < 7 || rounds < 1 || rounds > MAX_ROUNDS || n_fmus > MAX_FMUS) {
        die("N must be at least 7, ROUNDS 1 to 256, at most 16 FMUs", NULL);
    }
    twin_size = the_case->size(n);
    if (twin_size == 0) {
        die("N fits no size of the case's twin:", argv[2]);
    }
    /* What a loop writes lies half a page from what it reads: a load whose address matches a
     * store still in flight in its low 12 bits waits for it (4 KiB aliasing), and a loop that
     * streams both at one pace would meet that store every iteration. The states' copy
     * (memcpy) goes a quarter page forward, far from `rep movsb`'s slow distances. */
    const char *states_offset = getenv("AB_STATES_OFFSET");
    size_t at = states_offset != NULL ? (size_t)atol(states_offset) % 4096 : 64;
    x[0] = array(n, at), x[1] = array(n, at), copy = array(n, 64 + 1024);
    dx = array(n, 64 + 2048), twin_dx = array(n, 64 + 3072);
    if (the_case->all != NULL) {
        variables = array(the_case->variables(twin_size), 64 + 2560);
    }
    for (int i = 0; i < n_fmus; i++) {
        char *label = argv[4 + i], *eq = strchr(label, '=');
        if (eq == NULL) {
            die("not LABEL=DIR:", label);
        }
        *eq = '\0';
        fmus[i] = load(label, eq + 1);
    }
    /* The start values of the first FMU, shifted two ways (relative shifts keep every state
     * of the order of its start, so nothing comes near a denormal). */
    if (n_fmus == 0 || fmus[0].get_states(fmus[0].c, x[0], n) != 0) {
        die("no FMU, or fmi2GetContinuousStates failed", NULL);
    }
    for (size_t i = 0; i < n; i++) {
        double start = x[0][i], scale = 1.0 + fabs(start);
        if (the_case->exact) {
            x[0][i] = start + 1e-3 * scale * (double)(i % 7) / 7.0;
            x[1][i] = start + 1e-6 * scale * (double)(1 + i % 5);
        } else {
            /* The loop's twin is the textbook equations, checked where benches/cooling.rs
             * checks it: at the start and shifted uniformly. */
            x[0][i] = start;
            x[1][i] = start + 1e-6 * scale;
        }
    }
    for (int i = 0; i < n_fmus; i++) {
        check_against_twin(i);
    }
    /* Calibrate on the limit: a sample of about ROUND_SECONDS; then one untimed round. */
    long reps = 2;
    double per_call;
    for (;;) {
        double start = cpu_now();
        for (long k = 0; k < reps; k++) {
            limit_call((int)k);
        }
        per_call = (cpu_now() - start) / (double)reps;
        if (per_call * (double)reps > 0.01) {
            break;
        }
        reps *= 2;
    }
    reps = (long)(ROUND_SECONDS / per_call / 4.0) * 2 + 2;
    for (int c = 0; c < contenders; c++) {
        sample(c, reps / 4 + 2);
    }
    static double ns[2 + MAX_FMUS][MAX_ROUNDS];
    printf("%s, n = %zu, %d interleaved rounds of %ld calls per contender, ns per state "
           "(thread CPU time)\n",
           the_case->name, n, rounds, reps);
    printf("round  %10s %10s", "limit", "twin");
    for (int i = 0; i < n_fmus; i++) {
        printf(" %10.10s", fmus[i].label);
    }
    printf("\n");
    for (int r = 0; r < rounds; r++) {
        /* Each round starts at another contender, so none is always first or last. */
        for (int j = 0; j < contenders; j++) {
            int c = (r + j) % contenders;
            ns[c][r] = sample(c, reps);
        }
        printf("%5d ", r);
        for (int c = 0; c < contenders; c++) {
            printf(" %10.3f", ns[c][r]);
        }
        printf("\n");
    }
    printf("summary over %d rounds (ratios are per round, then min and median):\n", rounds);
    double values[MAX_ROUNDS];
    char name[200];
    for (int c = 0; c < contenders; c++) {
        const char *label = c == 0 ? "limit" : c == 1 ? "twin" : fmus[c - 2].label;
        memcpy(values, ns[c], (size_t)rounds * sizeof(double));
        snprintf(name, sizeof name, "%s ns/state", label);
        print_summary(name, values, rounds, "");
    }
    for (int c = 1; c < contenders; c++) {
        for (int against = 0; against < (c >= 2 ? 2 : 1); against++) {
            const char *label = c == 1 ? "twin" : fmus[c - 2].label;
            for (int r = 0; r < rounds; r++) {
                values[r] = ns[c][r] / ns[against][r];
            }
            snprintf(name, sizeof name, "%s / %s", label, against == 0 ? "limit" : "twin");
            print_summary(name, values, rounds, "x");
        }
    }
    for (int i = 1; i < n_fmus; i++) {
        for (int r = 0; r < rounds; r++) {
            values[r] = ns[2 + i][r] / ns[2][r];
        }
        snprintf(name, sizeof name, "%s / %s", fmus[i].label, fmus[0].label);
        print_summary(name, values, rounds, "x");
    }
    return 0;
}
