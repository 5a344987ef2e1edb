/* mofmu: the FMI 3.0 entry points (Model Exchange and Co-Simulation).
 *
 * The FMU of `mofmu export --fmi-version 3` compiles this unit instead of
 * mofmu_runtime.c: it includes the static runtime whole (one translation
 * unit, as the runtime's parts are) and adds the fmi3 functions over the same
 * core, so there is one evaluation, one state machine and one FMU state
 * for both standards. An FMI 3 instance is the runtime's instance; each
 * fmi3 function checks and converts its arguments and calls the fmi2
 * function of the same meaning, whose allowed-state masks, argument checks
 * and messages apply unchanged.
 *
 * Value references. FMI 3 numbers all variables in one space; the runtime
 * numbers Reals (indices into R), Integers and Booleans separately. The
 * model description adds a base per table: Float64 variables keep their
 * index in R, Int32 and Enumeration (Int64) variables are
 * MOFMU_FMI3_INTEGER_BASE + index, Booleans MOFMU_FMI3_BOOLEAN_BASE +
 * index, and the event indicators are one Float64 array at
 * MOFMU_FMI3_INDICATORS (the bases are repeated in src/fmu/description/fmi3.rs). A
 * one-dimensional Real array of the description (resources/mofmu_fmi3.bin)
 * is named by its first element's index and stands for all its elements,
 * which lie at a stride in R: 1 for an array of Reals (rod.T), the number
 * of Reals per instance for a member of a component array (cap.T).
 *
 * Structural parameters: configuration mode lays the instance out for a new
 * size from resources/mofmu_struct.bin (its own section below). Not offered:
 * reconfiguration mode, clocks and scheduled execution, event mode in
 * Co-Simulation, intermediate update; those functions return fmi3Error
 * with a message.
 *
 * Its own parts, included below as the runtime includes its parts (not
 * units of their own): mofmu_fmi3_arrays.inc, mofmu_fmi3_structural.inc
 * and mofmu_fmi3_derivatives.inc. */

#define MOFMU_FMI3_UNIT
#include "mofmu_runtime.c"
#include "mofmu_fmi3.h"

#define MOFMU_FMI3_INTEGER_BASE 0x40000000u
#define MOFMU_FMI3_BOOLEAN_BASE 0x60000000u
#define MOFMU_FMI3_INDICATORS 0x7fffff00u

#define MOFMU_FMI3_FILE "mofmu_fmi3.bin"

/* What an FMI 3 instance keeps beside the runtime's instance, reached as
 * the instance's logger environment: the importer's FMI 3 logger, behind
 * the runtime's FMI 2 logger (which the instance calls with the constant
 * format "%s"), and the Float64 arrays of the description. */
typedef struct {
    fmi3LogMessageCallback log;
    fmi3InstanceEnvironment environment;
    /* The arrays (resources/mofmu_fmi3.bin, written from the grouping that
     * wrote the description): each one's value reference, the index in R of
     * its first element, and its number of elements, by ascending value
     * reference. Every other Float64 value reference is a scalar. */
    uint32_t *array_vr;
    uint32_t *array_len;
    /* The distance in R between consecutive elements (1 but in a member
     * array, cap.T: the Reals of one instance of a component array). */
    uint32_t *array_stride;
    size_t n_arrays;
    /* The arrays' value references in the description (array_vr at the
     * exported size; array_vr follows a structural parameter). */
    uint32_t *array_vr0;
    /* With strided arrays (which interleave), per R index: nonzero for an
     * array's element other than its first; NULL without them (the arrays
     * are then disjoint ranges, searched as such). n_inner entries. */
    unsigned char *inner;
    size_t n_inner;
    /* The structural parameter (resources/mofmu_struct.bin), or NULL. */
    struct Fmi3Structural *st;
    /* The fmi3 function running, when the fmi2 function it calls has more
     * than one FMI 3 name (fmi2GetInteger serves fmi3GetInt32 and
     * fmi3GetInt64): the logger names it instead. NULL otherwise. */
    const char *current;
    fmi3Boolean early_return_allowed; /* fmi3InstantiateCoSimulation's */
} Fmi3Logger;

/* The FMI 3 names of what the runtime's messages name in FMI 2 words: the
 * fmi2 function each fmi3 function wraps, the statuses and the states.
 * A word not listed here keeps its name but for the prefix (fmi2Terminate
 * is fmi3Terminate). */
static const char *const fmi3_words[][2] = {
    {"fmi2GetReal", "fmi3GetFloat64"},
    {"fmi2SetReal", "fmi3SetFloat64"},
    {"fmi2GetInteger", "fmi3GetInt32"},
    {"fmi2SetInteger", "fmi3SetInt32"},
    {"fmi2GetDerivatives", "fmi3GetContinuousStateDerivatives"},
    {"fmi2NewDiscreteStates", "fmi3UpdateDiscreteStates"},
    {"fmi2SetupExperiment", "fmi3EnterInitializationMode"},
    {"fmi2Instantiate", "fmi3Instantiate"},
    {"fmi2GetFMUstate", "fmi3GetFMUState"},
    {"fmi2SetFMUstate", "fmi3SetFMUState"},
    {"fmi2FreeFMUstate", "fmi3FreeFMUState"},
    {"fmi2SerializedFMUstateSize", "fmi3SerializedFMUStateSize"},
    {"fmi2SerializeFMUstate", "fmi3SerializeFMUState"},
    {"fmi2DeSerializeFMUstate", "fmi3DeserializeFMUState"},
    {"fmi2GetRealOutputDerivatives", "fmi3GetOutputDerivatives"},
    {"fmi2GetRealStatus", "fmi3DoStep"},
    {"fmi2SetRealInputDerivatives", "fmi3SetFloat64"},
    {"fmi2Real", "fmi3Float64"},
    {"fmi2Integer", "fmi3Int32"},
    {"fmi2Boolean", "fmi3Boolean"},
    {"fmi2ModelExchange", "Model Exchange"},
    {"fmi2CoSimulation", "Co-Simulation"},
    {"instantiated", "Instantiated"},
    {"initializationMode", "InitializationMode"},
    {"eventMode", "EventMode"},
    {"continuousTimeMode", "ContinuousTimeMode"},
    {"terminated", "Terminated"},
    {"stepComplete", "StepMode"},
    {"stepFailed", "StepDiscarded"},
    {"stepCanceled", "StepDiscarded"},
};

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

/* `text` with its FMI 2 words in FMI 3 words (fmi3_words), the leading
 * function named `current` when one is given, into `out`. A state name is
 * translated only after "state " (the runtime's "not allowed in state X"),
 * so that ordinary words stay as they are. */
static void fmi3_wording(const char *text, const char *current, char *out, size_t size)
{
    size_t at = 0, i = 0;
    int first = 1;
    while (text[i] != '\0' && at + 1 < size) {
        size_t len = 0, k;
        const char *word = NULL;
        if (!word_char(text[i]) || (i > 0 && word_char(text[i - 1]))) {
            out[at++] = text[i++];
            continue;
        }
        while (word_char(text[i + len])) {
            len++;
        }
        if (first && current != NULL && len > 4 && strncmp(text + i, "fmi2", 4) == 0) {
            word = current;
        }
        for (k = 0; word == NULL && k < sizeof fmi3_words / sizeof fmi3_words[0]; k++) {
            int is_state = fmi3_words[k][0][0] != 'f';
            if (strlen(fmi3_words[k][0]) == len && strncmp(text + i, fmi3_words[k][0], len) == 0 &&
                (!is_state || (i >= 6 && strncmp(text + i - 6, "state ", 6) == 0))) {
                word = fmi3_words[k][1];
            }
        }
        first = 0;
        if (word != NULL) {
            size_t w = strlen(word);
            if (at + w >= size) {
                break;
            }
            memcpy(out + at, word, w);
            at += w;
        } else if (len > 4 && strncmp(text + i, "fmi2", 4) == 0) {
            if (at + len >= size) {
                break;
            }
            memcpy(out + at, "fmi3", 4);
            memcpy(out + at + 4, text + i + 4, len - 4);
            at += len;
        } else {
            if (at + len >= size) {
                break;
            }
            memcpy(out + at, text + i, len);
            at += len;
        }
        i += len;
    }
    out[at] = '\0';
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 5, 6)))
#endif
static void fmi3_logger(fmi2ComponentEnvironment environment, fmi2String instanceName,
                        fmi2Status status, fmi2String category, fmi2String message, ...)
{
    const Fmi3Logger *logger = (const Fmi3Logger *)environment;
    char text[1200], words[1600];
    va_list args;
    (void)instanceName;
    if (logger == NULL || logger->log == NULL) {
        return;
    }
    va_start(args, message);
    vsnprintf(text, sizeof text, message, args);
    va_end(args);
    /* The runtime words its messages in FMI 2 terms; an FMI 3 importer
     * reads them in its own. */
    fmi3_wording(text, logger->current, words, sizeof words);
    logger->log(logger->environment, (fmi3Status)status, category, words);
}

#include "mofmu_fmi3_arrays.inc"

static int configuring(const Instance *inst);
static fmi3Status refuse3(fmi3Instance instance, const char *function, const char *why);

#include "mofmu_fmi3_structural.inc"

static fmi3Instance instantiate3(fmi3String instanceName, fmi2Type type,
                                 fmi3String instantiationToken, fmi3String resourcePath,
                                 fmi3Boolean loggingOn, fmi3InstanceEnvironment environment,
                                 fmi3LogMessageCallback logMessage, fmi3Boolean earlyReturn)
{
    Fmi3Logger *logger = (Fmi3Logger *)allocate(1, sizeof *logger);
    fmi2Component c;
    if (logger == NULL) {
        return NULL;
    }
    logger->log = logMessage;
    logger->environment = environment;
    logger->early_return_allowed = earlyReturn;
    {
        const fmi2CallbackFunctions functions = {fmi3_logger, NULL, NULL, NULL, logger};
        logger->current = type == fmi2CoSimulation ? "fmi3InstantiateCoSimulation"
                                                   : "fmi3InstantiateModelExchange";
        c = fmi2Instantiate(instanceName, type, instantiationToken, resourcePath, &functions,
                            fmi2False, loggingOn ? fmi2True : fmi2False);
        logger->current = NULL;
    }
    if (c == NULL) {
        free(logger);
        return NULL;
    }
    {
        char error[600];
        const char *problem = load_arrays(logger, resourcePath, as_instance(c)->sys->n_reals,
                                          error, sizeof error);
        if (problem == NULL) {
            problem = load_structural(&logger->st, resourcePath, as_instance(c)->sys->n_reals,
                                      error, sizeof error);
        }
        if (problem == NULL) {
            problem = arrays_fit_segments(logger);
        }
        /* An FMU exported at a large size ships the image at a small one
         * and starts at the large one: laid out for it here. */
        if (problem == NULL && logger->st != NULL && logger->st->start != logger->st->n &&
            resize(as_instance(c), type == fmi2CoSimulation ? "fmi3InstantiateCoSimulation"
                                                            : "fmi3InstantiateModelExchange",
                   logger->st->start) != fmi3OK) {
            problem = "the tables at the start size";
        }
        if (problem != NULL) {
            log_error(as_instance(c), "%s: cannot load the arrays of the model: %s",
                      type == fmi2CoSimulation ? "fmi3InstantiateCoSimulation"
                                               : "fmi3InstantiateModelExchange",
                      problem);
            fmi2FreeInstance(c);
            free(logger->array_vr);
            free(logger->array_len);
            free(logger->array_vr0);
            free(logger->array_stride);
            free(logger->inner);
            free_structural(logger->st);
            free(logger);
            return NULL;
        }
    }
    return c;
}

MOFMU_EXPORT const char *fmi3GetVersion(void)
{
    return MOFMU_FMI3_VERSION;
}

MOFMU_EXPORT fmi3Status fmi3SetDebugLogging(fmi3Instance instance, fmi3Boolean loggingOn,
                                            size_t nCategories, const fmi3String categories[])
{
    return (fmi3Status)fmi2SetDebugLogging(instance, loggingOn ? fmi2True : fmi2False,
                                           nCategories, categories);
}

MOFMU_EXPORT fmi3Instance fmi3InstantiateModelExchange(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,
    fmi3Boolean visible, fmi3Boolean loggingOn, fmi3InstanceEnvironment instanceEnvironment,
    fmi3LogMessageCallback logMessage)
{
    (void)visible;
    return instantiate3(instanceName, fmi2ModelExchange, instantiationToken, resourcePath,
                        loggingOn, instanceEnvironment, logMessage, false);
}

MOFMU_EXPORT fmi3Instance fmi3InstantiateCoSimulation(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,
    fmi3Boolean visible, fmi3Boolean loggingOn, fmi3Boolean eventModeUsed,
    fmi3Boolean earlyReturnAllowed, const fmi3ValueReference requiredIntermediateVariables[],
    size_t nRequiredIntermediateVariables, fmi3InstanceEnvironment instanceEnvironment,
    fmi3LogMessageCallback logMessage, fmi3IntermediateUpdateCallback intermediateUpdate)
{
    (void)visible;
    (void)requiredIntermediateVariables;
    (void)nRequiredIntermediateVariables;
    (void)intermediateUpdate;
    if (eventModeUsed) {
        /* hasEventMode is false: the importer must not ask for it. */
        if (logMessage != NULL) {
            logMessage(instanceEnvironment, fmi3Error, "logStatusError",
                       "fmi3InstantiateCoSimulation: this FMU has no event mode in "
                       "Co-Simulation (hasEventMode=\"false\"); eventModeUsed must be false");
        }
        return NULL;
    }
    return instantiate3(instanceName, fmi2CoSimulation, instantiationToken, resourcePath,
                        loggingOn, instanceEnvironment, logMessage, earlyReturnAllowed);
}

MOFMU_EXPORT fmi3Instance fmi3InstantiateScheduledExecution(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,
    fmi3Boolean visible, fmi3Boolean loggingOn, fmi3InstanceEnvironment instanceEnvironment,
    fmi3LogMessageCallback logMessage, fmi3ClockUpdateCallback clockUpdate,
    fmi3LockPreemptionCallback lockPreemption, fmi3UnlockPreemptionCallback unlockPreemption)
{
    (void)instanceName;
    (void)instantiationToken;
    (void)resourcePath;
    (void)visible;
    (void)loggingOn;
    (void)clockUpdate;
    (void)lockPreemption;
    (void)unlockPreemption;
    if (logMessage != NULL) {
        logMessage(instanceEnvironment, fmi3Error, "logStatusError",
                   "fmi3InstantiateScheduledExecution: this FMU offers Model Exchange and "
                   "Co-Simulation, not Scheduled Execution");
    }
    return NULL;
}

MOFMU_EXPORT void fmi3FreeInstance(fmi3Instance instance)
{
    Instance *inst = as_instance(instance);
    void *logger;
    if (inst == NULL) {
        return;
    }
    logger = inst->environment;
    fmi2FreeInstance(instance);
    free(((Fmi3Logger *)logger)->array_vr);
    free(((Fmi3Logger *)logger)->array_vr0);
    free_structural(((Fmi3Logger *)logger)->st);
    free(((Fmi3Logger *)logger)->array_len);
    free(((Fmi3Logger *)logger)->array_stride);
    free(((Fmi3Logger *)logger)->inner);
    free(logger);
}

MOFMU_EXPORT fmi3Status fmi3EnterInitializationMode(fmi3Instance instance,
                                                    fmi3Boolean toleranceDefined,
                                                    fmi3Float64 tolerance, fmi3Float64 startTime,
                                                    fmi3Boolean stopTimeDefined,
                                                    fmi3Float64 stopTime)
{
    fmi2Status s;
    if (configuring(as_instance(instance))) {
        return refuse3(instance, "fmi3EnterInitializationMode",
                       "the FMU is in configuration mode: call fmi3ExitConfigurationMode first");
    }
    s = fmi2SetupExperiment(instance, toleranceDefined ? fmi2True : fmi2False,
                                       tolerance, startTime,
                                       stopTimeDefined ? fmi2True : fmi2False, stopTime);
    if (s > fmi2Warning) {
        return (fmi3Status)s;
    }
    return (fmi3Status)fmi2EnterInitializationMode(instance);
}

MOFMU_EXPORT fmi3Status fmi3ExitInitializationMode(fmi3Instance instance)
{
    return (fmi3Status)fmi2ExitInitializationMode(instance);
}

MOFMU_EXPORT fmi3Status fmi3EnterEventMode(fmi3Instance instance)
{
    return (fmi3Status)fmi2EnterEventMode(instance);
}

MOFMU_EXPORT fmi3Status fmi3Terminate(fmi3Instance instance)
{
    return (fmi3Status)fmi2Terminate(instance);
}

MOFMU_EXPORT fmi3Status fmi3Reset(fmi3Instance instance)
{
    return (fmi3Status)fmi2Reset(instance);
}

/* ------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------ */

/* A refusal of an FMI 3 function itself (its own checks, before any fmi2
 * function runs). */
static fmi3Status refuse3(fmi3Instance instance, const char *function, const char *why)
{
    Instance *inst = as_instance(instance);
    if (inst == NULL) {
        return fmi3Error;
    }
    return (fmi3Status)log_error(inst, "%s: %s", function, why);
}

/* Scalars only: one value per value reference. */
static int not_scalar(fmi3Instance instance, const char *function, size_t nvr, size_t nValues)
{
    Instance *inst = as_instance(instance);
    if (inst == NULL) {
        return 1;
    }
    if (nValues != nvr) {
        log_error(inst, "%s: %zu value references need %zu values, not %zu", function, nvr,
                  nvr, nValues);
        return 1;
    }
    return 0;
}

/* The runtime's value references of `vrs`, each less `base` and below
 * `base + span`, into `out` (NULL when one is outside: then the reason is
 * logged). */
static fmi2ValueReference *table_references(Instance *inst, const char *function,
                                            const fmi3ValueReference vrs[], size_t nvr,
                                            uint32_t base, uint32_t span, const char *type)
{
    fmi2ValueReference *out = (fmi2ValueReference *)allocate(nvr, sizeof *out);
    size_t i;
    if (out == NULL) {
        log_error(inst, "%s: out of memory", function);
        return NULL;
    }
    for (i = 0; i < nvr; i++) {
        if (vrs[i] < base || vrs[i] - base >= span) {
            log_error(inst, "%s: value reference %u is not a variable of type %s", function,
                      (unsigned)vrs[i], type);
            free(out);
            return NULL;
        }
        out[i] = vrs[i] - base;
    }
    return out;
}

static int bad_call(Instance *inst, const char *function, const void *vrs, size_t nvr,
                    const void *values)
{
    if (inst == NULL) {
        return 1;
    }
    return null_array(inst, function, "valueReferences", vrs, nvr) ||
           null_array(inst, function, "values", values, nvr);
}

/* Whether one of `vrs` names the structural parameter, which is a UInt64:
 * then the reason is logged (the Int32 functions refuse it). */
static int names_structural(Instance *inst, const char *function,
                            const fmi3ValueReference vrs[], size_t nvr)
{
    size_t i;
    for (i = 0; i < nvr; i++) {
        if (is_structural(inst, vrs[i])) {
            log_error(inst,
                      "%s: value reference %u is the structural parameter %s, a variable of "
                      "type UInt64 (fmi3GetUInt64, fmi3SetUInt64)",
                      function, (unsigned)vrs[i], fmi3_data(inst)->st->name);
            return 1;
        }
    }
    return 0;
}

/* FMI 3.0 lets an importer read the variables in Instantiated (and in
 * configuration mode), where FMI 2.0 allows no getter: the start values,
 * or what was set since. Nothing is evaluated there but the calculated
 * parameters and calculated starts; a variable the model computes reads
 * as its start value, or zero without one. */
static fmi2Status reals_before_initialization(Instance *inst, const fmi2ValueReference refs[],
                                              size_t n, double out[])
{
    fmi2Status s;
    size_t i;
    if (null_array(inst, "fmi3GetFloat64", "values", out, n) ||
        bad_vrs(inst, "fmi3GetFloat64", "Float64", refs, n, inst->sys->n_reals)) {
        return fmi2Error;
    }
    s = update_parameters(inst, "fmi3GetFloat64");
    if (s != fmi2OK) {
        return s;
    }
    for (i = 0; i < n; i++) {
        out[i] = inst->R[refs[i]];
    }
    return fmi2OK;
}

static fmi2Status integers_before_initialization(Instance *inst, const fmi2ValueReference refs[],
                                                 size_t n, fmi2Integer out[])
{
    size_t i;
    if (bad_vrs(inst, "fmi2GetInteger", "Integer", refs, n, inst->sys->n_integers)) {
        return fmi2Error;
    }
    for (i = 0; i < n; i++) {
        int64_t v = integer_now(inst, refs[i]);
        if (v < INT_MIN || v > INT_MAX) {
            return log_error(inst, "fmi2GetInteger: value of variable %u does not fit an "
                                   "fmi2Integer", refs[i]);
        }
        out[i] = (fmi2Integer)v;
    }
    return fmi2OK;
}

static fmi2Status booleans_before_initialization(Instance *inst, const fmi2ValueReference refs[],
                                                 size_t n, fmi2Boolean out[])
{
    size_t i;
    if (bad_vrs(inst, "fmi3GetBoolean", "Boolean", refs, n, inst->sys->n_booleans)) {
        return fmi2Error;
    }
    for (i = 0; i < n; i++) {
        uint32_t at = inst->sys->boolean_real[refs[i]];
        int on = at == MOFMU_NOT_IN_R ? inst->sys->boolean_value[refs[i]] : inst->R[at] != 0.0;
        out[i] = on ? fmi2True : fmi2False;
    }
    return fmi2OK;
}

/* The Reals `refs` (R indices) for fmi3GetFloat64: fmi2GetReal, or before
 * initialization the values as they stand. */
static fmi2Status reals3(Instance *inst, const fmi2ValueReference refs[], size_t n, double out[])
{
    if (inst->state == STATE_INSTANTIATED) {
        return reals_before_initialization(inst, refs, n, out);
    }
    return fmi2GetReal(inst, refs, n, out);
}

/* The event indicators for fmi3GetFloat64 of their array. FMI 3.0 declares
 * them as a variable, and a declared variable may be read wherever
 * getters are allowed: in Co-Simulation too (fmi3GetEventIndicators stays
 * a Model Exchange function), and before initialization (zeros: nothing
 * is evaluated there). */
static fmi2Status indicators3(Instance *inst, double out[])
{
    fmi2Status s;
    if (inst->state == STATE_INSTANTIATED) {
        memcpy(out, inst->indicators, inst->sys->n_event_indicators * sizeof *out);
        return fmi2OK;
    }
    if (not_allowed(inst, "fmi3GetFloat64", MASK_Get)) {
        return fmi2Error;
    }
    s = evaluate_lean(inst, "fmi3GetFloat64", 1);
    if (s != fmi2OK) {
        return s;
    }
    memcpy(out, inst->indicators, inst->sys->n_event_indicators * sizeof *out);
    return fmi2OK;
}

/* Float64: R by index (an array by its first element's, standing for all
 * its elements), and the event indicators as one array. */
static fmi3Status get_float64(fmi3Instance instance, const fmi3ValueReference vrs[],
                                       size_t nvr, fmi3Float64 values[], size_t nValues)
{
    Instance *inst = as_instance(instance);
    size_t i, at = 0, n_reals = 0, wanted;
    int indicators = 0;
    fmi2ValueReference *refs;
    double *reals;
    double *found = NULL;
    fmi2Status s = fmi2OK;
    if (inst == NULL || null_array(inst, "fmi3GetFloat64", "valueReferences", vrs, nvr) ||
        null_array(inst, "fmi3GetFloat64", "values", values, nValues)) {
        return fmi3Error;
    }
    wanted = count_values(inst, "fmi3GetFloat64", vrs, nvr, 1);
    if (wanted == (size_t)-1) {
        return fmi3Error;
    }
    if (wanted != nValues) {
        return (fmi3Status)log_error(inst,
                                     "fmi3GetFloat64: the value references stand for %zu "
                                     "values, not %zu",
                                     wanted, nValues);
    }
    if (wanted == nvr) {
        /* Scalars only (one indicator is the indicators' array of one). */
        for (i = 0; i < nvr; i++) {
            indicators |= vrs[i] == MOFMU_FMI3_INDICATORS && inst->sys->n_event_indicators > 0;
        }
        if (!indicators) {
            return (fmi3Status)reals3(inst, vrs, nvr, values);
        }
    }
    /* The Reals in one fmi2GetReal (one evaluation), then each value put in
     * its place. */
    for (i = 0; i < nvr; i++) {
        if (vrs[i] == MOFMU_FMI3_INDICATORS && inst->sys->n_event_indicators > 0) {
            indicators = 1;
        } else {
            n_reals += vr_length(fmi3_data(inst), vrs[i]);
        }
    }
    refs = (fmi2ValueReference *)allocate(n_reals, sizeof *refs);
    reals = (double *)allocate(n_reals, sizeof *reals);
    if (refs == NULL || reals == NULL) {
        free(refs);
        free(reals);
        return (fmi3Status)log_error(inst, "fmi3GetFloat64: out of memory");
    }
    for (i = 0; i < nvr; i++) {
        if (!(vrs[i] == MOFMU_FMI3_INDICATORS && inst->sys->n_event_indicators > 0)) {
            size_t k, len = vr_length(fmi3_data(inst), vrs[i]);
            fmi2ValueReference stride = vr_stride(fmi3_data(inst), vrs[i]);
            for (k = 0; k < len; k++) {
                refs[at++] = vrs[i] + (fmi2ValueReference)k * stride;
            }
        }
    }
    s = reals3(inst, refs, n_reals, reals);
    if (s <= fmi2Warning && indicators) {
        found = (double *)allocate(inst->sys->n_event_indicators, sizeof *found);
        s = found == NULL ? log_error(inst, "fmi3GetFloat64: out of memory")
                          : indicators3(inst, found);
    }
    if (s <= fmi2Warning) {
        size_t from = 0;
        at = 0;
        for (i = 0; i < nvr; i++) {
            if (vrs[i] == MOFMU_FMI3_INDICATORS && inst->sys->n_event_indicators > 0) {
                memcpy(values + at, found, inst->sys->n_event_indicators * sizeof *found);
                at += inst->sys->n_event_indicators;
            } else {
                size_t len = vr_length(fmi3_data(inst), vrs[i]);
                memcpy(values + at, reals + from, len * sizeof *reals);
                at += len;
                from += len;
            }
        }
    }
    free(found);
    free(refs);
    free(reals);
    return (fmi3Status)s;
}

static fmi3Status set_float64(fmi3Instance instance, const fmi3ValueReference vrs[],
                                       size_t nvr, const fmi3Float64 values[], size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi2ValueReference *refs;
    fmi2Status s;
    size_t n;
    if (inst == NULL || null_array(inst, "fmi3SetFloat64", "valueReferences", vrs, nvr) ||
        null_array(inst, "fmi3SetFloat64", "values", values, nValues)) {
        return fmi3Error;
    }
    n = count_values(inst, "fmi3SetFloat64", vrs, nvr, 0);
    if (n == (size_t)-1) {
        return fmi3Error;
    }
    if (n != nValues) {
        return (fmi3Status)log_error(inst,
                                     "fmi3SetFloat64: the value references stand for %zu "
                                     "values, not %zu",
                                     n, nValues);
    }
    if (n == nvr) {
        return (fmi3Status)fmi2SetReal(instance, vrs, nvr, values);
    }
    refs = expand_reals(inst, "fmi3SetFloat64", vrs, nvr, n);
    if (refs == NULL) {
        return fmi3Error;
    }
    s = fmi2SetReal(instance, refs, n, values);
    free(refs);
    return (fmi3Status)s;
}

/* Integers (Int32, and Int64 for enumerations) through fmi2GetInteger. */
static fmi3Status get_integers(fmi3Instance instance, const char *function,
                               const fmi3ValueReference vrs[], size_t nvr, int64_t *out64,
                               int32_t *out32, size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi2ValueReference *refs;
    fmi2Integer *buffer;
    fmi2Status s;
    size_t i;
    if (bad_call(inst, function, vrs, nvr, out64 != NULL ? (void *)out64 : (void *)out32) ||
        not_scalar(instance, function, nvr, nValues) ||
        names_structural(inst, function, vrs, nvr)) {
        return fmi3Error;
    }
    refs = table_references(inst, function, vrs, nvr, MOFMU_FMI3_INTEGER_BASE,
                            (uint32_t)inst->sys->n_integers, "Int32 or Enumeration");
    if (refs == NULL) {
        return fmi3Error;
    }
    buffer = (fmi2Integer *)allocate(nvr, sizeof *buffer);
    if (buffer == NULL) {
        free(refs);
        return (fmi3Status)log_error(inst, "%s: out of memory", function);
    }
    ((Fmi3Logger *)inst->environment)->current = function;
    s = inst->state == STATE_INSTANTIATED ? integers_before_initialization(inst, refs, nvr, buffer)
                                          : fmi2GetInteger(instance, refs, nvr, buffer);
    ((Fmi3Logger *)inst->environment)->current = NULL;
    if (s <= fmi2Warning) {
        for (i = 0; i < nvr; i++) {
            if (out64 != NULL) {
                out64[i] = buffer[i];
            } else {
                out32[i] = buffer[i];
            }
        }
    }
    free(buffer);
    free(refs);
    return (fmi3Status)s;
}

static fmi3Status set_integers(fmi3Instance instance, const char *function,
                               const fmi3ValueReference vrs[], size_t nvr, const int64_t *in64,
                               const int32_t *in32, size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi2ValueReference *refs;
    fmi2Integer *buffer;
    fmi2Status s;
    size_t i;
    if (bad_call(inst, function, vrs, nvr, in64 != NULL ? (const void *)in64 : (const void *)in32) ||
        not_scalar(instance, function, nvr, nValues)) {
        return fmi3Error;
    }
    if (configuring(inst)) {
        return refuse3(instance, function,
                       "only structural parameters (fmi3SetUInt64) may be set in configuration "
                       "mode");
    }
    if (names_structural(inst, function, vrs, nvr)) {
        return fmi3Error;
    }
    refs = table_references(inst, function, vrs, nvr, MOFMU_FMI3_INTEGER_BASE,
                            (uint32_t)inst->sys->n_integers, "Int32 or Enumeration");
    if (refs == NULL) {
        return fmi3Error;
    }
    buffer = (fmi2Integer *)allocate(nvr, sizeof *buffer);
    if (buffer == NULL) {
        free(refs);
        return (fmi3Status)log_error(inst, "%s: out of memory", function);
    }
    for (i = 0; i < nvr; i++) {
        int64_t v = in64 != NULL ? in64[i] : in32[i];
        if (v < INT32_MIN || v > INT32_MAX) {
            free(buffer);
            free(refs);
            return (fmi3Status)log_error(inst, "%s: value %lld is out of range", function,
                                         (long long)v);
        }
        buffer[i] = (fmi2Integer)v;
    }
    ((Fmi3Logger *)inst->environment)->current = function;
    s = fmi2SetInteger(instance, refs, nvr, buffer);
    ((Fmi3Logger *)inst->environment)->current = NULL;
    free(buffer);
    free(refs);
    return (fmi3Status)s;
}

MOFMU_EXPORT fmi3Status fmi3GetInt32(fmi3Instance instance, const fmi3ValueReference vrs[],
                                     size_t nvr, fmi3Int32 values[], size_t nValues)
{
    return get_integers(instance, "fmi3GetInt32", vrs, nvr, NULL, values, nValues);
}

MOFMU_EXPORT fmi3Status fmi3GetInt64(fmi3Instance instance, const fmi3ValueReference vrs[],
                                     size_t nvr, fmi3Int64 values[], size_t nValues)
{
    return get_integers(instance, "fmi3GetInt64", vrs, nvr, values, NULL, nValues);
}

MOFMU_EXPORT fmi3Status fmi3SetInt32(fmi3Instance instance, const fmi3ValueReference vrs[],
                                     size_t nvr, const fmi3Int32 values[], size_t nValues)
{
    return set_integers(instance, "fmi3SetInt32", vrs, nvr, NULL, values, nValues);
}

MOFMU_EXPORT fmi3Status fmi3SetInt64(fmi3Instance instance, const fmi3ValueReference vrs[],
                                     size_t nvr, const fmi3Int64 values[], size_t nValues)
{
    return set_integers(instance, "fmi3SetInt64", vrs, nvr, values, NULL, nValues);
}

MOFMU_EXPORT fmi3Status fmi3GetBoolean(fmi3Instance instance, const fmi3ValueReference vrs[],
                                       size_t nvr, fmi3Boolean values[], size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi2ValueReference *refs;
    fmi2Boolean *buffer;
    fmi2Status s;
    size_t i;
    if (bad_call(inst, "fmi3GetBoolean", vrs, nvr, values) ||
        not_scalar(instance, "fmi3GetBoolean", nvr, nValues)) {
        return fmi3Error;
    }
    refs = table_references(inst, "fmi3GetBoolean", vrs, nvr, MOFMU_FMI3_BOOLEAN_BASE,
                            (uint32_t)inst->sys->n_booleans, "Boolean");
    if (refs == NULL) {
        return fmi3Error;
    }
    buffer = (fmi2Boolean *)allocate(nvr, sizeof *buffer);
    if (buffer == NULL) {
        free(refs);
        return (fmi3Status)log_error(inst, "fmi3GetBoolean: out of memory");
    }
    s = inst->state == STATE_INSTANTIATED ? booleans_before_initialization(inst, refs, nvr, buffer)
                                          : fmi2GetBoolean(instance, refs, nvr, buffer);
    if (s <= fmi2Warning) {
        for (i = 0; i < nvr; i++) {
            values[i] = buffer[i] != fmi2False;
        }
    }
    free(buffer);
    free(refs);
    return (fmi3Status)s;
}

MOFMU_EXPORT fmi3Status fmi3SetBoolean(fmi3Instance instance, const fmi3ValueReference vrs[],
                                       size_t nvr, const fmi3Boolean values[], size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi2ValueReference *refs;
    fmi2Boolean *buffer;
    fmi2Status s;
    size_t i;
    if (bad_call(inst, "fmi3SetBoolean", vrs, nvr, values) ||
        not_scalar(instance, "fmi3SetBoolean", nvr, nValues)) {
        return fmi3Error;
    }
    refs = table_references(inst, "fmi3SetBoolean", vrs, nvr, MOFMU_FMI3_BOOLEAN_BASE,
                            (uint32_t)inst->sys->n_booleans, "Boolean");
    if (refs == NULL) {
        return fmi3Error;
    }
    buffer = (fmi2Boolean *)allocate(nvr, sizeof *buffer);
    if (buffer == NULL) {
        free(refs);
        return (fmi3Status)log_error(inst, "fmi3SetBoolean: out of memory");
    }
    for (i = 0; i < nvr; i++) {
        buffer[i] = values[i] ? fmi2True : fmi2False;
    }
    s = fmi2SetBoolean(instance, refs, nvr, buffer);
    free(buffer);
    free(refs);
    return (fmi3Status)s;
}

/* The types this FMU has no variables of: any value reference is unknown. */
static fmi3Status no_variables(fmi3Instance instance, const char *function, size_t nvr,
                               const char *type)
{
    Instance *inst = as_instance(instance);
    if (inst == NULL) {
        return fmi3Error;
    }
    if (nvr == 0) {
        return fmi3OK;
    }
    return (fmi3Status)log_error(inst, "%s: this FMU has no variables of type %s", function,
                                 type);
}

#define MOFMU_FMI3_ABSENT(Name, Type, Label)                                                    \
    MOFMU_EXPORT fmi3Status fmi3Get##Name(fmi3Instance instance,                              \
                                          const fmi3ValueReference vrs[], size_t nvr,         \
                                          Type values[], size_t nValues)                      \
    {                                                                                         \
        (void)vrs;                                                                            \
        (void)values;                                                                         \
        (void)nValues;                                                                        \
        return no_variables(instance, "fmi3Get" #Name, nvr, Label);                           \
    }                                                                                         \
    MOFMU_EXPORT fmi3Status fmi3Set##Name(fmi3Instance instance,                              \
                                          const fmi3ValueReference vrs[], size_t nvr,         \
                                          const Type values[], size_t nValues)                \
    {                                                                                         \
        (void)vrs;                                                                            \
        (void)values;                                                                         \
        (void)nValues;                                                                        \
        return no_variables(instance, "fmi3Set" #Name, nvr, Label);                           \
    }

MOFMU_FMI3_ABSENT(Float32, fmi3Float32, "Float32")
MOFMU_FMI3_ABSENT(Int8, fmi3Int8, "Int8")
MOFMU_FMI3_ABSENT(UInt8, fmi3UInt8, "UInt8")
MOFMU_FMI3_ABSENT(Int16, fmi3Int16, "Int16")
MOFMU_FMI3_ABSENT(UInt16, fmi3UInt16, "UInt16")
MOFMU_FMI3_ABSENT(UInt32, fmi3UInt32, "UInt32")
MOFMU_FMI3_ABSENT(String, fmi3String, "String")

/* UInt64: the structural parameter, when the FMU has one (FMI 3.0: a
 * structural parameter that sizes arrays is a UInt64). */
MOFMU_EXPORT fmi3Status fmi3GetUInt64(fmi3Instance instance, const fmi3ValueReference vrs[],
                                      size_t nvr, fmi3UInt64 values[], size_t nValues)
{
    Instance *inst = as_instance(instance);
    if (bad_call(inst, "fmi3GetUInt64", vrs, nvr, values) ||
        not_scalar(instance, "fmi3GetUInt64", nvr, nValues)) {
        return fmi3Error;
    }
    if (fmi3_data(inst)->st == NULL) {
        return no_variables(instance, "fmi3GetUInt64", nvr, "UInt64");
    }
    if (inst->state == STATE_FATAL) {
        return (fmi3Status)log_error(inst, "fmi3GetUInt64: not allowed in state %s",
                                     state_name(inst->state));
    }
    return structural_get(inst, vrs, nvr, values);
}

MOFMU_EXPORT fmi3Status fmi3SetUInt64(fmi3Instance instance, const fmi3ValueReference vrs[],
                                      size_t nvr, const fmi3UInt64 values[], size_t nValues)
{
    Instance *inst = as_instance(instance);
    if (bad_call(inst, "fmi3SetUInt64", vrs, nvr, values) ||
        not_scalar(instance, "fmi3SetUInt64", nvr, nValues)) {
        return fmi3Error;
    }
    if (fmi3_data(inst)->st == NULL) {
        return no_variables(instance, "fmi3SetUInt64", nvr, "UInt64");
    }
    return structural_set(inst, vrs, nvr, values);
}

MOFMU_EXPORT fmi3Status fmi3GetBinary(fmi3Instance instance, const fmi3ValueReference vrs[],
                                      size_t nvr, size_t valueSizes[], fmi3Binary values[],
                                      size_t nValues)
{
    (void)vrs;
    (void)valueSizes;
    (void)values;
    (void)nValues;
    return no_variables(instance, "fmi3GetBinary", nvr, "Binary");
}

MOFMU_EXPORT fmi3Status fmi3SetBinary(fmi3Instance instance, const fmi3ValueReference vrs[],
                                      size_t nvr, const size_t valueSizes[],
                                      const fmi3Binary values[], size_t nValues)
{
    (void)vrs;
    (void)valueSizes;
    (void)values;
    (void)nValues;
    return no_variables(instance, "fmi3SetBinary", nvr, "Binary");
}

MOFMU_EXPORT fmi3Status fmi3GetClock(fmi3Instance instance, const fmi3ValueReference vrs[],
                                     size_t nvr, fmi3Clock values[])
{
    (void)vrs;
    (void)values;
    return no_variables(instance, "fmi3GetClock", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3SetClock(fmi3Instance instance, const fmi3ValueReference vrs[],
                                     size_t nvr, const fmi3Clock values[])
{
    (void)vrs;
    (void)values;
    return no_variables(instance, "fmi3SetClock", nvr, "Clock");
}

/* ------------------------------------------------------------------------
 * What this FMU does not offer
 * ------------------------------------------------------------------------ */

static fmi3Status not_offered(fmi3Instance instance, const char *function, const char *what)
{
    return refuse3(instance, function, what);
}

MOFMU_EXPORT fmi3Status fmi3GetNumberOfVariableDependencies(fmi3Instance instance,
                                                            fmi3ValueReference valueReference,
                                                            size_t *nDependencies)
{
    (void)valueReference;
    (void)nDependencies;
    return not_offered(instance, "fmi3GetNumberOfVariableDependencies",
                       "not offered (providesPerElementDependencies=\"false\"); the "
                       "dependencies are in the model description's ModelStructure");
}

MOFMU_EXPORT fmi3Status fmi3GetVariableDependencies(
    fmi3Instance instance, fmi3ValueReference dependent, size_t elementIndicesOfDependent[],
    fmi3ValueReference independents[], size_t elementIndicesOfIndependents[],
    int dependencyKinds[], size_t nDependencies)
{
    (void)dependent;
    (void)elementIndicesOfDependent;
    (void)independents;
    (void)elementIndicesOfIndependents;
    (void)dependencyKinds;
    (void)nDependencies;
    return not_offered(instance, "fmi3GetVariableDependencies",
                       "not offered (providesPerElementDependencies=\"false\"); the "
                       "dependencies are in the model description's ModelStructure");
}

MOFMU_EXPORT fmi3Status fmi3GetIntervalDecimal(fmi3Instance instance,
                                               const fmi3ValueReference vrs[], size_t nvr,
                                               fmi3Float64 intervals[],
                                               fmi3IntervalQualifier qualifiers[])
{
    (void)vrs;
    (void)intervals;
    (void)qualifiers;
    return no_variables(instance, "fmi3GetIntervalDecimal", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3GetIntervalFraction(fmi3Instance instance,
                                                const fmi3ValueReference vrs[], size_t nvr,
                                                fmi3UInt64 counters[],
                                                fmi3UInt64 resolutions[],
                                                fmi3IntervalQualifier qualifiers[])
{
    (void)vrs;
    (void)counters;
    (void)resolutions;
    (void)qualifiers;
    return no_variables(instance, "fmi3GetIntervalFraction", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3GetShiftDecimal(fmi3Instance instance,
                                            const fmi3ValueReference vrs[], size_t nvr,
                                            fmi3Float64 shifts[])
{
    (void)vrs;
    (void)shifts;
    return no_variables(instance, "fmi3GetShiftDecimal", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3GetShiftFraction(fmi3Instance instance,
                                             const fmi3ValueReference vrs[], size_t nvr,
                                             fmi3UInt64 counters[], fmi3UInt64 resolutions[])
{
    (void)vrs;
    (void)counters;
    (void)resolutions;
    return no_variables(instance, "fmi3GetShiftFraction", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3SetIntervalDecimal(fmi3Instance instance,
                                               const fmi3ValueReference vrs[], size_t nvr,
                                               const fmi3Float64 intervals[])
{
    (void)vrs;
    (void)intervals;
    return no_variables(instance, "fmi3SetIntervalDecimal", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3SetIntervalFraction(fmi3Instance instance,
                                                const fmi3ValueReference vrs[], size_t nvr,
                                                const fmi3UInt64 counters[],
                                                const fmi3UInt64 resolutions[])
{
    (void)vrs;
    (void)counters;
    (void)resolutions;
    return no_variables(instance, "fmi3SetIntervalFraction", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3SetShiftDecimal(fmi3Instance instance,
                                            const fmi3ValueReference vrs[], size_t nvr,
                                            const fmi3Float64 shifts[])
{
    (void)vrs;
    (void)shifts;
    return no_variables(instance, "fmi3SetShiftDecimal", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3SetShiftFraction(fmi3Instance instance,
                                             const fmi3ValueReference vrs[], size_t nvr,
                                             const fmi3UInt64 counters[],
                                             const fmi3UInt64 resolutions[])
{
    (void)vrs;
    (void)counters;
    (void)resolutions;
    return no_variables(instance, "fmi3SetShiftFraction", nvr, "Clock");
}

MOFMU_EXPORT fmi3Status fmi3ActivateModelPartition(fmi3Instance instance,
                                                   fmi3ValueReference clockReference,
                                                   fmi3Float64 activationTime)
{
    (void)clockReference;
    (void)activationTime;
    return not_offered(instance, "fmi3ActivateModelPartition",
                       "this FMU offers no Scheduled Execution");
}

MOFMU_EXPORT fmi3Status fmi3EvaluateDiscreteStates(fmi3Instance instance)
{
    return not_offered(instance, "fmi3EvaluateDiscreteStates",
                       "not offered (providesEvaluateDiscreteStates=\"false\")");
}

MOFMU_EXPORT fmi3Status fmi3EnterStepMode(fmi3Instance instance)
{
    return not_offered(instance, "fmi3EnterStepMode",
                       "this FMU has no event mode in Co-Simulation (hasEventMode=\"false\")");
}

/* ------------------------------------------------------------------------
 * FMU state, derivatives, events, Model Exchange, Co-Simulation
 * ------------------------------------------------------------------------ */

MOFMU_EXPORT fmi3Status fmi3GetFMUState(fmi3Instance instance, fmi3FMUState *FMUState)
{
    return (fmi3Status)fmi2GetFMUstate(instance, FMUState);
}

MOFMU_EXPORT fmi3Status fmi3SetFMUState(fmi3Instance instance, fmi3FMUState FMUState)
{
    return (fmi3Status)fmi2SetFMUstate(instance, FMUState);
}

MOFMU_EXPORT fmi3Status fmi3FreeFMUState(fmi3Instance instance, fmi3FMUState *FMUState)
{
    return (fmi3Status)fmi2FreeFMUstate(instance, FMUState);
}

MOFMU_EXPORT fmi3Status fmi3SerializedFMUStateSize(fmi3Instance instance,
                                                   fmi3FMUState FMUState, size_t *size)
{
    return (fmi3Status)fmi2SerializedFMUstateSize(instance, FMUState, size);
}

MOFMU_EXPORT fmi3Status fmi3SerializeFMUState(fmi3Instance instance, fmi3FMUState FMUState,
                                              fmi3Byte serializedState[], size_t size)
{
    return (fmi3Status)fmi2SerializeFMUstate(instance, FMUState, (fmi2Byte *)serializedState,
                                             size);
}

MOFMU_EXPORT fmi3Status fmi3DeserializeFMUState(fmi3Instance instance,
                                                const fmi3Byte serializedState[], size_t size,
                                                fmi3FMUState *FMUState)
{
    return (fmi3Status)fmi2DeSerializeFMUstate(instance, (const fmi2Byte *)serializedState,
                                               size, FMUState);
}

#include "mofmu_fmi3_derivatives.inc"

MOFMU_EXPORT fmi3Status fmi3UpdateDiscreteStates(
    fmi3Instance instance, fmi3Boolean *discreteStatesNeedUpdate,
    fmi3Boolean *terminateSimulation, fmi3Boolean *nominalsOfContinuousStatesChanged,
    fmi3Boolean *valuesOfContinuousStatesChanged, fmi3Boolean *nextEventTimeDefined,
    fmi3Float64 *nextEventTime)
{
    fmi2EventInfo info;
    fmi2Status s;
    Instance *inst = as_instance(instance);
    if (inst == NULL) {
        return fmi3Error;
    }
    if (discreteStatesNeedUpdate == NULL || terminateSimulation == NULL ||
        nominalsOfContinuousStatesChanged == NULL || valuesOfContinuousStatesChanged == NULL ||
        nextEventTimeDefined == NULL || nextEventTime == NULL) {
        return refuse3(instance, "fmi3UpdateDiscreteStates", "an output argument is NULL");
    }
    memset(&info, 0, sizeof info);
    s = fmi2NewDiscreteStates(instance, &info);
    if (s <= fmi2Warning) {
        *discreteStatesNeedUpdate = info.newDiscreteStatesNeeded != fmi2False;
        *terminateSimulation = info.terminateSimulation != fmi2False;
        *nominalsOfContinuousStatesChanged = info.nominalsOfContinuousStatesChanged != fmi2False;
        *valuesOfContinuousStatesChanged = info.valuesOfContinuousStatesChanged != fmi2False;
        *nextEventTimeDefined = info.nextEventTimeDefined != fmi2False;
        *nextEventTime = info.nextEventTime;
    }
    return (fmi3Status)s;
}

MOFMU_EXPORT fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance instance)
{
    return (fmi3Status)fmi2EnterContinuousTimeMode(instance);
}

MOFMU_EXPORT fmi3Status fmi3CompletedIntegratorStep(fmi3Instance instance,
                                                    fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                                    fmi3Boolean *enterEventMode,
                                                    fmi3Boolean *terminateSimulation)
{
    fmi2Boolean event = fmi2False, terminate = fmi2False;
    fmi2Status s;
    if (enterEventMode == NULL || terminateSimulation == NULL) {
        return refuse3(instance, "fmi3CompletedIntegratorStep", "an output argument is NULL");
    }
    s = fmi2CompletedIntegratorStep(instance,
                                    noSetFMUStatePriorToCurrentPoint ? fmi2True : fmi2False,
                                    &event, &terminate);
    if (s <= fmi2Warning) {
        *enterEventMode = event != fmi2False;
        *terminateSimulation = terminate != fmi2False;
    }
    return (fmi3Status)s;
}

MOFMU_EXPORT fmi3Status fmi3SetTime(fmi3Instance instance, fmi3Float64 time)
{
    return (fmi3Status)fmi2SetTime(instance, time);
}

MOFMU_EXPORT fmi3Status fmi3SetContinuousStates(fmi3Instance instance,
                                                const fmi3Float64 continuousStates[],
                                                size_t nContinuousStates)
{
    return (fmi3Status)fmi2SetContinuousStates(instance, continuousStates, nContinuousStates);
}

MOFMU_EXPORT fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance instance,
                                                          fmi3Float64 derivatives[],
                                                          size_t nContinuousStates)
{
    return (fmi3Status)fmi2GetDerivatives(instance, derivatives, nContinuousStates);
}

MOFMU_EXPORT fmi3Status fmi3GetEventIndicators(fmi3Instance instance,
                                               fmi3Float64 eventIndicators[],
                                               size_t nEventIndicators)
{
    return (fmi3Status)fmi2GetEventIndicators(instance, eventIndicators, nEventIndicators);
}

MOFMU_EXPORT fmi3Status fmi3GetContinuousStates(fmi3Instance instance,
                                                fmi3Float64 continuousStates[],
                                                size_t nContinuousStates)
{
    return (fmi3Status)fmi2GetContinuousStates(instance, continuousStates, nContinuousStates);
}

MOFMU_EXPORT fmi3Status fmi3GetNominalsOfContinuousStates(fmi3Instance instance,
                                                          fmi3Float64 nominals[],
                                                          size_t nContinuousStates)
{
    return (fmi3Status)fmi2GetNominalsOfContinuousStates(instance, nominals,
                                                         nContinuousStates);
}

MOFMU_EXPORT fmi3Status fmi3GetNumberOfEventIndicators(fmi3Instance instance,
                                                       size_t *nEventIndicators)
{
    Instance *inst = as_instance(instance);
    if (inst == NULL) {
        return fmi3Error;
    }
    if (nEventIndicators == NULL) {
        return refuse3(instance, "fmi3GetNumberOfEventIndicators", "the output is NULL");
    }
    *nEventIndicators = inst->sys->n_event_indicators;
    return fmi3OK;
}

MOFMU_EXPORT fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance instance,
                                                        size_t *nContinuousStates)
{
    Instance *inst = as_instance(instance);
    if (inst == NULL) {
        return fmi3Error;
    }
    if (nContinuousStates == NULL) {
        return refuse3(instance, "fmi3GetNumberOfContinuousStates", "the output is NULL");
    }
    *nContinuousStates = inst->sys->n_states;
    return fmi3OK;
}

static fmi3Status output_derivatives3(fmi3Instance instance,
                                                 const fmi3ValueReference vrs[], size_t nvr,
                                                 const fmi3Int32 orders[], fmi3Float64 values[],
                                                 size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi2Integer *order;
    fmi2Status s;
    size_t i;
    fmi2ValueReference *refs;
    size_t n, at = 0;
    if (bad_call(inst, "fmi3GetOutputDerivatives", vrs, nvr, values) ||
        null_array(inst, "fmi3GetOutputDerivatives", "orders", orders, nvr)) {
        return fmi3Error;
    }
    /* An array output stands for its elements, each of the array's order. */
    n = count_values(inst, "fmi3GetOutputDerivatives", vrs, nvr, 0);
    if (n == (size_t)-1) {
        return fmi3Error;
    }
    if (n != nValues) {
        return (fmi3Status)log_error(inst,
                                     "fmi3GetOutputDerivatives: the value references stand "
                                     "for %zu values, not %zu",
                                     n, nValues);
    }
    refs = expand_reals(inst, "fmi3GetOutputDerivatives", vrs, nvr, n);
    order = refs == NULL ? NULL : (fmi2Integer *)allocate(n, sizeof *order);
    if (order == NULL) {
        free(refs);
        return (fmi3Status)log_error(inst, "fmi3GetOutputDerivatives: out of memory");
    }
    for (i = 0; i < nvr; i++) {
        size_t k, len = vr_length(fmi3_data(inst), vrs[i]);
        for (k = 0; k < len; k++) {
            order[at++] = orders[i];
        }
    }
    s = fmi2GetRealOutputDerivatives(instance, refs, n, order, values);
    free(order);
    free(refs);
    return (fmi3Status)s;
}

MOFMU_EXPORT fmi3Status fmi3DoStep(fmi3Instance instance, fmi3Float64 currentCommunicationPoint,
                                   fmi3Float64 communicationStepSize,
                                   fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                   fmi3Boolean *eventHandlingNeeded,
                                   fmi3Boolean *terminateSimulation, fmi3Boolean *earlyReturn,
                                   fmi3Float64 *lastSuccessfulTime)
{
    fmi2Status s;
    fmi2Real reached = currentCommunicationPoint;
    if (eventHandlingNeeded == NULL || terminateSimulation == NULL || earlyReturn == NULL ||
        lastSuccessfulTime == NULL) {
        return refuse3(instance, "fmi3DoStep", "an output argument is NULL");
    }
    s = fmi2DoStep(instance, currentCommunicationPoint, communicationStepSize,
                   noSetFMUStatePriorToCurrentPoint ? fmi2True : fmi2False);
    if (s == fmi2OK || s == fmi2Warning || s == fmi2Discard) {
        (void)fmi2GetRealStatus(instance, fmi2LastSuccessfulTime, &reached);
    }
    *eventHandlingNeeded = false;
    *terminateSimulation = false;
    *earlyReturn = false;
    *lastSuccessfulTime = reached;
    if (s == fmi2Discard && as_instance(instance)->cs.terminated) {
        /* A `terminate` of the model ended the step early: in FMI 3.0 that
         * is a successful step that asks to end the simulation, and an early
         * return only where the importer allows one. */
        *terminateSimulation = true;
        *earlyReturn = fmi3_data(as_instance(instance))->early_return_allowed;
        return fmi3OK;
    }
    return (fmi3Status)s;
}

/* ------------------------------------------------------------------------
 * Float64 by the description's value references: mapped to R at the
 * current size of a structural parameter (identity at the exported size).
 * ------------------------------------------------------------------------ */

/* Whether the instance is in configuration mode (then only structural
 * parameters may be set). */
static int configuring(const Instance *inst)
{
    return inst != NULL && fmi3_data(inst)->st != NULL && fmi3_data(inst)->st->configuring;
}

MOFMU_EXPORT fmi3Status fmi3GetFloat64(fmi3Instance instance, const fmi3ValueReference vrs[],
                                       size_t nvr, fmi3Float64 values[], size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi3ValueReference *owned = NULL;
    const fmi3ValueReference *m;
    fmi3Status s;
    if (inst == NULL) {
        return fmi3Error;
    }
    m = map_vrs(inst, "fmi3GetFloat64", vrs, nvr, &owned);
    if (m == NULL && vrs != NULL && nvr > 0) {
        return fmi3Error;
    }
    s = get_float64(instance, m, nvr, values, nValues);
    free(owned);
    return s;
}

MOFMU_EXPORT fmi3Status fmi3SetFloat64(fmi3Instance instance, const fmi3ValueReference vrs[],
                                       size_t nvr, const fmi3Float64 values[], size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi3ValueReference *owned = NULL;
    const fmi3ValueReference *m;
    fmi3Status s;
    if (inst == NULL) {
        return fmi3Error;
    }
    if (configuring(inst)) {
        return refuse3(instance, "fmi3SetFloat64",
                       "only structural parameters may be set in configuration mode");
    }
    m = map_vrs(inst, "fmi3SetFloat64", vrs, nvr, &owned);
    if (m == NULL && vrs != NULL && nvr > 0) {
        return fmi3Error;
    }
    s = set_float64(instance, m, nvr, values, nValues);
    free(owned);
    return s;
}

/* The body of a directional or adjoint derivative, on R indices. */
typedef fmi3Status (*DerivativeBody)(fmi3Instance, const fmi3ValueReference[], size_t,
                                     const fmi3ValueReference[], size_t, const fmi3Float64[],
                                     size_t, fmi3Float64[], size_t);

/* Runs `body` with the description's value references of the unknowns and
 * the knowns mapped to the current size (structural parameters). */
static fmi3Status derivative_by_description(fmi3Instance instance, const char *function,
                                            DerivativeBody body,
                                            const fmi3ValueReference unknowns[],
                                            size_t nUnknowns, const fmi3ValueReference knowns[],
                                            size_t nKnowns, const fmi3Float64 seed[],
                                            size_t nSeed, fmi3Float64 sensitivity[],
                                            size_t nSensitivity)
{
    Instance *inst = as_instance(instance);
    fmi3ValueReference *ou = NULL, *ok = NULL;
    const fmi3ValueReference *mu, *mk;
    fmi3Status s;
    if (inst == NULL) {
        return fmi3Error;
    }
    mu = map_vrs(inst, function, unknowns, nUnknowns, &ou);
    mk = mu == NULL && unknowns != NULL && nUnknowns > 0
             ? NULL
             : map_vrs(inst, function, knowns, nKnowns, &ok);
    if ((mu == NULL && unknowns != NULL && nUnknowns > 0) ||
        (mk == NULL && knowns != NULL && nKnowns > 0)) {
        free(ou);
        return fmi3Error;
    }
    s = body(instance, mu, nUnknowns, mk, nKnowns, seed, nSeed, sensitivity, nSensitivity);
    free(ou);
    free(ok);
    return s;
}

MOFMU_EXPORT fmi3Status fmi3GetDirectionalDerivative(
    fmi3Instance instance, const fmi3ValueReference unknowns[], size_t nUnknowns,
    const fmi3ValueReference knowns[], size_t nKnowns, const fmi3Float64 seed[], size_t nSeed,
    fmi3Float64 sensitivity[], size_t nSensitivity)
{
    return derivative_by_description(instance, "fmi3GetDirectionalDerivative", directional3,
                                     unknowns, nUnknowns, knowns, nKnowns, seed, nSeed,
                                     sensitivity, nSensitivity);
}

MOFMU_EXPORT fmi3Status fmi3GetAdjointDerivative(
    fmi3Instance instance, const fmi3ValueReference unknowns[], size_t nUnknowns,
    const fmi3ValueReference knowns[], size_t nKnowns, const fmi3Float64 seed[], size_t nSeed,
    fmi3Float64 sensitivity[], size_t nSensitivity)
{
    return derivative_by_description(instance, "fmi3GetAdjointDerivative", adjoint3, unknowns,
                                     nUnknowns, knowns, nKnowns, seed, nSeed, sensitivity,
                                     nSensitivity);
}

MOFMU_EXPORT fmi3Status fmi3GetOutputDerivatives(fmi3Instance instance,
                                                 const fmi3ValueReference vrs[], size_t nvr,
                                                 const fmi3Int32 orders[], fmi3Float64 values[],
                                                 size_t nValues)
{
    Instance *inst = as_instance(instance);
    fmi3ValueReference *owned = NULL;
    const fmi3ValueReference *m;
    fmi3Status s;
    if (inst == NULL) {
        return fmi3Error;
    }
    m = map_vrs(inst, "fmi3GetOutputDerivatives", vrs, nvr, &owned);
    if (m == NULL && vrs != NULL && nvr > 0) {
        return fmi3Error;
    }
    s = output_derivatives3(instance, m, nvr, orders, values, nValues);
    free(owned);
    return s;
}
