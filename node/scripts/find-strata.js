#!/usr/bin/env node
// find-strata.js include|libdir: where libstrata's headers and library are, for binding.gyp.
// In order (the first that holds include/strata.h and libstrata.so wins):
//   1. $STRATA_PREFIX: an install prefix (PREFIX/include, PREFIX/lib or lib64 or lib/<arch>);
//      or $STRATA_INCLUDE_DIR (one or more dirs, ':'-separated) with $STRATA_LIB_DIR;
//   2. pkg-config's strata.pc (`pkg-config --cflags-only-I / --variable=libdir strata`);
//   3. an in-tree build: this folder inside a strata clone (../include/strata.h) and its
//      ../build*/libstrata.so (the generated build_config.h beside it).
// Prints the answer (space-separated for include); exits 1 naming what was tried.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const has = (p) => { try { fs.accessSync(p); return true; } catch { return false; } };
const libIn = (dir) => has(path.join(dir, 'libstrata.so'));
const tried = [];

function fromPrefix(prefix) {
  const include = path.join(prefix, 'include');
  const libs = ['lib', 'lib64', 'lib/x86_64-linux-gnu', 'lib/aarch64-linux-gnu']
    .map((d) => path.join(prefix, d)).filter(libIn);
  tried.push(`STRATA_PREFIX=${prefix}`);
  return has(path.join(include, 'strata.h')) && libs.length ? { include: [include], libdir: libs[0] } : null;
}

function fromEnvDirs() {
  const include = process.env.STRATA_INCLUDE_DIR.split(':').filter(Boolean);
  const libdir = process.env.STRATA_LIB_DIR || '';
  tried.push(`STRATA_INCLUDE_DIR=${include.join(':')} STRATA_LIB_DIR=${libdir}`);
  return include.some((d) => has(path.join(d, 'strata.h'))) && libIn(libdir) ? { include, libdir } : null;
}

function fromPkgConfig() {
  tried.push('pkg-config strata');
  try {
    const opts = { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] };
    const libdir = execFileSync('pkg-config', ['--variable=libdir', 'strata'], opts).trim();
    const include = execFileSync('pkg-config', ['--cflags-only-I', 'strata'], opts)
      .trim().split(/\s+/).filter(Boolean).map((f) => f.replace(/^-I/, ''));
    return libIn(libdir) ? { include, libdir } : null;
  } catch { return null; }
}

function fromTree() {
  const repo = path.resolve(__dirname, '..', '..');
  tried.push(`in-tree build under ${repo}`);
  if (!has(path.join(repo, 'include', 'strata.h'))) return null;
  const builds = fs.readdirSync(repo).filter((d) => d.startsWith('build'))
    .map((d) => path.join(repo, d)).filter(libIn).sort();
  if (!builds.length) return null;
  return { include: [path.join(repo, 'include'), path.join(builds[0], 'generated', 'include')],
           libdir: builds[0] };
}

function find() {
  if (process.env.STRATA_PREFIX) return fromPrefix(process.env.STRATA_PREFIX);
  if (process.env.STRATA_INCLUDE_DIR) return fromEnvDirs();
  return fromPkgConfig() || fromTree();
}

module.exports = { find, tried };

if (require.main === module) {
  const found = find();
  if (!found) {
    process.stderr.write(`strata: libstrata not found (tried ${tried.join('; ')}). Install strata ` +
      '(cmake --install) where pkg-config finds it, or set STRATA_PREFIX.\n');
    process.exit(1);
  }
  process.stdout.write(process.argv[2] === 'libdir' ? found.libdir : found.include.join(' '));
}
