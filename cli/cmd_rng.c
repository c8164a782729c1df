/* cmd_rng.c — `tbrf rng`: raw generator output for known-answer checks and
 * for piping into test batteries (dieharder, PractRand, TestU01).
 *
 *   tbrf rng --gen philox|saru|tea8|lcg64|lcg64-permuted [generator options]
 *            [--count N] [--hex] [--layout system|particle|pair ...]
 *
 * Without --hex the words go to stdout as raw little-endian 32-bit words,
 * without end unless --count is given. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "tbrf/rng/lcg64.h"
#include "tbrf/rng/philox.h"
#include "tbrf/rng/saru.h"
#include "tbrf/rng/tea.h"
#include "tbrf.h"

static void usage(void)
{
    printf(
        "usage: tbrf rng --gen GEN [options] [--count N] [--hex]\n"
        "\n"
        "Writes the output words of one generator: raw little-endian 32-bit words\n"
        "without end (for piping into test batteries), or N words with --count; with\n"
        "--hex as 8-digit hex words separated by spaces (default count: one block).\n"
        "\n"
        "generators and their options (words are decimal or 0x-prefixed hex):\n"
        "  philox           --counter c0,c1,c2,c3 --key k0,k1   Philox4x32-10; the\n"
        "                   128-bit counter (c0 lowest) increases by one per block\n"
        "  saru             --seeds s1[,s2[,s3]]   Saru seeded from 1-3 words, stepped\n"
        "  tea8             --input v0,v1 [--key k0,k1,k2,k3]   the two TEA8-hashed\n"
        "                   words of (v0, v1), then of (v0, v1+1), ...; default key is\n"
        "                   the GPU key A341316C C8013EA4 AD90777D 7E95761E\n"
        "  lcg64            --seed S (64-bit)   top 32 bits of x_1, x_2, ...\n"
        "  lcg64-permuted   --seed S   PCG's XSH-RR output of the same states\n"
        "\n"
        "keyed micro-streams (philox, saru, tea8), as Phillips et al. tested them:\n"
        "  --layout system     for each step t = 0, 1, ...: each particle 0..P-1\n"
        "  --layout particle   one particle (--id I, default 0) over steps\n"
        "  --layout pair       one pair (--pair I,J, default 0,1) over steps\n"
        "  --seed S            global seed (saru, tea8: 32-bit; philox: 64-bit key)\n"
        "  --particles P       particles in the system layout (default 1000)\n"
        "  --per K             words per micro-stream (default 4; tea8 gives 2)\n"
        "  saru: K words of the Saru stream TEA8-keyed by (seed, t, id) or\n"
        "  (seed, t, min(i,j), max(i,j)); philox: counter (id, 0x0C000000|n, t, 0)\n"
        "  or (min, 0x0D000000|n, max, t); tea8: the hashed pair itself (the Saru\n"
        "  state).\n"
        "\n"
        "  tbrf rng --gen philox --hex                     # 6627e8d5 e169c58d ...\n"
        "  tbrf rng --gen saru --layout system | dieharder -a -g 200\n");
}

enum { O_GEN, O_COUNTER, O_KEY, O_SEEDS, O_INPUT, O_SEED, O_COUNT, O_HEX, O_LAYOUT, O_PARTICLES,
       O_PER, O_ID, O_PAIR, O_HELP, O_N };
static const args_opt OPTS[O_N] = {{"--gen", 1},  {"--counter", 1}, {"--key", 1},    {"--seeds", 1},     {"--input", 1},
               {"--seed", 1}, {"--count", 1},   {"--hex", 0},    {"--layout", 1},    {"--particles", 1},
               {"--per", 1},  {"--id", 1},      {"--pair", 1},   {"--help", 0}};

/* A 32-bit word: decimal or 0x-prefixed hex, nothing else. */
static int parse_word(const char *s, uint32_t *w)
{
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *p = hex ? s + 2 : s;
    if (!*p)
        return -1;
    for (const char *q = p; *q; q++)
        if (!(hex ? ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f') ||
                     (*q >= 'A' && *q <= 'F'))
                  : (*q >= '0' && *q <= '9')))
            return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(p, &end, hex ? 16 : 10);
    if (errno || *end || v > 0xFFFFFFFFull)
        return -1;
    *w = (uint32_t)v;
    return 0;
}

/* 1..maxn comma-separated words (exactly n when exact). */
static int parse_words(const char *opt, const char *s, uint32_t *w, int minn, int maxn)
{
    char buf[256];
    if (strlen(s) >= sizeof buf) {
        cli_errline("rng: %s is too long", opt);
        return -1;
    }
    strcpy(buf, s);
    int n = 0;
    char *save = NULL, *tok = buf;
    if (buf[0] == ',' || (strlen(buf) && buf[strlen(buf) - 1] == ',') || strstr(buf, ",,")) {
        cli_errline("rng: %s '%.100s' has an empty word", opt, s);
        return -1;
    }
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (n >= maxn || parse_word(tok, &w[n])) {
            if (n >= maxn)
                cli_errline("rng: %s takes %s%d words, got more", opt, minn == maxn ? "" : "at most ",
                            maxn);
            else
                cli_errline("rng: %s: '%.100s' is not a 32-bit word (decimal or 0x hex)", opt, tok);
            return -1;
        }
        n++;
    }
    if (n < minn) {
        cli_errline("rng: %s takes %s%d words, got %d", opt, minn == maxn ? "" : "at least ", minn,
                    n);
        return -1;
    }
    return n;
}

/* Output: raw little-endian words or hex text, buffered. */
typedef struct sink {
    int hex;
    int64_t written;
    unsigned char buf[1 << 16];
    size_t used;
    int failed;
} sink;

static void sink_flush(sink *s)
{
    if (s->used && !s->failed && fwrite(s->buf, 1, s->used, stdout) != s->used)
        s->failed = 1;
    s->used = 0;
}

static void put(sink *s, uint32_t w)
{
    if (s->used + 16 > sizeof s->buf)
        sink_flush(s);
    if (s->hex) {
        s->used += (size_t)snprintf((char *)s->buf + s->used, 16, "%s%08x", s->written ? " " : "",
                                    w);
    } else {
        s->buf[s->used++] = (unsigned char)w;
        s->buf[s->used++] = (unsigned char)(w >> 8);
        s->buf[s->used++] = (unsigned char)(w >> 16);
        s->buf[s->used++] = (unsigned char)(w >> 24);
    }
    s->written++;
}

/* What to write: the generator, its layout and parameters. */
typedef struct rng_req {
    int gen, layout; /* layout: -1 none, 0 system, 1 particle, 2 pair */
    uint32_t counter[4], key[4], seeds[3], input[2], pair[2];
    int nseeds;
    uint64_t seed;
    int64_t particles, per, id, count;
    int hex;
} rng_req;

/* --gen and --layout, and which options apply to them. */
static int pick_generator(const char *const *val, rng_req *q)
{
    if (!val[O_GEN]) {
        cli_errline("rng: --gen is required (philox, saru, tea8, lcg64, lcg64-permuted)");
        return -1;
    }
    int gen = -1, layout = -1;
    for (int g = 0; tbrf_rng_name(g); g++)
        if (strcmp(val[O_GEN], tbrf_rng_name(g)) == 0)
            gen = g;
    if (gen < 0) {
        cli_errline("rng: unknown generator '%.100s' (philox, saru, tea8, lcg64, lcg64-permuted)",
                    val[O_GEN]);
        return -1;
    }
    if (val[O_LAYOUT]) {
        const char *L[3] = {"system", "particle", "pair"};
        for (int k = 0; k < 3; k++)
            if (strcmp(val[O_LAYOUT], L[k]) == 0)
                layout = k;
        if (layout < 0) {
            cli_errline("rng: unknown layout '%.100s' (system, particle, pair)", val[O_LAYOUT]);
            return -1;
        }
        if (gen == TBRF_GEN_LCG64 || gen == TBRF_GEN_LCG64_PERMUTED) {
            cli_errline("rng: --layout needs a keyed generator (philox, saru, tea8), not %s",
                        tbrf_rng_name(gen));
            return -1;
        }
    }
    const int applies[O_N] = {
        [O_GEN] = 1, [O_COUNT] = 1, [O_HEX] = 1, [O_HELP] = 1, [O_LAYOUT] = 1,
        [O_COUNTER] = gen == TBRF_GEN_PHILOX && layout < 0,
        [O_KEY] = (gen == TBRF_GEN_PHILOX || gen == TBRF_GEN_TEA8) && layout < 0,
        [O_SEEDS] = gen == TBRF_GEN_SARU && layout < 0,
        [O_INPUT] = gen == TBRF_GEN_TEA8 && layout < 0,
        [O_SEED] = layout >= 0 || gen == TBRF_GEN_LCG64 || gen == TBRF_GEN_LCG64_PERMUTED,
        [O_PARTICLES] = layout == 0, [O_PER] = layout >= 0 && gen != TBRF_GEN_TEA8,
        [O_ID] = layout == 1, [O_PAIR] = layout == 2};
    for (int o = 0; o < O_N; o++)
        if (val[o] && !applies[o]) {
            cli_errline("rng: %s does not apply to --gen %s%s", OPTS[o].name, tbrf_rng_name(gen),
                        layout >= 0 ? " with --layout" : "");
            return -1;
        }
    q->gen = gen;
    q->layout = layout;
    return 0;
}

/* The word lists (counter, key, input, pair, seeds). */
static int parse_lists(const char *const *val, rng_req *q)
{
    int philox = q->gen == TBRF_GEN_PHILOX;
    if (q->gen == TBRF_GEN_TEA8) {
        q->key[0] = TBRF_TEA_K0;
        q->key[1] = TBRF_TEA_K1;
        q->key[2] = TBRF_TEA_K2;
        q->key[3] = TBRF_TEA_K3;
    }
    if ((val[O_COUNTER] && parse_words("--counter", val[O_COUNTER], q->counter, 4, 4) < 0) ||
        (val[O_KEY] && parse_words("--key", val[O_KEY], q->key, philox ? 2 : 4, philox ? 2 : 4) < 0) ||
        (val[O_INPUT] && parse_words("--input", val[O_INPUT], q->input, 2, 2) < 0) ||
        (val[O_PAIR] && parse_words("--pair", val[O_PAIR], q->pair, 2, 2) < 0))
        return -1;
    if (val[O_SEEDS] && (q->nseeds = parse_words("--seeds", val[O_SEEDS], q->seeds, 1, 3)) < 0)
        return -1;
    return 0;
}

/* The numbers (count, seed, particles, per, id) and the output form. */
static int parse_numbers(const char *const *val, rng_req *q)
{
    char err[256];
    q->count = -1;
    if (val[O_COUNT] && args_int64("--count", val[O_COUNT], 0, INT64_MAX, &q->count, err, sizeof err))
        goto bad;
    if (val[O_SEED]) {
        if (args_uint64("--seed", val[O_SEED], &q->seed, err, sizeof err))
            goto bad;
        if (q->seed > 0xFFFFFFFFu && q->layout >= 0 && q->gen != TBRF_GEN_PHILOX) {
            cli_errline("rng: --seed must be < 2^32 for %s micro-streams", tbrf_rng_name(q->gen));
            return -1;
        }
    }
    if ((val[O_PARTICLES] && args_int64("--particles", val[O_PARTICLES], 1, 0xFFFFFFFFll,
                                        &q->particles, err, sizeof err)) ||
        (val[O_PER] && args_int64("--per", val[O_PER], 1, 1 << 20, &q->per, err, sizeof err)) ||
        (val[O_ID] && args_int64("--id", val[O_ID], 0, 0xFFFFFFFFll, &q->id, err, sizeof err)))
        goto bad;
    q->hex = val[O_HEX] != NULL;
    if (q->count < 0 && q->hex)
        q->count = q->gen == TBRF_GEN_TEA8 ? 2 : 4;
    return 0;
bad:
    cli_errline("rng: %s", err);
    return -1;
}

/* Whether another word is wanted (and output still works). */
static int more(const sink *s, const rng_req *q)
{
    return (q->count < 0 || s->written < q->count) && !s->failed;
}

/* One unit (particle or pair) of keyed micro-streams at step t. */
static void put_unit(sink *s, const rng_req *q, uint32_t t, uint32_t i)
{
    const uint32_t *pair = q->pair;
    if (q->gen == TBRF_GEN_PHILOX) {
        for (uint32_t b = 0; b * 4 < (uint64_t)q->per && more(s, q); b++) {
            philox4x32_ctr_t r = q->layout == 2 ? tbrf_philox_pair(q->seed, t, pair[0], pair[1], b)
                                                : tbrf_philox_id(q->seed, t, i, b);
            for (int k = 0; k < 4 && b * 4 + (uint32_t)k < (uint64_t)q->per && more(s, q); k++)
                put(s, r.v[k]);
        }
        return;
    }
    tbrf_saru st = q->layout == 2 ? tbrf_stream_pair((uint32_t)q->seed, t, pair[0], pair[1])
                                  : tbrf_stream_id((uint32_t)q->seed, t, i);
    if (q->gen == TBRF_GEN_TEA8) {
        put(s, st.x);
        if (more(s, q))
            put(s, st.w);
    } else {
        for (int64_t k = 0; k < q->per && more(s, q); k++)
            put(s, tbrf_saru_next(&st));
    }
}

/* Keyed micro-streams over steps t = 0, 1, ... */
static void put_streams(sink *s, const rng_req *q)
{
    for (uint64_t t = 0; t <= 0xFFFFFFFFu && more(s, q); t++) {
        int64_t units = q->layout == 0 ? q->particles : 1;
        for (int64_t u = 0; u < units && more(s, q); u++) {
            uint32_t i = q->layout == 0 ? (uint32_t)u : q->layout == 1 ? (uint32_t)q->id : q->pair[0];
            put_unit(s, q, (uint32_t)t, i);
        }
    }
}

/* One generator's own sequence from its counter, seeds, input or seed. */
static void put_plain(sink *s, const rng_req *q)
{
    if (q->gen == TBRF_GEN_PHILOX) {
        philox4x32_key_t k = {{q->key[0], q->key[1]}};
        philox4x32_ctr_t c = {{q->counter[0], q->counter[1], q->counter[2], q->counter[3]}};
        while (more(s, q)) {
            philox4x32_ctr_t r = philox4x32(c, k);
            for (int j = 0; j < 4 && more(s, q); j++)
                put(s, r.v[j]);
            for (int j = 0; j < 4 && ++c.v[j] == 0; j++)
                ;
        }
    } else if (q->gen == TBRF_GEN_SARU) {
        const uint32_t *sd = q->seeds;
        tbrf_saru st = q->nseeds == 1   ? tbrf_saru_seed1(sd[0])
                       : q->nseeds == 2 ? tbrf_saru_seed2(sd[0], sd[1])
                                        : tbrf_saru_seed3(sd[0], sd[1], sd[2]);
        while (more(s, q))
            put(s, tbrf_saru_next(&st));
    } else if (q->gen == TBRF_GEN_TEA8) {
        for (uint32_t j = 0; more(s, q); j++) {
            uint32_t v0 = q->input[0], v1 = q->input[1] + j;
            tbrf_tea8(&v0, &v1, q->key[0], q->key[1], q->key[2], q->key[3]);
            put(s, v0);
            if (more(s, q))
                put(s, v1);
        }
    } else {
        uint64_t x = q->seed;
        int perm = q->gen == TBRF_GEN_LCG64_PERMUTED;
        while (more(s, q)) {
            x = tbrf_lcg64_step(x);
            put(s, perm ? tbrf_lcg64_out_permuted(x) : tbrf_lcg64_out(x));
        }
    }
}

int cmd_rng(int argc, char **argv)
{
    const char *val[O_N] = {0};
    int parsed = args_parse_options("rng", OPTS, O_N, O_HELP, argc, argv, val);
    if (parsed < 0)
        return EXIT_USAGE;
    if (parsed > 0) {
        usage();
        return 0;
    }
    rng_req q = {.pair = {0, 1}, .nseeds = 1, .particles = 1000};
    if (pick_generator(val, &q))
        return EXIT_USAGE;
    q.per = q.gen == TBRF_GEN_TEA8 ? 2 : 4;
    if (parse_lists(val, &q) || parse_numbers(val, &q))
        return EXIT_USAGE;
    sink *s = calloc(1, sizeof *s);
    if (!s) {
        cli_errline("rng: out of memory");
        return EXIT_FAIL;
    }
    s->hex = q.hex;
    if (q.layout >= 0)
        put_streams(s, &q);
    else
        put_plain(s, &q);
    sink_flush(s);
    if (q.hex && s->written && !s->failed && fputc('\n', stdout) == EOF)
        s->failed = 1;
    int failed = s->failed;
    free(s);
    if (failed) {
        cli_errline("rng: cannot write to standard output: %s", strerror(errno));
        return EXIT_FAIL;
    }
    return 0;
}
