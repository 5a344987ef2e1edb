/* FMI 3.0 against FMI 2.0: fmi3SetContinuousStates + fmi3GetContinuousStateDerivatives of an
 * FMI 3.0 FMU against fmi2SetContinuousStates + fmi2GetDerivatives of the FMI 2.0 FMU of the
 * same model, in ONE process and in interleaved rounds, so that whatever the machine does
 * weighs on both alike.
 *
 *   cc -O2 -o ab3 benches/interleaved/ab3.c -ldl
 *   ab3 N ROUNDS FMI2_DIR FMI3_DIR      (each DIR an unzipped FMU with N continuous states)
 *
 * Both instances are initialised and put in continuous-time mode; each round times, for each
 * FMU in turn, about ROUND_SECONDS of call pairs alternating two state vectors (the FMU's
 * start, shifted by +1e-3 and by -2e-3 relative per element), so no call can reuse the one
 * before. Before timing, the two FMUs' derivatives at both vectors must be equal bit for bit.
 * Prints each round's ns per state and the ratio FMI 3 / FMI 2, then their min and median. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <dlfcn.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUND_SECONDS 0.5

typedef int S;
typedef struct {
    void (*logger)(void *, const char *, S, const char *, const char *, ...);
    void *(*alloc)(size_t, size_t);
    void (*freeMemory)(void *);
    void *stepFinished;
    void *env;
} Callbacks2;

static void quiet2(void *e, const char *i, S s, const char *c, const char *m, ...)
{
    (void)e; (void)i; (void)s; (void)c; (void)m;
}

static void quiet3(void *e, S s, const char *c, const char *m)
{
    (void)e; (void)c;
    if (s > 1) fprintf(stderr, "FMI 3: %s\n", m);
}

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void die(const char *what, const char *dir)
{
    fprintf(stderr, "%s: %s\n", dir, what);
    exit(2);
}

/* The attribute `key="..."` of the first line of modelDescription.xml that has it. */
static void attribute(const char *dir, const char *key, char *out, size_t size)
{
    char path[4096], line[16384], pattern[64];
    FILE *f;
    snprintf(path, sizeof path, "%s/modelDescription.xml", dir);
    snprintf(pattern, sizeof pattern, " %s=\"", key);
    f = fopen(path, "r");
    if (f == NULL) die("no modelDescription.xml", dir);
    out[0] = '\0';
    while (out[0] == '\0' && fgets(line, sizeof line, f)) {
        char *g = strstr(line, pattern);
        if (g != NULL) {
            char *end = strchr(g + strlen(pattern), '"');
            size_t n = end ? (size_t)(end - g - strlen(pattern)) : 0;
            if (n >= size) n = size - 1;
            memcpy(out, g + strlen(pattern), n);
            out[n] = '\0';
        }
    }
    fclose(f);
}

static void *library(const char *dir, const char *platform)
{
    char path[4096], so[8448] = "";
    DIR *d;
    void *h;
    snprintf(path, sizeof path, "%s/binaries/%s", dir, platform);
    d = opendir(path);
    if (d == NULL) die("no binaries folder for this platform", dir);
    for (struct dirent *e; (e = readdir(d));)
        if (strstr(e->d_name, ".so")) snprintf(so, sizeof so, "%s/%s", path, e->d_name);
    closedir(d);
    h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) die(dlerror(), dir);
    return h;
}

typedef struct {
    void *c;
    S (*set)(void *, const double *, size_t);
    S (*get)(void *, double *, size_t);
    S (*states)(void *, double *, size_t);
} Contender;

static Contender fmi2(const char *dir)
{
    char guid[256], real[4096], res[4200];
    void *h = library(dir, "linux64");
    static Callbacks2 cb = {quiet2, calloc, free, NULL, NULL};
    void *(*inst)(const char *, int, const char *, const char *, const Callbacks2 *, int, int) =
        (void *(*)(const char *, int, const char *, const char *, const Callbacks2 *, int, int))dlsym(h, "fmi2Instantiate");
    S (*setup)(void *, int, double, double, int, double) = (S (*)(void *, int, double, double, int, double))dlsym(h, "fmi2SetupExperiment");
    S (*enter)(void *) = (S (*)(void *))dlsym(h, "fmi2EnterInitializationMode");
    S (*leave)(void *) = (S (*)(void *))dlsym(h, "fmi2ExitInitializationMode");
    S (*ct)(void *) = (S (*)(void *))dlsym(h, "fmi2EnterContinuousTimeMode");
    S (*nd)(void *, int *) = (S (*)(void *, int *))dlsym(h, "fmi2NewDiscreteStates");
    Contender m;
    int info[8] = {0};
    attribute(dir, "guid", guid, sizeof guid);
    if (!realpath(dir, real)) die("realpath", dir);
    snprintf(res, sizeof res, "file://%s/resources", real);
    m.c = inst("ab", 0, guid, res, &cb, 0, 0);
    m.set = (S (*)(void *, const double *, size_t))dlsym(h, "fmi2SetContinuousStates");
    m.get = (S (*)(void *, double *, size_t))dlsym(h, "fmi2GetDerivatives");
    m.states = (S (*)(void *, double *, size_t))dlsym(h, "fmi2GetContinuousStates");
    if (m.c == NULL) die("fmi2Instantiate failed", dir);
    if (setup(m.c, 0, 0, 0, 0, 0) || enter(m.c) || leave(m.c) || nd(m.c, info) || ct(m.c))
        die("initialisation failed", dir);
    return m;
}

static Contender fmi3(const char *dir)
{
    char token[256], real[4096], res[4200];
    void *h = library(dir, "x86_64-linux");
    void *(*inst)(const char *, const char *, const char *, bool, bool, void *, void (*)(void *, S, const char *, const char *)) =
        (void *(*)(const char *, const char *, const char *, bool, bool, void *, void (*)(void *, S, const char *, const char *)))dlsym(h, "fmi3InstantiateModelExchange");
    S (*enter)(void *, bool, double, double, bool, double) = (S (*)(void *, bool, double, double, bool, double))dlsym(h, "fmi3EnterInitializationMode");
    S (*leave)(void *) = (S (*)(void *))dlsym(h, "fmi3ExitInitializationMode");
    S (*ct)(void *) = (S (*)(void *))dlsym(h, "fmi3EnterContinuousTimeMode");
    S (*update)(void *, bool *, bool *, bool *, bool *, bool *, double *) =
        (S (*)(void *, bool *, bool *, bool *, bool *, bool *, double *))dlsym(h, "fmi3UpdateDiscreteStates");
    Contender m;
    bool b[5];
    double next;
    attribute(dir, "instantiationToken", token, sizeof token);
    if (!realpath(dir, real)) die("realpath", dir);
    snprintf(res, sizeof res, "%s/resources/", real);
    m.c = inst("ab", token, res, false, false, NULL, quiet3);
    m.set = (S (*)(void *, const double *, size_t))dlsym(h, "fmi3SetContinuousStates");
    m.get = (S (*)(void *, double *, size_t))dlsym(h, "fmi3GetContinuousStateDerivatives");
    m.states = (S (*)(void *, double *, size_t))dlsym(h, "fmi3GetContinuousStates");
    if (m.c == NULL) die("fmi3InstantiateModelExchange failed", dir);
    if (enter(m.c, false, 0, 0, false, 0) || leave(m.c) || update(m.c, b, b + 1, b + 2, b + 3, b + 4, &next) || ct(m.c))
        die("initialisation failed", dir);
    return m;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv)
{
    int n, rounds;
    Contender m[2];
    double *x[2], *dx, *dy, ns[2][256], ratio[256];
    long reps = 1;
    if (argc != 5) {
        fprintf(stderr, "usage: ab3 N ROUNDS FMI2_DIR FMI3_DIR\n");
        return 2;
    }
    n = atoi(argv[1]);
    rounds = atoi(argv[2]);
    if (rounds > 256) rounds = 256;
    m[0] = fmi2(argv[3]);
    m[1] = fmi3(argv[4]);
    x[0] = malloc(n * sizeof(double));
    x[1] = malloc(n * sizeof(double));
    dx = malloc(n * sizeof(double));
    dy = malloc(n * sizeof(double));
    if (m[0].states(m[0].c, x[0], n) || m[1].states(m[1].c, x[1], n)) die("states", "either");
    for (int i = 0; i < n; i++) {
        if (x[0][i] != x[1][i]) die("the start states differ", "FMI 2 and FMI 3");
        x[1][i] = x[0][i] * (1 - 2e-3) + 1e-9;
        x[0][i] = x[0][i] * (1 + 1e-3) + 1e-9;
    }
    for (int v = 0; v < 2; v++) {
        if (m[0].set(m[0].c, x[v], n) || m[0].get(m[0].c, dx, n) || m[1].set(m[1].c, x[v], n) ||
            m[1].get(m[1].c, dy, n))
            die("an evaluation failed", "either");
        if (memcmp(dx, dy, n * sizeof(double)) != 0) die("the derivatives differ", "FMI 2 and FMI 3");
    }
    printf("derivatives equal bit for bit at both state vectors (n = %d)\n", n);
    /* Calibrate the repetitions to about ROUND_SECONDS for FMI 2. */
    for (;;) {
        double t0 = cpu_now();
        for (long r = 0; r < reps; r++) {
            m[0].set(m[0].c, x[r & 1], n);
            m[0].get(m[0].c, dx, n);
        }
        if (cpu_now() - t0 > 0.1 * ROUND_SECONDS) {
            reps = (long)(reps * ROUND_SECONDS / (cpu_now() - t0)) + 1;
            break;
        }
        reps *= 2;
    }
    printf("round  FMI2 ns/state  FMI3 ns/state  FMI3/FMI2\n");
    for (int r = -1; r < rounds; r++) {
        for (int k = 0; k < 2; k++) {
            /* Alternate which goes first, so neither always follows the other. */
            int c = (r & 1) ? 1 - k : k;
            double t0 = cpu_now();
            for (long i = 0; i < reps; i++) {
                m[c].set(m[c].c, x[i & 1], n);
                m[c].get(m[c].c, dx, n);
            }
            if (r >= 0) ns[c][r] = 1e9 * (cpu_now() - t0) / ((double)reps * n);
        }
        if (r >= 0) {
            ratio[r] = ns[1][r] / ns[0][r];
            printf("%5d  %13.3f  %13.3f  %9.4f\n", r, ns[0][r], ns[1][r], ratio[r]);
        }
    }
    {
        double min2 = ns[0][0], min3 = ns[1][0], minr = ratio[0];
        for (int r = 1; r < rounds; r++) {
            if (ns[0][r] < min2) min2 = ns[0][r];
            if (ns[1][r] < min3) min3 = ns[1][r];
            if (ratio[r] < minr) minr = ratio[r];
        }
        printf("min    %13.3f  %13.3f  %9.4f (ratio of the minima %.4f)\n", min2, min3, minr, min3 / min2);
        printf("median %13.3f  %13.3f  %9.4f\n", median(ns[0], rounds), median(ns[1], rounds), median(ratio, rounds));
    }
    return 0;
}
