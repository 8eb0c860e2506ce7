// The one reader for every JSON file the project reads (configs, sweep specs, run folders,
// checkpoint metadata, index rows, presets): a nesting-depth limit enforced while parsing,
// and one-line messages that name the file. Torch-free, Qt-free (the app uses it too).
//
// Why a depth limit: nlohmann's parser is iterative and copes with any depth, but copying,
// dumping or comparing a value recurses once per level; ~150 k levels overflow the stack
// (SIGSEGV) far from where the file was read. Refusing at parse time stops it at the door.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace lwb::jsonio {

// Deepest nesting accepted. Our own files nest at most 5 levels (a sweep spec's grid value
// inside grid inside the spec; a config's constraint object); 64 leaves room for any
// hand-written file, and 64 recursive copy/dump frames use a few KiB of stack at most.
inline constexpr int kMaxDepth = 64;

// A config, spec or index JSON is a few KiB; 16 MiB leaves 1000x room and bounds the memory a
// hostile file can cost (a parsed value takes up to ~10x its text).
inline constexpr uint64_t kMaxFileBytes = uint64_t{16} << 20;

// Parses `text`. Throws lwb::InputError("<what>: not valid JSON at line L, column C (reason)"
// / "<what>: nests deeper than 64 levels" / "<what>: key 'k' appears twice in one object")
// — never a raw json.exception (1e999 overflows, bad UTF-8 and the like included). nlohmann
// would keep the last of two equal keys without a word (a config's second "steps" won).
nlohmann::json parse(std::string_view text, const std::string& what, int maxDepth = kMaxDepth);

// The same, without exceptions: nullopt (and the message in *error) where parse would throw.
std::optional<nlohmann::json> tryParse(std::string_view text, std::string* error = nullptr,
                                       const std::string& what = "JSON", int maxDepth = kMaxDepth);

// What walkJson reports: a container starting (its depth, 0 = the top level) or ending, and
// each key of an object (the object's depth).
enum class JsonEvent { ObjectStart, ArrayStart, ObjectEnd, ArrayEnd, Key };

// Walks `text` once with nlohmann's SAX interface, building nothing, and calls onEvent for
// each container start and end and each key; onEvent may throw to refuse the file. Stops
// quietly at a syntax error: the DOM parse that follows reports it with its position. (The
// checks were a parser callback before, but nlohmann's callback parser rescans the parent
// object after every object inside it: 40,000 tensors in a safetensors header took 30 s.)
void walkJson(std::string_view text, const std::function<void(JsonEvent event, int depth, const std::string& key)>& onEvent);

// Reads and parses the regular file at `path`. A directory, FIFO, device, missing or oversized
// file is an InputError naming the path (a FIFO is never opened for a blocking read).
nlohmann::json readFile(const std::string& path, uint64_t maxBytes = kMaxFileBytes, int maxDepth = kMaxDepth);

// readFile, then require an object ("<path>: expected a JSON object, got array").
nlohmann::json readObjectFile(const std::string& path, uint64_t maxBytes = kMaxFileBytes);

// Text for a file people may read (spec.json, a point's config.json): indented by 2 while the
// compact text is at most 64 KiB, compact above. Indentation grows with nesting depth, so an
// indented dump of a large, deep value can be ~65x its compact size (a 100 KB spec became a
// 5 GB spec.json); with this rule an indented file stays under ~4 MiB. Invalid UTF-8 in
// strings is replaced, never thrown.
std::string dumpReadable(const nlohmann::json& value);

// "1:5" style position of byte offset `byte` in `text` (1-based line and column).
std::string lineColumn(std::string_view text, size_t byte);

}  // namespace lwb::jsonio
