# CPACK_PRE_BUILD_SCRIPTS of the Debian package (cmake/package.cmake): run by cpack on the staging
# tree, after the install and before the archives are made. Moves the Python module from the build
# tree's SONNX_PYTHON_INSTALL_DIR (e.g. lib/python3.11/site-packages) to lib/python3/dist-packages,
# where Debian's python3 imports it from, and removes the folders the move left empty.
set(_root "${CPACK_TEMPORARY_INSTALL_DIRECTORY}${CPACK_PACKAGING_INSTALL_PREFIX}")
set(_from "${_root}/${CPACK_SONNX_PYTHON_INSTALL_DIR}")
set(_to "${_root}/${CPACK_SONNX_PYTHON_DIST_PACKAGES}")
if(EXISTS "${_from}/sonnx_ref")
  if(EXISTS "${_to}/sonnx_ref")
    message(FATAL_ERROR "dist-packages.cmake: ${_to}/sonnx_ref exists already")
  endif()
  file(MAKE_DIRECTORY "${_to}")
  file(RENAME "${_from}/sonnx_ref" "${_to}/sonnx_ref")
  set(_dir "${_from}")
  while(NOT _dir STREQUAL _root)
    file(GLOB _left "${_dir}/*")
    if(_left)
      break()
    endif()
    file(REMOVE_RECURSE "${_dir}")  # empty
    cmake_path(GET _dir PARENT_PATH _dir)
  endwhile()
  message(STATUS "sonnx-ref package: the Python module moved from ${CPACK_SONNX_PYTHON_INSTALL_DIR} to ${CPACK_SONNX_PYTHON_DIST_PACKAGES}")
endif()
