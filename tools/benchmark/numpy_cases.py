"""The numpy side of tools/bench: the computation of one case of cases.txt, written as a user
would write it in numpy, timed the same way as sonnx-bench (median of REPS, fresh output each time).
Usage: /usr/bin/python3 numpy_cases.py CASE ELEMENTS REPS
Prints: median ms <TAB> ns/element <TAB> peak MiB <TAB> MiB before the timed part"""
import resource
import sys
import time

import numpy as np

case, n, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cols = 4096
rows = max(16, n // cols)
rng = np.random.default_rng(1)


def filled(shape, dtype):
    if dtype == np.float16:
        bits = rng.integers(0, 1 << 16, size=shape, dtype=np.uint16)
        bits[(bits & 0x7FFF) >= 0x6400] &= 0x83FF  # keep |x| < 1024, no Inf or NaN
        return bits.view(np.float16)
    if np.issubdtype(dtype, np.floating):
        return (rng.integers(-1000000, 1000001, size=shape) / 1000).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype)


def hardmax(x, axis):
    y = np.zeros_like(x)
    np.put_along_axis(y, np.expand_dims(np.argmax(x, axis=axis), axis), 1, axis=axis)
    return y


kind, _, rest = case.partition("-")
types = {"float": np.float32, "double": np.float64, "float16": np.float16, "int32": np.int32, "uint8": np.uint8}
if kind in ("max2", "max4") and rest in types:
    t = types[rest]
    x, b = filled((rows, cols), t), filled((rows, cols), t)
    if kind == "max2":
        run = lambda: np.maximum(x, b)
    else:
        c, d = filled((rows, 1), t), filled((cols,), t)
        run = lambda: np.maximum(np.maximum(np.maximum(x, b), c), d)
elif case in ("max2-row-float", "max2-column-float", "max2-scalar-float"):
    x = filled((rows, cols), np.float32)
    b = filled({"max2-row-float": (cols,), "max2-column-float": (rows, 1), "max2-scalar-float": ()}[case], np.float32)
    run = lambda: np.maximum(x, b)
elif case == "reducemax-axis0-float":
    x = filled((rows, cols), np.float32)
    run = lambda: np.max(x, axis=0)
elif case == "reducemax-axis1-float":
    x = filled((rows, cols), np.float32)
    run = lambda: np.max(x, axis=1)
elif case == "reducemax-all-float":
    x = filled((rows, cols), np.float32)
    run = lambda: np.max(x)
elif case == "hardmax-last-float":
    x = filled((rows, cols), np.float32)
    run = lambda: hardmax(x, -1)
elif case == "hardmax-first-float":
    x = filled((rows, cols), np.float32)
    run = lambda: hardmax(x, 0)
elif case == "hardmax11-coerced-float":
    x = filled((rows // 16, 16, cols), np.float32)
    run = lambda: hardmax(x.reshape(rows // 16, 16 * cols), 1).reshape(x.shape)
elif kind == "min2" and rest in types:
    x, b = filled((rows, cols), types[rest]), filled((rows, cols), types[rest])
    run = lambda: np.minimum(x, b)
elif case in ("reducemin-axis0-float", "reducemin-axis1-float", "reducemin-all-float"):
    x = filled((rows, cols), np.float32)
    axis = {"reducemin-axis0-float": 0, "reducemin-axis1-float": 1, "reducemin-all-float": None}[case]
    run = lambda: np.min(x, axis=axis)
elif case in ("argmax-last-float", "argmax-first-float", "argmin-last-float", "argmin-first-float"):
    x = filled((rows, cols), np.float32)
    f = np.argmax if kind == "argmax" else np.argmin
    axis = -1 if rest == "last-float" else 0
    run = lambda: f(x, axis=axis)
elif kind == "relu" and rest in types:
    x = filled((rows, cols), types[rest])
    zero = types[rest](0)
    run = lambda: np.maximum(x, zero)
elif kind == "clip" and rest in types:
    x = filled((rows, cols), types[rest])
    lo, hi = types[rest](-100), types[rest](100)
    run = lambda: np.clip(x, lo, hi)
elif case in ("transpose-float", "transpose-021-float"):  # issue 33 (wt-gather): a materialised copy, as Transpose's
    x = filled((rows, cols) if case == "transpose-float" else (rows // 16, 16, cols), np.float32)
    axes = (1, 0) if case == "transpose-float" else (0, 2, 1)
    run = lambda: np.ascontiguousarray(np.transpose(x, axes))
elif case in ("gather-rows-float", "gather-cols-float"):
    x = filled((rows, cols), np.float32)
    axis = 0 if case == "gather-rows-float" else 1
    idx = rng.integers(0, x.shape[axis], size=x.shape[axis], dtype=np.int64)
    run = lambda: np.take(x, idx, axis=axis)
elif kind in ("maxpool3s2", "maxpool2s2"):
    from numpy.lib.stride_tricks import sliding_window_view
    shapes = {"1x64x112": (1, 64, 112, 112), "8x64x56": (8, 64, 56, 56), "8x128x56": (8, 128, 56, 56)}
    with_indices = rest.startswith("idx-")
    x = filled(shapes[rest.removeprefix("idx-")], np.float32)
    k, pad = (3, 1) if kind == "maxpool3s2" else (2, 0)

    def pool():
        xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), constant_values=-np.inf) if pad else x
        v = sliding_window_view(xp, (k, k), axis=(2, 3))[:, :, ::2, ::2]
        if not with_indices:
            return v.max(axis=(-2, -1))
        w = v.reshape(v.shape[:4] + (k * k,))
        a = w.argmax(axis=-1)  # the flattened index in X of each window's maximum, row-major
        oh = np.arange(v.shape[2])[:, None] * 2 - pad + a // k
        ow = np.arange(v.shape[3])[None, :] * 2 - pad + a % k
        plane = (np.arange(x.shape[0])[:, None, None, None] * x.shape[1] + np.arange(x.shape[1])[None, :, None, None])
        return np.take_along_axis(w, a[..., None], -1)[..., 0], (plane * x.shape[2] + oh) * x.shape[3] + ow
    run = pool
elif kind in ("conv3x3", "conv7x7s2", "convdw"):
    # What a user would write instead of the reference: float64 (so that the rounding of the sum is far
    # below float's), the zero-padded input, im2col, one matrix product (numpy links BLAS for it).
    from numpy.lib.stride_tricks import sliding_window_view
    (xs, ws, stride, pad, group) = {"conv3x3": ((1, 64, 56, 56), (64, 64, 3, 3), 1, 1, 1),
                                    "conv7x7s2": ((1, 3, 224, 224), (64, 3, 7, 7), 2, 3, 1),
                                    "convdw": ((1, 256, 56, 56), (256, 1, 3, 3), 1, 1, 256)}[kind]
    x, w, b = filled(xs, np.float32), filled(ws, np.float32), filled((ws[0],), np.float32)
    k = ws[2]

    def conv():
        xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
        cols = sliding_window_view(xp, (k, k), axis=(2, 3))[:, :, ::stride, ::stride]  # [1, C, OH, OW, k, k]
        oh, ow = cols.shape[2], cols.shape[3]
        if group == 1:
            m = np.ascontiguousarray(cols[0].transpose(1, 2, 0, 3, 4)).reshape(oh * ow, -1)  # im2col: [P, C*k*k]
            y = m @ w.astype(np.float64).reshape(ws[0], -1).T
            return (y.T.reshape(ws[0], oh, ow) + b.astype(np.float64)[:, None, None])[None]
        m = np.ascontiguousarray(cols[0].reshape(xs[1], oh * ow, k * k))  # depthwise: one product per channel
        y = np.matmul(m, w.astype(np.float64).reshape(ws[0], k * k, 1))[..., 0]
        return (y.reshape(ws[0], oh, ow) + b.astype(np.float64)[:, None, None])[None]
    run = conv
elif case == "gemm-1x2048x1000":
    x, bm, c = filled((1, 2048), np.float32), filled((2048, 1000), np.float32), filled((1000,), np.float32)
    x64, b64, c64 = x.astype(np.float64), bm.astype(np.float64), c.astype(np.float64)
    run = lambda: x64 @ b64 + c64
elif case == "matmul-512":
    x, bm = filled((512, 512), np.float32), filled((512, 512), np.float32)
    x64, b64 = x.astype(np.float64), bm.astype(np.float64)
    run = lambda: x64 @ b64
elif case in ("add-float-16x1024x1024", "mul-float-16x1024x1024", "add-row-float-16x1024x1024"):
    x = filled((16, 1024, 1024), np.float32)
    b = filled((1024,) if case.startswith("add-row") else (16, 1024, 1024), np.float32)
    run = (lambda: np.multiply(x, b)) if case.startswith("mul") else (lambda: np.add(x, b))
elif case in ("reducemean-64x1024x1024", "reducesum-64x1024x1024"):  # binary64, as the oracle sums
    x = filled((64, 1024, 1024), np.float32)
    run = (lambda: x.astype(np.float64).mean(axis=-1)) if case.startswith("reducemean") else (lambda: x.astype(np.float64).sum(axis=-1))
elif case == "sum3-float":
    x, b, c = filled((rows, cols), np.float32), filled((rows, cols), np.float32), filled((rows, cols), np.float32)
    run = lambda: x.astype(np.float64) + b + c
elif case == "batchnorm-8x64x56":
    # numpy's float64 equivalent: (x - mean) / np.sqrt(var + eps) * scale + B, the parameters float64 and
    # broadcast per channel (x is converted to float64 by the subtraction)
    x = filled((8, 64, 56, 56), np.float32)
    s64, b64, m64, v64 = (filled((64,), np.float32).astype(np.float64).reshape(1, 64, 1, 1) for _ in range(4))
    v64 = np.abs(v64)
    eps = float(np.float32(1e-5))
    run = lambda: (x - m64) / np.sqrt(v64 + eps) * s64 + b64
elif case == "globalmaxpool-8x512x14":
    x = filled((8, 512, 14, 14), np.float32)
    run = lambda: np.max(x, axis=(2, 3), keepdims=True)
elif case == "averagepool3-8x64x56":
    # numpy's float64 equivalent: the sum of the 9 shifted slices of the zero-padded input, divided by
    # each window's count of positions inside X (count_include_pad 0), from the padded ones.
    x = filled((8, 64, 56, 56), np.float32)

    def avgpool():
        xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
        ones = np.pad(np.ones((56, 56)), 1)
        s = np.zeros((8, 64, 56, 56))
        cnt = np.zeros((56, 56))
        for i in range(3):
            for j in range(3):
                s += xp[:, :, i:i + 56, j:j + 56]
                cnt += ones[i:i + 56, j:j + 56]
        return s / cnt
    run = avgpool
elif case == "globalaveragepool-8x512x14":
    x = filled((8, 512, 14, 14), np.float32)
    run = lambda: np.mean(x, axis=(2, 3), keepdims=True, dtype=np.float64)
elif case in ("softmax-64x1000", "sigmoid-float", "exp-float", "lrn-1x96x55"):  # issue 32: float64 throughout
    shape = (64, 1000) if case == "softmax-64x1000" else (1, 96, 55, 55) if case == "lrn-1x96x55" else (rows, cols)
    x = filled(shape, np.float32) / np.float32(100)

    def softmax():
        x64 = x.astype(np.float64)
        e = np.exp(x64 - x64.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    def lrn():  # the window of 5 channels, clipped at the ends: the sum of the shifted squares
        x64 = x.astype(np.float64)
        sq = np.pad(x64 * x64, ((0, 0), (2, 2), (0, 0), (0, 0)))
        s = sq[:, 0:96] + sq[:, 1:97] + sq[:, 2:98] + sq[:, 3:99] + sq[:, 4:100]
        return x64 / (1.0 + (float(np.float32(1e-4)) / 5) * s) ** 0.75
    run = {"softmax-64x1000": softmax, "sigmoid-float": lambda: 1 / (1 + np.exp(-x.astype(np.float64))),
           "exp-float": lambda: np.exp(x.astype(np.float64)), "lrn-1x96x55": lrn}[case]
elif case == "pow-float":  # issue 32: float64 throughout
    x = np.abs(filled((rows, cols), np.float32)) / np.float32(100) + np.float32(0.01)
    e = filled((rows, cols), np.float32) / np.float32(500)
    run = lambda: np.power(x.astype(np.float64), e.astype(np.float64))
else:
    sys.exit(f"numpy_cases.py: unknown case {case}")

before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
times = []
for _ in range(reps):
    t0 = time.perf_counter()
    y = run()
    times.append((time.perf_counter() - t0) * 1e3)
    y = y[0] if isinstance(y, tuple) else y
    elements = max(y.size, x.size)
    del y
times.sort()
median = times[len(times) // 2]
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{median:.3f}\t{median * 1e6 / elements:.3f}\t{peak:.1f}\t{before:.1f}")
