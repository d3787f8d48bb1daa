// T2N_INTERP_PROFILE=1 (or =statements): where a reference-interpreter run
// spends its time, per operation kind (or per statement), printed on stderr
// when the run ends: wall and thread-CPU seconds and page faults. Wall time
// alone misleads on a busy machine; CPU time alone hides the page faults a
// VM charges as stolen time (issue 41: ResNet-18's check was 3x a forward
// because of them).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <sys/resource.h>

namespace t2n::interp {

class OperationTimes {
public:
    struct Sample {
        double wall = 0, cpu = 0;
        long faults = 0;
        int count = 0;
    };

    OperationTimes() {
        const char* mode = std::getenv("T2N_INTERP_PROFILE");
        on_ = mode != nullptr;
        perStatement_ = on_ && std::string_view(mode) == "statements";
    }
    OperationTimes(const OperationTimes&) = delete;
    OperationTimes& operator=(const OperationTimes&) = delete;
    ~OperationTimes() {
        if (!on_)
            return;
        std::vector<std::pair<double, std::string>> lines;
        Sample total;
        for (const auto& [what, t] : samples_) {
            lines.emplace_back(t.wall, fmt::format("{:8.4f} s wall {:8.4f} s cpu {:7} faults  {} "
                                                   "({}x)",
                                                   t.wall, t.cpu, t.faults, what, t.count));
            add(total, t);
        }
        std::sort(lines.rbegin(), lines.rend());
        fmt::print(stderr, "interpreter run: {:.4f} s wall, {:.4f} s cpu, {} page faults\n",
                   total.wall, total.cpu, total.faults);
        for (const auto& [wall, line] : lines)
            fmt::print(stderr, "  {}\n", line);
    }

    /// Times one statement; `describe(perStatement)` names it (called only
    /// when profiling).
    class Stopwatch {
    public:
        template <typename Describe>
        Stopwatch(OperationTimes& times, Describe&& describe) : times_(times) {
            if (!times_.on_)
                return;
            key_ = describe(times_.perStatement_);
            start_ = now();
        }
        Stopwatch(const Stopwatch&) = delete;
        Stopwatch& operator=(const Stopwatch&) = delete;
        ~Stopwatch() {
            if (!times_.on_)
                return;
            Sample end = now();
            end.wall -= start_.wall;
            end.cpu -= start_.cpu;
            end.faults -= start_.faults;
            end.count = 1;
            add(times_.samples_[key_], end);
        }

    private:
        OperationTimes& times_;
        std::string key_;
        Sample start_;
    };

private:
    static Sample now() {
        Sample s;
        s.wall = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
                     .count();
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        s.cpu = static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
        rusage ru{};
        getrusage(RUSAGE_THREAD, &ru);
        s.faults = ru.ru_minflt + ru.ru_majflt;
        return s;
    }
    static void add(Sample& to, const Sample& s) {
        to.wall += s.wall;
        to.cpu += s.cpu;
        to.faults += s.faults;
        to.count += s.count;
    }

    bool on_ = false;
    bool perStatement_ = false;
    std::map<std::string, Sample> samples_; ///< by operation kind or statement
};

} // namespace t2n::interp
