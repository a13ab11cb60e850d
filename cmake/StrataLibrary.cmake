# StrataLibrary.cmake: libstrata.so (strata_shared: the core, the llama.cpp parts when built, and
# the C ABI of include/strata.h), the generated config header, and the install rules: libraries,
# public headers, the CLI, the CMake package (find_package(strata) -> strata::strata, the shared
# library; strata::strata_static, the static core) and strata.pc for pkg-config.
include(CMakePackageConfigHelpers)

# strata/build_config.h: what this build holds (STRATA_HAS_LOCAL: the llama.cpp parts).
set(STRATA_GENERATED_INCLUDE ${PROJECT_BINARY_DIR}/generated/include)
if(STRATA_HAS_LOCAL)
  set(STRATA_HAS_LOCAL_VALUE 1)
else()
  set(STRATA_HAS_LOCAL_VALUE 0)
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/build_config.h.in ${STRATA_GENERATED_INCLUDE}/strata/build_config.h @ONLY)

set(_strata_shared_objects $<TARGET_OBJECTS:strata_core_objects>)
set(_strata_shared_libs ${STRATA_CORE_PRIVATE_LIBS})
if(STRATA_HAS_LOCAL)
  list(APPEND _strata_shared_objects $<TARGET_OBJECTS:strata_local_objects>)
  list(APPEND _strata_shared_libs ${STRATA_LOCAL_PRIVATE_LIBS})
endif()
add_library(strata_shared SHARED ${STRATA_CAPI_SOURCES} ${_strata_shared_objects})
add_library(strata::strata ALIAS strata_shared)
set_target_properties(strata_shared PROPERTIES OUTPUT_NAME strata VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR}
  EXPORT_NAME strata)
target_include_directories(strata_shared
  PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
         $<BUILD_INTERFACE:${STRATA_GENERATED_INCLUDE}>
         $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
  PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_compile_options(strata_shared PRIVATE -Wall -Wextra -Wpedantic)
target_link_libraries(strata_shared PUBLIC tl::expected
  PRIVATE nlohmann_json::nlohmann_json ${_strata_shared_libs})
# No undefined symbol may wait for the program: a consumer links -lstrata alone. (Not in sanitizer
# builds: clang leaves the sanitizer runtime to the executable that loads the library.)
if(NOT STRATA_SANITIZE AND NOT STRATA_FUZZ)
  target_link_options(strata_shared PRIVATE -Wl,--no-undefined)
endif()
# Export only the public API: the objects are compiled with hidden visibility and the public
# headers mark their namespace STRATA_EXPORT (include/strata/status.h; the C ABI of strata.h is
# marked by a visibility pragma). Symbols of the static archives linked in (llama.cpp, ggml) stay
# inside too. The static library and the CLI link the same objects; visibility does not change a
# static link, so the tests still reach internals through them.
set(_strata_hidden_targets strata_core_objects strata_shared)
if(TARGET strata_local_objects)
  list(APPEND _strata_hidden_targets strata_local_objects)
endif()
set_target_properties(${_strata_hidden_targets} PROPERTIES CXX_VISIBILITY_PRESET hidden
  C_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
target_link_options(strata_shared PRIVATE -Wl,--exclude-libs,ALL)
# libstrata.so itself needs no RUNPATH (its dependencies are system libraries).
set_target_properties(strata_shared PROPERTIES INSTALL_RPATH "")
set_target_properties(strata PROPERTIES EXPORT_NAME strata_static)

# Install: libraries, headers, package files. The CLI installs itself (tools/strata).
install(TARGETS strata_shared EXPORT strata-targets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT dev
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The static core for C++ consumers that link statically (its Debian dependencies are found by the
# package config file).
install(TARGETS strata EXPORT strata-targets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")
install(FILES ${STRATA_GENERATED_INCLUDE}/strata/build_config.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/strata)

set(STRATA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/strata)
install(EXPORT strata-targets NAMESPACE strata:: DESTINATION ${STRATA_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/strata-config.cmake.in
  ${PROJECT_BINARY_DIR}/strata-config.cmake INSTALL_DESTINATION ${STRATA_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/strata-config-version.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/strata-config.cmake
  ${PROJECT_BINARY_DIR}/strata-config-version.cmake DESTINATION ${STRATA_CMAKE_DIR})

# strata.pc: -lstrata is the shared library; the only package its public headers include is
# tl-expected (header-only, no .pc file on Debian 12, so not listed; its header lives in
# /usr/include).
file(RELATIVE_PATH STRATA_PC_PREFIX_FROM_PCDIR "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" STRATA_PC_PREFIX_FROM_PCDIR "${STRATA_PC_PREFIX_FROM_PCDIR}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/strata.pc.in ${PROJECT_BINARY_DIR}/strata.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/strata.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
