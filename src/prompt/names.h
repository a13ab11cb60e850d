// names.h: the stable names of the prompt vocabulary's enums, one table per enum. Every place that
// parses a name (session files, transcripts, flags) or prints one (layer maps, messages) uses
// these tables, so a name is spelt once.
#pragma once

#include "base/enum_names.h"
#include "strata/prompt.h"

namespace strata {

// Message roles as strata's own formats spell them (session files, transcripts).
inline constexpr EnumName<Role> kRoleNames[] = {
    {Role::kUser, "user"},
    {Role::kAssistant, "assistant"},
    {Role::kToolResult, "tool"},
    {Role::kContextUpdate, "context-update"},
};

inline constexpr EnumName<ToolOrder> kToolOrderNames[] = {
    {ToolOrder::kSorted, "sorted"},
    {ToolOrder::kRegistration, "registration"},
};

inline constexpr EnumName<Volatility> kVolatilityNames[] = {
    {Volatility::kStatic, "static"},
    {Volatility::kSession, "session"},
    {Volatility::kTurn, "turn"},
};

inline constexpr EnumName<LayerKind> kLayerKindNames[] = {
    {LayerKind::kPersona, "persona"},
    {LayerKind::kTools, "tools"},
    {LayerKind::kRules, "rules"},
    {LayerKind::kEnvironment, "environment"},
    {LayerKind::kInstructions, "instructions"},
    {LayerKind::kSkills, "skills"},
    {LayerKind::kNotes, "notes"},
    {LayerKind::kPlan, "plan"},
    {LayerKind::kHistory, "history"},
    {LayerKind::kTail, "tail"},
};

}  // namespace strata
