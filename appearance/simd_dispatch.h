// Runtime dispatch for the CPU stage's few hot loops. The build targets baseline x86-64
// (SSE2); MAD_CLONE_AVX2 on a function makes the compiler emit an AVX2 clone beside it and
// pick one at load time (GNU ifunc). Only AVX2 is cloned, not FMA or AVX-512: without FMA
// both clones round every operation identically, so the CPU path gives the same bits on any
// x86-64 machine. Elsewhere (e.g. aarch64) the macro expands to nothing.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && defined(__ELF__)
#define MAD_CLONE_AVX2 __attribute__((target_clones("avx2", "default")))
#else
#define MAD_CLONE_AVX2
#endif
