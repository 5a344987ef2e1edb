/* mofmu_max and mofmu_min (mofmu_model.h) against C99's fmax and fmin on
 * every pair of a grid of awkward values: NaN on either side or both, the
 * infinities, both zeros, subnormals and ordinary numbers. The result must
 * be the same value (a NaN where fmax gives a NaN); of two zeros of
 * different signs, C99 lets fmax return either, so only the value is
 * compared there. Prints "max_min: N pairs agree" and exits 0, or names the
 * first pair that differs and exits 1. */
#include <math.h>
#include <stdio.h>

#include "mofmu_model.h"

static int same(double x, double y)
{
    if (isnan(x) || isnan(y)) {
        return isnan(x) && isnan(y);
    }
    return x == y;
}

int main(void)
{
    const double grid[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -3.75,
                           4.9e-324, -4.9e-324, 1e308, -1e308};
    const int n = (int)(sizeof grid / sizeof grid[0]);
    int i, j, pairs = 0;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            const double a = grid[i], b = grid[j];
            if (!same(mofmu_max(a, b), fmax(a, b)) || !same(mofmu_min(a, b), fmin(a, b))) {
                printf("max_min: (%g, %g): mofmu_max %g fmax %g, mofmu_min %g fmin %g\n", a, b,
                       mofmu_max(a, b), fmax(a, b), mofmu_min(a, b), fmin(a, b));
                return 1;
            }
            pairs++;
        }
    }
    printf("max_min: %d pairs agree\n", pairs);
    return 0;
}
