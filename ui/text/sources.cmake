# ui/text: highlighted code views (KSyntaxHighlighting or the built-in
# highlighter), line diffs (dtl) and t2n's syntax definitions as resources.
target_sources(t2n_ui PRIVATE
  text/builtin_highlighter.cpp
  text/code_view.cpp
  text/diff_view.cpp
  text/highlight_style.cpp
  text/line_diff.cpp
  text/progressive_highlighting.cpp
  text/text_highlighter.cpp
)
if(KF5SyntaxHighlighting_FOUND)
  target_sources(t2n_ui PRIVATE text/ksh_highlighting.cpp)
endif()
# KSyntaxHighlighting looks for <search path>/syntax/*.xml.
qt_add_resources(t2n_ui t2n_syntax_definitions
  PREFIX /t2n/ksyntaxhighlighting/syntax
  BASE ${PROJECT_SOURCE_DIR}/resources/syntax
  FILES ${PROJECT_SOURCE_DIR}/resources/syntax/torchscript-ir.xml
        ${PROJECT_SOURCE_DIR}/resources/syntax/nnef.xml
)
# The same definitions for Kate, KWrite and other KSyntaxHighlighting users.
install(FILES ${PROJECT_SOURCE_DIR}/resources/syntax/torchscript-ir.xml
              ${PROJECT_SOURCE_DIR}/resources/syntax/nnef.xml
        DESTINATION share/org.kde.syntax-highlighting/syntax)
