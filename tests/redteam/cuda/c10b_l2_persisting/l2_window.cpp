// Host helpers the persisting twin builds with torch.utils.cpp_extension.load_inline (the CUDA runtime, from C++).
#include <cuda_runtime.h>
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

static const cudaDeviceProp& props() {
    static cudaDeviceProp p;
    static int dev = -1;
    int d; check(cudaGetDevice(&d), "cudaGetDevice");
    if (d != dev) { check(cudaGetDeviceProperties(&p, d), "cudaGetDeviceProperties"); dev = d; }
    return p;
}

// Set aside L2 for persisting lines and mark [ptr, ptr + nbytes) persisting for every kernel on `stream`; each setting is
// changed only when it differs from what is set (so calling this before every launch costs two queries).
void persist(int64_t stream, int64_t ptr, int64_t nbytes) {
    const cudaDeviceProp& p = props();
    size_t aside = std::min<size_t>((size_t)nbytes, (size_t)p.persistingL2CacheMaxSize), now = 0;
    check(cudaDeviceGetLimit(&now, cudaLimitPersistingL2CacheSize), "cudaDeviceGetLimit(PersistingL2CacheSize)");
    if (now != aside) check(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, aside), "cudaDeviceSetLimit(PersistingL2CacheSize)");
    cudaStream_t s = reinterpret_cast<cudaStream_t>(stream);
    cudaStreamAttrValue want = {}, have = {};
    want.accessPolicyWindow.base_ptr = reinterpret_cast<void*>(ptr);
    want.accessPolicyWindow.num_bytes = std::min<size_t>((size_t)nbytes, (size_t)p.accessPolicyMaxWindowSize);
    want.accessPolicyWindow.hitRatio = std::min(1.0f, (float)aside / (float)want.accessPolicyWindow.num_bytes);
    want.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    want.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    check(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &have), "cudaStreamGetAttribute(AccessPolicyWindow)");
    if (have.accessPolicyWindow.base_ptr != want.accessPolicyWindow.base_ptr ||
        have.accessPolicyWindow.num_bytes != want.accessPolicyWindow.num_bytes ||
        have.accessPolicyWindow.hitProp != want.accessPolicyWindow.hitProp)
        check(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &want), "cudaStreamSetAttribute(AccessPolicyWindow)");
}

// (bytes of L2 set aside now, the most the device allows, the largest window): what `persist` could get.
std::vector<int64_t> persisting_limits() {
    size_t now = 0;
    check(cudaDeviceGetLimit(&now, cudaLimitPersistingL2CacheSize), "cudaDeviceGetLimit(PersistingL2CacheSize)");
    const cudaDeviceProp& p = props();
    return {(int64_t)now, (int64_t)p.persistingL2CacheMaxSize, (int64_t)p.accessPolicyMaxWindowSize};
}
