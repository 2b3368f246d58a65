"""Fit the display-title sequence model (research/title_seq/title_seq_numpy.py) and score it on validation.

    .venv/bin/python research/title_seq/build_title_seq.py --out MODEL.npz [DATA] [--today TODAY.json]
        [--epochs 8] [--beam 4] [--prefix TITLES.json]

An experiment, NOT shipped (docs/bench/titles.md): a pointer-generator written in torch,
exported to float16 numpy arrays and scored by the numpy decoder. Only ICLR 2026 papers
outside the held-out split (`areas.is_held_out`) are read; the validation fifth of
`build_titles.validation` is kept out of the fit and scores the model: ROUGE-L of the numpy
decoder's titles against the real ones, beside the extractive titles' when --today gives them
(JSON id -> today's display title). --prefix puts a title (today's, JSON id -> title) before
each abstract for the model to edit. Needs torch (the optional extra); seeds fixed; one
thread (about 3 CPU-minutes an epoch on the shared machine).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))  # build_titles: the shipped titles' training split
sys.path.insert(0, str(HERE))

import title_seq_numpy  # noqa: E402
from build_titles import titled_training_rows, validation  # noqa: E402
from paperatlas.enrich.text import clean, sentences  # noqa: E402
from paperatlas.enrich.titles import rouge_l  # noqa: E402
from title_seq_numpy import (  # noqa: E402
    BOS,
    PAD,
    SHAPES,
    SRC_MAX,
    UNK,
    TitleSeq,
    source,
    tokens,
)

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "iclr2026.jsonl.gz"
TGT_MAX = 24


def load(path: Path) -> list[dict]:
    rows = titled_training_rows(path)
    for r in rows:
        r["_text"] = " ".join(sentences(clean(r["abstract"])))
        r["_src"], r["_shapes"] = source(r["_text"])
        r["_tgt"] = [t.lower() for t in tokens(clean(r["title"]))][:TGT_MAX]
    return rows


def vocabularies(rows: list[dict], src_size: int, out_size: int) -> tuple[list[str], list[str]]:
    df: Counter[str] = Counter()
    title_counts: Counter[str] = Counter()
    for r in rows:
        df.update({t.lower() for t in r["_src"]} | set(r["_tgt"]))
        title_counts.update(r["_tgt"])
    src = ["<pad>", "<unk>", "<bos>"] + [w for w, c in df.most_common(src_size - 3) if c >= 3]
    out = ["<eos>", "<unk>"] + [w for w, c in title_counts.most_common(out_size - 2) if c >= 3]
    return src, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    parser.add_argument("--out", required=True, help="the model file to write (.npz)")
    parser.add_argument("--today", help="JSON id -> today's display title of the validation papers")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--dim", type=int, default=128)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--src-vocab", type=int, default=16000)
    parser.add_argument("--out-vocab", type=int, default=2000)
    parser.add_argument("--dropout", type=float, default=0.15)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--val-n", type=int, default=0, help="score only the first N validation papers")
    parser.add_argument("--beam", type=int, default=1, help="hypotheses kept when scoring (1: greedy)")
    parser.add_argument("--prefix", help="JSON id -> a title put before the abstract (an experiment)")
    parser.add_argument("--fit-n", type=int, default=0, help="fit on the first N papers only (a smoke test)")
    args = parser.parse_args()

    import torch

    torch.manual_seed(0)
    random.seed(0)
    np.random.seed(0)
    torch.set_num_threads(args.threads)
    t0 = time.time()
    rows = load(Path(args.data))
    if args.prefix:  # experiment: the extractive title before the abstract, for the model to edit
        prefix = json.loads(Path(args.prefix).read_text(encoding="utf-8"))
        for r in rows:
            r["_text"] = prefix[r["id"]] + " § " + r["_text"]
            r["_src"], r["_shapes"] = source(r["_text"])
    fit_rows = [r for r in rows if not validation(r["id"])]
    fit_rows = fit_rows[: args.fit_n] if args.fit_n else fit_rows
    val_rows = [r for r in rows if validation(r["id"])]
    src_vocab, out_vocab = vocabularies(fit_rows, args.src_vocab, args.out_vocab)
    print(
        f"{len(rows)} training papers ({len(val_rows)} for validation); source vocabulary {len(src_vocab)}, "
        f"output vocabulary {len(out_vocab)}; loaded in {time.time() - t0:.0f} s",
        flush=True,
    )
    model = Model(len(src_vocab), len(out_vocab), args)
    fit(model, fit_rows, val_rows, src_vocab, out_vocab, args)
    arrays = export(model, src_vocab, out_vocab, args)
    np.savez_compressed(args.out, **arrays)
    print(f"wrote {args.out} ({Path(args.out).stat().st_size / 1e6:.1f} MB)", flush=True)
    title_seq_numpy.BEAM = args.beam
    seq = TitleSeq(dict(np.load(args.out, allow_pickle=False)))
    scored = val_rows[: args.val_n] if args.val_n else val_rows
    t1 = time.process_time()
    titles = {r["id"]: seq.title(r["_text"]) or "" for r in scored}
    ms = (time.process_time() - t1) / len(scored) * 1000
    new = [rouge_l(titles[r["id"]], r["title"]) for r in scored]
    line = f"validation ROUGE-L (numpy decoder, beam {args.beam}, {len(scored)} papers, {ms:.1f} CPU ms/title): {np.mean(new):.4f}"
    if args.today:
        today = json.loads(Path(args.today).read_text(encoding="utf-8"))
        old = [rouge_l(today[r["id"]], r["title"]) for r in scored]
        line += f"; today's titles on the same papers {np.mean(old):.4f}"
    print(line, flush=True)
    for r in scored[:12]:
        print(f"  real: {r['title']}\n  new:  {titles[r['id']]}")
    Path(args.out + ".val.json").write_text(json.dumps(titles), encoding="utf-8")


def _model_classes():
    import torch
    from torch import nn

    class Layer(nn.Module):
        def __init__(self, d: int, heads: int, ff: int, dropout: float) -> None:
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.qkv, self.out = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.ff1, self.ff2 = nn.Linear(d, ff), nn.Linear(ff, d)
            self.heads, self.drop = heads, nn.Dropout(dropout)

        def forward(self, x, pad):
            b, n, d = x.shape
            h = self.heads
            q, k, v = self.qkv(self.ln1(x)).view(b, n, 3, h, d // h).permute(2, 0, 3, 1, 4)
            y = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=~pad[:, None, None, :])
            y = y.transpose(1, 2).reshape(b, n, d)
            x = x + self.drop(self.out(y))
            return x + self.drop(self.ff2(torch.relu(self.ff1(self.ln2(x)))))

    return Layer


class Model:  # a thin holder so the torch classes stay inside functions (torch is optional)
    def __new__(cls, src_size: int, out_size: int, args):
        import torch
        from torch import nn

        Layer = _model_classes()
        d, hid = args.dim, args.hidden

        class PG(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.emb = nn.Embedding(src_size, d, padding_idx=PAD)
                self.shape_emb = nn.Embedding(SHAPES, d)
                self.pos_emb = nn.Embedding(SRC_MAX, d)
                self.enc = nn.ModuleList([Layer(d, 4, 2 * d, args.dropout) for _ in range(args.layers)])
                self.enc_ln = nn.LayerNorm(d)
                self.att = nn.Parameter(torch.randn(d, hid) / d**0.5)
                self.init = nn.Linear(d, hid)
                self.gru = nn.GRUCell(2 * d, hid)
                self.proj = nn.Linear(hid + d, hid)
                self.vocab = nn.Linear(hid, out_size)
                self.gen = nn.Linear(hid + 2 * d, 1)
                self.drop = nn.Dropout(args.dropout)

            def encode(self, src, shp):
                pad = src == PAD
                pos = torch.arange(src.shape[1])
                x = self.drop(self.emb(src) + self.shape_emb(shp) + self.pos_emb(pos)[None])
                for layer in self.enc:
                    x = layer(x, pad)
                return self.enc_ln(x), pad

            def forward(self, src, shp, dec_in, tgt_out, copy_mask):
                """Mean negative log chance of the title tokens (steps with no way to write
                the token are skipped)."""
                enc, pad = self.encode(src, shp)
                mask = (~pad).float()
                mean = (enc * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
                h = torch.tanh(self.init(mean))
                ctx = torch.zeros(src.shape[0], d)
                es = self.drop(self.emb(dec_in))
                hs, atts, ctxs = [], [], []
                for t in range(dec_in.shape[1]):
                    h = self.gru(torch.cat([es[:, t], ctx], -1), h)
                    q = h @ self.att.T  # scores = enc @ att @ h
                    s = torch.bmm(enc, q[:, :, None]).squeeze(-1).masked_fill(pad, -1e9)
                    a = s.softmax(-1)
                    ctx = torch.bmm(a[:, None, :], enc).squeeze(1)
                    hs.append(h)
                    atts.append(a)
                    ctxs.append(ctx)
                hc = torch.cat([torch.stack(hs, 1), torch.stack(ctxs, 1)], -1)  # (B, T, hid + d)
                att = torch.stack(atts, 1)  # (B, T, S)
                o = self.drop(torch.tanh(self.proj(hc)))
                pv = self.vocab(o).softmax(-1)
                g = torch.sigmoid(self.gen(torch.cat([hc, es], -1))).squeeze(-1)
                p_vocab = pv.gather(2, tgt_out.clamp(min=0)[..., None]).squeeze(-1) * (tgt_out >= 0).float()
                p_copy = (att * copy_mask.float()).sum(-1)
                p = g * p_vocab + (1 - g) * p_copy
                ok = (((tgt_out >= 0) | copy_mask.any(-1)) & (tgt_out != -2)).float()
                return (-torch.log(p + 1e-9) * ok).sum() / ok.sum().clamp(min=1)

        return PG()


def batches(rows, src_vocab, out_vocab, size, shuffle, rng):
    import torch

    si = {w: i for i, w in enumerate(src_vocab)}
    oi = {w: i for i, w in enumerate(out_vocab)}
    order = list(range(len(rows)))
    if shuffle:
        rng.shuffle(order)
    for b in range(0, len(order), size):
        chunk = [rows[i] for i in order[b : b + size]]
        n = max(len(r["_src"]) for r in chunk)
        t = max(len(r["_tgt"]) for r in chunk) + 1
        src = torch.zeros(len(chunk), n, dtype=torch.long)
        shp = torch.zeros(len(chunk), n, dtype=torch.long)
        dec_in = torch.zeros(len(chunk), t, dtype=torch.long)
        tgt = torch.full((len(chunk), t), -2, dtype=torch.long)  # -2: padding, -1: not in the vocabulary
        copy = torch.zeros(len(chunk), t, n, dtype=torch.bool)
        for k, r in enumerate(chunk):
            low = [x.lower() for x in r["_src"]]
            src[k, : len(low)] = torch.tensor([si.get(x, UNK) for x in low])
            shp[k, : len(low)] = torch.tensor(r["_shapes"])
            words = r["_tgt"]
            dec_in[k, : len(words) + 1] = torch.tensor([BOS] + [si.get(x, UNK) for x in words])
            tgt[k, : len(words) + 1] = torch.tensor([oi.get(x, -1) for x in words] + [0])
            positions: dict[str, list[int]] = {}
            for j, x in enumerate(low):
                positions.setdefault(x, []).append(j)
            for step, x in enumerate(words):
                for j in positions.get(x, ()):
                    copy[k, step, j] = True
        yield src, shp, dec_in, tgt, copy


def fit(model, fit_rows, val_rows, src_vocab, out_vocab, args) -> None:
    import torch

    rng = random.Random(0)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    total = args.epochs * ((len(fit_rows) + 63) // 64)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=total, pct_start=0.1)
    for epoch in range(args.epochs):
        t0 = time.time()
        model.train()
        tot, nb = 0.0, 0
        for src, shp, dec_in, tgt, copy in batches(fit_rows, src_vocab, out_vocab, 64, True, rng):
            loss = model(src, shp, dec_in, tgt, copy)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            tot, nb = tot + loss.item(), nb + 1
        model.eval()
        with torch.no_grad():
            vl = [float(model(*b)) for b in batches(val_rows[:800], src_vocab, out_vocab, 100, False, rng)]
        print(
            f"  epoch {epoch + 1}: fit loss {tot / nb:.3f}, validation loss {np.mean(vl):.3f} ({time.time() - t0:.0f} s)",
            flush=True,
        )


def export(model, src_vocab, out_vocab, args) -> dict[str, np.ndarray]:
    sd = {k: v.detach().numpy() for k, v in model.state_dict().items()}
    a: dict[str, np.ndarray] = {
        "src_vocab": np.array("\n".join(src_vocab)),
        "out_vocab": np.array("\n".join(out_vocab)),
        "layers": np.array([args.layers], dtype=np.float16),
        "heads": np.array([4], dtype=np.float16),
        "emb": sd["emb.weight"],
        "shape_emb": sd["shape_emb.weight"],
        "pos_emb": sd["pos_emb.weight"],
        "enc_ln.w": sd["enc_ln.weight"],
        "enc_ln.b": sd["enc_ln.bias"],
        "att.w": sd["att"],
        "init.w": sd["init.weight"],
        "init.b": sd["init.bias"],
        "gru.w_ih": sd["gru.weight_ih"],
        "gru.w_hh": sd["gru.weight_hh"],
        "gru.b_ih": sd["gru.bias_ih"],
        "gru.b_hh": sd["gru.bias_hh"],
        "proj.w": sd["proj.weight"],
        "proj.b": sd["proj.bias"],
        "vocab.w": sd["vocab.weight"],
        "vocab.b": sd["vocab.bias"],
        "gen.w": sd["gen.weight"][0],
        "gen.b": sd["gen.bias"],
    }
    for i in range(args.layers):
        for name in ("ln1", "ln2", "qkv", "out", "ff1", "ff2"):
            a[f"enc{i}.{name}.w"] = sd[f"enc.{i}.{name}.weight"]
            a[f"enc{i}.{name}.b"] = sd[f"enc.{i}.{name}.bias"]
    return {k: (v.astype(np.float16) if v.dtype == np.float32 else v) for k, v in a.items()}


if __name__ == "__main__":
    main()
