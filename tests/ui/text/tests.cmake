# tests/ui/text: highlighters (both backends), line diffs against GNU diff,
# code and diff views offscreen, and the text views' timings.
target_sources(t2n_ui_tests PRIVATE
  text/tst_code_view.cpp
  text/tst_line_diff.cpp
  text/tst_text_highlighting.cpp
  text/tst_text_performance.cpp
)
t2n_ui_suite(text_highlighting)
t2n_ui_suite(text_line_diff)
t2n_ui_suite(text_code_view)
t2n_ui_suite(text_performance TIMEOUT 300)
# tst_text_highlighting asks KSyntaxHighlighting's repository directly (imported targets
# are per directory: find it here too).
find_package(KF5SyntaxHighlighting QUIET)
if(TARGET KF5::SyntaxHighlighting)
  target_link_libraries(t2n_ui_tests PRIVATE KF5::SyntaxHighlighting)
endif()
