/*
 * Fuzzes the text scenario parser with raw bytes. Whatever it accepts must
 * validate, print, and parse back to the same scenario with a stable print;
 * whatever it refuses must leave nothing behind and say where.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "scenario/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) FUZZ_CHECK("parser", cond)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pbc_scenario s, t;
    char err[512] = "", why[256];
    if (pbc_scenario_parse((const char *)data, size, "in.pbs", &s, err, sizeof(err))) {
        CHECK(s.alloc_count == 0 && s.op_count == 0);
        CHECK(strncmp(err, "in.pbs:", 7) == 0 && strchr(err, '\n') == NULL);
        return 0;
    }
    CHECK(pbc_scenario_validate(&s, why, sizeof(why)) == 0);
    char *text = pbc_scenario_print(&s);
    CHECK(pbc_scenario_parse(text, strlen(text), "printed.pbs", &t, err, sizeof(err)) == 0);
    CHECK(pbc_scenario_equal(&s, &t));
    char *again = pbc_scenario_print(&t);
    CHECK(strcmp(text, again) == 0);
    free(again);
    free(text);
    pbc_scenario_fini(&s);
    pbc_scenario_fini(&t);
    return 0;
}
