# tests/ui/graph: the graph view (layout, view, pass-step diffs).
target_sources(t2n_ui_tests PRIVATE
  graph/tst_graph_layout.cpp
  graph/tst_graph_view.cpp
  graph/tst_graph_diff.cpp
  graph/tst_step_layouts.cpp
  graph/tst_node_menu.cpp
)
t2n_ui_suite(graph_layout)
t2n_ui_suite(graph_view)
t2n_ui_suite(graph_diff)
t2n_ui_suite(step_layouts)
t2n_ui_suite(node_menu)
