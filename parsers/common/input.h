/*
 * Inputs: files, standard input and memory, with gzip, bzip2 and zstd
 * decompressed transparently when the first bytes carry their magic number.
 * A regular uncompressed file is read in windows at any offset (pread),
 * never into memory whole; everything else streams through a bounded
 * buffer.
 */
#ifndef TC_INPUT_H
#define TC_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "reader.h"

typedef enum tc_compression {
    TC_COMP_NONE = 0,
    TC_COMP_GZIP,
    TC_COMP_BZIP2,
    TC_COMP_ZSTD
} tc_compression;

typedef struct tc_input tc_input;

typedef struct tc_input_opts {
    size_t window; /* bytes per file window / stream buffer; 0 = default (1 MiB) */
    int no_mmap;   /* read regular files through the stream path (tests) */
} tc_input_opts;

/* Opens path ("-" for standard input). On failure returns NULL with the
 * reason as err's root cause (err may be NULL). */
tc_input *tc_input_open(const char *path, const tc_input_opts *opts, tc_error *err);

/* Bytes in memory, decompressed too when they carry a magic number. The bytes
 * must outlive the input. */
tc_input *tc_input_open_memory(const void *data, size_t size, const tc_input_opts *opts);

tc_reader *tc_input_reader(tc_input *in);
tc_compression tc_input_compression(const tc_input *in);
const char *tc_compression_name(tc_compression c);
void tc_input_close(tc_input *in);

/* The input's length when it is known before reading it (a regular file or
 * bytes in memory, uncompressed); UINT64_MAX otherwise. */
uint64_t tc_input_size(const tc_input *in);

/* A second, independent reader over the same bytes, from their start, when
 * the input can be read at any place (a regular uncompressed file, mapped
 * in windows of its own, or uncompressed bytes in memory); NULL otherwise,
 * or out of memory. Close it with tc_input_close. */
tc_input *tc_input_reopen(const tc_input *in);

/* Gives back the memory of the window a mapped file's reader holds (the
 * position stays): while other readers do its work. */
void tc_input_release_window(tc_input *in);

/* The compression a magic number announces (at least 4 bytes needed). */
tc_compression tc_detect_compression(const unsigned char *p, size_t n);

/* The file name suffixes of compressed inputs, in the order a file named
 * after another is looked for (SDE writes .bz2), NULL-terminated. The
 * content decides how an input is read; names use these where a format is
 * told by its name (perf's .rtd.gz, a DCFG-trace's .trace.json.bz2). */
extern const char *const tc_compression_suffixes[];

/* The length of the first len bytes of name without the one compression
 * suffix they end with, if any. */
size_t tc_strip_compression_suffix(const char *name, size_t len);

#endif
