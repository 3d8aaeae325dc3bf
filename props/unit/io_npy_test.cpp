// Hand-derived checks of the .npy format (spec/common/io.md): [IO.npy.format], [IO.npy.dtype],
// [IO.npy.order], [IO.npy.bfloat16], [Common.dtype.bool], [Common.tensor.size-limit].
// Expected values are written by hand; the kNpy_* images were produced once by numpy 1.24
// (/usr/bin/python3 on Debian 12) with the np.save call quoted above each, and hex-dumped.
#include <random>

#include "io/io.hpp"
#include "test_util.hpp"

namespace io_npy_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::io::read_npy;
using sonnx::io::write_npy;

namespace {

// ---- images produced by numpy 1.24: f = io.BytesIO(); <call>; f.getvalue().hex() ----
// np.save(f, np.array([[1.5,-2.0,0.0],[-0.0,np.inf,-np.inf]],dtype='<f4'))
const char* const kNpy_f4_2x3 =
    "934e554d5059010076007b276465736372273a20273c6634272c2027666f727472616e5f6f72646572273a2046616c73"
    "652c20277368617065273a2028322c2033292c207d202020202020202020202020202020202020202020202020202020"
    "202020202020202020202020202020202020202020202020202020202020200a0000c03f000000c00000000000000080"
    "0000807f000080ff";
// np.save(f, np.array([1,-2,32767],dtype='>i2'))
const char* const kNpy_i2_be =
    "934e554d5059010076007b276465736372273a20273e6932272c2027666f727472616e5f6f72646572273a2046616c73"
    "652c20277368617065273a2028332c292c207d2020202020202020202020202020202020202020202020202020202020"
    "202020202020202020202020202020202020202020202020202020202020200a0001fffe7fff";
// np.save(f, np.asfortranarray(np.array([[1,2,3],[4,5,6]],dtype='<i4')))
const char* const kNpy_i4_fortran =
    "934e554d5059010076007b276465736372273a20273c6934272c2027666f727472616e5f6f72646572273a2054727565"
    "2c20277368617065273a2028322c2033292c207d20202020202020202020202020202020202020202020202020202020"
    "202020202020202020202020202020202020202020202020202020202020200a01000000040000000200000005000000"
    "0300000006000000";
// np.save(f, np.array([1.0,-0.0,65504.0],dtype='<f2'))
const char* const kNpy_f2_3 =
    "934e554d5059010076007b276465736372273a20273c6632272c2027666f727472616e5f6f72646572273a2046616c73"
    "652c20277368617065273a2028332c292c207d2020202020202020202020202020202020202020202020202020202020"
    "202020202020202020202020202020202020202020202020202020202020200a003c0080ff7b";
// np.save(f, np.array([True,False,False,True]))
const char* const kNpy_b1_4 =
    "934e554d5059010076007b276465736372273a20277c6231272c2027666f727472616e5f6f72646572273a2046616c73"
    "652c20277368617065273a2028342c292c207d2020202020202020202020202020202020202020202020202020202020"
    "202020202020202020202020202020202020202020202020202020202020200a01000001";
// np.save(f, np.array(18446744073709551615,dtype='>u8'))
const char* const kNpy_u8_be_scalar =
    "934e554d5059010076007b276465736372273a20273e7538272c2027666f727472616e5f6f72646572273a2046616c73"
    "652c20277368617065273a2028292c207d20202020202020202020202020202020202020202020202020202020202020"
    "202020202020202020202020202020202020202020202020202020202020200affffffffffffffff";
// np.save(f, np.zeros((0,2),dtype='<f8'))
const char* const kNpy_f8_empty =
    "934e554d5059010076007b276465736372273a20273c6638272c2027666f727472616e5f6f72646572273a2046616c73"
    "652c20277368617065273a2028302c2032292c207d202020202020202020202020202020202020202020202020202020"
    "202020202020202020202020202020202020202020202020202020202020200a";


// An npy image built by hand: magic, version major.0, header length (2 bytes for v1, 4 for
// v2/v3, little-endian), the header text as given, then the data bytes.
std::vector<std::byte> image(const std::string& header, const std::vector<std::uint8_t>& data, int major = 1) {
  std::vector<std::byte> out;
  for (unsigned char c : std::string("\x93NUMPY")) out.push_back(std::byte{c});
  out.push_back(static_cast<std::byte>(major));
  out.push_back(std::byte{0});
  const int len_bytes = major == 1 ? 2 : 4;
  for (int k = 0; k < len_bytes; ++k) out.push_back(static_cast<std::byte>((header.size() >> (8 * k)) & 0xFF));
  for (unsigned char c : header) out.push_back(std::byte{c});
  for (std::uint8_t b : data) out.push_back(std::byte{b});
  return out;
}

std::string dict(const std::string& descr, const std::string& shape, bool fortran = false) {
  return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape +
         ", }\n";
}

template <class T> std::vector<T> read_values(const std::vector<std::byte>& img, DType expected,
                                              std::optional<DType> declared = std::nullopt) {
  const Tensor t = read_npy(img, "test.npy", declared);
  REQUIRE(t.dtype() == expected);
  return values<T>(t);
}


// A tensor of `dtype` and `shape` whose bytes are a fixed pseudo-random pattern (0/1 for bool).
Tensor patterned(DType dtype, Shape shape, unsigned seed) {
  Tensor t(dtype, std::move(shape));
  std::mt19937 rng(seed);
  for (auto& b : t.bytes()) b = static_cast<std::byte>(dtype == DType::Bool ? rng() % 2 : rng() % 256);
  return t;
}

}  // namespace

TEST_CASE("[IO.npy.format] [IO.npy.dtype] images written by numpy 1.24 read as written", "[io][npy]") {
  {
    const Tensor t = read_npy(from_hex(kNpy_f4_2x3), "f4");
    CHECK(t.dtype() == DType::Float);
    CHECK(t.shape() == Shape{2, 3});
    // 1.5, -2, +0, -0, +Inf, -Inf as binary32 patterns
    CHECK(bits(t) == std::vector<std::uint32_t>{0x3FC00000, 0xC0000000, 0x00000000, 0x80000000, 0x7F800000,
                                                0xFF800000});
  }
  CHECK(read_values<std::int16_t>(from_hex(kNpy_i2_be), DType::Int16) == std::vector<std::int16_t>{1, -2, 32767});
  {
    const Tensor t = read_npy(from_hex(kNpy_i4_fortran), "i4F");
    CHECK(t.shape() == Shape{2, 3});
    CHECK(values<std::int32_t>(t) == std::vector<std::int32_t>{1, 2, 3, 4, 5, 6});
  }
  {
    const Tensor t = read_npy(from_hex(kNpy_f2_3), "f2");
    CHECK(t.dtype() == DType::Float16);
    CHECK(bits16(t) == std::vector<std::uint16_t>{0x3C00, 0x8000, 0x7BFF});  // 1, -0, 65504
  }
  CHECK(read_values<bool>(from_hex(kNpy_b1_4), DType::Bool) == std::vector<bool>{true, false, false, true});
  {
    const Tensor t = read_npy(from_hex(kNpy_u8_be_scalar), "u8");
    CHECK(t.shape().empty());  // rank 0: one element
    CHECK(values<std::uint64_t>(t) == std::vector<std::uint64_t>{18446744073709551615ull});
  }
  {
    const Tensor t = read_npy(from_hex(kNpy_f8_empty), "f8");
    CHECK(t.dtype() == DType::Double);
    CHECK(t.shape() == Shape{0, 2});
    CHECK(t.size() == 0);
  }
}

TEST_CASE("[IO.npy.format] write_npy is byte-identical to numpy.save for little-endian C arrays", "[io][npy]") {
  const float inf = kInf;
  CHECK(write_npy(f32({2, 3}, {1.5f, -2.0f, 0.0f, -0.0f, inf, -inf})) == from_hex(kNpy_f4_2x3));
  Tensor h(DType::Float16, {3});
  h.values<float16>()[0] = float16{0x3C00};
  h.values<float16>()[1] = float16{0x8000};
  h.values<float16>()[2] = float16{0x7BFF};
  CHECK(write_npy(h) == from_hex(kNpy_f2_3));
  CHECK(write_npy(make_tensor<bool>({4}, {true, false, false, true})) == from_hex(kNpy_b1_4));
  CHECK(write_npy(Tensor(DType::Double, {0, 2})) == from_hex(kNpy_f8_empty));
}

TEST_CASE("[IO.npy.format] written headers are v1.0, 64-byte aligned, and v2.0 beyond 65535 bytes", "[io][npy]") {
  for (const Shape& s : {Shape{}, Shape{7}, Shape{123456789, 0}, Shape{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}) {
    const auto img = write_npy(Tensor(DType::Int64, s));
    REQUIRE(img.size() >= 10);
    CHECK(std::to_integer<int>(img[6]) == 1);
    const std::size_t hlen = std::to_integer<std::size_t>(img[8]) | std::to_integer<std::size_t>(img[9]) << 8;
    CHECK((10 + hlen) % 64 == 0);
    CHECK(std::to_integer<char>(img[10 + hlen - 1]) == '\n');
  }
  // 30000 axes of size 1: the shape tuple alone is ~90000 characters.
  const Tensor big = patterned(DType::Uint8, Shape(30000, 1), 5);
  const auto img = write_npy(big);
  CHECK(std::to_integer<int>(img[6]) == 2);
  const std::size_t hlen = std::to_integer<std::size_t>(img[8]) | std::to_integer<std::size_t>(img[9]) << 8 |
                           std::to_integer<std::size_t>(img[10]) << 16 | std::to_integer<std::size_t>(img[11]) << 24;
  CHECK(hlen > 65535);
  CHECK((12 + hlen) % 64 == 0);
  CHECK(read_npy(img, "v2").bitwise_equal(big));
}

TEST_CASE("[IO.npy.dtype] every dtype round-trips through write_npy and read_npy bit for bit", "[io][npy]") {
  unsigned seed = 1;
  for (DType d : kAllDTypes) {
    for (const Shape& s : {Shape{}, Shape{5}, Shape{2, 3, 4}, Shape{3, 0}}) {
      const Tensor t = patterned(d, s, seed++);
      const auto img = write_npy(t);
      const std::optional<DType> declared = d == DType::BFloat16 ? std::optional(DType::BFloat16) : std::nullopt;
      INFO(name(d) << " " << to_string(s));
      CHECK(read_npy(img, "rt", declared).bitwise_equal(t));
    }
  }
}

TEST_CASE("[IO.npy.dtype] big-endian descrs are byte-swapped", "[io][npy]") {
  CHECK(read_values<std::int32_t>(image(dict(">i4", "(2,)"), {0, 0, 1, 2, 0xFF, 0xFF, 0xFF, 0xFE}), DType::Int32) ==
        std::vector<std::int32_t>{258, -2});
  CHECK(read_values<std::uint16_t>(image(dict(">u2", "(1,)"), {0x12, 0x34}), DType::Uint16) ==
        std::vector<std::uint16_t>{0x1234});
  CHECK(read_values<std::uint32_t>(image(dict(">u4", "(1,)"), {0x01, 0x02, 0x03, 0x04}), DType::Uint32) ==
        std::vector<std::uint32_t>{0x01020304});
  CHECK(read_values<std::int64_t>(image(dict(">i8", "(1,)"), {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00}),
                                  DType::Int64) == std::vector<std::int64_t>{-256});
  CHECK(read_values<std::int16_t>(image(dict(">i2", "(1,)"), {0x80, 0x00}), DType::Int16) ==
        std::vector<std::int16_t>{-32768});
  {
    const Tensor t = read_npy(image(dict(">f4", "(2,)"), {0x3F, 0x80, 0, 0, 0x7F, 0xC0, 0x00, 0x01}), "f4");
    CHECK(bits(t) == std::vector<std::uint32_t>{0x3F800000, 0x7FC00001});  // 1.0 and a NaN payload kept
  }
  {
    const Tensor t = read_npy(image(dict(">f8", "()"), {0xC0, 0x08, 0, 0, 0, 0, 0, 0}), "f8");
    CHECK(values<double>(t) == std::vector<double>{-3.0});
  }
  CHECK(bits16(read_npy(image(dict(">f2", "(2,)"), {0x3C, 0x00, 0xFC, 0x00}), "f2")) ==
        std::vector<std::uint16_t>{0x3C00, 0xFC00});  // 1, -Inf
  // One-byte types: every byte order character means the same.
  for (const char* o : {"|", "<", ">", "="}) {
    CHECK(read_values<std::int8_t>(image(dict(std::string(o) + "i1", "(2,)"), {0x80, 0x7F}), DType::Int8) ==
          std::vector<std::int8_t>{-128, 127});
    CHECK(read_values<std::uint8_t>(image(dict(std::string(o) + "u1", "(1,)"), {0xFF}), DType::Uint8) ==
          std::vector<std::uint8_t>{255});
  }
  // '=' is the host order (little-endian on the supported platforms).
  CHECK(read_values<std::uint16_t>(image(dict("=u2", "(1,)"), {0x34, 0x12}), DType::Uint16) ==
        std::vector<std::uint16_t>{0x1234});
  CHECK(read_values<std::uint64_t>(image(dict("<u8", "(1,)"), {1, 0, 0, 0, 0, 0, 0, 0x80}), DType::Uint64) ==
        std::vector<std::uint64_t>{0x8000000000000001ull});
}

TEST_CASE("[IO.npy.order] fortran_order True is read as the transposed layout, exactly", "[io][npy]") {
  // a = [[1,2,3],[4,5,6]] stored column by column: 1 4 2 5 3 6.
  CHECK(read_values<std::int32_t>(image(dict("<i4", "(2, 3)", true),
                                        {1, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0, 3, 0, 0, 0, 6, 0, 0, 0}),
                                  DType::Int32) == std::vector<std::int32_t>{1, 2, 3, 4, 5, 6});
  // a[i,j,k] = 100i + 10j + k, shape (2,2,2); Fortran order walks i fastest:
  // (000)=0 (100)=100 (010)=10 (110)=110 (001)=1 (101)=101 (011)=11 (111)=111.
  CHECK(read_values<std::uint8_t>(image(dict("|u1", "(2, 2, 2)", true), {0, 100, 10, 110, 1, 101, 11, 111}),
                                  DType::Uint8) == std::vector<std::uint8_t>{0, 1, 10, 11, 100, 101, 110, 111});
  // Shape (3, 1, 2): a[i,0,k] = 10i + k; Fortran order: (0,0,0)=0 (1,0,0)=10 (2,0,0)=20 (0,0,1)=1 (1,0,1)=11 (2,0,1)=21.
  CHECK(read_values<std::uint8_t>(image(dict("|u1", "(3, 1, 2)", true), {0, 10, 20, 1, 11, 21}), DType::Uint8) ==
        std::vector<std::uint8_t>{0, 1, 10, 11, 20, 21});
  // Big-endian and Fortran together: [[0x0102, 0x0304], [0x0506, 0x0708]] column-major, big-endian.
  CHECK(read_values<std::uint16_t>(image(dict(">u2", "(2, 2)", true), {1, 2, 5, 6, 3, 4, 7, 8}), DType::Uint16) ==
        std::vector<std::uint16_t>{0x0102, 0x0304, 0x0506, 0x0708});
  // Rank 0, rank 1 and empty arrays are the same in both orders.
  CHECK(read_values<std::uint8_t>(image(dict("|u1", "()", true), {9}), DType::Uint8) == std::vector<std::uint8_t>{9});
  CHECK(read_values<std::uint8_t>(image(dict("|u1", "(3,)", true), {7, 8, 9}), DType::Uint8) ==
        std::vector<std::uint8_t>{7, 8, 9});
  CHECK(read_npy(image(dict("<f4", "(0, 4)", true), {}), "empty").shape() == Shape{0, 4});
  // An empty array whose other dims multiply beyond int64 (2^32 * 2^32 * 0).
  CHECK(read_npy(image(dict("|u1", "(4294967296, 4294967296, 0)", true), {}), "empty").size() == 0);
}

TEST_CASE("[IO.npy.format] version 2.0 and 3.0 headers (4-byte header length)", "[io][npy]") {
  CHECK(read_values<std::int16_t>(image(dict("<i2", "(2,)"), {1, 0, 0xFF, 0xFF}, 2), DType::Int16) ==
        std::vector<std::int16_t>{1, -1});
  CHECK(read_values<std::int16_t>(image(dict("<i2", "(2,)"), {2, 0, 0xFE, 0xFF}, 3), DType::Int16) ==
        std::vector<std::int16_t>{2, -2});
}

TEST_CASE("[IO.npy.format] the header dict: any key order, spacing, quotes and trailing comma", "[io][npy]") {
  const std::vector<std::uint8_t> data = {1, 2, 3, 4, 5, 6};
  for (const std::string h : {
           "{'shape': (2, 3), 'fortran_order': False, 'descr': '|u1'}",
           "{'fortran_order':False,'descr':'|u1','shape':(2,3),}",
           "  {  \"descr\" : \"|u1\" ,\n 'fortran_order' : False , 'shape' : ( 2 , 3 , ) , }   \n",
           "{'descr': '|u1', 'fortran_order': False, 'shape': (2L, 3L), }",
           "{u'descr': u'|u1', 'fortran_order': False, 'shape': (2, 3)}\t",
       }) {
    INFO(h);
    const Tensor t = read_npy(image(h, data), "dict");
    CHECK(t.shape() == Shape{2, 3});
    CHECK(values<std::uint8_t>(t) == std::vector<std::uint8_t>{1, 2, 3, 4, 5, 6});
  }
  CHECK(read_npy(image("{'descr':'|u1','fortran_order':False,'shape':()}", {42}), "scalar").shape() == Shape{});
  CHECK(read_npy(image("{'descr':'|u1','fortran_order':False,'shape':(1,)}", {42}), "one").shape() == Shape{1});
}

TEST_CASE("[IO.npy.bfloat16] <u2, >u2 and |V2 are bfloat16 bits when the input is declared bfloat16", "[io][npy]") {
  const auto bf16 = std::optional(DType::BFloat16);
  // 0x3F80 = 1.0, 0xC040 = -3.0, 0x7FC1 = a NaN with payload.
  const std::vector<std::uint8_t> le = {0x80, 0x3F, 0x40, 0xC0, 0xC1, 0x7F};
  const std::vector<std::uint16_t> expected = {0x3F80, 0xC040, 0x7FC1};
  for (const char* descr : {"<u2", "|V2", "<V2"}) {
    INFO(descr);
    const Tensor t = read_npy(image(dict(descr, "(3,)"), le), "bf", bf16);
    CHECK(t.dtype() == DType::BFloat16);
    CHECK(bits16(t) == expected);
  }
  const Tensor be = read_npy(image(dict(">u2", "(3,)"), {0x3F, 0x80, 0xC0, 0x40, 0x7F, 0xC1}), "bf", bf16);
  CHECK(be.dtype() == DType::BFloat16);
  CHECK(bits16(be) == expected);
  // Undeclared (or declared otherwise), <u2 is uint16 and |V2 has no meaning.
  CHECK(read_values<std::uint16_t>(image(dict("<u2", "(1,)"), {0x80, 0x3F}), DType::Uint16) ==
        std::vector<std::uint16_t>{0x3F80});
  CHECK(read_npy(image(dict("<u2", "(1,)"), {0x80, 0x3F}), "u2", DType::Float16).dtype() == DType::Uint16);
  CHECK(refusal_id([&] { read_npy(image(dict("|V2", "(1,)"), {0x80, 0x3F}), "v2"); }) == "IO.npy.bfloat16");
  CHECK(refusal_id([&] { read_npy(image(dict("|V2", "(1,)"), {0x80, 0x3F}), "v2", DType::Uint16); }) ==
        "IO.npy.bfloat16");
  // A float16 descr stays float16 even for a bfloat16 input (the feed check refuses it later).
  CHECK(read_npy(image(dict("<f2", "(1,)"), {0, 0x3C}), "f2", bf16).dtype() == DType::Float16);
  // Written as `<u2` raw bits.
  Tensor b(DType::BFloat16, {1});
  b.values<bfloat16>()[0] = bfloat16{0x3F80};
  const auto img = write_npy(b);
  const std::string text(reinterpret_cast<const char*>(img.data()), img.size());
  CHECK(text.find("'descr': '<u2'") != std::string::npos);
  CHECK(std::to_integer<int>(img[img.size() - 2]) == 0x80);
  CHECK(std::to_integer<int>(img[img.size() - 1]) == 0x3F);
}

TEST_CASE("[Common.dtype.bool] npy bool bytes other than 0 and 1 are refused", "[io][npy]") {
  CHECK(read_values<bool>(image(dict("|b1", "(2,)"), {0, 1}), DType::Bool) == std::vector<bool>{false, true});
  CHECK(refusal_id([] { read_npy(image(dict("|b1", "(3,)"), {0, 1, 2}), "b"); }) == "Common.dtype.bool");
  CHECK(refusal_id([] { read_npy(image(dict("|b1", "(1,)"), {0xFF}), "b"); }) == "Common.dtype.bool");
  CHECK(refusal_id([] { read_npy(image(dict("|b1", "(2, 1)", true), {1, 0x80}), "b"); }) == "Common.dtype.bool");
}

TEST_CASE("[IO.npy.dtype] descrs outside the supported set are refused", "[io][npy]") {
  for (const std::string d : {"<c8", "<U4", "|O", "O", "<f16", "<i16", "<b2", "<V4", "|S3", "<M8[s]", "", "<",
                              "|f4", "|i8", "|u2", "f", "<F4", ">u3"}) {
    INFO(d);
    CHECK(refusal_id([&] { read_npy(image(dict(d, "(0,)"), {}), "d"); }) == "IO.npy.dtype");
  }
  CHECK(refusal_id([] {
          read_npy(image("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}", {0, 0, 0, 0}), "s");
        }) == "IO.npy.dtype");
}

TEST_CASE("[IO.npy.format] malformed images and header lies are refused, naming the file", "[io][npy]") {
  const auto good = image(dict("<i2", "(2,)"), {1, 0, 2, 0});
  REQUIRE(read_npy(good, "good").size() == 2);
  auto with = [&](std::size_t at, std::uint8_t v) {
    auto img = good;
    img[at] = std::byte{v};
    return img;
  };
  const std::vector<std::pair<std::string, std::vector<std::byte>>> cases = {
      {"empty", {}},
      {"bad magic", with(1, 'n')},
      {"bad magic byte 0", with(0, 0x92)},
      {"version 4.0", with(6, 4)},
      {"version 1.1", with(7, 1)},
      {"version 0.0", with(6, 0)},
      {"truncated length", std::vector<std::byte>(good.begin(), good.begin() + 9)},
      {"header past end", with(9, 0x40)},
      {"data short", image(dict("<i2", "(3,)"), {1, 0, 2, 0})},
      {"data long", image(dict("<i2", "(1,)"), {1, 0, 2, 0})},
      {"odd data", image(dict("<i2", "(2,)"), {1, 0, 2})},
      {"missing shape", image("{'descr': '<i2', 'fortran_order': False}", {})},
      {"missing descr", image("{'fortran_order': False, 'shape': ()}", {})},
      {"missing order", image("{'descr': '<i2', 'shape': ()}", {1, 0})},
      {"extra key", image("{'descr': '<i2', 'fortran_order': False, 'shape': (), 'x': 1}", {1, 0})},
      {"duplicate key", image("{'descr': '<i2', 'descr': '<i2', 'fortran_order': False, 'shape': ()}", {1, 0})},
      {"shape int", image(dict("<i2", "(2)"), {1, 0, 2, 0})},
      {"shape list", image(dict("<i2", "[2]"), {1, 0, 2, 0})},
      {"shape float", image(dict("<i2", "(2.0,)"), {1, 0, 2, 0})},
      {"shape nested", image(dict("<i2", "((2,),)"), {1, 0, 2, 0})},
      {"shape empty comma", image(dict("<i2", "(,)"), {1, 0})},
      {"negative dim", image(dict("<i2", "(-2,)"), {})},
      {"negative dims cancel", image(dict("<i2", "(-1, -2)"), {1, 0, 2, 0})},
      {"fortran_order 0", image("{'descr': '<i2', 'fortran_order': 0, 'shape': ()}", {1, 0})},
      {"fortran_order true", image("{'descr': '<i2', 'fortran_order': true, 'shape': ()}", {1, 0})},
      {"descr not string", image("{'descr': 7, 'fortran_order': False, 'shape': ()}", {1, 0})},
      {"unterminated string", image("{'descr': '<i2, 'fortran_order': False, 'shape': ()}", {1, 0})},
      {"unterminated dict", image("{'descr': '<i2', 'fortran_order': False, 'shape': ()", {1, 0})},
      {"missing colon", image("{'descr' '<i2', 'fortran_order': False, 'shape': ()}", {1, 0})},
      {"missing comma", image("{'descr': '<i2' 'fortran_order': False, 'shape': ()}", {1, 0})},
      {"text after dict", image("{'descr': '<i2', 'fortran_order': False, 'shape': ()} x", {1, 0})},
      {"not a dict", image("['descr', '<i2']", {1, 0})},
      {"empty header", image("", {1, 0})},
      {"NUL in header", image(std::string("{'descr': '<i2', 'fortran_order': False, 'shape': ()}\0", 55), {1, 0})},
  };
  for (const auto& [label, img] : cases) {
    INFO(label);
    try {
      read_npy(img, "lie.npy");
      FAIL("accepted");
    } catch (const SpecError& e) {
      CHECK(e.id() == "IO.npy.format");
      CHECK(std::string(e.what()).find("lie.npy") != std::string::npos);
    }
  }
}

TEST_CASE("[Common.tensor.size-limit] npy shapes overflowing int64 or the byte limit are refused before allocation",
          "[io][npy]") {
  // 2^32 * 2^32 = 2^64 elements: not countable in int64.
  CHECK(refusal_id([] { read_npy(image(dict("|u1", "(4294967296, 4294967296)"), {}), "big"); }) ==
        "Common.tensor.size-limit");
  // A dim literal above int64.
  CHECK(refusal_id([] { read_npy(image(dict("|u1", "(99999999999999999999,)"), {}), "big"); }) ==
        "Common.tensor.size-limit");
  // 2^40 doubles = 8 TiB, above the default 16 GiB limit.
  CHECK(refusal_id([] { read_npy(image(dict("<f8", "(1099511627776,)"), {}), "big"); }) ==
        "Common.tensor.size-limit");
  // 2^61 float32 elements: count fits in int64 but the byte size does not fit the limit.
  CHECK(refusal_id([] { read_npy(image(dict("<f4", "(2305843009213693952,)"), {}), "big"); }) ==
        "Common.tensor.size-limit");
  // A zero dimension empties the tensor whatever the others say.
  CHECK(read_npy(image(dict("|u1", "(0, 9223372036854775807)"), {}), "empty").size() == 0);
}

TEST_CASE("[IO.npy.format] fuzz: truncated and bit-flipped images are read or refused, never crash", "[io][npy][fuzz]") {
  std::vector<std::vector<std::byte>> seeds = {
      from_hex(kNpy_f4_2x3), from_hex(kNpy_i2_be),         from_hex(kNpy_i4_fortran), from_hex(kNpy_f2_3),
      from_hex(kNpy_b1_4),   from_hex(kNpy_u8_be_scalar),  from_hex(kNpy_f8_empty),
      image(dict("|V2", "(2, 2)", true), {1, 2, 3, 4, 5, 6, 7, 8}),
      image(dict("<u8", "(1, 1)"), {1, 2, 3, 4, 5, 6, 7, 8}, 2)};
  std::mt19937 rng(20240601);
  int refused = 0, read = 0;
  auto attempt = [&](const std::vector<std::byte>& img) {
    try {
      const Tensor t = read_npy(img, "fuzz.npy", (rng() % 2) ? std::optional(DType::BFloat16) : std::nullopt);
      CHECK(t.byte_size() == static_cast<std::size_t>(t.size()) * static_cast<std::size_t>(info(t.dtype()).size));
      ++read;
    } catch (const SpecError& e) {
      CHECK(!e.id().empty());
      ++refused;
    }
  };
  for (const auto& seed : seeds) {
    // Every strict prefix of a valid image is refused (the data no longer matches the header).
    for (std::size_t n = 0; n < seed.size(); ++n) {
      INFO("prefix " << n << " of " << seed.size());
      CHECK_FALSE(refusal_id([&] { read_npy(std::span(seed).first(n), "prefix.npy"); }).empty());
    }
    for (int round = 0; round < 3000; ++round) {
      auto img = seed;
      const int flips = 1 + static_cast<int>(rng() % 4);
      for (int f = 0; f < flips; ++f) {
        const std::size_t at = rng() % img.size();
        if (rng() % 2) img[at] ^= static_cast<std::byte>(1u << (rng() % 8));
        else img[at] = static_cast<std::byte>(rng() % 256);
      }
      if (rng() % 4 == 0) img.resize(rng() % (img.size() + 1));
      attempt(img);
    }
  }
  CHECK(refused > 0);
  CHECK(read > 0);  // flips in data bytes keep the image valid
}

}  // namespace io_npy_test
