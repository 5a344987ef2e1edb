/* A hand-written C twin of Acc4.Chain (test_data/language/Acc4.mo): a
 * source at 400 K, then n pairs of a conductor (G = 2) and a capacitor
 * (C = 50), link[i] between capacitor i - 1 (or the source) and capacitor i.
 * It is what a programmer writes for these equations, in the order of
 * operations of the Modelica source, so its derivatives must agree with
 * the FMU's bit for bit. The benchmark and the test compile it with
 * mofmu's own compiler flags.
 *
 * Two entries: chain_twin_derivatives computes only the derivatives (a
 * programmer's loop over the states), chain_twin_all also stores every
 * variable the FMU exposes, nine per element, as a model exchange FMU must
 * be able to return them from fmi2GetReal. The FMU's runtime cost against
 * the second is the cost of interpreting a schedule over compiled classes;
 * against the first, also the cost of keeping every variable. */
#include <stddef.h>

#define TWIN_API __attribute__((visibility("default")))

static const double G = 2.0, C = 50.0, T_source = 400.0;

/* A conductor's heat flow from its port_a at temperature a to its port_b at b. */
#define FLOW(a, b) (G * ((a) - (b)))

/* dT = der(cap.T) at the capacitor temperatures T. */
TWIN_API void chain_twin_derivatives(size_t n, const double *T, double *dT)
{
    /* q: link[i].Q_flow, from capacitor i - 1 (or the source) into i. */
    double q = FLOW(T_source, T[0]);
    size_t i;
    for (i = 0; i + 1 < n; i++) {
        double next = FLOW(T[i], T[i + 1]);
        /* The connection set {link[i].port_b, cap[i].port, link[i + 1].port_a}:
         * the capacitor takes what the two conductor ports do not. */
        dT[i] = -(-q + next) / C;
        q = next;
    }
    dT[n - 1] = -(-q) / C;
}

/* The variables of one element, as the FMU exposes them. */
typedef struct {
    double link_Q_flow, link_a_T, link_a_Q_flow, link_b_T, link_b_Q_flow;
    double cap_T, cap_port_T, cap_port_Q_flow, der_cap_T;
} Element;

/* As chain_twin_derivatives, and every variable into `variables`: n
 * Element records. */
TWIN_API void chain_twin_all(size_t n, const double *T, double *dT, double *variables)
{
    Element *v = (Element *)variables;
    size_t i;
    for (i = 0; i < n; i++) {
        Element *e = v + i;
        e->cap_T = T[i];
        e->cap_port_T = T[i];
        e->link_a_T = i == 0 ? T_source : T[i - 1];
        e->link_b_T = T[i];
        e->link_Q_flow = FLOW(e->link_a_T, e->link_b_T);
        e->link_a_Q_flow = e->link_Q_flow;
        e->link_b_Q_flow = -e->link_Q_flow;
        if (i > 0) {
            Element *p = v + i - 1;
            p->cap_port_Q_flow = -(p->link_b_Q_flow + e->link_a_Q_flow);
            p->der_cap_T = p->cap_port_Q_flow / C;
            dT[i - 1] = p->der_cap_T;
        }
    }
    v[n - 1].cap_port_Q_flow = -(v[n - 1].link_b_Q_flow);
    v[n - 1].der_cap_T = v[n - 1].cap_port_Q_flow / C;
    dT[n - 1] = v[n - 1].der_cap_T;
}
