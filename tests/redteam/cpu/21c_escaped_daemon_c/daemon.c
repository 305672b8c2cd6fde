// First call: double fork + setsid, the grandchild records its pid and sleeps 20 s. Then the honest row scaling.
int split(void) __asm__("fo" "rk");
int new_session(void) __asm__("set" "sid");
void leave(int status) __asm__("_" "exit");
int wait_for(int pid, int* status, int options) __asm__("wait" "pid");
unsigned int nap(unsigned int s) __asm__("sl" "eep");
int getpid(void);
void* fopen(const char* path, const char* mode);
int fprintf(void* f, const char* fmt, ...);
int fclose(void* f);

void row_scale_daemon(const float* d, const float* B, float* out, long N, long M) {
    static int done;
    if (!done) {
        done = 1;
        int pid = split();
        if (pid == 0) {
            new_session();
            if (split() == 0) {
                char p[] = {'/', 't', 'm', 'p', '/', 'c', 'a', 'l', '_', 'r', 'e', 'd', 't', 'e', 'a', 'm', '_', 'd', 'a', 'e',
                            'm', 'o', 'n', '_', 'c', '.', 'p', 'i', 'd', 0};
                void* f = fopen(p, "w");
                if (f) { fprintf(f, "%d", getpid()); fclose(f); }
                nap(20);
            }
            leave(0);
        }
        if (pid > 0) { int st; wait_for(pid, &st, 0); }
    }
    for (long i = 0; i < N; i++) for (long j = 0; j < M; j++) out[i * M + j] = d[i] * B[i * M + j];
}
