// Runs a batch of differential cases on onnxruntime-node (CPU), in one process.
//
//   node lib/ort_runner.mjs MANIFEST.json RESULTS.jsonl [--skip N]
//
// MANIFEST: [{id, model: "path/to/model.onnx", feeds: [{name, type, dims, hex}], optimized?}, ...]
//   optimized (optional): where ORT writes the graph it actually runs (optimizedModelFilePath).
//   type is an onnxruntime-node tensor type (float32, float16, float64, int8 ... uint64, bool);
//   hex is the little-endian raw bytes of the tensor.
// RESULTS: one JSON line per case, appended as soon as the case ends (so a native crash loses at
//   most the case that crashed; the caller restarts with --skip):
//   {id, ok: true, outputs: [{name, type, dims, hex}]}  or  {id, ok: false, stage, error}
// Bytes are copied, never read as JS numbers, so NaN payloads and signed zeros are kept.
import { readFileSync, appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '..', 'package.json'));
const ort = require('onnxruntime-node');

const ARRAYS = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, bool: Uint8Array,
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
  int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
};

function tensorFromHex(type, dims, hex) {
  const bytes = Buffer.from(hex, 'hex');
  const buf = new ArrayBuffer(bytes.length);
  new Uint8Array(buf).set(bytes);
  const Arr = ARRAYS[type];
  if (!Arr) throw new Error(`runner: no typed array for ${type}`);
  return new ort.Tensor(type, new Arr(buf), dims);
}

function hexOf(tensor) {
  const d = tensor.data;
  return Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('hex');
}

// One thread: the results must not depend on how ORT splits work across threads, and the
// machine has 2 cores. Default graph optimisations, as a user gets them.
const SESSION_OPTIONS = {
  executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, logSeverityLevel: 3,
};

export async function runCase(c) {
  let session;
  try {
    const options = c.optimized ? { ...SESSION_OPTIONS, optimizedModelFilePath: c.optimized } : SESSION_OPTIONS;
    session = await ort.InferenceSession.create(readFileSync(c.model), options);
  } catch (e) {
    return { id: c.id, ok: false, stage: 'load', error: String(e.message || e) };
  }
  try {
    const feeds = {};
    for (const f of c.feeds) feeds[f.name] = tensorFromHex(f.type, f.dims, f.hex);
    const out = await session.run(feeds);
    const outputs = session.outputNames.map((name) => ({
      name, type: out[name].type, dims: out[name].dims.map(Number), hex: hexOf(out[name]),
    }));
    return { id: c.id, ok: true, outputs };
  } catch (e) {
    return { id: c.id, ok: false, stage: 'run', error: String(e.message || e) };
  } finally {
    await session.release?.();
  }
}

async function main() {
  const [manifestPath, resultsPath, ...rest] = process.argv.slice(2);
  if (!manifestPath || !resultsPath) {
    console.error('usage: node ort_runner.mjs MANIFEST.json RESULTS.jsonl [--skip N]');
    process.exit(2);
  }
  const skip = rest[0] === '--skip' ? Number(rest[1]) : 0;
  const cases = JSON.parse(readFileSync(manifestPath, 'utf8'));
  for (let i = skip; i < cases.length; i++) {
    const r = await runCase(cases[i]);
    appendFileSync(resultsPath, JSON.stringify(r) + '\n');
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e) => { console.error(e); process.exit(1); });
}
