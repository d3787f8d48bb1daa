# ui/studio: main window, panes, forms, screenshots.
target_sources(t2n_ui PRIVATE
  studio/export_form.cpp
  studio/export_form.h
  studio/inputs_bar.cpp
  studio/inputs_bar.h
  studio/frozen_sizes_view.cpp
  studio/frozen_sizes_view.h
  studio/main_window.cpp
  studio/main_window.h
  studio/main_window_flows.cpp
  studio/main_window_help.cpp
  studio/main_window_view.cpp
  studio/model_pane.cpp
  studio/model_pane.h
  studio/export_pane.cpp
  studio/export_pane.h
  studio/log_pane.cpp
  studio/pane.h
  studio/pane_host.cpp
  studio/pane_host.h
  studio/passes_pane.cpp
  studio/properties_pane.cpp
  studio/results_pane.cpp
  studio/pass_scrubber.cpp
  studio/pass_scrubber.h
  studio/pass_stepper.cpp
  studio/pass_stepper.h
  studio/results_panel.cpp
  studio/results_panel.h
  studio/save_report_action.cpp
  studio/save_report_action.h
  studio/screenshot_tour.cpp
  studio/screenshot_tour.h
  studio/studio_bench.cpp
  studio/studio_panes.cpp
  studio/studio_bench.h
)
qt_add_resources(t2n_ui "studio_icons" PREFIX "/t2n/icons" BASE ${PROJECT_SOURCE_DIR}/resources/icons
                 FILES ${PROJECT_SOURCE_DIR}/resources/icons/org.t2n.studio.svg)
