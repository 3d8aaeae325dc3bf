// Fuzz target `tensorproto`: bytes -> io::parse_tensor_pb ([IO.tensorproto.fields],
// [Graph.external-data], [Common.dtype.set], [Common.tensor.size-limit]). Oracle besides the
// sanitizers: an accepted tensor goes through to_proto (raw_data) and from_proto to the same bits.
#include <onnx/onnx_pb.h>

#include "fuzz_util.hpp"
#include "io/io.hpp"

using namespace sonnx;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::limit_memory();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::limit_memory();
  io::NamedTensor nt;
  if (fuzz::refused([&] { nt = io::parse_tensor_pb(fuzz::as_bytes(data, size), "fuzz.pb"); })) return 0;
  onnx::TensorProto p;
  io::to_proto(nt.tensor, nt.name, p);
  Tensor back;
  if (fuzz::refused([&] { back = io::from_proto(p, "rewritten"); }))
    fuzz::finding("to_proto wrote a TensorProto from_proto refuses");
  if (!back.bitwise_equal(nt.tensor)) fuzz::finding("TensorProto round trip changed the tensor");
  if (p.name() != nt.name) fuzz::finding("TensorProto round trip changed the name");
  return 0;
}
