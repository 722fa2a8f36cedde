/*
 * calltext.h - an mc_call_text (finding.h) as one text message and back.
 * Lines "C call", "A name value", "F function file line module pc", fields
 * separated by tabs; tabs and newlines inside values become spaces.
 */
#ifndef MPICHECK_CALLTEXT_H
#define MPICHECK_CALLTEXT_H

#include <stddef.h>
#include "finding.h"

/* Writes ct into buf (at most cap bytes, always terminated). */
void mc_calltext_serialize(const mc_call_text *ct, char *buf, size_t cap);
/* Fills ct (owned: mc_finding_clear frees it) from text; rank is ct->rank. */
void mc_calltext_parse(const char *text, int rank, mc_call_text *ct);

#endif
