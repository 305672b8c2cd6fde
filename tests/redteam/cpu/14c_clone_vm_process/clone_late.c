// clone(CLONE_VM | SIGCHLD): a child process in this address space writes out = diag(d) @ B after 1 ms, then exits.
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct { const float* d; const float* B; float* out; long N, M; } job_t;

static int work(void* p) {
    job_t* j = (job_t*)p;
    usleep(1000);
    for (long i = 0; i < j->N; i++) for (long k = 0; k < j->M; k++) j->out[i * j->M + k] = j->d[i] * j->B[i * j->M + k];
    return 0;
}

void row_scale_clone(const float* d, const float* B, float* out, long N, long M) {
    const long STACK = 1 << 18;
    char* stack = malloc(STACK);                 // leaked on purpose: the child may still run on it
    job_t* j = malloc(sizeof(job_t));
    j->d = d; j->B = B; j->out = out; j->N = N; j->M = M;
    clone(work, stack + STACK, CLONE_VM | SIGCHLD, j);
}
