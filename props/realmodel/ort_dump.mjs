// Runs one model on onnxruntime-node (CPU, one thread) and writes every graph output as raw bytes.
//
//   node props/realmodel/ort_dump.mjs MODEL.onnx FEEDS.json OUT_DIR
//
// FEEDS.json: [{name, type, dims, file}]: type an onnxruntime-node tensor type (float32, int64, ...),
//   file the tensor's little-endian bytes. OUT_DIR/index.json: [{name, type, dims, file}] for every
//   graph output in the session's order, each OUT_DIR/<k>.bin its bytes (copied, never read as JS
//   numbers: NaN payloads and signed zeros are kept). props/realmodel/ort-dump drives it.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// onnxruntime-node as the differential harness installs it (conformance/differential/install).
const require = createRequire(join(here, '..', '..', 'conformance', 'differential', 'package.json'));
const ort = require('onnxruntime-node');

const ARRAYS = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, bool: Uint8Array,
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
  int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
};

async function main() {
  const [modelPath, feedsPath, outDir] = process.argv.slice(2);
  if (!modelPath || !feedsPath || !outDir) {
    console.error('usage: node ort_dump.mjs MODEL.onnx FEEDS.json OUT_DIR');
    process.exit(2);
  }
  // One thread, default graph optimisations: what a user gets, the same on every run.
  const session = await ort.InferenceSession.create(readFileSync(modelPath), {
    executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, logSeverityLevel: 3,
  });
  const feeds = {};
  for (const f of JSON.parse(readFileSync(feedsPath, 'utf8'))) {
    const bytes = readFileSync(f.file);
    const buf = new ArrayBuffer(bytes.length);
    new Uint8Array(buf).set(bytes);
    const Arr = ARRAYS[f.type];
    if (!Arr) throw new Error(`ort_dump: no typed array for ${f.type}`);
    feeds[f.name] = new ort.Tensor(f.type, new Arr(buf), f.dims);
  }
  const out = await session.run(feeds);
  mkdirSync(outDir, { recursive: true });
  const index = session.outputNames.map((name, k) => {
    const t = out[name];
    const d = t.data;
    const file = join(outDir, `${k}.bin`);
    writeFileSync(file, Buffer.from(d.buffer, d.byteOffset, d.byteLength));
    return { name, type: t.type, dims: t.dims.map(Number), file };
  });
  writeFileSync(join(outDir, 'index.json'), JSON.stringify(index));
  await session.release?.();
}

main().catch((e) => { console.error(`ort_dump: ${e.message || e}`); process.exit(1); });
