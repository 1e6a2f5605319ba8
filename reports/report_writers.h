/* Constructors of the individual writers (one file each), and the escaping
 * they share. */
#ifndef TC_REPORT_WRITERS_H
#define TC_REPORT_WRITERS_H

#include "report.h"

/* A zeroed writer of `size` bytes (a struct whose first member is the
 * tc_report_writer) with its four functions set; NULL when out of memory. */
tc_report_writer *tc_report_writer_new(
    size_t size, void (*input_begin)(tc_report_writer *, const char *),
    void (*diag)(tc_report_writer *, const tc_diag *),
    void (*input_end)(tc_report_writer *, const char *, int, const tc_summary *, const char *),
    void (*close)(tc_report_writer *, const tc_report_totals *));

/* "1 error", "2 errors": n and the noun, plural but for 1. */
void tc_report_count(FILE *f, uint64_t n, const char *noun);
/* "E errors, W warnings, N notes". */
void tc_report_findings(FILE *f, uint64_t errors, uint64_t warnings, uint64_t notes);

tc_report_writer *tc_report_text_new(void);
tc_report_writer *tc_report_json_new(void);
tc_report_writer *tc_report_junit_new(void);
tc_report_writer *tc_report_sarif_new(void);
tc_report_writer *tc_report_tap_new(void);
tc_report_writer *tc_report_markdown_new(void);
tc_report_writer *tc_report_html_new(void);

/* The character at p (p[0] >= 0x80, n bytes left): copied when it is
 * valid UTF-8, else U+FFFD for its first byte. Returns the bytes consumed. */
size_t tc_report_utf8_char(FILE *f, const unsigned char *p, size_t n);

/* A JSON string literal (RFC 8259), quotes included. Paths are bytes, not
 * text: a byte that does not start valid UTF-8 is written as U+FFFD, so
 * the document stays valid whatever the file names. */
void tc_report_json_string(FILE *f, const char *s);

/* XML 1.0 character data or attribute value: markup characters as
 * entities, line breaks and tabs as character references (kept in
 * attributes), other control characters (which XML 1.0 cannot carry at all)
 * as the text \xNN, and bytes that are not UTF-8 as U+FFFD. */
void tc_report_xml_text(FILE *f, const char *s);

/* The index of a finding's rule in the catalogue (tc_rule_at). */
size_t tc_report_rule_index(const tc_rule_info *r);

/* A set of names (input paths), each with the index it was first added
 * at: SARIF's artifacts and JUnit's unique test names need to know when a
 * path comes again. */
typedef struct tc_report_names {
    char **names;  /* by index */
    size_t count, cap;
    size_t *slots; /* open addressing: index + 1, 0 for empty */
    size_t nslots;
} tc_report_names;

/* The index of name, added when new (*added says which); -1 when out of
 * memory. */
long tc_report_names_add(tc_report_names *t, const char *name, int *added);
void tc_report_names_free(tc_report_names *t);

#endif
