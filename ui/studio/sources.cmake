# ui/studio: main window, panes, forms, screenshots.
target_sources(t2n_ui PRIVATE
  studio/export_form.cpp
  studio/export_form.h
  studio/main_window.cpp
  studio/main_window.h
  studio/main_window_flows.cpp
  studio/main_window_sync.cpp
  studio/pass_stepper.cpp
  studio/pass_stepper.h
  studio/results_panel.cpp
  studio/results_panel.h
  studio/screenshot_tour.cpp
  studio/screenshot_tour.h
)
