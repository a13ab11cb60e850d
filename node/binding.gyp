{
  "targets": [{
    "target_name": "strata",
    "sources": ["src/addon.cc"],
    "include_dirs": [
      "<!@(node -p \"require('node-addon-api').include_dir\")",
      "<!@(node scripts/find-strata.js include)"
    ],
    "defines": ["NAPI_VERSION=8", "NAPI_DISABLE_CPP_EXCEPTIONS", "NODE_ADDON_API_DISABLE_DEPRECATED"],
    "cflags_cc": ["-std=c++17", "-Wall", "-Wextra"],
    "libraries": [
      "-L<!(node scripts/find-strata.js libdir)", "-lstrata",
      "-Wl,-rpath,<!(node scripts/find-strata.js libdir)"
    ]
  }]
}
