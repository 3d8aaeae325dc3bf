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
set(CPACK_PACKAGE_DESCRIPTION
    "sonnx-ref evaluates the ONNX operators Max, ReduceMax, Hardmax, Min, ReduceMin, ArgMax, ArgMin,
Relu, Clip, MaxPool and GlobalMaxPool of the SONNX profile bit-exactly, as a direct transcription of
its own specification, and judges another implementation's outputs clause by clause (run, check,
golden, explain, conformance). This package holds the command-line tool, the C++ library with its
headers and CMake package, and the Python module.")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/sonnx/sonnx-ref")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)        # dpkg-shlibdeps: the libraries sonnx-ref and _core link
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)  # no shared library of its own
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3, python3-numpy")  # the Python module (not a shared library)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libonnx-dev, libprotobuf-dev, libfmt-dev, nlohmann-json3-dev, libzip-dev, libssl-dev, python3-onnx")
set(CPACK_STRIP_FILES ON)
set(CPACK_SOURCE_IGNORE_FILES "/build.*/;/\\\\.git/")
# Same inputs, same bytes: no timestamp but SOURCE_DATE_EPOCH's in the archives.
set(CPACK_THREADS 1)
include(CPack)

# The documentation every Debian package carries: /usr/share/doc/sonnx-ref/copyright and
# changelog.gz (CHANGELOG.md, compressed without a timestamp), and the man page.
install(FILES ${CMAKE_SOURCE_DIR}/cmake/debian/copyright DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/sonnx-ref COMPONENT cli)
find_program(SONNX_GZIP gzip)
find_program(SONNX_HELP2MAN help2man)
if(SONNX_GZIP)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/package/changelog.gz
                     COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/package
                     COMMAND sh -c "${SONNX_GZIP} -9 -n -c '${CMAKE_SOURCE_DIR}/CHANGELOG.md' > '${CMAKE_BINARY_DIR}/package/changelog.gz'"
                     DEPENDS ${CMAKE_SOURCE_DIR}/CHANGELOG.md VERBATIM)
  set(_doc_outputs ${CMAKE_BINARY_DIR}/package/changelog.gz)
  install(FILES ${CMAKE_BINARY_DIR}/package/changelog.gz DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/sonnx-ref COMPONENT cli)
  if(SONNX_HELP2MAN)
    # The man page: help2man reads `sonnx-ref --help` and `--version` (the version line's date-free).
    add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/package/sonnx-ref.1.gz
                       COMMAND ${CMAKE_COMMAND} -E env SOURCE_DATE_EPOCH=0
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
