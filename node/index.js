// index.js: strata for Node: the N-API addon (src/addon.cc, over libstrata's C ABI) with JSON
// parsed and documents stringified. Types: index.d.ts. Errors are thrown as Error with the
// library's message ("path:line:col: error: message").
'use strict';
const path = require('path');
const native = require(path.join(__dirname, 'build', 'Release', 'strata.node'));

const json = (value) => (value === undefined || value === null ? '' : JSON.stringify(value));
const text = (value) => (typeof value === 'string' ? value : JSON.stringify(value));

/** An assembling session (docs/assemble.md). */
class Session {
  constructor(document) {
    this._native = new native.Session(text(document));
  }
  update(changes) { this._native.update(json(changes)); }
  beginTurn(userText) { this._native.beginTurn(userText); }
  append(message) { this._native.append(json(message)); }
  compact(history) { this._native.compact(json(history)); }
  render(provider = 'anthropic') {
    const [request, map] = this._native.render(provider);
    return { request, ...JSON.parse(map) };
  }
  close() { this._native.close(); }
}

/** The cache accounting of a conversation's requests under one provider's cache model. */
class Accountant {
  constructor(cacheModel = 'anthropic', options = {}) {
    this._native = new native.Accountant(cacheModel, json(options));
  }
  account(request, provider = 'anthropic', timeS = 0) {
    return JSON.parse(this._native.account(request, provider, timeS));
  }
  close() { this._native.close(); }
}

module.exports = {
  version: () => native.version(),
  hasLocal: () => native.hasLocal(),
  compile: (root, options = {}) => JSON.parse(native.compile(root, json(options))),
  discover: (dir, options = {}) => JSON.parse(native.discover(dir, json(options))),
  replay: (transcript, options = {}) => {
    const { format = 'strata', provider = 'anthropic', ...rest } = options;
    return JSON.parse(native.replay(transcript, format, provider, json(rest)));
  },
  explain: (a, b, options = {}) => JSON.parse(native.explain(a, b, json(options))),
  Session,
  Accountant,
};
