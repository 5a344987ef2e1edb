/* The FMI 2.0 logger callback is a C variadic function, which stable Rust cannot define.
 * This shim formats the printf-style message with vsnprintf and hands the finished text
 * to a plain function whose pointer is the first field of the component environment,
 * so the C side never needs to know a Rust symbol name. */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef void (*mofmu_log_forward)(void *environment, const char *instance_name, int status,
                                  const char *category, const char *message);

/* Matches the #[repr(C)] header of the Rust-owned log environment. */
typedef struct {
    mofmu_log_forward forward;
} mofmu_log_environment;

void mofmu_harness_logger(void *environment, const char *instance_name, int status,
                          const char *category, const char *message, ...) {
    if (environment == NULL) {
        return;
    }
    mofmu_log_forward forward = ((mofmu_log_environment *)environment)->forward;
    if (message == NULL) {
        forward(environment, instance_name, status, category, "");
        return;
    }

    char small[1024];
    va_list args;
    va_list args_again;
    va_start(args, message);
    va_copy(args_again, args);
    int needed = vsnprintf(small, sizeof small, message, args);
    va_end(args);

    if (needed < 0) {
        /* A broken format string: pass it on unformatted rather than lose it. */
        forward(environment, instance_name, status, category, message);
    } else if ((size_t)needed < sizeof small) {
        forward(environment, instance_name, status, category, small);
    } else {
        char *large = malloc((size_t)needed + 1);
        if (large == NULL) {
            forward(environment, instance_name, status, category, small);
        } else {
            vsnprintf(large, (size_t)needed + 1, message, args_again);
            forward(environment, instance_name, status, category, large);
            free(large);
        }
    }
    va_end(args_again);
}
