/* mofmu: the FMI 3.0 entry points (Model Exchange and Co-Simulation).
 *
 * The FMU of `mofmu export --fmi-version 3` compiles this unit instead of
 * mofmu_runtime.c: it includes the static runtime whole (one translation
 * unit, as mofmu_cosim.h is) and adds the fmi3 functions over the same
 * core, so there is one evaluation, one state machine and one FMU state
 * for both standards. An FMI 3 instance is the runtime's instance; each
 * fmi3 function checks and converts its arguments and calls the fmi2
 * function of the same meaning, whose allowed-state masks, argument checks
 * and messages apply unchanged.
 *
 * Value references. FMI 3 numbers all variables in one space; the runtime
 * numbers Reals (indices into R), Integers and Booleans separately. The
 * model description adds a base per table: Float64 variables keep their
 * index in R, Int32 and Enumeration (Int64) variables are
 * MOFMU_FMI3_INTEGER_BASE + index, Booleans MOFMU_FMI3_BOOLEAN_BASE +
 * index, and the event indicators are one Float64 array at
 * MOFMU_FMI3_INDICATORS (the bases are repeated in src/fmu/fmi3.rs). A
 * one-dimensional Real array of the description (resources/mofmu_fmi3.bin)
 * is named by its first element's index and stands for all its elements,
 * which lie at a stride in R: 1 for an array of Reals (rod.T), the number
 * of Reals per instance for a member of a component array (cap.T).
 *
 * Structural parameters: configuration mode lays the instance out for a new
 * size from resources/mofmu_struct.bin (its own section below). Not offered:
 * reconfiguration mode, clocks and scheduled execution, event mode in
 * Co-Simulation, intermediate update; those functions return fmi3Error
 * with a message. */

#include "mofmu_runtime.c"
#include "mofmu_fmi3.h"

#define MOFMU_FMI3_INTEGER_BASE 0x40000000u
#define MOFMU_FMI3_BOOLEAN_BASE 0x60000000u
#define MOFMU_FMI3_INDICATORS 0x7fffff00u

#define MOFMU_FMI3_FILE "mofmu_fmi3.bin"

/* What an FMI 3 instance keeps beside the runtime's instance, reached as
 * the instance's logger environment: the importer's FMI 3 logger, behind
 * the runtime's FMI 2 logger (which the instance calls with the constant
 * format "%s"), and the Float64 arrays of the description. */
typedef struct {
    fmi3LogMessageCallback log;
    fmi3InstanceEnvironment environment;
    /* The arrays (resources/mofmu_fmi3.bin, written from the grouping that
     * wrote the description): each one's value reference, the index in R of
     * its first element, and its number of elements, by ascending value
     * reference. Every other Float64 value reference is a scalar. */
    uint32_t *array_vr;
    uint32_t *array_len;
    /* The distance in R between consecutive elements (1 but in a member
     * array, cap.T: the Reals of one instance of a component array). */
    uint32_t *array_stride;
    size_t n_arrays;
    /* The arrays' value references in the description (array_vr at the
     * exported size; array_vr follows a structural parameter). */
    uint32_t *array_vr0;
    /* With strided arrays (which interleave), per R index: nonzero for an
     * array's element other than its first; NULL without them (the arrays
     * are then disjoint ranges, searched as such). n_inner entries. */
    unsigned char *inner;
    size_t n_inner;
    /* The structural parameter (resources/mofmu_struct.bin), or NULL. */
    struct Fmi3Structural *st;
} Fmi3Logger;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 5, 6)))
#endif
static void fmi3_logger(fmi2ComponentEnvironment environment, fmi2String instanceName,
                        fmi2Status status, fmi2String category, fmi2String message, ...)
{
    const Fmi3Logger *logger = (const Fmi3Logger *)environment;
    char text[1200];
    va_list args;
    (void)instanceName;
    if (logger == NULL || logger->log == NULL) {
        return;
    }
    va_start(args, message);
    vsnprintf(text, sizeof text, message, args);
    va_end(args);
    logger->log(logger->environment, (fmi3Status)status, category, text);
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* With strided arrays: marks in d->inner (n_reals entries, rebuilt) every
 * array's elements but the first; nonzero when an element lies outside R,
 * two arrays share an element, the first elements are not ascending, or
 * memory runs out. Without strided arrays d->inner stays NULL. */
static int mark_arrays(Fmi3Logger *d, size_t n_reals)
{
    size_t i, k;
    unsigned char *taken;
    int strided = 0;
    for (i = 0; i < d->n_arrays; i++) {
        strided |= d->array_stride[i] != 1;
    }
    free(d->inner);
    d->inner = NULL;
    d->n_inner = 0;
    if (!strided) {
        return 0;
    }
    taken = (unsigned char *)allocate(n_reals, 1);
    if (taken == NULL) {
        return 1;
    }
    for (i = 0; i < d->n_arrays; i++) {
        uint64_t first = d->array_vr[i], len = d->array_len[i], stride = d->array_stride[i];
        if (len == 0 || stride == 0 || first >= n_reals ||
            (len - 1) * stride > (uint64_t)n_reals - 1 - first ||
            (i > 0 && d->array_vr[i] <= d->array_vr[i - 1])) {
            free(taken);
            return 1;
        }
        for (k = 0; k < len; k++) {
            size_t at = (size_t)(first + k * stride);
            if (taken[at]) {
                free(taken);
                return 1;
            }
            taken[at] = k == 0 ? 1 : 2;
        }
    }
    for (i = 0; i < n_reals; i++) {
        taken[i] = taken[i] == 2;
    }
    d->inner = taken;
    d->n_inner = n_reals;
    return 0;
}

/* Reads resources/mofmu_fmi3.bin (layout in src/fmu/fmi3_arrays.rs) into
 * `d`; NULL, or why it cannot be used. Every array must lie inside R, in
 * ascending order without sharing an element with another (version 1: no
 * strides, each array a range before the next; version 2: a stride per
 * array, and strided arrays may interleave). */
static const char *load_arrays(Fmi3Logger *d, const char *location, size_t n_reals,
                               char *error, size_t error_size)
{
    char *path = system_file_path(location, error, error_size);
    char *slash;
    unsigned char *bytes;
    const char *problem = NULL;
    size_t size = 0, i, count, entry = 8;
    uint32_t version = 0;
    uint64_t sum = 0;
    if (path == NULL) {
        return error;
    }
    /* The FMI 3 file's name is shorter than the system file's. */
    slash = strrchr(path, '/');
    memcpy(slash + 1, MOFMU_FMI3_FILE, sizeof MOFMU_FMI3_FILE);
    bytes = read_whole_file(path, &size, error, error_size);
    free(path);
    if (bytes == NULL) {
        return error;
    }
    if (size < 24 || memcmp(bytes, "MOFMUFM3", 8) != 0) {
        problem = "resources/" MOFMU_FMI3_FILE " is not a mofmu FMI 3 resource";
    } else {
        for (i = 0; i < 8; i++) {
            sum |= (uint64_t)bytes[size - 8 + i] << (8 * i);
        }
        count = le32(bytes + 12);
        version = le32(bytes + 8);
        entry = version == 2 ? 12 : 8;
        if (sum != fnv1a(bytes, size - 8)) {
            problem = "resources/" MOFMU_FMI3_FILE ": its checksum does not match";
        } else if (version != 1 && version != 2) {
            problem = "resources/" MOFMU_FMI3_FILE " has an unknown version";
        } else if (count != (size - 24) / entry || (size - 24) % entry != 0) {
            problem = "resources/" MOFMU_FMI3_FILE " has the wrong length";
        }
    }
    if (problem == NULL) {
        d->n_arrays = le32(bytes + 12);
        d->array_vr = (uint32_t *)allocate(d->n_arrays, sizeof *d->array_vr);
        d->array_len = (uint32_t *)allocate(d->n_arrays, sizeof *d->array_len);
        d->array_vr0 = (uint32_t *)allocate(d->n_arrays, sizeof *d->array_vr0);
        d->array_stride = (uint32_t *)allocate(d->n_arrays, sizeof *d->array_stride);
        if (d->array_vr == NULL || d->array_len == NULL || d->array_vr0 == NULL ||
            d->array_stride == NULL) {
            problem = "out of memory";
        }
        for (i = 0; problem == NULL && i < d->n_arrays; i++) {
            const unsigned char *e = bytes + 16 + entry * i;
            d->array_vr[i] = le32(e);
            d->array_vr0[i] = d->array_vr[i];
            d->array_len[i] = le32(e + 4);
            d->array_stride[i] = version == 2 ? le32(e + 8) : 1;
            if (d->array_len[i] == 0 || d->array_stride[i] == 0 || d->array_vr[i] >= n_reals ||
                (uint64_t)(d->array_len[i] - 1) * d->array_stride[i] >=
                    (uint64_t)n_reals - d->array_vr[i] ||
                (version == 1 && i > 0 &&
                 d->array_vr[i] < d->array_vr[i - 1] + d->array_len[i - 1])) {
                problem = "resources/" MOFMU_FMI3_FILE " names an array outside the model";
            }
        }
        if (problem == NULL && mark_arrays(d, n_reals) != 0) {
            problem = "resources/" MOFMU_FMI3_FILE " names arrays that overlap or are out of "
                      "order (or memory ran out)";
        }
    }
    free(bytes);
    return problem;
}

/* The index of the array whose first element is `vr`, or n_arrays. */
static size_t array_at(const Fmi3Logger *d, uint32_t vr)
{
    size_t lo = 0, hi = d->n_arrays;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->array_vr[mid] < vr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < d->n_arrays && d->array_vr[lo] == vr ? lo : d->n_arrays;
}

/* The number of elements value reference `vr` stands for: an array's
 * length, 1 for a scalar, 0 for an array's element other than its first
 * (not a variable of the FMI 3 description). */
static size_t vr_length(const Fmi3Logger *d, uint32_t vr)
{
    size_t lo = 0, hi = d->n_arrays;
    if (d->inner != NULL) {
        if (vr < d->n_inner && d->inner[vr]) {
            return 0;
        }
        lo = array_at(d, vr);
        return lo < d->n_arrays ? d->array_len[lo] : 1;
    }
    /* The last array that starts at or before vr. */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->array_vr[mid] <= vr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == 0 || vr >= d->array_vr[lo - 1] + d->array_len[lo - 1]) {
        return 1;
    }
    return vr == d->array_vr[lo - 1] ? d->array_len[lo - 1] : 0;
}

/* The distance in R between the elements `vr` stands for (1 for a scalar). */
static uint32_t vr_stride(const Fmi3Logger *d, uint32_t vr)
{
    size_t i = d->inner == NULL ? d->n_arrays : array_at(d, vr);
    return i < d->n_arrays ? d->array_stride[i] : 1;
}

static const Fmi3Logger *fmi3_data(const Instance *inst)
{
    return (const Fmi3Logger *)inst->environment;
}

/* The number of Float64 values `vrs` stand for (arrays counted by their
 * elements, the event indicators' array when `indicators` is nonzero), or
 * (size_t)-1 with the reason logged when one is an array's inner element. */
static size_t count_values(Instance *inst, const char *function, const fmi3ValueReference vrs[],
                           size_t nvr, int indicators)
{
    const Fmi3Logger *d = fmi3_data(inst);
    size_t i, n = 0;
    for (i = 0; i < nvr; i++) {
        size_t len;
        if (indicators && vrs[i] == MOFMU_FMI3_INDICATORS && inst->sys->n_event_indicators > 0) {
            n += inst->sys->n_event_indicators;
            continue;
        }
        len = vr_length(d, vrs[i]);
        if (len == 0) {
            log_error(inst,
                      "%s: value reference %u is an element of an array, not a variable; "
                      "FMI 3 names an array by its own value reference",
                      function, (unsigned)vrs[i]);
            return (size_t)-1;
        }
        n += len;
    }
    return n;
}

/* The runtime's value references of the Float64 variables `vrs` (none the
 * indicators' array), each array's elements in order: `n` of them, as
 * count_values gave. NULL with the reason logged when memory runs out. */
static fmi2ValueReference *expand_reals(Instance *inst, const char *function,
                                        const fmi3ValueReference vrs[], size_t nvr, size_t n)
{
    const Fmi3Logger *d = fmi3_data(inst);
    fmi2ValueReference *out = (fmi2ValueReference *)allocate(n, sizeof *out);
    size_t i, at = 0;
    if (out == NULL) {
        log_error(inst, "%s: out of memory", function);
        return NULL;
    }
    for (i = 0; i < nvr; i++) {
        size_t k, len = vr_length(d, vrs[i]);
        fmi2ValueReference stride = vr_stride(d, vrs[i]);
        for (k = 0; k < len && at < n; k++) {
            out[at++] = vrs[i] + (fmi2ValueReference)k * stride;
        }
    }
    return out;
}


static int configuring(const Instance *inst);
static fmi3Status refuse3(fmi3Instance instance, const char *function, const char *why);

/* ------------------------------------------------------------------------
 * Structural parameters and configuration mode
 *
 * resources/mofmu_struct.bin (src/fmu/structural.rs) holds a template of the
 * system resource that is affine in one Integer parameter n: literal bytes,
 * integers a + b*n + c*k, loops of a + b*n rounds (k the round), indexed
 * names and (version 3) Reals computed from n by a short program of + - * /
 * (a start value the size sets). fmi3ExitConfigurationMode evaluates it at the n set in
 * configuration mode and loads the bytes as fmi2Instantiate loads
 * mofmu_system.bin (parse_system: every check applies), then lays out the
 * instance's arrays for the new tables. Nothing is compiled. The
 * description's Float64 value references are R indices at the exported
 * n0; `segments` maps them to R at the current n (an array by its first
 * element, which names it at any size).
 * ------------------------------------------------------------------------ */

typedef struct {
    uint32_t vr0, len0;
    int64_t start_a, start_b, len_a, len_b;
    int64_t stride; /* element k at vr0 + k*stride (versions 2, 3; else 1) */
} Fmi3Segment;

struct Fmi3Structural {
    uint32_t integer; /* the parameter's index in the Integer table */
    char *name;
    int64_t n0, n_min, n_max;
    size_t image_size0; /* the bytes of mofmu_system.bin (the image at n0) */
    int64_t n;       /* the size the instance's tables have */
    int64_t pending; /* the size set in configuration mode */
    int configuring;
    Fmi3Segment *segments;
    size_t n_segments;
    /* Versions 2 and 3 (strided segments, which interleave): per description
     * value reference below n_seg_at, its segment's index (UINT32_MAX for
     * none); NULL in version 1, whose segments are searched as ranges. */
    uint32_t *seg_at;
    size_t n_seg_at;
    unsigned char *ops; /* the template's ops, as in the file */
    size_t n_ops, ops_size;
    unsigned char *file;
};

static int64_t le64s(const unsigned char *p)
{
    return (int64_t)((uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32);
}

static void free_structural(struct Fmi3Structural *st)
{
    if (st != NULL) {
        free(st->segments);
        free(st->seg_at);
        free(st->file);
        free(st->name);
        free(st);
    }
}

/* A growing byte buffer for the evaluated template. `limit` bounds its
 * size and `ops_left` the ops run, so that a damaged template (re-signed:
 * the checksum holds) ends with bad = 2 instead of running for hours. */
typedef struct {
    unsigned char *p;
    size_t used, size, limit;
    uint64_t ops_left;
    int bad;
} Fmi3Bytes;

static void put(Fmi3Bytes *b, const void *data, size_t n)
{
    if (b->bad) {
        return;
    }
    if (n > b->limit - b->used) {
        b->bad = 2;
        return;
    }
    if (b->used + n > b->size) {
        size_t size = b->size * 2 + n + 4096;
        unsigned char *p = (unsigned char *)realloc(b->p, size);
        if (p == NULL) {
            b->bad = 1;
            return;
        }
        b->p = p;
        b->size = size;
    }
    memcpy(b->p + b->used, data, n);
    b->used += n;
}

static void put_le(Fmi3Bytes *b, uint64_t v, size_t width)
{
    unsigned char bytes[8];
    size_t i;
    for (i = 0; i < width; i++) {
        bytes[i] = (unsigned char)(v >> (8 * i));
    }
    put(b, bytes, width);
}

/* The size of op `p` in bytes (the file was checked when loaded). */
static size_t op_size(const unsigned char *p)
{
    switch (p[0]) {
    case 0:
        return 5 + le32(p + 1);
    case 1:
        return 26;
    case 2:
        return 21;
    case 4:
        return 5 + 25 * (size_t)le32(p + 1);
    default: {
        size_t a = le32(p + 1), b = le32(p + 5 + a);
        return 1 + 4 + a + 4 + b + 24;
    }
    }
}

/* a + b*n + c*k, three little-endian i64 at p; nonzero *bad when it
 * overflows (only a damaged template does: n and k are sizes). */
static int64_t affine_at(const unsigned char *p, int64_t n, int64_t k, int *bad)
{
    int64_t a = le64s(p), b = le64s(p + 8), c = le64s(p + 16);
    const int64_t big = (int64_t)1 << 62;
    /* |b|, |c| < 2^31 and 0 <= n, k < 2^31 keep each product below 2^62,
     * and |a| < 2^62 keeps the sum below 2^63. */
    if (a <= -big || a >= big || b <= -((int64_t)1 << 31) || b >= ((int64_t)1 << 31) ||
        c <= -((int64_t)1 << 31) || c >= ((int64_t)1 << 31) || n < 0 ||
        n >= ((int64_t)1 << 31) || k < 0 || k >= ((int64_t)1 << 31)) {
        *bad = 2;
        return 0;
    }
    return a + b * n + c * k;
}

/* The most steps of a computed Real (op 4; MAX_CALC in src/ir.rs). */
#define MOFMU_MAX_CALC 32

/* Op 4: the f64 its postfix program computes at size n and round k, in
 * the order the exporter folded it (a start value the size sets, `each V =
 * 2e-3/n`). Steps are a tag and 24 bytes: 0 a constant (its bits in the
 * first 8), 1 (double)(a + b*n + c*k), 2 negation, 3 +, 4 -, 5 *, 6 /.
 * *bad 3 for a program that is not one value (calc_ok refuses it when
 * the file is loaded), 2 when an integer overflows.
 * The runtime is built with -ffp-contract=off: each operation rounds as
 * the exporter's did. */
static double calc_at(const unsigned char *p, int64_t n, int64_t k, int *bad)
{
    double stack[MOFMU_MAX_CALC];
    size_t count = le32(p + 1), depth = 0, i;
    const unsigned char *s = p + 5;
    if (count > MOFMU_MAX_CALC) {
        *bad = 3;
        return 0.0;
    }
    for (i = 0; i < count; i++, s += 25) {
        if (s[0] == 0 || s[0] == 1) {
            if (s[0] == 0) {
                uint64_t bits = (uint64_t)le64s(s + 1);
                memcpy(&stack[depth], &bits, sizeof bits);
            } else {
                int64_t v = affine_at(s + 1, n, k, bad);
                if (*bad) {
                    return 0.0;
                }
                stack[depth] = (double)v;
            }
            depth++;
        } else if (s[0] == 2 && depth >= 1) {
            stack[depth - 1] = -stack[depth - 1];
        } else if (s[0] >= 3 && s[0] <= 6 && depth >= 2) {
            double x = stack[depth - 2], y = stack[depth - 1];
            stack[depth - 2] = s[0] == 3 ? x + y : s[0] == 4 ? x - y : s[0] == 5 ? x * y : x / y;
            depth--;
        } else {
            *bad = 3;
            return 0.0;
        }
    }
    if (depth != 1) {
        *bad = 3;
        return 0.0;
    }
    return stack[0];
}

/* Whether op 4 at p (its steps inside the file) is one value: known tags,
 * at most MOFMU_MAX_CALC steps, no operation without its operands, one
 * value left. */
static int calc_ok(const unsigned char *p)
{
    size_t count = le32(p + 1), depth = 0, i;
    const unsigned char *s = p + 5;
    if (count > MOFMU_MAX_CALC) {
        return 0;
    }
    for (i = 0; i < count; i++, s += 25) {
        if (s[0] <= 1) {
            depth++;
        } else if ((s[0] == 2 && depth < 1) || (s[0] >= 3 && depth < 2) || s[0] > 6) {
            return 0;
        } else if (s[0] >= 3) {
            depth--;
        }
    }
    return depth == 1;
}

/* Runs `count` ops from `p` at size n and round k; the bytes after them. */
static const unsigned char *run_ops(const unsigned char *p, size_t count, int64_t n, int64_t k,
                                    Fmi3Bytes *out)
{
    size_t i;
    for (i = 0; i < count && !out->bad; i++) {
        if (out->ops_left == 0) {
            out->bad = 2;
            return p;
        }
        out->ops_left--;
        if (p[0] == 0) {
            put(out, p + 5, le32(p + 1));
            p += op_size(p);
        } else if (p[0] == 1) {
            int64_t v = affine_at(p + 2, n, k, &out->bad);
            if (out->bad) {
                return p;
            }
            if ((p[1] == 0 && (v < 0 || v > (int64_t)UINT32_MAX)) ||
                (p[1] == 1 && (v < INT32_MIN || v > INT32_MAX))) {
                out->bad = 2;
                return p;
            }
            put_le(out, (uint64_t)v, p[1] == 2 ? 8 : 4);
            p += 26;
        } else if (p[0] == 2) {
            int64_t a = le64s(p + 1), b = le64s(p + 9), c, r;
            size_t body = le32(p + 17);
            const unsigned char *end = p + 21;
            const int64_t big = (int64_t)1 << 31;
            /* A round count is a size: |a|, |b| < 2^31 (n < 2^31). */
            c = a <= -big || a >= big || b <= -big || b >= big ? -1 : a + b * n;
            if (c < 0) {
                out->bad = 2;
                return p;
            }
            for (r = 0; r < c && !out->bad; r++) {
                end = run_ops(p + 21, body, n, r, out);
            }
            if (c == 0) {
                size_t j;
                for (j = 0; j < body; j++) {
                    end += op_size(end);
                }
            }
            p = end;
            i += body;
        } else if (p[0] == 4) {
            double v = calc_at(p, n, k, &out->bad);
            uint64_t bits;
            if (out->bad) {
                return p;
            }
            memcpy(&bits, &v, sizeof bits);
            put_le(out, bits, 8);
            p += op_size(p);
        } else {
            size_t a = le32(p + 1), b = le32(p + 5 + a);
            const unsigned char *f = p + 9 + a + b;
            char number[32];
            int64_t v = affine_at(f, n, k, &out->bad);
            int len = snprintf(number, sizeof number, "%lld", (long long)v);
            put_le(out, (uint64_t)(a + b + (size_t)len), 4);
            put(out, p + 5, a);
            put(out, number, (size_t)len);
            put(out, p + 9 + a, b);
            p += op_size(p);
        }
    }
    return p;
}

/* Reads resources/mofmu_struct.bin when the FMU has one: NULL and *st NULL
 * when it has none, the reason when it cannot be used. `n_reals` is the
 * number of Reals at the exported size (the description's value references
 * are below it); in versions 2 and 3 every segment's elements must lie below it
 * and no two segments may share one. */
static const char *load_structural(struct Fmi3Structural **out, const char *location,
                                   size_t n_reals, char *error, size_t error_size)
{
    char *path = system_file_path(location, error, error_size);
    char *slash;
    unsigned char *bytes;
    size_t size = 0, i, at, record, image_size = 0;
    uint32_t version;
    uint64_t sum = 0;
    struct Fmi3Structural *st;
    FILE *probe;
    *out = NULL;
    if (path == NULL) {
        return error;
    }
    /* The exported image's size, which bounds the template's output. */
    probe = fopen(path, "rb");
    if (probe != NULL) {
        long end = fseek(probe, 0, SEEK_END) == 0 ? ftell(probe) : -1;
        image_size = end > 0 ? (size_t)end : 0;
        fclose(probe);
    }
    slash = strrchr(path, '/');
    memcpy(slash + 1, "mofmu_struct.bin", sizeof "mofmu_struct.bin");
    probe = fopen(path, "rb");
    if (probe == NULL) {
        free(path);
        return NULL; /* no structural parameter */
    }
    fclose(probe);
    bytes = read_whole_file(path, &size, error, error_size);
    free(path);
    if (bytes == NULL) {
        return error;
    }
    for (i = 0; size >= 8 && i < 8; i++) {
        sum |= (uint64_t)bytes[size - 8 + i] << (8 * i);
    }
    version = size < 12 ? 0 : le32(bytes + 8);
    /* Version 2 adds a stride to each segment; version 3 also op 4. */
    record = version >= 2 ? 48 : 40;
    if (size < 60 || memcmp(bytes, "MOFMUSTR", 8) != 0 || version < 1 || version > 3 ||
        sum != fnv1a(bytes, size - 8)) {
        free(bytes);
        return "resources/mofmu_struct.bin is damaged or of another version";
    }
    st = (struct Fmi3Structural *)allocate(1, sizeof *st);
    if (st == NULL) {
        free(bytes);
        return "out of memory";
    }
    st->file = bytes;
    st->integer = le32(bytes + 12);
    at = 16 + le32(bytes + 16) + 4;
    st->name = (char *)allocate(le32(bytes + 16) + 1, 1);
    if (st->name == NULL || at + 28 > size) {
        free_structural(st);
        return "resources/mofmu_struct.bin is damaged";
    }
    memcpy(st->name, bytes + 20, le32(bytes + 16));
    st->n0 = le64s(bytes + at);
    st->n_min = le64s(bytes + at + 8);
    st->n_max = le64s(bytes + at + 16);
    st->n = st->pending = st->n0;
    st->image_size0 = image_size;
    st->n_segments = le32(bytes + at + 24);
    at += 28;
    if (st->n_segments > (size - at) / record) {
        free_structural(st);
        return "resources/mofmu_struct.bin is damaged";
    }
    st->segments = (Fmi3Segment *)allocate(st->n_segments, sizeof *st->segments);
    for (i = 0; st->segments != NULL && i < st->n_segments; i++, at += record) {
        st->segments[i].vr0 = le32(bytes + at);
        st->segments[i].len0 = le32(bytes + at + 4);
        st->segments[i].start_a = le64s(bytes + at + 8);
        st->segments[i].start_b = le64s(bytes + at + 16);
        st->segments[i].len_a = le64s(bytes + at + 24);
        st->segments[i].len_b = le64s(bytes + at + 32);
        st->segments[i].stride = version >= 2 ? le64s(bytes + at + 40) : 1;
    }
    if (st->segments == NULL || at + 4 > size - 8) {
        free_structural(st);
        return "resources/mofmu_struct.bin is damaged";
    }
    if (version >= 2) {
        /* Each description value reference in at most one segment. */
        st->n_seg_at = n_reals;
        st->seg_at = (uint32_t *)allocate(n_reals, sizeof *st->seg_at);
        if (st->seg_at == NULL) {
            free_structural(st);
            return "out of memory";
        }
        memset(st->seg_at, 0xff, n_reals * sizeof *st->seg_at);
        for (i = 0; i < st->n_segments; i++) {
            const Fmi3Segment *g = &st->segments[i];
            uint64_t k;
            if (g->stride < 1 || g->stride > (int64_t)UINT32_MAX || g->vr0 >= n_reals ||
                (g->len0 > 0 && (uint64_t)(g->len0 - 1) * (uint64_t)g->stride >=
                                    (uint64_t)n_reals - g->vr0)) {
                free_structural(st);
                return "resources/mofmu_struct.bin is damaged (a segment outside the model)";
            }
            for (k = 0; k < g->len0; k++) {
                size_t vr = (size_t)(g->vr0 + k * (uint64_t)g->stride);
                if (st->seg_at[vr] != UINT32_MAX) {
                    free_structural(st);
                    return "resources/mofmu_struct.bin is damaged (two segments overlap)";
                }
                st->seg_at[vr] = (uint32_t)i;
            }
        }
    }
    st->n_ops = le32(bytes + at);
    st->ops = bytes + at + 4;
    st->ops_size = size - 8 - (at + 4);
    /* Every op must lie inside the file (sizes are then trusted). */
    {
        const unsigned char *p = st->ops, *end = st->ops + st->ops_size;
        for (i = 0; i < st->n_ops; i++) {
            size_t left = (size_t)(end - p);
            if (left < 9 || p[0] > (version == 3 ? 4 : 3) ||
                (p[0] == 4 && (le32(p + 1) > MOFMU_MAX_CALC ||
                               left < 5 + 25 * (size_t)le32(p + 1) || !calc_ok(p))) ||
                (p[0] == 0 && le32(p + 1) > left - 5) || (p[0] == 1 && left < 26) ||
                (p[0] == 2 && (left < 21 || le32(p + 17) > st->n_ops - i - 1)) ||
                (p[0] == 3 && (le32(p + 1) > left - 9 || le32(p + 5 + le32(p + 1)) > left - 9 - le32(p + 1) ||
                               left - 9 - le32(p + 1) - le32(p + 5 + le32(p + 1)) < 24))) {
                free_structural(st);
                return "resources/mofmu_struct.bin is damaged";
            }
            p += op_size(p);
        }
    }
    *out = st;
    return NULL;
}

/* The segment holding description value reference vr, or NULL. */
static const Fmi3Segment *segment_of(const struct Fmi3Structural *st, uint32_t vr)
{
    size_t lo = 0, hi = st->n_segments;
    if (st->seg_at != NULL) {
        return vr < st->n_seg_at && st->seg_at[vr] != UINT32_MAX ? &st->segments[st->seg_at[vr]]
                                                                  : NULL;
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (st->segments[mid].vr0 <= vr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == 0 || vr >= st->segments[lo - 1].vr0 + st->segments[lo - 1].len0) {
        return NULL;
    }
    return &st->segments[lo - 1];
}

/* The description's Float64 value references `vrs` as R indices at the
 * current size: `vrs` itself at the exported size, else a copy in *owned
 * (NULL with the reason logged when one names no variable at this size). */
static const fmi3ValueReference *map_vrs(Instance *inst, const char *function,
                                         const fmi3ValueReference vrs[], size_t nvr,
                                         fmi3ValueReference **owned)
{
    const struct Fmi3Structural *st = fmi3_data(inst)->st;
    size_t i;
    *owned = NULL;
    if (st == NULL || st->n == st->n0 || vrs == NULL || nvr == 0) {
        return vrs;
    }
    *owned = (fmi3ValueReference *)allocate(nvr, sizeof **owned);
    if (*owned == NULL) {
        log_error(inst, "%s: out of memory", function);
        return NULL;
    }
    for (i = 0; i < nvr; i++) {
        const Fmi3Segment *g = vrs[i] == MOFMU_FMI3_INDICATORS ? NULL : segment_of(st, vrs[i]);
        int64_t k = g == NULL ? 0 : (int64_t)(vrs[i] - g->vr0) / g->stride;
        if (g == NULL) {
            (*owned)[i] = vrs[i]; /* the indicators, or refused later */
        } else if (g->len_b != 0 && k != 0) {
            log_error(inst,
                      "%s: value reference %u is an element of an array, not a variable; "
                      "FMI 3 names an array by its own value reference",
                      function, (unsigned)vrs[i]);
            free(*owned);
            *owned = NULL;
            return NULL;
        } else {
            (*owned)[i] =
                (fmi3ValueReference)(g->start_a + g->start_b * st->n + k * g->stride);
        }
    }
    return *owned;
}

/* fmi3SetInt32/Int64 of the structural parameter: refused outside
 * configuration mode, checked against the sizes the template admits and
 * kept for fmi3ExitConfigurationMode. Returns nonzero when it handled the
 * call (the status in *status); calls that name other variables in
 * configuration mode are refused too (only structural parameters may be
 * set there). */
static int structural_set(Instance *inst, const char *function, const fmi3ValueReference vrs[],
                          size_t nvr, const int64_t *in64, const int32_t *in32,
                          fmi3Status *status)
{
    struct Fmi3Structural *st = fmi3_data(inst)->st;
    size_t i, hit = nvr;
    if (st == NULL || vrs == NULL || (in64 == NULL && in32 == NULL)) {
        return 0;
    }
    for (i = 0; i < nvr; i++) {
        if (vrs[i] == MOFMU_FMI3_INTEGER_BASE + st->integer) {
            hit = i;
        } else if (st->configuring) {
            *status = (fmi3Status)log_error(
                inst, "%s: value reference %u is not a structural parameter; only %s may be set "
                      "in configuration mode",
                function, (unsigned)vrs[i], st->name);
            return 1;
        }
    }
    if (hit == nvr) {
        return 0;
    }
    if (!st->configuring) {
        *status = (fmi3Status)log_error(
            inst, "%s: %s is a structural parameter: set it in configuration mode "
                  "(fmi3EnterConfigurationMode), not in this state",
            function, st->name);
        return 1;
    }
    {
        int64_t v = in64 != NULL ? in64[hit] : (int64_t)in32[hit];
        if (v < st->n_min || v > st->n_max) {
            *status = (fmi3Status)log_error(
                inst, "%s: %s = %lld is outside the sizes this FMU admits (%lld to %lld)",
                function, st->name, (long long)v, (long long)st->n_min, (long long)st->n_max);
            return 1;
        }
        st->pending = v;
    }
    *status = fmi3OK;
    return 1;
}

MOFMU_EXPORT fmi3Status fmi3EnterConfigurationMode(fmi3Instance instance)
{
    Instance *inst = as_instance(instance);
    struct Fmi3Structural *st;
    if (inst == NULL) {
        return fmi3Error;
    }
    st = fmi3_data(inst)->st;
    if (st == NULL) {
        return refuse3(instance, "fmi3EnterConfigurationMode",
                       "this FMU has no structural parameters");
    }
    if (inst->state != STATE_INSTANTIATED || st->configuring) {
        return refuse3(instance, "fmi3EnterConfigurationMode",
                       "only an instantiated FMU (before initialization) enters configuration "
                       "mode; reconfiguration mode is not offered");
    }
    st->configuring = 1;
    st->pending = st->n;
    return fmi3OK;
}

/* Lays the instance out for tables `sys` (the old ones freed); nonzero
 * when out of memory (the instance keeps its old tables). */
static int relayout(Instance *inst, mofmu_system *sys)
{
    Instance fresh = *inst;
    fresh.work = NULL;
    fresh.input_derivative = NULL;
    memset(&fresh.lr, 0, sizeof fresh.lr);
    if (allocate_arrays(&fresh, sys) != 0) {
        return 1;
    }
    free_arrays(inst);
    mofmu_system_free(inst->sys);
    *inst = fresh;
    return 0;
}

/* The tables at size n from the template, checked as mofmu_system.bin is. */
static mofmu_system *system_at(const struct Fmi3Structural *st, int64_t n, const char *guid,
                               char *error, size_t error_size)
{
    Fmi3Bytes b;
    Reader r;
    mofmu_system *sys;
    const char *problem = NULL;
    memset(&b, 0, sizeof b);
    /* The image grows at most linearly in n from the exported one (a
     * generous bound: 64 times the exported image per multiple of n0). */
    {
        uint64_t times = st->n0 > 0 && n > st->n0 ? (uint64_t)((n + st->n0 - 1) / st->n0) : 1;
        uint64_t limit = 64 * (uint64_t)st->image_size0 * times + ((uint64_t)1 << 20);
        b.limit = limit > (uint64_t)(SIZE_MAX / 2) ? SIZE_MAX / 2 : (size_t)limit;
        b.ops_left = 2 * (uint64_t)b.limit;
    }
    run_ops(st->ops, st->n_ops, n, 0, &b);
    if (b.bad) {
        snprintf(error, error_size, "%s",
                 b.bad == 2   ? "the size is beyond what the tables admit"
                 : b.bad == 3 ? "resources/mofmu_struct.bin is damaged (a computed Real)"
                              : "out of memory");
        free(b.p);
        return NULL;
    }
    sys = (mofmu_system *)allocate(1, sizeof *sys);
    memset(&r, 0, sizeof r);
    r.p = b.p;
    r.left = b.used;
    r.pool_size = b.used + b.used / 4 + 1;
    if (sys != NULL) {
        sys->names = r.pool = (char *)allocate(r.pool_size, 1);
    }
    problem = sys == NULL || r.pool == NULL ? "out of memory" : parse_system(sys, &r);
    if (problem == NULL && strcmp(sys->guid, guid) != 0) {
        problem = "the template is of another FMU";
    }
    free(b.p);
    if (problem != NULL) {
        snprintf(error, error_size, "%s", problem);
        mofmu_system_free(sys);
        return NULL;
    }
    return sys;
}

MOFMU_EXPORT fmi3Status fmi3ExitConfigurationMode(fmi3Instance instance)
{
    Instance *inst = as_instance(instance);
    Fmi3Logger *d;
    struct Fmi3Structural *st;
    mofmu_system *sys;
    char error[300];
    size_t i;
    if (inst == NULL) {
        return fmi3Error;
    }
    d = (Fmi3Logger *)inst->environment;
    st = d->st;
    if (st == NULL || !st->configuring) {
        return refuse3(instance, "fmi3ExitConfigurationMode",
                       "the FMU is not in configuration mode");
    }
    st->configuring = 0;
    if (st->pending == st->n) {
        return fmi3OK;
    }
    sys = system_at(st, st->pending, inst->sys->guid, error, sizeof error);
    if (sys == NULL) {
        return (fmi3Status)log_error(inst,
                                     "fmi3ExitConfigurationMode: cannot lay out the tables for "
                                     "%s = %lld: %s",
                                     st->name, (long long)st->pending, error);
    }
    if (relayout(inst, sys) != 0) {
        mofmu_system_free(sys);
        return (fmi3Status)log_error(inst, "fmi3ExitConfigurationMode: out of memory for %s = %lld",
                                     st->name, (long long)st->pending);
    }
    st->n = st->pending;
    /* The arrays, in R at the new size: one that follows the size is one
     * whole segment (checked at instantiation); a fixed one moves with the
     * segment it lies in. */
    for (i = 0; i < d->n_arrays; i++) {
        const Fmi3Segment *g = segment_of(st, d->array_vr0[i]);
        if (g != NULL) {
            int64_t k = (int64_t)(d->array_vr0[i] - g->vr0) / g->stride;
            d->array_vr[i] = (uint32_t)(g->start_a + g->start_b * st->n + k * g->stride);
            if (g->len_b != 0) {
                d->array_len[i] = (uint32_t)(g->len_a + g->len_b * st->n);
            }
        }
    }
    if (mark_arrays(d, inst->sys->n_reals) != 0) {
        return (fmi3Status)log_error(inst,
                                     "fmi3ExitConfigurationMode: the arrays do not fit the tables "
                                     "for %s = %lld (or memory ran out)",
                                     st->name, (long long)st->n);
    }
    return fmi3OK;
}

/* NULL, or why the arrays and the structural segments disagree: an array
 * whose segment follows the size must be that whole segment, at its
 * stride (the exporter declares no other). */
static const char *arrays_fit_segments(const Fmi3Logger *d)
{
    size_t i;
    if (d->st == NULL) {
        return NULL;
    }
    for (i = 0; i < d->n_arrays; i++) {
        const Fmi3Segment *g = segment_of(d->st, d->array_vr0[i]);
        if (g != NULL && (g->len_b != 0 || d->array_stride[i] != 1) &&
            (g->vr0 != d->array_vr0[i] || g->len0 != d->array_len[i] ||
             g->stride != (int64_t)d->array_stride[i])) {
            return "resources/mofmu_fmi3.bin and resources/mofmu_struct.bin disagree on an "
                   "array";
        }
    }
    return NULL;
}

static fmi3Instance instantiate3(fmi3String instanceName, fmi2Type type,
                                 fmi3String instantiationToken, fmi3String resourcePath,
                                 fmi3Boolean loggingOn, fmi3InstanceEnvironment environment,
                                 fmi3LogMessageCallback logMessage)
{
    Fmi3Logger *logger = (Fmi3Logger *)allocate(1, sizeof *logger);
    fmi2Component c;
    if (logger == NULL) {
        return NULL;
    }
    logger->log = logMessage;
    logger->environment = environment;
    {
        const fmi2CallbackFunctions functions = {fmi3_logger, NULL, NULL, NULL, logger};
        c = fmi2Instantiate(instanceName, type, instantiationToken, resourcePath, &functions,
                            fmi2False, loggingOn ? fmi2True : fmi2False);
    }
    if (c == NULL) {
        free(logger);
        return NULL;
    }
    {
        char error[600];
        const char *problem = load_arrays(logger, resourcePath, as_instance(c)->sys->n_reals,
                                          error, sizeof error);
        if (problem == NULL) {
            problem = load_structural(&logger->st, resourcePath, as_instance(c)->sys->n_reals,
                                      error, sizeof error);
        }
        if (problem == NULL) {
            problem = arrays_fit_segments(logger);
        }
        if (problem != NULL) {
            log_error(as_instance(c), "fmi3Instantiate: cannot load the arrays of the model: %s",
                      problem);
            fmi2FreeInstance(c);
            free(logger->array_vr);
            free(logger->array_len);
            free(logger->array_vr0);
            free(logger->array_stride);
            free(logger->inner);
            free_structural(logger->st);
            free(logger);
            return NULL;
        }
    }
    return c;
}

MOFMU_EXPORT const char *fmi3GetVersion(void)
{
    return MOFMU_FMI3_VERSION;
}

MOFMU_EXPORT fmi3Status fmi3SetDebugLogging(fmi3Instance instance, fmi3Boolean loggingOn,
                                            size_t nCategories, const fmi3String categories[])
{
    return (fmi3Status)fmi2SetDebugLogging(instance, loggingOn ? fmi2True : fmi2False,
                                           nCategories, categories);
}

MOFMU_EXPORT fmi3Instance fmi3InstantiateModelExchange(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,
    fmi3Boolean visible, fmi3Boolean loggingOn, fmi3InstanceEnvironment instanceEnvironment,
    fmi3LogMessageCallback logMessage)
{
    (void)visible;
    return instantiate3(instanceName, fmi2ModelExchange, instantiationToken, resourcePath,
                        loggingOn, instanceEnvironment, logMessage);
}

MOFMU_EXPORT fmi3Instance fmi3InstantiateCoSimulation(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,
    fmi3Boolean visible, fmi3Boolean loggingOn, fmi3Boolean eventModeUsed,
    fmi3Boolean earlyReturnAllowed, const fmi3ValueReference requiredIntermediateVariables[],
    size_t nRequiredIntermediateVariables, fmi3InstanceEnvironment instanceEnvironment,
    fmi3LogMessageCallback logMessage, fmi3IntermediateUpdateCallback intermediateUpdate)
{
    (void)visible;
    (void)earlyReturnAllowed;
    (void)requiredIntermediateVariables;
    (void)nRequiredIntermediateVariables;
    (void)intermediateUpdate;
    if (eventModeUsed) {
        /* hasEventMode is false: the importer must not ask for it. */
        if (logMessage != NULL) {
            logMessage(instanceEnvironment, fmi3Error, "logStatusError",
                       "fmi3InstantiateCoSimulation: this FMU has no event mode in "
                       "Co-Simulation (hasEventMode=\"false\"); eventModeUsed must be false");
        }
        return NULL;
    }
    return instantiate3(instanceName, fmi2CoSimulation, instantiationToken, resourcePath,
                        loggingOn, instanceEnvironment, logMessage);
}

MOFMU_EXPORT fmi3Instance fmi3InstantiateScheduledExecution(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,
    fmi3Boolean visible, fmi3Boolean loggingOn, fmi3InstanceEnvironment instanceEnvironment,
    fmi3LogMessageCallback logMessage, fmi3ClockUpdateCallback clockUpdate,
    fmi3LockPreemptionCallback lockPreemption, fmi3UnlockPreemptionCallback unlockPreemption)
{
    (void)instanceName;
    (void)instantiationToken;
    (void)resourcePath;
    (void)visible;
    (void)loggingOn;
    (void)clockUpdate;
    (void)lockPreemption;
    (void)unlockPreemption;
    if (logMessage != NULL) {
        logMessage(instanceEnvironment, fmi3Error, "logStatusError",
                   "fmi3InstantiateScheduledExecution: this FMU offers Model Exchange and "
                   "Co-Simulation, not Scheduled Execution");
    }
    return NULL;
}

MOFMU_EXPORT void fmi3FreeInstance(fmi3Instance instance)
{
    Instance *inst = as_instance(instance);
    void *logger;
    if (inst == NULL) {
        return;
    }
    logger = inst->environment;
    fmi2FreeInstance(instance);
    free(((Fmi3Logger *)logger)->array_vr);
    free(((Fmi3Logger *)logger)->array_vr0);
    free_structural(((Fmi3Logger *)logger)->st);
    free(((Fmi3Logger *)logger)->array_len);
    free(((Fmi3Logger *)logger)->array_stride);
    free(((Fmi3Logger *)logger)->inner);
    free(logger);
}

MOFMU_EXPORT fmi3Status fmi3EnterInitializationMode(fmi3Instance instance,
                                                    fmi3Boolean toleranceDefined,
                                                    fmi3Float64 tolerance, fmi3Float64 startTime,
                                                    fmi3Boolean stopTimeDefined,
                                                    fmi3Float64 stopTime)
{
    fmi2Status s;
    if (configuring(as_instance(instance))) {
        return refuse3(instance, "fmi3EnterInitializationMode",
                       "the FMU is in configuration mode: call fmi3ExitConfigurationMode first");
    }
    s = fmi2SetupExperiment(instance, toleranceDefined ? fmi2True : fmi2False,
                                       tolerance, startTime,
                                       stopTimeDefined ? fmi2True : fmi2False, stopTime);
    if (s > fmi2Warning) {
        return (fmi3Status)s;
    }
    return (fmi3Status)fmi2EnterInitializationMode(instance);
}

MOFMU_EXPORT fmi3Status fmi3ExitInitializationMode(fmi3Instance instance)
{
    return (fmi3Status)fmi2ExitInitializationMode(instance);
}

MOFMU_EXPORT fmi3Status fmi3EnterEventMode(fmi3Instance instance)
{
    return (fmi3Status)fmi2EnterEventMode(instance);
}

MOFMU_EXPORT fmi3Status fmi3Terminate(fmi3Instance instance)
{
    return (fmi3Status)fmi2Terminate(instance);
}

MOFMU_EXPORT fmi3Status fmi3Reset(fmi3Instance instance)
{
    return (fmi3Status)fmi2Reset(instance);
}

/* ------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------ */

/* A refusal of an FMI 3 function itself (its own checks, before any fmi2
 * function runs). */
static fmi3Status refuse3(fmi3Instance instance, const char *function, const char *why)
{
    Instance *inst = as_instance(instance);
    if (inst == NULL) {
        return fmi3Error;
    }
    return (fmi3Status)log_error(inst, "%s: %s", function, why);
}

/* Scalars only: one value per value reference. */
static int not_scalar(fmi3Instance instance, const char *function, size_t nvr, size_t nValues)
{
    Instance *inst = as_instance(instance);
    if (inst == NULL) {
        return 1;
    }
    if (nValues != nvr) {
        log_error(inst, "%s: %zu value references need %zu values, not %zu", function, nvr,
                  nvr, nValues);
        return 1;
    }
    return 0;
}

/* The runtime's value references of `vrs`, each less `base` and below
 * `base + span`, into `out` (NULL when one is outside: then the reason is
 * logged). */
static fmi2ValueReference *table_references(Instance *inst, const char *function,
                                            const fmi3ValueReference vrs[], size_t nvr,
                                            uint32_t base, uint32_t span, const char *type)
{
    fmi2ValueReference *out = (fmi2ValueReference *)allocate(nvr, sizeof *out);
    size_t i;
    if (out == NULL) {
        log_error(inst, "%s: out of memory", function);
        return NULL;
    }
    for (i = 0; i < nvr; i++) {
        if (vrs[i] < base || vrs[i] - base >= span) {
            log_error(inst, "%s: value reference %u is not a variable of type %s", function,
                      (unsigned)vrs[i], type);
            free(out);
            return NULL;
        }
        out[i] = vrs[i] - base;
    }
    return out;
}

static int bad_call(Instance *inst, const char *function, const void *vrs, size_t nvr,
                    const void *values)
{
    if (inst == NULL) {
        return 1;
    }
    return null_array(inst, function, "valueReferences", vrs, nvr) ||
           null_array(inst, function, "values", values, nvr);
}

/* Float64: R by index (an array by its first element's, standing for all
 * its elements), and the event indicators as one array. */
static fmi3Status get_float64(fmi3Instance instance, const fmi3ValueReference vrs[],
                                       size_t nvr, fmi3Float64 values[], size_t nValues)
{
    Instance *inst = as_instance(instance);
    size_t i, at = 0, n_reals = 0, wanted;
    int indicators = 0;
    fmi2ValueReference *refs;
    double *reals;
    double *found = NULL;
    fmi2Status s = fmi2OK;
    if (inst == NULL || null_array(inst, "fmi3GetFloat64", "valueReferences", vrs, nvr) ||
        null_array(inst, "fmi3GetFloat64", "values", values, nValues)) {
        return fmi3Error;
    }
    wanted = count_values(inst, "fmi3GetFloat64", vrs, nvr, 1);
    if (wanted == (size_t)-1) {
        return fmi3Error;
    }
    if (wanted != nValues) {
        return (fmi3Status)log_error(inst,
                                     "fmi3GetFloat64: the value references stand for %zu "
                                     "values, not %zu",
                                     wanted, nValues);
    }
    if (wanted == nvr) {
        /* Scalars only (one indicator is the indicators' array of one). */
        for (i = 0; i < nvr; i++) {
            indicators |= vrs[i] == MOFMU_FMI3_INDICATORS && inst->sys->n_event_indicators > 0;
        }
        if (!indicators) {
            return (fmi3Status)fmi2GetReal(instance, vrs, nvr, values);
        }
    }
    /* The Reals in one fmi2GetReal (one evaluation), then each value put in
     * its place. */
    for (i = 0; i < nvr; i++) {
        if (vrs[i] == MOFMU_FMI3_INDICATORS && inst->sys->n_event_indicators > 0) {
            indicators = 1;
        } else {
            n_reals += vr_length(fmi3_data(inst), vrs[i]);
        }
    }
    refs = (fmi2ValueReference *)allocate(n_reals, sizeof *refs);
    reals = (double *)allocate(n_reals, sizeof *reals);
    if (refs == NULL || reals == NULL) {
        free(refs);
        free(reals);
        return (fmi3Status)log_error(inst, "fmi3GetFloat64: out of memory");
    }
    for (i = 0; i < nvr; i++) {
        if (!(vrs[i] == MOFMU_FMI3_INDICATORS && inst->sys->n_event_indicators > 0)) {
            size_t k, len = vr_length(fmi3_data(inst), vrs[i]);
            fmi2ValueReference stride = vr_stride(fmi3_data(inst), vrs[i]);
            for (k = 0; k < len; k++) {
                refs[at++] = vrs[i] + (fmi2ValueReference)k * stride;
            }
        }
    }
    s = fmi2GetReal(instance, refs, n_reals, reals);
    if (s <= fmi2Warning && indicators) {
        found = (double *)allocate(inst->sys->n_event_indicators, sizeof *found);
        s = found == NULL ? log_error(inst, "fmi3GetFloat64: out of memory")
                          : fmi2GetEventIndicators(instance, found,
                                                   inst->sys->n_event_indicators);
    }
    if (s <= fmi2Warning) {
        size_t from = 0;
        at = 0;
        for (i = 0; i < nvr; i++) {
            if (vrs[i] == MOFMU_FMI3_INDICATORS && inst->sys->n_event_indicators > 0) {
                memcpy(values + at, found, inst->sys->n_event_indicators * sizeof *found);
                at += inst->sys->n_event_indicators;
            } else {
                size_t len = vr_length(fmi3_data(inst), vrs[i]);
                memcpy(values + at, reals + from, len * sizeof *reals);
                at += len;
                from += len;
            }
        }
    }
    free(found);
    free(refs);
    free(reals);
    return (fmi3Status)s;
}

static fmi3Status set_float64(fmi3Instance instance, const fmi3ValueReference vrs[],
                                       size_t nvr, const fmi3Float64 values[], size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi2ValueReference *refs;
    fmi2Status s;
    size_t n;
    if (inst == NULL || null_array(inst, "fmi3SetFloat64", "valueReferences", vrs, nvr) ||
        null_array(inst, "fmi3SetFloat64", "values", values, nValues)) {
        return fmi3Error;
    }
    n = count_values(inst, "fmi3SetFloat64", vrs, nvr, 0);
    if (n == (size_t)-1) {
        return fmi3Error;
    }
    if (n != nValues) {
        return (fmi3Status)log_error(inst,
                                     "fmi3SetFloat64: the value references stand for %zu "
                                     "values, not %zu",
                                     n, nValues);
    }
    if (n == nvr) {
        return (fmi3Status)fmi2SetReal(instance, vrs, nvr, values);
    }
    refs = expand_reals(inst, "fmi3SetFloat64", vrs, nvr, n);
    if (refs == NULL) {
        return fmi3Error;
    }
    s = fmi2SetReal(instance, refs, n, values);
    free(refs);
    return (fmi3Status)s;
}

/* Integers (Int32, and Int64 for enumerations) through fmi2GetInteger. */
static fmi3Status get_integers(fmi3Instance instance, const char *function,
                               const fmi3ValueReference vrs[], size_t nvr, int64_t *out64,
                               int32_t *out32, size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi2ValueReference *refs;
    fmi2Integer *buffer;
    fmi2Status s;
    size_t i;
    if (bad_call(inst, function, vrs, nvr, out64 != NULL ? (void *)out64 : (void *)out32) ||
        not_scalar(instance, function, nvr, nValues)) {
        return fmi3Error;
    }
    refs = table_references(inst, function, vrs, nvr, MOFMU_FMI3_INTEGER_BASE,
                            (uint32_t)inst->sys->n_integers, "Int32 or Enumeration");
    if (refs == NULL) {
        return fmi3Error;
    }
    buffer = (fmi2Integer *)allocate(nvr, sizeof *buffer);
    if (buffer == NULL) {
        free(refs);
        return (fmi3Status)log_error(inst, "%s: out of memory", function);
    }
    s = fmi2GetInteger(instance, refs, nvr, buffer);
    if (s <= fmi2Warning) {
        for (i = 0; i < nvr; i++) {
            if (out64 != NULL) {
                out64[i] = buffer[i];
            } else {
                out32[i] = buffer[i];
            }
        }
    }
    free(buffer);
    free(refs);
    return (fmi3Status)s;
}

static fmi3Status set_integers(fmi3Instance instance, const char *function,
                               const fmi3ValueReference vrs[], size_t nvr, const int64_t *in64,
                               const int32_t *in32, size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi2ValueReference *refs;
    fmi2Integer *buffer;
    fmi2Status s;
    size_t i;
    if (bad_call(inst, function, vrs, nvr, in64 != NULL ? (const void *)in64 : (const void *)in32) ||
        not_scalar(instance, function, nvr, nValues)) {
        return fmi3Error;
    }
    {
        fmi3Status handled;
        if (structural_set(inst, function, vrs, nvr, in64, in32, &handled)) {
            return handled;
        }
    }
    refs = table_references(inst, function, vrs, nvr, MOFMU_FMI3_INTEGER_BASE,
                            (uint32_t)inst->sys->n_integers, "Int32 or Enumeration");
    if (refs == NULL) {
        return fmi3Error;
    }
    buffer = (fmi2Integer *)allocate(nvr, sizeof *buffer);
    if (buffer == NULL) {
        free(refs);
        return (fmi3Status)log_error(inst, "%s: out of memory", function);
    }
    for (i = 0; i < nvr; i++) {
        int64_t v = in64 != NULL ? in64[i] : in32[i];
        if (v < INT32_MIN || v > INT32_MAX) {
            free(buffer);
            free(refs);
            return (fmi3Status)log_error(inst, "%s: value %lld is out of range", function,
                                         (long long)v);
        }
        buffer[i] = (fmi2Integer)v;
    }
    s = fmi2SetInteger(instance, refs, nvr, buffer);
    free(buffer);
    free(refs);
    return (fmi3Status)s;
}

MOFMU_EXPORT fmi3Status fmi3GetInt32(fmi3Instance instance, const fmi3ValueReference vrs[],
                                     size_t nvr, fmi3Int32 values[], size_t nValues)
{
    return get_integers(instance, "fmi3GetInt32", vrs, nvr, NULL, values, nValues);
}

MOFMU_EXPORT fmi3Status fmi3GetInt64(fmi3Instance instance, const fmi3ValueReference vrs[],
                                     size_t nvr, fmi3Int64 values[], size_t nValues)
{
    return get_integers(instance, "fmi3GetInt64", vrs, nvr, values, NULL, nValues);
}

MOFMU_EXPORT fmi3Status fmi3SetInt32(fmi3Instance instance, const fmi3ValueReference vrs[],
                                     size_t nvr, const fmi3Int32 values[], size_t nValues)
{
    return set_integers(instance, "fmi3SetInt32", vrs, nvr, NULL, values, nValues);
}

MOFMU_EXPORT fmi3Status fmi3SetInt64(fmi3Instance instance, const fmi3ValueReference vrs[],
                                     size_t nvr, const fmi3Int64 values[], size_t nValues)
{
    return set_integers(instance, "fmi3SetInt64", vrs, nvr, values, NULL, nValues);
}

MOFMU_EXPORT fmi3Status fmi3GetBoolean(fmi3Instance instance, const fmi3ValueReference vrs[],
                                       size_t nvr, fmi3Boolean values[], size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi2ValueReference *refs;
    fmi2Boolean *buffer;
    fmi2Status s;
    size_t i;
    if (bad_call(inst, "fmi3GetBoolean", vrs, nvr, values) ||
        not_scalar(instance, "fmi3GetBoolean", nvr, nValues)) {
        return fmi3Error;
    }
    refs = table_references(inst, "fmi3GetBoolean", vrs, nvr, MOFMU_FMI3_BOOLEAN_BASE,
                            (uint32_t)inst->sys->n_booleans, "Boolean");
    if (refs == NULL) {
        return fmi3Error;
    }
    buffer = (fmi2Boolean *)allocate(nvr, sizeof *buffer);
    if (buffer == NULL) {
        free(refs);
        return (fmi3Status)log_error(inst, "fmi3GetBoolean: out of memory");
    }
    s = fmi2GetBoolean(instance, refs, nvr, buffer);
    if (s <= fmi2Warning) {
        for (i = 0; i < nvr; i++) {
            values[i] = buffer[i] != fmi2False;
        }
    }
    free(buffer);
    free(refs);
    return (fmi3Status)s;
}

MOFMU_EXPORT fmi3Status fmi3SetBoolean(fmi3Instance instance, const fmi3ValueReference vrs[],
                                       size_t nvr, const fmi3Boolean values[], size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi2ValueReference *refs;
    fmi2Boolean *buffer;
    fmi2Status s;
    size_t i;
    if (bad_call(inst, "fmi3SetBoolean", vrs, nvr, values) ||
        not_scalar(instance, "fmi3SetBoolean", nvr, nValues)) {
        return fmi3Error;
    }
    refs = table_references(inst, "fmi3SetBoolean", vrs, nvr, MOFMU_FMI3_BOOLEAN_BASE,
                            (uint32_t)inst->sys->n_booleans, "Boolean");
    if (refs == NULL) {
        return fmi3Error;
    }
    buffer = (fmi2Boolean *)allocate(nvr, sizeof *buffer);
    if (buffer == NULL) {
        free(refs);
        return (fmi3Status)log_error(inst, "fmi3SetBoolean: out of memory");
    }
    for (i = 0; i < nvr; i++) {
        buffer[i] = values[i] ? fmi2True : fmi2False;
    }
    s = fmi2SetBoolean(instance, refs, nvr, buffer);
    free(buffer);
    free(refs);
    return (fmi3Status)s;
}

/* The types this FMU has no variables of: any value reference is unknown. */
static fmi3Status no_variables(fmi3Instance instance, const char *function, size_t nvr,
                               const char *type)
{
    Instance *inst = as_instance(instance);
    if (inst == NULL) {
        return fmi3Error;
    }
    if (nvr == 0) {
        return fmi3OK;
    }
    return (fmi3Status)log_error(inst, "%s: this FMU has no variables of type %s", function,
                                 type);
}

#define MOFMU_FMI3_ABSENT(Name, Type, Label)                                                    \
    MOFMU_EXPORT fmi3Status fmi3Get##Name(fmi3Instance instance,                              \
                                          const fmi3ValueReference vrs[], size_t nvr,         \
                                          Type values[], size_t nValues)                      \
    {                                                                                         \
        (void)vrs;                                                                            \
        (void)values;                                                                         \
        (void)nValues;                                                                        \
        return no_variables(instance, "fmi3Get" #Name, nvr, Label);                           \
    }                                                                                         \
    MOFMU_EXPORT fmi3Status fmi3Set##Name(fmi3Instance instance,                              \
                                          const fmi3ValueReference vrs[], size_t nvr,         \
                                          const Type values[], size_t nValues)                \
    {                                                                                         \
        (void)vrs;                                                                            \
        (void)values;                                                                         \
        (void)nValues;                                                                        \
        return no_variables(instance, "fmi3Set" #Name, nvr, Label);                           \
    }

MOFMU_FMI3_ABSENT(Float32, fmi3Float32, "Float32")
MOFMU_FMI3_ABSENT(Int8, fmi3Int8, "Int8")
MOFMU_FMI3_ABSENT(UInt8, fmi3UInt8, "UInt8")
MOFMU_FMI3_ABSENT(Int16, fmi3Int16, "Int16")
MOFMU_FMI3_ABSENT(UInt16, fmi3UInt16, "UInt16")
MOFMU_FMI3_ABSENT(UInt32, fmi3UInt32, "UInt32")
MOFMU_FMI3_ABSENT(UInt64, fmi3UInt64, "UInt64")
MOFMU_FMI3_ABSENT(String, fmi3String, "String")

MOFMU_EXPORT fmi3Status fmi3GetBinary(fmi3Instance instance, const fmi3ValueReference vrs[],
                                      size_t nvr, size_t valueSizes[], fmi3Binary values[],
                                      size_t nValues)
{
    (void)vrs;
    (void)valueSizes;
    (void)values;
    (void)nValues;
    return no_variables(instance, "fmi3GetBinary", nvr, "Binary");
}

MOFMU_EXPORT fmi3Status fmi3SetBinary(fmi3Instance instance, const fmi3ValueReference vrs[],
                                      size_t nvr, const size_t valueSizes[],
                                      const fmi3Binary values[], size_t nValues)
{
    (void)vrs;
    (void)valueSizes;
    (void)values;
    (void)nValues;
    return no_variables(instance, "fmi3SetBinary", nvr, "Binary");
}

MOFMU_EXPORT fmi3Status fmi3GetClock(fmi3Instance instance, const fmi3ValueReference vrs[],
                                     size_t nvr, fmi3Clock values[])
{
    (void)vrs;
    (void)values;
    return no_variables(instance, "fmi3GetClock", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3SetClock(fmi3Instance instance, const fmi3ValueReference vrs[],
                                     size_t nvr, const fmi3Clock values[])
{
    (void)vrs;
    (void)values;
    return no_variables(instance, "fmi3SetClock", nvr, "Clock");
}

/* ------------------------------------------------------------------------
 * What this FMU does not offer
 * ------------------------------------------------------------------------ */

static fmi3Status not_offered(fmi3Instance instance, const char *function, const char *what)
{
    return refuse3(instance, function, what);
}

MOFMU_EXPORT fmi3Status fmi3GetNumberOfVariableDependencies(fmi3Instance instance,
                                                            fmi3ValueReference valueReference,
                                                            size_t *nDependencies)
{
    (void)valueReference;
    (void)nDependencies;
    return not_offered(instance, "fmi3GetNumberOfVariableDependencies",
                       "not offered (providesPerElementDependencies=\"false\"); the "
                       "dependencies are in the model description's ModelStructure");
}

MOFMU_EXPORT fmi3Status fmi3GetVariableDependencies(
    fmi3Instance instance, fmi3ValueReference dependent, size_t elementIndicesOfDependent[],
    fmi3ValueReference independents[], size_t elementIndicesOfIndependents[],
    int dependencyKinds[], size_t nDependencies)
{
    (void)dependent;
    (void)elementIndicesOfDependent;
    (void)independents;
    (void)elementIndicesOfIndependents;
    (void)dependencyKinds;
    (void)nDependencies;
    return not_offered(instance, "fmi3GetVariableDependencies",
                       "not offered (providesPerElementDependencies=\"false\"); the "
                       "dependencies are in the model description's ModelStructure");
}

MOFMU_EXPORT fmi3Status fmi3GetIntervalDecimal(fmi3Instance instance,
                                               const fmi3ValueReference vrs[], size_t nvr,
                                               fmi3Float64 intervals[],
                                               fmi3IntervalQualifier qualifiers[])
{
    (void)vrs;
    (void)intervals;
    (void)qualifiers;
    return no_variables(instance, "fmi3GetIntervalDecimal", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3GetIntervalFraction(fmi3Instance instance,
                                                const fmi3ValueReference vrs[], size_t nvr,
                                                fmi3UInt64 counters[],
                                                fmi3UInt64 resolutions[],
                                                fmi3IntervalQualifier qualifiers[])
{
    (void)vrs;
    (void)counters;
    (void)resolutions;
    (void)qualifiers;
    return no_variables(instance, "fmi3GetIntervalFraction", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3GetShiftDecimal(fmi3Instance instance,
                                            const fmi3ValueReference vrs[], size_t nvr,
                                            fmi3Float64 shifts[])
{
    (void)vrs;
    (void)shifts;
    return no_variables(instance, "fmi3GetShiftDecimal", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3GetShiftFraction(fmi3Instance instance,
                                             const fmi3ValueReference vrs[], size_t nvr,
                                             fmi3UInt64 counters[], fmi3UInt64 resolutions[])
{
    (void)vrs;
    (void)counters;
    (void)resolutions;
    return no_variables(instance, "fmi3GetShiftFraction", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3SetIntervalDecimal(fmi3Instance instance,
                                               const fmi3ValueReference vrs[], size_t nvr,
                                               const fmi3Float64 intervals[])
{
    (void)vrs;
    (void)intervals;
    return no_variables(instance, "fmi3SetIntervalDecimal", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3SetIntervalFraction(fmi3Instance instance,
                                                const fmi3ValueReference vrs[], size_t nvr,
                                                const fmi3UInt64 counters[],
                                                const fmi3UInt64 resolutions[])
{
    (void)vrs;
    (void)counters;
    (void)resolutions;
    return no_variables(instance, "fmi3SetIntervalFraction", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3SetShiftDecimal(fmi3Instance instance,
                                            const fmi3ValueReference vrs[], size_t nvr,
                                            const fmi3Float64 shifts[])
{
    (void)vrs;
    (void)shifts;
    return no_variables(instance, "fmi3SetShiftDecimal", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3SetShiftFraction(fmi3Instance instance,
                                             const fmi3ValueReference vrs[], size_t nvr,
                                             const fmi3UInt64 counters[],
                                             const fmi3UInt64 resolutions[])
{
    (void)vrs;
    (void)counters;
    (void)resolutions;
    return no_variables(instance, "fmi3SetShiftFraction", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3ActivateModelPartition(fmi3Instance instance,
                                                   fmi3ValueReference clockReference,
                                                   fmi3Float64 activationTime)
{
    (void)clockReference;
    (void)activationTime;
    return not_offered(instance, "fmi3ActivateModelPartition",
                       "this FMU offers no Scheduled Execution");
}

MOFMU_EXPORT fmi3Status fmi3EvaluateDiscreteStates(fmi3Instance instance)
{
    return not_offered(instance, "fmi3EvaluateDiscreteStates",
                       "not offered (providesEvaluateDiscreteStates=\"false\")");
}

MOFMU_EXPORT fmi3Status fmi3EnterStepMode(fmi3Instance instance)
{
    return not_offered(instance, "fmi3EnterStepMode",
                       "this FMU has no event mode in Co-Simulation (hasEventMode=\"false\")");
}

/* ------------------------------------------------------------------------
 * FMU state, derivatives, events, Model Exchange, Co-Simulation
 * ------------------------------------------------------------------------ */

MOFMU_EXPORT fmi3Status fmi3GetFMUState(fmi3Instance instance, fmi3FMUState *FMUState)
{
    return (fmi3Status)fmi2GetFMUstate(instance, FMUState);
}

MOFMU_EXPORT fmi3Status fmi3SetFMUState(fmi3Instance instance, fmi3FMUState FMUState)
{
    return (fmi3Status)fmi2SetFMUstate(instance, FMUState);
}

MOFMU_EXPORT fmi3Status fmi3FreeFMUState(fmi3Instance instance, fmi3FMUState *FMUState)
{
    return (fmi3Status)fmi2FreeFMUstate(instance, FMUState);
}

MOFMU_EXPORT fmi3Status fmi3SerializedFMUStateSize(fmi3Instance instance,
                                                   fmi3FMUState FMUState, size_t *size)
{
    return (fmi3Status)fmi2SerializedFMUstateSize(instance, FMUState, size);
}

MOFMU_EXPORT fmi3Status fmi3SerializeFMUState(fmi3Instance instance, fmi3FMUState FMUState,
                                              fmi3Byte serializedState[], size_t size)
{
    return (fmi3Status)fmi2SerializeFMUstate(instance, FMUState, (fmi2Byte *)serializedState,
                                             size);
}

MOFMU_EXPORT fmi3Status fmi3DeserializeFMUState(fmi3Instance instance,
                                                const fmi3Byte serializedState[], size_t size,
                                                fmi3FMUState *FMUState)
{
    return (fmi3Status)fmi2DeSerializeFMUstate(instance, (const fmi2Byte *)serializedState,
                                               size, FMUState);
}

static fmi3Status directional3(
    fmi3Instance instance, const fmi3ValueReference unknowns[], size_t nUnknowns,
    const fmi3ValueReference knowns[], size_t nKnowns, const fmi3Float64 seed[], size_t nSeed,
    fmi3Float64 sensitivity[], size_t nSensitivity)
{
    Instance *inst = as_instance(instance);
    fmi2ValueReference *u, *k;
    fmi2Status s;
    size_t nu, nk;
    if (inst == NULL ||
        null_array(inst, "fmi3GetDirectionalDerivative", "unknowns", unknowns, nUnknowns) ||
        null_array(inst, "fmi3GetDirectionalDerivative", "knowns", knowns, nKnowns)) {
        return fmi3Error;
    }
    /* Arrays stand for their elements: nSeed and nSensitivity count them. */
    nu = count_values(inst, "fmi3GetDirectionalDerivative", unknowns, nUnknowns, 0);
    nk = nu == (size_t)-1 ? nu
                          : count_values(inst, "fmi3GetDirectionalDerivative", knowns, nKnowns, 0);
    if (nu == (size_t)-1 || nk == (size_t)-1) {
        return fmi3Error;
    }
    if (nSeed != nk || nSensitivity != nu) {
        return (fmi3Status)log_error(
            inst,
            "fmi3GetDirectionalDerivative: the knowns stand for %zu values and the unknowns "
            "for %zu; nSeed is %zu and nSensitivity %zu",
            nk, nu, nSeed, nSensitivity);
    }
    if (nu == nUnknowns && nk == nKnowns) {
        return (fmi3Status)fmi2GetDirectionalDerivative(instance, unknowns, nUnknowns, knowns,
                                                        nKnowns, seed, sensitivity);
    }
    u = expand_reals(inst, "fmi3GetDirectionalDerivative", unknowns, nUnknowns, nu);
    k = u == NULL ? NULL : expand_reals(inst, "fmi3GetDirectionalDerivative", knowns, nKnowns, nk);
    if (k == NULL) {
        free(u);
        return fmi3Error;
    }
    s = fmi2GetDirectionalDerivative(instance, u, nu, k, nk, seed, sensitivity);
    free(u);
    free(k);
    return (fmi3Status)s;
}

/* fmi3GetAdjointDerivative: sensitivity = seed^T J, J the partial
 * derivatives of the unknowns with respect to the knowns (arrays counted
 * by their elements: nSeed counts the unknowns' values, nSensitivity the
 * knowns'). The generated code has tangent passes only (mofmu_directional,
 * forward mode), so the adjoint is built from J's columns, each known's
 * sensitivity the dot product of its column with the seed:
 *  - when every known is a state and every unknown a state derivative
 *    (the state array against the derivative array, or parts of them, in
 *    any order, repeats allowed) and the state Jacobian's pattern has no
 *    row marked "every state", the columns are those of d(der x)/dx and
 *    come compressed: the states are coloured as for the Co-Simulation
 *    solver's Jacobian (cs_colour_columns: no two of a colour share a
 *    pattern row), one tangent pass seeds all knowns of a colour at once,
 *    and each derivative's tangent belongs to the one known of that colour
 *    in its row. The cost is one pass per colour that holds a known (3
 *    for a chain or a rod, whatever n) plus O(entries of the pattern);
 *  - otherwise (an input as a known, an output or a local as an unknown,
 *    a full row, duplicated state tables) one tangent pass per known
 *    value, seeded with that known alone, gives its column: nSensitivity
 *    passes.
 * Both are exact: the same derivatives as the directional derivative,
 * summed in the unknowns' order. Over Acc4's chain's whole state array
 * (benches/fmi3_adjoint.py, CPU time) the coloured passes take 0.12 ms at
 * n = 10^3, 1.3 ms at 10^4 and 25 ms at 10^5, where a pass per known took
 * 19 ms, 2.2 s and 319 s (docs/fmu.md, "FMI 3.0"). */
static fmi3Status adjoint_checks(Instance *inst, const fmi2ValueReference u[], size_t nu,
                                 const fmi2ValueReference k[], size_t nk,
                                 const fmi3Float64 seed[])
{
    static const char *const function = "fmi3GetAdjointDerivative";
    size_t i;
    if (not_allowed(inst, function, MASK_GetDirectionalDerivative) ||
        bad_vrs(inst, function, "Float64", u, nu, inst->sys->n_reals) ||
        bad_vrs(inst, function, "Float64", k, nk, inst->sys->n_reals)) {
        return fmi3Error;
    }
    for (i = 0; i < nk; i++) {
        unsigned char kind = inst->sys->real_kind[k[i]];
        if (kind != MOFMU_KIND_STATE && kind != MOFMU_KIND_STATE_CALCULATED &&
            kind != MOFMU_KIND_INPUT) {
            return (fmi3Status)log_error(inst, "%s: the known %s is not a state or an input",
                                         function, real_name(inst->sys, k[i]));
        }
    }
    for (i = 0; i < nu; i++) {
        if (!isfinite(seed[i])) {
            return (fmi3Status)log_error(inst, "%s: the seed of %s is not finite", function,
                                         real_name(inst->sys, u[i]));
        }
    }
    return fmi3OK;
}

/* The transposed tangents: known j's column of J by one tangent pass, then
 * its dot product with the seed. */
static fmi3Status adjoint_by_columns(fmi3Instance instance, const fmi2ValueReference u[],
                                     size_t nu, const fmi2ValueReference k[], size_t nk,
                                     const fmi3Float64 seed[], fmi3Float64 sensitivity[])
{
    Instance *inst = as_instance(instance);
    double *column = (double *)allocate(nu, sizeof *column);
    const double one = 1.0;
    fmi2Status s = fmi2OK;
    size_t i, j;
    if (column == NULL) {
        return (fmi3Status)log_error(inst, "fmi3GetAdjointDerivative: out of memory");
    }
    for (j = 0; j < nk && s <= fmi2Warning; j++) {
        double sum = 0.0;
        s = fmi2GetDirectionalDerivative(instance, u, nu, k + j, 1, &one, column);
        for (i = 0; i < nu; i++) {
            sum += seed[i] * column[i];
        }
        sensitivity[j] = sum;
    }
    free(column);
    return (fmi3Status)s;
}

/* where[table[i]] = i + 1 for the n entries of a state table; nonzero when
 * an R index stands in it twice. */
static int mark_positions(uint32_t *where, const uint32_t *table, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (where[table[i]] != 0) {
            return 1;
        }
        where[table[i]] = (uint32_t)i + 1;
    }
    return 0;
}

/* at[i]: the table position of refs[i] by mark_positions' `where`; nonzero
 * when one is not in the table. */
static int find_positions(const uint32_t *where, const fmi2ValueReference refs[], size_t count,
                          size_t *at)
{
    size_t i;
    for (i = 0; i < count; i++) {
        if (where[refs[i]] == 0) {
            return 1;
        }
        at[i] = where[refs[i]] - 1;
    }
    return 0;
}

/* Where each known lies among the states and each unknown among the state
 * derivatives (`column[j]`, `row[i]`), `known[col]` set for the knowns'
 * states; `where` is n_reals zeros. Zero when every known is a state and
 * every unknown a state derivative (each table naming an R index once). */
static int adjoint_positions(const mofmu_system *sys, const fmi2ValueReference u[], size_t nu,
                             const fmi2ValueReference k[], size_t nk, uint32_t *where,
                             size_t *row, size_t *column, unsigned char *known)
{
    size_t n = sys->n_states, i;
    if (mark_positions(where, sys->state_vr, n) || find_positions(where, k, nk, column)) {
        return 1;
    }
    for (i = 0; i < nk; i++) {
        known[column[i]] = 1;
    }
    for (i = 0; i < n; i++) {
        where[sys->state_vr[i]] = 0;
    }
    return mark_positions(where, sys->derivative_vr, n) || find_positions(where, u, nu, row);
}

/* The knowns' sensitivities by one tangent pass per colour (see above), or
 * -1 when the request is not states against state derivatives or the
 * pattern has a full row (the caller takes the columns one by one). A
 * column's sum runs over the unknowns in their order, as
 * adjoint_by_columns sums, leaving out those outside its pattern (whose
 * entries are zero). */
static int adjoint_by_colours(fmi3Instance instance, const fmi2ValueReference u[], size_t nu,
                              const fmi2ValueReference k[], size_t nk, const fmi3Float64 seed[],
                              fmi3Float64 sensitivity[], fmi3Status *status)
{
    Instance *inst = as_instance(instance);
    const mofmu_system *sys = inst->sys;
    size_t n = sys->n_states, i, j, p, q, c;
    uint32_t *where, *seeded, *colour;
    size_t *row, *column;
    double *ones, *tangent, *sum;
    unsigned char *known;
    CsMatrix m;
    fmi2Status s = fmi2OK;
    int usable;
    if (nu == 0 || nk == 0 || n == 0 || cs_has_full_row(sys)) {
        return -1;
    }
    where = (uint32_t *)allocate(sys->n_reals, sizeof *where);
    row = (size_t *)allocate(nu, sizeof *row);
    column = (size_t *)allocate(nk, sizeof *column);
    known = (unsigned char *)allocate(n, 1);
    usable = where != NULL && row != NULL && column != NULL && known != NULL &&
             adjoint_positions(sys, u, nu, k, nk, where, row, column, known) == 0;
    free(where);
    if (!usable) {
        free(row);
        free(column);
        free(known);
        return -1;
    }
    memset(&m, 0, sizeof m);
    seeded = (uint32_t *)allocate(n, sizeof *seeded);
    colour = (uint32_t *)allocate(n, sizeof *colour);
    ones = (double *)allocate(n, sizeof *ones);
    tangent = (double *)allocate(nu, sizeof *tangent);
    sum = (double *)allocate(n, sizeof *sum);
    if (seeded == NULL || colour == NULL || ones == NULL || tangent == NULL || sum == NULL ||
        cs_pattern_columns(&m, sys) != 0 || cs_colour_columns(&m, sys) != 0) {
        s = log_error(inst, "fmi3GetAdjointDerivative: out of memory");
    }
    for (c = 0; s == fmi2OK && c < m.n_colours; c++) {
        for (q = m.colour_start[c]; q < m.colour_start[c + 1]; q++) {
            colour[m.colour_col[q]] = (uint32_t)c;
        }
    }
    for (i = 0; s == fmi2OK && i < n; i++) {
        ones[i] = 1.0;
    }
    for (c = 0; s <= fmi2Warning && c < m.n_colours; c++) {
        size_t n_seeded = 0;
        for (q = m.colour_start[c]; q < m.colour_start[c + 1]; q++) {
            if (known[m.colour_col[q]]) {
                seeded[n_seeded++] = sys->state_vr[m.colour_col[q]];
            }
        }
        if (n_seeded == 0) {
            continue;
        }
        s = fmi2GetDirectionalDerivative(instance, u, nu, seeded, n_seeded, ones, tangent);
        /* No two columns of a colour share a row: an unknown's tangent is
         * the entry of the one known of this colour in its row, if any. */
        for (i = 0; i < nu && s <= fmi2Warning; i++) {
            for (p = sys->jac_row_start[row[i]]; p < sys->jac_row_start[row[i] + 1]; p++) {
                size_t col = sys->jac_col[p];
                if (colour[col] == c && known[col]) {
                    sum[col] += seed[i] * tangent[i];
                    break;
                }
            }
        }
    }
    for (j = 0; j < nk && s <= fmi2Warning; j++) {
        sensitivity[j] = sum[column[j]];
    }
    cs_matrix_free(&m);
    free(row);
    free(column);
    free(known);
    free(seeded);
    free(colour);
    free(ones);
    free(tangent);
    free(sum);
    *status = (fmi3Status)s;
    return 0;
}

static fmi3Status adjoint3(fmi3Instance instance, const fmi3ValueReference unknowns[],
                           size_t nUnknowns, const fmi3ValueReference knowns[], size_t nKnowns,
                           const fmi3Float64 seed[], size_t nSeed, fmi3Float64 sensitivity[],
                           size_t nSensitivity)
{
    static const char *const function = "fmi3GetAdjointDerivative";
    Instance *inst = as_instance(instance);
    fmi2ValueReference *u, *k;
    fmi3Status s;
    size_t nu, nk;
    if (inst == NULL || null_array(inst, function, "unknowns", unknowns, nUnknowns) ||
        null_array(inst, function, "knowns", knowns, nKnowns) ||
        null_array(inst, function, "seed", seed, nSeed) ||
        null_array(inst, function, "sensitivity", sensitivity, nSensitivity)) {
        return fmi3Error;
    }
    nu = count_values(inst, function, unknowns, nUnknowns, 0);
    nk = nu == (size_t)-1 ? nu : count_values(inst, function, knowns, nKnowns, 0);
    if (nu == (size_t)-1 || nk == (size_t)-1) {
        return fmi3Error;
    }
    /* The seed weighs the unknowns, the sensitivity is one per known. */
    if (nSeed != nu || nSensitivity != nk) {
        return (fmi3Status)log_error(inst,
                                     "%s: the unknowns stand for %zu values and the knowns "
                                     "for %zu; nSeed is %zu and nSensitivity %zu",
                                     function, nu, nk, nSeed, nSensitivity);
    }
    u = expand_reals(inst, function, unknowns, nUnknowns, nu);
    k = u == NULL ? NULL : expand_reals(inst, function, knowns, nKnowns, nk);
    if (k == NULL) {
        free(u);
        return fmi3Error;
    }
    s = adjoint_checks(inst, u, nu, k, nk, seed);
    if (s == fmi3OK && adjoint_by_colours(instance, u, nu, k, nk, seed, sensitivity, &s) != 0) {
        s = adjoint_by_columns(instance, u, nu, k, nk, seed, sensitivity);
    }
    free(u);
    free(k);
    return s;
}

MOFMU_EXPORT fmi3Status fmi3UpdateDiscreteStates(
    fmi3Instance instance, fmi3Boolean *discreteStatesNeedUpdate,
    fmi3Boolean *terminateSimulation, fmi3Boolean *nominalsOfContinuousStatesChanged,
    fmi3Boolean *valuesOfContinuousStatesChanged, fmi3Boolean *nextEventTimeDefined,
    fmi3Float64 *nextEventTime)
{
    fmi2EventInfo info;
    fmi2Status s;
    Instance *inst = as_instance(instance);
    if (inst == NULL) {
        return fmi3Error;
    }
    if (discreteStatesNeedUpdate == NULL || terminateSimulation == NULL ||
        nominalsOfContinuousStatesChanged == NULL || valuesOfContinuousStatesChanged == NULL ||
        nextEventTimeDefined == NULL || nextEventTime == NULL) {
        return refuse3(instance, "fmi3UpdateDiscreteStates", "an output argument is NULL");
    }
    memset(&info, 0, sizeof info);
    s = fmi2NewDiscreteStates(instance, &info);
    if (s <= fmi2Warning) {
        *discreteStatesNeedUpdate = info.newDiscreteStatesNeeded != fmi2False;
        *terminateSimulation = info.terminateSimulation != fmi2False;
        *nominalsOfContinuousStatesChanged = info.nominalsOfContinuousStatesChanged != fmi2False;
        *valuesOfContinuousStatesChanged = info.valuesOfContinuousStatesChanged != fmi2False;
        *nextEventTimeDefined = info.nextEventTimeDefined != fmi2False;
        *nextEventTime = info.nextEventTime;
    }
    return (fmi3Status)s;
}

MOFMU_EXPORT fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance instance)
{
    return (fmi3Status)fmi2EnterContinuousTimeMode(instance);
}

MOFMU_EXPORT fmi3Status fmi3CompletedIntegratorStep(fmi3Instance instance,
                                                    fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                                    fmi3Boolean *enterEventMode,
                                                    fmi3Boolean *terminateSimulation)
{
    fmi2Boolean event = fmi2False, terminate = fmi2False;
    fmi2Status s;
    if (enterEventMode == NULL || terminateSimulation == NULL) {
        return refuse3(instance, "fmi3CompletedIntegratorStep", "an output argument is NULL");
    }
    s = fmi2CompletedIntegratorStep(instance,
                                    noSetFMUStatePriorToCurrentPoint ? fmi2True : fmi2False,
                                    &event, &terminate);
    if (s <= fmi2Warning) {
        *enterEventMode = event != fmi2False;
        *terminateSimulation = terminate != fmi2False;
    }
    return (fmi3Status)s;
}

MOFMU_EXPORT fmi3Status fmi3SetTime(fmi3Instance instance, fmi3Float64 time)
{
    return (fmi3Status)fmi2SetTime(instance, time);
}

MOFMU_EXPORT fmi3Status fmi3SetContinuousStates(fmi3Instance instance,
                                                const fmi3Float64 continuousStates[],
                                                size_t nContinuousStates)
{
    return (fmi3Status)fmi2SetContinuousStates(instance, continuousStates, nContinuousStates);
}

MOFMU_EXPORT fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance instance,
                                                          fmi3Float64 derivatives[],
                                                          size_t nContinuousStates)
{
    return (fmi3Status)fmi2GetDerivatives(instance, derivatives, nContinuousStates);
}

MOFMU_EXPORT fmi3Status fmi3GetEventIndicators(fmi3Instance instance,
                                               fmi3Float64 eventIndicators[],
                                               size_t nEventIndicators)
{
    return (fmi3Status)fmi2GetEventIndicators(instance, eventIndicators, nEventIndicators);
}

MOFMU_EXPORT fmi3Status fmi3GetContinuousStates(fmi3Instance instance,
                                                fmi3Float64 continuousStates[],
                                                size_t nContinuousStates)
{
    return (fmi3Status)fmi2GetContinuousStates(instance, continuousStates, nContinuousStates);
}

MOFMU_EXPORT fmi3Status fmi3GetNominalsOfContinuousStates(fmi3Instance instance,
                                                          fmi3Float64 nominals[],
                                                          size_t nContinuousStates)
{
    return (fmi3Status)fmi2GetNominalsOfContinuousStates(instance, nominals,
                                                         nContinuousStates);
}

MOFMU_EXPORT fmi3Status fmi3GetNumberOfEventIndicators(fmi3Instance instance,
                                                       size_t *nEventIndicators)
{
    Instance *inst = as_instance(instance);
    if (inst == NULL) {
        return fmi3Error;
    }
    if (nEventIndicators == NULL) {
        return refuse3(instance, "fmi3GetNumberOfEventIndicators", "the output is NULL");
    }
    *nEventIndicators = inst->sys->n_event_indicators;
    return fmi3OK;
}

MOFMU_EXPORT fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance instance,
                                                        size_t *nContinuousStates)
{
    Instance *inst = as_instance(instance);
    if (inst == NULL) {
        return fmi3Error;
    }
    if (nContinuousStates == NULL) {
        return refuse3(instance, "fmi3GetNumberOfContinuousStates", "the output is NULL");
    }
    *nContinuousStates = inst->sys->n_states;
    return fmi3OK;
}

static fmi3Status output_derivatives3(fmi3Instance instance,
                                                 const fmi3ValueReference vrs[], size_t nvr,
                                                 const fmi3Int32 orders[], fmi3Float64 values[],
                                                 size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi2Integer *order;
    fmi2Status s;
    size_t i;
    fmi2ValueReference *refs;
    size_t n, at = 0;
    if (bad_call(inst, "fmi3GetOutputDerivatives", vrs, nvr, values) ||
        null_array(inst, "fmi3GetOutputDerivatives", "orders", orders, nvr)) {
        return fmi3Error;
    }
    /* An array output stands for its elements, each of the array's order. */
    n = count_values(inst, "fmi3GetOutputDerivatives", vrs, nvr, 0);
    if (n == (size_t)-1) {
        return fmi3Error;
    }
    if (n != nValues) {
        return (fmi3Status)log_error(inst,
                                     "fmi3GetOutputDerivatives: the value references stand "
                                     "for %zu values, not %zu",
                                     n, nValues);
    }
    refs = expand_reals(inst, "fmi3GetOutputDerivatives", vrs, nvr, n);
    order = refs == NULL ? NULL : (fmi2Integer *)allocate(n, sizeof *order);
    if (order == NULL) {
        free(refs);
        return (fmi3Status)log_error(inst, "fmi3GetOutputDerivatives: out of memory");
    }
    for (i = 0; i < nvr; i++) {
        size_t k, len = vr_length(fmi3_data(inst), vrs[i]);
        for (k = 0; k < len; k++) {
            order[at++] = orders[i];
        }
    }
    s = fmi2GetRealOutputDerivatives(instance, refs, n, order, values);
    free(order);
    free(refs);
    return (fmi3Status)s;
}

MOFMU_EXPORT fmi3Status fmi3DoStep(fmi3Instance instance, fmi3Float64 currentCommunicationPoint,
                                   fmi3Float64 communicationStepSize,
                                   fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                   fmi3Boolean *eventHandlingNeeded,
                                   fmi3Boolean *terminateSimulation, fmi3Boolean *earlyReturn,
                                   fmi3Float64 *lastSuccessfulTime)
{
    fmi2Status s;
    fmi2Real reached = currentCommunicationPoint;
    if (eventHandlingNeeded == NULL || terminateSimulation == NULL || earlyReturn == NULL ||
        lastSuccessfulTime == NULL) {
        return refuse3(instance, "fmi3DoStep", "an output argument is NULL");
    }
    s = fmi2DoStep(instance, currentCommunicationPoint, communicationStepSize,
                   noSetFMUStatePriorToCurrentPoint ? fmi2True : fmi2False);
    if (s == fmi2OK || s == fmi2Warning || s == fmi2Discard) {
        (void)fmi2GetRealStatus(instance, fmi2LastSuccessfulTime, &reached);
    }
    *eventHandlingNeeded = false;
    *terminateSimulation = false;
    *earlyReturn = false;
    *lastSuccessfulTime = reached;
    return (fmi3Status)s;
}

/* ------------------------------------------------------------------------
 * Float64 by the description's value references: mapped to R at the
 * current size of a structural parameter (identity at the exported size).
 * ------------------------------------------------------------------------ */

/* Whether the instance is in configuration mode (then only structural
 * parameters may be set). */
static int configuring(const Instance *inst)
{
    return inst != NULL && fmi3_data(inst)->st != NULL && fmi3_data(inst)->st->configuring;
}

MOFMU_EXPORT fmi3Status fmi3GetFloat64(fmi3Instance instance, const fmi3ValueReference vrs[],
                                       size_t nvr, fmi3Float64 values[], size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi3ValueReference *owned = NULL;
    const fmi3ValueReference *m;
    fmi3Status s;
    if (inst == NULL) {
        return fmi3Error;
    }
    m = map_vrs(inst, "fmi3GetFloat64", vrs, nvr, &owned);
    if (m == NULL && vrs != NULL && nvr > 0) {
        return fmi3Error;
    }
    s = get_float64(instance, m, nvr, values, nValues);
    free(owned);
    return s;
}

MOFMU_EXPORT fmi3Status fmi3SetFloat64(fmi3Instance instance, const fmi3ValueReference vrs[],
                                       size_t nvr, const fmi3Float64 values[], size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi3ValueReference *owned = NULL;
    const fmi3ValueReference *m;
    fmi3Status s;
    if (inst == NULL) {
        return fmi3Error;
    }
    if (configuring(inst)) {
        return refuse3(instance, "fmi3SetFloat64",
                       "only structural parameters may be set in configuration mode");
    }
    m = map_vrs(inst, "fmi3SetFloat64", vrs, nvr, &owned);
    if (m == NULL && vrs != NULL && nvr > 0) {
        return fmi3Error;
    }
    s = set_float64(instance, m, nvr, values, nValues);
    free(owned);
    return s;
}

/* The body of a directional or adjoint derivative, on R indices. */
typedef fmi3Status (*DerivativeBody)(fmi3Instance, const fmi3ValueReference[], size_t,
                                     const fmi3ValueReference[], size_t, const fmi3Float64[],
                                     size_t, fmi3Float64[], size_t);

/* Runs `body` with the description's value references of the unknowns and
 * the knowns mapped to the current size (structural parameters). */
static fmi3Status derivative_by_description(fmi3Instance instance, const char *function,
                                            DerivativeBody body,
                                            const fmi3ValueReference unknowns[],
                                            size_t nUnknowns, const fmi3ValueReference knowns[],
                                            size_t nKnowns, const fmi3Float64 seed[],
                                            size_t nSeed, fmi3Float64 sensitivity[],
                                            size_t nSensitivity)
{
    Instance *inst = as_instance(instance);
    fmi3ValueReference *ou = NULL, *ok = NULL;
    const fmi3ValueReference *mu, *mk;
    fmi3Status s;
    if (inst == NULL) {
        return fmi3Error;
    }
    mu = map_vrs(inst, function, unknowns, nUnknowns, &ou);
    mk = mu == NULL && unknowns != NULL && nUnknowns > 0
             ? NULL
             : map_vrs(inst, function, knowns, nKnowns, &ok);
    if ((mu == NULL && unknowns != NULL && nUnknowns > 0) ||
        (mk == NULL && knowns != NULL && nKnowns > 0)) {
        free(ou);
        return fmi3Error;
    }
    s = body(instance, mu, nUnknowns, mk, nKnowns, seed, nSeed, sensitivity, nSensitivity);
    free(ou);
    free(ok);
    return s;
}

MOFMU_EXPORT fmi3Status fmi3GetDirectionalDerivative(
    fmi3Instance instance, const fmi3ValueReference unknowns[], size_t nUnknowns,
    const fmi3ValueReference knowns[], size_t nKnowns, const fmi3Float64 seed[], size_t nSeed,
    fmi3Float64 sensitivity[], size_t nSensitivity)
{
    return derivative_by_description(instance, "fmi3GetDirectionalDerivative", directional3,
                                     unknowns, nUnknowns, knowns, nKnowns, seed, nSeed,
                                     sensitivity, nSensitivity);
}

MOFMU_EXPORT fmi3Status fmi3GetAdjointDerivative(
    fmi3Instance instance, const fmi3ValueReference unknowns[], size_t nUnknowns,
    const fmi3ValueReference knowns[], size_t nKnowns, const fmi3Float64 seed[], size_t nSeed,
    fmi3Float64 sensitivity[], size_t nSensitivity)
{
    return derivative_by_description(instance, "fmi3GetAdjointDerivative", adjoint3, unknowns,
                                     nUnknowns, knowns, nKnowns, seed, nSeed, sensitivity,
                                     nSensitivity);
}

MOFMU_EXPORT fmi3Status fmi3GetOutputDerivatives(fmi3Instance instance,
                                                 const fmi3ValueReference vrs[], size_t nvr,
                                                 const fmi3Int32 orders[], fmi3Float64 values[],
                                                 size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi3ValueReference *owned = NULL;
    const fmi3ValueReference *m;
    fmi3Status s;
    if (inst == NULL) {
        return fmi3Error;
    }
    m = map_vrs(inst, "fmi3GetOutputDerivatives", vrs, nvr, &owned);
    if (m == NULL && vrs != NULL && nvr > 0) {
        return fmi3Error;
    }
    s = output_derivatives3(instance, m, nvr, orders, values, nValues);
    free(owned);
    return s;
}
