/* The speed of glibc's memcpy of one 80,000-byte block (the rod's 10^4 states) by the page
 * offsets of its source and destination, in ns per double (this thread's CPU time). On AMD
 * Zen 3 a destination 8 to 56 bytes past the source modulo 4096 runs about twenty times slower
 * (`rep movsb`), which is why the runtime copies states with its own loop and why ab.c places
 * its arrays (docs/benchmarks.md, "The rod regression of issue 40").
 *   cc -std=c99 -O2 -o memcpy_window memcpy_window.c && ./memcpy_window */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(void)
{
    const size_t bytes = 80000;
    const int offsets[] = {0, 8, 16, 64, 2048, 4032, 4088}, count = 7, reps = 20000;
    char *a = NULL, *b = NULL;
    if (posix_memalign((void **)&a, 4096, bytes + 8192) || posix_memalign((void **)&b, 4096, bytes + 8192)) {
        return 1;
    }
    memset(a, 1, bytes + 8192);
    memset(b, 2, bytes + 8192);
    printf("source \\ destination offset:");
    for (int j = 0; j < count; j++) {
        printf(" %6d", offsets[j]);
    }
    printf("\n");
    for (int i = 0; i < count; i++) {
        printf("%28d:", offsets[i]);
        for (int j = 0; j < count; j++) {
            char *from = a + offsets[i], *to = b + offsets[j];
            double start = cpu_now();
            for (int r = 0; r < reps; r++) {
                memcpy(to, from, bytes);
                /* Keeps the copies from being merged or dropped. */
                __asm__ volatile("" : : "r"(to) : "memory");
            }
            printf(" %6.2f", (cpu_now() - start) / reps * 1e9 / (double)(bytes / 8));
        }
        printf("\n");
    }
    return 0;
}
