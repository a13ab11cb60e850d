// stability.h: the two checks of the stability gate behind `strata compile --verify-stable`.
//
// (1) Every target is rendered twice, under RenderEnvs that differ in the injected clock and in the
// order targets are visited; any byte difference fails and names the target and the offset, so a
// renderer that starts to read the clock or depend on order is refused. (2) The head band, which
// every client caches first, is scanned for volatile text of exact shapes only, so ordinary prose
// passes ("retry count: 3", a 40-hex commit pin, "/var/tmp" in a sentence): timestamps with
// seconds, sha256 digests, machine-specific absolute paths, run and build counters (the shapes
// praetor's gate uses). The compile module runs both on a compile (CheckStability, compile.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "bands/bands.h"
#include "strata/status.h"
#include "targets/targets.h"

namespace strata {

// What a render may be handed but must not depend on: a clock and the order targets are visited.
struct RenderEnv {
  std::function<int64_t()> now_unix_ms;  // milliseconds since the Unix epoch
  std::vector<size_t> visit_order;       // a permutation of indices into the target list
};

// Renders one target's bytes from the banded source (`source_name` is e.g. "AGENTS.md").
using TargetRenderer = std::function<std::string(const ClientTarget&, const BandedSource&,
                                                 std::string_view source_name, const RenderEnv&)>;

struct VolatileMatch {
  std::string kind;   // "timestamp", "digest", "absolute-path" or "run-counter"
  std::string text;   // the matched text
  size_t offset = 0;  // byte offset in the scanned text
};

// Every volatile shape in `text`, in offset order. Shapes:
//   timestamp      2026-10-07T12:30:00Z, 2026-10-07 12:30:00Z, 2026-10-07T12:30:00 (seconds
//                  required; fractions and a zone offset are part of the match)
//   digest         sha256: followed by 12 or more hex digits
//   absolute-path  /home/<name>, /Users/<name>, /Volumes/<disk> (more components may
//                  follow), /root/, /tmp/; two components under /var /mnt /srv /opt /etc /usr
//                  /private /workspace /nix; a drive path (C:\work, D:/work); a UNC path
//                  (\\host\share). A path starts the text or follows a blank, quote, bracket,
//                  `=`, `:` or `,`; trailing sentence punctuation is not part of it.
//   run-counter    run #7, run # 7, run_id: <value>, run_id=1234, run-id=1234, build number 12,
//                  build no. 12, build_number=12, build #12, build # 12 (any case)
std::vector<VolatileMatch> ScanVolatileText(std::string_view text);

// Scans the head band of `banded` (its common pieces) and reports each match as an error at
// `source_path:line:col` with message "<kind>: <matched text>".
std::vector<Diagnostic> ScanHeadBand(const BandedSource& banded, std::string_view source_path);

// Renders `targets` twice with `renderer` under two different RenderEnvs (clock and visit order)
// and reports, per target whose bytes differ, an error naming the target path and first offset.
std::vector<Diagnostic> VerifyRenderTwice(const std::vector<const ClientTarget*>& targets,
                                          const BandedSource& banded, std::string_view source_name,
                                          const TargetRenderer& renderer);

}  // namespace strata
