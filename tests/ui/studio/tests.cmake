# tests/ui/studio: models and controller of ui/session, the studio windows.
target_sources(t2n_ui_tests PRIVATE
  studio/tst_session_models.cpp
  studio/tst_selection_index.cpp
  studio/tst_studio_flows.cpp
  studio/tst_screenshots.cpp
  studio/tst_one_session.cpp
  studio/tst_desktop_conventions.cpp
  studio/tst_pass_scrubber.cpp
  studio/tst_form_undo.cpp
  studio/tst_report_flows.cpp
  studio/tst_panes.cpp
  studio/tst_shared_files.cpp
)
t2n_ui_suite(session_models NEEDS_MODELS)
t2n_ui_suite(selection_index)
t2n_ui_suite(studio_flows NEEDS_MODELS TIMEOUT 600)
t2n_ui_suite(screenshots NEEDS_MODELS TIMEOUT 900)
t2n_ui_suite(one_session NEEDS_MODELS TIMEOUT 900)
t2n_ui_suite(desktop_conventions TIMEOUT 600)
t2n_ui_suite(pass_scrubber)
t2n_ui_suite(form_undo)
t2n_ui_suite(report_flows NEEDS_MODELS TIMEOUT 600)
t2n_ui_suite(shared_files TIMEOUT 600)
t2n_ui_suite(panes TIMEOUT 600)
