#include "t2n/large_stack.h"

#include <condition_variable>
#include <exception>
#include <mutex>

#include <pthread.h>

namespace t2n {

namespace {

struct Job {
    const std::function<void()>* work = nullptr;
    std::exception_ptr failed;
    std::mutex lock;
    std::condition_variable changed;
    bool done = false;
};

void* runJob(void* arg) {
    auto* job = static_cast<Job*>(arg);
    try {
        (*job->work)();
    } catch (...) {
        job->failed = std::current_exception();
    }
    {
        std::lock_guard<std::mutex> hold(job->lock);
        job->done = true;
    }
    job->changed.notify_all();
    return nullptr;
}

} // namespace

void runOnLargeStack(const std::function<void()>& work, const std::function<void()>& whileWaiting,
                     std::chrono::milliseconds poll) {
    Job job;
    job.work = &work;
    pthread_attr_t attr;
    pthread_t thread{};
    bool started = false;
    if (::pthread_attr_init(&attr) == 0) {
        started = ::pthread_attr_setstacksize(&attr, kLargeStackBytes) == 0 &&
                  ::pthread_create(&thread, &attr, runJob, &job) == 0;
        ::pthread_attr_destroy(&attr);
    }
    if (!started) {
        work();
        return;
    }
    {
        std::unique_lock<std::mutex> hold(job.lock);
        while (!job.done) {
            if (!whileWaiting) {
                job.changed.wait(hold);
                continue;
            }
            if (job.changed.wait_for(hold, poll, [&] { return job.done; }))
                break;
            hold.unlock();
            whileWaiting();
            hold.lock();
        }
    }
    ::pthread_join(thread, nullptr);
    if (job.failed)
        std::rethrow_exception(job.failed);
}

} // namespace t2n
