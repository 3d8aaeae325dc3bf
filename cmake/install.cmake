# Install rules and the CMake package of sonnx-ref (included by the top-level CMakeLists.txt).
#
#   cmake --install build --prefix P   installs
#     P/bin/sonnx-ref                                        the CLI
#     P/lib/libsonnx_ref.a, P/include/sonnx_ref/<src layout>  the library and its headers
#     P/lib/cmake/sonnx_ref/sonnx_refConfig.cmake            find_package(sonnx_ref): target sonnx_ref::sonnx_ref
#     P/lib/python3.X/site-packages/sonnx_ref/               the Python module (python/CMakeLists.txt)
#
# Test (label package): configures, builds and runs a small consumer project
# (cmake/consumer/) against an install of this tree.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set_target_properties(sonnx PROPERTIES OUTPUT_NAME sonnx_ref)
target_compile_features(sonnx PUBLIC cxx_std_20)  # consumers compile the headers as C++20
install(TARGETS sonnx sonnx_libzip sonnx_mpfr EXPORT sonnx_refTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/src/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/sonnx_ref COMPONENT library
        FILES_MATCHING PATTERN "*.hpp")
install(TARGETS sonnx-ref RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)

set(SONNX_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/sonnx_ref)
install(EXPORT sonnx_refTargets NAMESPACE sonnx_ref:: DESTINATION ${SONNX_CMAKE_DIR} COMPONENT library)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/sonnx_refConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/cmake/sonnx_refConfig.cmake INSTALL_DESTINATION ${SONNX_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/sonnx_refConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/sonnx_refConfig.cmake ${CMAKE_BINARY_DIR}/cmake/sonnx_refConfigVersion.cmake
        DESTINATION ${SONNX_CMAKE_DIR} COMPONENT library)

if(NOT SONNX_SANITIZE)
  add_test(NAME "package: cmake --install then find_package(sonnx_ref) in a consumer project"
           COMMAND ${SONNX_BOUNDED} ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
                   -DWORK_DIR=${CMAKE_BINARY_DIR}/package-test -DPYTHON=${SONNX_PYTHON_EXECUTABLE}
                   -DPYTHON_SITE=${SONNX_PYTHON_INSTALL_DIR} -DCONFIG=$<CONFIG> -DVERSION=${PROJECT_VERSION}
                   -P ${CMAKE_SOURCE_DIR}/cmake/consumer/run.cmake)
  set_tests_properties("package: cmake --install then find_package(sonnx_ref) in a consumer project"
                       PROPERTIES LABELS package TIMEOUT 600)
endif()
