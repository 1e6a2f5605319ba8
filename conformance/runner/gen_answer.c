/*
 * A tool's message as a class of --generate: see gen_answer.h. Values
 * change from trace to trace (a byte read as an event's value, a clock, a
 * tid, a stream's path); the words around them say what the tool refused.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "gen_answer.h"

#define CLASS_MAX 100
/* What ends a word, and a token (a word without the punctuation around it). */
#define WORD_ENDS " '\"`()=,"
#define TOKEN_ENDS " \t'\"`(),:;"

const char *gx_telling_line(const tc_conf_outcome *o, size_t *len)
{
    static const char *const words[] = {"error", "fatal", "fail", "invalid", "abort"};
    const char *s = o->err && *o->err ? o->err : o->out ? o->out : "";
    const char *first = NULL;
    for (const char *line = s; *line;) {
        size_t n = strcspn(line, "\n");
        char low[512];
        size_t k = n < sizeof low - 1 ? n : sizeof low - 1;
        for (size_t i = 0; i < k; i++)
            low[i] = (char)tolower((unsigned char)line[i]);
        low[k] = '\0';
        if (k && !first)
            first = line;
        for (size_t w = 0; w < sizeof words / sizeof *words; w++)
            if (strstr(low, words[w])) {
                *len = n;
                return line;
            }
        line += n + (line[n] == '\n');
    }
    first = first ? first : s;
    *len = strcspn(first, "\n");
    return first;
}

/* Whether s[i] starts a word with a '/' in it (a path: the trace's, a
 * scratch copy's, a stream's within the trace): its length, else 0. A
 * colon that ends it is left to the message. */
static size_t path_at(const char *s, size_t i, size_t n)
{
    if (i > 0 && !strchr(WORD_ENDS, s[i - 1]))
        return 0;
    size_t k = i;
    while (k < n && !strchr(WORD_ENDS, s[k]))
        k++;
    while (k > i && s[k - 1] == ':')
        k--;
    return memchr(s + i, '/', k - i) ? k - i : 0;
}

/* Whether s[i] opens a quoted value ('t', "abc", 'loom.x/proc.1'): its
 * length with the quotes, else 0; *path when it holds a '/'. Values longer
 * than 32 bytes are words of the message, not values. */
static size_t quoted_at(const char *s, size_t i, size_t n, int *path)
{
    if (s[i] != '\'' && s[i] != '"')
        return 0;
    const char *end = memchr(s + i + 1, s[i], n - i - 1);
    if (!end)
        return 0;
    size_t inner = (size_t)(end - s - i - 1);
    *path = memchr(s + i + 1, '/', inner) != NULL;
    return *path || inner <= 32 ? inner + 2 : 0;
}

/* Whether s[i] starts a token (after a blank, punctuation or the start). */
static int token_start(const char *s, size_t i)
{
    return i == 0 || strchr(TOKEN_ENDS, s[i - 1]) || s[i - 1] == '.';
}

static size_t token_len(const char *s, size_t i, size_t n)
{
    size_t k = i;
    while (k < n && !strchr(TOKEN_ENDS, s[k]))
        k++;
    return k - i;
}

/* A number at s[i]: a sign before a digit, digits, hex digits after them
 * (0x7f, 3c5a), a fraction (20.37). Its length, else 0. */
static size_t number_at(const char *s, size_t i, size_t n)
{
    size_t k = i;
    if (k < n && (s[k] == '-' || s[k] == '+') && token_start(s, i) && k + 1 < n &&
        isdigit((unsigned char)s[k + 1]))
        k++;
    if (k >= n || !isdigit((unsigned char)s[k]))
        return 0;
    while (k < n && (isxdigit((unsigned char)s[k]) || s[k] == 'x' || s[k] == 'X'))
        k++;
    if (k + 1 < n && s[k] == '.' && isdigit((unsigned char)s[k + 1]))
        while (++k < n && isdigit((unsigned char)s[k]))
            ;
    return k - i;
}

/* A code of the tool's values at s[i] (a whole token): one character that
 * is not a word of its own (category Z, value {), or two to four with a
 * capital after the first and no run of capitals that is a word (XJc,
 * 6Tx, VS?, OHx; not ERROR, MPI_Init). Its length, else 0. */
static size_t code_at(const char *s, size_t i, size_t n)
{
    if (!token_start(s, i))
        return 0;
    size_t len = token_len(s, i, n);
    if (len == 1) {
        /* The word before it: a byte shown as a code (value x, category 7)
         * is one whatever it is; a unit after a number (20.37 h) is a word. */
        size_t j = i;
        while (j > 0 && s[j - 1] == ' ')
            j--;
        size_t w = j;
        while (w > 0 && isalpha((unsigned char)s[w - 1]))
            w--;
        static const char *const code_words[] = {"value", "category", "model", "code"};
        for (size_t k = 0; k < sizeof code_words / sizeof *code_words; k++)
            if (j - w == strlen(code_words[k]) && !strncmp(s + w, code_words[k], j - w))
                return 1;
        if (j > 0 && isdigit((unsigned char)s[j - 1]))
            return 0;
        return strchr("aAI", s[i]) || isdigit((unsigned char)s[i]) ? 0 : 1;
    }
    if (len == 0 || number_at(s, i, n) == len)
        return 0; /* a number */
    if (len < 2 || len > 4)
        return 0;
    int inner_capital = 0, lower = 0, other = 0;
    for (size_t k = i; k < i + len; k++) {
        unsigned char c = (unsigned char)s[k];
        if (isupper(c) && k > i)
            inner_capital = 1;
        else if (islower(c))
            lower = 1;
        else if (!isalpha(c))
            other = 1;
    }
    return inner_capital && (lower || other || len == 3) ? len : 0;
}

static char shown(char c) { return isprint((unsigned char)c) && c != '|' ? c : '?'; }

char *gx_answer_class(const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    char *out = malloc(CLASS_MAX + 16);
    if (!out)
        abort();
    size_t k = 0, q;
    int path;
    for (size_t i = 0; i < n && k < CLASS_MAX;) {
        const char *put = NULL;
        if ((q = quoted_at(s, i, n, &path)) != 0) {
            put = path ? (s[i] == '"' ? "\"PATH\"" : "'PATH'") : (s[i] == '"' ? "\"V\"" : "'V'");
        } else if ((q = path_at(s, i, n)) != 0) {
            put = "PATH";
        } else if ((q = code_at(s, i, n)) != 0) {
            put = q == 1 ? "C" : "ID";
        } else if ((q = number_at(s, i, n)) != 0) {
            put = "N";
        } else {
            out[k++] = shown(s[i++]);
            continue;
        }
        size_t len = strlen(put);
        memcpy(out + k, put, len);
        k += len;
        i += q;
    }
    out[k] = '\0';
    return out;
}

char *gx_answer_example(const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    size_t len = n < CLASS_MAX ? n : CLASS_MAX;
    char *out = malloc(len + 1);
    if (!out)
        abort();
    for (size_t i = 0; i < len; i++)
        out[i] = shown(s[i]);
    out[len] = '\0';
    return out;
}
