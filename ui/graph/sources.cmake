# ui/graph: the laid-out graph view (Graphviz layout on one worker thread,
# QGraphicsView drawing, clusters, search, pass-step diffs, export).
target_sources(t2n_ui PRIVATE
  graph/graph_data.cpp
  graph/cluster_tree.cpp
  graph/visible_edges.cpp
  graph/dot_runner.cpp
  graph/graph_geometry.cpp
  graph/graph_layout.cpp
  graph/layout_service.cpp
  graph/step_placement.cpp
  graph/step_layouts.cpp
  graph/graph_colors.cpp
  graph/graph_items.cpp
  graph/graph_scene.cpp
  graph/graph_search.cpp
  graph/node_info.cpp
  graph/graph_export.cpp
  graph/graph_minimap.cpp
  graph/graph_view.cpp
)
