# Compiler cache, warnings, and the dependency lookups shared by all targets.

find_program(T2N_CCACHE ccache)
if(T2N_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  # Precompiled headers and ccache work together only with these sloppiness
  # settings. They go through the launcher: an environment variable set here
  # would reach configure only, and every source built with the precompiled
  # <torch/script.h> would miss the cache on every build.
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env
      CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
      ${T2N_CCACHE})
endif()

add_library(t2n_warnings INTERFACE)
target_compile_options(t2n_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow
                                              -Wnon-virtual-dtor -Wno-unused-parameter)
# GCC 12 at -O2/-O3 reports bogus -Wrestrict on std::string assignment and
# concatenation of short literals (GCC PR 105329, fixed in 13): silence only that.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(t2n_warnings INTERFACE -Wno-restrict)
endif()

# KSyntaxHighlighting built for Qt 6 by packaging/build-ksyntaxhighlighting.sh
list(APPEND CMAKE_PREFIX_PATH ${CMAKE_BINARY_DIR}/_deps/ksh6)

# Sanitizers (the `asan` preset, run by CI through packaging/bootstrap.sh test):
# T2N_SANITIZE=address,undefined instruments every target of this tree. UB
# aborts instead of printing and going on, so a report fails the test.
set(T2N_SANITIZE "" CACHE STRING "Sanitizers to build with (e.g. address,undefined); empty: none")
if(T2N_SANITIZE)
  add_compile_options(-fsanitize=${T2N_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  # UBSan's vptr check needs the typeinfo of every polymorphic class it sees,
  # and Debian's LibTorch does not export some (c10::DynamicType): the link
  # of t2n_tests fails with undefined references to them.
  if(T2N_SANITIZE MATCHES "undefined")
    add_compile_options(-fno-sanitize=vptr)
  endif()
  add_link_options(-fsanitize=${T2N_SANITIZE})
endif()
