# ui/session: the engine session on a worker thread, item models, selection.
target_sources(t2n_ui PRIVATE
  session/editable_table_model.cpp
  session/editable_table_model.h
  session/export_form_models.cpp
  session/export_form_models.h
  session/failed_nodes.cpp
  session/failed_nodes.h
  session/graph_adapters.cpp
  session/graph_adapters.h
  session/remark_index.cpp
  session/remark_index.h
  session/nnef_graph.cpp
  session/nnef_graph.h
  session/value_overlay.cpp
  session/value_overlay.h
  session/pass_list_model.cpp
  session/pass_list_model.h
  session/report_models.cpp
  session/report_models.h
  session/session_controller.cpp
  session/session_controller.h
  session/session_state.h
  session/ui_version.cpp
)
