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
        "  (seed, t, min(i,j), max(i,j)); philox: counter (id, t, n, 0) or\n"
        "  (min, max, t, n); tea8: the hashed pair itself (the Saru state).\n"
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
    if (!val[O_GEN]) {
        cli_errline("rng: --gen is required (philox, saru, tea8, lcg64, lcg64-permuted)");
        return EXIT_USAGE;
    }
    int gen = -1;
    for (int g = 0; tbrf_rng_name(g); g++)
        if (strcmp(val[O_GEN], tbrf_rng_name(g)) == 0)
            gen = g;
    if (gen < 0) {
        cli_errline("rng: unknown generator '%.100s' (philox, saru, tea8, lcg64, lcg64-permuted)",
                    val[O_GEN]);
        return EXIT_USAGE;
    }
    /* which options apply */
    int layout = -1; /* 0 system, 1 particle, 2 pair */
    if (val[O_LAYOUT]) {
        const char *L[3] = {"system", "particle", "pair"};
        for (int k = 0; k < 3; k++)
            if (strcmp(val[O_LAYOUT], L[k]) == 0)
                layout = k;
        if (layout < 0) {
            cli_errline("rng: unknown layout '%.100s' (system, particle, pair)", val[O_LAYOUT]);
            return EXIT_USAGE;
        }
        if (gen == TBRF_GEN_LCG64 || gen == TBRF_GEN_LCG64_PERMUTED) {
            cli_errline("rng: --layout needs a keyed generator (philox, saru, tea8), not %s",
                        tbrf_rng_name(gen));
            return EXIT_USAGE;
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
            return EXIT_USAGE;
        }
    char err[256];
    int64_t count = -1;
    if (val[O_COUNT] && args_int64("--count", val[O_COUNT], 0, INT64_MAX, &count, err, sizeof err)) {
        cli_errline("rng: %s", err);
        return EXIT_USAGE;
    }
    uint32_t counter[4] = {0}, key[4] = {0}, seeds[3] = {0}, input[2] = {0}, pair[2] = {0, 1};
    int nseeds = 1;
    uint64_t seed = 0;
    int64_t particles = 1000, per = gen == TBRF_GEN_TEA8 ? 2 : 4, id = 0;
    if (gen == TBRF_GEN_TEA8) {
        key[0] = TBRF_TEA_K0;
        key[1] = TBRF_TEA_K1;
        key[2] = TBRF_TEA_K2;
        key[3] = TBRF_TEA_K3;
    }
    if ((val[O_COUNTER] && parse_words("--counter", val[O_COUNTER], counter, 4, 4) < 0) ||
        (val[O_KEY] && parse_words("--key", val[O_KEY], key, gen == TBRF_GEN_PHILOX ? 2 : 4,
                                   gen == TBRF_GEN_PHILOX ? 2 : 4) < 0) ||
        (val[O_INPUT] && parse_words("--input", val[O_INPUT], input, 2, 2) < 0) ||
        (val[O_PAIR] && parse_words("--pair", val[O_PAIR], pair, 2, 2) < 0))
        return EXIT_USAGE;
    if (val[O_SEEDS] && (nseeds = parse_words("--seeds", val[O_SEEDS], seeds, 1, 3)) < 0)
        return EXIT_USAGE;
    if (val[O_SEED]) {
        if (args_uint64("--seed", val[O_SEED], &seed, err, sizeof err)) {
            cli_errline("rng: %s", err);
            return EXIT_USAGE;
        }
        if (seed > 0xFFFFFFFFu && layout >= 0 && gen != TBRF_GEN_PHILOX) {
            cli_errline("rng: --seed must be < 2^32 for %s micro-streams", tbrf_rng_name(gen));
            return EXIT_USAGE;
        }
    }
    if ((val[O_PARTICLES] && args_int64("--particles", val[O_PARTICLES], 1, 0xFFFFFFFFll, &particles,
                                        err, sizeof err)) ||
        (val[O_PER] && args_int64("--per", val[O_PER], 1, 1 << 20, &per, err, sizeof err)) ||
        (val[O_ID] && args_int64("--id", val[O_ID], 0, 0xFFFFFFFFll, &id, err, sizeof err))) {
        cli_errline("rng: %s", err);
        return EXIT_USAGE;
    }
    int hex = val[O_HEX] != NULL;
    if (count < 0 && hex)
        count = gen == TBRF_GEN_TEA8 ? 2 : 4;
    sink *s = calloc(1, sizeof *s);
    if (!s) {
        cli_errline("rng: out of memory");
        return EXIT_FAIL;
    }
    s->hex = hex;
#define MORE() (count < 0 || s->written < count) && !s->failed
    if (layout >= 0) {
        /* keyed micro-streams over steps t = 0, 1, ... */
        for (uint64_t t = 0; t <= 0xFFFFFFFFu && MORE(); t++) {
            int64_t units = layout == 0 ? particles : 1;
            for (int64_t u = 0; u < units && MORE(); u++) {
                uint32_t i = layout == 0 ? (uint32_t)u : layout == 1 ? (uint32_t)id : pair[0];
                if (gen == TBRF_GEN_PHILOX) {
                    for (uint32_t b = 0; b * 4 < (uint64_t)per && MORE(); b++) {
                        philox4x32_ctr_t r = layout == 2
                                                 ? tbrf_philox_pair(seed, (uint32_t)t, pair[0], pair[1], b)
                                                 : tbrf_philox_id(seed, (uint32_t)t, i, b);
                        for (int k = 0; k < 4 && b * 4 + (uint32_t)k < (uint64_t)per && MORE(); k++)
                            put(s, r.v[k]);
                    }
                } else {
                    tbrf_saru st = layout == 2 ? tbrf_stream_pair((uint32_t)seed, (uint32_t)t, pair[0], pair[1])
                                               : tbrf_stream_id((uint32_t)seed, (uint32_t)t, i);
                    if (gen == TBRF_GEN_TEA8) {
                        put(s, st.x);
                        if (MORE())
                            put(s, st.w);
                    } else {
                        for (int64_t k = 0; k < per && MORE(); k++)
                            put(s, tbrf_saru_next(&st));
                    }
                }
            }
        }
    } else if (gen == TBRF_GEN_PHILOX) {
        philox4x32_key_t k = {{key[0], key[1]}};
        philox4x32_ctr_t c = {{counter[0], counter[1], counter[2], counter[3]}};
        while (MORE()) {
            philox4x32_ctr_t r = philox4x32(c, k);
            for (int j = 0; j < 4 && MORE(); j++)
                put(s, r.v[j]);
            for (int j = 0; j < 4 && ++c.v[j] == 0; j++)
                ;
        }
    } else if (gen == TBRF_GEN_SARU) {
        tbrf_saru st = nseeds == 1   ? tbrf_saru_seed1(seeds[0])
                       : nseeds == 2 ? tbrf_saru_seed2(seeds[0], seeds[1])
                                     : tbrf_saru_seed3(seeds[0], seeds[1], seeds[2]);
        while (MORE())
            put(s, tbrf_saru_next(&st));
    } else if (gen == TBRF_GEN_TEA8) {
        for (uint32_t j = 0; MORE(); j++) {
            uint32_t v0 = input[0], v1 = input[1] + j;
            tbrf_tea8(&v0, &v1, key[0], key[1], key[2], key[3]);
            put(s, v0);
            if (MORE())
                put(s, v1);
        }
    } else {
        uint64_t x = seed;
        int perm = gen == TBRF_GEN_LCG64_PERMUTED;
        while (MORE()) {
            x = tbrf_lcg64_step(x);
            put(s, perm ? tbrf_lcg64_out_permuted(x) : tbrf_lcg64_out(x));
        }
    }
#undef MORE
    sink_flush(s);
    if (hex && s->written && !s->failed && fputc('\n', stdout) == EOF)
        s->failed = 1;
    int failed = s->failed;
    free(s);
    if (failed) {
        cli_errline("rng: cannot write to standard output: %s", strerror(errno));
        return EXIT_FAIL;
    }
    return 0;
}
