# ui/studio: main window, panes, forms, screenshots.
target_sources(t2n_ui PRIVATE
  studio/export_form.cpp
  studio/export_form.h
  studio/results_panel.cpp
  studio/results_panel.h
)
