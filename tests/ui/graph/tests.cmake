# tests/ui/graph: target_sources(t2n_ui_tests PRIVATE ...) and t2n_ui_suite(NAME ...) here.
