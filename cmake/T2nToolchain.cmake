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

# Sanitizers (the `asan` and `asan-all` presets; CI runs `asan` through
# packaging/bootstrap.sh test). T2N_SANITIZE=address,undefined; UB aborts
# instead of printing and going on, so a report fails the test.
# T2N_SANITIZE_SCOPE:
#   all         every source of this tree is instrumented (`asan-all`);
#   torch-free  only the engine's sources that do not include LibTorch (the
#               readers of untrusted bytes, writers, translation, targets) are
#               instrumented; the LibTorch half and the tests compile exactly
#               as in the main tree, so the compile cache serves them and the
#               tree costs ~90 light compiles instead of a second full build
#               (measured: a cold full build at -O1 took over 50 minutes on 2
#               cores). ASan's allocator still covers the whole process.
set(T2N_SANITIZE "" CACHE STRING "Sanitizers to build with (e.g. address,undefined); empty: none")
set(T2N_SANITIZE_SCOPE "all" CACHE STRING "all, or torch-free: which sources T2N_SANITIZE instruments")
set_property(CACHE T2N_SANITIZE_SCOPE PROPERTY STRINGS all torch-free)
set(T2N_SANITIZE_FLAGS "")
if(T2N_SANITIZE)
  # GCC's -Wmaybe-uninitialized fires on libstdc++'s own <regex> and
  # <functional> once instrumented (false positives known to GCC 12).
  set(T2N_SANITIZE_FLAGS -fsanitize=${T2N_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer -g1
      -Wno-maybe-uninitialized)
  # UBSan's vptr check needs the typeinfo of every polymorphic class it sees,
  # and Debian's LibTorch does not export some (c10::DynamicType): the link
  # of t2n_tests fails with undefined references to them.
  if(T2N_SANITIZE MATCHES "undefined")
    list(APPEND T2N_SANITIZE_FLAGS -fno-sanitize=vptr)
  endif()
  if(T2N_SANITIZE_SCOPE STREQUAL "all")
    add_compile_options(${T2N_SANITIZE_FLAGS})
  elseif(NOT T2N_SANITIZE_SCOPE STREQUAL "torch-free")
    message(FATAL_ERROR "T2N_SANITIZE_SCOPE must be all or torch-free, not ${T2N_SANITIZE_SCOPE}")
  endif()
  add_link_options(-fsanitize=${T2N_SANITIZE})
endif()
