// serve_harness.mjs: starts `strata-local serve` on 127.0.0.1 and a free port (--port 0; the
// ready line on stderr names the port) for one SDK script, collects its per-request log lines,
// and stops it. Every wait is bounded.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

export function requireFrom(modules) {
  return createRequire(path.join(modules, 'noop.js'));
}

export async function startServer(strataLocal, model, store, extra = []) {
  const args = ['serve', '--model', model, '--port', '0', '--store', store, '--ctx', '2048',
                '--threads', '1', ...extra];
  const child = spawn(strataLocal, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const lines = [];
  let buffered = '';
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('strata serve did not start in 60 s')), 60000);
    child.stderr.on('data', (chunk) => {
      buffered += chunk.toString();
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        lines.push(line);
        const m = line.match(/listening on (http:\/\/[\d.]+:\d+)/);
        if (m) { clearTimeout(timer); resolve(m[1]); }
      }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`strata serve exited with ${code}: ${lines.join('\n')}`)); });
  });
  const url = await ready;
  return {
    url,
    lines,  // every stderr line so far
    // The log lines of generation requests (`serve: api=...`), parsed into objects.
    requests() {
      return lines.filter((l) => l.startsWith('serve: api=')).map((l) => Object.fromEntries(
        l.slice('serve: '.length).split(' ').filter((kv) => kv.includes('=')).map((kv) => {
          const [k, v] = kv.split('=');
          return [k, /^\d+$/.test(v) ? Number(v) : v];
        })));
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => {
        const timer = setTimeout(() => { child.kill('SIGKILL'); resolve(); }, 10000);
        child.on('exit', () => { clearTimeout(timer); resolve(); });
      });
    },
  };
}

export function check(condition, message) {
  if (!condition) throw new Error('check failed: ' + message);
}

// Runs `body` and exits 0, or prints the error and exits 1; the server is always stopped.
export async function main(body) {
  const [strataLocal, model, modules, scratch] = process.argv.slice(2);
  let server;
  try {
    server = await startServer(strataLocal, model, path.join(scratch, 'kv'));
    await body({ server, require: requireFrom(modules), strataLocal, model, scratch });
    console.log('ok');
  } catch (e) {
    console.error(e.stack || String(e));
    if (server) console.error(server.requests());
    process.exitCode = 1;
  } finally {
    if (server) await server.stop();
  }
}
