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
# The completions are generated from the CLI definition (`strata completion SHELL`, which asks
# strata-local and strata-record for their commands' options), never written by hand.
set(_strata_completions ${CMAKE_BINARY_DIR}/completions)
set(_strata_completion_deps strata_cli)
foreach(_exe strata_local_cli strata_record_cli)
  if(TARGET ${_exe})
    list(APPEND _strata_completion_deps ${_exe})
  endif()
endforeach()
set(_strata_completion_files)
foreach(_shell bash zsh fish)
  if(_shell STREQUAL "bash")
    set(_file ${_strata_completions}/strata.bash)
  elseif(_shell STREQUAL "zsh")
    set(_file ${_strata_completions}/_strata)
  else()
    set(_file ${_strata_completions}/strata.fish)
  endif()
  add_custom_command(
    OUTPUT ${_file}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_strata_completions}
    COMMAND sh -c "\"$1\" completion ${_shell} > \"$2\"" sh $<TARGET_FILE:strata_cli> ${_file}
    DEPENDS ${_strata_completion_deps} VERBATIM)
  list(APPEND _strata_completion_files ${_file})
endforeach()
add_custom_target(strata_completions ALL DEPENDS ${_strata_completion_files})
install(FILES ${_strata_completions}/strata.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME strata)
install(FILES ${_strata_completions}/_strata DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
install(FILES ${_strata_completions}/strata.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
