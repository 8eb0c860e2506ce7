#include "io/pickle_reader.h"

#include "io/input_error.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <unordered_map>

namespace lwb::io {
namespace {

using Ptr = std::shared_ptr<PickleValue>;
using Kind = PickleValue::Kind;

// The storage classes torch.save names in its persistent ids.
struct StorageType {
  const char* name;
  DType dtype;
};
constexpr StorageType kStorageTypes[] = {
    {"torch.DoubleStorage", DType::F64}, {"torch.FloatStorage", DType::F32}, {"torch.HalfStorage", DType::F16},
    {"torch.BFloat16Storage", DType::BF16}, {"torch.LongStorage", DType::I64}, {"torch.IntStorage", DType::I32},
    {"torch.ShortStorage", DType::I16}, {"torch.CharStorage", DType::I8}, {"torch.ByteStorage", DType::U8},
    {"torch.BoolStorage", DType::Bool}};

bool isContainer(const PickleValue& v) {
  return v.kind == Kind::Tuple || v.kind == Kind::List || v.kind == Kind::Dict;
}

class Reader {
 public:
  Reader(std::string_view bytes, const std::string& what, const PickleLimits& limits)
      : b_(bytes), what_(what), limits_(limits) {}

  Ptr run() {
    while (true) {
      const size_t at = pos_;
      const auto op = static_cast<unsigned char>(u8());
      if (op == '.') {  // STOP
        if (stack_.empty()) fail("pickle ends with an empty stack");
        return stack_.back();
      }
      step(op, at);
    }
  }

 private:
  [[noreturn]] void fail(const std::string& msg) const { throw InputError(what_ + ": " + msg); }

  void need(uint64_t n) const {
    if (n > b_.size() - pos_) fail("truncated pickle (needs " + std::to_string(n) + " more bytes at offset " +
                                   std::to_string(pos_) + ")");
  }
  uint64_t little(size_t n) {
    need(n);
    uint64_t v = 0;
    for (size_t k = 0; k < n; ++k) v |= uint64_t{static_cast<unsigned char>(b_[pos_ + k])} << (8 * k);
    pos_ += n;
    return v;
  }
  uint8_t u8() { return static_cast<uint8_t>(little(1)); }
  std::string take(uint64_t n) {
    need(n);
    std::string s(b_.substr(pos_, static_cast<size_t>(n)));
    pos_ += static_cast<size_t>(n);
    return s;
  }
  std::string line() {
    const size_t nl = b_.find('\n', pos_);
    if (nl == std::string_view::npos || nl - pos_ > 256) fail("malformed GLOBAL name in pickle");
    std::string s(b_.substr(pos_, nl - pos_));
    pos_ = nl + 1;
    return s;
  }

  // Every opcode that grows the stack, the marks or the memo counts against maxValues.
  void count() {
    if (++created_ > limits_.maxValues)
      fail("pickle creates more than " + std::to_string(limits_.maxValues) + " values");
  }
  Ptr make(Kind k) {
    count();
    auto v = std::make_shared<PickleValue>();
    v->kind = k;
    return v;
  }
  void push(Ptr v) { stack_.push_back(std::move(v)); }
  // Items above the innermost MARK belong to it; nothing may pop across it.
  size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
  Ptr pop() {
    if (stack_.size() <= floor()) fail("pickle stack underflow");
    Ptr v = std::move(stack_.back());
    stack_.pop_back();
    return v;
  }
  Ptr& top() {
    if (stack_.size() <= floor()) fail("pickle stack underflow");
    return stack_.back();
  }
  std::vector<Ptr> popToMark() {
    if (marks_.empty()) fail("pickle uses a MARK that was never set");
    const size_t start = marks_.back();
    marks_.pop_back();
    std::vector<Ptr> items(std::make_move_iterator(stack_.begin() + static_cast<std::ptrdiff_t>(start)),
                           std::make_move_iterator(stack_.end()));
    stack_.resize(start);
    return items;
  }

  // Places `item` inside `container`; see PickleValue::placed.
  void place(PickleValue& container, const Ptr& item) {
    if (item.get() == &container) fail("pickle puts a container inside itself");
    if (isContainer(*item)) item->placed = true;
    container.depth = std::max(container.depth, item->depth + 1);
    if (container.depth > limits_.maxDepth)
      fail("pickle nests containers deeper than " + std::to_string(limits_.maxDepth) + " levels");
  }
  void fill(Ptr& container, Kind kind, std::vector<Ptr> items) {
    if (container->kind != kind) fail(std::string("pickle appends to something that is not a ") +
                                      (kind == Kind::List ? "list" : "dict"));
    if (container->placed) fail("pickle modifies a container after placing it in another");
    if (kind == Kind::Dict && items.size() % 2 != 0) fail("pickle dict items do not come in key/value pairs");
    for (const Ptr& item : items) place(*container, item);
    for (Ptr& item : items) container->items.push_back(std::move(item));
  }
  Ptr container(Kind kind, std::vector<Ptr> items) {
    Ptr c = make(kind);
    fill(c, kind, std::move(items));
    return c;
  }

  Ptr string(uint64_t n) {
    Ptr v = make(Kind::String);
    v->text = take(n);
    return v;
  }
  Ptr integer(int64_t i) {
    Ptr v = make(Kind::Int);
    v->integer = i;
    return v;
  }
  int64_t longBytes(uint64_t n) {
    if (n > 8) fail("pickle integer wider than 64 bits");
    const uint64_t raw = little(static_cast<size_t>(n));
    if (n == 0) return 0;
    const unsigned shift = static_cast<unsigned>(64 - 8 * n);
    return static_cast<int64_t>(raw << shift) >> shift;  // sign-extend
  }

  Ptr global(const std::string& module, const std::string& name) {
    Ptr g = make(Kind::Global);
    g->text = module + "." + name;
    return g;
  }

  Ptr reduce(const Ptr& callable, const Ptr& args) {
    if (args->kind != Kind::Tuple) fail("pickle REDUCE arguments are not a tuple");
    const auto& a = args->items;
    const std::string& f = callable->kind == Kind::Global ? callable->text : std::string();
    if (f == "collections.OrderedDict") {
      if (!a.empty()) fail("pickle builds an OrderedDict from arguments (unsupported)");
      return make(Kind::Dict);
    }
    if (f == "torch._utils._rebuild_tensor_v2" || f == "torch._utils._rebuild_tensor") return tensor(a);
    if (f == "torch._utils._rebuild_parameter" || f == "torch._utils._rebuild_parameter_with_state") {
      if (a.empty() || a[0]->kind != Kind::Tensor) fail("pickle rebuilds a parameter from something not a tensor");
      return a[0];
    }
    Ptr o = make(Kind::Object);  // inert: nothing is called
    o->text = f.empty() ? "?" : f;
    return o;
  }

  std::vector<int64_t> intTuple(const Ptr& v, const char* field) {
    if (v->kind != Kind::Tuple) fail(std::string("tensor ") + field + " is not a tuple");
    std::vector<int64_t> out;
    for (const Ptr& e : v->items) {
      if (e->kind != Kind::Int) fail(std::string("tensor ") + field + " holds a non-integer");
      out.push_back(e->integer);
    }
    return out;
  }

  Ptr tensor(const std::vector<Ptr>& a) {
    if (a.size() < 4) fail("pickle rebuilds a tensor with too few arguments");
    if (a[0]->kind != Kind::Storage) fail("pickle rebuilds a tensor from something not a storage");
    if (a[1]->kind != Kind::Int) fail("tensor storage offset is not an integer");
    Ptr t = make(Kind::Tensor);
    t->dtype = a[0]->dtype;
    t->unreadableType = a[0]->unreadableType;
    t->items = {a[0]};
    t->storageOffset = a[1]->integer;
    t->sizes = intTuple(a[2], "size");
    t->strides = intTuple(a[3], "stride");
    if (t->sizes.size() != t->strides.size()) fail("tensor size and stride have different lengths");
    return t;
  }

  Ptr storage(const Ptr& pid) {
    if (pid->kind != Kind::Tuple || pid->items.size() < 5) fail("pickle persistent id is not a storage tuple");
    const auto& a = pid->items;
    if (a[0]->kind != Kind::String || a[0]->text != "storage") fail("pickle persistent id is not a storage");
    if (a[1]->kind != Kind::Global) fail("storage type is not a class name");
    const auto* type = std::find_if(std::begin(kStorageTypes), std::end(kStorageTypes),
                                    [&](const StorageType& s) { return a[1]->text == s.name; });
    // Another torch storage class (ComplexFloatStorage, QInt8Storage): read no bytes of it, and
    // let the archive reader list the tensor as skipped (one complex buffer once made the
    // whole checkpoint unreadable). Anything else is no torch.save file.
    const std::string& cls = a[1]->text;
    const bool torchStorage = cls.starts_with("torch.") && cls.ends_with("Storage") && cls.size() <= 64;
    if (type == std::end(kStorageTypes) && !torchStorage) fail("storage type " + cls + " is not supported");
    if (a[2]->kind != Kind::String) fail("storage key is not a string");
    const std::string& key = a[2]->text;
    // The key names a record ("<archive>/data/<key>"): keep it to what torch.save writes.
    if (key.empty() || key.size() > 64 ||
        !std::all_of(key.begin(), key.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
      fail("storage key '" + key.substr(0, 64) + "' is not a plain record name");
    if (a[4]->kind != Kind::Int || a[4]->integer < 0) fail("storage size is not a non-negative integer");
    Ptr s = make(Kind::Storage);
    s->text = key;
    if (type != std::end(kStorageTypes)) s->dtype = type->dtype;
    else s->unreadableType = cls;
    s->integer = a[4]->integer;
    return s;
  }

  void step(unsigned char op, size_t at) {
    switch (op) {
      case 0x80: u8(); break;                 // PROTO
      case 0x95: little(8); break;            // FRAME (advisory)
      case '(': marks_.push_back(stack_.size()); count(); break;  // MARK
      case '0':                               // POP (an empty MARK pops the mark)
        if (!marks_.empty() && stack_.size() == marks_.back()) marks_.pop_back();
        else pop();
        break;
      case '1': popToMark(); break;           // POP_MARK
      case '2': { Ptr t = top(); push(std::move(t)); count(); break; }  // DUP
      case 'N': push(make(Kind::None)); break;
      case 0x88: case 0x89: {                 // NEWTRUE, NEWFALSE
        Ptr v = make(Kind::Bool);
        v->integer = op == 0x88;
        push(std::move(v));
        break;
      }
      case 'J': push(integer(static_cast<int32_t>(little(4)))); break;  // BININT
      case 'K': push(integer(u8())); break;                              // BININT1
      case 'M': push(integer(static_cast<int64_t>(little(2)))); break;   // BININT2
      case 0x8a: { const uint64_t n = u8(); push(integer(longBytes(n))); break; }  // LONG1
      case 0x8b: { const uint64_t n = little(4); push(integer(longBytes(n))); break; }  // LONG4
      case 'G': {                              // BINFLOAT, big-endian
        need(8);
        uint64_t bits = 0;
        for (int k = 0; k < 8; ++k) bits = (bits << 8) | static_cast<unsigned char>(b_[pos_ + k]);
        pos_ += 8;
        Ptr v = make(Kind::Float);
        v->real = std::bit_cast<double>(bits);
        push(std::move(v));
        break;
      }
      case 'X': case 'B': push(string(little(4))); break;      // BINUNICODE, BINBYTES
      case 0x8c: case 'C': case 'U': push(string(u8())); break;  // SHORT_BINUNICODE, SHORT_BINBYTES, SHORT_BINSTRING
      case 0x8d: case 0x8e: push(string(little(8))); break;    // BINUNICODE8, BINBYTES8
      case 'T': {                                               // BINSTRING
        const auto n = static_cast<int32_t>(little(4));
        if (n < 0) fail("negative string length in pickle");
        push(string(static_cast<uint64_t>(n)));
        break;
      }
      case ')': push(make(Kind::Tuple)); break;                 // EMPTY_TUPLE
      case 't': push(container(Kind::Tuple, popToMark())); break;  // TUPLE
      case 0x85: case 0x86: case 0x87: {                        // TUPLE1..3
        std::vector<Ptr> items(static_cast<size_t>(op - 0x84));
        for (size_t k = items.size(); k-- > 0;) items[k] = pop();
        push(container(Kind::Tuple, std::move(items)));
        break;
      }
      case ']': push(make(Kind::List)); break;                  // EMPTY_LIST
      case 'l': push(container(Kind::List, popToMark())); break;  // LIST
      case 'a': { Ptr item = pop(); fill(top(), Kind::List, {std::move(item)}); break; }  // APPEND
      case 'e': { auto items = popToMark(); fill(top(), Kind::List, std::move(items)); break; }  // APPENDS
      case '}': push(make(Kind::Dict)); break;                  // EMPTY_DICT
      case 'd': push(container(Kind::Dict, popToMark())); break;  // DICT
      case 's': {                                               // SETITEM
        Ptr value = pop();
        Ptr key = pop();
        fill(top(), Kind::Dict, {std::move(key), std::move(value)});
        break;
      }
      case 'u': { auto items = popToMark(); fill(top(), Kind::Dict, std::move(items)); break; }  // SETITEMS
      case 'q': memo_[u8()] = top(); count(); break;                     // BINPUT
      case 'r': memo_[static_cast<uint32_t>(little(4))] = top(); count(); break;  // LONG_BINPUT
      case 0x94: memo_[static_cast<uint32_t>(memo_.size())] = top(); count(); break;  // MEMOIZE
      case 'h': case 'j': {                                     // BINGET, LONG_BINGET
        const auto id = static_cast<uint32_t>(op == 'h' ? u8() : little(4));
        const auto it = memo_.find(id);
        if (it == memo_.end()) fail("pickle refers to memo entry " + std::to_string(id) + " that was never stored");
        push(it->second);
        count();
        break;
      }
      case 'c': {                                               // GLOBAL
        const std::string module = line();
        push(global(module, line()));
        break;
      }
      case 0x93: {                                              // STACK_GLOBAL
        Ptr name = pop();
        Ptr module = pop();
        if (name->kind != Kind::String || module->kind != Kind::String) fail("STACK_GLOBAL needs two strings");
        push(global(module->text, name->text));
        break;
      }
      case 'R': { Ptr args = pop(); Ptr f = pop(); push(reduce(f, args)); break; }  // REDUCE
      case 0x92:                                                // NEWOBJ_EX: kwargs, then as NEWOBJ
        pop();
        [[fallthrough]];
      case 0x81: {                                              // NEWOBJ
        pop();
        Ptr cls = pop();
        Ptr o = make(Kind::Object);
        o->text = cls->kind == Kind::Global ? cls->text : "?";
        push(std::move(o));
        break;
      }
      case 'b': pop(); top(); break;                            // BUILD: state is ignored
      case 'Q': { Ptr pid = pop(); push(storage(pid)); break; }  // BINPERSID
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        fail(std::string("unsupported pickle opcode 0x") + kHex[op >> 4] + kHex[op & 15] + " at offset " +
             std::to_string(at) + " (only torch.save's protocol-2 pickles are read)");
      }
    }
  }

  std::string_view b_;
  const std::string& what_;
  PickleLimits limits_;
  size_t pos_ = 0;
  uint64_t created_ = 0;
  std::vector<Ptr> stack_;
  std::vector<size_t> marks_;
  std::unordered_map<uint32_t, Ptr> memo_;
};

}  // namespace

std::shared_ptr<PickleValue> parsePickle(std::string_view bytes, const std::string& what, const PickleLimits& limits) {
  return Reader(bytes, what, limits).run();
}

}  // namespace lwb::io
