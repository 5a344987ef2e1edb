/* Hand-written C twin of the plate of issue 60 (test_data/ladder/Grid.mo,
 * Grid.Grid): n x n capacitors, each joined by a conductor to its right
 * (right[i, j]) and to its lower neighbour (down[i, j]), fed at cap[1, 1]
 * from a fixed temperature through `feed`; with the fixture's parameter
 * values, as a person would write it. The states are the FMU's, in its
 * order: cap[i, j].T row by row (n at least 2). grid_twin_derivatives
 * computes only the derivatives; grid_twin_all also stores every variable
 * the FMU exposes, as a model exchange FMU must be able to return them from
 * fmi2GetReal.
 *
 * A capacitor takes the heat that its connection set's conductor ports do
 * not: port.Q_flow = -(sum of the conductor ports' Q_flow), summed left to
 * right in mofmu's order of the set, which is the order of the connects:
 * feed.port_b (cap[1, 1] only), right[i, j - 1].port_b, right[i, j].port_a,
 * down[i - 1, j].port_b, down[i, j].port_a. A sum starts from -0.0, the
 * identity of IEEE addition, so a cell on an edge adds only the terms it has
 * and still gets the FMU's bits (-std=c99 -O2 -ffp-contract=off, as the
 * kernels are compiled). */
#include <stddef.h>

#define TWIN_API __attribute__((visibility("default")))

static const double C = 50.0, G = 2.0, G_feed = 10.0, T_source = 400.0;

/* A conductor's heat flow from its port_a at temperature a to its port_b at b. */
#define FLOW(g, a, b) ((g) * ((a) - (b)))

/* dT = der(cap[i, j].T) at the temperatures T, both row by row (n x n). */
TWIN_API void grid_twin_derivatives(size_t n, const double *T, double *dT)
{
    /* from_above[j]: down[i - 1, j].Q_flow, the flow into row i from the row above. */
    double from_above[n];
    size_t i, j;
    for (i = 0; i < n; i++) {
        /* from_left: right[i, j - 1].Q_flow. */
        double from_left = 0.0;
        for (j = 0; j < n; j++) {
            size_t k = i * n + j;
            double sum = -0.0;
            if (k == 0) {
                sum += -FLOW(G_feed, T_source, T[0]);
            }
            if (j > 0) {
                sum += -from_left;
            }
            if (j + 1 < n) {
                from_left = FLOW(G, T[k], T[k + 1]);
                sum += from_left;
            }
            if (i > 0) {
                sum += -from_above[j];
            }
            if (i + 1 < n) {
                from_above[j] = FLOW(G, T[k], T[k + n]);
                sum += from_above[j];
            }
            dT[k] = -sum / C;
        }
    }
}

/* The variables of a capacitor and of a conductor, as the FMU exposes them. */
typedef struct {
    double port_T, port_Q_flow, T, der_T;
} Capacitor;

typedef struct {
    double port_a_T, port_a_Q_flow, port_b_T, port_b_Q_flow, Q_flow;
} Conductor;

/* Cell [i, j]: cap[i, j], right[i, j] and down[i, j] (those past the last
 * column or row do not exist and are left alone). */
typedef struct {
    Capacitor cap;
    Conductor right, down;
} Cell;

/* What is not repeated: the source's port and the feed. */
typedef struct {
    double source_port_T, source_port_Q_flow;
    Conductor feed;
} Ends;

/* The number of doubles grid_twin_all stores at n. */
TWIN_API size_t grid_twin_variables(size_t n)
{
    return (n * n * sizeof(Cell) + sizeof(Ends)) / sizeof(double);
}

static void conduct(Conductor *g, double conductance, double a, double b)
{
    g->port_a_T = a;
    g->port_b_T = b;
    g->Q_flow = FLOW(conductance, a, b);
    g->port_a_Q_flow = g->Q_flow;
    g->port_b_Q_flow = -g->Q_flow;
}

/* As grid_twin_derivatives, and every variable into `variables`: n x n Cell
 * records row by row, then the Ends (grid_twin_variables(n) doubles). */
TWIN_API void grid_twin_all(size_t n, const double *T, double *dT, double *variables)
{
    Cell *v = (Cell *)variables;
    Ends *ends = (Ends *)(v + n * n);
    size_t i, j;
    ends->source_port_T = T_source;
    conduct(&ends->feed, G_feed, T_source, T[0]);
    ends->source_port_Q_flow = -ends->feed.port_a_Q_flow;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            size_t k = i * n + j;
            Cell *e = v + k;
            e->cap.T = T[k];
            e->cap.port_T = T[k];
            if (j + 1 < n) {
                conduct(&e->right, G, T[k], T[k + 1]);
            }
            if (i + 1 < n) {
                conduct(&e->down, G, T[k], T[k + n]);
            }
        }
    }
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            size_t k = i * n + j;
            Cell *e = v + k;
            double sum = -0.0;
            if (k == 0) {
                sum += ends->feed.port_b_Q_flow;
            }
            if (j > 0) {
                sum += v[k - 1].right.port_b_Q_flow;
            }
            if (j + 1 < n) {
                sum += e->right.port_a_Q_flow;
            }
            if (i > 0) {
                sum += v[k - n].down.port_b_Q_flow;
            }
            if (i + 1 < n) {
                sum += e->down.port_a_Q_flow;
            }
            e->cap.port_Q_flow = -sum;
            e->cap.der_T = e->cap.port_Q_flow / C;
            dT[k] = e->cap.der_T;
        }
    }
}
