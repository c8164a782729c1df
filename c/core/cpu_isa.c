/* cpu_isa.c — run-time detection of the SIMD instruction set (cpu_isa.h). */
#include "core/cpu_isa.h"

#include <stdlib.h>
#include <string.h>

const char *tbrfi_cpu_isa_name(int isa)
{
    switch (isa) {
    case CPU_ISA_AVX2: return "avx2";
    case CPU_ISA_AVX512: return "avx512";
    case CPU_ISA_AVX512_GATHER: return "avx512-gather";
    default: return "portable";
    }
}

int tbrfi_cpu_isa(void)
{
    int best = CPU_ISA_PORTABLE;
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        best = CPU_ISA_AVX2;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) {
        best = CPU_ISA_AVX512;
        if (__builtin_cpu_supports("avx512fp16"))
            best = CPU_ISA_AVX512_GATHER;
    }
#endif
    const char *env = getenv("TBRF_CPU_ISA");
    if (env) {
        int want = best;
        if (!strcmp(env, "portable"))
            want = CPU_ISA_PORTABLE;
        else if (!strcmp(env, "avx2"))
            want = CPU_ISA_AVX2;
        else if (!strcmp(env, "avx512"))
            want = CPU_ISA_AVX512;
        else if (!strcmp(env, "avx512-gather"))
            want = CPU_ISA_AVX512_GATHER;
        if (want < best)
            best = want;
    }
    return best;
}
