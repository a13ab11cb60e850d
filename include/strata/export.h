// export.h: STRATA_EXPORT, the mark of strata's public API. libstrata.so is built with hidden
// visibility (-fvisibility=hidden), so it exports only what carries this mark: each public
// header's `namespace STRATA_EXPORT strata { ... }` (the C++ API of include/strata/) and the C ABI
// of include/strata.h. Internal code (src/) stays inside the library, as leveldb does with
// LEVELDB_EXPORT and llama.cpp with LLAMA_API.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define STRATA_EXPORT [[gnu::visibility("default")]]
#else
#define STRATA_EXPORT
#endif
