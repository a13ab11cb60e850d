# ManPages.cmake: one man page per command, generated at build time by help2man from the built
# CLI's --help (strata.1 and strata-<command>.1 in <build>/man), and the shell completions;
# both installed. Without help2man (scripts/setup.sh installs it) the pages are skipped with a
# message.
find_program(STRATA_HELP2MAN help2man)
set(STRATA_MAN_COMMANDS compile adopt audit discover assemble mcp usage replay explain)
# The commands strata runs from its sibling executables, when those are built.
if(TARGET strata_local_cli)
  list(APPEND STRATA_MAN_COMMANDS chat serve)
endif()
if(TARGET strata_record_cli)
  list(APPEND STRATA_MAN_COMMANDS record)
endif()
if(STRATA_HELP2MAN)
  set(_strata_man_dir ${CMAKE_BINARY_DIR}/man)
  set(_strata_pages ${_strata_man_dir}/strata.1)
  add_custom_command(
    OUTPUT ${_strata_man_dir}/strata.1
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_strata_man_dir}
    COMMAND ${STRATA_HELP2MAN} --no-info --version-string=${PROJECT_VERSION}
            --name=cache-stable\ context\ for\ coding\ agents -o ${_strata_man_dir}/strata.1
            $<TARGET_FILE:strata_cli>
    DEPENDS strata_cli VERBATIM)
  foreach(cmd IN LISTS STRATA_MAN_COMMANDS)
    # help2man runs "PROGRAM --help"; a one-line wrapper makes `strata CMD` that program.
    set(_wrapper ${CMAKE_BINARY_DIR}/man/wrap/strata-${cmd})
    file(GENERATE OUTPUT ${_wrapper}
         CONTENT "#!/bin/sh\nexec \"$<TARGET_FILE:strata_cli>\" ${cmd} \"$@\"\n"
         FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                          WORLD_READ WORLD_EXECUTE)
    add_custom_command(
      OUTPUT ${_strata_man_dir}/strata-${cmd}.1
      COMMAND ${CMAKE_COMMAND} -E make_directory ${_strata_man_dir}
      COMMAND ${STRATA_HELP2MAN} --no-info --no-discard-stderr --version-string=${PROJECT_VERSION}
              --name=strata\ ${cmd} -o ${_strata_man_dir}/strata-${cmd}.1 ${_wrapper}
      DEPENDS strata_cli VERBATIM)
    list(APPEND _strata_pages ${_strata_man_dir}/strata-${cmd}.1)
  endforeach()
  add_custom_target(strata_man ALL DEPENDS ${_strata_pages})
  install(FILES ${_strata_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "strata: help2man not found, man pages skipped (scripts/setup.sh installs it)")
endif()
set(_strata_completions ${PROJECT_SOURCE_DIR}/tools/strata/completions)
install(FILES ${_strata_completions}/strata.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME strata)
install(FILES ${_strata_completions}/_strata DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
install(FILES ${_strata_completions}/strata.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
