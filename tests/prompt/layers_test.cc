#include "strata/prompt.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(LayersTest, DefaultOrderFollowsTheSpec) {
  std::vector<std::string> names;
  for (const auto& l : DefaultLayerOrder()) names.push_back(LayerName(l.kind));
  EXPECT_EQ(names,
            (std::vector<std::string>{"persona", "tools", "rules", "environment", "instructions",
                                      "skills", "notes", "plan", "history", "tail"}));
  auto r = ValidateLayerOrder(DefaultLayerOrder(), OrderPolicy::kRefuse);
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->empty());
}

TEST(LayersTest, TurnLayerAboveHistoryIsRefusedNamingTheLayer) {
  auto order = DefaultLayerOrder();
  order[7].volatility = Volatility::kTurn;  // plan
  auto r = ValidateLayerOrder(order, OrderPolicy::kRefuse);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(r.error().message.find("'plan' (turn) is above 'history'"), std::string::npos)
      << r.error().message;
}

TEST(LayersTest, TurnLayerAboveHistoryIsAWarningWhenConfigured) {
  auto order = DefaultLayerOrder();
  order[7].volatility = Volatility::kTurn;
  auto r = ValidateLayerOrder(order, OrderPolicy::kWarn);
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].kind, "volatility-order");
  EXPECT_EQ((*r)[0].severity, Severity::kWarning);
  EXPECT_NE((*r)[0].message.find("'plan'"), std::string::npos);
}

TEST(LayersTest, StaticLayerBelowSessionLayerIsRefused) {
  std::vector<LayerDecl> order = {{LayerKind::kPersona, Volatility::kStatic},
                                  {LayerKind::kNotes, Volatility::kSession},
                                  {LayerKind::kRules, Volatility::kStatic},
                                  {LayerKind::kHistory, Volatility::kSession},
                                  {LayerKind::kTail, Volatility::kTurn}};
  auto r = ValidateLayerOrder(order, OrderPolicy::kRefuse);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("'rules' (static) is below 'notes'"), std::string::npos)
      << r.error().message;
}

TEST(LayersTest, StructuralMistakesAreAlwaysErrors) {
  std::vector<LayerDecl> no_tail = {{LayerKind::kHistory, Volatility::kSession}};
  EXPECT_FALSE(ValidateLayerOrder(no_tail, OrderPolicy::kWarn).has_value());
  std::vector<LayerDecl> persona_below = {{LayerKind::kHistory, Volatility::kSession},
                                          {LayerKind::kPersona, Volatility::kTurn},
                                          {LayerKind::kTail, Volatility::kTurn}};
  auto r = ValidateLayerOrder(persona_below, OrderPolicy::kWarn);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("'persona'"), std::string::npos);
  std::vector<LayerDecl> twice = {{LayerKind::kNotes, Volatility::kSession},
                                  {LayerKind::kNotes, Volatility::kSession},
                                  {LayerKind::kHistory, Volatility::kSession},
                                  {LayerKind::kTail, Volatility::kTurn}};
  EXPECT_FALSE(ValidateLayerOrder(twice, OrderPolicy::kWarn).has_value());
}

TEST(LayersTest, PlanBelowHistoryMayBeTurn) {
  std::vector<LayerDecl> order = {{LayerKind::kPersona, Volatility::kStatic},
                                  {LayerKind::kHistory, Volatility::kSession},
                                  {LayerKind::kPlan, Volatility::kTurn},
                                  {LayerKind::kTail, Volatility::kTurn}};
  auto r = ValidateLayerOrder(order, OrderPolicy::kRefuse);
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->empty());
}

TEST(LayersTest, LayerMapPrintsOneEntryPerLine) {
  LayerMap map = {{"persona", Volatility::kStatic, "", 0, 5},
                  {"instructions", Volatility::kSession, "AGENTS.md", 7, 20}};
  EXPECT_EQ(FormatLayerMap(map),
            "[\n"
            "  {\"layer\":\"persona\",\"volatility\":\"static\",\"begin\":0,\"end\":5},\n"
            "  {\"layer\":\"instructions\",\"volatility\":\"session\",\"source\":\"AGENTS.md\","
            "\"begin\":7,\"end\":20}\n"
            "]\n");
}

}  // namespace
}  // namespace strata
