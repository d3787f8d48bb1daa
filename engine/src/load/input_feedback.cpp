#include "load/input_feedback.h"

#include "t2n/dtype.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <regex>
#include <set>

namespace t2n::load {

namespace {

using Shape = std::vector<int64_t>;

constexpr int64_t kLargest = int64_t{1} << 24;

// "1, 3, 224, 224" or "1 x 16": the numbers; '*' (any batch) reads as 1.
Shape numbersIn(const std::string& text) {
    Shape out;
    static const std::regex item(R"((\*|-?\d+))");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), item);
         it != std::sregex_iterator(); ++it) {
        const std::string s = (*it)[1].str();
        out.push_back(s == "*" ? 1 : std::stoll(s));
    }
    return out;
}

int64_t elements(const Shape& s) {
    int64_t n = 1;
    for (int64_t d : s)
        n *= d;
    return n;
}

// What PyTorch and the model said (a TorchScript traceback can be long).
std::string messageOf(const std::string& error) {
    return error.substr(0, 4000);
}

// The line of `text` holding the match `m`, without PyTorch's "RuntimeError: "
// prefixes, for the reason a proposal gives.
std::string lineOf(const std::string& text, const std::smatch& m) {
    const auto at = static_cast<size_t>(m.position(0));
    const size_t begin = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
    std::string line = text.substr(begin, text.find('\n', at) - begin);
    for (const char* prefix : {"the model failed on the example inputs: ", "RuntimeError: ",
                               "ValueError: ", "AssertionError: "})
        while (line.rfind(prefix, 0) == 0)
            line.erase(0, std::strlen(prefix));
    if (line.size() > 160)
        line = line.substr(0, 157) + "...";
    return fmt::format("the model said '{}'", line);
}

class Builder {
public:
    Builder(const std::vector<InputSpec>& specs, const std::vector<bool>& adjustable)
        : specs_(specs), adjustable_(adjustable) {}

    bool tensor(size_t i) const {
        return i < adjustable_.size() && adjustable_[i] && specs_[i].valuesFile.empty() &&
               specs_[i].values.empty();
    }
    size_t size() const { return specs_.size(); }
    const Shape& shape(size_t i) const { return specs_[i].shape; }

    void add(size_t i, const Shape& shape, const std::string& reason,
             std::optional<size_t> integers = std::nullopt) {
        if (shape.empty() || shape == specs_[i].shape || elements(shape) <= 0 ||
            elements(shape) > kLargest)
            return;
        if (std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d <= 0; }))
            return;
        Correction c{specs_, reason, integers};
        c.specs[i].shape = shape;
        push(std::move(c));
    }
    void push(Correction c) {
        std::string key;
        for (const auto& s : c.specs)
            key += s.toString() + " ";
        if (keys_.insert(key).second)
            out_.push_back(std::move(c));
    }
    // An input whose shape is `shape`, else none.
    std::optional<size_t> shaped(const Shape& shape) const {
        for (size_t i = 0; i < specs_.size(); ++i)
            if (tensor(i) && specs_[i].shape == shape)
                return i;
        return std::nullopt;
    }

    // How many inputs hold `size` on some axis: a correction by a size the
    // words do not tie to one input is made only when one input holds it.
    size_t holding(int64_t size) const {
        size_t n = 0;
        for (size_t i = 0; i < specs_.size(); ++i)
            if (tensor(i) && std::find(shape(i).begin(), shape(i).end(), size) != shape(i).end())
                ++n;
        return n;
    }

    std::vector<Correction> take() { return std::move(out_); }
    bool empty() const { return out_.empty(); }
    const std::vector<InputSpec>& specs() const { return specs_; }

private:
    const std::vector<InputSpec>& specs_;
    const std::vector<bool>& adjustable_;
    std::vector<Correction> out_;
    std::set<std::string> keys_;
};

// The largest divisor of `p` not above its square root.
int64_t squarestDivisor(int64_t p) {
    for (auto d = static_cast<int64_t>(std::sqrt(static_cast<double>(p))); d > 1; --d)
        if (p % d == 0)
            return d;
    return 1;
}

// An operation reading `need` features got `got` of them. An input whose
// last axis holds `got` gets `need` there. Otherwise `got` came from a
// flatten: a channel count scaled by need / got (patches of 3 channels
// where 1 was wanted), or image sides solved for: got = a * (H / rh) *
// (W / rw) for a downsampling (rh, rw) by powers of two, so that the sides
// giving need = a * h * w are (h * rh, w * rw), h x w the squarest.
void features(Builder& b, int64_t need, int64_t got, const std::string& reason) {
    if (need <= 0 || got <= 0 || need == got)
        return;
    bool direct = false;
    for (size_t i = 0; i < b.size(); ++i)
        if (b.tensor(i) && !b.shape(i).empty() && b.shape(i).back() == got) {
            Shape s = b.shape(i);
            s.back() = need;
            b.add(i, s, reason);
            direct = true;
        }
    if (direct)
        return;
    for (size_t i = 0; i < b.size(); ++i) {
        if (!b.tensor(i) || b.shape(i).size() < 3)
            continue;
        const Shape& s = b.shape(i);
        // channels
        if ((s[1] * need) % got == 0 && s[1] * need / got >= 1) {
            Shape c = s;
            c[1] = s[1] * need / got;
            b.add(i, c, reason + " (channels scaled)");
        }
        static const int64_t factors[] = {32, 16, 8, 4, 2, 1};
        if (s.size() == 4) {
            std::vector<std::pair<int64_t, int64_t>> pairs;
            for (int64_t r : factors)
                pairs.emplace_back(r, r);
            for (int64_t rh : factors)
                for (int64_t rw : factors)
                    if (rh != rw)
                        pairs.emplace_back(rh, rw);
            int made = 0;
            for (const auto& [rh, rw] : pairs) {
                if (s[2] % rh != 0 || s[3] % rw != 0)
                    continue;
                const int64_t cells = (s[2] / rh) * (s[3] / rw);
                if (cells == 0 || got % cells != 0)
                    continue;
                const int64_t a = got / cells;
                if (need % a != 0)
                    continue;
                const int64_t p = need / a;
                const int64_t h = squarestDivisor(p), w = p / h;
                b.add(
                    i, {s[0], s[1], h * rh, w * rw},
                    fmt::format("{}: {}x{} sides give {} features", reason, h * rh, w * rw, need));
                if (h != w)
                    b.add(i, {s[0], s[1], w * rh, h * rw},
                          fmt::format("{}: {}x{} sides give {} features", reason, w * rh, h * rw,
                                      need));
                if (++made == 6)
                    break;
            }
        } else if (s.size() == 3) {
            for (int64_t r : factors) {
                if (s[2] % r != 0 || got % (s[2] / r) != 0)
                    continue;
                const int64_t a = got / (s[2] / r);
                if (need % a == 0)
                    b.add(
                        i, {s[0], s[1], need / a * r},
                        fmt::format("{}: length {} gives {} features", reason, need / a * r, need));
            }
        }
    }
}

} // namespace

std::vector<Correction> correctionsFromError(const std::string& error,
                                             const std::vector<InputSpec>& specs,
                                             const std::vector<bool>& adjustable,
                                             const std::vector<std::string>& earlier) {
    const std::string text = messageOf(error);
    Builder b(specs, adjustable);
    std::smatch m;
    auto quoted = [&](const std::smatch& match) { return lineOf(text, match); };
    // LSTM/GRU: "input.size(-1) must be equal to input_size. Expected 47, got 16"
    static const std::regex expectedGot(R"(Expected (\d+), got (\d+))");
    if (std::regex_search(text, m, expectedGot))
        features(b, std::stoll(m[1]), std::stoll(m[2]), quoted(m));
    // Linear layers: "mat1 and mat2 shapes cannot be multiplied (1x16 and 4x10)",
    // older "size mismatch, m1: [1 x 16], m2: [4 x 10]", t2n's guard of
    // quantized/prepacked kernels "expects 4000 input features ... shape [1, 100352]".
    static const std::regex mat1(R"(\((\d+)x(\d+) and (\d+)x(\d+)\))");
    static const std::regex m1(R"(m1: \[(\d+) x (\d+)\], m2: \[(\d+) x (\d+)\])");
    if (std::regex_search(text, m, mat1) || std::regex_search(text, m, m1))
        features(b, std::stoll(m[3]), std::stoll(m[2]), quoted(m));
    static const std::regex guardFeatures(
        R"(expects (\d+) input features.*? but the input has shape \[([\d, ]+)\])");
    if (std::regex_search(text, m, guardFeatures))
        if (const Shape got = numbersIn(m[2]); !got.empty())
            features(b, std::stoll(m[1]), got.back(), quoted(m));
    // Convolutions: "expected input[1, 1, 28, 28] to have 3 channels, but got
    // 1 channels instead", and the guard's "expects 1 input channels (...)
    // but the input has shape [1, 3, 224, 224]".
    static const std::regex channels(
        R"(expected input\[([\d, ]+)\] to have (\d+) channels, but got (\d+) channels)");
    static const std::regex guardChannels(
        R"(expects (\d+) input channels \(.*\) but the input has shape \[([\d, ]+)\])");
    std::optional<std::pair<int64_t, Shape>> wantChannels;
    if (std::regex_search(text, m, channels))
        wantChannels = {std::stoll(m[2]), numbersIn(m[1])};
    else if (std::regex_search(text, m, guardChannels))
        wantChannels = {std::stoll(m[1]), numbersIn(m[2])};
    if (wantChannels) {
        const auto& [want, seen] = *wantChannels;
        const std::string why = quoted(m);
        if (auto i = b.shaped(seen); i && seen.size() >= 2) {
            Shape s = seen;
            s[1] = want;
            b.add(*i, s, why);
        } else if (seen.size() >= 2) {
            // The input reached the convolution reshaped (unsqueezed): the
            // input whose axis 1 holds the channels seen.
            bool found = false;
            for (size_t k = 0; k < b.size() && !found; ++k)
                if (b.tensor(k) && b.shape(k).size() >= 2 && b.shape(k)[1] == seen[1] &&
                    b.holding(seen[1]) == 1) {
                    Shape s = b.shape(k);
                    s[1] = want;
                    b.add(k, s, why);
                    found = true;
                }
            // Concatenated with the model's own channels first (a canvas of
            // features beside a BEV map): the input of the shape seen but
            // for fewer channels gives up the surplus.
            for (size_t k = 0; k < b.size() && !found; ++k) {
                if (!b.tensor(k) || b.shape(k).size() != seen.size())
                    continue;
                Shape s = b.shape(k);
                const int64_t surplus = seen[1] - s[1];
                s[1] = seen[1];
                if (s == seen && surplus > 0 && want > surplus) {
                    s[1] = want - surplus;
                    b.add(k, s,
                          why + ": concatenated with " + std::to_string(surplus) +
                              " channel(s) of the model's own");
                    found = true;
                }
            }
        }
    }
    // A model's own assertion: "with sizes [*, 10, 3]. Actual sizes: [1, 16]".
    static const std::regex sizes(R"(sizes \[([\d*, ]+)\])");
    static const std::regex actual(R"([Aa]ctual sizes:? \[([\d, ]+)\])");
    if (std::regex_search(text, m, sizes)) {
        const std::string why = quoted(m);
        const Shape want = numbersIn(m[1]);
        std::smatch a;
        std::optional<size_t> target;
        if (std::regex_search(text, a, actual))
            target = b.shaped(numbersIn(a[1]));
        for (size_t i = 0; !target && i < b.size(); ++i)
            if (b.tensor(i))
                target = i;
        if (target)
            b.add(*target, want, why);
    }
    // Recurrent state: "Expected hidden[0] size (1, 1, 64), got [1, 3, 224, 224]".
    static const std::regex hidden(R"(size \(([\d, ]+)\), got \[([\d, ]+)\])");
    if (std::regex_search(text, m, hidden)) {
        const Shape want = numbersIn(m[1]), seen = numbersIn(m[2]);
        Correction c{specs, quoted(m), std::nullopt};
        bool changed = false;
        for (size_t i = 0; i < specs.size(); ++i)
            if (b.tensor(i) && specs[i].shape == seen) {
                c.specs[i].shape = want;
                changed = true;
            }
        if (changed && !want.empty())
            b.push(std::move(c));
    }
    // "For batched 3-D input, hx and cx should also be 3-D but got (4-D,
    // 4-D) tensors": every input of another rank given that rank, its last
    // size kept (the next error says the state's sizes).
    static const std::regex alsoRank(R"(should also be (\d)-D)");
    if (std::regex_search(text, m, alsoRank)) {
        const auto rank = static_cast<size_t>(std::stoll(m[1]));
        Correction c{specs, quoted(m), std::nullopt};
        bool changed = false;
        for (size_t i = 0; i < specs.size(); ++i)
            if (b.tensor(i) && !specs[i].shape.empty() && specs[i].shape.size() != rank &&
                rank > 0) {
                Shape s(rank, 1);
                s.back() = specs[i].shape.back();
                c.specs[i].shape = s;
                changed = true;
            }
        if (changed)
            b.push(std::move(c));
    }
    // "Dimension out of range (expected to be in range of [-3, 2], but got
    // 3)": the model reads axis 3 of a rank-3 value, so the input of that
    // rank (the one, or every one of the one shape) gets more axes, each a
    // copy of its axis before the last (a channels-last image: 1x16x8 ->
    // 1x16x16x8).
    static const std::regex outOfRange(
        R"(Dimension out of range \(expected to be in range of \[-(\d+), -?\d+\], but got (\d+)\))");
    if (std::regex_search(text, m, outOfRange)) {
        const auto rank = static_cast<size_t>(std::stoll(m[1]));
        const auto axis = static_cast<size_t>(std::stoll(m[2]));
        std::vector<size_t> holders;
        for (size_t i = 0; i < b.size(); ++i)
            if (b.tensor(i) && b.shape(i).size() == rank)
                holders.push_back(i);
        if (!holders.empty() && rank >= 1 && axis >= rank && axis < 8 &&
            std::all_of(holders.begin(), holders.end(),
                        [&](size_t i) { return b.shape(i) == b.shape(holders.front()); })) {
            Shape s = b.shape(holders.front());
            const int64_t copy = s.size() >= 2 ? s[s.size() - 2] : 16;
            s.insert(s.end() - 1, axis + 1 - rank, copy);
            Correction c{specs, quoted(m) + ": more axes", std::nullopt};
            for (size_t i : holders)
                c.specs[i].shape = s;
            b.push(std::move(c));
        }
    }
    // A fixed view: "shape '[1, 1, 11]' is invalid for input of size 16".
    static const std::regex view(R"(shape '\[([-\d, ]+)\]' is invalid for input of size (\d+))");
    // Only a view the model makes whatever the input (the same shape said
    // by an earlier error for another size), not one computed from the input.
    auto constantView = [&](const std::string& shapeText, int64_t size) {
        for (const std::string& e : earlier) {
            std::smatch o;
            if (std::regex_search(e, o, view) && o[1].str() == shapeText &&
                std::stoll(o[2]) != size)
                return true;
        }
        return false;
    };
    if (std::regex_search(text, m, view) && constantView(m[1].str(), std::stoll(m[2]))) {
        const Shape want = numbersIn(m[1]);
        const int64_t size = std::stoll(m[2]);
        if (std::none_of(want.begin(), want.end(), [](int64_t d) { return d < 0; }))
            for (size_t i = 0; i < b.size(); ++i)
                if (b.tensor(i) && elements(b.shape(i)) == size) {
                    b.add(i, want, quoted(m));
                    break;
                }
    }
    // Integers wanted where a float came: token ids, indices.
    static const std::regex integral(
        R"(as an integral argument|scalar types: Long|Expected tensor for argument #\d+ 'indices'|tensors used as indices must be long)");
    // One candidate per float input, the first first: the words rarely say which.
    if (std::regex_search(text, m, integral))
        for (size_t i = 0; i < b.size(); ++i)
            if (b.tensor(i) && isFloat(specs[i].dtype)) {
                Correction c{specs, quoted(m) + ": integers", i};
                c.specs[i].dtype = DType::I64;
                b.push(std::move(c));
            }
    // Broadcasting: "The size of tensor a (20) must match the size of tensor
    // b (16) at non-singleton dimension 1", and a cat: "Sizes of tensors must
    // match except in dimension 2. Expected size 3 but got size 2 for tensor
    // number 1 in the list" (a KV cache beside the new keys): one size
    // becomes the other, in the one input holding it, or in every input of
    // the one shape holding it (past keys and values alike).
    static const std::regex broadcast(
        R"(size of tensor a \((\d+)\) must match the size of tensor b \((\d+)\))");
    static const std::regex cat(R"(Expected size (\d+) but got size (\d+) for tensor number)");
    if (std::regex_search(text, m, broadcast) || std::regex_search(text, m, cat)) {
        const int64_t a = std::stoll(m[1]), c = std::stoll(m[2]);
        for (const auto& [from, to] : {std::pair{c, a}, std::pair{a, c}}) {
            if (from <= 1)
                continue;
            std::vector<size_t> holders;
            for (size_t i = 0; i < b.size(); ++i)
                if (b.tensor(i) &&
                    std::find(b.shape(i).begin(), b.shape(i).end(), from) != b.shape(i).end())
                    holders.push_back(i);
            if (holders.empty() || std::any_of(holders.begin(), holders.end(), [&](size_t i) {
                    return b.shape(i) != b.shape(holders.front());
                }))
                continue;
            Shape s = b.shape(holders.front());
            for (size_t d = s.size(); d-- > 0;)
                if (s[d] == from) {
                    s[d] = to;
                    break;
                }
            Correction fixed{specs, quoted(m), std::nullopt};
            for (size_t i : holders)
                fixed.specs[i].shape = s;
            b.push(std::move(fixed));
        }
    }
    // "Input audio chunk is too short": the last axis eight times longer.
    static const std::regex tooShort(
        R"(too short|too small|Padding size should be less than|Kernel size can't be greater)");
    if (std::regex_search(text, m, tooShort))
        for (size_t i = 0; i < b.size(); ++i)
            if (b.tensor(i) && !b.shape(i).empty() && b.shape(i).back() > 1) {
                Shape s = b.shape(i);
                s.back() *= 8;
                b.add(i, s, quoted(m) + ": a longer input");
            }
    if (!b.empty())
        return b.take();
    // Otherwise the numbers the model's words give: a size of an input the
    // text names ("number of samples is 16 (Supported values: 256 for 8000
    // sample rate, 512 for 16000)") replaced by each other number it names.
    // (Not the sizes of tensors it lists in brackets or quotes.)
    static const std::regex listed(R"(\[[^\]]*\]|'[^']*')");
    const std::string firstLine =
        std::regex_replace(text.substr(0, text.find('\n')), listed, std::string(" "));
    static const std::regex number(R"((^|[^\w.])(\d+)(?![\w.]))");
    std::vector<int64_t> said;
    for (auto it = std::sregex_iterator(firstLine.begin(), firstLine.end(), number);
         it != std::sregex_iterator(); ++it) {
        const std::string digits = (*it)[2].str();
        if (digits.size() > 8)
            continue;
        const int64_t v = std::stoll(digits);
        if (v > 1 && std::find(said.begin(), said.end(), v) == said.end())
            said.push_back(v);
    }
    for (size_t i = 0; i < b.size(); ++i) {
        if (!b.tensor(i))
            continue;
        const Shape& s = b.shape(i);
        for (size_t d = s.size(); d-- > 0;) {
            if (s[d] <= 1 || std::find(said.begin(), said.end(), s[d]) == said.end() ||
                b.holding(s[d]) != 1)
                continue;
            int made = 0;
            for (int64_t v : said)
                if (v != s[d] && std::find(s.begin(), s.end(), v) == s.end() && made < 4) {
                    Shape t = s;
                    t[d] = v;
                    b.add(i, t, fmt::format("the model's error names {} beside {}", v, s[d]));
                    ++made;
                }
            break;
        }
    }
    return b.take();
}

} // namespace t2n::load
