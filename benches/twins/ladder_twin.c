/* Hand-written C twin of the thermal ladder of issue 60
 * (test_data/ladder/Ladder.mo, Ladder.Ladder, and LadderInner.Ladder, the
 * same ladder with its parameters in an inner world), with the fixtures'
 * parameter values, as a person would write it. The states are the FMU's, in
 * its order: a[1..n].T, then b[1..n].T, then c[1..3].T (n at least 2).
 * ladder_twin_derivatives computes only the derivatives;
 * ladder_twin_all also stores every variable the FMU exposes, as a model
 * exchange FMU must be able to return them from fmi2GetReal.
 *
 * A capacitor takes the heat that its connection set's conductor ports do
 * not: port.Q_flow = -(sum of the conductor ports' Q_flow), summed left to
 * right in mofmu's order of the set, which is the order of the connects
 * (a[i]: ga[i - 1].port_b, ga[i].port_a, rung[i].port_a; b[n]: gb[n - 1].port_b,
 * ck[1..3].port_b, rung[n].port_b). The sums are written as the FMU
 * forms them, -((x + y) + z) and not ((-x) - y) - z, which differs in the
 * sign of an exact zero; so the derivatives equal the FMU's bit for bit when
 * compiled as the kernels are (-std=c99 -O2 -ffp-contract=off). */
#include <stddef.h>

#define TWIN_API __attribute__((visibility("default")))

static const double Ca = 50.0, Cb = 80.0, Gs = 2.0, Gr = 0.5;
static const double Ck[3] = {1.0, 2.0, 3.0}, G_ck = 1.0;
static const double G_feed = 10.0, T_source = 400.0;

/* A conductor's heat flow from its port_a at temperature a to its port_b at b. */
#define FLOW(g, a, b) ((g) * ((a) - (b)))

/* dx = the derivatives at the states x (2 n + 3 of each). */
TWIN_API void ladder_twin_derivatives(size_t n, const double *x, double *dx)
{
    const double *Ta = x, *Tb = x + n, *Tc = x + 2 * n;
    double *dTa = dx, *dTb = dx + n, *dTc = dx + 2 * n;
    /* qa, qb: the flows along the chains into element i from element i - 1
     * (into a[1] from the feed; none into b[1]). */
    double qa = FLOW(G_feed, T_source, Ta[0]), qb = 0.0;
    size_t i, k;
    for (i = 0; i + 1 < n; i++) {
        double next_a = FLOW(Gs, Ta[i], Ta[i + 1]);
        double next_b = FLOW(Gs, Tb[i], Tb[i + 1]);
        double rung = FLOW(Gr, Ta[i], Tb[i]);
        dTa[i] = -(-qa + next_a + rung) / Ca;
        /* b[1]'s set has no chain port before its own. */
        dTb[i] = (i == 0 ? -(next_b + -rung) : -(-qb + next_b + -rung)) / Cb;
        qa = next_a;
        qb = next_b;
    }
    double rung = FLOW(Gr, Ta[n - 1], Tb[n - 1]), into_b = -qb;
    dTa[n - 1] = -(-qa + rung) / Ca;
    for (k = 0; k < 3; k++) {
        double q = FLOW(G_ck, Tc[k], Tb[n - 1]);
        into_b += -q;
        dTc[k] = -q / Ck[k];
    }
    dTb[n - 1] = -(into_b + -rung) / Cb;
}

/* The variables of a capacitor and of a conductor, as the FMU exposes them. */
typedef struct {
    double port_T, port_Q_flow, T, der_T;
} Capacitor;

typedef struct {
    double port_a_T, port_a_Q_flow, port_b_T, port_b_Q_flow, Q_flow;
} Conductor;

/* Element i of the ladder: a[i], b[i], ga[i], gb[i], rung[i] (ga[n] and gb[n]
 * do not exist and are left alone). */
typedef struct {
    Capacitor a, b;
    Conductor ga, gb, rung;
} Element;

/* What is not repeated: the source's port, the feed, c[1..3] and ck[1..3]. */
typedef struct {
    double source_port_T, source_port_Q_flow;
    Conductor feed;
    Capacitor c[3];
    Conductor ck[3];
} Ends;

/* The number of doubles ladder_twin_all stores at n. */
TWIN_API size_t ladder_twin_variables(size_t n)
{
    return (n * sizeof(Element) + sizeof(Ends)) / sizeof(double);
}

static void conduct(Conductor *g, double G, double a, double b)
{
    g->port_a_T = a;
    g->port_b_T = b;
    g->Q_flow = FLOW(G, a, b);
    g->port_a_Q_flow = g->Q_flow;
    g->port_b_Q_flow = -g->Q_flow;
}

static void hold(Capacitor *c, double T)
{
    c->T = T;
    c->port_T = T;
}

static void heat(Capacitor *c, double Q_flow, double C, double *dT)
{
    c->port_Q_flow = Q_flow;
    c->der_T = Q_flow / C;
    *dT = c->der_T;
}

/* As ladder_twin_derivatives, and every variable into `variables`: n
 * Element records, then the Ends (ladder_twin_variables(n) doubles). */
TWIN_API void ladder_twin_all(size_t n, const double *x, double *dx, double *variables)
{
    const double *Ta = x, *Tb = x + n, *Tc = x + 2 * n;
    double *dTa = dx, *dTb = dx + n, *dTc = dx + 2 * n;
    Element *v = (Element *)variables;
    Ends *ends = (Ends *)(v + n);
    size_t i, k;
    ends->source_port_T = T_source;
    conduct(&ends->feed, G_feed, T_source, Ta[0]);
    ends->source_port_Q_flow = -ends->feed.port_a_Q_flow;
    for (i = 0; i < n; i++) {
        Element *e = v + i;
        hold(&e->a, Ta[i]);
        hold(&e->b, Tb[i]);
        if (i + 1 < n) {
            conduct(&e->ga, Gs, Ta[i], Ta[i + 1]);
            conduct(&e->gb, Gs, Tb[i], Tb[i + 1]);
        }
        conduct(&e->rung, Gr, Ta[i], Tb[i]);
    }
    for (k = 0; k < 3; k++) {
        hold(&ends->c[k], Tc[k]);
        conduct(&ends->ck[k], G_ck, Tc[k], Tb[n - 1]);
        heat(&ends->c[k], -ends->ck[k].port_a_Q_flow, Ck[k], &dTc[k]);
    }
    for (i = 0; i < n; i++) {
        Element *e = v + i;
        double into_a = i == 0 ? ends->feed.port_b_Q_flow : v[i - 1].ga.port_b_Q_flow;
        double into_b = i == 0 ? 0.0 : v[i - 1].gb.port_b_Q_flow;
        if (i + 1 < n) {
            into_a += e->ga.port_a_Q_flow;
            into_b = i == 0 ? e->gb.port_a_Q_flow : into_b + e->gb.port_a_Q_flow;
        } else {
            for (k = 0; k < 3; k++) {
                into_b += ends->ck[k].port_b_Q_flow;
            }
        }
        heat(&e->a, -(into_a + e->rung.port_a_Q_flow), Ca, &dTa[i]);
        heat(&e->b, -(into_b + e->rung.port_b_Q_flow), Cb, &dTb[i]);
    }
}
