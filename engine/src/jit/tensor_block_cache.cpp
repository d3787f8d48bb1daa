#include "jit/tensor_block_cache.h"

#include "t2n/runtime_info.h"

#include <c10/core/CPUAllocator.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include <sys/mman.h>

namespace t2n::jit {

namespace {
// Every block starts with a header holding its capacity; the data follows,
// 64-byte aligned like c10's own allocator's. The deleter then needs no
// table, and DataPtr's context is the data pointer itself, which
// Allocator::raw_allocate requires.
constexpr size_t kHeader = 64;
constexpr size_t kPage = 4096;
constexpr size_t kHugePage = size_t{2} << 20;

struct Header {
    size_t capacity;
    size_t mapped; ///< bytes of its own mapping (huge-page block), else 0
};

size_t roundUp(size_t n, size_t to) {
    return (n + to - 1) / to * to;
}

// Blocks of 768 KiB and more get a mapping of their own, 2 MiB aligned and
// marked for transparent huge pages: one page fault per 2 MiB instead of 512.
// Why: on the VMs t2n is measured on, a 4 KiB fault costs about 60 us (a
// 64 MiB buffer takes 1 s to touch, 20-35 ms in huge pages), and a check's
// single interpreter run touches each of its values for the first time:
// ResNet-18's run at 224x224 faulted 3,300 pages, twice its compute (with
// 1.5 MiB and more only, still 1,000 for its 800 KiB values). A block under
// 2 MiB takes a whole huge page (up to 2.7x its size; the budget counts it);
// a larger one keeps the tail past its last whole 2 MiB in small pages (a
// weight held all along costs no more than its bytes: rounding every block
// up raised ViT-B/16's peak RSS by 40-70 MB), except for TransientValues.
constexpr size_t kHugeFrom = size_t{768} << 10;

/// Set on a thread whose large buffers are values that die soon (the
/// interpreter's run, TransientValues): those are rounded up to whole huge
/// pages when that adds at most half (ResNet-18's 3.1 MiB values), which a
/// weight held all along is not.
thread_local bool transientValues = false;

/// What a block of `capacity` holds in memory: the budget's unit. A huge-page
/// block's header sits at the end of one small page before its data, so that
/// a value of a whole number of 2 MiB (4 MiB, say) needs no extra huge page.
size_t footprintFor(size_t capacity) {
    if (capacity < kHugeFrom)
        return kHeader + capacity;
    const size_t whole = roundUp(capacity, kHugePage);
    const bool round =
        capacity < kHugePage || (transientValues && whole - capacity <= capacity / 2);
    return kPage + (round ? whole : roundUp(capacity, kPage));
}

void* newHugeBlock(size_t capacity) {
    const size_t length = footprintFor(capacity);
    void* raw = mmap(nullptr, length + kHugePage, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return nullptr;
    auto* mapped = static_cast<char*>(raw);
    auto* data =
        reinterpret_cast<char*>(roundUp(reinterpret_cast<uintptr_t>(mapped + kPage), kHugePage));
    char* start = data - kPage;
    if (start > mapped)
        munmap(mapped, static_cast<size_t>(start - mapped));
    if (char* end = start + length; end < mapped + length + kHugePage)
        munmap(end, static_cast<size_t>(mapped + length + kHugePage - end));
#ifdef MADV_HUGEPAGE
    madvise(data, length - kPage, MADV_HUGEPAGE); // advice only: small pages when refused
#endif
    auto* header = reinterpret_cast<Header*>(data - kHeader);
    header->capacity = capacity;
    header->mapped = length;
    return header;
}

size_t footprintOf(void* base) {
    const auto* header = static_cast<Header*>(base);
    return header->mapped ? header->mapped : kHeader + header->capacity;
}

void* newBlock(size_t capacity) {
    if (capacity >= kHugeFrom)
        if (void* base = newHugeBlock(capacity))
            return base;
    void* base = nullptr;
    if (posix_memalign(&base, kHeader, kHeader + capacity) != 0)
        throw std::bad_alloc();
    static_cast<Header*>(base)->capacity = capacity;
    static_cast<Header*>(base)->mapped = 0;
    return base;
}

void freeBlock(void* base) {
    if (const size_t mapped = static_cast<Header*>(base)->mapped)
        munmap(static_cast<char*>(base) + kHeader - kPage, mapped);
    else
        std::free(base);
}

void* dataOf(void* base) {
    return static_cast<char*>(base) + kHeader;
}
void* baseOf(void* data) {
    return static_cast<char*>(data) - kHeader;
}
} // namespace

TensorBlockCache& TensorBlockCache::instance() {
    static auto* cache = new TensorBlockCache();
    return *cache;
}

c10::DataPtr TensorBlockCache::allocate(size_t bytes) const {
    if (bytes == 0)
        return {nullptr, nullptr, &release, c10::Device(c10::DeviceType::CPU)};
    // Sizes that differ by less than a page share blocks.
    const size_t capacity = bytes < kCachedFrom ? bytes : (bytes + kPage - 1) / kPage * kPage;
    void* base = capacity < kCachedFrom
                     ? nullptr
                     : const_cast<TensorBlockCache*>(this)->takeOrEvict(capacity);
    if (!base)
        base = newBlock(capacity);
    void* data = dataOf(base);
    return {data, data, &release, c10::Device(c10::DeviceType::CPU)};
}

// A hit takes the smallest cached block that fits with at most 1/8 to
// spare. A miss frees the blocks released longest ago until the cache and
// the new block fit the budget: what the process holds beside its live
// tensors stays bounded, and the sizes a graph repeats stay cached.
// (Freeing the largest first, tried first, threw away exactly the blocks a
// transformer's next MLP needed: every layer faulted its 2.4 MB values in
// again.)
void* TensorBlockCache::takeOrEvict(size_t capacity) {
    std::vector<void*> evicted;
    void* found = nullptr;
    {
        std::lock_guard lock(mutex_);
        largest_ = std::max(largest_, capacity);
        auto it = free_.lower_bound(capacity);
        if (it != free_.end() && it->first <= capacity + capacity / kSlackDivisor) {
            found = it->second.base;
            stats_.cachedBytes -= footprintOf(found);
            free_.erase(it);
            ++stats_.hits;
        } else {
            ++stats_.misses;
            evictOldest(footprintFor(capacity), evicted);
        }
    }
    for (void* base : evicted)
        freeBlock(base);
    return found;
}

// With the mutex held: the blocks released longest ago leave until `room`
// more bytes fit the budget; the caller frees them unlocked.
void TensorBlockCache::evictOldest(size_t room, std::vector<void*>& evicted) {
    while (!free_.empty() && stats_.cachedBytes + room > budget()) {
        auto oldest = free_.begin();
        for (auto b = free_.begin(); b != free_.end(); ++b)
            if (b->second.freedAt < oldest->second.freedAt)
                oldest = b;
        stats_.cachedBytes -= footprintOf(oldest->second.base);
        evicted.push_back(oldest->second.base);
        free_.erase(oldest);
        ++stats_.evictedBlocks;
    }
}

void TensorBlockCache::keep(void* base, size_t capacity) {
    std::vector<void*> evicted;
    {
        std::lock_guard lock(mutex_);
        free_.emplace(capacity, Block{base, ++clock_});
        stats_.cachedBytes += footprintOf(base);
        evictOldest(0, evicted);
    }
    for (void* b : evicted)
        freeBlock(b);
}

void TensorBlockCache::release(void* data) {
    if (!data)
        return;
    void* base = baseOf(data);
    const size_t capacity = static_cast<Header*>(base)->capacity;
    if (capacity < kCachedFrom)
        freeBlock(base);
    else
        instance().keep(base, capacity);
}

size_t TensorBlockCache::budget() const {
    return std::max(kBudget, kBudgetInLargestBlocks * largest_);
}

BlockCacheStats TensorBlockCache::stats() const {
    std::lock_guard lock(mutex_);
    BlockCacheStats s = stats_;
    s.budgetBytes = budget();
    return s;
}

void TensorBlockCache::trim() {
    std::multimap<size_t, Block> blocks;
    {
        std::lock_guard lock(mutex_);
        blocks.swap(free_);
        stats_.cachedBytes = 0;
    }
    for (auto& [capacity, block] : blocks)
        freeBlock(block.base);
}

TransientValues::TransientValues() : previous_(transientValues) {
    transientValues = true;
}
TransientValues::~TransientValues() {
    transientValues = previous_;
}

} // namespace t2n::jit

namespace t2n {

void installTensorBlockCache() {
    // Buffers allocated before keep their own deleter: switching is safe at
    // any time, but the earlier the more it saves.
    static const bool installed = [] {
        if (const char* off = std::getenv("T2N_TENSOR_CACHE"); off && std::strcmp(off, "0") == 0)
            return false;
        c10::SetCPUAllocator(&jit::TensorBlockCache::instance());
        return true;
    }();
    (void)installed;
}

bool tensorBlockCacheInstalled() {
    return c10::GetCPUAllocator() == &jit::TensorBlockCache::instance();
}

TensorBlockCacheStats tensorBlockCacheStats() {
    auto s = jit::TensorBlockCache::instance().stats();
    s.installed = tensorBlockCacheInstalled();
    return s;
}

} // namespace t2n
