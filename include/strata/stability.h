// stability.h: the stability gate behind `strata compile --verify-stable` (SPEC.md section 3).
//
// Two checks. (1) Every target is rendered twice, under RenderEnvs that differ in the injected
// clock and in the order targets are visited; any byte difference fails and names the target and
// the offset, so a renderer that starts to read the clock or depend on order is refused. (2) The
// head band, which every client caches first, is scanned for volatile text of exact shapes only, so
// ordinary prose passes: timestamps with seconds, sha256 digests, machine-specific absolute paths,
// run and build counters (the shapes praetor's gate uses).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "strata/compile.h"
#include "strata/status.h"

namespace strata {

struct VolatileMatch {
  std::string kind;   // "timestamp", "digest", "absolute-path" or "run-counter"
  std::string text;   // the matched text
  size_t offset = 0;  // byte offset in the scanned text
};

// Every volatile shape in `text`, in offset order. Shapes:
//  timestamp      2026-10-07T12:30:00Z, 2026-10-07 12:30:00Z, 2026-10-07T12:30:00 (seconds
//  required) digest         sha256: followed by 12 or more hex digits absolute-path  /home/<name>/,
//  /Users/<name>/, /Volumes/<disk>/, /root/, /tmp/; two components
//                 under /var /mnt /srv /opt /etc /usr /private /workspace /nix; C:\work, D:/work;
//                 \\host\share
//  run-counter    run #7, run_id: <value>, build number 12, build #12
std::vector<VolatileMatch> ScanVolatileText(std::string_view text);

// Scans the head band of `banded` (its common pieces) and reports each match as an error at
// `source_path:line:col` with message "<kind>: <matched text>".
std::vector<Diagnostic> ScanHeadBand(const BandedSource& banded, std::string_view source_path);

// Renders `targets` twice with `renderer` under two different RenderEnvs (clock and visit order)
// and reports, per target whose bytes differ, an error naming the target path and first offset.
std::vector<Diagnostic> VerifyRenderTwice(const std::vector<const ClientTarget*>& targets,
                                          const BandedSource& banded, std::string_view source_name,
                                          const TargetRenderer& renderer);

// Both checks on a compile report (its source, bands and selected targets).
std::vector<Diagnostic> CheckStability(const CompileReport& report,
                                       const TargetRenderer& renderer = RenderTarget);

}  // namespace strata
