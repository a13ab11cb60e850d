// request_tokens tests: where a rendered request is cut before block-wise tokenization.
#include "tokenize/request_tokens.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(RequestTokensTest, CutsAtBlockStartsSpansAndBreakpoints) {
  //                       0         1         2         3
  //                       0123456789012345678901234567890123456
  std::string_view bytes = R"([{"type":"text"},{"role":"user"},<|im_start|>x{"a":1})";
  LayerMap spans = {{"persona", Volatility::kStatic, "", 2, 5},
                    {"input", Volatility::kTurn, "", 6, 9}};
  std::vector<Breakpoint> bps = {{20, CacheTtl::k5m, ""}};
  // Block starts at 1 ({"type":"), 17 ({"role":") and 33 (<|im_start|>); "{"a"" is no block start;
  // the persona span gives 2 and 5 (input spans do not cut); the breakpoint 20; extra 40; 0 never.
  auto cuts = StructuralCuts(bytes, spans, bps, {40, 0});
  EXPECT_EQ(cuts, (std::vector<size_t>{1, 2, 5, 17, 20, 33, 40}));
}

}  // namespace
}  // namespace strata
