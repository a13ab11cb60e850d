// The `strata usage --html` page opened in headless Chromium (Debian's `chromium`, installed by
// scripts/setup.sh): the page renders, its script runs without error (it marks <body> with the
// number of charts, and the console log holds no error), and the screenshot shows the chart (the
// cache-read green of its bars, the drop marker's colour). Labelled slow: two browser starts.
#include <gtest/gtest.h>
#include <zlib.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

// stdout of `command` (stderr as the command redirects it), and its exit status.
std::pair<int, std::string> RunShell(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return {-1, ""};
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

struct Image {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgb;  // 3 bytes per pixel
};

uint32_t Be32(const std::string& s, size_t at) {
  return uint32_t(uint8_t(s[at])) << 24 | uint32_t(uint8_t(s[at + 1])) << 16 |
         uint32_t(uint8_t(s[at + 2])) << 8 | uint32_t(uint8_t(s[at + 3]));
}

// Decodes an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes); nullopt otherwise.
std::optional<Image> DecodePng(const std::string& png) {
  if (png.size() < 33 || png.compare(1, 3, "PNG") != 0) return std::nullopt;
  Image img;
  int channels = 0;
  std::string idat;
  for (size_t at = 8; at + 8 <= png.size();) {
    uint32_t len = Be32(png, at);
    std::string type = png.substr(at + 4, 4);
    if (at + 12 + len > png.size()) return std::nullopt;
    if (type == "IHDR") {
      img.width = Be32(png, at + 8);
      img.height = Be32(png, at + 12);
      int depth = uint8_t(png[at + 16]), color = uint8_t(png[at + 17]);
      int interlace = uint8_t(png[at + 20]);
      if (depth != 8 || interlace != 0 || (color != 2 && color != 6)) return std::nullopt;
      channels = color == 2 ? 3 : 4;
    } else if (type == "IDAT") {
      idat += png.substr(at + 8, len);
    }
    at += 12 + len;
  }
  if (channels == 0) return std::nullopt;
  const size_t stride = size_t(img.width) * size_t(channels);
  std::vector<uint8_t> raw((stride + 1) * img.height);
  uLongf size = raw.size();
  if (uncompress(raw.data(), &size, reinterpret_cast<const Bytef*>(idat.data()), idat.size()) !=
          Z_OK ||
      size != raw.size()) {
    return std::nullopt;
  }
  std::vector<uint8_t> prev(stride, 0), cur(stride);
  img.rgb.reserve(size_t(img.width) * img.height * 3);
  for (uint32_t y = 0; y < img.height; ++y) {
    const uint8_t* line = raw.data() + y * (stride + 1);
    const int filter = line[0];
    for (size_t i = 0; i < stride; ++i) {
      int a = i >= size_t(channels) ? cur[i - channels] : 0, b = prev[i],
          c = i >= size_t(channels) ? prev[i - channels] : 0;
      int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
      int pred = filter == 1   ? a
                 : filter == 2 ? b
                 : filter == 3 ? (a + b) / 2
                 : filter == 4 ? (pa <= pb && pa <= pc ? a
                                  : pb <= pc           ? b
                                                       : c)
                               : 0;
      cur[i] = uint8_t(line[1 + i] + pred);
    }
    for (uint32_t x = 0; x < img.width; ++x) {
      for (int k = 0; k < 3; ++k) img.rgb.push_back(cur[x * channels + k]);
    }
    std::swap(prev, cur);
  }
  return img;
}

size_t PixelsOf(const Image& img, uint8_t r, uint8_t g, uint8_t b) {
  size_t n = 0;
  for (size_t i = 0; i + 2 < img.rgb.size(); i += 3) {
    n += std::abs(img.rgb[i] - r) <= 6 && std::abs(img.rgb[i + 1] - g) <= 6 &&
         std::abs(img.rgb[i + 2] - b) <= 6;
  }
  return n;
}

std::string Line(const std::string& uuid, const std::string& parent, const std::string& time,
                 const std::string& body) {
  return "{\"uuid\":\"" + uuid +
         "\",\"parentUuid\":" + (parent.empty() ? "null" : "\"" + parent + "\"") +
         ",\"cwd\":\"/home/dev/p\",\"timestamp\":\"" + time + "\"," + body + "}\n";
}

std::string Answer(const std::string& uuid, const std::string& parent, const std::string& time,
                   const std::string& req, int read, int write) {
  return Line(uuid, parent, time,
              "\"type\":\"assistant\",\"requestId\":\"" + req +
                  "\",\"message\":{\"model\":\"claude-sonnet-4-5\",\"content\":[],\"usage\":{"
                  "\"input_tokens\":5,\"cache_read_input_tokens\":" +
                  std::to_string(read) + ",\"cache_creation_input_tokens\":" +
                  std::to_string(write) + ",\"output_tokens\":9}}");
}

std::string User(const std::string& uuid, const std::string& parent, const std::string& time) {
  return Line(uuid, parent, time,
              "\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"go\"}");
}

TEST(UsageHtmlChromiumTest, TheReportRendersItsChartsWithoutScriptErrors) {
  const char* chromium = "/usr/bin/chromium";
  if (!fs::exists(chromium))
    GTEST_SKIP() << "chromium not installed (scripts/setup.sh installs it)";
  TempDir dir;
  // One session: a growing prefix, then a request 10 minutes later (a TTL expiry drop).
  dir.Write("home/.claude/projects/-home-dev-p/s1.jsonl",
            User("u1", "", "2026-11-29T08:00:00Z") +
                Answer("a1", "u1", "2026-11-29T08:00:02Z", "r1", 0, 30000) +
                User("u2", "a1", "2026-11-29T08:00:30Z") +
                Answer("a2", "u2", "2026-11-29T08:00:32Z", "r2", 30000, 2000) +
                User("u3", "a2", "2026-11-29T08:10:30Z") +
                Answer("a3", "u3", "2026-11-29T08:10:32Z", "r3", 0, 33000) +
                User("u4", "a3", "2026-11-29T08:11:00Z") +
                Answer("a4", "u4", "2026-11-29T08:11:02Z", "r4", 33000, 1000));
  const fs::path html = dir.path() / "report.html";
  auto cli = testing::RunCli(
      {"usage", "--home", (dir.path() / "home").string(), "--html", html.string()}, dir.path());
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  ASSERT_TRUE(fs::exists(html));
  const std::string flags =
      std::string("timeout 120 ") + chromium +
      " --headless --no-sandbox --disable-gpu --disable-background-networking "
      "--disable-component-update --disable-sync --no-first-run --hide-scrollbars "
      "--window-size=1280,1000 ";
  const std::string url = "file://" + html.string();
  // The DOM after the script ran, and the console log on stderr.
  const fs::path log = dir.path() / "console.log";
  auto [dom_status, dom] =
      RunShell(flags + "--user-data-dir=" + (dir.path() / "profile1").string() +
               " --enable-logging=stderr --v=0 --dump-dom " + url + " 2>" + log.string());
  ASSERT_EQ(dom_status, 0) << testing::ReadAll(log);
  EXPECT_NE(dom.find("data-charts=\"1\""), std::string::npos) << dom.substr(0, 2000);
  EXPECT_NE(dom.find("class=\"drop\" data-cause=\"ttl-expiry\""), std::string::npos);
  const std::string console = testing::ReadAll(log);
  EXPECT_EQ(console.find("Uncaught"), std::string::npos) << console;
  // Chromium logs every console message (errors, CSP refusals) as ":CONSOLE"; the page logs none.
  EXPECT_EQ(console.find(":CONSOLE"), std::string::npos) << console;
  // The screenshot.
  const fs::path shot = dir.path() / "shot.png";
  auto [shot_status, ignored] =
      RunShell(flags + "--user-data-dir=" + (dir.path() / "profile2").string() +
               " --screenshot=" + shot.string() + " " + url + " 2>/dev/null");
  ASSERT_EQ(shot_status, 0);
  auto img = DecodePng(testing::ReadAll(shot));
  ASSERT_TRUE(img) << "not an 8-bit RGB(A) PNG: " << shot;
  EXPECT_EQ(img->width, 1280u);
  size_t white = PixelsOf(*img, 255, 255, 255);
  EXPECT_LT(white, size_t(img->width) * img->height * 98 / 100);  // something rendered
  // The chart's bars: cache read #2e7d32, cache write #ffb74d (the legend's squares are 144 px);
  // the TTL drop marker #f9a825 (legend 144 px, the marker ~45 px more).
  EXPECT_GT(PixelsOf(*img, 0x2e, 0x7d, 0x32), 3000u);
  EXPECT_GT(PixelsOf(*img, 0xff, 0xb7, 0x4d), 3000u);
  EXPECT_GT(PixelsOf(*img, 0xf9, 0xa8, 0x25), 144u + 20u);
}

}  // namespace
}  // namespace strata
