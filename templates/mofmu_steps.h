/* The arithmetic of a connection copy, shared by the schedule interpreter
 * (mofmu_schedule.inc) and the compiled schedules mofmu generates, so that
 * the two tiers compute every copy with the same operations in the same
 * order and agree to the last bit.
 *
 * Plain C99 over mofmu_model.h; every function is static inline, so a unit
 * that includes this header and uses none of them compiles to nothing. */
#ifndef MOFMU_STEPS_H
#define MOFMU_STEPS_H

#include "mofmu_model.h"

/* A copy in round `round` of its repeat (0 outside one). */
static inline void mofmu_copy_step(const mofmu_system *sys, const mofmu_step *st, ptrdiff_t round, double *R)
{
    const uint32_t *src = sys->source_offset + st->first_source;
    const int32_t *stride = sys->source_stride + st->first_source;
    const unsigned char *negative = sys->source_negative + st->first_source;
    double *target = R + st->target + round * st->stride;
    size_t e, k;
    if (st->len == 1 && st->n_sources == 1) {
        /* A connection of two scalars, the most common copy: as below,
         * without the loops. */
        double t = R[src[0] + round * stride[0]];
        target[0] = st->coefficient * (negative[0] ? -t : t);
        return;
    }
    for (e = 0; e < st->len; e++) {
        double sum = 0.0;
        if (st->n_sources > 0) {
            double t = R[src[0] + round * stride[0] + (ptrdiff_t)e];
            sum = negative[0] ? -t : t;
            for (k = 1; k < st->n_sources; k++) {
                t = R[src[k] + round * stride[k] + (ptrdiff_t)e];
                sum = negative[k] ? sum - t : sum + t;
            }
        }
        target[e] = st->coefficient * sum;
    }
}

/* A copy of one scalar from one source, over every round of its repeat:
 * the common connection of an array of components, as a strided loop. */
static inline void mofmu_copy_rounds_1(const mofmu_system *sys, const mofmu_step *st, ptrdiff_t first,
                          size_t count, double *R)
{
    size_t src = st->first_source;
    ptrdiff_t a = sys->source_stride[src], b = st->stride, r;
    const double *from = R + sys->source_offset[src] + first * a;
    double *to = R + st->target + first * b;
    double c = sys->source_negative[src] ? -st->coefficient : st->coefficient;
    if (c == 1.0) {
        for (r = 0; r < (ptrdiff_t)count; r++) {
            to[r * b] = from[r * a];
        }
    } else {
        /* coefficient * (-x) is -(coefficient * x), bit for bit. */
        for (r = 0; r < (ptrdiff_t)count; r++) {
            to[r * b] = c * from[r * a];
        }
    }
}

/* A copy of one scalar from two sources, over every round of its repeat
 * (a flow balance of an array of components), as mofmu_copy_step computes it. */
static inline void mofmu_copy_rounds_2(const mofmu_system *sys, const mofmu_step *st, ptrdiff_t first,
                          size_t count, double *R)
{
    size_t src = st->first_source;
    ptrdiff_t a0 = sys->source_stride[src], a1 = sys->source_stride[src + 1], b = st->stride, r;
    const double *f0 = R + sys->source_offset[src] + first * a0;
    const double *f1 = R + sys->source_offset[src + 1] + first * a1;
    double *to = R + st->target + first * b;
    int n0 = sys->source_negative[src], n1 = sys->source_negative[src + 1];
    double c = st->coefficient;
    for (r = 0; r < (ptrdiff_t)count; r++) {
        double t0 = f0[r * a0], t1 = f1[r * a1];
        double sum = n0 ? -t0 : t0;
        sum = n1 ? sum - t1 : sum + t1;
        to[r * b] = c * sum;
    }
}

/* A copy over `count` rounds of its repeat from round `first`, as one loop. */
static inline void mofmu_copy_rounds(const mofmu_system *sys, const mofmu_step *st, size_t first,
                        size_t count, double *R)
{
    size_t r;
    if (st->len == 1 && st->n_sources == 1) {
        mofmu_copy_rounds_1(sys, st, (ptrdiff_t)first, count, R);
    } else if (st->len == 1 && st->n_sources == 2) {
        mofmu_copy_rounds_2(sys, st, (ptrdiff_t)first, count, R);
    } else {
        for (r = first; r < first + count; r++) {
            mofmu_copy_step(sys, st, (ptrdiff_t)r, R);
        }
    }
}

#endif
