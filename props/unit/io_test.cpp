// Hand-derived checks of npz archives, TensorProto and test_data_set folders (spec/common/io.md):
// [IO.npz.archive], [IO.tensorproto.fields], [IO.testdata.folder], [Graph.external-data],
// [Common.dtype.set], [Common.dtype.bool], [Common.tensor.size-limit].
// Expected values are written by hand. The kNpz_* archives were produced once by numpy 1.24
// (/usr/bin/python3 on Debian 12) with the call quoted above each, and hex-dumped.
#include <onnx/onnx_pb.h>
#include <zip.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <unistd.h>

#include "io/io.hpp"
#include "test_util.hpp"

namespace io_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
namespace fs = std::filesystem;

namespace {

// ---- archives produced by numpy 1.24: f = io.BytesIO(); <call>; f.getvalue().hex() ----
// np.savez(f, x=np.array([1,2,3],dtype='<i8'), y=np.array([[0.5]],dtype='<f4'))  (stored members)
const char* const kNpz_stored =
    "504b030414000000000000002100bc91558e980000009800000005001400782e6e707901001000980000000000000098"
    "00000000000000934e554d5059010076007b276465736372273a20273c6938272c2027666f727472616e5f6f72646572"
    "273a2046616c73652c20277368617065273a2028332c292c207d20202020202020202020202020202020202020202020"
    "20202020202020202020202020202020202020202020202020202020202020202020202020200a010000000000000002"
    "000000000000000300000000000000504b030414000000000000002100b7eb96d8840000008400000005001400792e6e"
    "70790100100084000000000000008400000000000000934e554d5059010076007b276465736372273a20273c6634272c"
    "2027666f727472616e5f6f72646572273a2046616c73652c20277368617065273a2028312c2031292c207d2020202020"
    "202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020"
    "20202020200a0000003f504b0102140314000000000000002100bc91558e980000009800000005000000000000000000"
    "0000800100000000782e6e7079504b0102140314000000000000002100b7eb96d8840000008400000005000000000000"
    "00000000008001cf000000792e6e7079504b05060000000002000200660000008a0100000000";
// np.savez_compressed(f, big=np.zeros(1000,dtype='<u2'), flag=np.array([True]))  (deflate members)
const char* const kNpz_deflate =
    "504b030414000000080000002100dc11be575600000050080000070014006269672e6e70790100100050080000000000"
    "0056000000000000009bec17ea1b10c9c850c650ad9e925a9c5ca46ea5a06e536aa4aea3a09e965f54529498179f5f94"
    "920a12774bcc294e058a17672416a402f91a860606063a9a3a0ab50ae4022e8651300a46c1281805a360140c79000050"
    "4b030414000000080000002100ba342e73450000008100000008001400666c61672e6e70790100100081000000000000"
    "0045000000000000009bec17ea1b10c9c850c650ad9e925a9c5ca46ea5a05e9364a8aea3a09e965f54529498179f5f94"
    "920a12774bcc294e058a17672416a402f91a863a9a3a0ab50a14002e4600504b0102140314000000080000002100dc11"
    "be5756000000500800000700000000000000000000008001000000006269672e6e7079504b0102140314000000080000"
    "002100ba342e73450000008100000008000000000000000000000080018f000000666c61672e6e7079504b0506000000"
    "00020002006b0000000e0100000000";



void write_bytes(const std::string& path, std::span<const std::byte> bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}
std::vector<std::byte> file_bytes(const std::string& path) { return io::read_file(path, "IO.npz.archive"); }

// A zip built directly with libzip (independently of write_npz), one member per entry.
struct Member {
  std::string name;
  std::vector<std::byte> bytes;
  zip_int32_t method = ZIP_CM_STORE;
  zip_uint16_t encryption = ZIP_EM_NONE;
};
void make_zip(const std::string& path, const std::vector<Member>& members) {
  int err = 0;
  zip_t* za = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
  REQUIRE(za != nullptr);
  for (const auto& m : members) {
    zip_source_t* src = zip_source_buffer(za, m.bytes.data(), m.bytes.size(), 0);
    REQUIRE(src != nullptr);
    const zip_int64_t idx = zip_file_add(za, m.name.c_str(), src, 0);
    REQUIRE(idx >= 0);
    REQUIRE(zip_set_file_compression(za, static_cast<zip_uint64_t>(idx), m.method, 0) == 0);
    if (m.encryption != ZIP_EM_NONE)
      REQUIRE(zip_file_set_encryption(za, static_cast<zip_uint64_t>(idx), m.encryption, "secret") == 0);
  }
  REQUIRE(zip_close(za) == 0);
}

std::string refusal_of_npz(const std::string& path) {
  return refusal_id([&] { io::read_npz(path); });
}

// Offset of the first occurrence of a 4-byte zip signature "PK" a b.
std::size_t find_signature(const std::vector<std::byte>& z, int a, int b) {
  for (std::size_t k = 0; k + 4 <= z.size(); ++k)
    if (z[k] == std::byte{'P'} && z[k + 1] == std::byte{'K'} && std::to_integer<int>(z[k + 2]) == a &&
        std::to_integer<int>(z[k + 3]) == b)
      return k;
  FAIL("zip signature not found");
  return 0;
}
void put_u32(std::vector<std::byte>& z, std::size_t at, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) z[at + k] = static_cast<std::byte>((v >> (8 * k)) & 0xFF);
}

Tensor patterned(DType dtype, Shape shape, unsigned seed) {
  Tensor t(dtype, std::move(shape));
  std::mt19937 rng(seed);
  for (auto& b : t.bytes()) b = static_cast<std::byte>(dtype == DType::Bool ? rng() % 2 : rng() % 256);
  return t;
}

template <class T> Tensor tensor_of(Shape s, std::vector<T> v) { return make_tensor<T>(std::move(s), v); }
Tensor f16(Shape s, const std::vector<std::uint16_t>& bits) {
  Tensor t(DType::Float16, std::move(s));
  for (std::size_t k = 0; k < bits.size(); ++k) t.values<float16>()[k] = float16{bits[k]};
  return t;
}
Tensor bf16(Shape s, const std::vector<std::uint16_t>& bits) {
  Tensor t(DType::BFloat16, std::move(s));
  for (std::size_t k = 0; k < bits.size(); ++k) t.values<bfloat16>()[k] = bfloat16{bits[k]};
  return t;
}

bool python_with_numpy() {
  return fs::exists("/usr/bin/python3") &&
         std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") == 0;
}

}  // namespace

// ----------------------------------------------------------------------------------------- npz

TEST_CASE("[IO.npz.archive] archives written by numpy.savez (stored) and savez_compressed (deflate)", "[io][npz]") {
  {
    const auto members = io::read_npz_image(from_hex(kNpz_stored), "stored.npz");
    REQUIRE(members.size() == 2);
    CHECK(members[0].name == "x");
    CHECK(members[0].tensor.shape() == Shape{3});
    CHECK(values<std::int64_t>(members[0].tensor) == std::vector<std::int64_t>{1, 2, 3});
    CHECK(members[1].name == "y");
    CHECK(members[1].tensor.shape() == Shape{1, 1});
    CHECK(values<float>(members[1].tensor) == std::vector<float>{0.5f});
  }
  {
    TempDir dir;
    write_bytes(dir / "deflate.npz", from_hex(kNpz_deflate));
    const auto members = io::read_npz(dir / "deflate.npz");
    REQUIRE(members.size() == 2);
    CHECK(members[0].name == "big");
    CHECK(members[0].tensor.dtype() == DType::Uint16);
    CHECK(members[0].tensor.shape() == Shape{1000});
    CHECK(values<std::uint16_t>(members[0].tensor) == std::vector<std::uint16_t>(1000, 0));
    CHECK(members[1].name == "flag");
    CHECK(values<bool>(members[1].tensor) == std::vector<bool>{true});
    // [IO.npy.bfloat16] the declared type of a key reaches the npy reader.
    const auto typed = io::read_npz(dir / "deflate.npz", [](const std::string& key) -> std::optional<DType> {
      if (key == "big") return DType::BFloat16;
      return std::nullopt;
    });
    CHECK(typed[0].tensor.dtype() == DType::BFloat16);
    CHECK(typed[1].tensor.dtype() == DType::Bool);
  }
}

TEST_CASE("[IO.npz.archive] write_npz and read_npz round-trip every dtype, keys are the names", "[io][npz]") {
  TempDir dir;
  std::vector<io::NamedTensor> tensors;
  unsigned seed = 11;
  for (DType d : kAllDTypes) tensors.push_back({std::string(name(d)) + ".out:0", patterned(d, {2, 3}, seed++)});
  tensors.push_back({"scalar", patterned(DType::Double, {}, 3)});
  tensors.push_back({"empty", Tensor(DType::Int64, {0, 5})});
  io::write_npz(dir / "all.npz", tensors);
  const auto back = io::read_npz(dir / "all.npz", [](const std::string& key) -> std::optional<DType> {
    if (key.starts_with("bfloat16")) return DType::BFloat16;
    return std::nullopt;
  });
  REQUIRE(back.size() == tensors.size());
  for (std::size_t k = 0; k < back.size(); ++k) {
    INFO(tensors[k].name);
    CHECK(back[k].name == tensors[k].name);
    CHECK(back[k].tensor.bitwise_equal(tensors[k].tensor));
  }
  // Members are stored uncompressed.
  int err = 0;
  zip_t* za = zip_open((dir / "all.npz").c_str(), ZIP_RDONLY, &err);
  REQUIRE(za != nullptr);
  zip_stat_t st;
  REQUIRE(zip_stat_index(za, 0, 0, &st) == 0);
  CHECK(std::string(st.name) == "bool.out:0.npy");
  CHECK(st.comp_method == ZIP_CM_STORE);
  zip_discard(za);
  // No tensor: an empty archive, read back as no member.
  io::write_npz(dir / "none.npz", {});
  CHECK(io::read_npz(dir / "none.npz").empty());
  // Overwrites an existing file, even one that is not a zip.
  write_bytes(dir / "junk.npz", std::vector<std::byte>(100, std::byte{7}));
  io::write_npz(dir / "junk.npz", {{"a", tensor_of<std::int8_t>({1}, {5})}});
  CHECK(values<std::int8_t>(io::read_npz(dir / "junk.npz").at(0).tensor) == std::vector<std::int8_t>{5});
  // Two tensors with one name cannot be keys of one archive.
  CHECK(refusal_id([&] {
          io::write_npz(dir / "dup.npz", {{"a", Tensor(DType::Float, {1})}, {"a", Tensor(DType::Float, {1})}});
        }) == "IO.npz.archive");
  CHECK(refusal_id([&] { io::write_npz((dir / "no-such-dir") + "/x.npz", {{"a", Tensor(DType::Float, {1})}}); }) ==
        "IO.npz.archive");
}

TEST_CASE("[IO.npz.archive] npz and npy written by sonnx-ref are read by numpy.load", "[io][npz][python]") {
  if (!python_with_numpy()) {
    WARN("SKIPPED: /usr/bin/python3 with numpy is not installed; numpy.load compatibility not checked");
    return;
  }
  TempDir dir;
  Tensor f32t = f32({2, 3}, {1.5f, -2.0f, 0.0f, -0.0f, kInf, -kInf});
  io::write_npz(dir / "out.npz",
                {{"b", tensor_of<bool>({2}, {true, false})},
                 {"i8", tensor_of<std::int8_t>({2}, {-128, 127})},
                 {"i16", tensor_of<std::int16_t>({2}, {-32768, 7})},
                 {"i32", tensor_of<std::int32_t>({2, 2}, {1, 2, 3, 4})},
                 {"i64", tensor_of<std::int64_t>({}, {std::numeric_limits<std::int64_t>::min()})},
                 {"u8", tensor_of<std::uint8_t>({1}, {255})},
                 {"u16", tensor_of<std::uint16_t>({1}, {65535})},
                 {"u32", tensor_of<std::uint32_t>({1}, {4294967295u})},
                 {"u64", tensor_of<std::uint64_t>({1}, {18446744073709551615ull})},
                 {"f16", f16({2}, {0x3C00, 0x7C00})},
                 {"bf16", bf16({2}, {0x3F80, 0xC040})},
                 {"f32", f32t},
                 {"f64", Tensor(DType::Double, {0, 3})}});
  const auto npy = io::write_npy(f32t);
  write_bytes(dir / "one.npy", npy);
  io::write_npz(dir / "none.npz", {});
  // The expectations below are written by hand, independently of the writer.
  std::ofstream(dir / "check.py") << R"(
import sys, numpy as np
z = np.load(sys.argv[1] + '/out.npz')
assert list(z.keys()) == ['b','i8','i16','i32','i64','u8','u16','u32','u64','f16','bf16','f32','f64'], list(z.keys())
def same(key, dtype, shape, vals):
    a = z[key]
    assert a.dtype == np.dtype(dtype), (key, a.dtype)
    assert a.shape == shape, (key, a.shape)
    assert a.ravel().tolist() == vals, (key, a.ravel().tolist())
same('b', '?', (2,), [True, False])
same('i8', 'i1', (2,), [-128, 127])
same('i16', '<i2', (2,), [-32768, 7])
same('i32', '<i4', (2, 2), [1, 2, 3, 4])
same('i64', '<i8', (), [-9223372036854775808])
same('u8', 'u1', (1,), [255])
same('u16', '<u2', (1,), [65535])
same('u32', '<u4', (1,), [4294967295])
same('u64', '<u8', (1,), [18446744073709551615])
same('f16', '<f2', (2,), [1.0, float('inf')])
same('bf16', '<u2', (2,), [0x3F80, 0xC040])
same('f64', '<f8', (0, 3), [])
f = z['f32']
assert f.dtype == np.dtype('<f4') and f.shape == (2, 3)
assert f.view('<u4').ravel().tolist() == [0x3FC00000, 0xC0000000, 0, 0x80000000, 0x7F800000, 0xFF800000]
o = np.load(sys.argv[1] + '/one.npy')
assert o.dtype == np.dtype('<f4') and o.shape == (2, 3) and o.flags['C_CONTIGUOUS']
assert o.view('<u4').ravel().tolist() == [0x3FC00000, 0xC0000000, 0, 0x80000000, 0x7F800000, 0xFF800000]
assert list(np.load(sys.argv[1] + '/none.npz').keys()) == []
print('numpy.load ok')
)";
  const std::string cmd = "/usr/bin/python3 " + (dir / "check.py") + " " + dir.path.string();
  CHECK(std::system(cmd.c_str()) == 0);
}

TEST_CASE("[IO.npz.archive] garbage, truncated and corrupt archives are refused", "[io][npz]") {
  TempDir dir;
  CHECK(refusal_of_npz(dir / "missing.npz") == "IO.npz.archive");
  CHECK(refusal_of_npz(dir.path.string()) == "IO.npz.archive");  // a directory
  write_bytes(dir / "empty.npz", {});
  CHECK(refusal_of_npz(dir / "empty.npz") == "IO.npz.archive");
  write_bytes(dir / "garbage.npz", std::vector<std::byte>(1000, std::byte{0x50}));
  CHECK(refusal_of_npz(dir / "garbage.npz") == "IO.npz.archive");
  // An .npy is not an .npz.
  write_bytes(dir / "plain.npz", io::write_npy(Tensor(DType::Float, {2})));
  CHECK(refusal_of_npz(dir / "plain.npz") == "IO.npz.archive");

  // Every strict prefix of a valid archive is refused.
  const auto good = from_hex(kNpz_stored);
  for (std::size_t n = 0; n < good.size(); ++n) {
    INFO("prefix " << n);
    CHECK(refusal_id([&] { io::read_npz_image(std::span(good).first(n), "cut.npz"); }) == "IO.npz.archive");
  }
  // A stored data byte changed: the npy still parses, the CRC does not match.
  {
    auto z = good;
    z[55 + 150] ^= std::byte{0x01};  // member x.npy: 30-byte header + "x.npy" + 20-byte extra, then data
    CHECK(refusal_id([&] { io::read_npz_image(z, "crc.npz"); }) == "IO.npz.archive");
  }
  // A member whose npy image is malformed is refused by the npy clause, naming archive and member.
  {
    std::vector<std::byte> bad_npy = io::write_npy(Tensor(DType::Float, {2}));
    bad_npy.pop_back();
    make_zip(dir / "badnpy.npz", {{"x.npy", bad_npy}});
    try {
      io::read_npz(dir / "badnpy.npz");
      FAIL("accepted");
    } catch (const SpecError& e) {
      CHECK(e.id() == "IO.npy.format");
      CHECK(std::string(e.what()).find("badnpy.npz:x.npy") != std::string::npos);
    }
  }
  const auto one = io::write_npy(Tensor(DType::Float, {2}));
  make_zip(dir / "txt.npz", {{"x.npy", one}, {"readme.txt", one}});
  CHECK(refusal_of_npz(dir / "txt.npz") == "IO.npz.archive");
  make_zip(dir / "dirs.npz", {{"sub/", {}}});
  CHECK(refusal_of_npz(dir / "dirs.npz") == "IO.npz.archive");
  // Two members named x.npy (libzip will not write that: the second name is patched from y.npy).
  make_zip(dir / "dup.npz", {{"x.npy", one}, {"y.npy", one}});
  auto z = file_bytes(dir / "dup.npz");
  for (std::size_t k = 0; k + 5 <= z.size(); ++k)
    if (std::string(reinterpret_cast<const char*>(&z[k]), 5) == "y.npy") z[k] = std::byte{'x'};
  CHECK(refusal_id([&] { io::read_npz_image(z, "dup.npz"); }) == "IO.npz.archive");
}

TEST_CASE("[IO.npz.archive] compression methods other than stored and deflate, and encryption, are refused",
          "[io][npz]") {
  TempDir dir;
  const auto one = io::write_npy(Tensor(DType::Float, {2}));
  make_zip(dir / "deflate.npz", {{"x.npy", one, ZIP_CM_DEFLATE}});
  CHECK(io::read_npz(dir / "deflate.npz").at(0).tensor.shape() == Shape{2});
  if (zip_compression_method_supported(ZIP_CM_BZIP2, 1)) {
    make_zip(dir / "bzip2.npz", {{"x.npy", one, ZIP_CM_BZIP2}});
    CHECK(refusal_of_npz(dir / "bzip2.npz") == "IO.npz.archive");
  } else {
    WARN("libzip without bzip2: compression-method refusal not exercised");
  }
  if (zip_encryption_method_supported(ZIP_EM_AES_256, 1)) {
    make_zip(dir / "aes.npz", {{"x.npy", one, ZIP_CM_STORE, ZIP_EM_AES_256}});
    CHECK(refusal_of_npz(dir / "aes.npz") == "IO.npz.archive");
  } else {
    WARN("libzip without AES: encryption refusal not exercised");
  }
}

TEST_CASE("[Common.tensor.size-limit] npz members above the byte limit are refused before extraction", "[io][npz]") {
  TempDir dir;
  // A 16 MiB member of zeros (a small zip bomb) against a 1 MB limit (+ 1 MiB header allowance).
  const Tensor zeros(DType::Uint8, {16 << 20});
  make_zip(dir / "bomb.npz", {{"z.npy", io::write_npy(zeros), ZIP_CM_DEFLATE}});
  CHECK(fs::file_size(dir / "bomb.npz") < 200000);
  {
    ByteLimit limit("1000000");
    CHECK(refusal_of_npz(dir / "bomb.npz") == "Common.tensor.size-limit");
  }
  CHECK(io::read_npz(dir / "bomb.npz").at(0).tensor.size() == 16 << 20);
}

TEST_CASE("[IO.npz.archive] [IO.npy.format] declared member sizes that lie are refused", "[io][npz]") {
  TempDir dir;
  make_zip(dir / "d.npz", {{"x.npy", io::write_npy(Tensor(DType::Uint8, {64})), ZIP_CM_DEFLATE}});
  const auto z = file_bytes(dir / "d.npz");
  const std::size_t local = find_signature(z, 3, 4), central = find_signature(z, 1, 2);
  auto with_size = [&](std::uint32_t size) {
    auto lie = z;
    put_u32(lie, local + 22, size);    // local header: uncompressed size
    put_u32(lie, central + 24, size);  // central directory: uncompressed size
    return lie;
  };
  // 1 GiB cannot come out of a few dozen deflated bytes: refused before allocating it.
  CHECK(refusal_id([&] { io::read_npz_image(with_size(1u << 30), "bomb.npz"); }) == "IO.npz.archive");
  // Declared shorter or longer than the real content (192 bytes: a 128-byte header and 64 data
  // bytes): the declared size is not the one the npy header gives, refused with [IO.npy.format]
  // before the data are inflated (npz_stream_test.cpp has the lies the header cannot reveal).
  CHECK(refusal_id([&] { io::read_npz_image(with_size(100), "short.npz"); }) == "IO.npy.format");
  CHECK(refusal_id([&] { io::read_npz_image(with_size(200), "long.npz"); }) == "IO.npy.format");
  // Local and central directory disagreeing.
  auto mixed = z;
  put_u32(mixed, central + 24, 100);
  CHECK(refusal_id([&] { io::read_npz_image(mixed, "mixed.npz"); }) == "IO.npz.archive");
}

TEST_CASE("[IO.npz.archive] fuzz: bit-flipped archives are read or refused, never crash", "[io][npz][fuzz]") {
  TempDir dir;
  io::write_npz(dir / "w.npz", {{"a", patterned(DType::Float, {3, 2}, 1)}, {"b", patterned(DType::Bool, {4}, 2)}});
  make_zip(dir / "d.npz", {{"c.npy", io::write_npy(patterned(DType::Int16, {5}, 3)), ZIP_CM_DEFLATE}});
  const std::vector<std::vector<std::byte>> seeds = {from_hex(kNpz_stored), from_hex(kNpz_deflate),
                                                     file_bytes(dir / "w.npz"), file_bytes(dir / "d.npz")};
  std::mt19937 rng(7);
  int refused = 0, read = 0;
  for (const auto& seed : seeds) {
    for (int round = 0; round < 1500; ++round) {
      auto z = seed;
      const int flips = 1 + static_cast<int>(rng() % 3);
      for (int f = 0; f < flips; ++f) z[rng() % z.size()] ^= static_cast<std::byte>(1u << (rng() % 8));
      try {
        io::read_npz_image(z, "fuzz.npz");
        ++read;
      } catch (const SpecError& e) {
        CHECK(!e.id().empty());
        ++refused;
      }
    }
  }
  CHECK(refused > 0);
  CHECK(read > 0);  // flips in ignored fields (times, comments) keep the archive valid
}

// ----------------------------------------------------------------------------------------- TensorProto

TEST_CASE("[IO.tensorproto.fields] typed fields of every dtype", "[io][proto]") {
  auto make = [](int type, std::vector<std::int64_t> dims) {
    onnx::TensorProto p;
    p.set_data_type(type);
    for (auto d : dims) p.add_dims(d);
    return p;
  };
  {  // float_data
    auto p = make(1, {2});
    p.add_float_data(1.5f);
    p.add_float_data(nan_with_bits(0x7FA00001));  // a signalling NaN with payload, kept bit for bit
    CHECK(bits(io::from_proto(p, "f")) == std::vector<std::uint32_t>{0x3FC00000, 0x7FA00001});
  }
  {  // double_data
    auto p = make(11, {1});
    p.add_double_data(-3.0);
    CHECK(values<double>(io::from_proto(p, "d")) == std::vector<double>{-3.0});
  }
  {  // int32_data for int8, int16, int32, uint8, uint16, bool
    auto p = make(3, {2});
    p.add_int32_data(-128);
    p.add_int32_data(127);
    CHECK(values<std::int8_t>(io::from_proto(p, "i8")) == std::vector<std::int8_t>{-128, 127});
    p.set_data_type(5);
    CHECK(values<std::int16_t>(io::from_proto(p, "i16")) == std::vector<std::int16_t>{-128, 127});
    p.set_data_type(6);
    CHECK(values<std::int32_t>(io::from_proto(p, "i32")) == std::vector<std::int32_t>{-128, 127});
    auto u = make(2, {2});
    u.add_int32_data(0);
    u.add_int32_data(255);
    CHECK(values<std::uint8_t>(io::from_proto(u, "u8")) == std::vector<std::uint8_t>{0, 255});
    u.set_int32_data(1, 65535);
    u.set_data_type(4);
    CHECK(values<std::uint16_t>(io::from_proto(u, "u16")) == std::vector<std::uint16_t>{0, 65535});
    auto b = make(9, {3});
    b.add_int32_data(1);
    b.add_int32_data(0);
    b.add_int32_data(1);
    CHECK(values<bool>(io::from_proto(b, "b")) == std::vector<bool>{true, false, true});
  }
  {  // int32_data holding float16 / bfloat16 bit patterns
    auto p = make(10, {2});
    p.add_int32_data(0x3C00);  // 1.0
    p.add_int32_data(0xFC00);  // -Inf
    CHECK(bits16(io::from_proto(p, "h")) == std::vector<std::uint16_t>{0x3C00, 0xFC00});
    p.set_data_type(16);
    const Tensor t = io::from_proto(p, "bf");
    CHECK(t.dtype() == DType::BFloat16);
    CHECK(bits16(t) == std::vector<std::uint16_t>{0x3C00, 0xFC00});
  }
  {  // int64_data
    auto p = make(7, {});
    p.add_int64_data(std::numeric_limits<std::int64_t>::min());
    CHECK(values<std::int64_t>(io::from_proto(p, "i64")) ==
          std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min()});
  }
  {  // uint64_data for uint32 and uint64
    auto p = make(12, {1});
    p.add_uint64_data(4294967295u);
    CHECK(values<std::uint32_t>(io::from_proto(p, "u32")) == std::vector<std::uint32_t>{4294967295u});
    p.set_data_type(13);
    p.set_uint64_data(0, 18446744073709551615ull);
    CHECK(values<std::uint64_t>(io::from_proto(p, "u64")) == std::vector<std::uint64_t>{18446744073709551615ull});
  }
  {  // empty tensors need no data at all
    auto p = make(1, {0, 3});
    CHECK(io::from_proto(p, "e").shape() == Shape{0, 3});
  }
}

TEST_CASE("[IO.tensorproto.fields] raw_data is little-endian and densely packed", "[io][proto]") {
  onnx::TensorProto p;
  p.set_data_type(6);  // int32
  p.add_dims(2);
  p.set_raw_data(std::string("\x01\x02\x03\x04\xFE\xFF\xFF\xFF", 8));
  CHECK(values<std::int32_t>(io::from_proto(p, "raw")) == std::vector<std::int32_t>{0x04030201, -2});
  p.set_data_type(10);  // float16, 4 elements
  p.set_dims(0, 4);
  CHECK(bits16(io::from_proto(p, "raw")) == std::vector<std::uint16_t>{0x0201, 0x0403, 0xFFFE, 0xFFFF});
  p.set_data_type(11);  // double: -3.0 is 0xC008000000000000
  p.set_dims(0, 1);
  p.set_raw_data(std::string("\0\0\0\0\0\0\x08\xC0", 8));
  CHECK(values<double>(io::from_proto(p, "raw")) == std::vector<double>{-3.0});
  p.set_data_type(9);  // bool
  p.set_dims(0, 3);
  p.set_raw_data(std::string("\x01\x00\x01", 3));
  CHECK(values<bool>(io::from_proto(p, "raw")) == std::vector<bool>{true, false, true});
}

TEST_CASE("[IO.tensorproto.fields] to_proto / from_proto and tensor .pb files round-trip every dtype",
          "[io][proto]") {
  TempDir dir;
  unsigned seed = 100;
  for (DType d : kAllDTypes) {
    for (const Shape& s : {Shape{}, Shape{4}, Shape{2, 0}, Shape{2, 3, 2}}) {
      INFO(name(d) << " " << to_string(s));
      const Tensor t = patterned(d, s, seed++);
      onnx::TensorProto p;
      io::to_proto(t, "v", p);
      CHECK(p.name() == "v");
      CHECK(p.data_type() == static_cast<int>(d));
      CHECK(p.has_raw_data());
      CHECK(p.raw_data().size() == t.byte_size());
      CHECK(io::from_proto(p, "v").bitwise_equal(t));
      io::write_tensor_pb(dir / "t.pb", t, "name/with:odd chars");
      const auto back = io::read_tensor_pb(dir / "t.pb");
      CHECK(back.name == "name/with:odd chars");
      CHECK(back.tensor.bitwise_equal(t));
    }
  }
}

TEST_CASE("[IO.tensorproto.fields] counts, fields and ranges that disagree with the data type are refused",
          "[io][proto]") {
  auto make = [](int type, std::vector<std::int64_t> dims) {
    onnx::TensorProto p;
    p.set_data_type(type);
    for (auto d : dims) p.add_dims(d);
    return p;
  };
  auto id = [](const onnx::TensorProto& p) { return refusal_id([&] { io::from_proto(p, "t"); }); };
  {
    auto p = make(1, {3});
    p.add_float_data(1);
    p.add_float_data(2);
    CHECK(id(p) == "IO.tensorproto.fields");  // 2 values for 3 elements
    p.add_float_data(3);
    p.add_float_data(4);
    CHECK(id(p) == "IO.tensorproto.fields");  // 4 values for 3 elements
  }
  {
    auto p = make(1, {2});
    CHECK(id(p) == "IO.tensorproto.fields");  // no data
    p.set_raw_data(std::string(7, '\0'));
    CHECK(id(p) == "IO.tensorproto.fields");  // 7 bytes for 8
    p.set_raw_data(std::string(9, '\0'));
    CHECK(id(p) == "IO.tensorproto.fields");
    p.set_raw_data(std::string(8, '\0'));
    REQUIRE(id(p).empty());
    p.add_float_data(1);
    p.add_float_data(2);
    CHECK(id(p) == "IO.tensorproto.fields");  // raw_data and a typed field
  }
  {
    auto p = make(1, {1});
    p.add_int32_data(1);  // a float tensor in int32_data
    CHECK(id(p) == "IO.tensorproto.fields");
    auto q = make(6, {1});
    q.add_int32_data(1);
    q.add_int64_data(1);  // two typed fields
    CHECK(id(q) == "IO.tensorproto.fields");
    auto r = make(12, {1});
    r.add_int32_data(1);  // uint32 belongs in uint64_data
    CHECK(id(r) == "IO.tensorproto.fields");
    auto s = make(1, {1});
    s.add_float_data(1);
    s.add_string_data("x");
    CHECK(id(s) == "IO.tensorproto.fields");
  }
  {  // ranges of the narrower types stored in int32_data / uint64_data
    for (auto [type, v] : std::vector<std::pair<int, std::int32_t>>{
             {3, 128}, {3, -129}, {5, 32768}, {2, 256}, {2, -1}, {4, 65536}, {10, 65536}, {10, -1}, {16, 70000}}) {
      INFO(type << " " << v);
      auto p = make(type, {1});
      p.add_int32_data(v);
      CHECK(id(p) == "IO.tensorproto.fields");
    }
    auto u = make(12, {1});
    u.add_uint64_data(4294967296ull);
    CHECK(id(u) == "IO.tensorproto.fields");
  }
  {  // [Common.dtype.bool]
    auto p = make(9, {2});
    p.add_int32_data(1);
    p.add_int32_data(2);
    CHECK(id(p) == "Common.dtype.bool");
    auto r = make(9, {2});
    r.set_raw_data(std::string("\x00\x03", 2));
    CHECK(id(r) == "Common.dtype.bool");
  }
  {
    auto p = make(1, {1});
    p.add_float_data(1);
    p.mutable_segment()->set_begin(0);
    p.mutable_segment()->set_end(1);
    CHECK(id(p) == "IO.tensorproto.fields");
  }
  CHECK(refusal_id([] { io::parse_tensor_pb(std::vector<std::byte>(10, std::byte{0xFF}), "junk"); }) ==
        "IO.tensorproto.fields");
}

TEST_CASE("[Common.dtype.set] TensorProto data types outside the 13 dtypes are refused", "[io][proto]") {
  for (int type : {0, 8, 14, 15, 17, 18, 19, 20, 21, 99, -1}) {
    INFO(type);
    onnx::TensorProto p;
    p.set_data_type(type);
    p.add_dims(1);
    if (type == 8) p.add_string_data("text");
    else p.set_raw_data(std::string(16, '\0'));
    CHECK(refusal_id([&] { io::from_proto(p, "t"); }) == "Common.dtype.set");
  }
}

TEST_CASE("[Graph.external-data] TensorProto with external data is refused", "[io][proto]") {
  onnx::TensorProto p;
  p.set_data_type(1);
  p.add_dims(1);
  p.set_data_location(onnx::TensorProto::EXTERNAL);
  auto* e = p.add_external_data();
  e->set_key("location");
  e->set_value("../../etc/passwd");
  CHECK(refusal_id([&] { io::from_proto(p, "t"); }) == "Graph.external-data");
  p.clear_data_location();  // an external_data entry alone also refers outside the file
  CHECK(refusal_id([&] { io::from_proto(p, "t"); }) == "Graph.external-data");
}

TEST_CASE("[Common.tensor.size-limit] TensorProto dims overflowing or above the byte limit are refused", "[io][proto]") {
  onnx::TensorProto p;
  p.set_data_type(1);
  p.add_dims(4294967296);
  p.add_dims(4294967296);
  CHECK(refusal_id([&] { io::from_proto(p, "t"); }) == "Common.tensor.size-limit");
  p.set_dims(1, 1024);  // 2^42 floats = 16 TiB
  CHECK(refusal_id([&] { io::from_proto(p, "t"); }) == "Common.tensor.size-limit");
  p.set_dims(0, -1);
  p.set_dims(1, 1);
  CHECK(refusal_id([&] { io::from_proto(p, "t"); }) == "Common.tensor.shape");  // a negative dim
}

TEST_CASE("[IO.tensorproto.fields] the Debian ONNX test data test_max_float16 input_0.pb", "[io][proto]") {
  const std::string dir = "/usr/share/libonnx-testdata/data/node/test_max_float16/test_data_set_0";
  if (!fs::exists(dir + "/input_0.pb")) {
    WARN("SKIPPED: libonnx-testdata is not installed (" << dir << ")");
    return;
  }
  const auto in0 = io::read_tensor_pb(dir + "/input_0.pb");
  CHECK(in0.name == "data_0");
  CHECK(in0.tensor.dtype() == DType::Float16);
  CHECK(in0.tensor.shape() == Shape{3});
  // The test's data_0 is [3, 2, 1]: 3 = 1.5 * 2^1 -> 0x4200, 2 -> 0x4000, 1 -> 0x3C00.
  CHECK(bits16(in0.tensor) == std::vector<std::uint16_t>{0x4200, 0x4000, 0x3C00});
  // [IO.testdata.folder] the whole folder, in K order, named by TensorProto.name.
  const auto inputs = io::read_test_data_set(dir, "input");
  REQUIRE(inputs.size() == 2);
  CHECK(inputs[0].name == "data_0");
  CHECK(inputs[1].name == "data_1");
  CHECK(bits16(inputs[1].tensor) == std::vector<std::uint16_t>{0x3C00, 0x4400, 0x4400});  // [1, 4, 4]
  const auto outputs = io::read_test_data_set(dir, "output");
  REQUIRE(outputs.size() == 1);
  CHECK(outputs[0].name == "result");
  CHECK(bits16(outputs[0].tensor) == std::vector<std::uint16_t>{0x4200, 0x4400, 0x4400});  // [3, 4, 4]
}

TEST_CASE("[IO.tensorproto.fields] every .pb of the Debian ONNX node tests is read or refused, never a crash",
          "[io][proto]") {
  const fs::path root = "/usr/share/libonnx-testdata/data/node";
  if (!fs::exists(root)) {
    WARN("SKIPPED: libonnx-testdata is not installed (" << root.string() << ")");
    return;
  }
  int read = 0, refused = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.path().extension() != ".pb" || e.path().filename() == "model.onnx") continue;
    try {
      const auto t = io::read_tensor_pb(e.path().string());
      CHECK(t.tensor.byte_size() == static_cast<std::size_t>(t.tensor.size()) * info(t.tensor.dtype()).size);
      ++read;
    } catch (const SpecError& err) {
      CHECK(!err.id().empty());
      ++refused;
    }
  }
  INFO("read " << read << ", refused " << refused);
  CHECK(read > 1000);
}

TEST_CASE("[IO.tensorproto.fields] fuzz: bit-flipped TensorProto files are read or refused, never crash",
          "[io][proto][fuzz]") {
  std::vector<std::string> seeds;
  unsigned seed = 1;
  for (DType d : kAllDTypes) {
    onnx::TensorProto p;
    io::to_proto(patterned(d, {2, 3}, seed++), "x", p);
    seeds.push_back(p.SerializeAsString());
  }
  onnx::TensorProto typed;
  typed.set_data_type(3);
  typed.add_dims(3);
  for (int v : {-1, 0, 1}) typed.add_int32_data(v);
  seeds.push_back(typed.SerializeAsString());
  std::mt19937 rng(3);
  int refused = 0, read = 0;
  for (const auto& s : seeds) {
    for (int round = 0; round < 1000; ++round) {
      std::vector<std::byte> b(reinterpret_cast<const std::byte*>(s.data()),
                               reinterpret_cast<const std::byte*>(s.data()) + s.size());
      const int flips = 1 + static_cast<int>(rng() % 3);
      for (int f = 0; f < flips; ++f) b[rng() % b.size()] ^= static_cast<std::byte>(1u << (rng() % 8));
      if (rng() % 4 == 0) b.resize(rng() % (b.size() + 1));
      try {
        io::parse_tensor_pb(b, "fuzz.pb");
        ++read;
      } catch (const SpecError& e) {
        CHECK(!e.id().empty());
        ++refused;
      }
    }
  }
  CHECK(refused > 0);
  CHECK(read > 0);
}

// ----------------------------------------------------------------------------------------- folders, files

TEST_CASE("[IO.testdata.folder] input_K.pb files are read in K order, without gaps", "[io][testdata]") {
  TempDir dir;
  // K = 0..11 so that numeric order (input_10 after input_9) differs from the lexicographic one.
  for (int k = 0; k < 12; ++k)
    io::write_tensor_pb(dir / ("input_" + std::to_string(k) + ".pb"), tensor_of<std::int32_t>({1}, {k}),
                        k == 1 ? "" : "in" + std::to_string(k));
  io::write_tensor_pb(dir / "output_0.pb", tensor_of<std::int32_t>({1}, {99}), "out");
  std::ofstream(dir / "notes.txt") << "not a tensor";
  std::ofstream(dir / "input_x.pb") << "not a numbered input";
  const auto in = io::read_test_data_set(dir.path.string(), "input");
  REQUIRE(in.size() == 12);
  for (int k = 0; k < 12; ++k) {
    CHECK(values<std::int32_t>(in[k].tensor) == std::vector<std::int32_t>{k});
    CHECK(in[k].name == (k == 1 ? "" : "in" + std::to_string(k)));  // an empty name stays empty
  }
  CHECK(io::read_test_data_set(dir.path.string(), "output").size() == 1);
  CHECK(io::read_test_data_set(dir.path.string(), "absent").empty());

  fs::remove(dir.path / "input_5.pb");
  CHECK(refusal_id([&] { io::read_test_data_set(dir.path.string(), "input"); }) == "IO.testdata.folder");
  TempDir dir2;
  io::write_tensor_pb(dir2 / "input_01.pb", tensor_of<std::int32_t>({1}, {1}), "a");
  CHECK(refusal_id([&] { io::read_test_data_set(dir2.path.string(), "input"); }) == "IO.testdata.folder");
  CHECK(refusal_id([&] { io::read_test_data_set(dir2 / "missing", "input"); }) == "IO.testdata.folder");
  CHECK(refusal_id([&] { io::read_test_data_set(dir2 / "input_01.pb", "input"); }) == "IO.testdata.folder");
  // A member file that is not a TensorProto is refused by the TensorProto clause.
  TempDir dir3;
  std::ofstream(dir3 / "input_0.pb") << "\xFF\xFF\xFF garbage";
  CHECK(refusal_id([&] { io::read_test_data_set(dir3.path.string(), "input"); }) == "IO.tensorproto.fields");
}

TEST_CASE("[IO.tensorproto.fields] read_file refuses missing paths, directories and devices", "[io][files]") {
  TempDir dir;
  CHECK(refusal_id([&] { io::read_file(dir / "missing.pb", "IO.tensorproto.fields"); }) == "IO.tensorproto.fields");
  CHECK(refusal_id([&] { io::read_file(dir.path.string(), "Graph.model.parse"); }) == "Graph.model.parse");
  CHECK(refusal_id([&] { io::read_file("/dev/null", "IO.tensorproto.fields"); }) == "IO.tensorproto.fields");
  CHECK(refusal_id([&] { io::read_tensor_pb(dir / "missing.pb"); }) == "IO.tensorproto.fields");
  std::ofstream(dir / "abc", std::ios::binary) << "abc";
  const auto b = io::read_file(dir / "abc", "IO.tensorproto.fields");
  CHECK(b == std::vector<std::byte>{std::byte{'a'}, std::byte{'b'}, std::byte{'c'}});
  std::ofstream(dir / "empty", std::ios::binary).flush();
  CHECK(io::read_file(dir / "empty", "IO.tensorproto.fields").empty());
  // [Common.tensor.size-limit] a file larger than the limit plus the header allowance.
  {
    std::ofstream f(dir / "big", std::ios::binary);
    f << std::string(io::kFileAllowance + 200, 'x');
  }
  ByteLimit limit("100");
  CHECK(refusal_id([&] { io::read_file(dir / "big", "IO.tensorproto.fields"); }) == "Common.tensor.size-limit");
}

// ---- issue #12: requirement-based tests written for mutants that survived the suite ----------------

TEST_CASE("[IO.testdata.folder] input_01.pb beside input_0.pb is refused: K is written without leading zeros",
          "[io][testdata]") {
  TempDir dir;
  io::write_tensor_pb(dir / "input_0.pb", tensor_of<std::int32_t>({1}, {0}), "a");
  io::write_tensor_pb(dir / "input_01.pb", tensor_of<std::int32_t>({1}, {1}), "b");
  CHECK(refusal_id([&] { io::read_test_data_set(dir.path.string(), "input"); }) == "IO.testdata.folder");
}

TEST_CASE("[IO.tensorproto.fields] raw_data beside a single typed entry is refused", "[io][proto]") {
  // dims [1], float: raw_data holds the one element (4 bytes) and float_data one entry too.
  onnx::TensorProto p;
  p.set_data_type(1);
  p.add_dims(1);
  p.set_raw_data(std::string("\x00\x00\x80\x3F", 4));  // 1.0f, little-endian
  CHECK(values<float>(io::from_proto(p, "raw")) == std::vector<float>{1.0f});
  p.add_float_data(1.0f);
  CHECK(refusal_id([&] { io::from_proto(p, "both"); }) == "IO.tensorproto.fields");
}

TEST_CASE("[Common.dtype.bool] a bool TensorProto entry other than 0 or 1 is refused, negative ones included",
          "[io][proto]") {
  for (int v : {-1, 2, -2147483647 - 1}) {
    CAPTURE(v);
    onnx::TensorProto p;
    p.set_data_type(9);
    p.add_dims(1);
    p.add_int32_data(v);
    CHECK(refusal_id([&] { io::from_proto(p, "b"); }) == "Common.dtype.bool");
  }
}

}  // namespace io_test
