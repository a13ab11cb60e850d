// stream_state_test.cc: a sequence's state between the per-stream layout and the single-stream
// form, on byte strings built by hand from llama.cpp's layout (stream_state.h): u32 magic, i32
// sequence id, u32 stream count, then per stream a u32 cell count and, when not 0, the cells.
#include "local/stream_state.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>

namespace strata {
namespace {

// Little-endian u32 words (the machine's order, as llama.cpp writes them), then raw bytes.
std::string Words(std::initializer_list<uint32_t> words, std::string tail = "") {
  std::string out;
  for (uint32_t w : words) out.append(reinterpret_cast<const char*>(&w), sizeof w);
  return out + tail;
}

constexpr uint32_t kMagic = 0xaf143cd8;
const std::string kCells = "CELLS-AND-ROWS";  // stands for the positions and K/V rows

TEST(StreamStateTest, SequenceInStreamTwoOfFourBecomesSingleStream) {
  // Sequence 2 of a 4-stream context: streams 0 and 1 empty, its own with 3 cells, stream 3 empty.
  const std::string per_stream = Words({kMagic, 2, 4, 0, 0, 3}, kCells) + Words({0});
  const auto single = ToSingleStream(per_stream, 4, 2);
  ASSERT_TRUE(single.has_value());
  EXPECT_EQ(*single, Words({kMagic, 2, 1, 3}, kCells));
}

TEST(StreamStateTest, SingleStreamGoesIntoAnyStreamOfAnyCount) {
  const std::string single = Words({kMagic, 0, 1, 3}, kCells);
  EXPECT_EQ(FromSingleStream(single, 4, 2), Words({kMagic, 0, 4, 0, 0, 3}, kCells) + Words({0}));
  EXPECT_EQ(FromSingleStream(single, 4, 0), Words({kMagic, 0, 4, 3}, kCells) + Words({0, 0, 0}));
  EXPECT_EQ(FromSingleStream(single, 3, 2), Words({kMagic, 0, 3, 0, 0, 3}, kCells));
  EXPECT_EQ(FromSingleStream(single, 1, 0), single);
}

TEST(StreamStateTest, RoundTripsAtEveryStream) {
  const std::string single = Words({kMagic, 5, 1, 7}, kCells);
  for (uint32_t s = 0; s < 8; ++s) {
    const auto spread = FromSingleStream(single, 8, s);
    ASSERT_TRUE(spread.has_value());
    EXPECT_EQ(spread->size(), single.size() + 7 * 4);
    EXPECT_EQ(ToSingleStream(*spread, 8, s), single) << "stream " << s;
  }
}

TEST(StreamStateTest, AnEmptySequenceIsOnlyCounts) {
  EXPECT_EQ(ToSingleStream(Words({kMagic, 1, 3, 0, 0, 0}), 3, 1), Words({kMagic, 1, 1, 0}));
  EXPECT_EQ(FromSingleStream(Words({kMagic, 1, 1, 0}), 3, 1), Words({kMagic, 1, 3, 0, 0, 0}));
}

TEST(StreamStateTest, RefusesAnotherLayout) {
  const std::string per_stream = Words({kMagic, 2, 4, 0, 0, 3}, kCells) + Words({0});
  EXPECT_FALSE(ToSingleStream(per_stream, 3, 2).has_value());  // another stream count
  EXPECT_FALSE(ToSingleStream(per_stream, 4, 1).has_value());  // cells in stream 2, not 1
  EXPECT_FALSE(ToSingleStream(per_stream, 4, 4).has_value());  // no such stream
  EXPECT_FALSE(ToSingleStream(Words({kMagic, 2, 4, 0}), 4, 2).has_value());  // truncated
  // Bytes after an empty stream's count belong to no stream.
  EXPECT_FALSE(ToSingleStream(Words({kMagic, 0, 2, 0}, "xxxx") + Words({0}), 2, 0).has_value());
  EXPECT_FALSE(FromSingleStream(per_stream, 4, 2).has_value());             // not single-stream
  EXPECT_FALSE(FromSingleStream(Words({kMagic, 0, 1}), 4, 2).has_value());  // no count
  EXPECT_FALSE(FromSingleStream(Words({kMagic, 0, 1, 3}, kCells), 4, 4).has_value());
}

}  // namespace
}  // namespace strata
