/* rng_kat.h — reads tests/data/kat_vectors.txt ("NAME IN... -> OUT...",
 * hex words, '#' comments) on the host, and names each vector's kind, so
 * every harness checks the same file with the one computation of
 * kat_body.h. */
#ifndef TBRF_TEST_RNG_KAT_H
#define TBRF_TEST_RNG_KAT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct kat {
    char name[32];
    uint32_t in[8], out[8];
    int nin, nout, line;
} kat;

/* Reads up to max vectors; returns how many, or -1 on a malformed file
 * (with the line number in *bad). */
static int kat_read(const char *path, kat *v, int max, int *bad)
{
    FILE *f = fopen(path, "r");
    char buf[512];
    int n = 0, line = 0;
    *bad = 0;
    if (!f)
        return -1;
    while (fgets(buf, sizeof buf, f) && n < max) {
        line++;
        char *s = buf;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '#' || *s == '\n' || *s == 0)
            continue;
        kat *k = &v[n];
        memset(k, 0, sizeof *k);
        k->line = line;
        int side = 0;
        char *tok = strtok(s, " \t\n");
        if (!tok || strlen(tok) >= sizeof k->name) {
            *bad = line;
            break;
        }
        strcpy(k->name, tok);
        if (strcmp(k->name, "philox4x32") == 0) {
            tok = strtok(NULL, " \t\n"); /* rounds */
            if (!tok || strcmp(tok, "10") != 0) {
                *bad = line;
                break;
            }
        }
        while ((tok = strtok(NULL, " \t\n"))) {
            if (strcmp(tok, "->") == 0) {
                side = 1;
                continue;
            }
            char *end;
            unsigned long w = strtoul(tok, &end, 16);
            if (*end || w > 0xFFFFFFFFul || (side ? k->nout : k->nin) >= 8) {
                *bad = line;
                break;
            }
            if (side)
                k->out[k->nout++] = (uint32_t)w;
            else
                k->in[k->nin++] = (uint32_t)w;
        }
        if (*bad || !side || k->nout == 0) {
            *bad = line;
            break;
        }
        n++;
    }
    fclose(f);
    return *bad ? -1 : n;
}

/* The kind (kat_body.h) of a vector's generator, or -1. */
static int kat_kind(const kat *k)
{
    static const char *const names[] = {"philox4x32", "saru1",   "saru2", "saru3",
                                        "tea8",       "prehash", "lcg64", "lcg64-permuted"};
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (!strcmp(k->name, names[i]))
            return i;
    return -1;
}

#endif
