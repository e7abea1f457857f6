"""Answer latency with the local model: time to first piece, to the first model token, total, and tokens/s.

``assistant.stream(question, llm="local")`` on the bundled corpus (a fresh temporary store).
For each question it records:

- ``first piece``: the stream's first text (``answer.timings["first_token"]``: the "N papers
  address this:" line, known as soon as retrieval is done);
- ``first model token``: the first token the model produces (the backend's stream, wrapped);
- ``first model text``: the first piece the reader sees that the model wrote (the stream shows
  a rewrite only once it is checked against the evidence, so a whole sentence later);
- ``total``: ``answer.timings["total"]``;
- tokens/s: tokens streamed by the model over the time spent generating them (decode), and
  over the whole time inside the model (prompt + decode).

The model is loaded once before the clock starts (its load time is printed on its own).

    python bench/answer.py                  # 12 dev-set questions
    python bench/answer.py --questions 20
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))


class TimedBackend:
    """Wraps a backend's ``stream`` (in place, on the instance the assistant holds) to see when tokens come out."""

    def __init__(self, backend) -> None:
        self.inner_stream = backend.stream
        self.calls: list[dict] = []
        backend.stream = self.stream

    def stream(self, messages, max_tokens):
        call = {"start": time.perf_counter(), "first": None, "end": None, "tokens": 0}
        self.calls.append(call)
        for piece in self.inner_stream(messages, max_tokens):
            now = time.perf_counter()
            if call["first"] is None:
                call["first"] = now
            call["tokens"] += 1  # llama.cpp streams one token per chunk
            yield piece
        call["end"] = time.perf_counter()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=12)
    parser.add_argument("--backend", default="onnx", help="encoder runtime for retrieval")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    from assistant import Assistant, Settings
    from assistant.embedding import Embedder

    dev = [json.loads(line) for line in (ROOT / "tests" / "data" / "dev.jsonl").read_text().splitlines() if line.strip()]
    questions = [row["question"] for row in dev if row["relevant"]][:args.questions]
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-answer-") as home:
        assistant = Assistant(Settings.from_env(env={}, home=home, llm="local"), embedder=Embedder(backend=args.backend))
        assistant.ingest()
        backend, _note = assistant.backend("local")
        if backend is None:
            raise SystemExit("the local model is not available (llama-cpp-python or the GGUF is missing)")
        started = time.perf_counter()
        backend.model  # noqa: B018  (load the GGUF before the clock starts)
        load = time.perf_counter() - started
        timed = TimedBackend(backend)
        assistant.search("warm up retrieval", k=1)
        for question in questions:
            timed.calls.clear()
            t0 = time.perf_counter()
            stream = assistant.stream(question, llm="local")  # retrieval and evidence happen here
            retrieved = time.perf_counter() - t0
            first_piece = first_model_text = None
            header_seen = False
            for piece in stream:
                now = time.perf_counter() - t0
                if first_piece is None:
                    first_piece = now
                if piece.startswith("\n- **"):
                    header_seen = True
                elif header_seen and first_model_text is None:
                    first_model_text = now
            done = time.perf_counter() - t0
            answer = stream.answer
            calls = [c for c in timed.calls if c["first"] is not None]
            tokens = sum(c["tokens"] for c in calls)
            decode = sum(c["end"] - c["first"] for c in calls)
            inside = sum(c["end"] - c["start"] for c in calls)
            rows.append({"question": question, "citations": len(answer.citations), "retrieval_s": retrieved,
                         "first_piece_s": first_piece,
                         "first_model_token_s": (calls[0]["first"] - t0) if calls else None,
                         "first_model_text_s": first_model_text, "total_s": done,
                         "timings": dict(answer.timings),
                         "tokens": tokens, "calls": len(calls), "decode_s": decode, "model_s": inside,
                         "decode_tok_per_s": (tokens - len(calls)) / decode if decode else None,
                         "tok_per_s": tokens / inside if inside else None})

    print(f"local model {backend.name}: loaded in {load:.2f}s; {len(rows)} questions (answers cite 1-5 papers, one model call each)")
    print("seconds from the question (retrieval + evidence included); timings[] = the answer's own timings dict, from the stream's start")
    print(f"{'retrieval':>9} {'first piece':>12} {'1st model tok':>14} {'1st model text':>15} {'total':>8} "
          f"{'timings[first_token]':>21} {'timings[total]':>15} {'tokens':>7} {'decode tok/s':>13} {'tok/s':>7}  question")
    for r in rows:
        def fmt(value, width, spec=".2f"):
            return f"{value:>{width}{spec}}" if value is not None else f"{'-':>{width}}"
        print(f"{fmt(r['retrieval_s'], 9)} {fmt(r['first_piece_s'], 12)} {fmt(r['first_model_token_s'], 14)} "
              f"{fmt(r['first_model_text_s'], 15)} {fmt(r['total_s'], 8)} {fmt(r['timings'].get('first_token'), 21)} "
              f"{fmt(r['timings'].get('total'), 15)} {r['tokens']:>7} {fmt(r['decode_tok_per_s'], 13, '.1f')} "
              f"{fmt(r['tok_per_s'], 7, '.1f')}  {r['question'][:40]}")

    def med(key):
        values = [r[key] for r in rows if r[key] is not None]
        return statistics.median(values) if values else float("nan")

    tokens = sum(r["tokens"] for r in rows)
    decode = sum(r["decode_s"] for r in rows)
    calls = sum(r["calls"] for r in rows)
    inside = sum(r["model_s"] for r in rows)
    print(f"median: retrieval {med('retrieval_s'):.2f}s, first piece {med('first_piece_s'):.2f}s, first model token {med('first_model_token_s'):.2f}s, "
          f"first model text {med('first_model_text_s'):.2f}s, total {med('total_s'):.2f}s")
    print(f"overall: {tokens} tokens; decode {(tokens - calls) / decode if decode else float('nan'):.1f} tok/s; "
          f"{tokens / inside if inside else float('nan'):.1f} tok/s including prompt processing")
    if args.json:
        print(json.dumps({"load_s": load, "rows": rows}))


if __name__ == "__main__":
    main()
