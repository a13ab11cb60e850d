// markers_test.cc: band markers and generated-block markers, recognised only in their exact form.
#include "bands/markers.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(MarkersTest, BandMarkersOfBothToolsWithIndentAndTrailingBlanks) {
  Band band = Band::kHead;
  EXPECT_TRUE(ParseBandMarker("<!-- strata:config -->", &band));
  EXPECT_EQ(band, Band::kConfig);
  EXPECT_TRUE(ParseBandMarker("   <!-- praetor:tail --> \t", &band));
  EXPECT_EQ(band, Band::kTail);
  EXPECT_TRUE(ParseBandMarker("<!-- strata:head -->", nullptr));
}

TEST(MarkersTest, NearMissesAreNotBandMarkers) {
  EXPECT_FALSE(ParseBandMarker("    <!-- strata:head -->", nullptr));  // four spaces: code
  EXPECT_FALSE(ParseBandMarker("<!--strata:head-->", nullptr));
  EXPECT_FALSE(ParseBandMarker("<!--  strata:head -->", nullptr));
  EXPECT_FALSE(ParseBandMarker("<!-- strata:body -->", nullptr));
  EXPECT_FALSE(ParseBandMarker("<!-- other:head -->", nullptr));
  EXPECT_FALSE(ParseBandMarker("<!-- strata:head --> text", nullptr));
  EXPECT_FALSE(ParseBandMarker("<!-- -->", nullptr));
  EXPECT_FALSE(ParseBandMarker("", nullptr));
}

TEST(MarkersTest, BlockMarkersCarryTheirName) {
  EXPECT_EQ(BlockMarkerName("<!-- strata:begin register -->", BlockMarkerVerb::kBegin), "register");
  EXPECT_EQ(BlockMarkerName("  <!-- strata:end register -->  ", BlockMarkerVerb::kEnd), "register");
  EXPECT_EQ(BlockMarkerName("<!-- strata:end register -->", BlockMarkerVerb::kBegin), "");
  EXPECT_EQ(BlockMarkerName("<!-- strata:begin two words -->", BlockMarkerVerb::kBegin), "");
  EXPECT_EQ(BlockMarkerName("<!-- strata:begin  -->", BlockMarkerVerb::kBegin), "");
  EXPECT_TRUE(IsBlockMarker("<!-- strata:begin x -->"));
  EXPECT_FALSE(IsBlockMarker("<!-- strata:config -->"));
}

TEST(MarkersTest, BlockMarkerLinesAreLfTerminated) {
  EXPECT_EQ(BlockMarkerLine("register", BlockMarkerVerb::kBegin),
            "<!-- strata:begin register -->\n");
  EXPECT_EQ(BlockMarkerLine("register", BlockMarkerVerb::kEnd), "<!-- strata:end register -->\n");
}

}  // namespace
}  // namespace strata
