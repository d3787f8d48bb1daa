#include "load/proposal_memory.h"

#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace t2n::load {

namespace {

// Bytes allocated through the cap and not yet freed (a tensor may outlive the
// cap: its deleter still counts it down), and the budget while a cap lives.
std::atomic<int64_t> liveBytes{0};
std::atomic<int64_t> capBytes{0}; ///< 0: no cap
std::atomic<int64_t> budgetBytes{0};

// Each allocation through the cap: its size and the underlying allocator's
// deleter, by address (the data pointer is its own context, as ATen's
// default allocator makes it, so that raw_allocate works too).
struct Counted {
    int64_t bytes;
    c10::DeleterFnPtr deleter;
};
std::mutex countedMutex;
std::unordered_map<void*, Counted>& counted() {
    static auto* map = new std::unordered_map<void*, Counted>();
    return *map;
}

void release(void* data) {
    Counted c{};
    {
        std::lock_guard<std::mutex> lock(countedMutex);
        auto it = counted().find(data);
        if (it == counted().end())
            return; // not ours: cannot happen
        c = it->second;
        counted().erase(it);
    }
    liveBytes -= c.bytes;
    c.deleter(data);
}

class CountingAllocator final : public c10::Allocator {
public:
    explicit CountingAllocator(c10::Allocator* inner) : inner_(inner) {}
    c10::DataPtr allocate(size_t n) const override {
        const auto bytes = static_cast<int64_t>(n);
        const int64_t cap = capBytes.load();
        if (cap > 0 && liveBytes.load() + bytes > cap)
            // PyTorch's own words for it, and the budget.
            throw std::runtime_error(
                fmt::format("DefaultCPUAllocator: not enough memory: you tried to allocate {} "
                            "bytes; t2n's input proposal gives one candidate at most {} MiB",
                            n, budgetBytes.load() >> 20));
        c10::DataPtr inner = inner_->allocate(n);
        void* data = inner.get();
        const c10::Device device = inner.device();
        if (data == nullptr || inner.get_context() != data)
            return inner; // not counted (an allocator of another kind)
        const c10::DeleterFnPtr deleter = inner.get_deleter();
        (void)inner.release_context();
        {
            std::lock_guard<std::mutex> lock(countedMutex);
            counted()[data] = {bytes, deleter};
        }
        liveBytes += bytes;
        return {data, data, &release, device};
    }
    c10::DeleterFnPtr raw_deleter() const override { return &release; }

private:
    c10::Allocator* inner_;
};

uint64_t availableBytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string line;
    while (std::getline(meminfo, line))
        if (line.rfind("MemAvailable:", 0) == 0) {
            std::istringstream in(line.substr(13));
            uint64_t kib = 0;
            in >> kib;
            return kib * 1024;
        }
    return 8ull << 30;
}

} // namespace

MemoryCap::MemoryCap(uint64_t budget) {
    if (budget == 0)
        budget = std::clamp<uint64_t>(availableBytes() / 4, 256ull << 20, 1ull << 30);
    budget_ = budget;
    c10::Allocator* current = c10::GetCPUAllocator();
    previous_ = current;
    // One counting allocator for the process: tensors allocated under a cap
    // are freed through it after the cap ends.
    static CountingAllocator* counting = new CountingAllocator(current);
    // Bytes still held from before count against no candidate.
    budgetBytes = static_cast<int64_t>(budget_);
    capBytes = liveBytes.load() + static_cast<int64_t>(budget_);
    // The priority of ATen's default allocator: set again on the way out.
    c10::SetCPUAllocator(counting, 0);
}

MemoryCap::~MemoryCap() {
    capBytes = 0;
    c10::SetCPUAllocator(static_cast<c10::Allocator*>(previous_), 0);
}

bool saysOutOfMemory(const std::string& error) {
    return error.find("not enough memory") != std::string::npos ||
           error.find("can't allocate memory") != std::string::npos;
}

} // namespace t2n::load
