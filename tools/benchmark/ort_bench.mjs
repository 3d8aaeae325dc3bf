// The onnxruntime side of tools/bench: one model, one set of inputs, one session created once, then
// REPS timed `session.run` calls (each allocates its outputs afresh); prints one JSON line.
// Two times per call: `session.run` as node sees it (ORT, plus the binding: wrapping the inputs,
// copying each output into a new JS buffer), and the node's kernel alone as ORT's own profiler
// records it (the `<node>_kernel_time` events: Compute(), output allocation from ORT's arena
// included). For a 16M-element Max the binding is most of it (51 ms against a 12 ms kernel).
//
//   node --expose-gc ort_bench.mjs CASE.json REPS
//
// CASE.json: {model: "model.onnx", feeds: [{name, type, dims, file}], profile, warmup}: type is an
//   onnxruntime-node tensor type (float32, float64, float16, int32, uint8, int64), file the tensor's raw
//   little-endian bytes, read straight into the buffer the tensor wraps (no second copy). profile
//   (default true): false runs without ORT's profiler (kernel_ms is then empty: the whole-model rows of
//   `tools/bench --whole` time the inference alone); warmup (default 0): untimed session.run calls
//   before the timed ones.
// Prints {ok: true, ms: [each run], kernel_ms: [each run], out_elements, peak_mib} (peak_mib: node's own maxRSS, which Linux
//   carries over from the process that spawned node: ort_case.py reads /usr/bin/time's %M instead) or {ok: false, stage: "load"|"run", error}
//   (ORT refused the model or the run: a case, not a failure of this script; exit status 0 either way).
// onnxruntime-node comes from conformance/differential/node_modules (conformance/differential/install).
// One intra-op thread, as the other two sides (sonnx-ref and numpy run an operator on one core);
// default graph optimisations; ORT picks its own kernels by the CPU's instruction set (MLAS).
import { closeSync, fstatSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '..', '..', 'conformance', 'differential', 'package.json'));
const ort = require('onnxruntime-node');

const ARRAYS = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, int32: Int32Array,
  uint8: Uint8Array, int64: BigInt64Array,
};

function tensorFromFile(type, dims, file) {
  const fd = openSync(file, 'r');
  const size = fstatSync(fd).size;
  const buf = new ArrayBuffer(size);
  for (let at = 0; at < size;) {
    const got = readSync(fd, new Uint8Array(buf), at, size - at, at);
    if (got <= 0) throw new Error(`ort_bench: short read of ${file}`);
    at += got;
  }
  closeSync(fd);
  return new ort.Tensor(type, new ARRAYS[type](buf), dims);
}

async function main() {
  const [casePath, repsText] = process.argv.slice(2);
  const reps = Number(repsText);
  if (!casePath || !(reps >= 1)) {
    console.error('usage: node --expose-gc ort_bench.mjs CASE.json REPS');
    process.exit(2);
  }
  const c = JSON.parse(readFileSync(casePath, 'utf8'));
  const feeds = {};
  for (const f of c.feeds) feeds[f.name] = tensorFromFile(f.type, f.dims, f.file);
  let session;
  const profile = c.profile !== false;
  const profiles = mkdtempSync(join(tmpdir(), 'sonnx-ort-profile-'));
  try {
    session = await ort.InferenceSession.create(readFileSync(c.model), {
      executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, logSeverityLevel: 3,
      ...(profile ? { enableProfiling: true, profileFilePrefix: join(profiles, 'ort') } : {}),
    });
  } catch (e) {
    console.log(JSON.stringify({ ok: false, stage: 'load', error: String(e.message || e) }));
    rmSync(profiles, { recursive: true, force: true });
    return;
  }
  const ms = [];
  let outElements = 0;
  try {
    for (let k = 0; k < (c.warmup || 0); k++) await session.run(feeds);  // untimed
    globalThis.gc?.();
    for (let k = 0; k < reps; k++) {
      const t0 = process.hrtime.bigint();
      let out = await session.run(feeds);
      ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
      outElements = out[session.outputNames[0]].size;
      out = null;
      globalThis.gc?.();  // outside the timed part: free the outputs now (node --expose-gc), as numpy's del does
    }
  } catch (e) {
    console.log(JSON.stringify({ ok: false, stage: 'run', error: String(e.message || e) }));
    rmSync(profiles, { recursive: true, force: true });
    return;
  }
  if (profile) session.endProfiling();
  // Per run (a `model_run` event), the sum of its nodes' kernel times: ORT may add nodes of its own
  // (a Cast around a kernel it lacks for a type), which are part of the node's cost.
  const events = readdirSync(profiles).flatMap((f) => JSON.parse(readFileSync(join(profiles, f), 'utf8')));
  const kernels = events.filter((ev) => ev.cat === 'Node' && String(ev.name).endsWith('_kernel_time'));
  const kernelMs = events.filter((ev) => ev.name === 'model_run').map((run) => kernels
    .filter((ev) => ev.ts >= run.ts && ev.ts <= run.ts + run.dur)
    .reduce((sum, ev) => sum + ev.dur / 1e3, 0));  // dur in µs
  rmSync(profiles, { recursive: true, force: true });
  console.log(JSON.stringify({
    ok: true, ms, kernel_ms: kernelMs, out_elements: outElements, peak_mib: process.resourceUsage().maxRSS / 1024,
  }));
}

main().catch((e) => { console.error(e); process.exit(1); });
