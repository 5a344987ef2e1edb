/* Interface between the hand-written FMI layer and the model of the decay
 * test FMU (dx/dt = -k*x), standing in for mofmu's runtime and generated
 * code in the packaging tests. The GUID is defined by the per-model system
 * file, which the test generates from the rendered table. */
#ifndef DECAY_H
#define DECAY_H

enum { DECAY_VR_X = 0, DECAY_VR_DER_X = 1, DECAY_VR_K = 2, DECAY_N_REALS = 3 };

/* Computes der(x) in R[DECAY_VR_DER_X] from the other reals. */
void decay_evaluate(double *R);

/* Start values of all reals. */
void decay_start_values(double *R);

extern const char decay_guid[];

#endif
