#!/usr/bin/env node
// build.js: the install step: builds the addon from source with node-gyp against libstrata
// (scripts/find-strata.js says where) and this node's own headers (PREFIX/include/node beside the
// node binary: nodesource and Debian's nodejs ship them), so nothing is downloaded.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { find, tried } = require('./find-strata');

const found = find();
if (!found) {
  console.error(`strata: libstrata not found (tried ${tried.join('; ')}).\n` +
    'Install strata (cmake --install build --prefix P) where pkg-config finds it ' +
    '(PKG_CONFIG_PATH=P/lib/pkgconfig), or set STRATA_PREFIX=P.');
  process.exit(1);
}
const nodedir = path.resolve(path.dirname(process.execPath), '..');
if (!fs.existsSync(path.join(nodedir, 'include', 'node', 'node_api.h'))) {
  console.error(`strata: node's headers are not in ${nodedir}/include/node ` +
    '(install the nodejs package that ships them, e.g. Debian libnode-dev)');
  process.exit(1);
}
const candidates = [
  process.env.npm_config_node_gyp,
  path.join(nodedir, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  path.join(nodedir, 'share', 'nodejs', 'node-gyp', 'bin', 'node-gyp.js'),
].filter((p) => p && fs.existsSync(p));
if (!candidates.length) {
  console.error('strata: node-gyp not found (it comes with npm)');
  process.exit(1);
}
const run = spawnSync(process.execPath,
  [candidates[0], 'rebuild', `--nodedir=${nodedir}`, '--jobs=2'],
  { cwd: path.resolve(__dirname, '..'), stdio: 'inherit' });
process.exit(run.status === null ? 1 : run.status);
