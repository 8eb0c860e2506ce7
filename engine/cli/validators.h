// The CLI's option validators (CLI11), in a header without LibTorch so that main.cpp can use
// them too; defined in cli_support.cpp.
#pragma once

#include <string>

namespace CLI {
class Validator;
}

namespace lwb::cli {

// CLI11 validator: a finite number >= 0 (CLI::NonNegativeNumber lets "nan" through).
const CLI::Validator& finiteNonNegative();

// CLI11 validator for unsigned options (seeds; give it to ->transform, as below): digits only,
// at most 2^64 - 1. CLI11 converts "-1" into an uint64_t by wrapping it to 2^64 - 1 and a larger
// number by clamping it, without a word.
const CLI::Validator& unsignedInteger();

// CLI11 validator: a value that is not empty ("--delta ''" was taken as "no --delta").
const CLI::Validator& nonEmpty();

// CLI11 validators (give them to ->transform: they rewrite "010" as 10, which CLI11 would read as
// octal 8) for a closed range that name what is wrong: "must be an integer from 0 to
// 4096, got abc" (CLI::Range said "not in range"), and a finite number ("nan" passed CLI::Range).
CLI::Validator integerIn(long long lo, long long hi);
CLI::Validator numberIn(double lo, double hi);

}  // namespace lwb::cli
