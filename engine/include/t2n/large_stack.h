// Deep graphs recurse deep: LibTorch's graph passes and some of t2n's walk a
// chain of operations by recursion, one frame per operation (8,000 chained
// adds need more than 1 MiB of stack, 100,000 more than the 8 MiB a main
// thread gets). The front ends run the engine's work on a thread with a
// large stack instead, so that the depth a model can reach does not depend
// on the caller's stack.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>

namespace t2n {

/// The stack of the thread runOnLargeStack starts: address space reserved,
/// of which only the pages a recursion touches become memory.
inline constexpr size_t kLargeStackBytes = size_t{512} << 20;

/// Runs `work` on a new thread with a stack of kLargeStackBytes and waits
/// for it, calling `whileWaiting` (when given) every `poll` meanwhile (the
/// Python module runs Python's signal handlers there). An exception that
/// `work` throws is thrown here. When no such thread can be made (address
/// space limited), `work` runs on the calling thread.
void runOnLargeStack(const std::function<void()>& work,
                     const std::function<void()>& whileWaiting = {},
                     std::chrono::milliseconds poll = std::chrono::milliseconds(50));

} // namespace t2n
