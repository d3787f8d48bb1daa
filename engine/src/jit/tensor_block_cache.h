// LibTorch's CPU allocator, replaced by one that keeps freed large tensor
// buffers for the next request of about the same size.
//
// Why: c10's default allocator is posix_memalign/free. glibc serves buffers
// above its mmap threshold with fresh mappings and splits freed heap chunks
// for small objects, so a graph run that makes one 2.4 MB value after another
// (ViT-B/16's MLP: five per layer) faults every page of every one in afresh:
// 60k page faults and a third of the check's time on a 2-core VM, and heap
// growth that raised the check's peak RSS by 215 MB. Transformers and CNNs
// make the same few sizes over and over, so a size-keyed cache hits almost
// always. Measured with `t2n bench` (see issue 13's note).
#pragma once

#include "t2n/runtime_info.h"

#include <c10/core/Allocator.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace t2n::jit {

/// The public figures (t2n/runtime_info.h) are the cache's own counters.
using BlockCacheStats = TensorBlockCacheStats;

class TensorBlockCache final : public c10::Allocator {
public:
    /// Buffers smaller than this go straight to posix_memalign/free (glibc's
    /// bins serve them without faults). From glibc's own mmap threshold up,
    /// glibc maps each afresh: ResNet-18's 200 KiB values faulted again in
    /// every run of the interpreter with 256 KiB here.
    static constexpr size_t kCachedFrom = size_t{128} << 10;
    /// A cached block serves a request up to 1/8 smaller than itself.
    static constexpr size_t kSlackDivisor = 8;
    /// What the cache may hold beside the live tensors: a transformer
    /// layer's values (ViT-B/16: about 25 MB) with room to spare, and at
    /// least a few of the largest blocks asked for, however large.
    static constexpr size_t kBudget = size_t{128} << 20;
    static constexpr size_t kBudgetInLargestBlocks = 4;

    c10::DataPtr allocate(size_t bytes) const override;
    c10::DeleterFnPtr raw_deleter() const override { return &release; }

    BlockCacheStats stats() const;
    /// Frees every cached block.
    void trim();

    /// The process's cache (LibTorch's allocator table is process-wide too);
    /// never destroyed, so that tensors freed by static destructors still
    /// find it.
    static TensorBlockCache& instance();

private:
    static void release(void* data);
    void keep(void* base, size_t capacity);
    void* takeOrEvict(size_t capacity);
    void evictOldest(size_t room, std::vector<void*>& evicted);
    size_t budget() const;

    mutable std::mutex mutex_;
    struct Block {
        void* base;
        uint64_t freedAt; ///< release order: the oldest goes first
    };
    std::multimap<size_t, Block> free_; ///< by capacity
    uint64_t clock_ = 0;
    size_t largest_ = 0; ///< the largest capacity asked for so far
    BlockCacheStats stats_;
};

/// While one lives, the large buffers its thread allocates are values that
/// die soon (an interpreter run): the cache may round them up to whole huge
/// pages (tensor_block_cache.cpp says why).
class TransientValues {
public:
    TransientValues();
    ~TransientValues();
    TransientValues(const TransientValues&) = delete;
    TransientValues& operator=(const TransientValues&) = delete;

private:
    bool previous_;
};

} // namespace t2n::jit
