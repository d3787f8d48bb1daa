// Inputs proposed by the engine for a model opened with none given: the one
// fact a person who has never built software does not know. Each forward()
// argument gets a dtype and a shape read from the operations that first
// consume it (a convolution's weight gives the channels, an embedding the
// range of its ids, an LSTM its features ...), free sizes come from a short
// list of common ones, and the proposal is confirmed by running the model:
// a candidate that raises is replaced by the next one, within a bound on
// attempts and time. Every front end shows the proposal and the flags that
// repeat it, so the user can keep or change it.
#pragma once

#include "t2n/input_spec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace t2n {

/// One forward() argument's proposed spec, and why.
struct ProposedInput {
    InputSpec spec;
    /// Plain words: "3 channels read by conv2d 'features.0' (weight 64x3x7x7);
    /// 224x224 is a common image size".
    std::string reason;
};

/// One run of forward() on candidate inputs.
struct ProposalAttempt {
    std::vector<InputSpec> specs;
    bool ran = false;
    /// Empty when it ran; else the first line of the model's own error.
    std::string error;
    double seconds = 0;
};

struct InputProposal {
    /// One per forward() argument given a value, in order.
    std::vector<ProposedInput> inputs;
    /// Trailing arguments left to their defaults: "lengths (default None)".
    std::vector<std::string> defaulted;
    /// Every candidate tried, the successful one last when confirmed.
    std::vector<ProposalAttempt> attempts;
    /// A run of forward() on these inputs succeeded.
    bool confirmed = false;

    std::vector<InputSpec> specs() const;
    /// "--input image:1x3x224x224:f32 --input ids:1x16:i64=0..999"
    std::string flags() const;
    std::string toJson() const;
};

/// Bounds of the search: it stops at the first candidate that runs, after
/// `maxAttempts` runs, or when `maxSeconds` have passed (checked between runs).
struct ProposalLimits {
    int maxAttempts = 24;
    double maxSeconds = 60;
    uint64_t seed = 0; ///< of the candidates' random values
};

} // namespace t2n
