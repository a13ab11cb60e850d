// apply_budget.h: spends the per-file and total budgets over an ordered list of sources.
#pragma once

#include <vector>

#include "discover/budget.h"
#include "strata/discover.h"

namespace strata::discover {

// Cuts each source to the per-file budget, and (when `spend_total`) to what remains of the total
// budget after the sources before it, root first as Codex does. A cut source gets a `truncated`
// warning naming the file, the budget and the bytes cut.
void ApplyBudgets(const Budget& budget, bool spend_total, std::vector<Source>* sources,
                  std::vector<Diagnostic>* diagnostics);

}  // namespace strata::discover
