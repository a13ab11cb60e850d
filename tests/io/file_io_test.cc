// file_io_test.cc: ReadOpenedFile reads what is on disk whatever the stat'ed size said (a file
// that grew or shrank between fstat and read loses or invents no byte), stops at max_bytes, and
// reads through a descriptor left O_NONBLOCK by the contained open.
#include "io/file_io.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>

#include "io/contained_open.h"
#include "support/test_support.h"

namespace strata {
namespace {

using testing::TempDir;

class ReadOpenedFileTest : public ::testing::Test {
 protected:
  // A 10,000-byte file (more than one probe of 4 KiB past any stat'ed size below).
  void SetUp() override {
    for (int i = 0; i < 10000; ++i) bytes_.push_back(static_cast<char>('a' + i % 26));
    path_ = tmp_.Write("f.txt", bytes_);
    fd_ = UniqueFd(::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    ASSERT_TRUE(fd_);
  }
  Result<std::string> Read(size_t stat_size, size_t max_bytes = 1 << 20) {
    return ReadOpenedFile(fd_.get(), stat_size, max_bytes, path_);
  }

  TempDir tmp_;
  std::string bytes_;
  std::filesystem::path path_;
  UniqueFd fd_;
};

TEST_F(ReadOpenedFileTest, ReadsTheWholeFileAtItsStatSize) {
  auto got = Read(bytes_.size());
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(*got, bytes_);
}

TEST_F(ReadOpenedFileTest, AFileThatGrewAfterItsStatIsReadToTheEnd) {
  for (size_t stat_size : {size_t{0}, size_t{1}, size_t{4095}, size_t{5000}, size_t{9999}}) {
    auto got = Read(stat_size);
    ASSERT_TRUE(got) << got.error().message;
    EXPECT_EQ(*got, bytes_) << "stat size " << stat_size;
  }
}

TEST_F(ReadOpenedFileTest, AFileThatShrankAfterItsStatGivesOnlyItsBytes) {
  auto got = Read(bytes_.size() + 3000);
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(*got, bytes_);
}

TEST_F(ReadOpenedFileTest, StopsAtMaxBytesAndRefusesAStatSizeOverIt) {
  auto capped = Read(100, 6000);
  ASSERT_TRUE(capped) << capped.error().message;
  EXPECT_EQ(*capped, bytes_.substr(0, 6000));
  auto over = Read(bytes_.size(), 6000);
  ASSERT_FALSE(over);
  EXPECT_NE(over.error().message.find("over the limit of 6000 bytes"), std::string::npos);
}

TEST_F(ReadOpenedFileTest, ContainedReadsThroughAKeptRootDescriptorMatchPerCallOpens) {
  const std::filesystem::path root = std::filesystem::canonical(tmp_.path());
  UniqueFd root_fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  ASSERT_TRUE(root_fd);
  auto kept = ReadFileContainedAt(root, root_fd.get(), "f.txt", {}, 1 << 20);
  auto opened = ReadFileContained(root, "f.txt", {}, 1 << 20);
  ASSERT_TRUE(kept && opened);
  EXPECT_EQ(*kept, bytes_);
  EXPECT_EQ(*opened, bytes_);
  auto missing = ReadFileContainedAt(root, root_fd.get(), "nope.txt", {}, 1 << 20);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
  auto outside = ReadFileContainedAt(root, root_fd.get(), "../f.txt", {}, 1 << 20);
  ASSERT_FALSE(outside);
  EXPECT_EQ(outside.error().kind, ErrorKind::kConflict);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// A write target that is a FIFO, a directory or a symlink to a FIFO is refused by name and left
// as it was: renaming a temporary over it would replace the node (as root, `--html /dev/null`
// would replace the system's /dev/null). A regular file is still replaced.
TEST(WriteFileAtomicTest, ANodeThatIsNotARegularFileIsRefusedAndKept) {
  testing::TempDir dir;
  const auto fifo = dir.path() / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const auto link = dir.path() / "to-pipe";
  std::filesystem::create_symlink(fifo, link);
  const auto sub = dir.path() / "sub";
  std::filesystem::create_directory(sub);
  for (const auto& [target, kind] :
       {std::pair{fifo, "a FIFO"}, std::pair{link, "a FIFO"}, std::pair{sub, "a directory"}}) {
    Status s = WriteFileAtomic(target, "report");
    ASSERT_FALSE(s) << target;
    EXPECT_NE(s.error().message.find(kind), std::string::npos) << s.error().message;
    EXPECT_NE(FormatError(s.error()).find(target.string()), std::string::npos)
        << FormatError(s.error());
  }
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  EXPECT_TRUE(std::filesystem::is_directory(sub));
  const auto file = dir.Write("plain.html", "old");
  ASSERT_TRUE(WriteFileAtomic(file, "new"));
  EXPECT_EQ(testing::ReadAll(file), "new");
}

}  // namespace
}  // namespace strata
