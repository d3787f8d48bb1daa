// A bound on the memory one candidate of the input proposal may take
// (load/input_proposal.cpp): a guessed size can make a model ask for GBs (a
// MobileViT block's attention over the 12,544 patches of a 224x224 image),
// and the proposal should move on to a smaller size instead of taking the
// machine down. While a MemoryCap lives, ATen's CPU tensors are allocated
// through a counting allocator that refuses an allocation which would take
// the bytes allocated since the cap began past its budget; the run fails
// with words the proposal recognises (saysOutOfMemory).
#pragma once

#include <cstdint>
#include <string>

namespace t2n::load {

class MemoryCap {
public:
    /// `budget` bytes; 0: a quarter of the memory available now, at most
    /// 1 GiB (a candidate that needs more also takes long to run and to
    /// check: a DiT's attention over the 12,544 patches of 224x224 needs
    /// 1.2 GB and its export 4 minutes; 32x32 takes seconds) and at least
    /// 256 MiB.
    explicit MemoryCap(uint64_t budget = 0);
    ~MemoryCap();
    MemoryCap(const MemoryCap&) = delete;
    MemoryCap& operator=(const MemoryCap&) = delete;
    uint64_t budget() const { return budget_; }

private:
    uint64_t budget_;
    void* previous_;
};

/// The words of a run refused by a MemoryCap (or by ATen itself being out of
/// memory).
bool saysOutOfMemory(const std::string& error);

} // namespace t2n::load
