"""Abstracts and titles as readable plain text, for showing them: ``plain("90\\% of $O(\\sqrt{T})$")`` is
"90% of O(√T)". Storage never goes through here: the stored abstract is what citations quote, exactly.

About 31% of the ICLR 2026 abstracts hold LaTeX (``90\\%``, ``$\\alpha$``, ``\\textbf{..}``, author macros) and
some Markdown (``**bold**``). They are prose with fragments of LaTeX, not documents, so this is a small
converter of our own rather than pylatexenc's ``LatexNodes2Text``, which reads them as documents: it takes
a bare ``%`` ("by 8.3% on ...") as a comment and drops the rest of the abstract, drops ``\\texttt{..}``
whole, writes ``\\mathbf{T}`` as the mathematical bold letter 𝐓, and loses text at an unbalanced ``$`` or
``{``. Here unknown macros give their argument (or their name: ``\\ours``), nothing is dropped unread, and
``plain`` never raises: on anything it cannot read it returns the text as it was.

``search_forms(title)``: the plain spellings of the name a title coins ("S$^2$-Guidance" -> "S²-Guidance",
"S2-Guidance"), for an index that should find the paper by what a user types.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["plain", "search_forms"]

_MARKUP = re.compile(r"[\\$]|\*\*")  # text without any of these is returned as it is
# Inline math: $...$ whose content is short and either hugs its dollars (pandoc's rule, so "costs $5 and $10"
# stays text) or holds LaTeX; $$...$$, \(...\) and \[...\].
_MATH = re.compile(r"\$\$(?P<display>.{1,400}?)\$\$|\\\((?P<paren>.{1,400}?)\\\)|\\\[(?P<bracket>.{1,400}?)\\\]"
                   r"|(?<![\\$])\$(?P<inline>[^$]{1,300}?)(?<!\\)\$", re.S)
_MATH_MARKS = re.compile(r"[\\^_{}]")
_BOLD = re.compile(r"\*\*(?=\S)(.{1,300}?)(?<=\S)\*\*", re.S)

ESCAPED = set("%&$#_{}")  # \% is %
GREEK = {name: chr(code) for name, code in (
    ("alpha", 0x3B1), ("beta", 0x3B2), ("gamma", 0x3B3), ("delta", 0x3B4), ("epsilon", 0x3F5), ("varepsilon", 0x3B5),
    ("zeta", 0x3B6), ("eta", 0x3B7), ("theta", 0x3B8), ("vartheta", 0x3D1), ("iota", 0x3B9), ("kappa", 0x3BA),
    ("lambda", 0x3BB), ("mu", 0x3BC), ("nu", 0x3BD), ("xi", 0x3BE), ("pi", 0x3C0), ("rho", 0x3C1), ("sigma", 0x3C3),
    ("tau", 0x3C4), ("upsilon", 0x3C5), ("phi", 0x3D5), ("varphi", 0x3C6), ("chi", 0x3C7), ("psi", 0x3C8),
    ("omega", 0x3C9), ("Gamma", 0x393), ("Delta", 0x394), ("Theta", 0x398), ("Lambda", 0x39B), ("Xi", 0x39E),
    ("Pi", 0x3A0), ("Sigma", 0x3A3), ("Upsilon", 0x3A5), ("Phi", 0x3A6), ("Psi", 0x3A8), ("Omega", 0x3A9))}
SYMBOLS = {**GREEK, "times": "×", "cdot": "·", "cdots": "⋯", "ldots": "…", "dots": "…", "sim": "~", "approx": "≈",
           "simeq": "≃", "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "ll": "≪", "gg": "≫",
           "in": "∈", "notin": "∉", "subset": "⊂", "subseteq": "⊆", "cup": "∪", "cap": "∩", "infty": "∞",
           "pm": "±", "mp": "∓", "to": "→", "rightarrow": "→", "leftarrow": "←", "Rightarrow": "⇒",
           "Leftarrow": "⇐", "leftrightarrow": "↔", "mapsto": "↦", "uparrow": "↑", "downarrow": "↓",
           "sum": "∑", "prod": "∏", "int": "∫", "partial": "∂", "nabla": "∇", "ell": "ℓ", "star": "⋆", "ast": "∗",
           "circ": "∘", "top": "⊤", "bot": "⊥", "mid": "|", "propto": "∝", "forall": "∀", "exists": "∃",
           "neg": "¬", "land": "∧", "lor": "∨", "oplus": "⊕", "otimes": "⊗", "dagger": "†", "prime": "′",
           "emptyset": "∅", "langle": "⟨", "rangle": "⟩", "lceil": "⌈", "rceil": "⌉", "lfloor": "⌊",
           "rfloor": "⌋", "Vert": "‖", "vert": "|", "|": "‖", "backslash": "\\", "textemdash": "—",
           "textendash": "–", "textasciitilde": "~", "textbar": "|", "LaTeX": "LaTeX", "TeX": "TeX"}
OPERATORS = {"log", "ln", "exp", "max", "min", "sup", "inf", "lim", "arg", "det", "sin", "cos", "tan", "Pr",
             "argmax", "argmin", "poly", "polylog", "softmax", "tr"}  # written as words, apart from what they touch
STYLES = {"textbf", "textit", "texttt", "textsc", "textrm", "textsf", "textnormal", "textup", "textmd", "emph",
          "underline", "mbox", "text", "mathbf", "mathrm", "mathit", "mathsf", "mathtt", "mathcal", "mathscr",
          "mathfrak", "boldsymbol", "bm", "operatorname", "mathnormal", "ensuremath", "textsl", "uline"}
TEXT_STYLES = {name for name in STYLES if name.startswith("text") or name in ("emph", "underline", "mbox", "uline")}
SWITCHES = {"bf", "it", "em", "rm", "sf", "tt", "sc", "small", "large", "Large", "footnotesize", "normalsize",
            "noindent", "left", "right", "big", "Big", "bigl", "bigr", "Bigl", "Bigr", "bigg", "Bigg", "biggl",
            "biggr", "displaystyle", "textstyle", "limits", "nolimits", "centering", "newline", "par", "hfill"}
DROPPED = {"cite", "citep", "citet", "citealp", "ref", "eqref", "label", "footnote", "begin", "end", "vspace",
           "hspace", "textcolor", "color"}  # with their argument(s) ("textcolor" keeps its text, below)
SPACES = {",": " ", ";": " ", ":": " ", "!": "", " ": " ", "quad": " ", "qquad": " ", "enspace": " ", "\\": " "}
ACCENTS = {"tilde": "\u0303", "widetilde": "\u0303", "hat": "\u0302", "widehat": "\u0302", "bar": "\u0304",
           "overline": "\u0305", "vec": "\u20d7", "dot": "\u0307", "ddot": "\u0308"}
DOUBLE_STRUCK = dict(zip("RNZQCEP", "ℝℕℤℚℂ𝔼ℙ"))
SUPERSCRIPT = dict(zip("0123456789+-=()abcdefghijklmnoprstuvwxyz",
                       "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ"))
SUBSCRIPT = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
_ASCII = str.maketrans({**{v: k for k, v in SUPERSCRIPT.items()}, **{v: k for k, v in SUBSCRIPT.items()}})


def plain(text: str) -> str:
    """``text`` (LaTeX and Markdown bold in prose) as plain text: ``90\\%`` -> 90%, ``$O(\\sqrt{T})$`` -> O(√T),
    ``\\textbf{x}`` -> x, ``S$^2$`` -> S², ``**bold**`` -> bold. Text with neither is returned as it is."""
    if not isinstance(text, str) or not _MARKUP.search(text):
        return text
    try:
        return _Converter().prose(text)
    except Exception:  # noqa: BLE001 - showing the text as it was beats showing no answer over a stray brace
        return text


def search_forms(title: str) -> list[str]:
    """The plain spellings of the name ``title`` coins, for a lexical index to hold beside the title:
    "S$^2$-Guidance: Stochastic Self-Guidance ..." -> ["S²-Guidance", "S2-Guidance"]; "$\\lambda$-GRPO: ..." ->
    ["λ-GRPO", "lambda-GRPO"]. The name is what comes before the title's colon; with no colon, the words of the
    title that hold LaTeX ("Dynamic $k$-shot In-Context Learning" -> ["k-shot"]). [] when it holds none."""
    if not isinstance(title, str) or not _MARKUP.search(title):
        return []
    head, colon, _rest = title.partition(":")
    names = [head] if colon and _MARKUP.search(head) and len(head.split()) <= 6 else \
        [word for word in re.findall(r"\S*\$[^$]*\$\S*|\S*\\\S+", title)]
    forms: list[str] = []
    for name in names:
        shown = plain(name).strip().strip(":,;.()").strip()
        folded = _folded(shown)
        for form in (shown, folded):
            if form and form != name and form not in forms:
                forms.append(form)
    return forms


def _folded(text: str) -> str:
    """What a user types for ``text``: superscripts and subscripts as plain digits and letters, Greek letters by name."""
    text = text.translate(_ASCII)
    return "".join(next((name for name, char in GREEK.items() if char == ch and name[0] != "v"), ch)
                   if ord(ch) > 0x36F else ch for ch in text)


def _dollars(inline: str, after: str) -> bool:
    """Whether ``$inline$`` is money rather than math: no LaTeX in it, and it is spaced from its dollars
    ("costs $5 and $10") or a price runs on past it ("$5-$10")."""
    if _MATH_MARKS.search(inline):
        return False
    return inline[0].isspace() or inline[-1].isspace() or (inline[0].isdigit() and after.isdigit())


class _Converter:
    """One conversion: prose (with its math found first), then each piece of LaTeX read left to right."""

    def prose(self, text: str) -> str:
        out: list[str] = []
        last = start = 0
        while (match := _MATH.search(text, start)) is not None:
            inline = match.group("inline")
            if inline is not None and _dollars(inline, text[match.end():match.end() + 1]):
                start = match.start() + 1  # its closing dollar may open the next math ("$5: $D$epth")
                continue
            out.append(self.text(text[last:match.start()]))
            body = next(group for group in match.groups() if group is not None)
            out.append(unicodedata.normalize("NFC", re.sub(r"\s+", " ", self.math(body)).strip()))  # Õ, one character
            last = start = match.end()
        out.append(self.text(text[last:]))
        return "".join(out)

    # -- reading ------------------------------------------------------------------------------------
    @staticmethod
    def group(s: str, i: int) -> tuple[str | None, int]:
        """The braced group at ``s[i]`` (after any spaces): its inside and the index past it; (None, i) if
        there is none or it is not closed."""
        j = i
        while j < len(s) and s[j] in " \t":
            j += 1
        if j >= len(s) or s[j] != "{":
            return None, i
        depth, k = 0, j
        while k < len(s):
            if s[k] == "\\":
                k += 2
                continue
            depth += {"{": 1, "}": -1}.get(s[k], 0)
            if depth == 0:
                return s[j + 1:k], k + 1
            k += 1
        return None, i

    def argument(self, s: str, i: int) -> tuple[str, int]:
        """A macro's argument in math: a braced group, a macro (``^\\alpha``) or one character."""
        inside, end = self.group(s, i)
        if inside is not None:
            return inside, end
        while i < len(s) and s[i] == " ":
            i += 1
        if i < len(s) and s[i] == "\\":
            name = re.match(r"\\([A-Za-z]+|.)", s[i:])
            return (name.group(0), i + len(name.group(0))) if name else ("", i + 1)
        return (s[i], i + 1) if i < len(s) else ("", i)

    # -- text mode ----------------------------------------------------------------------------------
    def text(self, s: str) -> str:
        if not _MARKUP.search(s):
            return s
        s = _BOLD.sub(lambda m: m.group(1), s)
        out: list[str] = []
        i = 0
        while i < len(s):
            if s[i] != "\\" or i + 1 >= len(s):
                out.append(s[i])
                i += 1
                continue
            nxt = s[i + 1]
            if nxt in ESCAPED:
                out.append(nxt)
                i += 2
                continue
            if not (nxt.isascii() and nxt.isalpha()):
                out.append(SPACES.get(nxt, nxt))
                i += 2
                continue
            name = re.match(r"[A-Za-z]+", s[i + 1:]).group(0)
            i += 1 + len(name)
            shown, i = self.macro(name, s, i, math=False)
            out.append(shown)
        return "".join(out)

    def macro(self, name: str, s: str, i: int, math: bool) -> tuple[str, int]:
        """What macro ``name`` (its arguments start at ``s[i]``) shows, and where reading goes on."""
        if name in ("url",):
            inside, i = self.group(s, i)
            return inside or "", i
        if name == "href":
            target, i = self.group(s, i)
            label, i = self.group(s, i)
            shown = self.text(label or "")
            return (f"{shown} ({target})" if target and shown and shown != target else shown or target or ""), i
        if name == "textcolor":
            _colour, i = self.group(s, i)
            inside, i = self.group(s, i)
            return (self.math(inside) if math else self.text(inside or "")) if inside else "", i
        if name in DROPPED:
            inside, end = self.group(s, i)
            return "", end
        if name in SWITCHES:
            return "", i
        if name in SPACES:
            return SPACES[name], i
        if name in SYMBOLS:
            return SYMBOLS[name], i
        if name in OPERATORS:
            return f" {name} " if math else name, i
        if name in STYLES:
            inside, end = self.argument(s, i) if math else self.group(s, i)
            if inside is None:
                return "", i
            if name == "mathbb" and inside.strip() in DOUBLE_STRUCK:
                return DOUBLE_STRUCK[inside.strip()], end
            return (self.text(inside) if name in TEXT_STYLES or not math else self.math(inside)), end
        if name == "mathbb":
            inside, end = self.argument(s, i) if math else self.group(s, i)
            inside = inside or ""
            return DOUBLE_STRUCK.get(inside.strip(), self.math(inside)), end
        if math and name in ("frac", "tfrac", "dfrac"):
            top, i = self.argument(s, i)
            bottom, i = self.argument(s, i)
            return f"{self.wrapped(self.math(top))}/{self.wrapped(self.math(bottom))}", i
        if math and name == "sqrt":
            if i < len(s) and s[i] == "[":
                close = s.find("]", i)
                i = close + 1 if close > 0 else i
            inside, i = self.argument(s, i)
            return "√" + self.wrapped(self.math(inside)), i
        if math and name in ACCENTS:
            inside, i = self.argument(s, i)
            shown = self.math(inside)
            return (shown + ACCENTS[name] if len(shown) == 1 else shown), i
        # an author's macro (\method{}, \ours): its arguments' text, or its name when it takes none
        parts: list[str] = []
        while True:
            inside, end = self.group(s, i)
            if inside is None:
                break
            parts.append(self.math(inside) if math else self.text(inside))
            i = end
        shown = " ".join(part for part in parts if part.strip())
        return shown or name, i

    @staticmethod
    def wrapped(shown: str) -> str:
        """``shown`` as one operand: "T", "(n+1)"."""
        shown = shown.strip()
        return shown if re.fullmatch(r"[^\s+\-*/=,<>]*|\(.*\)", shown) else f"({shown})"

    # -- math mode ----------------------------------------------------------------------------------
    def math(self, s: str) -> str:
        out: list[str] = []
        i = 0
        while i < len(s):
            ch = s[i]
            if ch == "\\" and i + 1 < len(s):
                nxt = s[i + 1]
                if nxt in ESCAPED:
                    out.append(nxt)
                    i += 2
                elif not (nxt.isascii() and nxt.isalpha()):
                    out.append(SPACES.get(nxt, SYMBOLS.get(nxt, nxt)))
                    i += 2
                else:
                    name = re.match(r"[A-Za-z]+", s[i + 1:]).group(0)
                    shown, i = self.macro(name, s, i + 1 + len(name), math=True)
                    out.append(shown)
            elif ch in "^_":
                inside, i = self.argument(s, i + 1)
                out.append(self.script(self.math(inside).strip(), SUPERSCRIPT if ch == "^" else SUBSCRIPT, ch))
            elif ch == "{":
                inside, end = self.group(s, i)
                if inside is None:
                    i += 1
                    continue
                out.append(self.math(inside))
                i = end
            elif ch in "}&":
                i += 1
            elif ch == "~":
                out.append(" ")
                i += 1
            else:
                out.append(ch)
                i += 1
        return "".join(out)

    @staticmethod
    def script(shown: str, table: dict[str, str], mark: str) -> str:
        """A superscript or subscript in Unicode's small characters when it has them all, else as ^x or ^(xy)."""
        if shown and all(ch in table for ch in shown):
            return "".join(table[ch] for ch in shown)
        return mark + (shown if len(shown) <= 1 else f"({shown})")
