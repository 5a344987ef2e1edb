/* The model of the decay test FMU: what mofmu would generate. */
#include "decay.h"

void decay_evaluate(double *R)
{
    R[DECAY_VR_DER_X] = -R[DECAY_VR_K] * R[DECAY_VR_X];
}

void decay_start_values(double *R)
{
    R[DECAY_VR_X] = 1.0;
    R[DECAY_VR_DER_X] = 0.0;
    R[DECAY_VR_K] = 1.0;
}
