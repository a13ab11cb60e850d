// RecordFile tests: lines appended from many threads come out whole, one per line, and appending
// to an existing file keeps what it held.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "strata/record.h"
#include "support/test_support.h"

namespace strata {
namespace {

TEST(RecordFileTest, ConcurrentAppendsNeverInterleave) {
  testing::TempDir dir;
  auto path = dir.Write("r.jsonl", "{\"kept\":true}\n");
  auto file = RecordFile::Open(path);
  ASSERT_TRUE(file) << file.error().message;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        // 8 KB lines: far beyond what a single small write would cover by luck.
        std::string line = "{\"t\":" + std::to_string(t) + ",\"i\":" + std::to_string(i) +
                           ",\"pad\":\"" + std::string(8192, static_cast<char>('a' + t)) + "\"}\n";
        ASSERT_TRUE((*file)->Append(line));
      }
    });
  }
  for (auto& thread : threads) thread.join();
  std::istringstream lines(testing::ReadAll(path));
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "{\"kept\":true}");
  std::set<std::pair<int, int>> seen;
  while (std::getline(lines, line)) {
    auto j = nlohmann::json::parse(line);  // throws on a torn line
    std::string pad = j["pad"];
    EXPECT_EQ(pad, std::string(8192, static_cast<char>('a' + j["t"].get<int>())));
    seen.insert({j["t"].get<int>(), j["i"].get<int>()});
  }
  EXPECT_EQ(seen.size(), 400u);
}

// A file whose last line a killed recorder left unfinished: Open sets the unfinished bytes aside
// in <path>.torn and cuts them off, so the next line starts on a line of its own and every line
// of the file parses.
TEST(RecordFileTest, OpenSetsAsideATornLastLine) {
  testing::TempDir dir;
  auto path = dir.Write("r.jsonl", "{\"a\":1}\n{\"b\":2}\n{\"c\":\"unfini");
  size_t torn = 0;
  auto file = RecordFile::Open(path, &torn);
  ASSERT_TRUE(file) << file.error().message;
  EXPECT_EQ(torn, 12u);  // {"c":"unfini
  ASSERT_TRUE((*file)->Append("{\"d\":4}\n"));
  EXPECT_EQ(testing::ReadAll(path), "{\"a\":1}\n{\"b\":2}\n{\"d\":4}\n");
  EXPECT_EQ(testing::ReadAll(path.string() + ".torn"), "{\"c\":\"unfini\n");
}

// A file of one unfinished line (no LF at all) is cut to nothing; a whole file is left alone.
TEST(RecordFileTest, OpenKeepsWholeFilesAndCutsAFileOfOneUnfinishedLine) {
  testing::TempDir dir;
  auto whole = dir.Write("whole.jsonl", "{\"a\":1}\n");
  size_t torn = 99;
  ASSERT_TRUE(RecordFile::Open(whole, &torn));
  EXPECT_EQ(torn, 0u);
  EXPECT_EQ(testing::ReadAll(whole), "{\"a\":1}\n");
  EXPECT_FALSE(std::filesystem::exists(whole.string() + ".torn"));
  auto cut = dir.Write("cut.jsonl", std::string(200000, 'x'));  // longer than one read buffer
  ASSERT_TRUE(RecordFile::Open(cut, &torn));
  EXPECT_EQ(torn, 200000u);
  EXPECT_EQ(testing::ReadAll(cut), "");
}

TEST(RecordFileTest, UnwritablePathIsAnIoError) {
  auto file = RecordFile::Open("/nonexistent-dir/r.jsonl");
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().kind, ErrorKind::kIo);
  EXPECT_EQ(file.error().where.path, "/nonexistent-dir/r.jsonl");
}

}  // namespace
}  // namespace strata
