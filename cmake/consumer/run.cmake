# The package test (ctest label package), run as cmake -P with BUILD_DIR, SOURCE_DIR, WORK_DIR,
# PYTHON, PYTHON_SITE, CONFIG and VERSION (the project's, asked of find_package):
#   1. cmake --install BUILD_DIR --prefix WORK_DIR/prefix   (the tree ctest runs in: nothing is rebuilt)
#   2. configures and builds cmake/consumer/ with CMAKE_PREFIX_PATH=WORK_DIR/prefix, so that
#      find_package(sonnx_ref) and the target sonnx_ref::sonnx_ref come from the install alone
#   3. the consumer and the installed CLI (`sonnx-ref run -o`) evaluate examples/max_reduce_hardmax.onnx:
#      their .npz files must be byte-identical
#   4. the installed Python module imports from PREFIX/PYTHON_SITE (not from the build tree) and its
#      run() gives the same arrays, bit for bit
set(prefix ${WORK_DIR}/prefix)
set(model ${SOURCE_DIR}/examples/max_reduce_hardmax.onnx)
set(inputs ${SOURCE_DIR}/examples/inputs.npz)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "package test: ${what} failed (${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "package test: ${what}: ok")
endfunction()

string(TIMESTAMP t0 "%s")
if(NOT CONFIG)
  set(CONFIG Release)
endif()
step("cmake --install ${BUILD_DIR} --prefix ${prefix}" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --config ${CONFIG})
set(expected bin/sonnx-ref lib/cmake/sonnx_ref/sonnx_refConfig.cmake include/sonnx_ref/graph/model.hpp)
if(PYTHON_SITE)
  list(APPEND expected ${PYTHON_SITE}/sonnx_ref/__init__.py)
endif()
foreach(f IN LISTS expected)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "package test: ${prefix}/${f} was not installed")
  endif()
endforeach()
step("configure the consumer project against the prefix"
     ${CMAKE_COMMAND} -S ${SOURCE_DIR}/cmake/consumer -B ${WORK_DIR}/consumer -DCMAKE_BUILD_TYPE=${CONFIG}
     -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON -DSONNX_REF_VERSION=${VERSION})
step("build the consumer project" ${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
step("run the consumer" ${WORK_DIR}/consumer/consumer ${model} ${inputs} ${WORK_DIR}/consumer.npz)
step("run the installed CLI" ${prefix}/bin/sonnx-ref run ${model} ${inputs} -o ${WORK_DIR}/cli.npz)
step("consumer.npz and cli.npz are byte-identical"
     ${CMAKE_COMMAND} -E compare_files ${WORK_DIR}/consumer.npz ${WORK_DIR}/cli.npz)
if(PYTHON AND EXISTS ${prefix}/${PYTHON_SITE}/sonnx_ref)
  set(check [=[
import os, sys, numpy as np, sonnx_ref
site = os.path.realpath(sys.argv[1])
assert os.path.realpath(sonnx_ref.__file__).startswith(site + os.sep), (sonnx_ref.__file__, site)
assert os.path.realpath(sonnx_ref._core.__file__).startswith(site + os.sep), sonnx_ref._core.__file__
out = sonnx_ref.run(sys.argv[2], sys.argv[3])
cli = np.load(sys.argv[4])
assert list(out) == list(cli.files), (list(out), cli.files)
for k, a in out.items():
    b = cli[k]
    assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes(), k
print("import sonnx_ref from", os.path.dirname(sonnx_ref.__file__), "- run() equals the installed CLI")
]=])
  step("import sonnx_ref from the prefix"
       ${CMAKE_COMMAND} -E env PYTHONPATH=${prefix}/${PYTHON_SITE} PYTHONDONTWRITEBYTECODE=1
       ${PYTHON} -c "${check}" ${prefix}/${PYTHON_SITE} ${model} ${inputs} ${WORK_DIR}/cli.npz)
endif()
string(TIMESTAMP t1 "%s")
math(EXPR seconds "${t1} - ${t0}")
message(STATUS "package test: passed in ${seconds} s")
