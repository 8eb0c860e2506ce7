// Exit statuses the CLI's commands share (LibTorch-free: the rank launcher reads them too).
#pragma once

namespace lwb::cli {

// Bad input (a flag, a file, a config): a one-line message names what and why.
inline constexpr int kExitBadInput = 2;
// Stopped by SIGINT or SIGTERM (128 + SIGINT, as a shell reports a program Ctrl-C killed):
// what the command finished is written and its status says "stopped", but a script or a
// shell loop must not take it for a completed command (with 0, a loop of training runs took
// Ctrl-C for a finished run and started the next).
inline constexpr int kExitInterrupted = 130;

}  // namespace lwb::cli
