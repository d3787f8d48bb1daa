# ui/session: the engine session on a worker thread, item models, selection.
target_sources(t2n_ui PRIVATE
  session/ui_version.cpp
)
