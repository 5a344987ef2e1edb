/* The FMI 2.0 Co-Simulation interface of every mofmu FMU.
 *
 * This file is part of the runtime's translation unit: mofmu_runtime.c
 * includes it at its end, so it shares the Instance and the static helpers
 * (masks, logging, evaluation). It holds definitions, so nothing else may
 * include it.
 *
 * fmi2DoStep integrates the model's own equations from the FMU's time to
 * the next communication point with an embedded RODAS3 Rosenbrock method:
 * four stages, order 3 with an order-2 error estimate, L-stable and stiffly
 * accurate, so stiff components (the dialectic joints of the planar library)
 * are damped, not followed. The Jacobian d(der x)/dx is exact and sparse:
 * its pattern comes with the system resource (the exporter's element-wise
 * dependency analysis), its columns are coloured once per instance so that
 * one pass of the generated tangent code fills every column of a colour (a
 * rod: 3 passes, whatever its length), and the iteration matrix
 * W = I - h*gamma*J is factorised as a band matrix after a reverse
 * Cuthill-McKee ordering computed once per instance, or dense when the band
 * would be no smaller (see "The iteration matrix" below and docs/fmu.md).
 * The time derivative of the right-hand side comes from one forward
 * difference.
 *
 * Inside a communication step, time events (relations on time) end an
 * integrator step exactly at the event; state events (event indicators that
 * change sign) are located by regula falsi (Illinois) on the re-integrated
 * last step, to about 1e-12 relative in time. At each event the relations
 * are re-evaluated until they settle, as fmi2NewDiscreteStates does for
 * Model Exchange. Inputs are held constant over a step, or extrapolated
 * linearly when fmi2SetRealInputDerivatives gave their first derivative.
 *
 * Error policy as in the rest of the runtime: a misuse returns fmi2Error and
 * changes nothing. When the integrator cannot reach the communication point
 * (the step size falls below rounding of time, non-finite derivatives that
 * a smaller step does not cure), fmi2DoStep stops at the last point it
 * reached, returns fmi2Discard with a message and the instance enters
 * stepFailed; fmi2GetRealStatus(fmi2LastSuccessfulTime) tells where it
 * stopped. A failure of the model itself at an accepted point is fmi2Error
 * and the error state. */

#ifndef MOFMU_RUNTIME_UNIT
#error "mofmu_cosim.h is part of mofmu_runtime.c and is included only there"
#endif
#ifndef MOFMU_COSIM_H
#define MOFMU_COSIM_H

#include <float.h>

/* Relative tolerance when fmi2SetupExperiment defined none. */
#define CS_DEFAULT_TOLERANCE 1e-6
/* The diagonal coefficient gamma of RODAS3. */
#define CS_GAMMA 0.5
/* Steps below this fraction of |t| make no progress in floating point. */
#define CS_MIN_RELATIVE_STEP 1e-14
/* A communication point of the master matches the FMU's time when they
 * differ by at most this fraction of max(|time|, step size): masters add
 * step sizes in floating point and must not be refused for rounding. */
#define CS_TIME_MATCH 1e-9
/* Distances in time below this fraction of |t| are crossed without
 * integrating: nothing moves over them at any tolerance. */
#define CS_SLIVER 1e-13
/* Bounds on the work of one fmi2DoStep. */
#define CS_MAX_STEPS 1000000L
#define CS_MAX_EVENT_ITERATIONS 10000

/* Storage of the iteration matrix W = I - h*gamma*J. */
enum { CS_DENSE = 0, CS_BAND = 1 };

/* The Jacobian by columns in the pattern's positions, its column colouring,
 * and W's storage and factors. Built once per instance from the pattern. */
typedef struct {
    int storage;
    /* Column j's rows are row[col_start[j] .. col_start[j + 1]) (ascending),
     * and J's values val[...] in the same positions. */
    size_t *col_start;
    uint32_t *row;
    double *val;
    /* Columns of colour c: colour_col[colour_start[c] .. colour_start[c + 1]). */
    size_t n_colours;
    size_t *colour_start;
    uint32_t *colour_col;
    /* CS_DENSE: W and its LU in a[n*n] (row major), pivot[n]. */
    double *a;
    size_t *pivot;
    /* CS_BAND: state perm[k] is at position k of the reordered matrix and
     * position[i] is where state i went; W's band in LAPACK's general band
     * layout (kl sub-, ku super-diagonals and kl more rows for the fill of
     * row interchanges): element (r, c) at band[c*ldab + kl + ku + r - c].
     * `permuted` holds a right-hand side in the reordered numbering. */
    uint32_t *perm, *position;
    size_t kl, ku, ldab;
    double *band, *permuted;
} CsMatrix;

/* Work arrays of a Co-Simulation instance (none for Model Exchange). */
struct CoSimWork {
    size_t n;        /* states */
    size_t n_inputs; /* Real inputs */
    uint32_t *input_vr;
    double *input_start; /* inputs at the start of the communication step */
    double input_time;   /* the time input_start belongs to */
    double *x, *x_last, *f0, *f3, *f4, *work, *dfdt, *stage;
    double *k1, *k2, *k3, *k4;
    /* The iteration matrix (see "The iteration matrix"). */
    CsMatrix m;
    double last_t; /* start of the last accepted integrator step */
    double *z_lo, *z_hi, *x_hi;
    double rtol;
    char reason[600]; /* why the integrator gave up */
};

typedef struct CoSimWork CoSimWork;

/* ------------------------------------------------------------------------
 * The iteration matrix
 *
 * J = d(der x)/dx is known by its pattern (mofmu_system.jac_*): row i lists
 * the states der(x_i) may depend on, a superset of its nonzeros. Once per
 * instance:
 *  - the columns are coloured greedily so that no two columns of a colour
 *    share a row; seeding every column of a colour in one tangent pass then
 *    gives each of their entries unmixed (Curtis, Powell and Reid). A
 *    tridiagonal J needs 3 colours whatever n; a row that depends on every
 *    state makes every column a colour of its own.
 *  - the states are renumbered by reverse Cuthill-McKee over the symmetric
 *    pattern of J + J^T, which brings a chain's or a mesh's entries next to
 *    the diagonal. When the band of kl sub- and ku super-diagonals, plus kl
 *    rows for the fill of row interchanges (2 kl + ku + 1 rows), is
 *    narrower than n, W is stored as that band and factorised by LU with
 *    partial pivoting in O(n kl (kl + ku)); otherwise W is dense (small or
 *    strongly coupled systems).
 * Every step fills J from n_colours tangent passes at its start, and every
 * trial step size assembles and factorises W: a Rosenbrock method keeps its
 * order only with the exact Jacobian at the step's start and the current
 * h*gamma in W, so neither is carried over to another step.
 * ------------------------------------------------------------------------ */

static void cs_matrix_free(CsMatrix *m)
{
    free(m->col_start);
    free(m->row);
    free(m->val);
    free(m->colour_start);
    free(m->colour_col);
    free(m->a);
    free(m->pivot);
    free(m->perm);
    free(m->position);
    free(m->band);
    free(m->permuted);
    memset(m, 0, sizeof *m);
}

static int cs_has_full_row(const mofmu_system *sys)
{
    size_t i;
    for (i = 0; i < sys->n_states; i++) {
        if (sys->jac_full_row[i]) {
            return 1;
        }
    }
    return 0;
}

/* The pattern by columns, with full rows spelled out. Nonzero when out of
 * memory. */
static int cs_pattern_columns(CsMatrix *m, const mofmu_system *sys)
{
    size_t n = sys->n_states, i, j, p, nnz = sys->jac_row_start[n], full = 0;
    size_t *next;
    for (i = 0; i < n; i++) {
        full += sys->jac_full_row[i];
    }
    if (full > 0 && full > ((size_t)-1 / sizeof(double) - nnz) / n) {
        return 1;
    }
    nnz += full * n;
    m->col_start = (size_t *)allocate(n + 1, sizeof(size_t));
    m->row = (uint32_t *)allocate(nnz, sizeof(uint32_t));
    m->val = (double *)allocate(nnz, sizeof(double));
    next = (size_t *)allocate(n + 1, sizeof(size_t));
    if (m->col_start == NULL || m->row == NULL || m->val == NULL || next == NULL) {
        free(next);
        return 1;
    }
    for (i = 0; i < n; i++) {
        if (sys->jac_full_row[i]) {
            for (j = 0; j < n; j++) {
                next[j]++;
            }
        } else {
            for (p = sys->jac_row_start[i]; p < sys->jac_row_start[i + 1]; p++) {
                next[sys->jac_col[p]]++;
            }
        }
    }
    for (j = 0; j < n; j++) {
        m->col_start[j + 1] = m->col_start[j] + next[j];
        next[j] = m->col_start[j];
    }
    /* Rows go in ascending order, as i ascends. */
    for (i = 0; i < n; i++) {
        if (sys->jac_full_row[i]) {
            for (j = 0; j < n; j++) {
                m->row[next[j]++] = (uint32_t)i;
            }
        } else {
            for (p = sys->jac_row_start[i]; p < sys->jac_row_start[i + 1]; p++) {
                m->row[next[sys->jac_col[p]]++] = (uint32_t)i;
            }
        }
    }
    free(next);
    return 0;
}

/* Greedy colouring of the columns in their order: each column takes the
 * least colour no earlier column that shares a row with it has. */
static int cs_colour_columns(CsMatrix *m, const mofmu_system *sys)
{
    size_t n = sys->n_states, j, p, q, c;
    int full = cs_has_full_row(sys);
    size_t *colour = (size_t *)allocate(n, sizeof(size_t));
    size_t *taken = (size_t *)allocate(n, sizeof(size_t)); /* j + 1: taken for column j */
    size_t *next;
    if (colour == NULL || taken == NULL) {
        free(colour);
        free(taken);
        return 1;
    }
    m->n_colours = 0;
    for (j = 0; j < n; j++) {
        if (full) {
            c = j;
        } else {
            for (p = m->col_start[j]; p < m->col_start[j + 1]; p++) {
                size_t r = m->row[p];
                for (q = sys->jac_row_start[r]; q < sys->jac_row_start[r + 1]; q++) {
                    size_t k = sys->jac_col[q];
                    if (k < j) {
                        taken[colour[k]] = j + 1;
                    }
                }
            }
            for (c = 0; taken[c] == j + 1; c++) {
            }
        }
        colour[j] = c;
        if (c + 1 > m->n_colours) {
            m->n_colours = c + 1;
        }
    }
    m->colour_start = (size_t *)allocate(m->n_colours + 1, sizeof(size_t));
    m->colour_col = (uint32_t *)allocate(n, sizeof(uint32_t));
    next = taken;
    if (m->colour_start == NULL || m->colour_col == NULL) {
        free(colour);
        free(taken);
        return 1;
    }
    memset(next, 0, n * sizeof(size_t));
    for (j = 0; j < n; j++) {
        next[colour[j]]++;
    }
    for (c = 0; c < m->n_colours; c++) {
        m->colour_start[c + 1] = m->colour_start[c] + next[c];
        next[c] = m->colour_start[c];
    }
    for (j = 0; j < n; j++) {
        m->colour_col[next[colour[j]]++] = (uint32_t)j;
    }
    free(colour);
    free(taken);
    return 0;
}

/* Breadth-first search from `start` over the nodes not yet visited, each
 * node's new neighbours in ascending degree (Cuthill-McKee), appended to
 * order[*count...]. Returns the last node reached. */
static size_t cs_bfs(const size_t *adj_start, const uint32_t *adj, unsigned char *visited,
                     uint32_t *order, size_t *count, size_t start)
{
    size_t head = *count;
    order[(*count)++] = (uint32_t)start;
    visited[start] = 1;
    while (head < *count) {
        size_t v = order[head++], first = *count, p, a;
        for (p = adj_start[v]; p < adj_start[v + 1]; p++) {
            size_t u = adj[p];
            if (!visited[u]) {
                visited[u] = 1;
                order[(*count)++] = (uint32_t)u;
            }
        }
        for (a = first + 1; a < *count; a++) {
            uint32_t x = order[a];
            size_t b = a, dx = adj_start[x + 1] - adj_start[x];
            while (b > first && adj_start[order[b - 1] + 1] - adj_start[order[b - 1]] > dx) {
                order[b] = order[b - 1];
                b--;
            }
            order[b] = x;
        }
    }
    return order[*count - 1];
}

/* Reverse Cuthill-McKee over the pattern of J + J^T (no full rows), each
 * connected part started from the far end of a search from its first
 * state (a pseudo-peripheral node), and the band this order gives. */
static int cs_order_states(CsMatrix *m, const mofmu_system *sys)
{
    size_t n = sys->n_states, i, p, nnz = sys->jac_row_start[n], count = 0;
    size_t *adj_start = (size_t *)allocate(n + 1, sizeof(size_t));
    size_t *next = (size_t *)allocate(n + 1, sizeof(size_t));
    uint32_t *adj = (uint32_t *)allocate(2 * nnz, sizeof(uint32_t));
    unsigned char *visited = (unsigned char *)allocate(n, 1);
    m->perm = (uint32_t *)allocate(n, sizeof(uint32_t));
    m->position = (uint32_t *)allocate(n, sizeof(uint32_t));
    if (adj_start == NULL || next == NULL || adj == NULL || visited == NULL || m->perm == NULL ||
        m->position == NULL) {
        free(adj_start);
        free(next);
        free(adj);
        free(visited);
        return 1;
    }
    for (i = 0; i < n; i++) {
        for (p = sys->jac_row_start[i]; p < sys->jac_row_start[i + 1]; p++) {
            size_t k = sys->jac_col[p];
            if (k != i) {
                next[i]++;
                next[k]++;
            }
        }
    }
    for (i = 0; i < n; i++) {
        adj_start[i + 1] = adj_start[i] + next[i];
        next[i] = adj_start[i];
    }
    for (i = 0; i < n; i++) {
        for (p = sys->jac_row_start[i]; p < sys->jac_row_start[i + 1]; p++) {
            size_t k = sys->jac_col[p];
            if (k != i) {
                adj[next[i]++] = (uint32_t)k;
                adj[next[k]++] = (uint32_t)i;
            }
        }
    }
    for (i = 0; i < n; i++) {
        if (!visited[i]) {
            size_t from = count, far, k;
            far = cs_bfs(adj_start, adj, visited, m->perm, &count, i);
            for (k = from; k < count; k++) {
                visited[m->perm[k]] = 0;
            }
            count = from;
            cs_bfs(adj_start, adj, visited, m->perm, &count, far);
        }
    }
    /* Reversed. */
    for (i = 0; i < n / 2; i++) {
        uint32_t t = m->perm[i];
        m->perm[i] = m->perm[n - 1 - i];
        m->perm[n - 1 - i] = t;
    }
    for (i = 0; i < n; i++) {
        m->position[m->perm[i]] = (uint32_t)i;
    }
    m->kl = m->ku = 0;
    for (i = 0; i < n; i++) {
        size_t r = m->position[i];
        for (p = sys->jac_row_start[i]; p < sys->jac_row_start[i + 1]; p++) {
            size_t c = m->position[sys->jac_col[p]];
            if (r > c && r - c > m->kl) {
                m->kl = r - c;
            }
            if (c > r && c - r > m->ku) {
                m->ku = c - r;
            }
        }
    }
    free(adj_start);
    free(next);
    free(adj);
    free(visited);
    return 0;
}

/* Colours, order and storage of the iteration matrix; nonzero when out of
 * memory (a dense W of n*n doubles that does not fit included). */
static int cs_matrix_setup(CsMatrix *m, const mofmu_system *sys)
{
    size_t n = sys->n_states;
    memset(m, 0, sizeof *m);
    if (cs_pattern_columns(m, sys) != 0 || cs_colour_columns(m, sys) != 0) {
        return 1;
    }
    if (n > 0 && !cs_has_full_row(sys)) {
        if (cs_order_states(m, sys) != 0) {
            return 1;
        }
        m->ldab = 2 * m->kl + m->ku + 1;
        if (m->ldab < n) {
            m->storage = CS_BAND;
            m->band = (double *)allocate(m->ldab * n, sizeof(double));
            m->pivot = (size_t *)allocate(n, sizeof(size_t));
            m->permuted = (double *)allocate(n, sizeof(double));
            return m->band == NULL || m->pivot == NULL || m->permuted == NULL;
        }
    }
    m->storage = CS_DENSE;
    if (n > 0 && n > ((size_t)-1 / sizeof(double)) / n) {
        return 1;
    }
    m->a = (double *)allocate(n * n, sizeof(double));
    m->pivot = (size_t *)allocate(n, sizeof(size_t));
    return m->a == NULL || m->pivot == NULL;
}

/* LU with partial pivoting of the dense a[n*n] in place; 0 when singular. */
static int cs_dense_factor(double *a, size_t *pivot, size_t n)
{
    size_t i, j, k;
    for (k = 0; k < n; k++) {
        size_t p = k;
        double best = fabs(a[k * n + k]);
        for (i = k + 1; i < n; i++) {
            if (fabs(a[i * n + k]) > best) {
                best = fabs(a[i * n + k]);
                p = i;
            }
        }
        pivot[k] = p;
        if (!(best > 0.0) || !isfinite(best)) {
            return 0;
        }
        if (p != k) {
            for (j = 0; j < n; j++) {
                double t = a[k * n + j];
                a[k * n + j] = a[p * n + j];
                a[p * n + j] = t;
            }
        }
        for (i = k + 1; i < n; i++) {
            double f = a[i * n + k] / a[k * n + k];
            a[i * n + k] = f;
            if (f != 0.0) {
                for (j = k + 1; j < n; j++) {
                    a[i * n + j] -= f * a[k * n + j];
                }
            }
        }
    }
    return 1;
}

static void cs_dense_solve(const double *a, const size_t *pivot, size_t n, double *b)
{
    size_t i, j;
    for (i = 0; i < n; i++) {
        size_t p = pivot[i];
        if (p != i) {
            double t = b[i];
            b[i] = b[p];
            b[p] = t;
        }
    }
    for (i = 0; i < n; i++) {
        double sum = b[i];
        for (j = 0; j < i; j++) {
            sum -= a[i * n + j] * b[j];
        }
        b[i] = sum;
    }
    for (i = n; i-- > 0;) {
        double sum = b[i];
        for (j = i + 1; j < n; j++) {
            sum -= a[i * n + j] * b[j];
        }
        b[i] = sum / a[i * n + i];
    }
}

/* Element (r, c) of the band in its storage. */
#define CS_BAND_AT(m, r, c) ((m)->band[(c) * (m)->ldab + (m)->kl + (m)->ku + (r) - (c)])

/* LU with partial pivoting of the band in place (LAPACK's dgbtf2 without
 * blocking): row interchanges within the kl rows below the diagonal, U
 * widened to kl + ku super-diagonals; 0 when singular. */
static int cs_band_factor(CsMatrix *m, size_t n)
{
    size_t j, r, c, last_column = 0;
    for (j = 0; j < n; j++) {
        size_t below = m->kl < n - 1 - j ? m->kl : n - 1 - j, jp = 0, reach;
        double best = fabs(CS_BAND_AT(m, j, j)), pivot;
        for (r = 1; r <= below; r++) {
            if (fabs(CS_BAND_AT(m, j + r, j)) > best) {
                best = fabs(CS_BAND_AT(m, j + r, j));
                jp = r;
            }
        }
        m->pivot[j] = j + jp;
        if (!(best > 0.0) || !isfinite(best)) {
            return 0;
        }
        /* Row j + jp reaches ku + jp columns right of the diagonal. */
        reach = j + m->ku + jp < n - 1 ? j + m->ku + jp : n - 1;
        if (reach > last_column) {
            last_column = reach;
        }
        if (jp != 0) {
            for (c = j; c <= last_column; c++) {
                double t = CS_BAND_AT(m, j, c);
                CS_BAND_AT(m, j, c) = CS_BAND_AT(m, j + jp, c);
                CS_BAND_AT(m, j + jp, c) = t;
            }
        }
        pivot = CS_BAND_AT(m, j, j);
        for (r = 1; r <= below; r++) {
            CS_BAND_AT(m, j + r, j) /= pivot;
        }
        for (c = j + 1; c <= last_column; c++) {
            double u = CS_BAND_AT(m, j, c);
            if (u != 0.0) {
                for (r = 1; r <= below; r++) {
                    CS_BAND_AT(m, j + r, c) -= CS_BAND_AT(m, j + r, j) * u;
                }
            }
        }
    }
    return 1;
}

/* Solves with the band factors (LAPACK's dgbtrs): L with the interchanges
 * in the order they were made, then U. */
static void cs_band_solve(const CsMatrix *m, size_t n, double *b)
{
    size_t i, j, r, width = m->kl + m->ku;
    for (j = 0; j < n; j++) {
        size_t below = m->kl < n - 1 - j ? m->kl : n - 1 - j, p = m->pivot[j];
        if (p != j) {
            double t = b[j];
            b[j] = b[p];
            b[p] = t;
        }
        if (b[j] != 0.0) {
            for (r = 1; r <= below; r++) {
                b[j + r] -= CS_BAND_AT(m, j + r, j) * b[j];
            }
        }
    }
    for (j = n; j-- > 0;) {
        size_t top = j > width ? j - width : 0;
        b[j] /= CS_BAND_AT(m, j, j);
        if (b[j] != 0.0) {
            for (i = top; i < j; i++) {
                b[i] -= CS_BAND_AT(m, i, j) * b[j];
            }
        }
    }
}

/* Assembles W = I - hg*J from the Jacobian's values and factorises it; 0
 * when W is singular. */
static int cs_matrix_factor(CsMatrix *m, size_t n, double hg)
{
    size_t i, j, p;
    if (m->storage == CS_DENSE) {
        memset(m->a, 0, n * n * sizeof(double));
        for (i = 0; i < n; i++) {
            m->a[i * n + i] = 1.0;
        }
        for (j = 0; j < n; j++) {
            for (p = m->col_start[j]; p < m->col_start[j + 1]; p++) {
                m->a[(size_t)m->row[p] * n + j] -= hg * m->val[p];
            }
        }
        return cs_dense_factor(m->a, m->pivot, n);
    }
    memset(m->band, 0, m->ldab * n * sizeof(double));
    for (i = 0; i < n; i++) {
        CS_BAND_AT(m, i, i) = 1.0;
    }
    for (j = 0; j < n; j++) {
        size_t c = m->position[j];
        for (p = m->col_start[j]; p < m->col_start[j + 1]; p++) {
            size_t r = m->position[m->row[p]];
            CS_BAND_AT(m, r, c) -= hg * m->val[p];
        }
    }
    return cs_band_factor(m, n);
}

/* Replaces b by W^-1 b with the factors of cs_matrix_factor. */
static void cs_matrix_solve(CsMatrix *m, size_t n, double *b)
{
    size_t k;
    if (m->storage == CS_DENSE) {
        cs_dense_solve(m->a, m->pivot, n, b);
        return;
    }
    for (k = 0; k < n; k++) {
        m->permuted[k] = b[m->perm[k]];
    }
    cs_band_solve(m, n, m->permuted);
    for (k = 0; k < n; k++) {
        b[m->perm[k]] = m->permuted[k];
    }
}

/* ------------------------------------------------------------------------
 * Instance life cycle hooks called by mofmu_runtime.c
 * ------------------------------------------------------------------------ */

static size_t cs_n_inputs(const mofmu_system *sys)
{
    size_t i, count = 0;
    for (i = 0; i < sys->n_reals; i++) {
        count += sys->real_kind[i] == MOFMU_KIND_INPUT;
    }
    return count;
}

static void cs_free(Instance *inst)
{
    CoSimWork *w = inst->work;
    free(inst->input_derivative);
    inst->input_derivative = NULL;
    if (w == NULL) {
        return;
    }
    free(w->input_vr);
    free(w->input_start);
    free(w->x);
    free(w->x_last);
    free(w->f0);
    free(w->f3);
    free(w->f4);
    free(w->work);
    free(w->dfdt);
    free(w->stage);
    free(w->k1);
    free(w->k2);
    free(w->k3);
    free(w->k4);
    cs_matrix_free(&w->m);
    free(w->z_lo);
    free(w->z_hi);
    free(w->x_hi);
    free(w);
    inst->work = NULL;
}

/* Returns nonzero when out of memory (the caller frees the instance). The
 * input derivatives exist in every instance, so FMU states have one shape;
 * the integrator's arrays only in Co-Simulation instances. */
static int cs_allocate(Instance *inst)
{
    size_t n = inst->sys->n_states, ni = cs_n_inputs(inst->sys), nz = inst->sys->n_event_indicators, i, k;
    CoSimWork *w;
    inst->input_derivative = (double *)allocate(ni, sizeof(double));
    if (inst->input_derivative == NULL) {
        return 1;
    }
    if (inst->type != fmi2CoSimulation) {
        return 0;
    }
    w = (CoSimWork *)allocate(1, sizeof *w);
    if (w == NULL) {
        return 1;
    }
    inst->work = w;
    w->n = n;
    w->n_inputs = ni;
    w->input_vr = (uint32_t *)allocate(ni, sizeof(uint32_t));
    w->input_start = (double *)allocate(ni, sizeof(double));
    w->x = (double *)allocate(n, sizeof(double));
    w->x_last = (double *)allocate(n, sizeof(double));
    w->f0 = (double *)allocate(n, sizeof(double));
    w->f3 = (double *)allocate(n, sizeof(double));
    w->f4 = (double *)allocate(n, sizeof(double));
    w->work = (double *)allocate(n, sizeof(double));
    w->dfdt = (double *)allocate(n, sizeof(double));
    w->stage = (double *)allocate(n, sizeof(double));
    w->k1 = (double *)allocate(n, sizeof(double));
    w->k2 = (double *)allocate(n, sizeof(double));
    w->k3 = (double *)allocate(n, sizeof(double));
    w->k4 = (double *)allocate(n, sizeof(double));
    w->z_lo = (double *)allocate(nz, sizeof(double));
    w->z_hi = (double *)allocate(nz, sizeof(double));
    w->x_hi = (double *)allocate(n, sizeof(double));
    if (w->input_vr == NULL || w->input_start == NULL || w->x == NULL || w->x_last == NULL ||
        w->f0 == NULL || w->f3 == NULL || w->f4 == NULL || w->work == NULL || w->dfdt == NULL ||
        w->stage == NULL || w->k1 == NULL || w->k2 == NULL || w->k3 == NULL || w->k4 == NULL ||
        w->z_lo == NULL || w->z_hi == NULL || w->x_hi == NULL ||
        cs_matrix_setup(&w->m, inst->sys) != 0) {
        return 1;
    }
    for (i = 0, k = 0; i < inst->sys->n_reals; i++) {
        if (inst->sys->real_kind[i] == MOFMU_KIND_INPUT) {
            w->input_vr[k++] = (uint32_t)i;
        }
    }
    return 0;
}

/* Says (category logAll) how the solver of a Co-Simulation instance builds
 * and factorises its iteration matrix. */
static void cs_describe_solver(const Instance *inst)
{
    const CsMatrix *m;
    if (inst->work == NULL) {
        return;
    }
    m = &inst->work->m;
    if (m->storage == CS_BAND) {
        log_message(inst, fmi2OK, LOG_ALL,
                    "fmi2Instantiate: %lu states, Jacobian from %lu tangent passes, iteration "
                    "matrix banded (%lu sub-, %lu super-diagonals after reverse Cuthill-McKee)",
                    (unsigned long)inst->work->n, (unsigned long)m->n_colours,
                    (unsigned long)m->kl, (unsigned long)m->ku);
    } else {
        log_message(inst, fmi2OK, LOG_ALL,
                    "fmi2Instantiate: %lu states, Jacobian from %lu tangent passes, iteration "
                    "matrix dense",
                    (unsigned long)inst->work->n, (unsigned long)m->n_colours);
    }
}

static void cs_reset(Instance *inst)
{
    size_t i, ni = cs_n_inputs(inst->sys);
    inst->cs.next_step = 0.0;
    inst->cs.last_successful_time = 0.0;
    inst->cs.last_step_status = fmi2OK;
    if (inst->input_derivative != NULL) {
        for (i = 0; i < ni; i++) {
            inst->input_derivative[i] = 0.0;
        }
    }
}

/* ------------------------------------------------------------------------
 * Evaluation at integrator points
 * ------------------------------------------------------------------------ */

/* Writes states and (extrapolated) inputs for time t into R. */
static void cs_set_point(Instance *inst, double t, const double *x)
{
    CoSimWork *w = inst->work;
    size_t i;
    inst->time = t;
    for (i = 0; i < w->n; i++) {
        inst->R[inst->sys->state_vr[i]] = x[i];
    }
    for (i = 0; i < w->n_inputs; i++) {
        inst->R[w->input_vr[i]] =
            w->input_start[i] + inst->input_derivative[i] * (t - w->input_time);
    }
    inst->valid = 0;
}

/* Evaluates the derivatives f(t, x) into `f` (and the event indicators into
 * inst->indicators) with frozen relations. Returns 0, or 1 with w->reason
 * set when the point is unusable (a failure or a non-finite value). */
static int cs_rhs(Instance *inst, double t, const double *x, double *f)
{
    CoSimWork *w = inst->work;
    mofmu_ctx ctx;
    size_t i;
    cs_set_point(inst, t, x);
    init_ctx(inst, &ctx, 0);
    mofmu_evaluate(inst->R, &ctx);
    if (ctx.failed) {
        snprintf(w->reason, sizeof w->reason, "%s at time %.17g", ctx.message, t);
        return 1;
    }
    for (i = 0; i < w->n; i++) {
        double d = inst->R[inst->sys->derivative_vr[i]];
        if (!isfinite(d)) {
            snprintf(w->reason, sizeof w->reason, "derivative %s is not finite (%g) at time %.17g",
                     real_name(inst->sys, inst->sys->derivative_vr[i]), d, t);
            return 1;
        }
        f[i] = d;
    }
    for (i = 0; i < inst->sys->n_event_indicators; i++) {
        if (!isfinite(inst->indicators[i])) {
            snprintf(w->reason, sizeof w->reason, "event indicator %lu is not finite at time %.17g",
                     (unsigned long)i, t);
            return 1;
        }
    }
    return 0;
}

/* The Jacobian d(der x)/dx at the point R was last evaluated at, into the
 * pattern's positions: one tangent pass per colour, seeding every column of
 * the colour at once. Returns nonzero with w->reason. */
static int cs_jacobian(Instance *inst)
{
    CoSimWork *w = inst->work;
    CsMatrix *m = &w->m;
    size_t c, q, p, k;
    mofmu_ctx ctx;
    for (c = 0; c < m->n_colours; c++) {
        /* The tangent pass reads only these entries before writing. */
        for (k = 0; k < inst->n_zero_ranges; k++) {
            size_t from = inst->zero_ranges[2 * k], to = inst->zero_ranges[2 * k + 1];
            memset(inst->dR + from, 0, (to - from) * sizeof inst->dR[0]);
        }
        for (q = m->colour_start[c]; q < m->colour_start[c + 1]; q++) {
            inst->dR[inst->sys->state_vr[m->colour_col[q]]] = 1.0;
        }
        init_ctx(inst, &ctx, 0);
        mofmu_directional(inst->R, inst->dR, &ctx);
        if (ctx.failed) {
            snprintf(w->reason, sizeof w->reason, "Jacobian at time %.17g: %s", inst->time,
                     ctx.message);
            return 1;
        }
        for (q = m->colour_start[c]; q < m->colour_start[c + 1]; q++) {
            size_t j = m->colour_col[q];
            for (p = m->col_start[j]; p < m->col_start[j + 1]; p++) {
                double d = inst->dR[inst->sys->derivative_vr[m->row[p]]];
                if (!isfinite(d)) {
                    snprintf(w->reason, sizeof w->reason,
                             "the Jacobian is not finite at time %.17g", inst->time);
                    return 1;
                }
                m->val[p] = d;
            }
        }
    }
    return 0;
}

/* Re-evaluates relations at the current point until they settle (the
 * Co-Simulation counterpart of fmi2NewDiscreteStates), which also finds the
 * next time event. */
static fmi2Status cs_event_iteration(Instance *inst, const char *function)
{
    int iteration;
    for (iteration = 0; iteration < CS_MAX_EVENT_ITERATIONS; iteration++) {
        mofmu_ctx ctx;
        int changed = 0;
        if (inst->sys->n_relations > 0) {
            memcpy(inst->relations_before, inst->relations, inst->sys->n_relations);
        }
        init_ctx(inst, &ctx, MOFMU_AT_EVENT);
        mofmu_evaluate(inst->R, &ctx);
        if (ctx.failed) {
            return model_failure(inst, function, ctx.message);
        }
        inst->next_time_event = ctx.next_time_event;
        if (inst->sys->n_relations > 0) {
            changed = memcmp(inst->relations_before, inst->relations, inst->sys->n_relations) != 0;
        }
        if (!changed) {
            inst->valid = 0;
            if (iteration > 0) {
                log_message(inst, fmi2OK, LOG_EVENTS, "%s: event at time %.17g", function,
                            inst->time);
            }
            return fmi2OK;
        }
    }
    return model_failure(inst, function, "the relations do not settle at an event");
}

static fmi2Status cs_exit_initialization(Instance *inst)
{
    fmi2Status status = cs_event_iteration(inst, "fmi2ExitInitializationMode");
    if (status != fmi2OK) {
        return status;
    }
    inst->state = STATE_STEP_COMPLETE;
    inst->cs.last_successful_time = inst->time;
    inst->cs.last_step_status = fmi2OK;
    return fmi2OK;
}

/* ------------------------------------------------------------------------
 * RODAS3
 * ------------------------------------------------------------------------ */

static double cs_increment(const CoSimWork *w, size_t i)
{
    return 2.0 * w->k1[i] + w->k3[i] + w->k4[i];
}

/* One trial step of size h from (t, x), with f0, jac and dfdt belonging to
 * (t, x). Returns the weighted RMS error estimate, or -1 when the step
 * cannot be taken at this size (singular W, unusable stage point). With
 * W = I - h*gamma*J, stage i solves W k_i = h*gamma*(f(t + alpha_i h, Y_i) +
 * sum c_ij k_j / h + gamma_i h df/dt); Y_1 = Y_2 = x, Y_3 = x + 2 k1,
 * Y_4 = x + 2 k1 + k3; x_new = x + 2 k1 + k3 + k4, and k4 is the error. */
static double cs_attempt(Instance *inst, double t, const double *x, double h)
{
    CoSimWork *w = inst->work;
    size_t n = w->n, i;
    double hg = h * CS_GAMMA, sum = 0.0;
    if (!cs_matrix_factor(&w->m, n, hg)) {
        snprintf(w->reason, sizeof w->reason, "the iteration matrix is singular at time %.17g",
                 t);
        return -1.0;
    }
    for (i = 0; i < n; i++) {
        w->k1[i] = hg * (w->f0[i] + 0.5 * h * w->dfdt[i]);
    }
    cs_matrix_solve(&w->m, n, w->k1);
    for (i = 0; i < n; i++) {
        w->k2[i] = hg * (w->f0[i] + 4.0 * w->k1[i] / h + 1.5 * h * w->dfdt[i]);
    }
    cs_matrix_solve(&w->m, n, w->k2);
    for (i = 0; i < n; i++) {
        w->stage[i] = x[i] + 2.0 * w->k1[i];
    }
    if (cs_rhs(inst, t + h, w->stage, w->f3) != 0) {
        return -1.0;
    }
    for (i = 0; i < n; i++) {
        w->k3[i] = hg * (w->f3[i] + (w->k1[i] - w->k2[i]) / h);
    }
    cs_matrix_solve(&w->m, n, w->k3);
    for (i = 0; i < n; i++) {
        w->stage[i] = x[i] + 2.0 * w->k1[i] + w->k3[i];
    }
    if (cs_rhs(inst, t + h, w->stage, w->f4) != 0) {
        return -1.0;
    }
    for (i = 0; i < n; i++) {
        w->k4[i] = hg * (w->f4[i] + (w->k1[i] - w->k2[i] - 8.0 / 3.0 * w->k3[i]) / h);
    }
    cs_matrix_solve(&w->m, n, w->k4);
    for (i = 0; i < n; i++) {
        double x_new = x[i] + cs_increment(w, i);
        double scale = w->rtol + w->rtol * fmax(fabs(x[i]), fabs(x_new));
        double e = w->k4[i] / scale;
        sum += e * e;
    }
    sum = n > 0 ? sqrt(sum / (double)n) : 0.0;
    if (!isfinite(sum)) {
        snprintf(w->reason, sizeof w->reason, "the error estimate is not finite at time %.17g",
                 t);
        return -1.0;
    }
    return sum;
}

static double cs_step_factor(double error_norm)
{
    return error_norm <= 0.0 ? 5.0 : 0.9 * pow(error_norm, -1.0 / 3.0);
}

/* A first step size from the sizes of x and f (Hairer-Wanner's heuristic,
 * simplified), never beyond span. */
static double cs_initial_step(const CoSimWork *w, const double *x, double span)
{
    size_t i;
    double d0 = 0.0, d1 = 0.0, h;
    for (i = 0; i < w->n; i++) {
        double scale = w->rtol + w->rtol * fabs(x[i]);
        d0 += (x[i] / scale) * (x[i] / scale);
        d1 += (w->f0[i] / scale) * (w->f0[i] / scale);
    }
    if (w->n > 0) {
        d0 = sqrt(d0 / (double)w->n);
        d1 = sqrt(d1 / (double)w->n);
    }
    h = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 * fmax(span, 1e-6) : 0.01 * d0 / d1;
    return fmin(h, span);
}

/* Advances (*t, x) by one accepted step that ends at or before t_limit; a
 * step that would end within 5 % of t_limit ends exactly on it. *h is the
 * step size to try (0: estimate) and receives the next one. Returns 0, or 1
 * with w->reason when no step size works. */
static int cs_rodas_step(Instance *inst, double *t, double *x, double t_limit, double *h)
{
    CoSimWork *w = inst->work;
    size_t n = w->n, i;
    double t0 = *t, h_wanted, dt;
    w->last_t = t0;
    memcpy(w->x_last, x, n * sizeof(double));
    if (cs_rhs(inst, t0, x, w->f0) != 0 || cs_jacobian(inst) != 0) {
        return 1;
    }
    /* df/dt by a forward difference (time has no tangent), backward when
     * the right-hand side ends just after t0. */
    dt = sqrt(DBL_EPSILON) * fmax(fabs(t0), 1.0);
    if (cs_rhs(inst, t0 + dt, x, w->work) != 0) {
        dt = -dt;
        if (cs_rhs(inst, t0 + dt, x, w->work) != 0) {
            return 1;
        }
    }
    for (i = 0; i < n; i++) {
        w->dfdt[i] = (w->work[i] - w->f0[i]) / dt;
    }
    h_wanted = *h > 0.0 ? *h : cs_initial_step(w, x, t_limit - t0);
    for (;;) {
        double min_step = CS_MIN_RELATIVE_STEP * fmax(fmax(fabs(t0), fabs(t_limit)), 1e-300);
        int clamped;
        double step, error_norm;
        if (isnan(h_wanted) || h_wanted < min_step) {
            /* The last trouble, shortened to leave room for the rest. */
            char why[400];
            snprintf(why, sizeof why, "%.399s", w->reason);
            snprintf(w->reason, sizeof w->reason,
                     "the step size fell to %g at time %.17g without meeting the tolerance%s%s",
                     h_wanted, t0, why[0] != '\0' ? "; last trouble: " : "", why);
            return 1;
        }
        clamped = t0 + 1.05 * h_wanted >= t_limit;
        step = clamped ? t_limit - t0 : h_wanted;
        error_norm = cs_attempt(inst, t0, x, step);
        if (error_norm >= 0.0 && error_norm <= 1.0) {
            double grown = step * fmin(cs_step_factor(error_norm), 5.0);
            for (i = 0; i < n; i++) {
                x[i] += cs_increment(w, i);
            }
            *t = clamped ? t_limit : t0 + step;
            /* A step shortened to reach t_limit says little about the
             * natural step size; do not let it shrink the next one, nor
             * grow without bound over many short communication steps. */
            *h = clamped ? fmax(grown, fmin(h_wanted, 5.0 * step)) : grown;
            return 0;
        }
        h_wanted = error_norm < 0.0 ? step * 0.25 : step * fmax(cs_step_factor(error_norm), 0.2);
    }
}

/* The solution at t inside the last accepted step, by re-integrating it
 * from its start with one step of the same method. f0, jac and dfdt still
 * belong to the step's start. */
static int cs_solution_in_last_step(Instance *inst, double t, double *out)
{
    CoSimWork *w = inst->work;
    size_t i;
    if (t <= w->last_t) {
        memcpy(out, w->x_last, w->n * sizeof(double));
        return 0;
    }
    if (cs_attempt(inst, w->last_t, w->x_last, t - w->last_t) < 0.0) {
        return 1;
    }
    for (i = 0; i < w->n; i++) {
        out[i] = w->x_last[i] + cs_increment(w, i);
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * State events
 * ------------------------------------------------------------------------ */

/* An indicator crosses when it moves from one strict side of zero to zero
 * or the other side; leaving zero is not a crossing. */
static int cs_crossed(double before, double after)
{
    return (before > 0.0 && after <= 0.0) || (before < 0.0 && after >= 0.0);
}

static int cs_crossing(const mofmu_system *sys, const double *before, const double *after)
{
    size_t i;
    for (i = 0; i < sys->n_event_indicators; i++) {
        if (cs_crossed(before[i], after[i])) {
            return 1;
        }
    }
    return 0;
}

/* Finds the first instant in (t0, *t1] where an indicator crosses zero, by
 * the Illinois variant of regula falsi on the re-integrated last step
 * (bisection when it stalls). z_lo holds the indicators at t0, z_hi those
 * at *t1 and x the states there; on return *t1, x and z_hi are the point
 * just after the crossing. */
static int cs_locate_state_event(Instance *inst, double t0, double *t1, double *x)
{
    CoSimWork *w = inst->work;
    size_t nz = inst->sys->n_event_indicators, n = w->n, i;
    double lo = t0, hi = *t1;
    double tolerance = 1e-12 * fmax(fabs(hi), hi - t0);
    double weight_lo = 1.0, weight_hi = 1.0, widths[2];
    int last_kept = 0, iteration;
    widths[0] = widths[1] = hi - lo;
    memcpy(w->x_hi, x, n * sizeof(double));
    for (iteration = 0; iteration < 200; iteration++) {
        double width = hi - lo, candidate = INFINITY, margin = 0.25 * tolerance;
        if (width <= tolerance) {
            break;
        }
        for (i = 0; i < nz; i++) {
            if (cs_crossed(w->z_lo[i], w->z_hi[i])) {
                double a = weight_lo * w->z_lo[i], b = weight_hi * w->z_hi[i];
                double fraction = a != b ? a / (a - b) : 0.5;
                candidate = fmin(candidate, lo + fraction * width);
            }
        }
        if ((iteration >= 2 && width > 0.5 * widths[0]) || !isfinite(candidate)) {
            candidate = lo + 0.5 * width;
        }
        candidate = fmin(fmax(candidate, lo + margin), hi - margin);
        if (candidate <= lo || candidate >= hi) {
            break;
        }
        widths[0] = widths[1];
        widths[1] = width;
        if (cs_solution_in_last_step(inst, candidate, w->stage) != 0 ||
            cs_rhs(inst, candidate, w->stage, w->work) != 0) {
            return 1;
        }
        if (cs_crossing(inst->sys, w->z_lo, inst->indicators)) {
            hi = candidate;
            memcpy(w->x_hi, w->stage, n * sizeof(double));
            memcpy(w->z_hi, inst->indicators, nz * sizeof(double));
            weight_hi = 1.0;
            if (last_kept == 1) {
                weight_lo *= 0.5;
            }
            last_kept = 1;
        } else {
            lo = candidate;
            memcpy(w->z_lo, inst->indicators, nz * sizeof(double));
            weight_lo = 1.0;
            if (last_kept == -1) {
                weight_hi *= 0.5;
            }
            last_kept = -1;
        }
    }
    *t1 = hi;
    memcpy(x, w->x_hi, n * sizeof(double));
    return 0;
}

/* ------------------------------------------------------------------------
 * fmi2DoStep
 * ------------------------------------------------------------------------ */

static int cs_negligible(double from, double to)
{
    return isfinite(to) && to - from <= CS_SLIVER * fmax(fabs(from), fabs(to));
}

/* Leaves the instance at (t, x) after a step or a failed one: states,
 * inputs at t, outputs evaluated. */
static fmi2Status cs_finish(Instance *inst, double t, const double *x)
{
    cs_set_point(inst, t, x);
    return evaluate(inst, "fmi2DoStep");
}

/* Integrates from the FMU's time to t_end. */
static fmi2Status cs_integrate(Instance *inst, double t_end)
{
    CoSimWork *w = inst->work;
    size_t n = w->n, nz = inst->sys->n_event_indicators, i;
    double t = inst->time, h = inst->cs.next_step;
    long steps = 0;
    fmi2Status status;
    w->reason[0] = '\0';
    w->rtol = inst->tolerance > 0.0 ? inst->tolerance : CS_DEFAULT_TOLERANCE;
    w->input_time = t;
    for (i = 0; i < w->n_inputs; i++) {
        w->input_start[i] = inst->R[w->input_vr[i]];
    }
    for (i = 0; i < n; i++) {
        w->x[i] = inst->R[inst->sys->state_vr[i]];
    }
    /* Inputs set since the last step may switch relations. */
    cs_set_point(inst, t, w->x);
    status = cs_event_iteration(inst, "fmi2DoStep");
    if (status != fmi2OK) {
        return status;
    }
    if (cs_rhs(inst, t, w->x, w->f0) != 0) {
        goto discard;
    }
    memcpy(w->z_lo, inst->indicators, nz * sizeof(double));
    while (t < t_end && !cs_negligible(t, t_end)) {
        double t_limit = fmin(t_end, inst->next_time_event);
        int state_event = 0, time_event;
        if (++steps > CS_MAX_STEPS) {
            snprintf(w->reason, sizeof w->reason,
                     "more than %ld integrator steps in one communication step", CS_MAX_STEPS);
            goto discard;
        }
        if (cs_negligible(t, t_limit)) {
            t = t_limit;
        } else {
            double t_before = t;
            if (n == 0) {
                t = t_limit;
            } else if (cs_rodas_step(inst, &t, w->x, t_limit, &h) != 0) {
                goto discard;
            }
            if (nz > 0) {
                if (cs_rhs(inst, t, w->x, w->work) != 0) {
                    goto discard;
                }
                memcpy(w->z_hi, inst->indicators, nz * sizeof(double));
                if (cs_crossing(inst->sys, w->z_lo, w->z_hi)) {
                    if (n == 0) {
                        /* Nothing to re-integrate: the indicators depend on
                         * time and inputs only, and the step was exact. */
                    } else if (cs_locate_state_event(inst, t_before, &t, w->x) != 0) {
                        goto discard;
                    }
                    state_event = 1;
                }
            }
        }
        time_event = t >= inst->next_time_event || cs_negligible(t, inst->next_time_event);
        if (state_event || time_event) {
            /* A time event reached within rounding happens at its time. */
            cs_set_point(inst, time_event && !state_event ? fmax(t, inst->next_time_event) : t,
                         w->x);
            status = cs_event_iteration(inst, "fmi2DoStep");
            if (status != fmi2OK) {
                return status;
            }
            h = 0.0;
            if (cs_rhs(inst, inst->time, w->x, w->f0) != 0) {
                goto discard;
            }
            memcpy(w->z_lo, inst->indicators, nz * sizeof(double));
        } else if (nz > 0) {
            memcpy(w->z_lo, w->z_hi, nz * sizeof(double));
        }
    }
    inst->cs.next_step = h;
    status = cs_finish(inst, t_end, w->x);
    if (status != fmi2OK) {
        return status;
    }
    inst->cs.last_successful_time = t_end;
    return fmi2OK;

discard:
    /* Stop at the last point reached; its states are accepted ones. */
    inst->cs.next_step = 0.0;
    status = cs_finish(inst, t, w->x);
    if (status == fmi2Error) {
        return status;
    }
    inst->cs.last_successful_time = t;
    inst->state = STATE_STEP_FAILED;
    /* Always reported, whatever the log categories: the master needs the
     * reason to act on a failed step. */
    if (inst->logger != NULL) {
        char text[1024];
        snprintf(text, sizeof text,
                 "fmi2DoStep: cannot reach the communication point %.17g, stopped at %.17g: %s",
                 t_end, t, w->reason);
        inst->logger(inst->environment, inst->instance_name, fmi2Discard, "logStatusWarning",
                     "%s", text);
    }
    return fmi2Discard;
}

MOFMU_EXPORT fmi2Status fmi2DoStep(fmi2Component c, fmi2Real currentCommunicationPoint,
                                   fmi2Real communicationStepSize,
                                   fmi2Boolean noSetFMUStatePriorToCurrentPoint)
{
    Instance *inst = as_instance(c);
    double t_end, mismatch;
    size_t i, ni;
    fmi2Status status;
    /* The FMU keeps no history before the current point, so it has nothing
     * to free when the master promises not to go back. */
    (void)noSetFMUStatePriorToCurrentPoint;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, "fmi2DoStep", MASK_DoStep)) {
        return fmi2Error;
    }
    if (!isfinite(currentCommunicationPoint) || !isfinite(communicationStepSize) ||
        !(communicationStepSize > 0.0)) {
        return log_error(inst, "fmi2DoStep: communication point %g and step size %g must be "
                               "finite and the step size positive",
                         currentCommunicationPoint, communicationStepSize);
    }
    mismatch = fabs(currentCommunicationPoint - inst->time);
    if (mismatch > CS_TIME_MATCH * fmax(fabs(inst->time), communicationStepSize)) {
        return log_error(inst, "fmi2DoStep: the communication point %.17g is not the FMU's "
                               "time %.17g",
                         currentCommunicationPoint, inst->time);
    }
    t_end = currentCommunicationPoint + communicationStepSize;
    if (!isfinite(t_end) || !(t_end > inst->time)) {
        return log_error(inst, "fmi2DoStep: a step of %g from %.17g does not advance time",
                         communicationStepSize, inst->time);
    }
    status = cs_integrate(inst, t_end);
    inst->cs.last_step_status = status;
    /* Input derivatives describe the inputs over one communication step. */
    ni = inst->work->n_inputs;
    for (i = 0; i < ni; i++) {
        inst->input_derivative[i] = 0.0;
    }
    return status;
}

MOFMU_EXPORT fmi2Status fmi2CancelStep(fmi2Component c)
{
    Instance *inst = as_instance(c);
    if (inst == NULL) {
        return fmi2Error;
    }
    /* fmi2DoStep never returns fmi2Pending, so no step is ever in progress
     * and the mask refuses every state. */
    if (not_allowed(inst, "fmi2CancelStep", MASK_CancelStep)) {
        return fmi2Error;
    }
    return fmi2OK;
}

/* The position of `vr` among the inputs, or -1. input_vr is ascending. */
static long cs_input_index(const CoSimWork *w, fmi2ValueReference vr)
{
    size_t lo = 0, hi = w->n_inputs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->input_vr[mid] == vr) {
            return (long)mid;
        }
        if (w->input_vr[mid] < vr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return -1;
}

MOFMU_EXPORT fmi2Status fmi2SetRealInputDerivatives(fmi2Component c,
                                                    const fmi2ValueReference vr[], size_t nvr,
                                                    const fmi2Integer order[],
                                                    const fmi2Real value[])
{
    static const char *const function = "fmi2SetRealInputDerivatives";
    Instance *inst = as_instance(c);
    size_t i;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, function, MASK_SetRealInputDerivatives) ||
        null_array(inst, function, "vr", vr, nvr) ||
        null_array(inst, function, "order", order, nvr) ||
        null_array(inst, function, "value", value, nvr) ||
        bad_vrs(inst, function, "Real", vr, nvr, inst->sys->n_reals)) {
        return fmi2Error;
    }
    /* Check the whole request before storing anything. */
    for (i = 0; i < nvr; i++) {
        if (cs_input_index(inst->work, vr[i]) < 0) {
            return log_error(inst, "%s: %s is not an input", function, real_name(inst->sys, vr[i]));
        }
        if (order[i] != 1) {
            return log_error(inst, "%s: order %d for %s, but only first derivatives are "
                                   "interpolated (maxInputDerivativeOrder 1)",
                             function, (int)order[i], real_name(inst->sys, vr[i]));
        }
        if (!isfinite(value[i])) {
            return log_error(inst, "%s: derivative %g for %s is not finite", function, value[i],
                             real_name(inst->sys, vr[i]));
        }
    }
    for (i = 0; i < nvr; i++) {
        inst->input_derivative[cs_input_index(inst->work, vr[i])] = value[i];
    }
    return fmi2OK;
}

/* The outputs at time `t` with states and inputs as they stand in R and the
 * relations frozen, into out[k] = R[vr[k]]; 0, or 1 with the kernel's message. */
static int cs_outputs_at(Instance *inst, double t, const fmi2ValueReference vr[], size_t nvr,
                         double *out, char *message, size_t message_size)
{
    mofmu_ctx ctx;
    size_t k;
    inst->time = t;
    inst->valid = 0;
    init_ctx(inst, &ctx, 0);
    mofmu_evaluate(inst->R, &ctx);
    if (ctx.failed) {
        snprintf(message, message_size, "%s at time %.17g", ctx.message, t);
        return 1;
    }
    for (k = 0; k < nvr; k++) {
        out[k] = inst->R[vr[k]];
    }
    return 0;
}

/* d y/dt = dy/dx * der(x) + dy/du * du/dt + dy/dt|(x, u) at the current
 * point, for the outputs vr[], added into value[]. The first two terms are
 * one pass of the tangent code seeded with the derivatives of the states
 * and the input derivatives set for the next step (fmi2SetRealInputDerivatives;
 * zero unless the master gave them, as the inputs are then held); the last,
 * the explicit dependence on time, is a central difference at frozen states,
 * inputs and relations, which is exactly zero for outputs that do not read
 * time. */
static fmi2Status cs_first_output_derivatives(Instance *inst, const char *function,
                                              const fmi2ValueReference vr[], size_t nvr,
                                              fmi2Real value[])
{
    const mofmu_system *sys = inst->sys;
    CoSimWork *w = inst->work;
    double t = inst->time, dt = cbrt(DBL_EPSILON) * fmax(fabs(t), 1.0);
    double *plus, *minus;
    char message[600];
    mofmu_ctx ctx;
    size_t i, k;
    fmi2Status status = evaluate(inst, function);
    if (status != fmi2OK) {
        return status;
    }
    for (k = 0; k < inst->n_zero_ranges; k++) {
        size_t from = inst->zero_ranges[2 * k], to = inst->zero_ranges[2 * k + 1];
        memset(inst->dR + from, 0, (to - from) * sizeof inst->dR[0]);
    }
    for (i = 0; i < sys->n_states; i++) {
        inst->dR[sys->state_vr[i]] = inst->R[sys->derivative_vr[i]];
    }
    for (i = 0; i < w->n_inputs; i++) {
        inst->dR[w->input_vr[i]] = inst->input_derivative[i];
    }
    init_ctx(inst, &ctx, 0);
    mofmu_directional(inst->R, inst->dR, &ctx);
    if (ctx.failed) {
        return log_error(inst, "%s: %s", function, ctx.message);
    }
    for (k = 0; k < nvr; k++) {
        value[k] = inst->dR[vr[k]];
    }
    plus = (double *)allocate(2 * nvr, sizeof(double));
    if (plus == NULL) {
        return log_error(inst, "%s: out of memory", function);
    }
    minus = plus + nvr;
    message[0] = '\0';
    if (cs_outputs_at(inst, t + dt, vr, nvr, plus, message, sizeof message) != 0 ||
        cs_outputs_at(inst, t - dt, vr, nvr, minus, message, sizeof message) != 0) {
        dt = 0.0;
    }
    /* Back to the point itself (deterministic: the same values as before). */
    inst->time = t;
    inst->valid = 0;
    status = evaluate(inst, function);
    if (status == fmi2OK && dt == 0.0) {
        status = log_error(inst, "%s: the outputs' dependence on time: %s", function, message);
    }
    for (k = 0; k < nvr && status == fmi2OK; k++) {
        value[k] += (plus[k] - minus[k]) / (2.0 * dt);
        if (!isfinite(value[k])) {
            status = log_error(inst, "%s: the derivative of %s is not finite", function,
                               real_name(sys, vr[k]));
        }
    }
    free(plus);
    return status;
}

MOFMU_EXPORT fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c,
                                                     const fmi2ValueReference vr[], size_t nvr,
                                                     const fmi2Integer order[],
                                                     fmi2Real value[])
{
    static const char *const function = "fmi2GetRealOutputDerivatives";
    Instance *inst = as_instance(c);
    size_t i;
    if (inst == NULL) {
        return fmi2Error;
    }
    if (not_allowed(inst, function, MASK_GetRealOutputDerivatives) ||
        null_array(inst, function, "vr", vr, nvr) ||
        null_array(inst, function, "order", order, nvr) ||
        null_array(inst, function, "value", value, nvr) ||
        bad_vrs(inst, function, "Real", vr, nvr, inst->sys->n_reals)) {
        return fmi2Error;
    }
    /* Check the whole request before computing anything. */
    for (i = 0; i < nvr; i++) {
        if (inst->sys->real_kind[vr[i]] != MOFMU_KIND_OUTPUT) {
            return log_error(inst, "%s: %s is not an output", function,
                             real_name(inst->sys, vr[i]));
        }
        if (order[i] != 1) {
            return log_error(inst, "%s: order %d for %s, but only first derivatives are "
                                   "provided (maxOutputDerivativeOrder 1)",
                             function, (int)order[i], real_name(inst->sys, vr[i]));
        }
    }
    if (nvr == 0) {
        return fmi2OK;
    }
    if (inst->state == STATE_ERROR) {
        return log_error(inst, "%s: the instance is in the error state", function);
    }
    return cs_first_output_derivatives(inst, function, vr, nvr, value);
}

/* Status queries (FMI 2.0, section 4.2.3). A status the FMU cannot give is
 * fmi2Discard, as the standard asks; a kind that is not an fmi2StatusKind
 * is a misuse. */
static fmi2Status cs_status_query(Instance *inst, const char *function, fmi2StatusKind s,
                                  const void *value)
{
    if (not_allowed(inst, function, MASK_GetStatus) ||
        null_pointer(inst, function, "value", value)) {
        return fmi2Error;
    }
    if ((int)s < (int)fmi2DoStepStatus || (int)s > (int)fmi2Terminated) {
        return log_error(inst, "%s: %d is not an fmi2StatusKind", function, (int)s);
    }
    return fmi2OK;
}

static fmi2Status cs_status_unavailable(Instance *inst, const char *function, fmi2StatusKind s)
{
    log_message(inst, fmi2Discard, LOG_STATUS_WARNING, "%s: status kind %d is not available "
                                                       "as this type",
                function, (int)s);
    return fmi2Discard;
}

MOFMU_EXPORT fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind s, fmi2Status *value)
{
    Instance *inst = as_instance(c);
    if (inst == NULL) {
        return fmi2Error;
    }
    if (cs_status_query(inst, "fmi2GetStatus", s, value) != fmi2OK) {
        return fmi2Error;
    }
    if (s != fmi2DoStepStatus) {
        return cs_status_unavailable(inst, "fmi2GetStatus", s);
    }
    /* fmi2DoStep is synchronous: its status is that of the last call. */
    *value = (fmi2Status)inst->cs.last_step_status;
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s,
                                          fmi2Real *value)
{
    Instance *inst = as_instance(c);
    if (inst == NULL) {
        return fmi2Error;
    }
    if (cs_status_query(inst, "fmi2GetRealStatus", s, value) != fmi2OK) {
        return fmi2Error;
    }
    if (s != fmi2LastSuccessfulTime) {
        return cs_status_unavailable(inst, "fmi2GetRealStatus", s);
    }
    *value = inst->cs.last_successful_time;
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind s,
                                             fmi2Integer *value)
{
    Instance *inst = as_instance(c);
    if (inst == NULL) {
        return fmi2Error;
    }
    if (cs_status_query(inst, "fmi2GetIntegerStatus", s, value) != fmi2OK) {
        return fmi2Error;
    }
    return cs_status_unavailable(inst, "fmi2GetIntegerStatus", s);
}

MOFMU_EXPORT fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s,
                                             fmi2Boolean *value)
{
    Instance *inst = as_instance(c);
    if (inst == NULL) {
        return fmi2Error;
    }
    if (cs_status_query(inst, "fmi2GetBooleanStatus", s, value) != fmi2OK) {
        return fmi2Error;
    }
    if (s != fmi2Terminated) {
        return cs_status_unavailable(inst, "fmi2GetBooleanStatus", s);
    }
    /* The model never asks to end the simulation. */
    *value = fmi2False;
    return fmi2OK;
}

MOFMU_EXPORT fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind s,
                                            fmi2String *value)
{
    Instance *inst = as_instance(c);
    if (inst == NULL) {
        return fmi2Error;
    }
    if (cs_status_query(inst, "fmi2GetStringStatus", s, value) != fmi2OK) {
        return fmi2Error;
    }
    return cs_status_unavailable(inst, "fmi2GetStringStatus", s);
}

#endif /* MOFMU_COSIM_H */
