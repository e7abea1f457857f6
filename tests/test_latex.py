"""LaTeX and Markdown in abstracts and titles shown as plain text (``assistant.latex``), never changed in storage."""

from __future__ import annotations

import gzip
import json

import pytest

from assistant.latex import plain, search_forms

from .conftest import ROOT

CORPUS = ROOT.parent / "shared" / "corpus" / "iclr2026.jsonl.gz"


@pytest.mark.parametrize("raw, shown", [
    (r"improves accuracy by 90\% on", "improves accuracy by 90% on"),
    (r"a regret of $O(\sqrt{T})$ after", "a regret of O(√T) after"),
    (r"\textbf{bold}, \texttt{code} and \emph{stress}", "bold, code and stress"),
    (r"S$^2$-Guidance", "S²-Guidance"),
    (r"$\alpha$-divergence", "α-divergence"),
    ("**bold** words", "bold words"),
    (r"$\mathbf{T^2HTR}$", "T²HTR"),
    (r"\textbf{T}est-\textbf{t}ime", "Test-time"),
    (r"our \mymacro{LongName} and \ours.", "our LongName and ours."),  # author macros: their argument, or name
    (r"$\mathcal{O}(n\log n)$ time", "O(n log n) time"),
    (r"$\geq 3\times$ faster, $\sim$10 $\times$", "≥ 3× faster, ~10 ×"),
    (r"$\frac{1}{\sqrt{n}}$ and $\ell_{0}$ and $(L_0,L_1)$", "1/√n and ℓ₀ and (L₀,L₁)"),
    (r"$\mathbb{R}^d$, $\tilde{O}(d)$, $x_{i}^{2}$", "ℝᵈ, Õ(d), xᵢ²"),
    (r"DA$^{2}$: $D$epth $A$nything", "DA²: Depth Anything"),
    (r"only $<$0.1\% more", "only <0.1% more"),
    (r"see \href{https://x.org}{the code} or \url{https://y.org}", "see the code (https://x.org) or https://y.org"),
    (r"as shown~\citep{smith2020}.", "as shown~."),
    # what is no LaTeX is left as it is
    ("costs $5 and $10 each", "costs $5 and $10 each"),
    ("between $5-$10 a run", "between $5-$10 a run"),
    ("a 50% gain at https://github.com/a_b/c~d", "a 50% gain at https://github.com/a_b/c~d"),
    ("snake_case and x^2 outside math", "snake_case and x^2 outside math"),
    # broken input: shown as far as it can be read, never an error
    (r"an unclosed \textbf{brace", r"an unclosed {brace"),
    ("a lone $ dollar and { brace", "a lone $ dollar and { brace"),
    ("{" * 5000 + "x", "{" * 5000 + "x"),
    ("", ""),
])
def test_plain_table(raw, shown):
    assert plain(raw) == shown


@pytest.mark.parametrize("text", ["Plain words, 12% better.\n\n- a list\twith tabs  and  spaces ",
                                  "Ünïcödé — “quotes” (and) [brackets] 3 < 4 > 2", "snake_case_name x^2"])
def test_plain_text_is_returned_as_it_is(text):
    assert plain(text) == text
    assert plain(plain(text)) == plain(text)


def test_plain_output_is_stable():
    raw = r"We get $O(\sqrt{T})$ regret and 90\% accuracy with \textbf{FooNet}."
    assert plain(plain(raw)) == plain(raw)


@pytest.mark.parametrize("title, forms", [
    ("S$^2$-Guidance: Stochastic Self-Guidance for Training-Free Enhancement", ["S²-Guidance", "S2-Guidance"]),
    (r"$\lambda$-GRPO: Unifying the GRPO Frameworks", ["λ-GRPO", "lambda-GRPO"]),
    (r"$\mathbf{T^2HTR}$: $\textbf{T}$est-$\textbf{t}$ime Hierarchical Retrieval", ["T²HTR", "T2HTR"]),
    ("Dynamic $k$-shot In-Context Learning", ["k-shot"]),
    ("A Plain Title: Nothing to Respell", []),
])
def test_search_forms_spell_the_coined_name_plainly(title, forms):
    assert search_forms(title) == forms


def test_every_title_and_abstract_of_the_real_corpus_converts():
    """Never raises, leaves no LaTeX in most of what had it, and leaves plain text alone (19,622 papers)."""
    if not CORPUS.exists():
        pytest.skip(f"the ICLR 2026 corpus is not at {CORPUS} (shared/ beside the repository)")
    with gzip.open(CORPUS, "rt", encoding="utf-8") as fh:
        texts = [t for line in fh for row in [json.loads(line)] for t in (row["title"], row["abstract"])]
    marked = [t for t in texts if "\\" in t or "$" in t]
    shown = [plain(t) for t in marked]
    still = sum(1 for s in shown if "\\" in s or "$" in s)
    assert len(marked) > 5000 and still < 0.02 * len(marked)
    unmarked = [t for t in texts if not ("\\" in t or "$" in t or "**" in t)]
    assert all(plain(t) == t for t in unmarked[:5000])
