const [sdkDir, port] = process.argv.slice(2);
const { default: OpenAI } = await import(`${sdkDir}/index.mjs`).catch(() => import(`${sdkDir}/index.js`));
const client = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'x' });
const texts = ['The cache keeps the prefix.', 'Tools come before the messages.', 'A third, different sentence.'];
// Default call (the SDK asks for base64 and decodes it) and an explicit float call, two clients at once.
const [a, b] = await Promise.all([
  client.embeddings.create({ model: 'emb', input: texts }),
  client.embeddings.create({ model: 'emb', input: texts, encoding_format: 'float' }),
]);
let maxdiff = 0;
for (let i = 0; i < texts.length; ++i) {
  const x = a.data[i].embedding, y = b.data[i].embedding;
  if (x.length !== y.length) throw new Error(`length ${x.length} vs ${y.length}`);
  for (let k = 0; k < x.length; ++k) maxdiff = Math.max(maxdiff, Math.abs(x[k] - y[k]));
}
const norm = Math.hypot(...a.data[0].embedding);
console.log(JSON.stringify({ n: a.data.length, dim: a.data[0].embedding.length, maxdiff, norm: norm.toFixed(6), usage: a.usage, type: typeof a.data[0].embedding[0] }));
