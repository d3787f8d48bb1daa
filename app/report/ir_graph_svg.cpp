#include "report/ir_graph_svg.h"

#include "report/display_text.h"
#include "t2n/child_process.h"

#include <fmt/format.h>
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <deque>
#include <optional>
#include <set>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace t2n::report {

std::mutex& graphvizMutex() {
    static std::mutex lock;
    return lock;
}

void* graphvizContext() {
    static GVC_t* gvc = gvContext(); // lives for the process; freed by the OS
    return gvc;
}

std::string escapeMarkup(std::string_view raw) {
    // Bidi overrides, control characters and bytes that are not UTF-8 first:
    // a model's strings must not reorder or break the page.
    const std::string text = displayText(raw);
    std::string out;
    out.reserve(text.size());
    for (char ch : text) {
        switch (ch) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += ch;
        }
    }
    return out;
}

namespace {

// Drawn like the studio's IR graph: known values are not boxes, except
// those that follow a symbolic axis (the archive computes them) and the
// marked ones (a size that froze is often such a value).
bool drawn(const ir::Graph& g, const ir::Node& n, const std::map<int, Mark>& marked) {
    if (!n.folded || marked.count(n.id))
        return true;
    return std::any_of(n.outputs.begin(), n.outputs.end(),
                       [&g](ir::ValueId o) { return g.value(o).varies; });
}

std::string shortKind(const std::string& kind) {
    const auto pos = kind.rfind("::");
    return pos == std::string::npos ? kind : kind.substr(pos + 2);
}

std::string valueText(const ir::Value& v) {
    if (v.kind != ir::ValueKind::Tensor)
        return std::string(ir::valueKindName(v.kind));
    return fmt::format("{}[{}]", dtypeName(v.dtype), fmt::join(v.shape, ", "));
}

// Producer -> consumer edges between drawn nodes (inputs are -1 - index).
std::vector<std::pair<int, int>> edgesOf(const ir::Graph& g, const std::map<int, Mark>& marked) {
    std::vector<std::pair<int, int>> out;
    for (const ir::Node& n : g.nodes) {
        if (!drawn(g, n, marked))
            continue;
        for (ir::ValueId in : n.inputs) {
            const ir::Value& v = g.value(in);
            if (v.producer >= 0) {
                if (drawn(g, g.node(v.producer), marked))
                    out.emplace_back(v.producer, n.id);
            } else if (auto it = std::find(g.inputs.begin(), g.inputs.end(), in);
                       it != g.inputs.end()) {
                out.emplace_back(-1 - static_cast<int>(it - g.inputs.begin()), n.id);
            }
        }
    }
    return out;
}

// The nodes to draw: all of them, or those within `steps` edges of a marked one.
std::set<int> chooseNodes(const ir::Graph& g, const std::map<int, Mark>& marked,
                          const std::vector<std::pair<int, int>>& edges, int most, int& total) {
    std::set<int> all;
    for (size_t i = 0; i < g.inputs.size(); ++i)
        all.insert(-1 - static_cast<int>(i));
    for (const ir::Node& n : g.nodes)
        if (drawn(g, n, marked))
            all.insert(n.id);
    total = static_cast<int>(all.size());
    if (total <= most)
        return all;
    std::map<int, std::vector<int>> near;
    for (const auto& [a, b] : edges) {
        near[a].push_back(b);
        near[b].push_back(a);
    }
    std::set<int> chosen;
    std::deque<std::pair<int, int>> queue; // node, steps from a marked one
    // At most `most` boxes, the marked ones first: 600 unsupported nodes
    // were all drawn, with their neighbours.
    for (const auto& [id, mark] : marked)
        if (static_cast<int>(chosen.size()) < most && all.count(id) && chosen.insert(id).second)
            queue.emplace_back(id, 0);
    while (!queue.empty() && static_cast<int>(chosen.size()) < most) {
        const auto [id, steps] = queue.front();
        queue.pop_front();
        if (steps >= 3)
            continue;
        for (int next : near[id])
            if (static_cast<int>(chosen.size()) < most && chosen.insert(next).second)
                queue.emplace_back(next, steps + 1);
    }
    return chosen;
}

// Seconds a layout may take: dot has no time limit of its own, and its
// crossing minimisation grows far faster than the node count on some graphs
// (600 unsupported nodes: more than 240 s). T2N_GRAPH_LAYOUT_SECONDS changes it.
double layoutSeconds() {
    if (const char* env = std::getenv("T2N_GRAPH_LAYOUT_SECONDS")) {
        char* end = nullptr;
        const double v = std::strtod(env, &end);
        if (end != env && *end == '\0' && v > 0)
            return v;
    }
    return 20.0;
}

// Lays `g` out and renders it as SVG in a child process, so that a layout
// that does not end within `seconds` is stopped (SIGKILL) instead of
// hanging the report. The child runs Graphviz only (the caller holds the
// Graphviz lock; no other library is entered) and leaves with _exit.
// nullopt on timeout, "" when Graphviz failed.
std::optional<std::string> renderWithin(GVC_t* gvc, Agraph_t* g, double seconds) {
    const ChildOutput out = runChildWithDeadline(
        [&](int fd) {
            int rc = 1;
            if (gvLayout(gvc, g, "dot") == 0) {
                char* data = nullptr;
                unsigned int length = 0;
                if (gvRenderData(gvc, g, "svg", &data, &length) == 0 && data) {
                    rc = 0;
                    for (unsigned int at = 0; at < length;) {
                        const ssize_t n = ::write(fd, data + at, length - at);
                        if (n < 0 && errno == EINTR)
                            continue;
                        if (n <= 0) {
                            rc = 1;
                            break;
                        }
                        at += static_cast<unsigned int>(n);
                    }
                }
            }
            ::_exit(rc);
        },
        seconds);
    if (!out.started)
        return std::string();
    if (out.timedOut)
        return std::nullopt;
    if (!WIFEXITED(out.status) || WEXITSTATUS(out.status) != 0)
        return std::string();
    return out.bytes;
}

char* c(const std::string& s) {
    return const_cast<char*>(s.c_str());
}

// Graphviz's SVG as an element for inline HTML: no XML prolog, doctype or
// comments, and no namespace declarations (HTML knows <svg>; they would be
// the only URLs in the report). A browser shows an element's <title> on
// hover: a node's says what it is (`tips`, by node name), and the others
// (Graphviz's names of the graph, clusters and edges) are dropped.
std::string inlineSvg(std::string svg, const std::map<std::string, std::string>& tips) {
    const auto start = svg.find("<svg");
    if (start == std::string::npos)
        return {};
    svg.erase(0, start);
    for (const char* attr :
         {" xmlns=\"http://www.w3.org/2000/svg\"", " xmlns:xlink=\"http://www.w3.org/1999/xlink\""})
        if (auto at = svg.find(attr); at != std::string::npos)
            svg.erase(at, std::char_traits<char>::length(attr));
    for (size_t at; (at = svg.find("<!--")) != std::string::npos;) {
        const auto end = svg.find("-->", at);
        svg.erase(at, end == std::string::npos ? std::string::npos : end + 3 - at);
    }
    constexpr std::string_view open = "<title>", close = "</title>";
    for (size_t at = 0; (at = svg.find(open, at)) != std::string::npos;) {
        const auto end = svg.find(close, at);
        if (end == std::string::npos)
            break;
        std::string name = svg.substr(at + open.size(), end - at - open.size());
        for (size_t dash; (dash = name.find("&#45;")) != std::string::npos;)
            name.replace(dash, 5, "-");
        const auto tip = tips.find(name);
        const std::string title = tip == tips.end()
                                      ? std::string()
                                      : fmt::format("<title>{}</title>", escapeMarkup(tip->second));
        svg.replace(at, end + close.size() - at, title);
        at += title.size();
    }
    return svg;
}

// What a box is, shown on hover: "aten::sub (%10) in module 'shift' at
// models.py:148" and the statement's first line.
std::string tipOf(const NodeRef& where) {
    std::string tip = where.describe();
    std::string text = where.sourceText.substr(0, where.sourceText.find('\n'));
    text.erase(0, text.find_first_not_of(" \t"));
    if (!text.empty())
        tip += "\n" + text;
    return tip;
}

} // namespace

IrDrawing drawIr(const ir::Graph& graph, const std::map<int, Mark>& marked, int most) {
    IrDrawing out;
    const auto edges = edgesOf(graph, marked);
    const std::set<int> chosen = chooseNodes(graph, marked, edges, most, out.total);
    out.drawn = static_cast<int>(chosen.size());
    if (chosen.empty()) {
        out.note = fmt::format("the graph has {} nodes and none is marked: open the recipe in "
                               "t2n-studio to see it",
                               out.total);
        return out;
    }
    if (out.drawn < out.total)
        out.note = fmt::format("{} of the graph's {} nodes are drawn: those within three steps "
                               "of a marked node",
                               out.drawn, out.total);

    std::lock_guard<std::mutex> lock(graphvizMutex());
    auto* gvc = static_cast<GVC_t*>(graphvizContext());
    Agraph_t* g = agopen(c("ir"), Agdirected, nullptr);
    agattr(g, AGRAPH, c("rankdir"), c("TB"));
    agattr(g, AGRAPH, c("nodesep"), c("0.2"));
    agattr(g, AGRAPH, c("ranksep"), c("0.3"));
    agattr(g, AGRAPH, c("fontname"), c("Helvetica"));
    agattr(g, AGRAPH, c("fontsize"), c("10"));
    agattr(g, AGRAPH, c("label"), c(""));
    agattr(g, AGRAPH, c("style"), c("rounded"));
    agattr(g, AGRAPH, c("color"), c("#b0b8c4"));
    agattr(g, AGNODE, c("shape"), c("box"));
    agattr(g, AGNODE, c("style"), c("rounded,filled"));
    agattr(g, AGNODE, c("fontname"), c("Helvetica"));
    agattr(g, AGNODE, c("fontsize"), c("10"));
    agattr(g, AGNODE, c("fillcolor"), c("#eef2f7"));
    agattr(g, AGNODE, c("color"), c("#8090a0"));
    agattr(g, AGNODE, c("penwidth"), c("1"));
    agattr(g, AGNODE, c("label"), c(""));
    agattr(g, AGNODE, c("id"), c(""));
    agattr(g, AGEDGE, c("color"), c("#8090a0"));
    agattr(g, AGEDGE, c("arrowsize"), c("0.6"));

    // One cluster per module path prefix, nested.
    std::map<std::string, Agraph_t*> clusters;
    auto clusterOf = [&](const std::string& path) {
        Agraph_t* parent = g;
        std::string prefix;
        size_t from = 0;
        while (!path.empty() && from <= path.size()) {
            const size_t dot = std::min(path.find('.', from), path.size());
            prefix = path.substr(0, dot);
            auto [it, added] = clusters.try_emplace(prefix, nullptr);
            if (added) {
                const std::string name = "cluster_" + std::to_string(clusters.size());
                it->second = agsubg(parent, c(name), 1);
                // Graphviz escapes markup, not bidi overrides or control bytes.
                agset(it->second, c("label"), c(displayText(path.substr(from, dot - from))));
            }
            parent = it->second;
            from = dot + 1;
        }
        return parent;
    };
    std::map<int, Agnode_t*> nodes;
    std::map<std::string, std::string> tips;
    for (int id : chosen) {
        std::string name, label;
        Agraph_t* into = g;
        if (id < 0) {
            const ir::Value& v = graph.value(graph.inputs.at(static_cast<size_t>(-1 - id)));
            name = "input-" + std::to_string(-1 - id);
            label = (v.name.empty() ? v.debugName : v.name) + "\n" + valueText(v);
            tips[name] = fmt::format("graph input %{}{}", v.debugName,
                                     v.name.empty() ? "" : " (NNEF " + v.name + ")");
        } else {
            const ir::Node& n = graph.node(id);
            name = "ir-" + std::to_string(id);
            label = shortKind(n.kind);
            if (!n.outputs.empty())
                label += "\n" + valueText(graph.value(n.outputs.front()));
            into = clusterOf(n.where.modulePath);
            tips[name] = tipOf(n.where);
        }
        Agnode_t* node = agnode(into, c(name), 1);
        agset(node, c("label"), c(displayText(label)));
        agset(node, c("id"), c(name));
        if (id < 0) {
            agset(node, c("shape"), c("ellipse"));
            agset(node, c("fillcolor"), c("#dcefdc"));
        }
        if (auto m = marked.find(id); m != marked.end()) {
            const bool failed = m->second == Mark::Failed;
            agset(node, c("fillcolor"), c(failed ? "#f9d4d4" : "#ffe2b0"));
            agset(node, c("color"), c(failed ? "#c62828" : "#e07000"));
            agset(node, c("penwidth"), c("2.5"));
        }
        nodes[id] = node;
    }
    for (const auto& [a, b] : edges)
        if (nodes.count(a) && nodes.count(b))
            agedge(g, nodes[a], nodes[b], nullptr, 1);
    const double seconds = layoutSeconds();
    const auto svg = renderWithin(gvc, g, seconds);
    agclose(g);
    if (!svg) {
        // The fallback is the failure's list of nodes (above the drawing).
        out.svg.clear();
        out.drawn = 0;
        out.note = fmt::format("the drawing of {} nodes is left out: Graphviz did not lay it out "
                               "within {:g} s (T2N_GRAPH_LAYOUT_SECONDS); the failure above lists "
                               "the nodes it names, and t2n-studio shows the whole graph",
                               chosen.size(), seconds);
        return out;
    }
    if (!svg->empty())
        out.svg = inlineSvg(*svg, tips);
    if (out.svg.empty())
        out.note = "Graphviz could not draw the graph";
    return out;
}

} // namespace t2n::report
