/* One derivative call of two unzipped FMI 2.0 FMUs of one model, timed in
 * interleaved rounds in one process: the compiled and the interpreted tier
 * of its schedule (benches/tiers/run.sh exports them).
 *
 *   tiers DIR_A DIR_B [ROUNDS] [MS]
 *
 * Each round times, for A then B, as many pairs of fmi2SetContinuousStates
 * and fmi2GetDerivatives as fit in MS milliseconds (default 40),
 * alternating two state vectors so that no call can reuse the last one's
 * values. Prints one line: the number of states, then for A and B the min
 * and median ns per call over the rounds, and the median of B/A. Before
 * timing, the two FMUs' derivatives must be equal to the bit at both state
 * vectors (exit 3 when not). Compiled with mofmu's own flags. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void *Component;
typedef int Status;
typedef struct {
    void (*logger)(void *, const char *, Status, const char *, const char *, ...);
    void *(*allocate)(size_t, size_t);
    void (*release)(void *);
    void *step_finished;
    void *environment;
} Callbacks;

typedef struct {
    Component c;
    Status (*set_states)(Component, const double *, size_t);
    Status (*get_derivatives)(Component, double *, size_t);
    Status (*get_states)(Component, double *, size_t);
    size_t n;
} Model;

static void quiet(void *e, const char *name, Status s, const char *category, const char *message,
                  ...)
{
    (void)e, (void)name, (void)s, (void)category, (void)message;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void fail(const char *dir, const char *what)
{
    fprintf(stderr, "%s: %s\n", dir, what);
    exit(2);
}

/* The attribute `name="..."` of the first element that has it, from the text. */
static int attribute(const char *text, const char *name, char *out, size_t size)
{
    char key[64];
    const char *at;
    size_t k = 0;
    snprintf(key, sizeof key, " %s=\"", name);
    at = strstr(text, key);
    if (at == NULL) {
        return 0;
    }
    at += strlen(key);
    while (at[k] != '"' && at[k] != '\0' && k + 1 < size) {
        out[k] = at[k];
        k++;
    }
    out[k] = '\0';
    return 1;
}

static Model load(const char *dir)
{
    static Callbacks callbacks = {quiet, calloc, free, NULL, NULL};
    char path[4096], guid[128], so[4600] = "", resources[4200], real[4096];
    char *text;
    long length;
    FILE *f;
    DIR *d;
    struct dirent *e;
    void *h;
    Model m;
    Component (*instantiate)(const char *, int, const char *, const char *, const Callbacks *,
                             int, int);
    Status (*setup)(Component, int, double, double, int, double);
    Status (*enter)(Component), (*leave)(Component), (*continuous)(Component);
    Status (*discrete)(Component, int *, int *, int *, int *, double *);
    int a, b, c, t;
    double next;
    snprintf(path, sizeof path, "%s/modelDescription.xml", dir);
    f = fopen(path, "rb");
    if (f == NULL) {
        fail(dir, "no modelDescription.xml");
    }
    fseek(f, 0, SEEK_END);
    length = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = malloc((size_t)length + 1);
    if (text == NULL || fread(text, 1, (size_t)length, f) != (size_t)length) {
        fail(dir, "cannot read modelDescription.xml");
    }
    text[length] = '\0';
    fclose(f);
    if (!attribute(text, "guid", guid, sizeof guid)) {
        fail(dir, "no guid");
    }
    /* The states are the <Derivatives> unknowns. */
    {
        const char *from = strstr(text, "<Derivatives>"), *to = strstr(text, "</Derivatives>");
        size_t n = 0;
        while (from != NULL && to != NULL && (from = strstr(from + 1, "<Unknown")) != NULL &&
               from < to) {
            n++;
        }
        m.n = n;
    }
    free(text);
    snprintf(path, sizeof path, "%s/binaries/linux64", dir);
    d = opendir(path);
    if (d == NULL) {
        fail(dir, "no binaries/linux64");
    }
    while ((e = readdir(d)) != NULL) {
        if (strstr(e->d_name, ".so") != NULL) {
            snprintf(so, sizeof so, "%s/%s", path, e->d_name);
        }
    }
    closedir(d);
    if (realpath(dir, real) == NULL) {
        fail(dir, "realpath");
    }
    snprintf(resources, sizeof resources, "file://%s/resources", real);
    h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        fail(dir, dlerror());
    }
    *(void **)&instantiate = dlsym(h, "fmi2Instantiate");
    *(void **)&setup = dlsym(h, "fmi2SetupExperiment");
    *(void **)&enter = dlsym(h, "fmi2EnterInitializationMode");
    *(void **)&leave = dlsym(h, "fmi2ExitInitializationMode");
    *(void **)&continuous = dlsym(h, "fmi2EnterContinuousTimeMode");
    *(void **)&discrete = dlsym(h, "fmi2NewDiscreteStates");
    *(void **)&m.set_states = dlsym(h, "fmi2SetContinuousStates");
    *(void **)&m.get_derivatives = dlsym(h, "fmi2GetDerivatives");
    *(void **)&m.get_states = dlsym(h, "fmi2GetContinuousStates");
    m.c = instantiate("tiers", 0, guid, resources, &callbacks, 0, 0);
    if (m.c == NULL) {
        fail(dir, "fmi2Instantiate failed");
    }
    if (setup(m.c, 0, 0.0, 0.0, 0, 0.0) || enter(m.c) || leave(m.c) ||
        discrete(m.c, &a, &b, &c, &t, &next) || continuous(m.c)) {
        fail(dir, "initialisation failed");
    }
    return m;
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* ns per call of `m` over about `ms` milliseconds. */
static double time_calls(const Model *m, const double *x0, const double *x1, double *dx, double ms)
{
    long calls = 0, batch = 1;
    double start = seconds(), now = start;
    while ((now - start) * 1e3 < ms) {
        long i;
        for (i = 0; i < batch; i++) {
            m->set_states(m->c, (calls + i) % 2 ? x1 : x0, m->n);
            m->get_derivatives(m->c, dx, m->n);
        }
        calls += batch;
        batch *= 2;
        now = seconds();
    }
    return (now - start) * 1e9 / (double)calls;
}

int main(int argc, char **argv)
{
    Model m[2];
    double *x0, *x1, *d0, *d1, ns[2][64], ratio[64], ms;
    int rounds, r, k;
    size_t i, n;
    if (argc < 3) {
        fprintf(stderr, "usage: tiers DIR_A DIR_B [ROUNDS] [MS]\n");
        return 2;
    }
    rounds = argc > 3 ? atoi(argv[3]) : 8;
    ms = argc > 4 ? atof(argv[4]) : 40.0;
    if (rounds < 1 || rounds > 64) {
        rounds = 8;
    }
    m[0] = load(argv[1]);
    m[1] = load(argv[2]);
    n = m[0].n;
    if (m[1].n != n) {
        fail(argv[2], "another number of states");
    }
    x0 = calloc(n + 1, sizeof *x0);
    x1 = calloc(n + 1, sizeof *x1);
    d0 = calloc(n + 1, sizeof *d0);
    d1 = calloc(n + 1, sizeof *d1);
    if (x0 == NULL || x1 == NULL || d0 == NULL || d1 == NULL) {
        fail(argv[1], "out of memory");
    }
    m[0].get_states(m[0].c, x0, n);
    for (i = 0; i < n; i++) {
        x1[i] = x0[i] * (1 + 1e-3) + 1e-3;
    }
    for (k = 0; k < 2; k++) {
        const double *x = k ? x1 : x0;
        m[0].set_states(m[0].c, x, n);
        m[0].get_derivatives(m[0].c, d0, n);
        m[1].set_states(m[1].c, x, n);
        m[1].get_derivatives(m[1].c, d1, n);
        if (memcmp(d0, d1, n * sizeof *d0) != 0) {
            fprintf(stderr, "the derivatives differ\n");
            return 3;
        }
    }
    /* One untimed round first. */
    time_calls(&m[0], x0, x1, d0, ms / 4);
    time_calls(&m[1], x0, x1, d1, ms / 4);
    for (r = 0; r < rounds; r++) {
        for (k = 0; k < 2; k++) {
            ns[k][r] = time_calls(&m[k], x0, x1, k ? d1 : d0, ms);
        }
        ratio[r] = ns[1][r] / ns[0][r];
    }
    qsort(ns[0], (size_t)rounds, sizeof(double), by_value);
    qsort(ns[1], (size_t)rounds, sizeof(double), by_value);
    qsort(ratio, (size_t)rounds, sizeof(double), by_value);
    printf("%zu %.1f %.1f %.1f %.1f %.3f\n", n, ns[0][0], ns[0][rounds / 2], ns[1][0],
           ns[1][rounds / 2], ratio[rounds / 2]);
    return 0;
}
