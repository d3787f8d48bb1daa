# tests/ui/studio: models and controller of ui/session, the studio windows.
target_sources(t2n_ui_tests PRIVATE
  studio/tst_session_models.cpp
)
t2n_ui_suite(session_models NEEDS_MODELS)
