"""Command-line tools: benchmarks, the fuzzer, the bot tournament, self-play."""
