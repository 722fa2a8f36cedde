/*
 * json_report.c - the merged job report (docs/report-format.md, schema in
 * docs/report-schema.json), and the file writer shared with sarif.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "finding_json.h"

int mc_json_write_path(const char *path, const json_t *doc, size_t flags)
{
    if (path == NULL || doc == NULL) {
        errno = EINVAL;
        return -1;
    }
    char *s = json_dumps(doc, flags);
    if (s == NULL) {
        errno = ENOMEM;
        return -1;
    }
    int to_stdout = strcmp(path, "-") == 0;
    FILE *fp = to_stdout ? stdout : fopen(path, "w");
    int rc = 0, err = 0;

    if (fp == NULL) {
        err = errno;
        free(s);
        errno = err;
        return -1;
    }
    if (fputs(s, fp) == EOF || fputc('\n', fp) == EOF)
        rc = -1, err = errno;
    /* fclose/fflush is where a full disk shows up: check it too. */
    if ((to_stdout ? fflush(fp) : fclose(fp)) == EOF && rc == 0)
        rc = -1, err = errno;
    free(s);
    errno = err;
    return rc;
}

int mc_report_write_json(const char *path, const mc_report_doc *doc,
                         const char *tool_version)
{
    json_t *root = json_object(), *findings = json_array(), *summary = json_object();
    int errors, warnings, rc = -1;

    if (doc == NULL) {
        errno = EINVAL;
        goto out;
    }
    if (root == NULL || findings == NULL || summary == NULL)
        goto nomem;
    for (size_t i = 0; i < doc->nfindings; i++)
        if (json_array_append_new(findings, mc_finding_to_json(&doc->findings[i])))
            goto nomem;
    mc_report_count(doc, &errors, &warnings);
    if (json_object_set_new(summary, "errors", json_integer(errors)) ||
        json_object_set_new(summary, "warnings", json_integer(warnings)) ||
        (mc_report_suppressed(doc) > 0 &&
         json_object_set_new(summary, "suppressed", json_integer(mc_report_suppressed(doc)))) ||
        (doc->repeats > 0 && json_object_set_new(summary, "repeats", json_integer(doc->repeats))) ||
        (doc->checks_off && doc->checks_off[0] &&
         json_object_set_new(summary, "checks_off", mc_json_str(doc->checks_off))))
        goto nomem;
    if (doc->nskipped > 0) {
        json_t *skipped = json_array();
        if (skipped == NULL || json_object_set_new(summary, "skipped", skipped))
            goto nomem;
        for (size_t i = 0; i < doc->nskipped; i++) {
            json_t *e = json_object();
            if (e == NULL || json_array_append_new(skipped, e) ||
                json_object_set_new(e, "check", json_string(doc->skipped[i].check)) ||
                json_object_set_new(e, "count", json_integer(doc->skipped[i].count)) ||
                json_object_set_new(e, "what", mc_json_str(doc->skipped[i].what)))
                goto nomem;
        }
    }
    /* Member order is the documented one: readers may rely on it for diffs. */
    if (json_object_set_new(root, "tool", json_string("mpicheck")) ||
        json_object_set_new(root, "version", mc_json_str(tool_version)) ||
        mc_job_json_fill(root, &doc->job))
        goto nomem;
    rc = json_object_set_new(root, "findings", findings);
    findings = NULL; /* taken by set_new, even on failure */
    if (rc)
        goto nomem;
    rc = json_object_set_new(root, "summary", summary);
    summary = NULL;
    if (rc)
        goto nomem;
    /* The job's layout: where each process ran, as its process line said. */
    json_t *procs = json_array();
    if (procs == NULL || json_object_set_new(root, "processes", procs))
        goto nomem;
    for (size_t i = 0; i < doc->nhosts; i++)
        if (json_array_append_new(procs, mc_process_to_json(&doc->hosts[i])))
            goto nomem;
    rc = mc_json_write_path(path, root, JSON_INDENT(2) | MC_JSON_FLAGS);
    goto out;
nomem:
    rc = -1;
    errno = ENOMEM;
out:
    json_decref(root);
    json_decref(findings);
    json_decref(summary);
    return rc;
}
