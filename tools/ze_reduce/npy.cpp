#include "npy.hpp"

#include <array>
#include <bit>

#include "input_stream.hpp"
#include "python_literal.hpp"

namespace zr::cli {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
// NumPy pads the header so the data starts on a 64-byte boundary, and leaves room after the dict for the first
// dimension to grow to 21 digits in place (numpy/lib/format.py: ARRAY_ALIGN, GROWTH_AXIS_MAX_DIGITS).
constexpr std::uint64_t kArrayAlign = 64;
constexpr std::size_t kGrowthAxisMaxDigits = 21;
constexpr std::size_t kMaxDimensions = 64;  // NumPy's NPY_MAXDIMS

// '=' means the writer's native order, taken to be little-endian; ByteOrder::little is the host's order, so only
// '>' data is swapped.
static_assert(std::endian::native == std::endian::little, "the .npy reader assumes a little-endian host");

struct DtypeCode {
  char kind;
  char size;
  core::DataType type;
};
constexpr std::array<DtypeCode, 12> kDtypeCodes{{
    {'i', '1', core::DataType::i8},  {'i', '2', core::DataType::i16}, {'i', '4', core::DataType::i32},
    {'i', '8', core::DataType::i64}, {'u', '1', core::DataType::u8},  {'u', '2', core::DataType::u16},
    {'u', '4', core::DataType::u32}, {'u', '8', core::DataType::u64}, {'f', '2', core::DataType::f16},
    {'f', '4', core::DataType::f32}, {'f', '8', core::DataType::f64}, {'b', '1', core::DataType::boolean},
}};

[[noreturn]] void fail(std::string_view source, const std::string& problem) {
  throw InvalidArgumentError(std::string(source) + ": " + problem);
}

std::string printable(std::string_view text, std::size_t limit = 80) {
  std::string out;
  for (char c : text.substr(0, limit)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      out += c;
    } else {
      constexpr std::string_view kHex = "0123456789abcdef";
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  if (text.size() > limit) out += "...";
  return out;
}

std::string descr_of(core::DataType type) {
  for (const auto& code : kDtypeCodes) {
    if (code.type == type) return std::string{code.size == '1' ? '|' : '<', code.kind, code.size};
  }
  return "?";
}

[[noreturn]] void unsupported_dtype(std::string_view descr, std::string_view source, const std::string& detail) {
  fail(source, "unsupported dtype '" + printable(descr) + "'" + detail + "; supported: " +
                   std::string(kSupportedNpyDtypes) + " (convert with a.astype('<f4') and the like)");
}

struct ElementLayout {
  core::DataType type;
  ByteOrder byte_order;
};

ElementLayout layout_from_descr(std::string_view descr, std::string_view source) {
  const auto unsupported = [&](const std::string& detail) { unsupported_dtype(descr, source, detail); };
  auto code = descr;
  char order = '=';
  if (!code.empty() && (code[0] == '<' || code[0] == '>' || code[0] == '=' || code[0] == '|')) {
    order = code[0];
    code.remove_prefix(1);
  }
  if (code.size() != 2) unsupported("");
  for (const auto& known : kDtypeCodes) {
    if (known.kind != code[0] || known.size != code[1]) continue;
    if (known.size == '1') return {known.type, ByteOrder::little};  // one byte has no byte order
    if (order == '|') unsupported(" ('|' means no byte order, which only 1-byte types have)");
    return {known.type, order == '>' ? ByteOrder::big : ByteOrder::little};
  }
  unsupported_dtype(descr, source, "");
}

std::uint64_t read_le(std::span<const std::byte> bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = bytes.size(); i-- > 0;) value = value << 8 | std::to_integer<std::uint64_t>(bytes[i]);
  return value;
}

std::uint64_t dimension(const PyValue& item, std::string_view source, const std::string& shape_text) {
  const auto bad = [&](const std::string& why) { fail(source, "shape " + shape_text + " " + why + "; the file is damaged"); };
  if (item.kind != PyValue::Kind::integer) bad("must hold integers, not " + std::string(kind_name(item.kind)));
  if (item.text.starts_with('-')) bad("has a negative dimension");
  std::uint64_t value = 0;
  for (char c : item.text) {
    if (__builtin_mul_overflow(value, 10u, &value) || __builtin_add_overflow(value, unsigned(c - '0'), &value))
      bad("has a dimension larger than 2^64 - 1");
  }
  return value;
}

std::string shape_literal(const PyValue& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.items.size(); ++i)
    text += (i ? ", " : "") + (shape.items[i].kind == PyValue::Kind::integer ? shape.items[i].text : "?");
  return text + (shape.items.size() == 1 ? ",)" : ")");
}

void read_dict(const PyValue& dict, std::string_view source, NpyHeader& header) {
  const auto missing = [&](std::string_view key) {
    fail(source, "the .npy header dict has no '" + std::string(key) +
                     "' key (it needs 'descr', 'fortran_order' and 'shape'); the file is damaged or not from numpy.save");
  };
  const PyValue* descr = dict.find("descr");
  const PyValue* fortran_order = dict.find("fortran_order");
  const PyValue* shape = dict.find("shape");
  if (!descr) missing("descr");
  if (!fortran_order) missing("fortran_order");
  if (!shape) missing("shape");

  if (descr->kind == PyValue::Kind::list)
    fail(source, "structured dtypes (arrays of records) are not supported; save one plain numeric field, such as "
                 "np.save(path, a['x']); supported dtypes: " + std::string(kSupportedNpyDtypes));
  if (descr->kind != PyValue::Kind::string)
    fail(source, "'descr' in the .npy header must be a dtype string, not " + std::string(kind_name(descr->kind)));
  header.descr = descr->text;
  const auto layout = layout_from_descr(descr->text, source);
  header.type = layout.type;
  header.byte_order = layout.byte_order;

  if (fortran_order->kind != PyValue::Kind::boolean)
    fail(source, "'fortran_order' in the .npy header must be True or False, not " +
                     std::string(kind_name(fortran_order->kind)));
  if (shape->kind != PyValue::Kind::tuple)
    fail(source, "'shape' in the .npy header must be a tuple, not " + std::string(kind_name(shape->kind)));
  const auto shape_text = shape_literal(*shape);
  if (shape->items.size() > kMaxDimensions)
    fail(source, "shape " + printable(shape_text) + " has more than 64 dimensions; the file is damaged");
  header.shape.clear();
  for (const auto& item : shape->items) header.shape.push_back(dimension(item, source, printable(shape_text)));
  // For 0-d and 1-d arrays the two orders are the same bytes (NumPy itself writes False for them).
  if (fortran_order->boolean && header.shape.size() >= 2)
    fail(source, "the array is stored in Fortran (column-major) order, which ze_reduce does not read; re-save it "
                 "in C order: np.save(path, np.ascontiguousarray(a))");

  header.count = 1;
  for (auto extent : header.shape) {
    if (__builtin_mul_overflow(header.count, extent, &header.count))
      fail(source, "shape " + format_shape(header.shape) + " has more than 2^64 - 1 elements; the file is damaged");
  }
  if (__builtin_mul_overflow(header.count, core::size_of(header.type), &header.data_bytes))
    fail(source, "shape " + format_shape(header.shape) + " of " + header.descr +
                     " needs more than 2^64 - 1 bytes; the file is damaged");
}

}  // namespace

std::optional<std::uint64_t> NpyHeader::columns() const {
  if (shape.size() < 2) return std::nullopt;
  return shape.back();
}

std::string format_shape(std::span<const std::uint64_t> shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

NpyHeader parse_npy_header(std::span<const std::byte> bytes, std::string_view source) {
  const auto truncated = [&](std::uint64_t needed, std::string_view what) {
    throw NpyTruncatedError(std::string(source) + ": the .npy " + std::string(what) + " needs " +
                                std::to_string(needed) + " bytes but only " + std::to_string(bytes.size()) +
                                " were given; give more of the file, or the file is truncated",
                            needed);
  };
  const auto text = [&](std::size_t offset, std::size_t size) {
    return std::string_view(reinterpret_cast<const char*>(bytes.data()) + offset, size);
  };
  const auto start = text(0, std::min(bytes.size(), kMagic.size()));
  if (start != kMagic.substr(0, start.size()))
    fail(source, "not a NumPy .npy file: it does not start with \\x93NUMPY (it starts with '" + printable(start) +
                     "'); write it with numpy.save, or read it as raw binary data");
  if (bytes.size() < 10) truncated(10, "magic, version and header length");

  NpyHeader header;
  header.major_version = std::to_integer<std::uint8_t>(bytes[6]);
  header.minor_version = std::to_integer<std::uint8_t>(bytes[7]);
  if (header.major_version < 1 || header.major_version > 3 || header.minor_version != 0)
    fail(source, "unsupported .npy format version " + std::to_string(header.major_version) + "." +
                     std::to_string(header.minor_version) + " (ze_reduce reads 1.0, 2.0 and 3.0); re-save it with numpy.save");
  const std::size_t length_bytes = header.major_version == 1 ? 2 : 4;
  const std::size_t prefix = kMagic.size() + 2 + length_bytes;
  if (bytes.size() < prefix) truncated(prefix, "header length");
  const std::uint64_t dict_bytes = read_le(bytes.subspan(8, length_bytes));
  if (dict_bytes > kMaxNpyHeaderBytes)
    fail(source, "the .npy header claims " + std::to_string(dict_bytes) + " bytes, more than the " +
                     std::to_string(kMaxNpyHeaderBytes) + " ze_reduce accepts; the file is damaged");
  header.data_offset = prefix + dict_bytes;
  if (bytes.size() < header.data_offset) truncated(header.data_offset, "header");

  // Version 3.0 differs from 2.0 only in allowing UTF-8 in field names, which plain dtypes do not have.
  const auto dict_text = text(prefix, dict_bytes);
  std::string why;
  const auto dict = parse_python_literal(dict_text, why);
  if (!dict)
    fail(source, "the .npy header is not a Python dict literal (" + why + "): '" + printable(dict_text) +
                     "'; the file is damaged or was not written by numpy.save");
  if (dict->kind != PyValue::Kind::dict)
    fail(source, "the .npy header must be a dict, not " + std::string(kind_name(dict->kind)) + ": '" +
                     printable(dict_text) + "'; the file is damaged or was not written by numpy.save");
  read_dict(*dict, source, header);
  return header;
}

NpyArray read_npy(std::istream& in, std::string_view source) {
  // Read exactly what the header parser asks for, so that no data byte is consumed with the header.
  std::vector<std::byte> head;
  std::uint64_t wanted = 10;
  NpyArray array;
  for (;;) {
    const auto old_size = head.size();
    head.resize(wanted);
    in.read(reinterpret_cast<char*>(head.data() + old_size), static_cast<std::streamsize>(wanted - old_size));
    head.resize(old_size + static_cast<std::size_t>(in.gcount()));
    if (in.bad()) throw Error(std::string(source) + ": read error in the .npy header");
    try {
      array.header = parse_npy_header(head, source);
      break;
    } catch (const NpyTruncatedError& e) {
      if (head.size() < wanted)
        fail(source, "the file ends after " + std::to_string(head.size()) + " bytes, inside its .npy header (which needs " +
                         std::to_string(e.bytes_needed()) + "); it is truncated or not a .npy file");
      wanted = e.bytes_needed();
    }
  }

  const auto& header = array.header;
  const auto mismatch = [&](const std::string& found, std::string_view advice) {
    fail(source, "shape " + format_shape(header.shape) + " of " + header.descr + " needs " +
                     std::to_string(header.data_bytes) + " data bytes after the " + std::to_string(header.data_offset) +
                     "-byte header, but " + found + "; " + std::string(advice));
  };
  constexpr std::string_view kTruncatedAdvice = "the file is truncated: copy or save it again";
  constexpr std::string_view kTrailingAdvice =
      "the file holds more than one array or is damaged: save one array per file with numpy.save";
  if (const auto remaining = remaining_bytes(in); remaining && *remaining != header.data_bytes) {
    mismatch("the file has " + std::to_string(*remaining), *remaining < header.data_bytes ? kTruncatedAdvice
                                                                                          : kTrailingAdvice);
  }
  // One byte more than needed tells trailing bytes apart from a clean end.
  const auto limit = header.data_bytes == ~std::uint64_t{0} ? header.data_bytes : header.data_bytes + 1;
  array.data = read_bytes(in, limit, source, header.byte_order, core::size_of(header.type));
  if (array.data.size() < header.data_bytes)
    mismatch("the file has only " + std::to_string(array.data.size()), kTruncatedAdvice);
  if (array.data.size() > header.data_bytes) mismatch("more bytes follow", kTrailingAdvice);
  return array;
}

std::vector<std::byte> make_npy_header(core::DataType type, std::span<const std::uint64_t> shape, NpyVersion version) {
  std::string dict = "{'descr': '" + descr_of(type) + "', 'fortran_order': False, 'shape': " + format_shape(shape) + ", }";
  if (!shape.empty()) dict.append(kGrowthAxisMaxDigits - std::to_string(shape.front()).size(), ' ');
  const auto wrap = [&](std::size_t length_bytes) {
    const std::uint64_t unpadded = kMagic.size() + 2 + length_bytes + dict.size() + 1;  // + the final '\n'
    // As NumPy: a header that is already aligned still gets a full 64 bytes of padding.
    const std::uint64_t padding = kArrayAlign - unpadded % kArrayAlign;
    return std::pair{dict.size() + padding + 1, padding};
  };
  if (version == NpyVersion::automatic) version = wrap(2).first <= 0xffff ? NpyVersion::v1_0 : NpyVersion::v2_0;
  const std::size_t length_bytes = version == NpyVersion::v1_0 ? 2 : 4;
  const auto [dict_bytes, padding] = wrap(length_bytes);
  if (version == NpyVersion::v1_0 && dict_bytes > 0xffff)
    throw InvalidArgumentError("a .npy header for shape " + format_shape(shape) +
                               " does not fit in format version 1.0; use version 2.0");

  std::vector<std::byte> bytes;
  const auto append = [&](std::string_view text) {
    for (char c : text) bytes.push_back(static_cast<std::byte>(c));
  };
  append(kMagic);
  bytes.push_back(std::byte{static_cast<unsigned char>(version == NpyVersion::v1_0 ? 1 : version == NpyVersion::v2_0 ? 2 : 3)});
  bytes.push_back(std::byte{0});
  for (std::size_t i = 0; i < length_bytes; ++i) bytes.push_back(static_cast<std::byte>(dict_bytes >> (8 * i) & 0xff));
  append(dict);
  bytes.insert(bytes.end(), padding, std::byte{' '});
  bytes.push_back(std::byte{'\n'});
  return bytes;
}

void write_npy(std::ostream& out, core::DataType type, std::span<const std::uint64_t> shape,
               std::span<const std::byte> data, NpyVersion version) {
  std::uint64_t count = 1;
  for (auto extent : shape) {
    if (__builtin_mul_overflow(count, extent, &count))
      throw InvalidArgumentError("write_npy: shape " + format_shape(shape) + " has more than 2^64 - 1 elements");
  }
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(count, core::size_of(type), &bytes) || bytes != data.size())
    throw InvalidArgumentError("write_npy: shape " + format_shape(shape) + " of " + std::string(core::name(type)) +
                               " needs " + std::to_string(count) + " x " + std::to_string(core::size_of(type)) +
                               " bytes, but " + std::to_string(data.size()) + " bytes were given");
  const auto header = make_npy_header(type, shape, version);
  out.write(reinterpret_cast<const char*>(header.data()), static_cast<std::streamsize>(header.size()));
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
}

}  // namespace zr::cli
