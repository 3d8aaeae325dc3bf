# The Debian package of sonnx-ref (cpack -G DEB, from the install rules of cmake/install.cmake and
# python/CMakeLists.txt): the CLI, the static library and its headers, the CMake package, the Python
# module in /usr/lib/python3/dist-packages, the man page made by help2man from `sonnx-ref --help`,
# the copyright file and the changelog. Shared-library dependencies are computed by dpkg-shlibdeps;
# what the Python module and the CMake package need at use time (python3, python3-numpy, the -dev
# packages find_package(sonnx_ref) looks for) is not a shared library and is stated below.
# tools/release builds, checks (lintian, the extracted package run) and signs off a release.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME sonnx-ref)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_VENDOR "sonnx-ref")
set(CPACK_PACKAGE_CONTACT "sonnx-ref maintainers <sonnx-ref@users.noreply.github.com>")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "reference interpreter of the SONNX max-family ONNX operators")
# Lines of the long description under 80 characters (lintian: extended-description-line-too-long).
set(CPACK_PACKAGE_DESCRIPTION
    "sonnx-ref evaluates the ONNX operators Max, ReduceMax, Hardmax, Min, ReduceMin,
ArgMax, ArgMin, Relu, Clip, MaxPool and GlobalMaxPool of the SONNX profile
bit-exactly, as a direct transcription of its own specification, and judges
another implementation's outputs clause by clause (run, check, golden,
explain, conformance). This package holds the command-line tool, the C++
library with its headers and CMake package, and the Python module.")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/sonnx/sonnx-ref")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)        # dpkg-shlibdeps: the libraries sonnx-ref and _core link
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)  # no shared library of its own
# The Python module is an extension built for one Python (cpython-311: python3 3.11.x), found here
# rather than typed: its interpreter's version gives the range, as dh_python3 would write it.
set(_sonnx_python_depends "python3")
if(SONNX_PYTHON_EXECUTABLE AND SONNX_PYTHON_INSTALL_DIR)
  execute_process(COMMAND ${SONNX_PYTHON_EXECUTABLE} -c "import sys; print(sys.version_info[0], sys.version_info[1])"
                  OUTPUT_VARIABLE _sonnx_py OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _sonnx_py_rc)
  if(_sonnx_py_rc EQUAL 0 AND _sonnx_py MATCHES "^([0-9]+) ([0-9]+)$")
    math(EXPR _sonnx_py_next "${CMAKE_MATCH_2} + 1")
    set(_sonnx_py_this "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}")
    set(_sonnx_py_next "${CMAKE_MATCH_1}.${_sonnx_py_next}")
    set(_sonnx_python_depends "python3 (>= ${_sonnx_py_this}~), python3 (<< ${_sonnx_py_next})")
  endif()
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${_sonnx_python_depends}, python3-numpy")  # the Python module (not a shared library)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libonnx-dev, libprotobuf-dev, libfmt-dev, nlohmann-json3-dev, libzip-dev, libssl-dev, libmpfr-dev, python3-onnx")
set(CPACK_STRIP_FILES ON)
set(CPACK_SOURCE_IGNORE_FILES "/build.*/;/\\\\.git/")
# Same inputs, same bytes: with SOURCE_DATE_EPOCH set (tools/release: the commit's time), CMake 3.25's
# DEB generator writes that time for every member of the ar and tar archives (measured: two cpack runs
# of one tree, minutes apart, give byte-identical .deb files; without it they differ).
set(CPACK_THREADS 1)
# Debian's /usr/bin/python3 imports from /usr/lib/python3/dist-packages, not from the posix_prefix
# site-packages `cmake --install` uses by default (python/CMakeLists.txt): the package moves the module
# there in its staging tree, whatever SONNX_PYTHON_INSTALL_DIR the build tree has.
set(CPACK_SONNX_PYTHON_DIST_PACKAGES lib/python3/dist-packages)
if(SONNX_PYTHON_INSTALL_DIR AND NOT SONNX_PYTHON_INSTALL_DIR STREQUAL CPACK_SONNX_PYTHON_DIST_PACKAGES)
  set(CPACK_SONNX_PYTHON_INSTALL_DIR ${SONNX_PYTHON_INSTALL_DIR})
  set(CPACK_PRE_BUILD_SCRIPTS ${CMAKE_SOURCE_DIR}/cmake/debian/dist-packages.cmake)
endif()
include(CPack)

# The documentation every Debian package carries: /usr/share/doc/sonnx-ref/copyright, changelog.gz
# (the Debian changelog of this native package, made from CHANGELOG.md by cmake/debian/changelog: one
# entry per release, pointing to its section), CHANGELOG.md.gz (the changelog for users), and the man
# page. Compressed without a timestamp (gzip -n). Their dates are SOURCE_DATE_EPOCH's when the tree was
# configured with one (tools/release: the commit's time), else 1970-01-01: never today's.
if(DEFINED ENV{SOURCE_DATE_EPOCH})
  set(_sonnx_epoch $ENV{SOURCE_DATE_EPOCH})
else()
  set(_sonnx_epoch 0)
endif()
install(FILES ${CMAKE_SOURCE_DIR}/cmake/debian/copyright DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/sonnx-ref COMPONENT cli)
find_program(SONNX_GZIP gzip)
find_program(SONNX_HELP2MAN help2man)
if(SONNX_GZIP)
  set(_pkg ${CMAKE_BINARY_DIR}/package)
  add_custom_command(OUTPUT ${_pkg}/changelog.gz ${_pkg}/CHANGELOG.md.gz
                     COMMAND ${CMAKE_COMMAND} -E make_directory ${_pkg}
                     COMMAND ${CMAKE_COMMAND} -E env SOURCE_DATE_EPOCH=${_sonnx_epoch}
                             sh -c "'${CMAKE_SOURCE_DIR}/cmake/debian/changelog' '${CMAKE_SOURCE_DIR}/CHANGELOG.md' '${PROJECT_VERSION}' '${CPACK_DEBIAN_PACKAGE_MAINTAINER}' | ${SONNX_GZIP} -9 -n > '${_pkg}/changelog.gz'"
                     COMMAND sh -c "${SONNX_GZIP} -9 -n -c '${CMAKE_SOURCE_DIR}/CHANGELOG.md' > '${_pkg}/CHANGELOG.md.gz'"
                     DEPENDS ${CMAKE_SOURCE_DIR}/CHANGELOG.md ${CMAKE_SOURCE_DIR}/cmake/debian/changelog VERBATIM)
  set(_doc_outputs ${_pkg}/changelog.gz ${_pkg}/CHANGELOG.md.gz)
  install(FILES ${_pkg}/changelog.gz ${_pkg}/CHANGELOG.md.gz DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/sonnx-ref COMPONENT cli)
  if(SONNX_HELP2MAN)
    # The man page: help2man reads `sonnx-ref --help`.
    add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/package/sonnx-ref.1.gz
                       COMMAND ${CMAKE_COMMAND} -E env SOURCE_DATE_EPOCH=${_sonnx_epoch}
                               ${SONNX_HELP2MAN} --no-info --no-discard-stderr
                               --name "reference interpreter of the SONNX max-family ONNX operators"
                               --version-string "${PROJECT_VERSION}" -o ${CMAKE_BINARY_DIR}/package/sonnx-ref.1
                               $<TARGET_FILE:sonnx-ref>
                       COMMAND ${SONNX_GZIP} -9 -n -f ${CMAKE_BINARY_DIR}/package/sonnx-ref.1
                       DEPENDS sonnx-ref VERBATIM)
    list(APPEND _doc_outputs ${CMAKE_BINARY_DIR}/package/sonnx-ref.1.gz)
    install(FILES ${CMAKE_BINARY_DIR}/package/sonnx-ref.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT cli)
  endif()
  add_custom_target(sonnx_ref_package_docs ALL DEPENDS ${_doc_outputs})
endif()

# Test (label package): the .deb of this tree checked as a user gets it: dependencies computed,
# file list, lintian without error, and the extracted package run (cmake/debian/test-deb,
# tools/release-check). The reproducibility of two release builds is checked by tools/release itself.
if(NOT SONNX_SANITIZE)
  add_test(NAME "package: the Debian package (cpack -G DEB): dpkg-shlibdeps dependencies, lintian without error, the extracted CLI, Python module and find_package(sonnx_ref) run"
           COMMAND ${SONNX_BOUNDED} ${CMAKE_SOURCE_DIR}/cmake/debian/test-deb ${CMAKE_CPACK_COMMAND} ${CMAKE_BINARY_DIR}
                   ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/package-deb)
  set_tests_properties("package: the Debian package (cpack -G DEB): dpkg-shlibdeps dependencies, lintian without error, the extracted CLI, Python module and find_package(sonnx_ref) run"
                       PROPERTIES LABELS package TIMEOUT 900 COST 80)
endif()
