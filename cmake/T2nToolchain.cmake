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

# Sanitizers, two ways.
# T2N_SANITIZER_BUILD=ON (the `asan` preset; CI through packaging/bootstrap.sh
#   test): this tree also builds t2n_tests_asan and t2n-asan, which link the
#   very objects of the LibTorch half, the CLI and the tests with the engine's
#   LibTorch-free sources (the readers of untrusted bytes, the writers,
#   translation, targets: ~90 light files) compiled a second time with ASan and
#   UBSan. ASan's allocator and interceptors still cover the whole process.
#   A separate tree did the same at twice the cost: its precompiled header sat
#   at another path, so the compile cache missed the LibTorch half, and its
#   moc and test objects were built again.
# T2N_SANITIZE=address,undefined (the `asan-all` preset): every source of a
#   separate tree instrumented; a second full build (over 50 minutes cold on 2
#   cores), for a deeper run by hand.
option(T2N_SANITIZER_BUILD "Also build t2n_tests_asan: the LibTorch-free engine sources with ASan+UBSan" OFF)
set(T2N_SANITIZE "" CACHE STRING "Instrument every source of this tree with these sanitizers (e.g. address,undefined)")
# -Og: the instrumented LibTorch-free half compiles in 24 % less CPU than at
# -O1 (265 s instead of 347 s on 2 cores, the largest single block of CI's
# build) and the 21 instrumented suites run in the same CPU time (218 s
# against 222 s: their time is LibTorch's start-up, not instrumented code);
# -O0 compiled faster still (233 s) but made the suites 39 s slower. Reports
# keep their lines at -Og. GCC's
# -Wmaybe-uninitialized fires on libstdc++'s own <regex> and <functional>
# once instrumented (false positives known to GCC 12). UBSan's vptr check
# needs the typeinfo of every polymorphic class it sees, and Debian's
# LibTorch does not export some (c10::DynamicType): links fail without
# -fno-sanitize=vptr. UB aborts instead of printing and going on, so a report
# fails the test.
set(T2N_SANITIZER_FLAGS -Og -fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=all
    -fno-omit-frame-pointer -g1 -Wno-maybe-uninitialized)
set(T2N_SANITIZER_LINK -fsanitize=address,undefined)
if(T2N_SANITIZE)
  add_compile_options(-fsanitize=${T2N_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer -g1
                      -Wno-maybe-uninitialized)
  if(T2N_SANITIZE MATCHES "undefined")
    add_compile_options(-fno-sanitize=vptr)
  endif()
  add_link_options(-fsanitize=${T2N_SANITIZE})
endif()

# AUTOMOC through cmake/lean-moc.sh.in: moc without the system include
# directories (see the script for why). Call after find_package(Qt6).
function(t2n_lean_moc target)
  get_target_property(T2N_REAL_MOC Qt6::moc IMPORTED_LOCATION)
  get_target_property(qt_dirs Qt6::Core INTERFACE_INCLUDE_DIRECTORIES)
  set(T2N_QT_INCLUDE_ROOT "")
  foreach(dir IN LISTS qt_dirs)
    string(APPEND T2N_QT_INCLUDE_ROOT " ${dir}/")
  endforeach()
  set(wrapper ${PROJECT_BINARY_DIR}/cmake/lean-moc.sh)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/lean-moc.sh.in ${wrapper} @ONLY
                 FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                                  WORLD_READ WORLD_EXECUTE)
  set_target_properties(${target} PROPERTIES AUTOMOC_EXECUTABLE ${wrapper})
endfunction()
